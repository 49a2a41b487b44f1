#!/usr/bin/env bash
# On a GPU machine with PyTorch 2.x (no Qt, no registry needed): unpacks the
# archive of scripts/gpu_bundle.sh into this checkout's build-torch2, points
# the loader at PyTorch's LibTorch and the bundled libraries, and runs the
# steps named, each under its own time limit, writing logs and results into
# OUTDIR. Steps:
#   check     the GPU, the libraries resolved, the CLI's device line
#   window    test_gpu_window: the window's worker trains on the GPU in bf16 (a screenshot)
#   gui       test_gui and test_gui_compare: the window tests, the GPU present
#   graph     test_static_step and test_fused_ops on the GPU: the step captured as a CUDA graph tracks
#             the eager step, --batch auto, nGPT's CUDA update kernel against the eager ops; then the
#             small size, every scheme, captured against not (bench/run.py, bf16); then nGPT, NormFormer
#             and Pre-LN at the gpu size with NORMLAB_CUDA_KERNELS=1 against without
#   precision six schemes, 100 steps, fp32 / tf32 / bf16 on the GPU (stores kept)
#   bench     bench/run.py --device cuda at the gpu size (BENCH_ARGS to change)
#   findings  issue 26's runs at --scale gpu, several at once on the GPU (FINDINGS, FINDINGS_SECONDS)
#   profile   Kineto traces of the core and eager PyTorch at the gpu size in bf16, summed per kernel
# Usage: bash scripts/gpu_session.sh BUNDLE.tar.xz OUTDIR STEP...
set -uo pipefail
cd "$(dirname "$0")/.."
BUNDLE="$1" OUTDIR="$2"
shift 2
mkdir -p "$OUTDIR"
W="$(mktemp -d)"
tar -C "$W" -xJf "$BUNDLE" || { echo "gpu_session: cannot unpack $BUNDLE" >&2; exit 1; }
G="$W/gpu"
mkdir -p build-torch2
cp -r "$G"/build-torch2/. build-torch2/
# The binaries name their sources and siblings by the absolute path they were built at (/work/main).
if [ ! -e /work/main ] && [ "$(pwd)" != /work/main ]; then mkdir -p /work && ln -s "$(pwd)" /work/main; fi
TORCH_LIB="$(python3 -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "lib"))')"
export LD_LIBRARY_PATH="$TORCH_LIB:$G/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export QT_QPA_PLATFORM=offscreen QT_PLUGIN_PATH="$G/plugins"
printf '<?xml version="1.0"?>\n<fontconfig><dir>%s</dir><cachedir>%s</cachedir></fontconfig>\n' "$G/fonts" "$W/fc" > "$W/fonts.conf"
export FONTCONFIG_FILE="$W/fonts.conf" NORMLAB_CORPUS_DIR="$G/fortunes" PYTHONUNBUFFERED=1
CLI=build-torch2/app/normlab-cli
step() { echo "=== $1 ($(date -u +%T))"; }
for s in "$@"; do
  case "$s" in
    check)
      step check
      nvidia-smi --query-gpu=name,memory.total,memory.used,driver_version,clocks.sm --format=csv | tee "$OUTDIR/gpu.txt"
      python3 -c 'import torch; print("torch", torch.__version__, "CUDA", torch.version.cuda)' | tee -a "$OUTDIR/gpu.txt"
      for b in build-torch2/app/* build-torch2/bench/* build-torch2/tests/*; do
        ldd "$b" | grep "not found" | sed "s|^|$b: |"
      done
      $CLI --version | tee -a "$OUTDIR/gpu.txt" ;;
    window)
      step window
      NORMLAB_SCREENSHOT_DIR="$OUTDIR" timeout 300 build-torch2/tests/test_gpu_window 2>&1 | grep -v QWARN | tee "$OUTDIR/test_gpu_window.log" ;;
    gui)
      step gui
      for t in test_gui test_gui_compare; do
        timeout 400 build-torch2/tests/$t 2>&1 | grep -v QWARN | tee "$OUTDIR/$t.log" | grep -E "^(PASS|FAIL|Totals|QINFO)"
      done ;;
    graph)
      step graph
      timeout 300 build-torch2/tests/test_static_step 2>&1 | tee "$OUTDIR/test_static_step.log" | grep -E "^(PASS|FAIL|SKIP|Totals|QINFO)"
      # the captured step again with NormLab's CUDA kernels inside the graph
      NORMLAB_CUDA_KERNELS=1 timeout 300 build-torch2/tests/test_static_step onAGpuTheCapturedStepTracksTheOrdinaryStep 2>&1 \
        | tee "$OUTDIR/test_static_step-kernels.log" | grep -E "^(PASS|FAIL|SKIP|Totals|QINFO)"
      timeout 120 build-torch2/tests/test_fused_ops 2>&1 | tee "$OUTDIR/test_fused_ops.log" | grep -E "^(PASS|FAIL|SKIP|Totals)"
      for t in test_cuda_kernels test_cuda_residual_ln; do
        timeout 120 build-torch2/tests/$t 2>&1 | tee "$OUTDIR/$t.log" | grep -E "^(PASS|FAIL|SKIP|Totals)"
      done
      timeout "${GRAPH_TIMEOUT:-300}" python3 bench/run.py --device cuda --build none --build2 build-torch2 --python none --python2 "$(command -v python3)" \
        --throughput-only --out "$OUTDIR/PERFORMANCE-graph.md" --sizes small --precision bf16 --reps 2 --steps 30 \
        2>&1 | tee "$OUTDIR/bench-graph.log" | grep -vE "^\s*$" | tail -20
      # nGPT, NormFormer and Pre-LN at GPT-2 small's shape, NormLab's CUDA kernels off and on, alternated
      for scheme in ngpt normformer pre_ln; do
        for k in 0 1 0 1; do
          echo -n "$scheme NORMLAB_CUDA_KERNELS=$k "
          NORMLAB_CUDA_KERNELS=$k timeout 150 build-torch2/bench/normlab-bench train --scheme $scheme --d 768 --layers 12 --dff 3072 \
            --heads 12 --ctx 1024 --batch 32 --device cuda --precision bf16 --steps 10 --warmup 3 \
            | python3 -c 'import json,sys
t = sys.stdin.read()
try: d = json.loads(t); print(round(d["step_ms_median"], 1), "ms/step", d["memory_gib"], "GiB")
except ValueError: print("no result (the error is above)")'
        done
      done 2>&1 | tee "$OUTDIR/cuda-kernels.log" ;;
    precision)
      step precision
      for p in fp32 tf32 bf16; do
        timeout 200 $CLI run tests/data/precision.json --store "$OUTDIR/precision-$p.sqlite" --device cuda --precision "$p" 2>&1 | tail -7
      done
      python3 tests/precision_parity.py --compare "$OUTDIR"/precision-fp32.sqlite "$OUTDIR"/precision-tf32.sqlite "$OUTDIR"/precision-bf16.sqlite | tee "$OUTDIR/precision.txt" ;;
    bench)
      step bench
      # shellcheck disable=SC2086
      timeout "${BENCH_TIMEOUT:-560}" python3 bench/run.py --device cuda --build none --build2 build-torch2 --python none --python2 "$(command -v python3)" \
        --throughput-only --out "$OUTDIR/PERFORMANCE-gpu.md" ${BENCH_ARGS:---sizes gpu --precision bf16 --reps 2 --steps 20} \
        2>&1 | tee "$OUTDIR/bench.log"
      cp /tmp/normlab-bench-*/results.json "$OUTDIR/" 2>/dev/null ;;
    profile)
      # Kineto traces of the core and of eager PyTorch (PROFILE_SCHEMES at the gpu size, bf16), summed per kernel.
      step profile
      for scheme in ${PROFILE_SCHEMES:-pre_ln ngpt}; do
        $CLI preset "$scheme" | python3 -c 'import json, sys
