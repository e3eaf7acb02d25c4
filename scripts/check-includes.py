#!/usr/bin/env python3
"""Checks the include graph of the whole tree.

core/ follows the module graph of core/CMakeLists.txt:
Each module of core/ is declared there once, with the modules it may use:
    schedscope_module(policies DEPS util params topology engine profiler)
This script reads those declarations and fails when
  - the declared graph has a cycle,
  - a directory of core/ is not a declared module,
  - a file of module M includes "X/..." where X is neither M nor in M's DEPS
    (a wrong-way include, or a header of app/ or anything outside core/),
  - a file includes a header without its module ("foo.h"),
  - a file of core/ includes Qt (core builds and runs without it).

The code outside core/ (app/cli, app/gui, bench, fuzz, tests/*) follows the
AREAS table below: every quoted include is resolved the way the compiler
does (the including file's directory first, then the area's include path
from its CMakeLists.txt), and the check fails when
  - the header is not found on that path (a header of another area that only
    resolves by accident elsewhere, or a typo),
  - the header belongs to an area or core module the area may not use
    (the CLI never reaches the GUI; bench and fuzz use core only),
  - the GUI includes a header of core's engine outside its narrow API
    (GUI_ENGINE_API: the recording, the simulation's queries, the shared
    types), or a core module it does not use (policies, workloads, params,
    sweep: it names policies and workloads through catalog),
  - a file outside app/gui and tests/app includes Qt.

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


# The areas outside core/, longest path first so app/gui/panels/x.h belongs to
# app/gui. For each: the include path after the file's own directory (as its
# CMakeLists.txt sets it), the other areas it may include, the core modules it
# may include ("all" or a set), and whether it may include Qt.
ALL = "all"
AREAS = {
    "app/cli": dict(path=["core"], areas=set(), core=ALL, qt=False),
    "app/gui": dict(path=["app/gui", "core"], areas=set(),
                    core={"analysis", "catalog", "engine", "export", "profiler", "scenario", "topology", "util"},
                    qt=True),
    "bench": dict(path=["core"], areas=set(), core=ALL, qt=False),
    "fuzz": dict(path=["core"], areas=set(), core=ALL, qt=False),
    "tests/core": dict(path=["core", "fuzz"], areas={"fuzz"}, core=ALL, qt=False),
    "tests/app": dict(path=["app/gui", "core"], areas={"app/gui", "tests/core"}, core=ALL, qt=True),
    "tests/golden": dict(path=["core"], areas=set(), core=ALL, qt=False),
}

# The headers of core/engine the GUI may include: what it reads a run through
# (recording.h), the simulation's const queries (simulation.h) and the plain
# types both share (sim_types.h). Anything else of the engine is internal;
# widen this list only with a header meant as API for a viewer.
GUI_ENGINE_API = {"engine/recording.h", "engine/simulation.h", "engine/sim_types.h"}


def area_of(rel):
    """(kind, name) of a repository-relative path: ("core", module), ("area", name) or (None, None)."""
    parts = rel.split("/")
    if parts[0] == "core" and len(parts) > 2:
        return "core", parts[1]
    for name in sorted(AREAS, key=len, reverse=True):
        if rel == name or rel.startswith(name + "/"):
            return "area", name
    return None, None


def check_area(root, area, rule, graph):
    """The problems of one area outside core/."""
    problems = []
    adir = os.path.join(root, area)
    if not os.path.isdir(adir):
        return problems
    for dirpath, _, files in sorted(os.walk(adir)):
        for fname in sorted(files):
            if not fname.endswith(SOURCE_EXTENSIONS):
                continue
            path = os.path.join(dirpath, fname)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            with open(path, encoding="utf-8", errors="replace") as f:
                for n, line in enumerate(f, 1):
                    mm = INCLUDE_RE.match(line)
                    if not mm:
                        continue
                    kind, header = mm.groups()
                    if kind == "<":
                        if not rule["qt"] and QT_RE.match(header):
                            problems.append(f"{rel}:{n}: {area} includes Qt <{header}>; only app/gui and "
                                            f"tests/app use Qt")
                        continue
                    found = None
                    for base in [dirpath] + [os.path.join(root, p) for p in rule["path"]]:
                        candidate = os.path.normpath(os.path.join(base, header))
                        if os.path.isfile(candidate):
                            found = os.path.relpath(candidate, root).replace(os.sep, "/")
                            break
                    if found is None:
                        problems.append(f'{rel}:{n}: "{header}" is not found beside the file or on {area}\'s '
                                        f"include path ({' '.join(rule['path'])})")
                        continue
                    tkind, target = area_of(found)
                    if tkind == "core":
                        if target not in graph:
                            problems.append(f'{rel}:{n}: "{header}" is in core/{target}/, which is not a module')
                        elif rule["core"] != ALL and target not in rule["core"]:
                            problems.append(f'{rel}:{n}: {area} may not include "{header}": it uses core modules '
                                            f"{' '.join(sorted(rule['core']))} only")
                        elif area == "app/gui" and target == "engine" and found[len("core/"):] not in GUI_ENGINE_API:
                            problems.append(f'{rel}:{n}: the GUI may not include "{header}": of the engine it uses '
                                            f"{' '.join(sorted(GUI_ENGINE_API))} only")
                    elif tkind == "area":
                        if target != area and target not in rule["areas"]:
                            allowed = " ".join(sorted(rule["areas"])) or "none"
                            what = "the CLI never reaches the GUI" if (area, target) == ("app/cli", "app/gui") \
                                else f"{area} may include core and {allowed}"
                            problems.append(f'{rel}:{n}: "{header}" is a header of {target}: {what}')
                    else:
                        problems.append(f'{rel}:{n}: "{header}" resolves to {found}, outside every checked area')
    return problems


def check_tree(root):
    """check() on core/ and the areas outside it."""
    problems = check(root)
    graph = read_graph(os.path.join(root, "core", "CMakeLists.txt"))
    for area, rule in sorted(AREAS.items()):
        problems += check_area(root, area, rule, graph)
    return problems


def write_tree(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def self_test():
    """Runs check_tree() on small trees, each with one kind of fault, and on a good one."""
    cmake = ("schedscope_module(util)\n"
             "schedscope_module(engine DEPS util LIBS foo)\n"
             "schedscope_module(policies DEPS util engine)\n")
    core_cases = [
        ("good", cmake, {"engine/a.h": '#include "util/b.h"\n#include <vector>\n',
                         "policies/p.cpp": '#include "engine/a.h"\n#include "policies/q.h"\n'}, None),
        ("wrong way", cmake, {"engine/a.h": '#include "policies/p.h"\n'}, "engine may not include"),
        ("qt", cmake, {"engine/a.cpp": "#include <QString>\n"}, "core includes Qt"),
        ("app", cmake, {"engine/a.cpp": '#include "gui/main_window.h"\n'}, "not a header of a core module"),
        ("bare", cmake, {"engine/a.cpp": '#include "a.h"\n'}, 'write the include as "module/a.h"'),
        ("undeclared", cmake, {"extra/x.h": "\n"}, "not a module in core/CMakeLists.txt"),
        ("cycle", cmake + "schedscope_module(util DEPS policies)\n", {"util/u.h": "\n"}, "has a cycle"),
    ]
    cases = [(name, {"core/CMakeLists.txt": text, **{"core/" + k: v for k, v in files.items()}}, expected)
             for name, text, files, expected in core_cases]
    # A small tree with every area, good as it stands; each case below plants one fault in it.
    base = {
        "core/CMakeLists.txt": cmake + "schedscope_module(analysis DEPS engine)\n",
        "core/util/u.h": "\n",
        "core/engine/simulation.h": '#include "util/u.h"\n',
        "core/engine/recording.h": "\n",
        "core/engine/sim_types.h": "\n",
        "core/engine/event_queue.h": "\n",
        "core/analysis/a.h": "\n",
        "core/policies/p.h": "\n",
        "app/cli/command.h": '#include "util/u.h"\n',
        "app/cli/main.cpp": '#include "command.h"\n#include "policies/p.h"\n#include <string>\n',
        "app/gui/main_window.h": '#include <QMainWindow>\n#include "engine/recording.h"\n',
        "app/gui/sim/pane.h": '#include "main_window.h"\n#include "engine/simulation.h"\n#include "analysis/a.h"\n',
        "app/gui/sim/pane.cpp": '#include "sim/pane.h"\n',
        "bench/b.cpp": '#include "engine/event_queue.h"\n',
        "fuzz/fuzz_entry.h": '#include "util/u.h"\n',
        "tests/core/support.h": '#include "engine/event_queue.h"\n',
        "tests/core/t.cpp": '#include "support.h"\n#include "fuzz_entry.h"\n',
        "tests/app/t.cpp": '#include "../core/support.h"\n#include "sim/pane.h"\n#include <QTest>\n',
    }
    cases.append(("good tree", base, None))
    planted = [
        ("cli reaches gui (bare)", "app/cli/main.cpp", '#include "main_window.h"\n', "is not found beside the file"),
        ("cli reaches gui (path)", "app/cli/main.cpp", '#include "../gui/main_window.h"\n',
         "the CLI never reaches the GUI"),
        ("gui engine internal", "app/gui/sim/pane.cpp", '#include "engine/event_queue.h"\n',
         "the GUI may not include"),
        ("gui policies", "app/gui/main_window.h", '#include "policies/p.h"\n', "app/gui may not include"),
        ("gui reaches cli", "app/gui/sim/pane.cpp", '#include "../../cli/command.h"\n', "is a header of app/cli"),
        ("bench reaches gui", "bench/b.cpp", '#include "../app/gui/main_window.h"\n', "is a header of app/gui"),
        ("tests/core reaches tests/app", "tests/core/t.cpp", '#include "../app/t.cpp"\n', "is a header of tests/app"),
        ("cli qt", "app/cli/main.cpp", "#include <QString>\n", "only app/gui and tests/app use Qt"),
        ("unknown header", "tests/app/t.cpp", '#include "nowhere.h"\n', "is not found"),
    ]
    for name, rel, line, expected in planted:
        cases.append((name, {**base, rel: base[rel] + line}, expected))

    failed = 0
    for name, files, expected in cases:
        with tempfile.TemporaryDirectory() as root:
            write_tree(root, files)
            problems = check_tree(root)
            if expected is None:
                ok = not problems
            else:
                ok = len(problems) == 1 and expected in problems[0]
            if not ok:
                failed += 1
                print(f"self-test '{name}': expected {expected or 'no problem'}, got {problems}")
    print(f"self-test: {len(cases) - failed} of {len(cases)} cases as expected")
    return 1 if failed else 0


def main(argv):
    if len(argv) > 1 and argv[1] == "--self-test":
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    problems = check_tree(root)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} include problem(s); the module graph is in core/CMakeLists.txt, "
              f"the rules outside core/ in AREAS of scripts/check-includes.py")
        return 1
    print("core includes follow the module graph of core/CMakeLists.txt; app/, bench, fuzz and tests follow AREAS")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
