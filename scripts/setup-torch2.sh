#!/usr/bin/env bash
# The second build: NormLab — the desktop, normlab-cli, normlab-bench and the
# tests — against PyPI's LibTorch 2.x (CUDA, Gloo, NCCL): what a GPU
# workstation's window trains with (scripts/setup.sh picks it when an NVIDIA
# GPU answers) and what a GPU server runs headless.
#   1. the Debian packages and the Debian build (scripts/setup.sh), so the
#      versions can be compared (NORMLAB_TORCH2_DEBIAN=0: packages only);
#   2. PyTorch, pinned in scripts/requirements-torch2.txt, with pandas,
#      matplotlib and safetensors for the Python recipe, into .venv-torch2
#      (~4.9 GiB, ~8 GiB free needed while it installs; pip keeps the wheels
#      in its cache where 12 GiB are free, so a second set-up downloads nothing);
#   3. CMake against that LibTorch with CUDA enabled (the CUDA toolkit's nvcc
#      must be on PATH or in /usr/local/cuda), GUI on where Qt is, into build-torch2.
# Safe to run again: a satisfied venv is left alone and the build is incremental.
#   NORMLAB_TORCH2_VENV=dir  NORMLAB_TORCH2_BUILD_DIR=dir  override the places
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/disk-room.sh
VENV="${NORMLAB_TORCH2_VENV:-.venv-torch2}"
BUILD="${NORMLAB_TORCH2_BUILD_DIR:-build-torch2}"
REQ=scripts/requirements-torch2.txt

if [ "${NORMLAB_TORCH2_DEBIAN:-1}" = 0 ]; then
  NORMLAB_TORCH=debian NORMLAB_SETUP_PACKAGES_ONLY=1 bash scripts/setup.sh
else
  NORMLAB_TORCH=debian bash scripts/setup.sh
fi

# The venv takes ~4.9 GiB and pip holds the ~3 GiB of wheels while it installs
# them: a disk without that room is refused before the venv is made.
room_for_venv() {
  need_room "$VENV" 8 "setup-torch2: PyTorch 2.11 with CUDA" "set NORMLAB_TORCH2_VENV to a folder on a larger disk"
  need_room "${TMPDIR:-/tmp}" 3 "setup-torch2: pip's download of the wheels" "set TMPDIR to a folder on a larger disk"
}
if [ ! -x "$VENV/bin/python" ]; then
  room_for_venv
  if ! python3 -m venv "$VENV" 2>/dev/null; then
    rm -rf "$VENV"
    echo "setup-torch2: installing python3-venv"
    SUDO=""; [ "$(id -u)" != 0 ] && SUDO=sudo
    $SUDO apt-get install -y -qq python3-venv >/dev/null
    /usr/bin/python3 -m venv "$VENV"
  fi
fi
# pip leaves satisfied pins alone (seconds); otherwise downloads or takes them from its cache.
if ! "$VENV/bin/python" - "$REQ" <<'PY'
import sys
from importlib.metadata import version, PackageNotFoundError
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if line:
        name, want = line.split("==")
        try:
            if version(name) != want:
                sys.exit(1)
        except PackageNotFoundError:
            sys.exit(1)
PY
then
  room_for_venv
  # pip's cache would keep a third copy of the wheels for a later set-up: where
  # room is short it goes without (as CI does: PIP_NO_CACHE_DIR).
  PIP_FLAGS=()
  free="$(free_gib "$VENV")"
  if [ -z "${PIP_NO_CACHE_DIR:-}" ] && [ "$free" -lt 12 ]; then
    echo "setup-torch2: $free GiB free: installing without keeping the wheels in pip's cache"
    PIP_FLAGS+=(--no-cache-dir)
  fi
  echo "setup-torch2: installing $(grep -v '^#' "$REQ" | tr '\n' ' ')into $VENV"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${PIP_FLAGS[@]}" -r "$REQ"
fi

PREFIX="$("$VENV/bin/python" -c 'import torch.utils; print(torch.utils.cmake_prefix_path)')"
NVCC="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
[ -x "$NVCC" ] || { echo "setup-torch2: the CUDA toolkit (nvcc) is missing: PyPI's LibTorch is built for CUDA" >&2; exit 1; }
[ -f "$BUILD/build.ninja" ] || need_room "$BUILD" 3 "setup-torch2: the 2.x build" "set NORMLAB_TORCH2_BUILD_DIR to a folder on a larger disk"
mkdir -p "$BUILD"
PEER=()
[ -x "${NORMLAB_BUILD_DIR:-build}/app/normlab-cli" ] && PEER=("-DNORMLAB_PEER_CLI=$PWD/${NORMLAB_BUILD_DIR:-build}/app/normlab-cli")
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNORMLAB_GUI=ON \
  -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_CUDA_COMPILER="$NVCC" -DTORCH_CUDA_ARCH_LIST="9.0" \
  -DNORMLAB_PYTHON2="$PWD/$VENV/bin/python" "${PEER[@]}" \
  >"$BUILD/cmake-configure.log" 2>&1 || { cat "$BUILD/cmake-configure.log" >&2; exit 1; }
cmake --build "$BUILD" -j "$(nproc)"
echo "setup-torch2: built against LibTorch $("$VENV/bin/python" -c 'import torch; print(torch.__version__)') into $BUILD"
