#!/usr/bin/env bash
# scripts/gpu_session.sh rehearsed on the CPU, as a GPU lease runs it (docs/GPU.md): the bundle packed,
# unpacked into a copy of the scripts, and the paths a 15-minute lease depends on, each of which used
# to be found only when device time was being spent:
#   1. a step that does not fit what is left of GPU_SESSION_SECONDS is skipped with a line saying so;
#   2. a findings run in the call's foreground is stopped (cancelled, its data kept) before the budget
#      ends and merged into OUTDIR/findings.sqlite, and the call ends inside its budget;
#   3. a detached run outlives its call: the first call's collect brings a copy while it trains on, the
#      next call's collect with COLLECT_STOP=1 stops it and merges it cancelled, further along.
# Usage: bash tests/gpu_session.sh BUILD2 CLI   (the 2.x build folder, and a normlab-cli to read stores)
set -euo pipefail
SRC="$(cd "$(dirname "$0")/.." && pwd)"
BUILD2="$(cd "$1" && pwd)" CLI="$2"
T="$(mktemp -d)"
stop_runs() { pkill -INT -f "^timeout .*$T/" 2> /dev/null || true; }
trap 'stop_runs; sleep 2; pkill -KILL -f "$T/" 2> /dev/null || true; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

XZ_OPT=-0 GPU_BUNDLE_BUILD="$BUILD2" bash "$SRC/scripts/gpu_bundle.sh" "$T/b/bundle.tar.xz" > /dev/null
# the tree as the device gets it, as far as these steps read it
mkdir -p "$T/tree" && cp -r "$SRC/scripts" "$T/tree/"
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
# STORE NAME: the run's status and steps, as `normlab-cli list` prints them
status_of() { "$CLI" list --store "$1" | awk -v n="$2" '$2 == n {print $4, $5}'; }

# 1. Too little left for the benchmark (it needs 90 s): skipped, said, and nothing run.
out="$(GPU_SESSION_SECONDS=60 session "$T/o1" bench)"
echo "$out"
grep -q "=== bench skipped: it needs 90 s" <<< "$out" || fail "bench was not skipped with 60 s"
[ ! -e "$T/o1/results-gpu.json" ] || fail "a skipped bench left results"

# 2. In the foreground (the step needs 45 s): stopped 30 s before the budget, cancelled with its steps, merged.
start=$SECONDS
out="$(GPU_SESSION_SECONDS=70 FINDINGS='tiny.json|foreground' session "$T/o2" findings)"
took=$((SECONDS - start))
echo "$out"
echo "the budgeted call took ${took} s of 70"
[ "$took" -lt 70 ] || fail "the call ran past its budget (${took} s)"
read -r st steps <<< "$(status_of "$T/o2/findings.sqlite" foreground)"
[ "$st" = cancelled ] && [ "${steps:-0}" -gt 0 ] || fail "the foreground run came back '$st' after '$steps' steps"

# 3. Detached across two calls.
out="$(GPU_SESSION_SECONDS=70 COLLECT_SECONDS=5 FINDINGS_DETACH=1 FINDINGS='tiny.json|detached' session "$T/o3" findings collect)"
echo "$out"
pgrep -f "$T/w/stores/tiny-detached" > /dev/null || fail "the detached run did not outlive its call"
read -r st1 steps1 <<< "$(status_of "$T/o3/findings.sqlite" detached)"
[ "${steps1:-0}" -gt 0 ] || fail "the first collect brought no steps of the detached run ('$st1')"
sleep 3
out="$(GPU_SESSION_SECONDS=60 COLLECT_STOP=1 session "$T/o4" collect)"
echo "$out"
grep -q "stopping the runs still training" <<< "$out" || fail "collect with COLLECT_STOP=1 did not stop the run"
! pgrep -f "$T/w/stores/" > /dev/null || fail "a run still trains after the last collect"
read -r st2 steps2 <<< "$(status_of "$T/o4/findings.sqlite" detached)"
[ "$st2" = cancelled ] || fail "the detached run came back '$st2', not cancelled"
[ "${steps2:-0}" -gt "$steps1" ] || fail "the last collect brought no more steps ($steps2 after $steps1)"
echo "OK: skipped with a line; foreground run cancelled after $steps steps in ${took} s; detached run $steps1 steps, then cancelled after $steps2"