c = json.load(sys.stdin)
c["model"].update(d_model=768, n_layers=12, n_heads=12, d_ff=3072, context=1024)
c["train"].update(batch_size=32, precision="bf16")
json.dump(c, open(sys.argv[1], "w"))' "$W/$scheme.json"
        timeout 120 build-torch2/bench/normlab-bench train --device cuda --config "$W/$scheme.json" --steps 4 --warmup 3 \
          --threads 16 --profile "$W/core-$scheme.json" > /dev/null
        timeout 120 python3 bench/peer.py --device cuda --config "$W/$scheme.json" --steps 4 --warmup 3 --threads 16 \
          --bf16 --profile "$W/eager-$scheme.json" > /dev/null 2>&1
        python3 bench/profile_summary.py "$W/core-$scheme.json" "$W/eager-$scheme.json" --steps 7 \
          --json "$OUTDIR/profile-$scheme.json" | tee "$OUTDIR/profile-$scheme.txt"
      done ;;
    findings)
      # Issue 26: the runs FINDINGS names ("EXPERIMENT|RUN;..."), at --scale gpu, side by side on the one GPU, each
      # into its own store; stopped with Ctrl-C (a checkpoint kept) after FINDINGS_SECONDS; the stores land in OUTDIR.
      step findings
      if [ ! -s normlab-data/english.txt ]; then
        mkdir -p normlab-data
        python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' \
          "$(dirname "$BUNDLE")/english.txt.xz" normlab-data/english.txt
      fi
      sha256sum normlab-data/english.txt
      mkdir -p "$W/stores"
      IFS=';' read -ra pairs <<< "${FINDINGS:?FINDINGS=EXPERIMENT|RUN;...}"
      for pair in "${pairs[@]}"; do
        exp="${pair%%|*}" run="${pair#*|}"
        name="$(basename "$exp" .json)-$(echo "$run" | tr -c 'A-Za-z0-9.\n' '_')"
        timeout -s INT "${FINDINGS_SECONDS:-480}" $CLI run "$exp" --scale gpu --only "$run" --device cuda \
          --store "$W/stores/$name.sqlite" > "$W/stores/$name.log" 2>&1 &
      done
      wait
      for f in "$W"/stores/*.log; do echo "-- $(basename "$f")"; grep -v " step " "$f" | tail -3; grep " step " "$f" | tail -1; done
      cp "$W"/stores/*.sqlite "$OUTDIR"/ ;;
    *) echo "gpu_session: unknown step $s" >&2 ;;
  esac
done
rm -rf "$W"
