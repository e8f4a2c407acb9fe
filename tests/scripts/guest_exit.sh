#!/bin/bash
# guest_exit.sh CYCLESCOPE WORKLOAD_DIR: every verb that runs a program ends with the
# program's failure (issue 18 item 1): `tree -5` prints "bad size" and exits 2 (as
# `exec` shows), so rpstacks, profile record, model analyze and simpoint write their
# outputs and exit 2 with the line "cyclescope: PATH/tree: the program exited with status 2", and a
# sweep records both points as measured (the program ran to its end) with that exit status, which
# merge shows, and exits 0 (until 2026-11-28 both points were failures and it exited 125; a
# failure is cyclescope's own: a guest fault, a deadlock, a job that died). And Ctrl-C during
# profile record writes the profile of what ran and exits 130.
set -u -o pipefail
. "$(dirname "$(realpath "$0")")/interrupt.sh"
cs=$(realpath "$1") w=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
"$cs" exec "$w/tree" -5 >/dev/null 2>&1
[ $? = 2 ] || fail "exec tree -5 does not exit 2 (the test's premise)"
check() { # OUTPUT COMMAND…: exit 2, the status line, OUTPUT written
    local out=$1
    shift
    "$cs" "$@" >/dev/null 2>err
    local rc=$?
    [ $rc = 2 ] || fail "$*: exit $rc, not the program's 2: $(cat err)"
    grep -q "^cyclescope: .*/tree: the program exited with status 2 " err || fail "$*: no status line: $(cat err)"
    [ -e "$out" ] || fail "$*: $out not written"
}
check r.rps rpstacks -o r.rps "$w/tree" -5
check p.prof profile record --period 1000 -o p.prof "$w/tree" -5
check m.smp model analyze -o m.smp "$w/tree" -5
check sp/simpoint.json simpoint --interval 5K -o sp "$w/tree" -5
"$cs" sweep --grid core.rob_size=64,128 -o sw "$w/tree" -5 >/dev/null 2>sw.err
rc=$?
[ $rc = 0 ] || fail "sweep of a program exiting with 2: exit $rc, not 0: $(cat sw.err)"
grep -q "^cyclescope: sweep: note: the program exited with a non-zero status in 2 of 2 points (the first: 2)" sw.err ||
    fail "sweep: no note of the exit status: $(cat sw.err)"
"$cs" merge sw >merge.out 2>&1 || fail "merge"
n=$(grep -c '^[0-9]*,ok,2,[0-9]' sw/sweep.csv)
[ "$n" = 2 ] || fail "sweep.csv: $n points measured with the program's status 2, not 2: $(cat sw/sweep.csv)"
n=$(grep -c ' ok (the program exited with status 2)$' merge.out)
[ "$n" = 2 ] || fail "merge's table: $n points shown with status 2, not 2: $(cat merge.out)"
python3 -c 'import json,sys; t=json.load(open(sys.argv[1])); sys.exit(0 if [p.get("exit_code") for p in t["points"]]==[2,2] else 1)' \
    sw/sweep-table.json || fail "sweep-table.json: no exit_code 2"
# a guest fault is no measurement: the points fail, exit 125
"$cs" sweep --grid core.rob_size=64,128 -o sw_fault "$(dirname "$cs")/tests/guest/segfault" >/dev/null 2>fault.err
rc=$?
[ $rc = 125 ] || fail "sweep of a faulting program: exit $rc, not 125"
grep -q "^cyclescope: 2 of 2 points failed, the first: .*segfault: segmentation fault" fault.err ||
    fail "sweep of a faulting program: $(cat fault.err)"
# Ctrl-C during profile record (one SIGINT, by hand: see results_cli.sh): the profile of
# what ran is written, the status is 130 (128 + SIGINT)
interrupt_running 1 "profile record" /dev/null i.err "$cs" profile record --max 40000000 -o i.prof "$w/sort" 400000
grep -q "PARTIAL PROFILE" i.err || fail "profile record, Ctrl-C: not said partial: $(cat i.err)"
"$cs" profile report i.prof >/dev/null 2>&1 || fail "profile report of the interrupted profile"
echo "ok: rpstacks, profile record, model analyze, simpoint exit 2 with their outputs; sweep points measured, status 2;"
echo "    profile record interrupted: its profile, exit 130"
