#!/usr/bin/env bash
# Installs, builds and runs NormLab's main job: the desktop app when a display
# is present; headless, the default experiment, whose data and figures land
# in ./normlab-out/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. scripts/torch-choice.sh
BUILD="$(normlab_build_dir)"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x "$BUILD/app/normlab" ]; then
  # the window opens with the default experiment ready: "Run experiment" (Ctrl+Shift+R) trains it
  exec "$BUILD/app/normlab" --experiment experiments/default.json "$@"
fi
OUT=normlab-out
mkdir -p "$OUT"
STORE="$OUT/runs.sqlite"
"$BUILD/app/normlab-cli" run experiments/default.json --store "$STORE" || true
for id in $("$BUILD/app/normlab-cli" list --store "$STORE" --status finished,diverged,failed,cancelled,interrupted \
            | awk 'NR>1 && $1 ~ /^[0-9]+$/ {print $1}'); do
  "$BUILD/app/normlab-cli" export "$id" --csv --store "$STORE" --out "$OUT/run-$id.csv"
done
"$BUILD/app/normlab-cli" plot --store "$STORE" --out "$OUT" --last 2
echo "run: data and figures in $OUT/"
