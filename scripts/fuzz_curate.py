#!/usr/bin/env python3
"""Picks a handful of corpus inputs that keep most of a target's coverage.

scripts/fuzz_curate.py CONTROL_FILE OUT_DIR [--max-files N] [--max-bytes B]

CONTROL_FILE is what `fuzz_<target> -merge=1 -merge_control_file=FILE NEW OLD`
leaves behind: for each input its size and the coverage edges (COV lines) it
reached. A greedy set cover takes, each round, the input adding the most
edges not yet covered (the smaller on a tie) until N inputs, B bytes, or no
input adds an edge. The picks are copied to OUT_DIR as cov-NN-<hash>; the
edges they cover and the edges of the whole corpus are printed.
"""
import argparse
import hashlib
import os
import shutil


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("control")
    ap.add_argument("out")
    ap.add_argument("--max-files", type=int, default=16)
    ap.add_argument("--max-bytes", type=int, default=40_000)
    a = ap.parse_args()

    with open(a.control) as f:
        lines = f.read().splitlines()
    n_files = int(lines[0])
    paths = lines[2:2 + n_files]
    cov = {}
    for line in lines[2 + n_files:]:
        parts = line.split()
        if parts and parts[0] == "COV":
            cov[int(parts[1])] = set(parts[2:])
    every = set().union(*cov.values()) if cov else set()
    size = {i: os.path.getsize(paths[i]) for i in cov}

    covered, picks, total = set(), [], 0
    while len(picks) < a.max_files:
        best = max((i for i in cov if i not in picks and total + size[i] <= a.max_bytes),
                   key=lambda i: (len(cov[i] - covered), -size[i]), default=None)
        if best is None or not cov[best] - covered:
            break
        picks.append(best)
        covered |= cov[best]
        total += size[best]

    os.makedirs(a.out, exist_ok=True)
    for n, i in enumerate(picks):
        digest = hashlib.sha1(open(paths[i], "rb").read()).hexdigest()[:10]
        shutil.copy(paths[i], os.path.join(a.out, f"cov-{n:02d}-{digest}"))
    print(f"{len(picks)} inputs, {total} bytes, {len(covered)} of {len(every)} edges")


if __name__ == "__main__":
    main()
