#!/bin/sh
# Installs what WarpSplit needs from Debian's packages.
#   scripts/setup.sh          install what is missing (as root), else print the command
#   scripts/setup.sh --check  exit 1 if something is missing, installing nothing
# clang/lld/llvm build the RISC-V kernels; python3 runs the suite and report
# scripts; verilator, yosys and gtkwave are the
# RTL flow (testbenches, synthesis, waveforms).
PKGS="make gcc clang lld llvm python3 verilator yosys gtkwave"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "${1:-}" = "--check" ]; then
    echo "setup: missing Debian packages:$missing" >&2
    exit 1
fi
if [ "$(id -u)" = 0 ]; then
    echo "setup: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing >/dev/null || {
        echo "setup: apt-get failed installing:$missing" >&2
        exit 1
    }
else
    echo "setup: missing Debian packages:$missing" >&2
    echo "setup: run: sudo apt-get install -y --no-install-recommends$missing" >&2
    exit 1
fi
