#!/bin/bash
# statmodel_interrupt.sh CYCLESCOPE OUTDIR WORKLOAD_DIR
# `model analyze` while it runs and when it is stopped (issue 18 items 7-9):
#  - --max counts instructions (the guest's instructions are single µops: exactly N analysed);
#  - the progress bar on a terminal (script(1) gives one) shows the total --max gives;
#  - Ctrl-C: the profile of what ran is written, marked partial in its header; `model info`,
#    `model solve` and solve's JSON (complete: false) say so; exit 130 (128 + SIGINT).
#    One SIGINT sent by hand: GNU timeout would signal the process group twice, and a second
#    Ctrl-C quits at once (documented).
set -u
. "$(dirname "$(realpath "$0")")/interrupt.sh"
cs=$1 out=$2 wl=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out" && cd "$out" || exit 1
"$cs" model analyze --max 12345 -o max.smp "$wl/sort" 10000 >/dev/null 2>&1 || fail "analyze --max"
"$cs" model info max.smp | grep -q "^profile max.smp: 12345 instructions$" || fail "--max 12345 is not 12345 instructions"
"$cs" model info max.smp | grep -q PARTIAL && fail "a complete profile is marked partial"
if command -v script >/dev/null; then
    script -qc "env -u CYCLESCOPE_NO_PROGRESS CYCLESCOPE_PROGRESS_INTERVAL=0 '$cs' model analyze --max 1500000 -o bar.smp '$wl/sort' 400000" \
        /dev/null >tty.out 2>&1 </dev/null
    grep -Eq "analysing \[[#.]+\] +[0-9.]+% [0-9.]+ [kM] of 1.5 M instructions, [0-9.]+ M/s  ETA" tty.out ||
        fail "no progress bar with the --max total: $(head -c 300 tty.out)"
fi
interrupt_running 2 "model analyze" p.out p.err "$cs" model analyze -o p.smp "$wl/sort" 400000
grep -q "PARTIAL PROFILE: the analysis was interrupted" p.err || fail "the terminal output is not marked partial"
"$cs" model info p.smp >info.out || fail "model info of the partial profile"
grep -q "^PARTIAL PROFILE: model analyze was interrupted" info.out || fail "model info does not show the mark"
n=$(sed -n 's/^profile p.smp: \([0-9]*\) instructions$/\1/p' info.out)
[ -n "$n" ] && [ "$n" -gt 0 ] || fail "the partial profile holds no instructions"
"$cs" model solve --json p.json p.smp >solve.out || fail "model solve of the partial profile"
grep -q "^PARTIAL PROFILE:" solve.out || fail "model solve does not show the mark"
python3 - p.json "$n" <<'PY' || fail "the partial JSON"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["complete"] is False and "interrupted" in j["stopped_by"], j["complete"]
assert 0 < j["ipc"] <= 2, j["ipc"]
PY
echo "interrupted after $n instructions: exit 130, profile marked partial"
