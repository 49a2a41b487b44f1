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
#             the eager step, --batch auto, nGPT's CUDA update kernel against the eager ops; then nGPT,
#             NormFormer and Pre-LN at the gpu size with NORMLAB_CUDA_KERNELS=1 against without; then the
#             small size, every scheme, captured against not (bench/run.py, bf16; GRAPH_BENCH_ARGS);
#             GRAPH_TESTS_ONLY=1: the tests alone
#   precision six schemes, 100 steps, fp32 / tf32 / bf16 on the GPU (stores kept)
#   bench     bench/run.py --device cuda at the gpu size, then the small one (BENCH_ARGS to change), Pre-LN first; the configurations
#             that earlier leases' results in bench/results/gpu-table/ (results-*.json committed there) hold are skipped, so
#             every lease's bench is this one command and goes on where the last stopped
#   findings  issue 26's runs at --scale gpu, several at once on the GPU (FINDINGS, FINDINGS_SECONDS), waited
#             for; FINDINGS=queue takes the next lease of docs/reproduction-gpu/queue.txt that runs.sqlite lacks;
#             with FINDINGS_DETACH=1 started in a process session of their own (setsid), so that they go on
#             after this call returns, into the next calls on the same warm machine (the device tool ends a call's
#             other processes when it returns), and this step returns once each has trained a step
#   collect   waits for the detached runs (at most COLLECT_SECONDS, default 540), then merges every run
#             (a consistent copy of one still training) into OUTDIR/findings.sqlite and prints the logs' last lines
#   profile   Kineto traces of the core and eager PyTorch at the gpu size in bf16 (Pre-LN, nGPT, then Pre-LN with
#             nGPT's MLP while time is left; PROFILE_SCHEMES), each kernel traced to its operator, shape and part;
#             PROFILE_GRAPH=1: the core's step captured as a CUDA graph too, traced replayed (profile-graph-*)
# GPU_SESSION_DEVICE=cpu rehearses the steps that train (findings, collect, precision, bench) on a machine without a GPU,
# so that a change to the CLI or the experiments that would break them is found before device time is spent.
# GPU_SESSION_SECONDS=N: the whole call's budget (the device tool's timeout_s less a little). Every limit below is
# cut to what is left of it, less 20 s to write and bring back the files, and a step with too little left is
# skipped with a line that says so: a call ends on its own with what it measured, never killed mid-write.
# Usage: bash scripts/gpu_session.sh BUNDLE.tar.xz OUTDIR STEP...
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUNDLE="$1" OUTDIR="$2"
shift 2
mkdir -p "$OUTDIR"
DEVICE="${GPU_SESSION_DEVICE:-cuda}"
# The bundle is unpacked once per machine, into a folder that outlives the call: the detached runs of one
# call read its libraries while later calls run.
W="${GPU_SESSION_DIR:-/tmp/normlab-gpu-session}"
SUM="$(sha256sum "$BUNDLE" | cut -c1-16)"
if [ "$(cat "$W/bundle.sum" 2>/dev/null)" != "$SUM" ]; then
  pgrep -f "$W/" > /dev/null && { echo "gpu_session: runs of another bundle are still training from $W" >&2; exit 1; }
  rm -rf "$W/gpu" && mkdir -p "$W"
  tar -C "$W" -xJf "$BUNDLE" || { echo "gpu_session: cannot unpack $BUNDLE" >&2; exit 1; }
  echo "$SUM" > "$W/bundle.sum"
