#!/bin/bash
# rpstacks_ideal_alu.sh CYCLESCOPE WORKLOAD_DIR: under ideal.alu the core executes arithmetic in
# one cycle whatever [latency] says, and the dependence graph must weigh it so: on fp_chain (a
# chain of FP adds) every event's share of the largest path is >= 0 (was: base -63046 cycles,
# the adds charged their configured 6 cycles), the events add up to the graph's longest path,
# which equals the simulated cycles, and the JSON is valid. The arithmetic latencies are
# recorded as 0: whatif refuses to scale them (the machine ignores them), one line, exit 2,
# and a latency the machine does use still predicts and verifies.
set -u -o pipefail
cs=$(realpath "$1") w=$(realpath "$2")
here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
"$cs" rpstacks --max 20000 --set ideal.alu=yes --json r.json -o r.rps "$w/fp_chain" >out.txt 2>&1 ||
    fail "rpstacks: $(tail -3 out.txt)"
python3 - <<'PY' || exit 1
import json, sys
j = json.load(open("r.json"))
ev = {e["event"]: e for e in j["events"]}
bad = [(k, e["largest_path_cycles"]) for k, e in ev.items() if e["largest_path_cycles"] < 0 or e["cp1_cycles"] < 0]
if bad: sys.exit(f"FAIL: negative shares of the largest path: {bad}")
total = sum(e["largest_path_cycles"] for e in ev.values())
if abs(total - j["graph_cycles"]) > 1e-6 * j["graph_cycles"] or j["graph_cycles"] != j["simulated_cycles"]:
    sys.exit(f"FAIL: events sum {total}, graph {j['graph_cycles']}, simulated {j['simulated_cycles']}")
if ev["fp-add"]["base_latency"] != 0: sys.exit(f"FAIL: fp-add recorded at latency {ev['fp-add']['base_latency']}")
if ev["fp-add"]["largest_path_cycles"] <= 0: sys.exit("FAIL: the adds weigh nothing (test premise)")
print(f"events sum {total:.0f} = graph = simulated; base {ev['base']['largest_path_cycles']:.0f}, fp-add {ev['fp-add']['largest_path_cycles']:.0f}")
PY
if py=$(. "$here/find_jsonschema.sh" >/dev/null && echo "$py"); then
    "$py" "$here/validate_json.py" "$cs" "$here/../../docs" "$here/../../docs/rpstacks.schema.json" r.json || fail "schema"
fi
"$here/expect_error.sh" 2 "latency.fp-add: its latency in the analysed run was 0 or fixed .* ideal.alu" \
    "$cs" whatif r.rps --set latency.fp-add=3 || fail "whatif scaled an arithmetic latency ideal.alu ignores"
"$cs" whatif r.rps --set l1d.latency=8 --verify 1 --jobs 1 >v.txt 2>&1 || fail "whatif --verify: $(tail -3 v.txt)"
echo "ok"
