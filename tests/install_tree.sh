#!/usr/bin/env bash
# `cmake --install` of a build, used from somewhere that is neither the source
# nor the build tree, as someone who installed NormLab would:
#   1. every experiment lands under share/normlab/experiments, byte for byte;
#   2. the installed programs start without LD_LIBRARY_PATH (an install of the
#      2.x build keeps the path of PyPI's LibTorch) and validate a shipped
#      experiment, the front end becoming its engine (libexec/normlab) for
#      that and answering `list` itself;
#   3. the installed window finds its reproduction experiments there: `normlab
#      report` without one names that folder (the report dialog lists it).
#     bash tests/install_tree.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
BUILD="$(realpath "$1")" SRC="$(realpath "$2")"
fail() { echo "FAIL: $*"; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
cmake --install "$BUILD" --prefix "$prefix" > "$tmp/install.log" || { cat "$tmp/install.log"; fail "cmake --install"; }
shipped="$prefix/share/normlab/experiments"

mapfile -t files < <(cd "$SRC/experiments" && find . -name '*.json' | sort)
[ "${#files[@]}" -ge 10 ] || fail "only ${#files[@]} experiments in $SRC/experiments"
for f in "${files[@]}"; do
  cmp -s "$SRC/experiments/$f" "$shipped/$f" || fail "experiments/$f is not installed as $shipped/$f"
done
echo "${#files[@]} experiments installed"

mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere"
run() { env -u LD_LIBRARY_PATH "$@"; }
run "$prefix/bin/normlab-cli" --version > /dev/null || fail "the installed normlab-cli does not start"
out="$(run "$prefix/bin/normlab-cli" validate "$shipped/all_schemes.json" 2>&1)" || fail "validate the installed all_schemes.json: $out"
grep -qE "[0-9]+ runs?$" <<< "$out" || fail "validate said: $out"
echo "the installed normlab-cli validates $shipped/all_schemes.json"
out="$(run "$prefix/bin/normlab-cli" list --store "$tmp/none.sqlite" 2>&1)" || fail "list on a store not made yet: $out"
grep -qF "no runs" <<< "$out" || fail "list said: $out"
[ "$(stat -c %i "$prefix/libexec/normlab/normlab-cli")" = "$(stat -c %i "$prefix/libexec/normlab/normlab-cli-engine")" ] ||
  fail "libexec/normlab/normlab-cli is not the engine's file"

if [ -x "$BUILD/app/normlab" ]; then
  [ -x "$prefix/bin/normlab" ] || fail "the window is built but not installed"
  set +e
  err="$(QT_QPA_PLATFORM=offscreen run "$prefix/bin/normlab" report --out "$tmp/report" 2>&1)"
  code=$?
  set -e
  [ "$code" = 2 ] || fail "normlab report without an experiment: exit $code, not 2: $err"
  grep -qF "$shipped/reproduction/*.json" <<< "$err" || fail "normlab report does not name $shipped/reproduction: $err"
  echo "the installed normlab finds $shipped/reproduction"
fi
