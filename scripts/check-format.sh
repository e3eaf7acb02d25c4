#!/usr/bin/env bash
# Fails when a C++ file of the project differs from what clang-format makes of
# it with the checked-in .clang-format. Usage: check-format.sh CLANG_FORMAT SRC_DIR
# Fix with: git ls-files '*.h' '*.cpp' | xargs clang-format-14 -i
set -euo pipefail
clang_format=$1
src=$2
cd "$src"
# The project's own sources only (not build folders or test data).
mapfile -d '' files < <(find core app tests bench fuzz \( -name '*.h' -o -name '*.cpp' \) \
  -not -path 'tests/data/*' -print0 | sort -z)
[ ${#files[@]} -gt 0 ] || { echo "check-format: no sources found under $src" >&2; exit 1; }
if ! "$clang_format" --dry-run --Werror "${files[@]}"; then
  echo "check-format: the files above are not formatted; run: git ls-files '*.h' '*.cpp' | xargs $clang_format -i" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
