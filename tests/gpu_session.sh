#!/usr/bin/env bash
# scripts/gpu_session.sh rehearsed on the CPU, as a GPU lease runs it (docs/GPU.md): the bundle packed,
# unpacked into a copy of the scripts, and the paths a 15-minute lease depends on, each of which used
# to be found only when device time was being spent:
#   1. a step that does not fit what is left of GPU_SESSION_SECONDS is skipped with a line saying so;
#   2. a findings run in the call's foreground is stopped (cancelled, its data kept) before the budget
#      ends and merged into OUTDIR/findings.sqlite, and the call ends inside its budget;
#   3. FINDINGS=queue takes the first lease of a queue whose runs a store lacks; a detached run outlives its
#      call: the first call's collect brings a copy while it trains on, the next call's collect with
#      COLLECT_STOP=1 stops it and merges it cancelled, further along;
#   4. the bench goes on where the last lease's stopped: what results in bench/results/gpu-table/ hold is skipped;
#   5. scripts/gpu_ingest.sh takes a lease's results and runs into the tree (the runs into an xz-packed
#      store, as the report's is kept, and its list of runs beside it), and never overwrites; the queue reads
#      the packed store or the list;
#   6. every run docs/reproduction-gpu/queue.txt names exists at --scale gpu, and each lease fits an H100;
#      the committed trained.txt lists the committed store's runs.
# Usage: bash tests/gpu_session.sh BUILD2 CLI PYTHON2   (the 2.x build folder, a normlab-cli to read stores,
# the interpreter with PyTorch 2.x that the benchmark's peer runs on)
set -euo pipefail
SRC="$(cd "$(dirname "$0")/.." && pwd)"
BUILD2="$(cd "$1" && pwd)" CLI="$2" PY2="$3"
T="$(mktemp -d)"
stop_runs() { pkill -INT -f "^timeout .*$T/" 2> /dev/null || true; }
trap 'stop_runs; sleep 2; pkill -KILL -f "$T/" 2> /dev/null || true; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# where the test's time goes, in its log (ctest gives it 400 s; ~75 s on 2 cores)
section() { echo "-- section $1 from ${SECONDS} s"; }

XZ_OPT=-0 GPU_BUNDLE_BUILD="$BUILD2" bash "$SRC/scripts/gpu_bundle.sh" "$T/b/bundle.tar.xz" > /dev/null
# CUDA's libraries stay out of it, wherever the build found them: the device's PyTorch brings its own, and
# a build against the toolkit's (CI's) packed 1.5 GB of them, which no device call carries (64 MiB). The
# names are the test's own, not gpu_bundle.sh's CUDA_LIBS_RE: a library that list lost would still be caught
cuda_libs="$(tar -tJf "$T/b/bundle.tar.xz" | grep -E '/lib/lib(cuda|cudart|cublas|cudnn|cufft|curand|cusolver|cusparse|cupti|nccl|nvJitLink|nvrtc)' || true)"
[ -z "$cuda_libs" ] || fail "the bundle packs CUDA's libraries: $cuda_libs"
[ "$(stat -c %s "$T/b/bundle.tar.xz")" -le $((64 * 1048576)) ] || fail "the bundle is $(du -h "$T/b/bundle.tar.xz" | cut -f1), more than a device call carries"
# the tree as the device gets it, as far as these steps read it, without the leases committed so far (the
# ingest below finds its own lease's record by its kind, which a committed lease of the same kind would match too)
mkdir -p "$T/tree" && cp -r "$SRC/scripts" "$SRC/bench" "$T/tree/" &&
  rm -rf "$T/tree/bench/results/gpu-table" "$T/tree/bench/results/leases"
cat > "$T/tree/tiny.json" << 'EOF'
{"name": "tiny", "base": {
   "model": {"d_model": 32, "n_layers": 2, "n_heads": 4, "d_ff": 64, "context": 16},
   "train": {"steps": 1000000, "batch_size": 4, "eval_every": 0, "threads": 1, "checkpoint_seconds": 5},
   "data": {"source": "markov", "markov": {"length": 5000}}},
 "variants": [{"name": "foreground"}, {"name": "detached"}],
 "scales": {"gpu": {"description": "the same, at the scale gpu_session.sh asks for"}}}
EOF
export GPU_SESSION_DEVICE=cpu GPU_SESSION_DIR="$T/w" FINDINGS_SECONDS=600
session() { (cd "$T/tree" && bash scripts/gpu_session.sh "$T/b/bundle.tar.xz" "$@"); }
# STORE NAME: the run's status and steps, as `normlab-cli list --json` gives them (the table is for people)
status_of() {
  "$CLI" list --store "$1" --json | python3 -c 'import json, sys
for r in json.load(sys.stdin):
    if r["name"] == sys.argv[1]: print(r["status"], r["steps"])' "$2"
}

