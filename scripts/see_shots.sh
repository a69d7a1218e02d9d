#!/usr/bin/env bash
# scripts/see_shots.sh [OUT]: the pictures of docs/see.md (make see-shots):
# the three runs of issue 25 (merge under DWS.ReviveSplit, nl under
# DoM.Adaptive, blackjack under LWM+2Lev), each with a timeline of a window
# where its mechanism works, its report page (report.py) loaded in headless
# Chromium (browser_check.py: no console error, the numbers the JSON's), and
# a PNG of the page's timeline and of the page. OUT: docs/see.
set -eu
cd "$(dirname "$0")/.."
B=${BUILD:-build}
OUT=${1:-docs/see}
T=$(mktemp -d "${TMPDIR:-/tmp}/wsim-see.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$OUT"
# kernel preset policy window WPUs-drawn
while read -r k p pol win wpus; do
  name=$k-$(echo "$pol" | tr '+.' '--' | tr 'A-Z' 'a-z')
  "$B/wpusim" --config "$p" --policy "$pol" --stats json --stats-out "$T/$name.json" \
      --timeline "$T/$name.timeline.json" --timeline-window "$win" "$B/kernels/$k.elf" >/dev/null
  python3 scripts/timeline_check.py "$T/$name.timeline.json"
  python3 scripts/report.py "$T/$name.json" --timeline "$T/$name.timeline.json" --wpus "$wpus" \
      --label "$k, $pol" --title "WarpSplit: $k under $pol ($p), cycles $win" -o "$T/$name.html" >/dev/null
  python3 scripts/browser_check.py "$T/$name.html" "$T/$name.json" --png "$T/$name-page.png" \
      --png-timeline "$OUT/$name-timeline.png"
done <<'RUNS'
merge dws DWS.ReviveSplit 4500:5100 0-1
nl dom DoM.Adaptive 2800:4400 0-1
blackjack lwm LWM+2Lev 400:800 0
RUNS
echo "see-shots: $(ls "$OUT"/*.png | wc -l) pictures in $OUT"
