#!/usr/bin/env bash
# Visual check of the disclosure-review report (issue 7): a quick version of the paper 000
# sec. 5.2 comparison on income_survey (resources/examples/demo.json), its report written
# as PDF and HTML, the PDF's pages turned into PNG with pdftoppm and the HTML screenshot in
# headless Chromium. Prints the images to look at. Not part of the test suite: Chromium is
# installed here (as root) only for this check.
#   scripts/check_report.sh [BUILD_DIR]   (default build/ci; ppsynth-cli must be built)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build/ci}
OUT=$BUILD/report-check
CLI=$BUILD/app/ppsynth-cli
[ -x "$CLI" ] || { echo "build ppsynth-cli first: cmake --build $BUILD --target ppsynth-cli" >&2; exit 1; }
command -v pdftoppm > /dev/null || { echo "pdftoppm is missing: run scripts/deps.sh (poppler-utils)" >&2; exit 1; }
if ! command -v chromium > /dev/null; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "chromium is missing: apt-get install --no-install-recommends chromium (as root)" >&2
    exit 1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium
fi

rm -rf "$OUT"
mkdir -p "$OUT"
"$CLI" run resources/examples/demo.json --out "$OUT/run" > "$OUT/run.txt"
"$CLI" report "$OUT/run" --out "$OUT/report.pdf"
"$CLI" report "$OUT/run" --out "$OUT/report.html"
pdftoppm -r 70 -png "$OUT/report.pdf" "$OUT/page"
# A tall window shows the banner, the contents and the first sections in one image; a frame
# scrolled to the charts shows the banner staying on top and the embedded charts.
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,2000 \
  --screenshot="$PWD/$OUT/html.png" "file://$PWD/$OUT/report.html" 2> /dev/null
cat > "$OUT/charts_view.html" << 'HTML'
<!DOCTYPE html><html><body style="margin:0"><iframe src="report.html#charts"
style="width:1280px;height:1600px;border:0"></iframe></body></html>
HTML
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=5000 \
  --window-size=1280,1600 --screenshot="$PWD/$OUT/html_charts.png" \
  "file://$PWD/$OUT/charts_view.html" 2> /dev/null
echo "Look at:"
ls "$PWD/$OUT"/page-*.png "$PWD/$OUT/html.png" "$PWD/$OUT/html_charts.png"