section 1
# 1. Too little left for the benchmark (it needs 90 s): skipped, said, and nothing run.
out="$(GPU_SESSION_SECONDS=60 session "$T/o1" bench)"
echo "$out"
grep -q "=== bench skipped: it needs 90 s" <<< "$out" || fail "bench was not skipped with 60 s"
[ ! -e "$T/o1/results-gpu.json" ] || fail "a skipped bench left results"

section 2
# 2. In the foreground (the step needs 45 s): stopped 30 s before the budget, cancelled with its steps, merged.
start=$SECONDS
out="$(GPU_SESSION_SECONDS=70 FINDINGS='tiny.json|foreground' session "$T/o2" findings)"
took=$((SECONDS - start))
echo "$out"
echo "the budgeted call took ${took} s of 70"
[ "$took" -lt 70 ] || fail "the call ran past its budget (${took} s)"
read -r st steps <<< "$(status_of "$T/o2/findings.sqlite" foreground)"
[ "$st" = cancelled ] && [ "${steps:-0}" -gt 0 ] || fail "the foreground run came back '$st' after '$steps' steps"
# the machine's cores go to the groups side by side (one here: all of them), each run's LibTorch told so
threads_of() { python3 -c 'import json, sqlite3, sys
for (c,) in sqlite3.connect(sys.argv[1]).execute("SELECT config FROM runs WHERE name = ?", (sys.argv[2],)): print(json.loads(c)["train"]["threads"])' "$1" "$2"; }
grep -q "1 group(s) side by side, --threads $(nproc) each" <<< "$out" || fail "the foreground group was not given the cores"
[ "$(threads_of "$T/o2/findings.sqlite" foreground)" = "$(nproc)" ] || fail "the run's threads are not the cores'"

section 3
# 3. Detached across two calls, the run taken from a queue: its first lease (foreground) is in the
#    store of call 2, so FINDINGS=queue starts the second.
printf '# a comment\ntiny.json|foreground\n\ntiny.json|detached  # the next\n' > "$T/tree/queue.txt"
out="$(GPU_SESSION_SECONDS=70 COLLECT_SECONDS=5 FINDINGS_DETACH=1 FINDINGS=queue FINDINGS_QUEUE=queue.txt FINDINGS_THREADS=1 \
       FINDINGS_DONE="$T/o2/findings.sqlite" session "$T/o3" findings collect)"
echo "$out"
grep -q "FINDINGS=queue takes tiny.json|detached$" <<< "$out" || fail "the queue did not take its first lease not trained"
pgrep -f "$T/w/stores/tiny-detached" > /dev/null || fail "the detached run did not outlive its call"
read -r st1 steps1 <<< "$(status_of "$T/o3/findings.sqlite" detached)"
[ "${steps1:-0}" -gt 0 ] || fail "the first collect brought no steps of the detached run ('$st1')"
[ "$(threads_of "$T/o3/findings.sqlite" detached)" = 1 ] || fail "FINDINGS_THREADS=1 did not reach the run"
sleep 3
out="$(GPU_SESSION_SECONDS=60 COLLECT_STOP=1 session "$T/o4" collect)"
echo "$out"
grep -q "stopping the runs still training" <<< "$out" || fail "collect with COLLECT_STOP=1 did not stop the run"
! pgrep -f "$T/w/stores/" > /dev/null || fail "a run still trains after the last collect"
read -r st2 steps2 <<< "$(status_of "$T/o4/findings.sqlite" detached)"
[ "$st2" = cancelled ] || fail "the detached run came back '$st2', not cancelled"
[ "${steps2:-0}" -gt "$steps1" ] || fail "the last collect brought no more steps ($steps2 after $steps1)"

section 4
# 4. A bench over two leases: the first measures Pre-LN; its results, committed to bench/results/gpu-table/ as
#    docs/GPU-LEASES.md says, make the second skip it and measure only what is left.
B="--sizes small --reps 1 --steps 2 --warmup 1 --threads 2 --no-compile"
(PATH="$(dirname "$PY2"):$PATH"; export PATH
 BENCH_ARGS="$B --schemes pre_ln" session "$T/o5" bench > "$T/o5.log" 2>&1 || true
 mkdir -p "$T/tree/bench/results/gpu-table" && cp "$T/o5/results-gpu.json" "$T/tree/bench/results/gpu-table/results-gpu-lease1.json" 2> /dev/null
 BENCH_ARGS="$B --schemes pre_ln,ngpt" session "$T/o6" bench > "$T/o6.log" 2>&1 || true)
tail -n 3 "$T/o5.log" "$T/o6.log"
schemes_in() { python3 -c 'import json, sys; print(",".join(sorted(json.load(open(sys.argv[1]))["results"])))' "$1" 2> /dev/null; }
[ "$(schemes_in "$T/o5/results-gpu.json")" = small/pre_ln ] || fail "the first lease's bench measured no Pre-LN"
grep -q "pre_ln     measured in results-gpu-lease1.json: skipped" "$T/o6.log" || fail "the second lease measured Pre-LN again"
[ "$(schemes_in "$T/o6/results-gpu.json")" = small/ngpt ] || fail "the second lease should have measured nGPT alone"
section 5
# 5. After the leases, here: gpu_ingest.sh takes what came back into the tree — the results into the
#    table's folder (named by date and device), the runs merged into the report's store with the
#    experiment they came from — and a second time refuses to overwrite, writing nothing.
mkdir -p "$T/back" && cp "$T/o4/findings.sqlite" "$T/o6/results-gpu.json" "$T/back/"
printf '== core-ngpt.json: per step 135.5 ms span\n' > "$T/back/profile-ngpt.txt"
# past eight files the logs come back as one archive, which the ingest unpacks
mkdir -p "$T/pack" && printf 'gpu    pre_ln     normlab-2    60.6 ms\n' > "$T/pack/bench.log"
printf '[{"path": "core-pre_ln.json"}]\n' > "$T/pack/profile-pre_ln.json"
(cd "$T/pack" && tar -cJf "$T/back/session-logs.tar.xz" ./bench.log ./profile-pre_ln.json)
ingest() { (cd "$T/tree" && NORMLAB_CLI="$CLI" GPU_RUNS_STORE="$T/tree/runs/runs.sqlite.xz" bash scripts/gpu_ingest.sh "$T/back" h100); }
out="$(ingest)" || fail "gpu_ingest failed: $out"
echo "$out"
ls "$T/tree/bench/results/gpu-table/"*-h100.json > /dev/null 2>&1 || fail "the results did not reach the table's folder"
cmp -s "$T/back/profile-ngpt.txt" "$(ls -d "$T/tree/bench/results/leases/"*-h100)/profile-ngpt.txt" ||
  fail "the profile's summary did not reach the lease's record"
cmp -s "$T/pack/bench.log" "$(ls -d "$T/tree/bench/results/leases/"*-h100)/bench.log" ||
  fail "the bench's log, packed in session-logs.tar.xz, did not reach the lease's record"
cmp -s "$T/pack/profile-pre_ln.json" "$(ls -d "$T/tree/bench/results/leases/"*-h100)/profile-pre_ln.json" ||
  fail "a profile's JSON summary, packed in session-logs.tar.xz, did not reach the lease's record"
xz -dc "$T/tree/runs/runs.sqlite.xz" > "$T/unpacked.sqlite" || fail "the packed store does not unpack"
[ ! -e "$T/tree/runs/runs.sqlite" ] && [ ! -e "$T/tree/runs/runs.sqlite.xz.part" ] || fail "the ingest left an unpacked store beside the packed one"
read -r st3 steps3 <<< "$(status_of "$T/unpacked.sqlite" detached)"
printf 'tiny.json|detached\ntiny.json|later\n' > "$T/queue2.txt"
# one of gpu_session.sh's queue functions (runs_held, queue_next), called alone
session_fn() { bash -c 'source <(sed -n "/^runs_held()/,/^}/p;/^queue_next()/,/^}/p" "$1"); shift; "$@"' _ "$SRC/scripts/gpu_session.sh" "$@"; }
qnext() { session_fn queue_next "$@"; }
next="$(qnext "$T/queue2.txt" "$T/tree/runs/runs.sqlite.xz")"
[ "$next" = "tiny.json|later" ] || fail "the queue read from the packed store took '$next'"
# the store's list of runs, written beside it, is what a device call reads (the store may not fit one)
grep -qx "tiny.json|detached" "$T/tree/runs/trained.txt" || fail "the ingest's trained.txt lacks the run: $(cat "$T/tree/runs/trained.txt")"
next="$(qnext "$T/queue2.txt" "$T/tree/runs/trained.txt")"
[ "$next" = "tiny.json|later" ] || fail "the queue read from trained.txt took '$next'"
next="$(qnext "$T/queue2.txt" "$T/tree/runs/no-such-list.txt")"
[ "$next" = "tiny.json|detached" ] || fail "a missing list should hold nothing; the queue took '$next'"
# a run is held by its own name or its sweep points' ("T=100 seed=1"), as --only takes them, not by another
# variant whose name starts with it ("T=100 no offsets" is not "T=100": a queue line naming both took one for both)
printf 'b.json|T=100 no offsets\nb.json|T=100 no offsets seed=1\nb.json|S lr=1e-3 seed=2\n' > "$T/held.txt"
printf 'b.json|S;b.json|T=100 no offsets\nb.json|T=100\n' > "$T/queue3.txt"
next="$(qnext "$T/queue3.txt" "$T/held.txt")"
[ "$next" = "b.json|T=100" ] || fail "another variant's runs counted as T=100's: the queue took '$next'"
[ "$st3" = cancelled ] && [ "$steps3" = "$steps2" ] || fail "the run came into the store '$st3' after '$steps3' steps"
cmp -s "$T/tree/tiny.json" "$T/tree/runs/experiments/tiny.json" || fail "the experiment was not kept beside the store"
before="$(sha256sum "$T/tree/runs/runs.sqlite.xz")"
if out="$(ingest 2>&1)"; then fail "a second ingest of the same results went through: $out"; fi
grep -q "exists already: nothing written" <<< "$out" || fail "the second ingest did not say why: $out"
[ "$(sha256sum "$T/tree/runs/runs.sqlite.xz")" = "$before" ] || fail "a refused ingest changed the store"
# a damaged findings.sqlite is refused before the results are copied
rm -f "$T/tree/bench/results/gpu-table/"*-h100.json && rm -rf "$T/tree/bench/results/leases" && head -c 40000 /dev/urandom > "$T/back/findings.sqlite"
if out="$(ingest 2>&1)"; then fail "a damaged findings.sqlite was ingested: $out"; fi
grep -q "is not a run store" <<< "$out" || fail "the damaged store was not named: $out"
! ls "$T/tree/bench/results/gpu-table/"*-h100.json > /dev/null 2>&1 || fail "a refused ingest copied the results"
[ ! -e "$T/tree/bench/results/leases" ] || fail "a refused ingest copied the lease's record"
[ "$(sha256sum "$T/tree/runs/runs.sqlite.xz")" = "$before" ] || fail "a damaged source changed the store"

section 6
# 6. The real queue: every run it names is a run of its experiment at --scale gpu, and each lease's runs,
#    side by side on one GPU, fit an H100's 78 GiB by validate's estimate.
#    The runs read the English corpus, which a clean clone has not made: a stand-in in a folder of its own.
mkdir -p "$T/qcwd/normlab-data" && head -c 200000 /dev/urandom | base64 > "$T/qcwd/normlab-data/english.txt"
n=0
while IFS= read -r line; do
  line="${line%%#*}"; line="${line%"${line##*[![:space:]]}"}"
  [ -n "$line" ] || continue
  n=$((n + 1)) gib=0
  IFS=';' read -ra pairs <<< "$line"
  # one validate per experiment of the lease (each loads LibTorch: 20 calls were a minute of the test), its
  # runs as repeated --only; each pair must still name a run of its own (--only matches a name or its prefix)
  exps=()
  for pair in "${pairs[@]}"; do [[ " ${exps[*]} " == *" ${pair%%|*} "* ]] || exps+=("${pair%%|*}"); done
  for exp in "${exps[@]}"; do
    only=()
    for pair in "${pairs[@]}"; do [ "${pair%%|*}" = "$exp" ] && only+=(--only "${pair#*|}"); done
    v="$(cd "$T/qcwd" && "$CLI" validate "$SRC/$exp" --scale gpu "${only[@]}" 2>&1)" || fail "queue lease $n: $exp: $v"
    for pair in "${pairs[@]}"; do
      [ "${pair%%|*}" = "$exp" ] || continue
      # a run's line, with its memory estimate (not a line of the experiment's description above them)
      awk -v run="  ${pair#*|} " 'index($0, run) && /mem~/ { found = 1 } END { exit !found }' <<< "$v" ||
        fail "queue lease $n: $pair names no run of $exp: $v"
    done
    gib="$(awk -v g="$gib" '{ if (match($0, /mem~[0-9.]+GiB/)) g += substr($0, RSTART + 4, RLENGTH - 7) } END { print g }' <<< "$v")"
  done
  awk -v g="$gib" 'BEGIN { exit !(g <= 78) }' || fail "queue lease $n needs ${gib} GiB side by side"
  echo "queue lease $n: ${#pairs[@]} group(s), ${gib} GiB"
done < "$SRC/docs/reproduction-gpu/queue.txt"
[ "$n" -ge 6 ] || fail "the queue has $n leases"
# the committed list of runs, which a device call reads, is the committed store's (gpu_ingest.sh writes both)
held="$(session_fn runs_held "$SRC/docs/reproduction-gpu/runs.sqlite.xz")"
[ "$held" = "$(grep -v '^#' "$SRC/docs/reproduction-gpu/trained.txt")" ] ||
  fail "docs/reproduction-gpu/trained.txt is not the list of runs.sqlite.xz's runs: bash scripts/gpu_ingest.sh writes it"

echo "-- all in ${SECONDS} s"
echo "OK: skipped with a line; foreground run cancelled after $steps steps in ${took} s; detached run $steps1 steps, then cancelled after $steps2; the bench went on where the last lease stopped"
