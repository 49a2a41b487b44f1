#!/usr/bin/env bash
# Builds the core, normlab-cli and the non-GUI tests with AddressSanitizer and
# UndefinedBehaviorSanitizer (-fsanitize=address,undefined) into build-asan/
# and runs those tests (the crash-consistency kills and the PyTorch
# cross-checks included). Any report fails the run. CI runs it after the tests.
#   scripts/sanitize.sh            build + run
#   NORMLAB_ASAN_DIR=dir ...       build elsewhere
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${NORMLAB_ASAN_DIR:-build-asan}"
# -O1 -g1 (line tables, all a report's stack needs) rather than -O2 -g: a
# LibTorch translation unit compiles in a third of the time (39 s against
# 114 s for core/train/train_loop.cpp here), its object is a quarter of the
# size, and the checks are the same. normlab-bench is left out: no test runs it.
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
  -DNORMLAB_GUI=OFF -DNORMLAB_SANITIZE=ON -DNORMLAB_BENCH=OFF >/dev/null
cmake --build "$BUILD" -j "$(nproc)"
# Leak checking is off: LibTorch and Qt keep process-lifetime allocations.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export QT_QPA_PLATFORM=offscreen
ctest --test-dir "$BUILD" --output-on-failure -j 2 "$@"
