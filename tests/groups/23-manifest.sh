# ---------------------------------------------------------------- behaviour manifest
# What the model computes for every kernel x policy x preset of the dws group
# (statistics, results, instruction trace: scripts/manifest.sh) against
# tests/manifest.txt. A structural change must leave it unchanged; a change
# meant to move timing regenerates it in its own commit and says why.
group manifest
# (3 min on 2 free cores; 1800 s leaves room for a machine loaded many times over)
run manifest 1800 bash scripts/manifest.sh "$SIM"
if [ $RC -eq 0 ] && diff tests/manifest.txt "$OUT" >"$T/manifest.diff"; then ok
else bad "behaviour differs from tests/manifest.txt in $(grep -c '^>' "$T/manifest.diff") runs, e.g. $(grep -m3 '^>' "$T/manifest.diff")"; fi

# A warp looping without loads or stores keeps the pipeline (switch on cache
# access): the watchdog names the warp that starves the other, not a bug.
run watchdog-starved 30 "$SIM" --threads 8 --set wpus=1 --set warps=2 --set width=4 --set watchdog=2000 "$B/cfg/endless.elf"
if [ $RC -eq 3 ] && grep -q "^wpusim: watchdog at cycle [0-9]*: WPU 0 warp 1 (threads 4..) has issued nothing since cycle 0" "$ERR" \
   && grep -q "^  starved: warp 0 (threads 0..) keeps the pipeline, issuing without a cache access (switch_on = access" "$ERR" \
   && ! grep -q "simulator bug" "$ERR"; then ok
else bad "a spinning warp starving another: want exit 3 and a starvation report; got $RC: $(head -c 400 "$ERR")"; fi
