#!/usr/bin/env bash
# Installs and builds the LibTorch 2.x build (scripts/setup-torch2.sh) and runs
# its tests on the CPU: the core's and the CLI's suites, the crash-consistency
# kills and the PyTorch cross-checks, LibTorch 1.13 against 2.x, the Python
# recipe and the CUDA benchmark's dry run. CI runs it after scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-torch2.sh
export QT_QPA_PLATFORM=offscreen
ctest --test-dir "${NORMLAB_TORCH2_BUILD_DIR:-build-torch2}" --output-on-failure -j 2 "$@"
