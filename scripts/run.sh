#!/usr/bin/env bash
# Command 1 of the README: install what is missing, build, and start the main job:
# the GUI on the bundled income example project (roles, model and synthesizers set: press
# Run), or with no display the headless demo (PPSYNTH_DEMO_SEVERAL=1: the demo with three
# sensitive variables). It builds only the program it starts.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
example=resources/examples/income_survey.csv
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ "${QT_QPA_PLATFORM:-}" != offscreen ]; then
  scripts/build.sh release ppsynth
  exec build/release/app/ppsynth resources/examples/income_survey.ppsynth
fi
scripts/build.sh release ppsynth-cli
out=${PPSYNTH_DEMO_DIR:-$PWD/ppsynth-demo}
[ -n "${PPSYNTH_DEMO_SEVERAL:-}" ] && example=resources/examples/household_spending.csv
echo "No display: running the headless demo on $example" >&2
exec build/release/app/ppsynth-cli demo --out "$out" ${PPSYNTH_DEMO_SEVERAL:+--several}
