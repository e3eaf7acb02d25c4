#!/usr/bin/env python3
"""Keeps the parameter tables of docs/policies.md and docs/workloads.md, and
the model constants' in docs/machines.md, equal to what the code declares.

Each policy's and workload's table sits in the docs between
    <!-- params: policy NAME -->   (or workload NAME, or model constants)
    <!-- /params -->
and `schedscope-cli list --markdown` prints what belongs there, from the
parameter tables in core/. Usage:

    python3 scripts/doc-tables.py CLI [ROOT]           rewrite the tables
    python3 scripts/doc-tables.py --check CLI [ROOT]   fail if any differs

ROOT is the source tree (default: this script's parent's parent). Every
policy and workload must have its table in one of the two files.
"""

import pathlib
import re
import subprocess
import sys

DOCS = ("docs/policies.md", "docs/workloads.md", "docs/machines.md")
HOME = {"policy": DOCS[0], "workload": DOCS[1], "model": DOCS[2]}
BLOCK_RE = re.compile(r"(<!-- params: ([a-z]+) ([^ ]+) -->\n)(.*?)(<!-- /params -->)", re.S)


def generated(cli):
    """{(kind, name): table text} from the CLI."""
    out = subprocess.run([cli, "list", "--markdown"], check=True, capture_output=True, text=True).stdout
    return {(m.group(2), m.group(3)): m.group(4) for m in BLOCK_RE.finditer(out)}


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    cli = args[0]
    root = pathlib.Path(args[1]) if len(args) > 1 else pathlib.Path(__file__).resolve().parent.parent
    tables = generated(cli)
    regen = f"python3 scripts/doc-tables.py {cli}"
    problems, seen = [], set()
    for rel in DOCS:
        path = root / rel
        text = path.read_text()

        def replace(m, rel=rel):
            key = (m.group(2), m.group(3))
            seen.add(key)
            if key not in tables:
                problems.append(f"{rel}: a table for {key[0]} '{key[1]}', which the code does not have")
                return m.group(0)
            if m.group(4) != tables[key]:
                problems.append(f"{rel}: the table of {key[0]} '{key[1]}' differs from the code")
            return m.group(1) + tables[key] + m.group(5)

        new = BLOCK_RE.sub(replace, text)
        if not check and new != text:
            path.write_text(new)
    for kind, name in sorted(set(tables) - seen):
        problems.append(f"no table for {kind} '{name}': add '<!-- params: {kind} {name} -->' and "
                        f"'<!-- /params -->' to its section of {HOME.get(kind, DOCS[0])}")
    if check and problems:
        for p in problems:
            print(p, file=sys.stderr)
        print(f"regenerate the tables with: {regen}", file=sys.stderr)
        return 1
    if not check:
        for p in problems:
            if "differs" not in p:
                print(p, file=sys.stderr)
        return 1 if any("differs" not in p for p in problems) else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
