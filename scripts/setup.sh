#!/usr/bin/env bash
# Installs every Debian package NormLab needs and builds it (Release, Ninja).
# Safe to run again: installed packages are skipped and the build is incremental.
#   scripts/setup.sh            install + build into ./build (Debian's LibTorch, CPU)
#   NORMLAB_BUILD_DIR=dir ...   build elsewhere
# On a machine with an NVIDIA GPU (nvidia-smi -L answers) the desktop is built
# against PyPI's CUDA LibTorch instead, into ./build-torch2 (scripts/setup-torch2.sh);
# NORMLAB_TORCH=debian|pypi forces either (scripts/torch-choice.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/torch-choice.sh
TORCH="$(normlab_torch)"

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config
  libtorch-dev libopenblas0-openmp          # LibTorch; OpenBLAS replaces the reference BLAS (~20x faster)
  libspdlog-dev libsqlite3-dev nlohmann-json3-dev
  qt6-base-dev qt6-charts-dev qt6-svg-dev qt6-tools-dev qt6-l10n-tools libgl-dev
  python3-torch                             # the independent PyTorch peer for tests and benchmarks
  fortunes                                  # the default English corpus
  xvfb xauth                                # the GUI under a virtual display
  poppler-utils                             # pdftoppm/pdftotext: tests look at exported PDFs
  fonts-wqy-microhei                        # a font with Chinese characters: the window in 简体中文 (View → Language)
  libgloo-dev                               # Gloo's headers, which LibTorch's c10d headers include (data-parallel training)
  slurm-wlm munge                           # a real single-node Slurm for the scale-out tests (tests/slurm_cluster.py)
  openssh-server openssh-client             # a real sshd on 127.0.0.1 for training on a server (tests/remote_ssh.py)
  clang libclang-rt-14-dev                  # libFuzzer and the sanitizers' runtime (scripts/fuzz.sh, scripts/sanitize.sh)
  shellcheck                                # the scripts checked as a test (shell_scripts)
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    SUDO=sudo
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

[ "${NORMLAB_SETUP_PACKAGES_ONLY:-0}" = 1 ] && exit 0
if [ "$TORCH" = pypi ]; then
  echo "setup: an NVIDIA GPU answers: building the desktop against PyPI's CUDA LibTorch (NORMLAB_TORCH=debian for Debian's)"
  NORMLAB_TORCH2_DEBIAN=0 exec bash scripts/setup-torch2.sh
fi
BUILD="${NORMLAB_BUILD_DIR:-build}"
. scripts/disk-room.sh
[ -f "$BUILD/build.ninja" ] || need_room "$BUILD" 3 "setup: the build" "set NORMLAB_BUILD_DIR to a folder on a larger disk"
# NORMLAB_SETUP_BENCH=OFF leaves normlab-bench out (CI: no test of this build runs it)
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNORMLAB_BENCH="${NORMLAB_SETUP_BENCH:-ON}" >/dev/null
cmake --build "$BUILD" -j "$(nproc)"
echo "setup: built into $BUILD"
