#!/usr/bin/env bash
# Starts the real application under Xvfb, trains experiments/quick_look.json,
# and saves a screenshot of each main view into docs/screenshots/.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${NORMLAB_BUILD_DIR:-build}"
OUT="${1:-docs/screenshots}"
STORE="$(mktemp -d)/screens.sqlite"
mkdir -p "$OUT"
SIZE="${NORMLAB_SCREENSHOT_SIZE:-1600x1000}"   # 1280x720: a laptop's window
xvfb-run -a -s "-screen 0 1920x1080x24" "$BUILD/app/normlab" --language en --theme light --store "$STORE" \
  --experiment experiments/quick_look.json --screenshots "$OUT" --window-size "$SIZE"
ls -1 "$OUT"
# View → Theme → Dark: the gradients' per-layer lines on the dark ground
DARK="$(mktemp -d)"
xvfb-run -a -s "-screen 0 1920x1080x24" "$BUILD/app/normlab" --language en --theme dark --store "$DARK/screens.sqlite" \
  --experiment experiments/quick_look.json --screenshots "$DARK" --window-size "$SIZE"
cp "$DARK/normlab-gradients.png" "$OUT/normlab-dark.png"
rm -rf "$DARK"
ls -1 "$OUT/normlab-dark.png"
# The window following runs that train on a server (a real sshd on 127.0.0.1: tests/test_remote_gui.cpp).
if [ -x "$BUILD/tests/test_remote_gui" ]; then
  NORMLAB_SCREENSHOTS="$(realpath "$OUT")" QT_QPA_PLATFORM=offscreen "$BUILD/tests/test_remote_gui" trainOnServerLive >/dev/null
  ls -1 "$OUT/normlab-remote.png" "$OUT/normlab-remote-dialog.png"
fi
