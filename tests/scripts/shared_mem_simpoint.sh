#!/bin/bash
# shared_mem_simpoint.sh CYCLESCOPE SHARED_MEM
# SimPoint's copies of a run (forks of the emulator) time their points in memory of their own:
# `shared_mem counter` adds to a word of MAP_SHARED memory in a loop, then computes without it;
# the copies timing points of the loop ran while the run was past it, and before the copies'
# shared memory was made private (mem_unshare) the run printed what they had written there.
set -u
cs=$1 prog=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$cs" simpoint --k 3 --interval 200000 -o "$tmp/sp" "$prog" counter >/dev/null 2>&1 || fail "simpoint"
# a point inside the loop (its first 600 000 iterations: about 3.6 M instructions)
awk '$1 < 15 { found = 1 } END { exit !found }' "$tmp/sp/bbv.simpoints" || { cat "$tmp/sp/bbv.simpoints"; fail "no point in the loop"; }
for run in 1 2 3; do
    out=$("$cs" run --simpoints "$tmp/sp" --no-report "$prog" counter 2>&1 | head -1)
    [ "$out" = "counter 600000" ] || fail "run $run printed '$out'"
done
echo "ok: counter 600000 in 3 runs with SimPoint copies"
