#!/usr/bin/env bash
# Installs, builds and runs every test (QtTest suites and the PyTorch
# cross-check, through CTest). This is the command CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export QT_QPA_PLATFORM=offscreen
. scripts/torch-choice.sh
ctest --test-dir "$(normlab_build_dir)" --output-on-failure -j 2 "$@"
