#!/usr/bin/env bash
# Regenerates docs/REPRODUCTION.md: installs and builds (scripts/setup.sh), then
# `normlab report` trains the runs of experiments/reproduction/*.json — or reuses
# finished runs with the same configuration from the reproduction store — and
# writes the report, its figures (drawn by the app's charts, offscreen) and data.
#
#   bash scripts/reproduce.sh                 # the CPU presets (45–55 min of training on 2 cores)
#   bash scripts/reproduce.sh --scale gpu     # each experiment's GPU scale
#   bash scripts/reproduce.sh --retrain       # train everything again
# The store defaults to ~/.local/share/normlab/reproduction.sqlite
# ($NORMLAB_REPRO_STORE overrides), so the runs can be opened in the app.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
BUILD="${NORMLAB_BUILD_DIR:-build}"
STORE="${NORMLAB_REPRO_STORE:-${XDG_DATA_HOME:-$HOME/.local/share}/normlab/reproduction.sqlite}"
mkdir -p "$(dirname "$STORE")"
OUT=docs/reproduction
MD=docs/REPRODUCTION.md
for a in "$@"; do
  # A GPU scale is a different report: keep the committed CPU one intact.
  if [ "$a" = "--scale" ]; then OUT=normlab-out/reproduction-scaled; MD=$OUT/report.md; fi
done
exec "$BUILD/app/normlab" report experiments/reproduction/*.json --out "$OUT" --markdown "$MD" \
  --notes docs/reproduction/NOTES.md --store "$STORE" --generated-by "bash scripts/reproduce.sh${*:+ $*}" "$@"
