#!/bin/bash
# rpstacks_store_at_exit.sh CYCLESCOPE GUEST: a run whose last store drains from the store
# buffer after the last commit (knl: store_buffer 16). rpstacks' "simulated" cycles are the
# core's, as run counts them (they were the last commit's, 332 against 588 here, so whatif's
# simulated CPI and --verify at the baseline disagreed with the simulator); the 256 cycles
# after the last commit join the graph as one base edge, so its longest path, whatif's
# baseline prediction and the re-simulated baseline all equal them, and the text says so.
set -u -o pipefail
cs=$(realpath "$1") prog=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
"$cs" run --no-report --env-fixed --config knl --json run.json "$prog" >/dev/null 2>&1 || fail "run"
"$cs" rpstacks --config knl --json rp.json -o r.rps "$prog" >rp.txt 2>&1 || fail "rpstacks"
grep -q "of which [1-9][0-9]* cycles after the last commit (stores draining)" rp.txt || fail "the drain is not said: $(cat rp.txt)"
"$cs" whatif r.rps --verify 1 --jobs 1 --json w.json --quiet >/dev/null 2>&1 || fail "whatif --verify"
python3 - <<'PY'
import json, sys
run, rp, w = (json.load(open(f)) for f in ("run.json", "rp.json", "w.json"))
cycles, insns = run["cycles"], run["instructions"]
if rp["simulated_cycles"] != cycles:
    sys.exit(f"FAIL: rpstacks says {rp['simulated_cycles']} simulated cycles, run {cycles}")
if abs(w["simulated_cpi"] - cycles / insns) > 1e-9 or abs(w["points"][0]["simulated_cpi"] - cycles / insns) > 1e-9:
    sys.exit(f"FAIL: whatif's simulated CPI {w['simulated_cpi']} / re-simulated {w['points'][0]['simulated_cpi']}, run {cycles / insns}")
if rp["graph_cycles"] != cycles or abs(w["points"][0]["rpstacks_cpi"] - cycles / insns) > 1e-9:
    sys.exit(f"FAIL: graph {rp['graph_cycles']}, whatif's baseline {w['points'][0]['rpstacks_cpi']}, run {cycles}")
base = [e for e in rp["events"] if e["event"] == "base"][0]
print(f"ok: run {cycles} cycles = rpstacks' simulated = graph = whatif's baseline; base {base['largest_path_cycles']:.0f}")
PY
