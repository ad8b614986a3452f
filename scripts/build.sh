#!/usr/bin/env bash
# Configures (once) and builds one CMake preset: scripts/build.sh PRESET [targets...]
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:?usage: scripts/build.sh PRESET [targets...]}
shift
export CCACHE_DIR=${CCACHE_DIR:-$PWD/build/.ccache}
[ -f "build/$preset/CMakeCache.txt" ] || cmake --preset "$preset" >/dev/null
if [ $# -gt 0 ]; then
  cmake --build --preset "$preset" --target "$@"
else
  cmake --build --preset "$preset"
fi
