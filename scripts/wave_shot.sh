#!/usr/bin/env bash
# scripts/wave_shot.sh FST GTKW PNG: open a waveform in GTKWave with its save
# file on a private virtual display (Xvfb) and write a screenshot of the
# screen to PNG: how `make wave` looks to a user, on a machine without a
# display (make wave-shot; the rtl-BLOCK test groups). Exit 0 only when the
# screenshot was written; 2 when a tool is missing (names it and the package).
set -u
fst=$1 gtkw=$2 png=$3
for t in Xvfb:xvfb gtkwave:gtkwave xwininfo:x11-utils import:imagemagick; do
  command -v "${t%%:*}" >/dev/null || { echo "wave-shot: ${t%%:*} is missing: apt-get install ${t#*:}" >&2; exit 2; }
done
[ -s "$fst" ] || { echo "wave-shot: no waveform $fst (make wave writes it)" >&2; exit 1; }
# a display number nobody uses: the first free one from 90 on. Another
# wave-shot may start at the same moment (the suite's groups run side by
# side): Xvfb takes a display's lock or exits, so ours holds the display it
# answers on only while it is still running; else the next number.
d=90
gpid=""
cleanup() { [ -n "$gpid" ] && kill "$gpid" 2>/dev/null; kill "$xpid" 2>/dev/null; wait 2>/dev/null; }
trap cleanup EXIT
while :; do
  while [ -e "/tmp/.X$d-lock" ] || [ -e "/tmp/.X11-unix/X$d" ]; do d=$((d + 1)); done
  Xvfb ":$d" -screen 0 1400x900x24 -nolisten tcp >/dev/null 2>&1 &
  xpid=$!
  up=0
  for _ in $(seq 50); do
    kill -0 "$xpid" 2>/dev/null || break
    DISPLAY=":$d" xwininfo -root >/dev/null 2>&1 && { up=1; break; }
    sleep 0.1
  done
  [ $up = 1 ] && kill -0 "$xpid" 2>/dev/null && break
  kill "$xpid" 2>/dev/null; wait "$xpid" 2>/dev/null
  d=$((d + 1))
  [ $d -lt 200 ] || { echo "wave-shot: Xvfb found no free display from :90 to :199" >&2; exit 1; }
done
export DISPLAY=":$d"
gtkwave "$fst" "$gtkw" >/dev/null 2>&1 &
gpid=$!
# wait for GTKWave's main window (named after the file), then let it draw
for _ in $(seq 100); do
  xwininfo -root -tree 2>/dev/null | grep -q "GTKWave - " && break
  kill -0 "$gpid" 2>/dev/null || { echo "wave-shot: gtkwave exited before showing a window" >&2; exit 1; }
  sleep 0.1
done
xwininfo -root -tree 2>/dev/null | grep -q "GTKWave - " || { echo "wave-shot: no GTKWave window after 10 s" >&2; exit 1; }
sleep 2
import -window root "$png" 2>/dev/null
[ -s "$png" ] || { echo "wave-shot: no screenshot written" >&2; exit 1; }
echo "wave-shot: $png"
