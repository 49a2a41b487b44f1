# shellcheck shell=bash
# Sourced by scripts/setup.sh, run.sh and test.sh: which LibTorch the desktop
# builds against, and where that build lives.
#   NORMLAB_TORCH=debian   Debian's LibTorch 1.13 (CPU) into ./build
#   NORMLAB_TORCH=pypi     PyPI's LibTorch 2.x with CUDA (pinned) into ./build-torch2, GUI on
#   NORMLAB_TORCH=auto     (default) pypi when an NVIDIA GPU answers (nvidia-smi -L) and the
#                          CUDA toolkit is there to build against it (nvcc), else debian
normlab_torch() {
  local t="${NORMLAB_TORCH:-auto}"
  case "$t" in
    debian|pypi) echo "$t" ;;
    auto)
      if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
        if command -v nvcc >/dev/null 2>&1 || [ -x "${NORMLAB_CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then echo pypi; return; fi
        echo "an NVIDIA GPU answers, but the CUDA toolkit (nvcc) to build against PyPI's CUDA LibTorch is missing:" \
             "Debian's CPU LibTorch is used (install nvidia-cuda-toolkit, or NORMLAB_TORCH=pypi, to train on the GPU)" >&2
      fi
      echo debian ;;
    *) echo "NORMLAB_TORCH must be debian, pypi or auto, got \"$t\"" >&2; return 2 ;;
  esac
}
normlab_build_dir() {
  if [ "$(normlab_torch)" = pypi ]; then echo "${NORMLAB_TORCH2_BUILD_DIR:-build-torch2}"; else echo "${NORMLAB_BUILD_DIR:-build}"; fi
}
