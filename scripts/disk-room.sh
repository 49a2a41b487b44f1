#!/usr/bin/env bash
# Sourced by the set-up scripts: a disk too full for what comes next is found
# before anything is written, with what needs the room, where, and how to make it
# (a set-up that fills the disk halfway leaves a broken venv or build behind).

# free_gib PATH: the whole GiB free on the filesystem PATH is (or would be) on.
free_gib() {
  local d="$1"
  while [ ! -e "$d" ]; do d="$(dirname "$d")"; done
  df -Pk "$d" | awk 'NR == 2 { printf "%d\n", $4 / 1048576 }'
}

# need_room PATH GIB WHAT FIX: fails (status 1) saying so when PATH's
# filesystem has less than GIB GiB free.
need_room() {
  local path="$1" want="$2" what="$3" fix="$4" free
  free="$(free_gib "$path")"
  if [ "$free" -lt "$want" ]; then
    echo "$what needs about $want GiB free where $path goes, and that disk has $free GiB free: free some space there, or $fix" >&2
    return 1
  fi
}
