#!/usr/bin/env bash
# scripts/manifest.sh [SIM]: a manifest of what the model computes for every
# kernel x named policy x preset of the policy matrix (tests/matrix.sh BUILD
# runs full): one line per run with the SHA-256 of its statistics (JSON,
# without the configuration echo, which gains keys as the model grows, and
# without the program's path, so a copy of the simulator elsewhere compares
# too), of its --dump results and of its --trace (tests/matrix_run.sh runs
# them). Two trees that print the same manifest simulate the same machine
# cycle for cycle. tests/manifest.txt holds it (the "matrix" test group: a
# sample in make test, all of it in make test-long): a structural change must
# leave it unchanged; a change meant to move timing regenerates it in a
# commit of its own that says why:
#   bash scripts/manifest.sh build/wpusim > tests/manifest.txt
set -u
cd "$(dirname "$0")/.."
SIM=${1:-build/wpusim}
B=$(dirname "$SIM")
T=$(mktemp -d "${TMPDIR:-/tmp}/wsim-manifest.XXXXXX")
trap 'rm -rf "$T"' EXIT
bash tests/matrix.sh "$B" runs full | bash tests/matrix_run.sh "$SIM" "$T" | cut -d' ' -f1-7
