#!/usr/bin/env bash
# The paper figures of the default experiment, as a reader of the README sees
# them: experiments/default.json (Post-LN against Pre-LN) with two seeds each,
# trained into a scratch store (a few minutes on two cores; or --store FILE
# with those runs already in it), drawn by `normlab figure` at single column
# (89 mm) and double column (183 mm), 8 pt — loss, per-layer FC2 gradients
# and FFN gains — and rasterized with pdftoppm into docs/figures/.
#
#   bash scripts/figures.sh [--store FILE] [--out DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${NORMLAB_BUILD_DIR:-build}"
OUT=docs/figures
STORE=""
while [ $# -gt 0 ]; do
  case "$1" in
    --store) STORE="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    *) echo "usage: bash scripts/figures.sh [--store FILE] [--out DIR]" >&2; exit 2 ;;
  esac
done
for tool in "$BUILD/app/normlab" "$BUILD/app/normlab-cli"; do
  [ -x "$tool" ] || { echo "$tool is not built: run bash scripts/setup.sh first" >&2; exit 2; }
done
command -v pdftoppm >/dev/null || { echo "pdftoppm is missing: apt-get install poppler-utils" >&2; exit 2; }
mkdir -p "$OUT"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
if [ -z "$STORE" ]; then
  STORE="$WORK/figures.sqlite"
  # the default experiment with a seed sweep: "Post-LN seed=1", "Post-LN seed=2", ...
  python3 - "$WORK/default-seeds.json" <<'PY'
import json, sys
e = json.load(open("experiments/default.json"))
e["name"] = "default, two seeds"
e["sweep"] = {"train.seed": [1, 2]}
json.dump(e, open(sys.argv[1], "w"), indent=1)
PY
  "$BUILD/app/normlab-cli" run "$WORK/default-seeds.json" --store "$STORE"
fi
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
for column in single double; do
  for view in loss gradients gains; do
    args=(--view "$view")
    [ "$view" = gradients ] && args+=(--weight fc2 --norm l1)
    [ "$view" = gains ] && args+=(--probe gain/norm2)
    pdf="$WORK/$view-$column.pdf"
    "$BUILD/app/normlab" figure Post-LN Pre-LN "${args[@]}" --column "$column" --font-pt 8 --out "$pdf" --store "$STORE"
    pdftoppm -r 200 -png -singlefile "$pdf" "$OUT/$view-$column"
  done
done
ls -1 "$OUT"