fi
G="$W/gpu"
mkdir -p build-torch2
# --remove-destination: a binary that a detached run executes is replaced, not written into (ETXTBSY)
cp -r --remove-destination "$G"/build-torch2/. build-torch2/
# The binaries name their sources and siblings by the absolute path they were built at (the bundle says
# which; /work/main before it did): where that path does not exist, it becomes a link to this checkout.
ROOT="$(cat "$G/build_root" 2> /dev/null || echo /work/main)"
if [ ! -e "$ROOT" ] && [ "$(pwd)" != "$ROOT" ]; then mkdir -p "$(dirname "$ROOT")" && ln -s "$(pwd)" "$ROOT"; fi
# (a CPU rehearsal may have no torch in python3: the binaries find LibTorch by their RUNPATH then)
TORCH_LIB="$(python3 -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "lib"))' 2> /dev/null)"
[ -n "$TORCH_LIB" ] || [ "$DEVICE" = cpu ] || { echo "gpu_session: python3 has no torch: PyTorch's LibTorch is needed" >&2; exit 1; }
# CUDA's libraries are not in the bundle: the binaries take PyTorch's, where pip put them beside it
# (site-packages/nvidia/*/lib, the ones libtorch_cuda.so loads) or, failing that, the system's
CUDA_DIRS=""
if [ -n "$TORCH_LIB" ]; then
  for d in "$TORCH_LIB"/../../nvidia/*/lib; do [ -d "$d" ] && CUDA_DIRS="$CUDA_DIRS:$(cd "$d" && pwd)"; done
fi
export LD_LIBRARY_PATH="$TORCH_LIB$CUDA_DIRS:$G/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export QT_QPA_PLATFORM=offscreen QT_PLUGIN_PATH="$G/plugins"
printf '<?xml version="1.0"?>\n<fontconfig><dir>%s</dir><cachedir>%s</cachedir></fontconfig>\n' "$G/fonts" "$W/fc" > "$W/fonts.conf"
export FONTCONFIG_FILE="$W/fonts.conf" NORMLAB_CORPUS_DIR="$G/fortunes" PYTHONUNBUFFERED=1
CLI=build-torch2/app/normlab-cli
step() { echo "=== $1 ($(date -u +%T))"; }
BUDGET="${GPU_SESSION_SECONDS:-0}"
# seconds left of the call's budget, less the margin (a large number without a budget)
left() { if [ "$BUDGET" -gt 0 ]; then echo $((BUDGET - SECONDS - 20)); else echo 86400; fi; }
# lim N: N seconds, or what is left if that is less (at least 1: timeout 0 would mean no limit)
lim() { local l; l="$(left)"; [ "$l" -lt "$1" ] && { [ "$l" -gt 1 ] && echo "$l" || echo 1; } || echo "$1"; }
# enough STEP N: whether N seconds are left for STEP; if not, says that it is skipped
enough() {
  local l; l="$(left)"
  [ "$l" -ge "$2" ] && return 0
  echo "=== $1 skipped: it needs ${2} s, ${l} s of GPU_SESSION_SECONDS=$BUDGET are left"
  return 1
}
DETACH=""; [ "${FINDINGS_DETACH:-0}" = 1 ] && DETACH=1
# bench/run.py against the GPU build in a scratch folder of its own; its raw results, rewritten in OUTDIR
# after each configuration (so a benchmark stopped by a time limit, or a call cut off by its own, keeps what
# it measured), come back as results-NAME.json, to be drawn here with bench/run.py --from-results (several
# files make one table).
bench_py() {
  local name="$1" seconds="$2" t="$W/bench-$1"
  shift 2
  rm -rf "$t" && mkdir -p "$t"
  TMPDIR="$t" timeout "$(lim "$seconds")" python3 bench/run.py --device "$DEVICE" --build none --build2 build-torch2 --python none \
    --python2 "$(command -v python3)" --throughput-only --out "$OUTDIR/PERFORMANCE-$name.md" \
    --raw "$OUTDIR/results-$name.json" "$@"
}
summarize_findings() {
  for f in "$W"/stores/*.log; do
    [ -e "$f" ] || continue
    echo "-- $(basename "$f" .log)"; grep -v " step " "$f" | tail -3; grep " step " "$f" | tail -1
  done
}
# alive PID / any_alive PID...: whether a run started by this call still runs, by the PID its `&` gave; not by
# pgrep of its command line, which a run forked but not yet exec'd does not show: on a loaded machine the wait
# found none, stopped the run as it started (no store, no log) and ended the call at once (CI, 2026-12-05)
alive() { kill -0 "$1" 2> /dev/null; }
any_alive() { local p; for p in "$@"; do alive "$p" && return 0; done; return 1; }
# Stops the findings runs still training as Ctrl-C stops them (cancelled, a checkpoint written; through
# their timeout, which passes the signal on) and waits up to 30 s for them to end.
stop_findings() {
  pkill -INT -f "^timeout .*$W/stores/" 2> /dev/null
  for _ in $(seq 1 30); do pgrep -f "$W/stores/" > /dev/null || break; sleep 1; done
}
# Every run into one store in OUTDIR (findings.sqlite: the device tool brings back 8 files): SQLite's backup
# of each run's store first, a consistent copy even of one a run still writes, then normlab-cli merge.
# Past 15 MiB it comes back xz-compressed (findings.sqlite.xz; the tool's limit is 16 MiB a file).
collect_findings() {
  summarize_findings
  local copies="$W/copies" f
  rm -rf "$copies" && mkdir -p "$copies"
  for f in "$W"/stores/*.sqlite; do
    [ -e "$f" ] || continue
    python3 -c 'import sqlite3, sys
src = sqlite3.connect(sys.argv[1], timeout=60); dst = sqlite3.connect(sys.argv[2])
src.backup(dst); dst.close(); src.close()' "$f" "$copies/$(basename "$f")" || echo "gpu_session: could not copy $f" >&2
  done
  if ls "$copies"/*.sqlite > /dev/null 2>&1; then
    rm -f "$OUTDIR/findings.sqlite" "$OUTDIR/findings.sqlite.xz"
    # the checkpoints stay on the machine (hundreds of MB each): the merge says so for each run
    $CLI merge "$copies"/*.sqlite --into "$OUTDIR/findings.sqlite" 2>&1 | grep -v "could not be copied"
    rm -rf "$OUTDIR/findings.sqlite.checkpoints"
    if [ "$(stat -c %s "$OUTDIR/findings.sqlite")" -gt $((15 * 1024 * 1024)) ]; then
      xz -T0 -6 "$OUTDIR/findings.sqlite"
    fi
    ls -ld "$OUTDIR"/findings.sqlite*
  fi
  pgrep -f "$W/stores/" > /dev/null && echo "gpu_session: runs still training; their stores were copied as they stand"
}
# runs_held STORE: each run STORE holds as "EXPERIMENT-FILE|RUN NAME" (the file's base name), sorted; STORE a run
# store, packed with xz (*.xz: the report's, docs/reproduction-gpu/runs.sqlite.xz) or not. gpu_ingest.sh writes it
# to docs/reproduction-gpu/trained.txt, which a device call carries where the store itself may not fit.
runs_held() {
  python3 - "$1" << 'PY'
import os, sqlite3, sys
store = sys.argv[1]
if store.endswith(".xz"):
    import lzma, tempfile
    unpacked = tempfile.NamedTemporaryFile(suffix=".sqlite")
    with lzma.open(store) as f:
        unpacked.write(f.read())
    unpacked.flush()
    store = unpacked.name
db = sqlite3.connect(f"file:{store}?immutable=1", uri=True)
for line in sorted({f"{os.path.basename(f or '')}|{n}" for f, n in db.execute(
        "SELECT e.file, r.name FROM runs r LEFT JOIN experiments e ON e.id = r.experiment_id")}):
    print(line)
PY
}
# queue_next QUEUE DONE: the first line of QUEUE (one lease's "EXPERIMENT|RUN;..." a line; # comments) naming a run
# that DONE lacks: a run of that experiment file named RUN, or one of RUN's sweep points ("RUN seed=2", "RUN lr=1e-3
# seed=1": RUN and words of KEY=VALUE), as --only takes them. "RUN no offsets", another variant, is not RUN. DONE is
# runs_held's list (*.txt) or a store; one that does not exist holds nothing.
queue_next() {
  local held=""
  if [ -e "$2" ]; then
    if [[ "$2" == *.txt ]]; then held="$(grep -v '^#' "$2" || true)"; else held="$(runs_held "$2")" || return 1; fi
  fi
  printf '%s\n' "$held" | python3 -c 'import os, sys
have = [l.rstrip("\n").split("|", 1) for l in sys.stdin if "|" in l]
def point_of(n, run):
    return n.startswith(run + " ") and all("=" in w for w in n[len(run) + 1:].split())
def trained(exp, run):
    return any(f == os.path.basename(exp) and (n == run or point_of(n, run)) for f, n in have)
for line in open(sys.argv[1]):
    line = line.split("#", 1)[0].strip()
    if line and not all(trained(*p.split("|", 1)) for p in line.split(";")):
        print(line)
        break' "$1"
}
# the least time each step is started with (collect always runs: it brings back what trained)
declare -A NEEDS=([check]=10 [window]=60 [gui]=60 [graph]=90 [precision]=90 [bench]=90 [profile]=90 [findings]=45 [collect]=0)
for s in "$@"; do
  enough "$s" "${NEEDS[$s]:-0}" || continue
  case "$s" in
    check)
      step check
      nvidia-smi --query-gpu=name,memory.total,memory.used,driver_version,clocks.sm --format=csv | tee "$OUTDIR/gpu.txt"
      python3 -c 'import torch; print("torch", torch.__version__, "CUDA", torch.version.cuda)' | tee -a "$OUTDIR/gpu.txt"
      for b in build-torch2/app/* build-torch2/libexec/normlab/* build-torch2/bench/* build-torch2/tests/*; do
        [ -f "$b" ] || continue   # a bundle packed before the CLI's engine moved to libexec has none
        ldd "$b" | grep "not found" | sed "s|^|$b: |"
      done
      $CLI --version | tee -a "$OUTDIR/gpu.txt" ;;
    window | gui)
      [ -x build-torch2/tests/test_gpu_window ] || {
        echo "gpu_session: $s: this bundle has no window (pack it with GPU_BUNDLE_WINDOW=1 bash scripts/gpu_bundle.sh)" | tee "$OUTDIR/$s.log"
        continue
      } ;;&
    window)
      step window
      NORMLAB_SCREENSHOT_DIR="$OUTDIR" timeout "$(lim 300)" build-torch2/tests/test_gpu_window 2>&1 | grep -v QWARN | tee "$OUTDIR/test_gpu_window.log" ;;
    gui)
      step gui
      for t in test_gui test_gui_compare; do
        timeout "$(lim 400)" build-torch2/tests/$t 2>&1 | grep -v QWARN | tee "$OUTDIR/$t.log" | grep -E "^(PASS|FAIL|Totals|QINFO)"
      done ;;
    graph)
      step graph
      # every test's whole output in one file (the device tool brings back 8), a call cut off by its limit included
      T="$OUTDIR/graph-tests.log"
      echo "=== test_static_step" >> "$T"
      timeout "$(lim 300)" build-torch2/tests/test_static_step 2>&1 | tee -a "$T" | grep -E "^(PASS|FAIL|SKIP|Totals|QINFO)"
      # the captured step again with NormLab's CUDA kernels inside the graph
      echo "=== test_static_step, NORMLAB_CUDA_KERNELS=1" >> "$T"
      NORMLAB_CUDA_KERNELS=1 timeout "$(lim 300)" build-torch2/tests/test_static_step onAGpuTheCapturedStepTracksTheOrdinaryStep 2>&1 \
        | tee -a "$T" | grep -E "^(PASS|FAIL|SKIP|Totals|QINFO)"
      for t in test_fused_ops test_cuda_kernels test_cuda_residual_ln test_linear_bias; do
        echo "=== $t" >> "$T"
        timeout "$(lim 120)" build-torch2/tests/$t 2>&1 | tee -a "$T" | grep -E "^(PASS|FAIL|SKIP|Totals)"
      done
      # A kernel that failed its GPU test trains nothing: the rest of this call runs with NormLab's CUDA
      # kernels off (the findings), and the bench, whose table is the kernels', is skipped.
      if grep -q "^FAIL" "$T"; then
        export NORMLAB_CUDA_KERNELS=0 KERNEL_TESTS_FAILED=1
        echo "graph: a GPU test failed (graph-tests.log): NormLab's CUDA kernels off for the rest of this call" \
          | tee -a "$OUTDIR/gpu.txt"
      fi
      # GRAPH_TESTS_ONLY=1: the tests alone (a lease that checks a change of the captured step, then measures)
      [ "${GRAPH_TESTS_ONLY:-0}" = 1 ] && continue
      # nGPT, NormFormer and Pre-LN at GPT-2 small's shape, NormLab's CUDA kernels off and on, alternated
      # (KERNEL_PAIRS pairs; an H100's step times vary by under 1 %)
      for scheme in ${KERNEL_SCHEMES:-ngpt normformer pre_ln}; do
        for k in $(for _ in $(seq 1 "${KERNEL_PAIRS:-2}"); do echo 0 1; done); do
          enough "$scheme NORMLAB_CUDA_KERNELS=$k" 40 || break 2
          echo -n "$scheme NORMLAB_CUDA_KERNELS=$k "
          NORMLAB_CUDA_KERNELS=$k timeout "$(lim 150)" build-torch2/bench/normlab-bench train --scheme "$scheme" --d 768 --layers 12 --dff 3072 \
            --heads 12 --ctx 1024 --batch 32 --device cuda --precision bf16 --steps 10 --warmup 3 \
            | python3 -c 'import json,sys
t = sys.stdin.read()
try: d = json.loads(t); print(round(d["step_ms_median"], 1), "ms/step", d["memory_gib"], "GiB")
except ValueError: print("no result (the error is above)")'
        done
      done 2>&1 | tee "$OUTDIR/cuda-kernels.log"
      enough "graph's small-size bench" 60 || continue
      # shellcheck disable=SC2086
      bench_py graph "${GRAPH_TIMEOUT:-300}" ${GRAPH_BENCH_ARGS:---sizes small --precision bf16 --reps 2 --steps 30} \
        2>&1 | tee "$OUTDIR/bench-graph.log" | grep -vE "^\s*$" | tail -20 ;;
    precision)
      step precision
      for p in fp32 tf32 bf16; do
        timeout "$(lim 200)" $CLI run tests/data/precision.json --store "$OUTDIR/precision-$p.sqlite" --device "$DEVICE" --precision "$p" 2>&1 | tail -7
      done
      python3 tests/precision_parity.py --compare "$OUTDIR"/precision-fp32.sqlite "$OUTDIR"/precision-tf32.sqlite "$OUTDIR"/precision-bf16.sqlite | tee "$OUTDIR/precision.txt" ;;
    bench)
      step bench
      if [ "${KERNEL_TESTS_FAILED:-0}" = 1 ]; then echo "bench: skipped (a GPU test failed in this call)"; continue; fi
      measured=()
      for f in "${MEASURED_DIR:-bench/results/gpu-table}"/*.json; do [ -e "$f" ] && measured+=("$f"); done
      [ ${#measured[@]} -gt 0 ] && measured=(--skip-measured "${measured[@]}")
      # shellcheck disable=SC2086
      bench_py gpu "${BENCH_TIMEOUT:-560}" ${BENCH_ARGS:---sizes gpu,small --precision bf16 --reps 1 --steps 15 --schemes pre_ln,ngpt,normformer,post_ln,deepnorm,branchnorm,pre_ln_glu} \
        "${measured[@]}" 2>&1 | tee "$OUTDIR/bench.log" ;;
    profile)
      # Kineto traces of the core and of eager PyTorch (PROFILE_SCHEMES at the gpu size, bf16), summed per kernel.
      step profile
      # pre_ln_glu (bench/run.py's VARIANTS: Pre-LN with nGPT's MLP, the nGPT paper's baseline) when time is left
      for scheme in ${PROFILE_SCHEMES:-pre_ln ngpt pre_ln_glu}; do
        enough "profile $scheme" 90 || break
        base="$(python3 -c 'import sys; sys.path.insert(0, "bench"); from run import VARIANTS
print(VARIANTS.get(sys.argv[1], (sys.argv[1],))[0])' "$scheme")"
        $CLI preset "$base" | python3 -c 'import json, sys
sys.path.insert(0, "bench")
from run import VARIANTS
c = json.load(sys.stdin)
c["model"].update(VARIANTS.get(sys.argv[2], (None, {}))[1])
c["model"].update(d_model=768, n_layers=12, n_heads=12, d_ff=3072, context=1024)
c["train"].update(batch_size=32, precision="bf16", cuda_graph="off")  # per kernel: a replayed graph hides them
json.dump(c, open(sys.argv[1], "w"))' "$W/$scheme.json" "$scheme"
        timeout "$(lim 120)" build-torch2/bench/normlab-bench train --device cuda --config "$W/$scheme.json" --steps 4 --warmup 3 \
          --threads 16 --profile "$W/core-$scheme.json" > /dev/null
        timeout "$(lim 120)" python3 bench/peer.py --device cuda --config "$W/$scheme.json" --steps 4 --warmup 3 --threads 16 \
          --bf16 --profile "$W/eager-$scheme.json" > /dev/null 2>&1
        python3 bench/profile_summary.py "$W/core-$scheme.json" "$W/eager-$scheme.json" --steps 7 --top 30 \
          --json "$OUTDIR/profile-$scheme.json" | tee "$OUTDIR/profile-$scheme.txt"
        # PROFILE_GRAPH=1: the core's step as the bench times it, captured (at step 3) and replayed, traced from
        # step 5 on: its kernels have no operators (a replay launches them), but the steady steps' timeline says
        # what the GPU does in a replayed step and how long it waits between replays
        [ "${PROFILE_GRAPH:-0}" = 1 ] || continue
        enough "profile $scheme, captured" 40 || break
        python3 -c 'import json, sys
c = json.load(open(sys.argv[1])); c["train"]["cuda_graph"] = "auto"; json.dump(c, open(sys.argv[2], "w"))' \
          "$W/$scheme.json" "$W/$scheme-graph.json"
        timeout "$(lim 90)" build-torch2/bench/normlab-bench train --device cuda --config "$W/$scheme-graph.json" \
          --steps 6 --warmup 5 --threads 16 --profile "$W/core-graph-$scheme.json" --profile-from 5 > /dev/null
        python3 bench/profile_summary.py "$W/core-graph-$scheme.json" --steps 6 --top 30 \
          --json "$OUTDIR/profile-graph-$scheme.json" | tee "$OUTDIR/profile-graph-$scheme.txt"
        # and without the step ahead (train_loop.h): each replay queued only once the one before is read
        enough "profile $scheme, captured, no step ahead" 30 || break
        NORMLAB_STEP_AHEAD=0 timeout "$(lim 90)" build-torch2/bench/normlab-bench train --device cuda \
          --config "$W/$scheme-graph.json" --steps 6 --warmup 5 --threads 16 --profile "$W/core-graph-noahead-$scheme.json" \
          --profile-from 5 > /dev/null
        python3 bench/profile_summary.py "$W/core-graph-noahead-$scheme.json" --steps 6 --top 30 \
          --json "$OUTDIR/profile-graph-noahead-$scheme.json" | tee "$OUTDIR/profile-graph-noahead-$scheme.txt"
      done ;;
    findings)
      # Issue 26: the runs FINDINGS names ("EXPERIMENT|RUN;..."), at --scale gpu, side by side on the one GPU, each
      # into its own store; stopped with Ctrl-C (a checkpoint kept) after FINDINGS_SECONDS; merged into OUTDIR.
      # The stores stay on the machine: a later findings step adds runs beside those still training (a run
      # whose store is there already is not started again), and collect brings them all.
      step findings
      if [ ! -s normlab-data/english.txt ] && [ -s "$(dirname "$BUNDLE")/english.txt.xz" ]; then
        mkdir -p normlab-data
        python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' \
          "$(dirname "$BUNDLE")/english.txt.xz" normlab-data/english.txt
      fi
      if [ -s normlab-data/english.txt ]; then sha256sum normlab-data/english.txt
      else echo "gpu_session: no English corpus here (english.txt.xz beside the bundle): a run that reads it will say so"; fi
      mkdir -p "$W/stores"
      started=() pids=()
      if [ "${FINDINGS:-}" = queue ]; then
        # the first lease of FINDINGS_QUEUE with a run the committed report's store does not hold yet, as its list
        # of runs says (trained.txt, which gpu_ingest.sh writes; FINDINGS_DONE may name a store instead)
        FINDINGS="$(queue_next "${FINDINGS_QUEUE:-docs/reproduction-gpu/queue.txt}" "${FINDINGS_DONE:-docs/reproduction-gpu/trained.txt}")"
        [ -n "$FINDINGS" ] || { echo "gpu_session: every lease of the findings queue is trained; nothing to start"; continue; }
        echo "gpu_session: FINDINGS=queue takes $FINDINGS"
      fi
      IFS=';' read -ra pairs <<< "${FINDINGS:?FINDINGS=EXPERIMENT|RUN;... or queue}"
      # The machine's cores split between the groups (FINDINGS_THREADS to set it), where each run's LibTorch took
      # every core: lease 7's nine groups side by side (2026-12-04) did ~250 TFLOP/s together where its first
      # call's three did ~400, and 144 threads on 16 cores is the first suspect (docs/GPU-LEASES.md).
      threads="${FINDINGS_THREADS:-$(( $(nproc) / ${#pairs[@]} ))}"
      [ "$threads" -ge 1 ] || threads=1
      echo "gpu_session: ${#pairs[@]} group(s) side by side, --threads $threads each"
      for pair in "${pairs[@]}"; do
        exp="${pair%%|*}" run="${pair#*|}"
        name="$(basename "$exp" .json)-$(echo "$run" | tr -c 'A-Za-z0-9.\n' '_')"
        if [ -e "$W/stores/$name.sqlite" ]; then
          echo "gpu_session: $name was started on this machine already (collect brings it)"
          continue
        fi
        # The store's path names $W/stores/, which is how collect finds the runs still training. The runs share
        # the GPU, sized by validate's estimate of the ordinary step: no CUDA graph, which would hold a second set
        # of activations each (it saves 3-4 % a step at this size: docs/GPU.md, "On the H200").
        ${DETACH:+setsid} timeout -s INT "${FINDINGS_SECONDS:-480}" "$(pwd)/$CLI" run "$exp" --scale gpu --only "$run" --threads "$threads" \
          --cuda-graph "${FINDINGS_CUDA_GRAPH:-off}" --device "$DEVICE" --store "$W/stores/$name.sqlite" > "$W/stores/$name.log" 2>&1 < /dev/null &
        started+=("$name") pids+=("$!")
      done
      if [ -n "$DETACH" ]; then
        # back once every run started here has logged a step or ended (a refused configuration ends at once)
        for _ in $(seq 1 "$(lim "${FINDINGS_START_SECONDS:-300}")"); do
          waiting=0
          for i in "${!started[@]}"; do
            grep -q " step " "$W/stores/${started[$i]}.log" 2> /dev/null || ! alive "${pids[$i]}" || waiting=1
          done
          [ "$waiting" = 0 ] && break
          sleep 1
        done
        summarize_findings
      else
        # not detached: the runs are this call's children; past the budget they are stopped (Ctrl-C, data kept)
        while any_alive "${pids[@]}" && [ "$(left)" -gt 30 ]; do sleep 1; done
        stop_findings
        wait
        collect_findings
      fi ;;
    collect)
      step collect
      # the merge itself takes seconds; a budget leaves 15 s for it (45 with COLLECT_STOP=1: the runs stop first)
      for _ in $(seq 1 "${COLLECT_SECONDS:-540}"); do
        [ "$(left)" -gt $(( ${COLLECT_STOP:-0} == 1 ? 45 : 15 )) ] || break
        pgrep -f "$W/stores/" > /dev/null || break
        sleep 1
      done
      # COLLECT_STOP=1 (the lease's last call): the runs still training are stopped as Ctrl-C stops them
      # (cancelled, a checkpoint written) and merged as they ended, not copied mid-run
      if [ "${COLLECT_STOP:-0}" = 1 ] && pgrep -f "$W/stores/" > /dev/null; then
        echo "gpu_session: stopping the runs still training"
        stop_findings
      fi
      collect_findings ;;
    *) echo "gpu_session: unknown step $s" >&2 ;;
  esac
done
# The device tool brings back 8 files of OUTDIR: past that the logs and the profiles' JSON summaries
# (their text summaries stay beside) travel as one archive, which scripts/gpu_ingest.sh unpacks.
if [ "$(find "$OUTDIR" -maxdepth 1 -type f | wc -l)" -gt 8 ]; then
  (cd "$OUTDIR" && shopt -s nullglob && packed=(./*.log ./profile-*.json) &&
    tar -cJf session-logs.tar.xz "${packed[@]}" && rm -f "${packed[@]}")
  echo "gpu_session: the logs are in $OUTDIR/session-logs.tar.xz"
fi
ls -l "$OUTDIR"
