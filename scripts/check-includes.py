#!/usr/bin/env python3
"""Checks that core/ includes follow the module graph of core/CMakeLists.txt.

Each module of core/ is declared there once, with the modules it may use:
    schedscope_module(policies DEPS util params topology engine profiler)
This script reads those declarations and fails when
  - the declared graph has a cycle,
  - a directory of core/ is not a declared module,
  - a file of module M includes "X/..." where X is neither M nor in M's DEPS
    (a wrong-way include, or a header of app/ or anything outside core/),
  - a file includes a header without its module ("foo.h"),
  - a file of core/ includes Qt (core builds and runs without it).

Usage: check-includes.py [ROOT]      (ROOT defaults to the repository)
       check-includes.py --self-test (checks the checker on small trees)
"""

import os
import re
import sys
import tempfile

MODULE_RE = re.compile(r"^\s*schedscope_module\(\s*([A-Za-z0-9_]+)([^)]*)\)", re.M)
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
QT_RE = re.compile(r"^Q[A-Za-z]*(/|$)|^Qt")
SOURCE_EXTENSIONS = (".h", ".hpp", ".cpp", ".cc")


def read_graph(cmake_file):
    """{module: set of modules it may include} from schedscope_module() calls."""
    with open(cmake_file, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"#.*", "", text)
    graph = {}
    for name, rest in MODULE_RE.findall(text):
        words = rest.split()
        deps, section = set(), None
        for w in words:
            if w in ("DEPS", "LIBS"):
                section = w
            elif section == "DEPS":
                deps.add(w)
        graph[name] = deps
    return graph


def find_cycle(graph):
    """A list of modules forming a cycle, or None."""
    state, stack = {}, []

    def visit(m):
        state[m] = "open"
        stack.append(m)
        for d in sorted(graph.get(m, ())):
            if state.get(d) == "open":
                return stack[stack.index(d):] + [d]
            if d not in state:
                found = visit(d)
                if found:
                    return found
        stack.pop()
        state[m] = "done"
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def check(root):
    """Returns the list of problems found in root/core."""
    core = os.path.join(root, "core")
    cmake_file = os.path.join(core, "CMakeLists.txt")
    graph = read_graph(cmake_file)
    problems = []
    if not graph:
        return [f"{cmake_file}: no schedscope_module() declarations"]
    for m, deps in sorted(graph.items()):
        for d in sorted(deps - graph.keys()):
            problems.append(f"{cmake_file}: module {m} depends on {d}, which is not a module")
    cycle = find_cycle(graph)
    if cycle:
        problems.append(f"{cmake_file}: the module graph has a cycle: {' -> '.join(cycle)}")

    for module in sorted(os.listdir(core)):
        mdir = os.path.join(core, module)
        if not os.path.isdir(mdir):
            continue
        if module not in graph:
            problems.append(f"core/{module}/: not a module in core/CMakeLists.txt (add schedscope_module({module} DEPS ...))")
            continue
        allowed = graph[module] | {module}
        for dirpath, _, files in os.walk(mdir):
            for fname in sorted(files):
                if not fname.endswith(SOURCE_EXTENSIONS):
                    continue
                path = os.path.join(dirpath, fname)
                rel = os.path.relpath(path, root)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for n, line in enumerate(f, 1):
                        mm = INCLUDE_RE.match(line)
                        if not mm:
                            continue
                        kind, header = mm.groups()
                        if kind == "<":
                            if QT_RE.match(header):
                                problems.append(f"{rel}:{n}: core includes Qt <{header}>; core must build without Qt")
                            continue
                        if "/" not in header:
                            problems.append(f'{rel}:{n}: write the include as "module/{header}" (relative to core/)')
                            continue
                        target = header.split("/", 1)[0]
                        if target not in graph:
                            problems.append(f'{rel}:{n}: "{header}" is not a header of a core module '
                                            f"(core never includes app/ or anything outside core/)")
                        elif target not in allowed:
                            deps = " ".join(sorted(graph[module])) or "none"
                            problems.append(f'{rel}:{n}: {module} may not include "{header}": {target} is not '
                                            f"among {module}'s DEPS ({deps}) in core/CMakeLists.txt")
    return problems


def self_test():
    """Runs check() on small trees, each with one kind of fault, and on a good one."""
    cmake = ("schedscope_module(util)\n"
             "schedscope_module(engine DEPS util LIBS foo)\n"
             "schedscope_module(policies DEPS util engine)\n")
    cases = [
        ("good", cmake, {"engine/a.h": '#include "util/b.h"\n#include <vector>\n',
                         "policies/p.cpp": '#include "engine/a.h"\n#include "policies/q.h"\n'}, None),
        ("wrong way", cmake, {"engine/a.h": '#include "policies/p.h"\n'}, "engine may not include"),
        ("qt", cmake, {"engine/a.cpp": "#include <QString>\n"}, "core includes Qt"),
        ("app", cmake, {"engine/a.cpp": '#include "gui/main_window.h"\n'}, "not a header of a core module"),
        ("bare", cmake, {"engine/a.cpp": '#include "a.h"\n'}, 'write the include as "module/a.h"'),
        ("undeclared", cmake, {"extra/x.h": "\n"}, "not a module in core/CMakeLists.txt"),
        ("cycle", cmake + "schedscope_module(util DEPS policies)\n", {"util/u.h": "\n"}, "has a cycle"),
    ]
    failed = 0
    for name, cmake_text, files, expected in cases:
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "core"))
            with open(os.path.join(root, "core", "CMakeLists.txt"), "w") as f:
                f.write(cmake_text)
            for rel, text in files.items():
                path = os.path.join(root, "core", rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write(text)
            problems = check(root)
            ok = (not problems) if expected is None else any(expected in p for p in problems)
            if not ok:
                failed += 1
                print(f"self-test '{name}': expected {expected or 'no problem'}, got {problems}")
    print(f"self-test: {len(cases) - failed} of {len(cases)} cases as expected")
    return 1 if failed else 0


def main(argv):
    if len(argv) > 1 and argv[1] == "--self-test":
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    problems = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} include problem(s); the module graph is in core/CMakeLists.txt")
        return 1
    print("core includes follow the module graph of core/CMakeLists.txt")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
