#!/bin/bash
# bitmanip_verbs.sh CYCLESCOPE PROG: a program built with Zba/Zbb/Zbc/Zbs
# (tests/guest/bitmanip_bitset) through every verb that times or analyses a program;
# each is checked against its own ground truth (docs/isa.md, "Bit manipulation"):
#   - run and stacks on ooo4 and inorder3: the CPI stacks at dispatch, issue and commit sum to
#     the cycles; the class mix (--stats) counts the clmul*s as int-mul;
#   - trace record, then sim: the instructions and cycles of run; trace dump names them;
#   - stallscope: accumulated = lost = width x cycles - committed µops;
#   - rpstacks: the graph's longest path = the simulated cycles, no constraint violated;
#   - model analyze / solve --compare-sim (inorder1): within 5% of the simulator;
#   - profile record/annotate (inorder1): the instructions listed by name, and the static
#     schedule (M) of a block holding clmulh charges its consumer a dependency stall on it.
set -u -o pipefail
cs=$(realpath "$1") prog=$(realpath "$2")
arg=30000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$cs" trace record -o t.cst "$prog" $arg >out 2>err || fail "trace record: $(cat err)"
for config in ooo4 inorder3; do
    "$cs" run --no-report --config $config --json run.$config.json "$prog" $arg >out 2>err || fail "run $config: $(cat err)"
    "$cs" stacks --config $config --json stacks.$config.json "$prog" $arg >out 2>err || fail "stacks $config: $(cat err)"
    for json in run.$config.json stacks.$config.json; do
        python3 - $json <<'PY' || fail "$json: stacks do not sum to the cycles"
import json, sys
d = json.load(open(sys.argv[1])); s = d["stacks"]
for where, stack in s["cpi_stacks"].items():
    total = sum(c["cycles"] for c in stack.values())
    assert abs(total - d["cycles"]) <= 1e-6 * d["cycles"], (where, total, d["cycles"])
assert d["instructions"] > 400000
PY
    done
    "$cs" sim --no-report --config $config --json sim.$config.json t.cst >/dev/null 2>err || fail "sim $config: $(cat err)"
    python3 2>/dev/null -c "import json, sys; s, r = (json.load(open(f)) for f in sys.argv[1:])
sys.exit(0 if (s['instructions'], s['cycles']) == (r['instructions'], r['cycles']) else 1)" sim.$config.json run.$config.json ||
        fail "sim of the trace ($config) does not time what run does"
done
"$cs" exec --stats "$prog" $arg >out 2>stats || fail "exec --stats: $(cat stats)"
mul=$(awk '$1 == "int-mul" {print $2}' stats)
[ "${mul:-0}" -ge 3000 ] || fail "exec --stats: int-mul $mul, expected the clmul/clmulh pairs (one per prime) and the hash's mul"
"$cs" trace dump t.cst >dump 2>err || fail "trace dump: $(cat err)"
for name in cpop clmul clmulh rev8 bset sh3add; do
    grep -qE "[[:space:]]$name[[:space:]]" dump || fail "trace dump: no $name"
done

"$cs" stallscope --json ss.json "$prog" $arg >out 2>err || fail "stallscope: $(cat err)"
python3 -c "import json; d = json.load(open('ss.json')); s = d['stallscope']
assert s['accumulated'] == s['lost'] == s['opportunities'] - s['completed'] and s['opportunities'] == 4 * s['cycles'], s" ||
    fail "stallscope: accumulated != lost"

"$cs" rpstacks -o r.rps --json r.json "$prog" $arg >out 2>err || fail "rpstacks: $(cat err)"
python3 -c "import json; d = json.load(open('r.json'))
assert d['graph_cycles'] == d['simulated_cycles'] > 0 and d['constraint_violations'] == 0, d" ||
    fail "rpstacks: the graph's longest path is not the simulated cycles"

"$cs" model analyze -o m.smp "$prog" $arg >out 2>err || fail "model analyze: $(cat err)"
"$cs" model solve --config inorder1 --compare-sim m.smp >solve 2>&1 || fail "model solve: $(cat solve)"
err_pct=$(sed -n 's/.*model error \([-+][0-9.]*\)%.*/\1/p' solve)
python3 -c "import sys; sys.exit(0 if abs(float(sys.argv[1])) < 5 else 1)" "${err_pct:-100}" ||
    fail "model solve --compare-sim: error ${err_pct:-none}%: $(tail -2 solve)"

"$cs" profile record --config inorder1 --period 2000 -o p.prof "$prog" $arg >out 2>err || fail "profile record: $(cat err)"
"$cs" profile annotate p.prof >ann 2>err || fail "profile annotate: $(cat err)"
"$cs" profile report p.prof >rep 2>err || fail "profile report: $(cat err)"
grep -q "^main " ann || fail "profile annotate: no main"
for name in cpop clmul clmulh rev8 bset sh3add; do
    grep -qE "^ +[0-9a-f]+  $name " ann || fail "profile annotate: no $name"
done
clmulh_pc=$(awk '$2 == "clmulh" {print $1; exit}' ann)
grep -qE "static:dependency<-$clmulh_pc" ann ||
    fail "profile annotate: no static dependency on the clmulh at ${clmulh_pc:-?} (int-mul latency)"

[ $failures = 0 ] || exit 1
echo "bitmanip through run, stacks, trace/sim, stallscope, rpstacks, model, profile: all checks hold"
