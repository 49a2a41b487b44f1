#!/usr/bin/env bash
# The set-up scripts' free-space check (scripts/disk-room.sh): a disk too full
# for the venv or a build is refused before anything is written, naming what
# needs the room, where, how much is free and how to make room; a path not made
# yet is judged by the disk it would be on. setup-torch2.sh refuses an unknown
# NORMLAB_TORCH2_CUDA_LIBS before it writes, and its two pin lists agree.
set -u
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
. "$ROOT/scripts/disk-room.sh"
W="$(mktemp -d)"
trap 'rm -rf "$W"' EXIT
fail=0
bad() { echo "FAILED: $*"; fail=1; }

free="$(free_gib "$W")"
want_free="$(df -Pk "$W" | awk 'NR == 2 { printf "%d", $4 / 1048576 }')"
[ "$free" = "$want_free" ] || bad "free_gib $W gave '$free', df says $want_free"
[ "$(free_gib "$W/not/made/yet")" = "$free" ] || bad "free_gib of a path not made yet: '$(free_gib "$W/not/made/yet")', wanted $free"
[ ! -e "$W/not" ] || bad "free_gib made the path it was asked about"

need_room "$W/venv" 0 "a venv" "set X" 2>"$W/err" || bad "need_room 0 GiB refused: $(cat "$W/err")"
[ ! -s "$W/err" ] || bad "need_room that passes printed: $(cat "$W/err")"

too_much=$((free + 100000))
if need_room "$W/venv" "$too_much" "setup: the thing" "set NORMLAB_X to a folder on a larger disk" 2>"$W/err"; then
  bad "need_room $too_much GiB on a disk with $free GiB free passed"
fi
msg="$(cat "$W/err")"
for part in "setup: the thing" "$too_much GiB" "$W/venv" "$free GiB free" "set NORMLAB_X to a folder on a larger disk"; do
  case "$msg" in *"$part"*) ;; *) bad "the refusal does not say '$part': $msg" ;; esac
done

# A real full disk, where this may mount one (root, as CI is): a 16 MiB tmpfs has 0 whole GiB.
if [ "$(id -u)" = 0 ] && mkdir -p "$W/small" && mount -t tmpfs -o size=16m tmpfs "$W/small" 2>/dev/null; then
  [ "$(free_gib "$W/small")" = 0 ] || bad "a 16 MiB tmpfs has $(free_gib "$W/small") GiB free"
  need_room "$W/small/build" 1 "a build" "fix" 2>/dev/null && bad "need_room 1 GiB on a 16 MiB tmpfs passed"
  umount "$W/small"
  echo "ok: a 16 MiB tmpfs refused"
fi
# setup-torch2.sh refuses an unknown NORMLAB_TORCH2_CUDA_LIBS before it installs or writes anything.
out="$(NORMLAB_TORCH2_CUDA_LIBS=system NORMLAB_TORCH2_VENV="$W/venv" NORMLAB_TORCH2_BUILD_DIR="$W/b2" \
       bash "$ROOT/scripts/setup-torch2.sh" 2>&1)" && bad "setup-torch2 took NORMLAB_TORCH2_CUDA_LIBS=system"
case "$out" in *"NORMLAB_TORCH2_CUDA_LIBS is 'system': set it to pypi"*"or toolkit"*) ;; *) bad "the refusal of NORMLAB_TORCH2_CUDA_LIBS=system says: $out" ;; esac
[ ! -e "$W/venv" ] && [ ! -e "$W/b2" ] || bad "setup-torch2 wrote before refusing NORMLAB_TORCH2_CUDA_LIBS=system"
# The toolkit's list pins every pin of the main list the same.
while read -r pin; do
  grep -qxF "$pin" "$ROOT/scripts/requirements-torch2-toolkit.txt" || bad "$pin is not pinned the same in requirements-torch2-toolkit.txt"
done < <(sed 's/#.*//; s/[[:space:]]//g; /^$/d' "$ROOT/scripts/requirements-torch2.txt")
[ "$fail" = 0 ] && echo "ok: free_gib and need_room ($free GiB free here)"
exit "$fail"
