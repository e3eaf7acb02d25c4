#!/usr/bin/env bash
# clang-tidy (14, as Debian 12 ships it) with the checks of .clang-tidy over
# the C++ files a change touches, every finding an error.
#
#   scripts/lint.sh [-p BUILD] [-j N]            the files changed since BASE
#   scripts/lint.sh [-p BUILD] [-j N] --all      every file of BUILD's
#                                                compile_commands.json
#   scripts/lint.sh [-p BUILD] [-j N] FILE...    these files
#   scripts/lint.sh --self-test                  the lint fails on a planted
#                                                finding and passes without it
#
# BUILD (default build/) is a configured build: CMakeLists.txt exports
# compile_commands.json, and the GUI's generated headers (moc, uic) exist
# once it has been built. BASE is $SCHEDSCOPE_LINT_BASE, else where HEAD
# left origin/main (or main), else HEAD~1 (CI on main itself: the last
# commit). A
# changed header is linted through the source file beside it (clang-tidy
# reports on the headers of core/, app/ and tests/ a file includes).
#
# Why changed files and not the tree: clang-tidy parses each file as a
# compiler does, about 8-12 s of CPU per file here, 268 files: 25-45 minutes
# on two cores, more than the CI budget (docs/reliability.md, "CI time").
# `--all` is the nightly form.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tidy=${CLANG_TIDY:-clang-tidy-14}

self_test() {
    local tmp
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' RETURN
    cp "$root/.clang-tidy" "$tmp/.clang-tidy"
    # A planted finding of a check the tree keeps on (modernize-use-nullptr),
    # then the same file without it.
    printf 'int *planted() { return 0; }\n' >"$tmp/bad.cpp"
    printf 'int *planted() { return nullptr; }\n' >"$tmp/good.cpp"
    printf '[{"directory": "%s", "file": "%s/bad.cpp", "command": "c++ -std=c++20 -c %s/bad.cpp"},\n' \
        "$tmp" "$tmp" "$tmp" >"$tmp/compile_commands.json"
    printf ' {"directory": "%s", "file": "%s/good.cpp", "command": "c++ -std=c++20 -c %s/good.cpp"}]\n' \
        "$tmp" "$tmp" "$tmp" >>"$tmp/compile_commands.json"
    # The lint itself, on each: the planted finding fails it, named.
    if "$root/scripts/lint.sh" -p "$tmp" "$tmp/bad.cpp" >"$tmp/out" 2>&1; then
        echo "lint self-test: a planted finding passed:" >&2
        cat "$tmp/out" >&2
        return 1
    fi
    if ! grep -q 'bad.cpp:1:.*modernize-use-nullptr' "$tmp/out"; then
        echo "lint self-test: the planted finding failed for another reason:" >&2
        cat "$tmp/out" >&2
        return 1
    fi
    if ! "$root/scripts/lint.sh" -p "$tmp" "$tmp/good.cpp" >"$tmp/out" 2>&1; then
        echo "lint self-test: a clean file failed:" >&2
        cat "$tmp/out" >&2
        return 1
    fi
    echo "lint self-test: passed"
}

build=build
jobs=$(nproc)
all=0
files=()
while [ $# -gt 0 ]; do
    case "$1" in
    --self-test)
        self_test
        exit
        ;;
    -p)
        build=$2
        shift 2
        ;;
    -j)
        jobs=$2
        shift 2
        ;;
    --all)
        all=1
        shift
        ;;
    -h | --help)
        sed -n '2,25p' "$0"
        exit 0
        ;;
    *)
        files+=("$1")
        shift
        ;;
    esac
done

db="$build/compile_commands.json"
if [ ! -f "$db" ]; then
    echo "lint: no $db: configure the build first (cmake -S . -B $build)" >&2
    exit 2
fi
if ! command -v "$tidy" >/dev/null 2>&1; then
    echo "lint: $tidy not found: install it (scripts/deps.sh lists it)" >&2
    exit 2
fi

# The sources the build compiles, relative to the checkout (generated files
# under the build folder are not ours to lint).
known=$(python3 -c '
import json, os, sys
root = os.path.realpath(sys.argv[2])
for e in json.load(open(sys.argv[1])):
    f = os.path.realpath(os.path.join(e["directory"], e["file"]))
    if f.startswith(root + "/") and "/" + os.path.basename(sys.argv[3]) + "/" not in f[len(root):]:
        print(os.path.relpath(f, root))
' "$db" "$root" "$build" | sort -u)

if [ "$all" = 1 ]; then
    mapfile -t files <<<"$known"
elif [ ${#files[@]} -eq 0 ]; then
    base=${SCHEDSCOPE_LINT_BASE:-}
    for ref in origin/main main; do
        if [ -z "$base" ] && git rev-parse -q --verify "$ref" >/dev/null &&
            [ "$(git merge-base HEAD "$ref")" != "$(git rev-parse HEAD)" ]; then
            base=$(git merge-base HEAD "$ref")
        fi
    done
    if [ -z "$base" ]; then
        if git rev-parse -q --verify HEAD~1 >/dev/null; then
            base=HEAD~1
        else
            # A shallow clone of one commit: nothing to compare with.
            echo "lint: no base to compare with (a clone of one commit?): nothing linted; --all lints the tree" >&2
            exit 0
        fi
    fi
    # Changed since BASE, committed or not; a header stands for the source
    # file of the same name beside it.
    mapfile -t changed < <(git diff --name-only --diff-filter=d "$base" -- '*.cpp' '*.h' | sed 's/\.h$/.cpp/' | sort -u)
    files=()
    for f in "${changed[@]}"; do
        if grep -qxF -- "$f" <<<"$known"; then
            files+=("$f")
        fi
    done
    echo "lint: ${#files[@]} file(s) changed since $(git rev-parse --short "$base")"
fi

if [ ${#files[@]} -eq 0 ]; then
    echo "lint: nothing to lint"
    exit 0
fi

# One clang-tidy a file, $jobs at a time; each file's findings printed
# together; any finding fails the lint.
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
start=$(date +%s)
printf '%s\n' "${files[@]}" | nl -ba -w1 -s' ' |
    xargs -P "$jobs" -L 1 sh -c '"$0" -p "$1" --quiet --warnings-as-errors="*" "$4" >"$2/$3.log" 2>&1 ||
        echo "$4" >"$2/$3.failed"' "$tidy" "$build" "$out"
failed=0
for log in "$out"/*.failed; do
    [ -e "$log" ] || continue
    failed=$((failed + 1))
    grep -v '^[0-9]* warnings\? generated\.$\|^Suppressed [0-9]* warnings\|^Use -header-filter\|^[0-9]* warnings\? treated as errors' \
        "${log%.failed}.log" >&2 || true
done
echo "lint: ${#files[@]} file(s) in $(($(date +%s) - start)) s, $failed with findings"
[ "$failed" -eq 0 ]
