#!/usr/bin/env bash
# Command 1 of the README: install what is missing, build, and start the main job:
# the GUI on the bundled income example, or with no display the headless demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh release
example=resources/examples/income_survey.csv
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ "${QT_QPA_PLATFORM:-}" != offscreen ]; then
  exec build/release/app/ppsynth "$example"
fi
out=${PPSYNTH_DEMO_DIR:-$PWD/ppsynth-demo}
echo "No display: running the headless demo on $example" >&2
exec build/release/app/ppsynth-cli demo --out "$out"
