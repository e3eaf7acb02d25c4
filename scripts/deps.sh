#!/usr/bin/env bash
# Installs the Debian 12 packages schedscope builds and tests with, if any is
# missing. Sourced by run-app.sh and test.sh; needs root (or sudo) only when
# something has to be installed.
set -euo pipefail

SCHEDSCOPE_PACKAGES=(
  # clang-tidy-14: the lint step of scripts/test.sh (.clang-tidy).
  build-essential cmake ninja-build pkg-config python3 clang-format-14 clang-tidy-14
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
  libhwloc-dev hwloc libarchive-dev
  catch2 nlohmann-json3-dev libcli11-dev libbenchmark-dev
  xvfb xauth
  # tests/slurm: a throw-away one-node Slurm cluster for `sweep --slurm`.
  slurm-wlm munge
)

schedscope_install_deps() {
  local missing=()
  for p in "${SCHEDSCOPE_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "schedscope: installing ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}
