#!/bin/bash
# rpstacks_store_at_exit.sh CYCLESCOPE GUEST: a run whose last store drains from the store
# buffer after the last commit (knl: store_buffer 16). rpstacks' "simulated" cycles are the
# core's, as run counts them (they were the last commit's, 332 against 588 here, so whatif's
# simulated CPI and --verify at the baseline disagreed with the simulator); the graph, which
# ends at that commit, then shows its shortfall as its error instead of hiding it.
set -u -o pipefail
cs=$(realpath "$1") prog=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
"$cs" run --no-report --env-fixed --config knl --json run.json "$prog" >/dev/null 2>&1 || fail "run"
"$cs" rpstacks --config knl --json rp.json -o r.rps "$prog" >/dev/null 2>&1 || fail "rpstacks"
"$cs" whatif r.rps --verify 1 --jobs 1 --json w.json --quiet >/dev/null 2>&1 || fail "whatif --verify"
python3 - <<'PY'
import json, sys
run, rp, w = (json.load(open(f)) for f in ("run.json", "rp.json", "w.json"))
cycles, insns = run["cycles"], run["instructions"]
if rp["simulated_cycles"] != cycles:
    sys.exit(f"FAIL: rpstacks says {rp['simulated_cycles']} simulated cycles, run {cycles}")
if abs(w["simulated_cpi"] - cycles / insns) > 1e-9 or abs(w["points"][0]["simulated_cpi"] - cycles / insns) > 1e-9:
    sys.exit(f"FAIL: whatif's simulated CPI {w['simulated_cpi']} / re-simulated {w['points'][0]['simulated_cpi']}, run {cycles / insns}")
if rp["graph_cycles"] >= cycles:
    sys.exit(f"FAIL: the premise: the graph ({rp['graph_cycles']}) should end before the drain ({cycles})")
print(f"ok: run {cycles} cycles = rpstacks' simulated; graph {rp['graph_cycles']:.0f} ({rp['graph_error_percent']:+.1f}%)")
PY
