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
#      with NORMLAB_TORCH2_CUDA_LIBS=toolkit, the same PyTorch without PyPI's
#      CUDA libraries and Triton: the CUDA 13 toolkit's are used (they must be
#      where the dynamic linker looks), and the venv is ~1.9 GiB, ~3 GiB free
#      needed (scripts/requirements-torch2-toolkit.txt; CI's disk is small);
#   3. CMake against that LibTorch with CUDA enabled (the CUDA toolkit's nvcc
#      must be on PATH or in /usr/local/cuda), GUI on where Qt is, into build-torch2.
# Safe to run again: a satisfied venv is left alone and the build is incremental.
#   NORMLAB_TORCH2_VENV=dir  NORMLAB_TORCH2_BUILD_DIR=dir  override the places
#   NORMLAB_TORCH2_TORCH_FREE_SUITES=OFF  leaves out the suites that never call
#      LibTorch (stores, charts, the window's layout: tests/CMakeLists.txt), which
#      the Debian build beside it runs (CI does so)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/disk-room.sh
VENV="${NORMLAB_TORCH2_VENV:-.venv-torch2}"
BUILD="${NORMLAB_TORCH2_BUILD_DIR:-build-torch2}"
REQ=scripts/requirements-torch2.txt
CUDA_LIBS="${NORMLAB_TORCH2_CUDA_LIBS:-pypi}"
case "$CUDA_LIBS" in
  pypi) NEED=8; NEED_TMP=3; WHAT="PyTorch 2.11 with CUDA"; PIP_DEPS=() ;;
  toolkit) NEED=3; NEED_TMP=1; WHAT="PyTorch 2.11 with the CUDA toolkit's libraries"; PIP_DEPS=(--no-deps)
    # The toolkit file pins the whole closure: the pins the main file names must be the same there.
    while read -r pin; do
      grep -qxF "$pin" scripts/requirements-torch2-toolkit.txt || {
        echo "setup-torch2: $pin (scripts/requirements-torch2.txt) is not pinned the same in scripts/requirements-torch2-toolkit.txt: make them agree" >&2; exit 1; }
    done < <(sed 's/#.*//; s/[[:space:]]//g; /^$/d' "$REQ")
    REQ=scripts/requirements-torch2-toolkit.txt ;;
  *) echo "setup-torch2: NORMLAB_TORCH2_CUDA_LIBS is '$CUDA_LIBS': set it to pypi (PyPI's CUDA libraries, the default) or toolkit (the CUDA 13 toolkit's)" >&2; exit 1 ;;
esac

if [ "${NORMLAB_TORCH2_DEBIAN:-1}" = 0 ]; then
  NORMLAB_TORCH=debian NORMLAB_SETUP_PACKAGES_ONLY=1 bash scripts/setup.sh
else
  NORMLAB_TORCH=debian bash scripts/setup.sh
fi

# The libraries PyPI's torch 2.11 links that the toolkit mode takes from the system
# (ldd libtorch_cuda.so libtorch_cpu.so, less cuSPARSELt, NVSHMEM and cuFile, which come from PyPI).
TOOLKIT_SONAMES=(libcudart.so.13 libcublas.so.13 libcublasLt.so.13 libcufft.so.12 libcurand.so.10
  libcusolver.so.12 libcusparse.so.12 libcupti.so.13 libnvrtc.so.13 libnvJitLink.so.13 libcudnn.so.9 libnccl.so.2)
