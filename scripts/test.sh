#!/usr/bin/env bash
# Command 2 of the README: install what is missing, build, and run every test.
# Pass ctest arguments through, e.g. scripts/test.sh -LE slow to skip the slow ones.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh ci
cd build/ci
ctest --output-on-failure --parallel "$(nproc)" "$@"
