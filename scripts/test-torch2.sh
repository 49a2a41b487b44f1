#!/usr/bin/env bash
# Installs and builds the LibTorch 2.x build (scripts/setup-torch2.sh) and runs
# its tests on the CPU: the core's and the CLI's suites, the crash-consistency
# kills and the PyTorch cross-checks, LibTorch 1.13 against 2.x, the Python
# recipe and the CUDA benchmark's dry run. CI runs it after scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-torch2.sh
export QT_QPA_PLATFORM=offscreen
# test_remote_gui (the window following a server's runs over a real sshd, ~80 s
# run alone) runs in scripts/test.sh's suite: what it exercises is the window's
# ssh and follow code, not LibTorch's, and the 2.x window has its own tests
# (test_gpu_window, test_window, test_gui). So do test_neighbours and
# test_cli_safety (~75 and ~40 s here): the commands around the store, refused
# input and signals, whose code is normlab_base's and the CLI's, not LibTorch's;
# they run in scripts/test.sh's suite and again under the sanitizers. Arguments
# replace this default: `bash scripts/test-torch2.sh -R test_remote_gui` runs it
# in this build.
[ $# -gt 0 ] || set -- -E '^(test_remote_gui|test_neighbours|test_cli_safety)$'
ctest --test-dir "${NORMLAB_TORCH2_BUILD_DIR:-build-torch2}" --output-on-failure -j 2 "$@"
