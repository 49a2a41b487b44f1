#!/usr/bin/env bash
# Packs the 2.x build (CLI, benchmark, GPU tests; desktop and GUI tests with
# GPU_BUNDLE_WINDOW=1) with the shared
# libraries it needs beyond glibc and PyTorch — Qt 6.4 and its dependencies,
# spdlog, fmt, SQLite, the offscreen platform plugin, a font — and the
# fortunes corpus, into one archive that runs on a GPU machine which has
# PyTorch 2.x but no Qt and no package registry (docs/GPU.md). There:
#   bash scripts/gpu_session.sh BUNDLE.tar.xz OUTDIR STEP...
# Usage: bash scripts/gpu_bundle.sh [OUT.tar.xz]   (default .gpu/bundle.tar.xz; XZ_OPT=-0 packs faster, larger)
# GPU_BUNDLE_WINDOW=1 packs the window and its tests too (gpu_session.sh's window and gui steps) and the
# Chinese font they switch to: 3.6 MB more, which a call that carries the corpus and the findings' store may
# not have (a device call carries 64 MiB of the tree); the benchmark, the graph's tests and the findings
# need none of it.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${1:-.gpu/bundle.tar.xz}"
# the 2.x build packed (GPU_BUNDLE_BUILD, default build-torch2); the bundle holds it as build-torch2
SRC="${GPU_BUNDLE_BUILD:-build-torch2}"
B=build-torch2
WINDOW="${GPU_BUNDLE_WINDOW:-0}"
BINARIES="app/normlab-cli libexec/normlab/normlab-cli bench/normlab-bench tests/test_static_step tests/test_fused_ops tests/test_cuda_kernels
  tests/test_cuda_residual_ln tests/test_linear_bias"
[ "$WINDOW" = 1 ] && BINARIES="$BINARIES app/normlab tests/test_gpu_window tests/test_gui tests/test_gui_compare"
for f in $BINARIES; do
  [ -x "$SRC/$f" ] || { echo "gpu_bundle: $SRC/$f is missing: bash scripts/setup-torch2.sh first" >&2; exit 1; }
done
# CUDA's libraries, by name (tests/gpu_session.sh asserts, from a list of its own, that the bundle holds none)
CUDA_LIBS_RE='lib(cuda|cudart|cublas|cublasLt|cudnn[a-z_]*|cufft|cufile|curand|cusolver|cusparse|cusparseLt|cupti|nccl|nvJitLink|nvrtc|nvrtc-builtins|nvToolsExt|nvshmem_host|nvperf_host|nvperf_target)\.so'
T="$(mktemp -d)"
trap 'rm -rf "$T"' EXIT
G="$T/gpu"
mkdir -p "$G/lib" "$G/plugins/platforms" "$G/fonts" "$G/fortunes" "$G/$B/app" "$G/$B/libexec/normlab" "$G/$B/bench" "$G/$B/tests"
PLUGIN=/usr/lib/x86_64-linux-gnu/qt6/plugins/platforms/libqoffscreen.so
for f in $BINARIES; do
  cp "$SRC/$f" "$G/$B/$f"
  strip --strip-unneeded "$G/$B/$f"
done
# Everything ldd resolves outside PyTorch's folder, but glibc, libstdc++, libgcc
# and the OpenMP/zlib that PyTorch's folder or every system has, and CUDA's own libraries wherever they were
# found: the device's PyTorch brings them (its nvidia/ folder), and a build against the toolkit's
# (NORMLAB_TORCH2_CUDA_LIBS=toolkit, as CI builds) would otherwise pack 1.5 GB of them.
{ for b in $BINARIES; do ldd "$SRC/$b"; done; ldd "$PLUGIN"; } | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | grep -v -e '/torch/lib/' -e '/nvidia/' | sort -u |
  grep -v -E '/(libc|libm|libdl|libpthread|librt|libutil|libresolv|libstdc\+\+|libgcc_s|ld-linux-x86-64|libgomp|libz)\.so' |
  grep -v -E "/$CUDA_LIBS_RE" |
  while read -r l; do cp -L "$l" "$G/lib/"; done
cp "$PLUGIN" "$G/plugins/platforms/"
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf "$G/fonts/"
# the window's tests switch to 简体中文, which a machine without a Chinese font refuses (1.5 MB compressed)
if [ "$WINDOW" = 1 ]; then
  cp /usr/share/fonts/truetype/wqy/wqy-microhei.ttc "$G/fonts/" 2> /dev/null ||
    echo "gpu_bundle: no /usr/share/fonts/truetype/wqy/wqy-microhei.ttc (scripts/setup.sh installs it): test_gui will fail in gpu_session.sh's gui step" >&2
fi
find /usr/share/games/fortunes -maxdepth 1 -type f ! -name '*.dat' ! -name '*.u8' -exec cp {} "$G/fortunes/" \;
# where the binaries were built: they name their siblings by that path, which gpu_session.sh makes exist
pwd > "$G/build_root"
mkdir -p "$(dirname "$OUT")"
# xz -9: a 64 MiB window, wider than a binary, so the CUDA kernels that each of the
# statically linked binaries carries (5.8 MB of them) are packed once (28.5 MB
# against 37.6 at xz's default -6, the window included)
XZ_OPT="${XZ_OPT:--9}" tar -C "$T" -cJf "$OUT" gpu
echo "gpu_bundle: $OUT ($(du -h "$OUT" | cut -f1)$([ "$WINDOW" = 1 ] && echo ", the window included" || echo "; without the window: GPU_BUNDLE_WINDOW=1 adds it"))"
# The English corpus travels beside the bundle: gpu_session.sh's findings step unpacks it.
if [ -s normlab-data/english.txt.xz ]; then
  cp normlab-data/english.txt.xz "$(dirname "$OUT")/"
  echo "gpu_bundle: $(dirname "$OUT")/english.txt.xz ($(du -h normlab-data/english.txt.xz | cut -f1)), for the findings step"
elif [ -s "$(dirname "$OUT")/english.txt.xz" ]; then
  echo "gpu_bundle: $(dirname "$OUT")/english.txt.xz kept as it is (no normlab-data/english.txt.xz here to refresh it from)"
else
  echo "gpu_bundle: no normlab-data/english.txt.xz (python3 scripts/make_corpus.py makes it): the findings step needs it" >&2
fi
# What a device call carries: the files git tracks and the untracked ones it does not ignore (64 MiB at most).
carried=$({ git ls-files -z; git ls-files -z --others --exclude-standard; } | du -cb --files0-from=- 2> /dev/null | tail -1 | cut -f1)
if [ -n "$carried" ]; then
  echo "gpu_bundle: a device call carries $((carried / 1048576)) MiB of the tree (at most 64)"
  [ "$carried" -le $((64 * 1048576)) ] ||
    echo "gpu_bundle: more than a device call carries: leave english.txt.xz out of .gpu/ for a call that trains no findings" >&2
fi
