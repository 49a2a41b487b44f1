#!/usr/bin/env bash
# Builds NormLab and runs every benchmark side by side with PyTorch; prints
# the ratio table and writes docs/PERFORMANCE.md. Takes ~15 minutes on 2 cores
# (--quick: ~3 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec /usr/bin/python3 bench/run.py --build "${NORMLAB_BUILD_DIR:-build}" "$@"
