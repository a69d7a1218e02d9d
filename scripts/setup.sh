#!/bin/sh
# Installs what WarpSplit needs from Debian's packages.
#   scripts/setup.sh          install what is missing (as root), else print the command
#   scripts/setup.sh --check  exit 1 if something is missing, installing nothing
# Needed now: make, gcc and zlib1g-dev build the model (zlib writes and reads
# the .gz traces); clang, lld and llvm build the RISC-V
# kernels; python3 runs the suite script; verilator (with g++ and zlib) and
# yosys run the RTL flow that `make test` checks (tb/flow.mk, tests/rtl.sh).
# gtkwave only views waveforms (`make wave`), and xvfb, x11-utils and
# imagemagick let `make wave-shot` (and each rtl-BLOCK test group) photograph it on a
# virtual display: installed too, but a failure to install them is only a
# warning. gnuplot-nox draws `make figures`'s plots (PNG, SVG); without it the
# tables are still written: a failure to install it is only a warning too.
# chromium loads the report pages in the tests (scripts/browser_check.py,
# tests/groups/18-report.sh): installed too; without it those tests fail and say so.
# ccache keeps the testbenches' compiled C++ between runs of the suite
# (tb/flow.mk's OBJCACHE): a failure to install it only makes a second run
# as slow as the first.
NEEDED="make gcc g++ clang lld llvm python3 verilator yosys zlib1g-dev"
RTL="gtkwave xvfb x11-utils imagemagick ccache"
PLOT="gnuplot-nox"
BROWSER="chromium"

missing() {
    out=""
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || out="$out $p"
    done
    echo "$out"
}
need=$(missing $NEEDED)
rtl=$(missing $RTL)
plot=$(missing $PLOT)
browser=$(missing $BROWSER)
[ -z "$need$rtl$plot$browser" ] && exit 0
if [ "${1:-}" = "--check" ]; then
    echo "setup: missing Debian packages:$need$rtl$plot$browser" >&2
    [ -z "$need" ]
    exit $?
fi
if [ "$(id -u)" != 0 ]; then
    echo "setup: missing Debian packages:$need$rtl$plot$browser" >&2
    echo "setup: run: sudo apt-get install -y --no-install-recommends$need$rtl$plot$browser" >&2
    [ -z "$need" ]
    exit $?
fi
export DEBIAN_FRONTEND=noninteractive
echo "setup: installing$need$rtl$plot$browser"
apt-get update -qq >/dev/null 2>&1 || echo "setup: apt-get update failed; trying the install anyway" >&2
if [ -n "$need" ] && ! apt-get install -y -qq --no-install-recommends $need >/dev/null; then
    echo "setup: apt-get failed installing:$need" >&2
    exit 1
fi
if [ -n "$rtl" ] && ! apt-get install -y -qq --no-install-recommends $rtl >/dev/null; then
    echo "setup: warning: could not install$rtl (only needed to view waveforms, make wave, and to cache compiled testbenches)" >&2
fi
if [ -n "$plot" ] && ! apt-get install -y -qq --no-install-recommends $plot >/dev/null; then
    echo "setup: warning: could not install$plot (only needed for make figures's plots)" >&2
fi
if [ -n "$browser" ] && ! apt-get install -y -qq --no-install-recommends $browser >/dev/null; then
    echo "setup: warning: could not install$browser (the report pages' browser tests need it)" >&2
fi
exit 0
