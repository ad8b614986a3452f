#!/usr/bin/env bash
# Command 2 of the README: install what is missing, build, and run every test.
# Pass ctest arguments through, e.g. scripts/test.sh -LE slow to skip the slow ones.
# In CI (CI=true) as root it also starts a single-node Slurm for the tests labelled
# `cluster` and stops it at the end; elsewhere those tests skip themselves.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
# CI always builds from a fresh clone: compile the libraries in batches there (ci-unity).
preset=ci
if [ "${CI:-}" = "true" ]; then preset=ci-unity; fi
scripts/build.sh "$preset"
if [ "${CI:-}" = "true" ] && [ "$(id -u)" -eq 0 ]; then
  slurm_script=$(pwd)/scripts/slurm_single_node.sh  # the trap runs after `cd build/...`
  trap '"$slurm_script" stop' EXIT
  slurm_env=$("$slurm_script" start)
  eval "$slurm_env"
  export SLURM_CONF
fi
cd "build/$preset"
ctest --output-on-failure --parallel "$(nproc)" "$@"
