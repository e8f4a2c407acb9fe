#!/bin/bash
# profile_infinite_loop.sh CYCLESCOPE OUTDIR SPIN_FOREVER
# A procedure that never returns (tests/guest/spin_forever.c), its run ended by
# --max: its CFG has no path to the exit from the infinite loop, and DCPI's
# extension (a pseudo edge from the sink component to the exit) gives its
# blocks classes and estimates like any other's. Graded against the truth.
set -eu
cs=$1 out=$2 prog=$3
mkdir -p "$out"
cd "$out"
fail() { echo "FAIL: $*"; exit 1; }
"$cs" profile record --env-fixed --config inorder3 --period 100 --max 3000000 --truth s.truth -o s.prof "$prog" \
    >/dev/null 2>&1 || fail "record"
"$cs" profile report --function spin --truth s.truth --json s.json s.prof >/dev/null 2>&1 || fail "report"
jq -e '.procedures | length == 1 and (.[0].missing_edges | not)' s.json >/dev/null || fail "spin not analysed whole"
# every instruction of the procedure has an estimate, every edge too
jq -e '[.procedures[0].instructions[].count, .procedures[0].edges[].count] | all(. != null)' s.json >/dev/null ||
    fail "an instruction or an edge of spin without an estimate"
# the frequency goals (as the other in-order profiles at period 100), and
# what is off by more than 15% marked low
jq -e '.grade.within10 >= 0.92 and .grade.within15 >= 0.92 and .grade.off15_marked_low == 1' s.json >/dev/null ||
    { jq -c .grade s.json; fail "spin's estimates"; }
echo ok
