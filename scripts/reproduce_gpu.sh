#!/usr/bin/env bash
# docs/REPRODUCTION-GPU.md: the papers' findings at a GPU's scale (issue 26).
#
#   bash scripts/reproduce_gpu.sh            # on a CUDA machine: the corpus (scripts/make_corpus.py), the GPU
#                                            # scales of experiments/reproduction/ngpt.json (finding 10),
#                                            # normformer_lr.json (finding 6, the learning rate tuned per model;
#                                            # normformer.json's runs at 2e-3 among them), normformer_gains.json
#                                            # (finding 8, on the same NormFormer runs), deep_stack.json
#                                            # (finding 9), then xiong_warmup.json (finding 4: 16 runs of 41 M
#                                            # tokens) and normformer_lr_stability.json (finding 7: 6 runs, each
#                                            # until it diverges, ≤ 98 M tokens) (bf16, --device cuda, the English
#                                            # corpus), xiong_init.json (findings 1-3, at
#                                            # initialization: nothing trained) and experiments/normformer_early.json
#                                            # (finding 5: the first 100 steps) into $NORMLAB_GPU_STORE, then
#                                            # the report. Runs already in that store are reused, so a stopped
#                                            # reproduction continues where it was.
#   bash scripts/reproduce_gpu.sh --redraw   # anywhere, in seconds: the report again from the runs that were
#                                            # trained (docs/reproduction-gpu/runs.sqlite.xz, experiments/); a run
#                                            # stopped early (a lease's time limit) counts as far as it got
#                                            # (normlab report --accept-stopped), one no lease trained yet is
#                                            # left out and named (--trained-only)
# The committed runs file is never written: the report reads an unpacked copy (xz -dk it to open the runs in the app).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${NORMLAB_BUILD_DIR:-build}"
[ -x "$BUILD/app/normlab" ] || { echo "reproduce_gpu: $BUILD/app/normlab is missing: bash scripts/setup.sh first" >&2; exit 1; }
OUT=docs/reproduction-gpu
if [ "${1:-}" = "--redraw" ]; then
  T="$(mktemp -d)"
  trap 'rm -rf "$T"' EXIT
  xz -dc "$OUT/runs.sqlite.xz" > "$T/runs.sqlite"
  EXPERIMENTS=("$OUT"/experiments/xiong_init.json "$OUT"/experiments/normformer_early.json "$OUT"/experiments/ngpt.json
               "$OUT"/experiments/normformer.json "$OUT"/experiments/normformer_gains.json
               "$OUT"/experiments/normformer_lr.json "$OUT"/experiments/deep_stack.json
               "$OUT"/experiments/xiong_warmup.json)
  STORE="$T/runs.sqlite"
  # A run a GPU lease's time limit stopped is used as far as it got, its experiment compared at equal steps;
  # a run of a sweep that no lease has trained yet is left out and named (a sweep trained a lease at a time).
  TRAIN=(--trained-only --accept-stopped)
  BY="bash scripts/reproduce_gpu.sh --redraw"
else
  [ -s normlab-data/english.txt ] || python3 scripts/make_corpus.py --out normlab-data
  EXPERIMENTS=(experiments/reproduction/xiong_init.json experiments/normformer_early.json experiments/reproduction/ngpt.json
               experiments/reproduction/normformer_lr.json experiments/reproduction/normformer_gains.json
               experiments/reproduction/deep_stack.json experiments/reproduction/xiong_warmup.json
               experiments/reproduction/normformer_lr_stability.json)
  STORE="${NORMLAB_GPU_STORE:-normlab-out/reproduction-gpu.sqlite}"
  mkdir -p "$(dirname "$STORE")"
  TRAIN=(--device cuda)
  BY="bash scripts/reproduce_gpu.sh"
fi
QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}" "$BUILD/app/normlab" report "${EXPERIMENTS[@]}" --scale gpu \
  --store "$STORE" --out "$OUT" --markdown docs/REPRODUCTION-GPU.md --notes "$OUT/NOTES.md" \
  --generated-by "$BY" "${TRAIN[@]}"
