#!/usr/bin/env bash
# After a GPU lease, on this machine: takes what scripts/gpu_session.sh brought
# back (the device tool's files_at folder) into the tree, where the next lease
# reads it (docs/GPU-LEASES.md):
#   results-gpu.json       → bench/results/gpu-table/DATE-KIND.json, which the next
#                            lease's bench skips (bench/run.py --skip-measured)
#   findings.sqlite(.xz)   → merged into docs/reproduction-gpu/runs.sqlite.xz (the report's
#                            store, kept xz-packed: a quarter of its size, so that it travels
#                            with the tree, the corpus and the bundle in a device call's
#                            64 MiB), its list of runs written beside it (trained.txt, which the
#                            next lease's FINDINGS=queue reads: the store may not fit a call); each
#                            experiment file its runs came from is kept beside it
#                            (experiments/), as trained
#   the profiles' summaries (profile-SCHEME.json/.txt), the tests' and benchmarks' logs
#   and gpu.txt            → bench/results/leases/DATE-KIND/, the lease's record
# and says what the table and the queue have left. KIND names the device
# (h100, h200); gpu.txt, which the check step writes, names it where present.
# Nothing is overwritten: a results file of the same name, or an experiment
# copy that differs from its source, stops it before anything is written.
# Usage: bash scripts/gpu_ingest.sh FILES_AT [KIND]
set -euo pipefail
cd "$(dirname "$0")/.."
FROM="${1:?usage: bash scripts/gpu_ingest.sh FILES_AT [KIND]}"
CLI="${NORMLAB_CLI:-build/app/normlab-cli}"
TABLE="${GPU_TABLE_DIR:-bench/results/gpu-table}"
RUNS="${GPU_RUNS_STORE:-docs/reproduction-gpu/runs.sqlite.xz}"   # a store, or one packed with xz (*.xz)
[ -d "$FROM" ] || { echo "gpu_ingest: $FROM is not a folder (the device tool's files_at)" >&2; exit 2; }
[ -x "$CLI" ] || { echo "gpu_ingest: $CLI is missing: bash scripts/setup.sh first" >&2; exit 2; }
# Past eight files gpu_session.sh packs the logs into session-logs.tar.xz (the device tool brings back 8):
# read them from an unpacked copy (FILES_AT is read-only), with their times.
if [ -s "$FROM/session-logs.tar.xz" ]; then
  U="$(mktemp -d)"
  trap 'rm -rf "$U"' EXIT
  cp -p "$FROM"/* "$U/" && tar -C "$U" -xJf "$FROM/session-logs.tar.xz" ||
    { echo "gpu_ingest: cannot unpack $FROM/session-logs.tar.xz" >&2; exit 1; }
  FROM="$U"
fi
KIND="${2:-}"
if [ -z "$KIND" ] && [ -s "$FROM/gpu.txt" ]; then
  KIND="$(grep -oiE 'H100|H200|A100|L40S|B200' "$FROM/gpu.txt" | head -1 | tr '[:upper:]' '[:lower:]' || true)"
fi
[ -n "$KIND" ] || { echo "gpu_ingest: name the device (h100, h200): no gpu.txt in $FROM says it" >&2; exit 2; }

# What would be written, checked first.
results="$FROM/results-gpu.json"
target=""
if [ -s "$results" ]; then
  python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); sys.exit(not r.get("results"))' "$results" ||
    { echo "gpu_ingest: $results holds no configuration: nothing for the table"; results=""; }
  if [ -n "$results" ]; then
    target="$TABLE/$(date -u -r "$results" +%Y-%m-%dT%H%M)-$KIND.json"
    [ ! -e "$target" ] || { echo "gpu_ingest: $target exists already: nothing written" >&2; exit 1; }
  fi
else
  results=""
fi
# The lease's record: what its steps printed and summed.
record=()
for f in gpu.txt profile-*.json profile-*.txt graph-tests.log cuda-kernels.log bench.log bench-graph.log precision.txt; do
  for p in "$FROM"/$f; do [ -s "$p" ] && record+=("$p"); done
done
lease_dir=""
if [ ${#record[@]} -gt 0 ]; then
  newest="$(ls -t "${record[@]}" | head -1)"
  lease_dir="${GPU_LEASES_DIR:-bench/results/leases}/$(date -u -r "$newest" +%Y-%m-%dT%H%M)-$KIND"
  [ ! -e "$lease_dir" ] || { echo "gpu_ingest: $lease_dir exists already: nothing written" >&2; exit 1; }
fi
T="$(mktemp -d)"
trap 'rm -rf "$T" ${U:+"$U"}' EXIT
store=""
if [ -s "$FROM/findings.sqlite.xz" ]; then
  xz -dc "$FROM/findings.sqlite.xz" > "$T/findings.sqlite" && store="$T/findings.sqlite"
elif [ -s "$FROM/findings.sqlite" ]; then
  cp "$FROM/findings.sqlite" "$T/findings.sqlite" && store="$T/findings.sqlite"
fi
experiments=()
if [ -n "$store" ]; then
  # a damaged findings.sqlite is refused here, before anything is written
  files="$(python3 -c 'import sqlite3, sys
db = sqlite3.connect(f"file:{sys.argv[1]}?immutable=1", uri=True)
for (f,) in db.execute("SELECT DISTINCT e.file FROM runs r JOIN experiments e ON e.id = r.experiment_id"): print(f)' "$store" 2>&1)" ||
    { echo "gpu_ingest: $FROM's findings.sqlite is not a run store (${files##*$'\n'}): nothing written" >&2; exit 1; }
  while IFS= read -r f; do
    [ -n "$f" ] || continue
    copy="$(dirname "$RUNS")/experiments/$(basename "$f")"
    [ -s "$f" ] || { echo "gpu_ingest: the runs came from $f, which is not in this tree" >&2; exit 1; }
    if [ -e "$copy" ] && ! cmp -s "$f" "$copy"; then
      echo "gpu_ingest: $copy differs from $f, which trained these runs: keep which? (nothing written)" >&2
      exit 1
    fi
    experiments+=("$f")
  done <<< "$files"
fi
[ -n "$results" ] || [ -n "$store" ] || [ -n "$lease_dir" ] ||
  { echo "gpu_ingest: neither results-gpu.json nor findings.sqlite nor a profile or log in $FROM"; exit 0; }

if [ -n "$results" ]; then
  mkdir -p "$TABLE"
  cp "$results" "$target"
  echo "gpu_ingest: $target"
fi
if [ -n "$lease_dir" ]; then
  mkdir -p "$lease_dir"
  cp "${record[@]}" "$lease_dir/"
  echo "gpu_ingest: $lease_dir (${#record[@]} files: $(cd "$lease_dir" && ls | tr '\n' ' '))"
fi
if [ -n "$store" ]; then
  mkdir -p "$(dirname "$RUNS")"
  # A packed store is merged into an unpacked copy, packed again beside it and moved over it in one rename.
  into="$RUNS"
  if [[ "$RUNS" == *.xz ]]; then
    into="$T/runs.sqlite"
    if [ -s "$RUNS" ]; then xz -dc "$RUNS" > "$into" || { echo "gpu_ingest: cannot unpack $RUNS: nothing written" >&2; exit 1; }; fi
  fi
  "$CLI" merge "$store" --into "$into" 2>&1 | grep -v "could not be copied" || true
  rm -rf "$into.checkpoints"   # the checkpoints stay on the GPU machine; the report reads the series
  if [ "$into" != "$RUNS" ]; then
    "$CLI" list --store "$into" > /dev/null   # a store, whole, before it replaces the packed one
    xz -9 -T2 -c "$into" > "$RUNS.part" && mv "$RUNS.part" "$RUNS"
  fi
  for f in "${experiments[@]}"; do
    mkdir -p "$(dirname "$RUNS")/experiments"
    cp -n "$f" "$(dirname "$RUNS")/experiments/"
  done
  # the list of runs FINDINGS=queue reads on the GPU machine, where the store itself may not travel
  held="$(dirname "$RUNS")/trained.txt"
  { echo "# The runs $(basename "$RUNS") holds (experiment file|run), which gpu_session.sh's FINDINGS=queue reads;"
    echo "# written by scripts/gpu_ingest.sh with each merge"
    bash -c 'source <(sed -n "/^runs_held()/,/^}/p" scripts/gpu_session.sh); runs_held "$1"' _ "$into"; } > "$held.part" &&
    mv "$held.part" "$held"
  "$CLI" list --store "$into" --json | python3 -c 'import collections, json, sys
for status, n in sorted(collections.Counter(r["status"] for r in json.load(sys.stdin)).items()):
    print("gpu_ingest: %d run%s %s" % (n, "" if n == 1 else "s", status))' || true
fi
# What is left for the next leases.
if [ -f scripts/gpu_session.sh ] && [ -s docs/reproduction-gpu/queue.txt ]; then
  next="$(bash -c 'source <(sed -n "/^runs_held()/,/^}/p;/^queue_next()/,/^}/p" scripts/gpu_session.sh); queue_next "$1" "$2"' _ \
    docs/reproduction-gpu/queue.txt "$RUNS")"
  echo "gpu_ingest: the findings queue's next lease: ${next:-none, every lease is trained}"
fi
echo "gpu_ingest: commit them; the table: python3 bench/run.py --from-results $TABLE/*.json --out FILE.md;" \
  "the report: bash scripts/reproduce_gpu.sh --redraw (its list names the experiments it draws)"
