#!/usr/bin/env bash
# Fails when the install list in scripts/deps.sh no longer covers what the
# build used, without needing a fresh machine.
#
#   bash scripts/check-deps.sh BUILD_DIR
#
# After configure, CMakeCache.txt names every file and folder the configure
# step found: package config folders (*_DIR), libraries and programs
# (FILEPATH entries, including pkg-config's pkgcfg_lib_*). Each is mapped to
# the Debian package that owns it (dpkg -S) and must lie in the dependency
# closure of the install list (apt-cache depends --recurse, hard
# dependencies only: a fresh machine installs with --no-install-recommends).
# A package that was installed by hand and is missing from the list shows up
# here even on a machine that has it. On failure it prints the packages to
# add to SCHEDSCOPE_PACKAGES.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:?usage: check-deps.sh BUILD_DIR}"
cache="$build/CMakeCache.txt"
[ -f "$cache" ] || { echo "check-deps: $cache not found (configure first)" >&2; exit 2; }
src="$(cd "$here/.." && pwd)"
build="$(cd "$build" && pwd)"
. "$here/deps.sh"

# Paths the configure step used, outside the source and build trees.
paths=()
while IFS= read -r line; do
  key="${line%%:*}"
  value="${line#*=}"
  case "$value" in ""|*NOTFOUND*|"$src"*|"$build"*) continue ;; esac
  case "$key" in
    *_DIR)
      # A package config folder: its config file is what find_package read;
      # the folder alone may be shared by several packages (/usr/include).
      [ -d "$value" ] || continue
      name="${key%_DIR}"
      lower="$(echo "$name" | tr '[:upper:]' '[:lower:]')"
      for f in "$value/${name}Config.cmake" "$value/${lower}-config.cmake"; do
        [ -f "$f" ] && { paths+=("$f"); break; }
      done ;;
    OPENGL_glu_LIBRARY|OPENGL_egl_LIBRARY)
      # FindOpenGL (pulled in by Qt6Gui) probes for GLU and EGL as extras
      # where they happen to be installed; nothing here links them, and
      # configure succeeds without them (scripts/fresh-check.sh shows it).
      continue ;;
    *)
      [ -f "$value" ] && paths+=("$value") ;;
  esac
done < <(grep -E '^[A-Za-z0-9_]+:(PATH|FILEPATH)=' "$cache")

[ ${#paths[@]} -gt 0 ] || { echo "check-deps: no paths in $cache" >&2; exit 2; }

# Owner package of each path (arch qualifier dropped), in one dpkg call. A
# path no package owns may be a link set up by update-alternatives
# (/usr/bin/c++): then its target's owner counts.
declare -A owner=()
owned() {
  dpkg -S "$@" 2>/dev/null | while IFS= read -r out; do
    pkg="${out%%: /*}"; pkg="${pkg%%,*}"; pkg="${pkg%%:*}"
    printf '%s\t%s\n' "/${out#*: /}" "$pkg"
  done
}
while IFS=$'\t' read -r p pkg; do owner["$p"]="$pkg"; done < <(owned "${paths[@]}")
unowned=()
for p in "${paths[@]}"; do
  [ -n "${owner[$p]:-}" ] && continue
  real="$(realpath "$p")"
  pkg="$(owned "$real" | cut -f2 | head -n1)"
  if [ -n "$pkg" ]; then owner["$p"]="$pkg"; else unowned+=("$p"); fi
done

# Hard-dependency closure of the install list. apt-cache prints each package
# of the closure at column 0; virtual names in <angle brackets> are skipped
# because a real provider appears on its own line.
declare -A closure=()
while IFS= read -r name; do
  closure["${name%%:*}"]=1
done < <(apt-cache depends --recurse --no-recommends --no-suggests \
           --no-conflicts --no-breaks --no-replaces --no-enhances \
           "${SCHEDSCOPE_PACKAGES[@]}" 2>/dev/null | grep -E '^[a-z0-9]')

missing=()
for p in "${!owner[@]}"; do
  [ -n "${closure[${owner[$p]}]:-}" ] || missing+=("${owner[$p]} (for $p)")
done

status=0
if [ ${#unowned[@]} -gt 0 ]; then
  status=1
  echo "check-deps: files the build used that no Debian package installs (a fresh machine will not have them):" >&2
  printf '  %s\n' "${unowned[@]}" | sort -u >&2
fi
if [ ${#missing[@]} -gt 0 ]; then
  status=1
  echo "check-deps: add to SCHEDSCOPE_PACKAGES in scripts/deps.sh:" >&2
  printf '  %s\n' "${missing[@]}" | sort -u >&2
fi
[ $status -eq 0 ] && echo "check-deps: the install list covers all ${#paths[@]} files the configure step used"
exit $status
