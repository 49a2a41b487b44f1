#!/usr/bin/env bash
# Which LibTorch scripts/setup.sh builds the desktop against (scripts/torch-choice.sh):
# PyPI's CUDA one when an NVIDIA GPU answers and nvcc is there, Debian's otherwise,
# NORMLAB_TORCH forcing either; a wrong value is refused with its name. A fake
# nvidia-smi (and nvcc) on PATH stand for a GPU workstation.
set -u
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
W="$(mktemp -d)"
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/gpu" "$W/nogpu" "$W/nvcc" "$W/bin"
printf '#!/bin/sh\necho "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0)"\n' > "$W/gpu/nvidia-smi"
printf '#!/bin/sh\necho "NVIDIA-SMI has failed because it could not communicate with the NVIDIA driver" >&2; exit 9\n' > "$W/nogpu/nvidia-smi"
printf '#!/bin/sh\nexit 0\n' > "$W/nvcc/nvcc"
chmod +x "$W"/*/*
# A PATH of the basic tools only (no real nvidia-smi or nvcc).
for t in sh bash grep cat; do ln -s "$(command -v $t)" "$W/bin/$t"; done
fail=0
check() {   # check WANT WANT_BUILD PATH_PREFIX [ENV...]
  local want="$1" build="$2" path="$3"; shift 3
  local got dir
  got="$(env -i PATH="$path:$W/bin" NORMLAB_CUDA_HOME="$W/none" "$@" bash -c ". '$ROOT/scripts/torch-choice.sh'; normlab_torch" 2>"$W/err")"
  dir="$(env -i PATH="$path:$W/bin" NORMLAB_CUDA_HOME="$W/none" "$@" bash -c ". '$ROOT/scripts/torch-choice.sh'; normlab_build_dir" 2>/dev/null)"
  if [ "$got" != "$want" ] || [ "$dir" != "$build" ]; then
    echo "FAILED: PATH=$path $* gave '$got' into '$dir', wanted '$want' into '$build' ($(cat "$W/err"))"; fail=1
  else
    echo "ok: ${*:-(no override)} with ${path##*/}: $got into $dir"
  fi
}
check debian build "$W/none"
check debian build "$W/nogpu:$W/nvcc"
check pypi build-torch2 "$W/gpu:$W/nvcc"
check debian build "$W/gpu:$W/nvcc" NORMLAB_TORCH=debian
check pypi build-torch2 "$W/none" NORMLAB_TORCH=pypi
check debian build "$W/gpu"
grep -q "nvcc" "$W/err" || { echo "FAILED: a GPU without nvcc is not explained: $(cat "$W/err")"; fail=1; }
if env -i PATH="$W/bin" NORMLAB_TORCH=cuda bash -c ". '$ROOT/scripts/torch-choice.sh'; normlab_torch" 2>"$W/err"; then
  echo "FAILED: NORMLAB_TORCH=cuda was accepted"; fail=1
elif ! grep -q 'NORMLAB_TORCH must be debian, pypi or auto, got "cuda"' "$W/err"; then
  echo "FAILED: NORMLAB_TORCH=cuda refused without naming it: $(cat "$W/err")"; fail=1
else
  echo "ok: NORMLAB_TORCH=cuda refused: $(cat "$W/err")"
fi
exit $fail
