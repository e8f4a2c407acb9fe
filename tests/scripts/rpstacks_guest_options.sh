#!/bin/bash
# rpstacks_guest_options.sh CYCLESCOPE GUEST_DIR: rpstacks takes the guest options of run
# (the CLI_GUEST_* options) and the .rps records them, so that whatif --verify runs the same
# program again: seeded_loop's loop length comes from getrandom (--seed).
#   - rpstacks --seed 5 times what run --seed 5 --env-fixed times (the fixed environment is
#     rpstacks' default: the same instructions and cycles, the same program output);
#   - without --seed it is another run (the seed was honoured, not ignored);
#   - whatif --verify at the baseline latency re-simulates exactly the rpstacks run (the seed
#     came back from the .rps): its simulated CPI = simulated cycles / instructions;
#   - a bad --seed is bad usage, named.
set -u -o pipefail
cs=$(realpath "$1") g=$(realpath "$2")
prog=$g/seeded_loop
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$cs" rpstacks --seed 5 -o a.rps --json a.json "$prog" >a.out 2>a.err || fail "rpstacks --seed 5: exit $?: $(cat a.err)"
"$cs" run --seed 5 --env-fixed --no-report --json r.json "$prog" >r.out 2>r.err || fail "run --seed 5: exit $?"
"$cs" rpstacks -o b.rps --json b.json "$prog" >b.out 2>&1 || fail "rpstacks without --seed: exit $?"
[ "$(head -1 a.out)" = "$(head -1 r.out)" ] || fail "the program's output: rpstacks '$(head -1 a.out)', run '$(head -1 r.out)'"
python3 - a.json r.json b.json <<'PY' || fail "rpstacks --seed 5 against run --seed 5 --env-fixed"
import json, sys
a, r, b = (json.load(open(f)) for f in sys.argv[1:])
ok = (a["instructions"], a["simulated_cycles"]) == (r["instructions"], r["cycles"])
ok = ok and b["instructions"] != a["instructions"]  # the default seed: another loop length
ok = ok and a["guest"] == {"state": "exited", "exit_code": 0}
if not ok:
    print("rpstacks", a["instructions"], a["simulated_cycles"], "run", r["instructions"], r["cycles"],
          "rpstacks without --seed", b["instructions"])
sys.exit(0 if ok else 1)
PY
# memory.latency's baseline (the .rps' base latency): the re-simulation is the recorded run
base=$(python3 -c "import json; print([e['base_latency'] for e in json.load(open('a.json'))['events'] if e.get('key') == 'memory.latency'][0])")
"$cs" whatif a.rps --set memory.latency="$base" --verify 1 --jobs 1 --json w.json >w.out 2>&1 || fail "whatif --verify: exit $?: $(tail -3 w.out)"
python3 - a.json w.json <<'PY' || fail "whatif --verify at the baseline did not re-simulate the rpstacks run"
import json, sys
a, w = (json.load(open(f)) for f in sys.argv[1:])
want = a["simulated_cycles"] / a["instructions"]
got = w["points"][0]["simulated_cpi"]
print("rpstacks CPI", want, "whatif --verify simulated CPI", got)
sys.exit(0 if abs(got - want) <= 1e-9 * want else 1)
PY
out=$("$cs" rpstacks --seed x -o c.rps "$prog" 2>&1)
[ $? = 2 ] && [ "$out" = "cyclescope rpstacks: --seed x: not a non-negative integer (see cyclescope rpstacks --help)" ] || fail "rpstacks --seed x: $out"
[ -e c.rps ] && fail "rpstacks --seed x wrote c.rps"
[ $failures = 0 ] || { echo "$failures failures"; exit 1; }
echo "ok: rpstacks --seed recorded in the .rps and re-simulated by whatif --verify"