toolkit_libs_found() {
  local cache missing=() s d dirs found
  cache="$(/sbin/ldconfig -p 2>/dev/null || ldconfig -p 2>/dev/null || true)"
  IFS=: read -r -a dirs <<<"${LD_LIBRARY_PATH:-}"   # where the dynamic linker looks too
  for s in "${TOOLKIT_SONAMES[@]}"; do
    grep -q "^[[:space:]]*$s " <<<"$cache" && continue
    found=0
    for d in "${dirs[@]}"; do [ -n "$d" ] && [ -e "$d/$s" ] && found=1; done
    [ "$found" = 1 ] || missing+=("$s")
  done
  if ((${#missing[@]})); then
    echo "setup-torch2: NORMLAB_TORCH2_CUDA_LIBS=toolkit takes CUDA's libraries from the system, and the dynamic linker finds no ${missing[*]}: install the CUDA 13 toolkit with cuDNN 9 and NCCL 2 and add their folder to /etc/ld.so.conf.d (then run ldconfig), or leave NORMLAB_TORCH2_CUDA_LIBS unset to install PyPI's (~3 GiB more)" >&2
    return 1
  fi
}
[ "$CUDA_LIBS" = toolkit ] && { toolkit_libs_found || exit 1; }

# The venv takes ~4.9 GiB (~1.9 without PyPI's CUDA libraries) and pip holds
# the wheels while it installs them: a disk without that room is refused
# before the venv is made.
room_for_venv() {
  local fix="set NORMLAB_TORCH2_VENV to a folder on a larger disk"
  [ "$CUDA_LIBS" = pypi ] && fix="$fix, or NORMLAB_TORCH2_CUDA_LIBS=toolkit to use the CUDA toolkit's libraries (~3 GiB)"
  need_room "$VENV" "$NEED" "setup-torch2: $WHAT" "$fix"
  need_room "${TMPDIR:-/tmp}" "$NEED_TMP" "setup-torch2: pip's download of the wheels" "set TMPDIR to a folder on a larger disk"
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
# A venv made with the toolkit's libraries (its marker says so) lacks PyPI's: the
# default set-up installs them into it.
MARK="$VENV/normlab-cuda-libs"
lacks_pypi_libs() { [ "$CUDA_LIBS" = pypi ] && [ "$(cat "$MARK" 2>/dev/null)" = toolkit ]; }
if lacks_pypi_libs || ! "$VENV/bin/python" - "$REQ" <<'PY'
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
  PIP_FLAGS=("${PIP_DEPS[@]}")
  free="$(free_gib "$VENV")"
  if [ -z "${PIP_NO_CACHE_DIR:-}" ] && [ "$free" -lt 12 ]; then
    echo "setup-torch2: $free GiB free: installing without keeping the wheels in pip's cache"
    PIP_FLAGS+=(--no-cache-dir)
  fi
  echo "setup-torch2: installing $(sed 's/#.*//; /^[[:space:]]*$/d' "$REQ" | tr '\n' ' ')into $VENV"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${PIP_FLAGS[@]}" -r "$REQ"
  # A venv that had PyPI's libraries keeps them: only one without PyPI's cuBLAS says toolkit.
  if [ "$CUDA_LIBS" = pypi ] || compgen -G "$VENV/lib/python3*/site-packages/nvidia/cu13/lib/libcublas.so.*" >/dev/null; then
    echo pypi >"$MARK"
  else
    echo toolkit >"$MARK"
  fi
fi
# A venv whose torch does not load (a toolkit library missing or of another
# version) is named here, not as a link error in the build.
"$VENV/bin/python" -c 'import torch' 2>"$VENV/import-torch.log" || {
  echo "setup-torch2: $VENV's torch does not import:" >&2; tail -5 "$VENV/import-torch.log" >&2
  [ "$CUDA_LIBS" = toolkit ] && echo "setup-torch2: it takes CUDA's libraries from the toolkit (NORMLAB_TORCH2_CUDA_LIBS=toolkit): leave that unset to install PyPI's" >&2
  exit 1; }

PREFIX="$("$VENV/bin/python" -c 'import torch.utils; print(torch.utils.cmake_prefix_path)')"
NVCC="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
[ -x "$NVCC" ] || { echo "setup-torch2: the CUDA toolkit (nvcc) is missing: PyPI's LibTorch is built for CUDA" >&2; exit 1; }
[ -f "$BUILD/build.ninja" ] || need_room "$BUILD" 3 "setup-torch2: the 2.x build" "set NORMLAB_TORCH2_BUILD_DIR to a folder on a larger disk"
mkdir -p "$BUILD"
# the folders as given, absolute or from the project's root (a test run from its build folder finds them so)
abs() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
PEER=()
[ -x "${NORMLAB_BUILD_DIR:-build}/app/normlab-cli" ] && PEER=("-DNORMLAB_PEER_CLI=$(abs "${NORMLAB_BUILD_DIR:-build}")/app/normlab-cli")
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNORMLAB_GUI=ON \
  -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_CUDA_COMPILER="$NVCC" -DTORCH_CUDA_ARCH_LIST="9.0" \
  -DNORMLAB_PYTHON2="$(abs "$VENV")/bin/python" "${PEER[@]}" \
  -DNORMLAB_TORCH_FREE_SUITES="${NORMLAB_TORCH2_TORCH_FREE_SUITES:-ON}" -DNORMLAB_CUDA_ARCHS="${NORMLAB_TORCH2_CUDA_ARCHS:-80;90}" \
  >"$BUILD/cmake-configure.log" 2>&1 || { cat "$BUILD/cmake-configure.log" >&2; exit 1; }
cmake --build "$BUILD" -j "$(nproc)"
echo "setup-torch2: built against LibTorch $("$VENV/bin/python" -c 'import torch; print(torch.__version__)') into $BUILD"
