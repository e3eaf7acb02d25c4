#!/usr/bin/env bash
# Rehearses a newcomer's first hour on a fresh Debian 12 machine:
#
#   sudo bash scripts/fresh-check.sh [LOG_DIR]
#
# 1. builds a minimal Debian 12 root (mmdebstrap --variant=minbase) in a
#    temporary folder, from the package mirror this machine is configured
#    with (its apt sources and apt.conf.d);
# 2. clones this repository's committed HEAD into it;
# 3. runs the README's two set-up commands inside it, exactly as written:
#    `bash scripts/run-app.sh` (with --screenshot so the app exits; with no
#    display the script starts it under xvfb-run) and `bash scripts/test.sh`;
# 4. removes the root, whatever happened.
#
# A package installed by hand on this machine is not in the root, so a
# missing entry in scripts/deps.sh fails here even where CI passes. Not in CI
# (it installs and compiles everything from nothing: about 40 minutes on two
# cores); docs/reliability.md has the measured time. Needs root, network to
# the package mirror, and about 6 GiB free under /var/tmp.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
logs="${1:-$repo/build-fresh-check}"
mkdir -p "$logs"
logs="$(cd "$logs" && pwd)"
[ "$(id -u)" -eq 0 ] || { echo "fresh-check: run as root (it builds a chroot)" >&2; exit 2; }
git -C "$repo" diff --quiet HEAD || echo "fresh-check: uncommitted changes are not part of the rehearsal (it clones HEAD)" >&2

if ! command -v mmdebstrap >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap
fi

root="$(mktemp -d /var/tmp/schedscope-fresh.XXXXXX)"
mounted=()
cleanup() {
  local m
  for ((i=${#mounted[@]}-1; i>=0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT

# The machine's own mirror configuration: its sources (deb822 or one-line)
# and the apt.conf.d snippets that make that mirror usable (e.g. a snapshot
# mirror needs Check-Valid-Until off).
sources=()
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
  [ -s "$f" ] && grep -qvE '^\s*(#|$)' "$f" && sources+=("$f")
done
[ ${#sources[@]} -gt 0 ] || { echo "fresh-check: no apt sources configured on this machine" >&2; exit 2; }

start=$(date +%s)
echo "fresh-check: bootstrapping Debian 12 (minbase) into $root" >&2
mmdebstrap --variant=minbase --include=git,ca-certificates \
  --setup-hook='mkdir -p "$1/etc/apt/apt.conf.d"' \
  --setup-hook='for f in /etc/apt/apt.conf.d/*; do cp "$f" "$1/etc/apt/apt.conf.d/"; done' \
  bookworm "$root" "${sources[@]}" >"$logs/bootstrap.log" 2>&1 \
  || { tail -n 30 "$logs/bootstrap.log" >&2; echo "fresh-check: bootstrap failed (log: $logs/bootstrap.log)" >&2; exit 1; }
boot=$(( $(date +%s) - start ))

git clone -q "$repo" "$root/root/schedscope"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# /sys recursively, with the cgroup filesystems a booted machine has under it
# (slurmd needs them); as a slave, so nothing done inside reaches the host.
for m in proc sys dev dev/pts; do
  mkdir -p "$root/$m"
  if [ "$m" = sys ]; then
    mount --rbind "/$m" "$root/$m"
    mount --make-rslave "$root/$m"
  else
    mount --bind "/$m" "$root/$m"
  fi
  mounted+=("$root/$m")
done

# Runs one README command in the root with a clean environment, as a new
# user's login shell would have it.
in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/bash -c "cd /root/schedscope && $1"
}

step() {  # step NAME COMMAND
  local t0=$(date +%s) rc=0
  echo "fresh-check: $1: $2" >&2
  in_root "$2" >"$logs/$1.log" 2>&1 || rc=$?
  local dt=$(( $(date +%s) - t0 ))
  if [ $rc -ne 0 ]; then
    tail -n 40 "$logs/$1.log" >&2
    echo "fresh-check: FAILED at '$2' (exit $rc after ${dt}s; log: $logs/$1.log)" >&2
    exit 1
  fi
  echo "fresh-check: $1 passed in ${dt}s" >&2
  timings+=("$1 ${dt}s")
}

timings=("bootstrap ${boot}s")
step app 'bash scripts/run-app.sh --screenshot /tmp/fresh-check.png && test -s /tmp/fresh-check.png'
cp "$root/tmp/fresh-check.png" "$logs/app.png"
step test 'bash scripts/test.sh'

total=$(( $(date +%s) - start ))
echo "fresh-check: passed in ${total}s (${timings[*]}); logs and the app's screenshot in $logs" >&2
