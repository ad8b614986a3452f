#!/usr/bin/env bash
# Installs the Debian 12 packages ppsynth builds with, only when some are missing.
# As root it runs apt-get; otherwise it prints the exact command and stops.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config lld
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
  libeigen3-dev libboost-random-dev libboost-math-dev
  libreadstat-dev nlohmann-json3-dev libcli11-dev
  fonts-dejavu-core
  poppler-utils
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "ppsynth needs these Debian packages. Run as root, then run this command again:" >&2
  echo "  apt-get update && $cmd" >&2
  exit 1
fi
echo "Installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
$cmd -qq
