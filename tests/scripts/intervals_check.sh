#!/bin/bash
# intervals_check.sh CYCLESCOPE WORKLOAD_DIR
# --interval N: every N committed instructions, the IPC, MPKIs and three CPI
# stacks. Exact by construction (a stage span crossing an interval's end is
# split there), so checked exactly: on an out-of-order and an in-order run and
# a trace, every interval's three stacks sum to its cycles; the intervals' cycles,
# instructions, mispredicts and misses add up to the run's; each stack component
# summed over the intervals is the run's; every interval but the last holds about N
# instructions (it ends in the cycle the count reaches a multiple of N); the CSV rows are the JSON's;
# with the HTML report, the time series renders in headless Chromium.
set -u -o pipefail
cs=$(realpath "$1") w=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

"$cs" run --no-report --interval 50K --json ooo.json --csv ooo.csv "$w/sort" 3000 >ooo.out 2>&1 || fail "run --interval: $(tail -3 ooo.out)"
grep -q "^Over time: [0-9]* intervals of 50000 instructions; IPC from" ooo.out || fail "no summary line"
"$cs" run --no-report --config inorder3 --interval 20000 --max 300000 --json inorder.json "$w/interp" 500 >/dev/null 2>&1 ||
    fail "inorder3 --interval"
"$cs" trace record -o t.cst "$w/hash" 2000 >/dev/null 2>&1 || fail "trace record"
"$cs" sim --no-report --config knl --interval 33333 --warmup 5000 --json sim.json t.cst >/dev/null 2>&1 || fail "sim --interval"

python3 - ooo.json inorder.json sim.json <<'PY' || exit 1
import json, sys
bad = 0
def check(cond, what):
    global bad
    if not cond:
        print("FAIL:", what)
        bad = 1
for f in sys.argv[1:]:
    j = json.load(open(f))
    iv = j["stacks"]["intervals"]
    at = iv["at"]
    n, width = iv["every"], j["stacks"]["width"]
    check(iv["count"] == len(at) > 1, f"{f}: {len(at)} intervals")
    for key in ("cycles", "instructions"):
        check(sum(x[key] for x in at) == j[key], f"{f}: the intervals' {key} add up to the run's")
    check(abs(sum(x["mpki"]["branch"] * x["instructions"] / 1000 for x in at) - j["branches"]["mispredicts"]) < 1e-6,
          f"{f}: mispredicts add up")
    check(abs(sum(x["mpki"]["l1d"] * x["instructions"] / 1000 for x in at) - j["caches"]["l1d"]["misses"]) < 1e-6,
          f"{f}: L1D misses add up")
    first = done = 0
    for k, x in enumerate(at):
        check(x["first_cycle"] == first, f"{f}: interval {k} starts where the last ended")
        first += x["cycles"]
        done += x["instructions"]
        if k < len(at) - 1:  # ends in the cycle the count reaches (k+1) N: passed by less than the commit width
            check((k + 1) * n <= done < (k + 1) * n + 8, f"{f}: interval {k} ends after {done} instructions")
        for st, s in x["cpi_stacks"].items():
            check(abs(sum(s.values()) - x["cycles"]) < 1e-6, f"{f}: interval {k} {st} sums to its cycles")
    for st, s in j["stacks"]["cpi_stacks"].items():
        for c, e in s.items():
            tot = sum(x["cpi_stacks"][st][c] for x in at)
            check(abs(tot - e["cycles"]) < 1e-6, f"{f}: {st}/{c}: intervals {tot}, run {e['cycles']}")
sys.exit(bad)
PY
python3 - ooo.csv ooo.json <<'PY' || fail "CSV intervals differ from the JSON"
import csv, json, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["interval"] != ""]
at = json.load(open(sys.argv[2]))["stacks"]["intervals"]["at"]
assert len({r["interval"] for r in rows}) == len(at)
for r in rows:
    x = at[int(r["interval"])]
    if r["section"] == "summary" and r["component"] in ("cycles", "instructions", "ipc"):
        assert abs(float(r["value"]) - x[r["component"]]) < 1e-9, r
    if r["section"] == "cpi_stack":
        assert abs(float(r["cycles"]) - x["cpi_stacks"][r["stage"]][r["component"]]) < 1e-6, r
PY
# more intervals than the chart's 1000 points: drawn as consecutive intervals summed, at most
# 1000 points a series (until 2026-11-29 a point per interval: sort's 53 k made a 26 MB page)
"$cs" run --report many.html --interval 150 "$w/sort" 3000 >many.out 2>&1 || fail "run --interval 150: $(tail -3 many.out)"
python3 - many.html <<'PY' || exit 1
import re, sys
h = open(sys.argv[1]).read()
m = re.search(r"\((\d+) intervals\).*?Drawn as (\d+) points, each (\d+) consecutive intervals summed", h, re.S)
assert m, "no 'Drawn as' note for more than 1000 intervals"
count, points, per = map(int, m.groups())
assert count > 1000 and per == -(-count // 1000) and points == -(-count // per), (count, points, per)
lines = re.findall(r'<polyline class="ts-line"[^>]*points="([^"]*)"', h)
assert lines and all(len(l.split()) == points for l in lines), [len(l.split()) for l in lines]
areas = re.findall(r'<polygon class="ts-area"[^>]*points="([^"]*)"', h)
assert areas and all(len(a.split()) == 4 * points for a in areas), [len(a.split()) for a in areas]
PY
# usage: not with --simpoints or --validate; only with the stacks
"$cs" stacks --validate --interval 1000 "$w/sort" 300 >/dev/null 2>err
[ $? = 2 ] && grep -q "interval does not apply to --validate" err || fail "stacks --validate --interval: $(cat err)"
"$cs" run --no-report --analysis none --interval 1000 "$w/sort" 300 >/dev/null 2>err
[ $? = 2 ] && grep -q "interval needs the stacks analysis" err || fail "--analysis none --interval: $(cat err)"
"$cs" run --interval 0 "$w/sort" 300 >/dev/null 2>err
[ $? = 2 ] || fail "--interval 0 accepted"

echo "ok: intervals exact on out-of-order, in-order and a trace; CSV = JSON"
