#!/bin/sh
# rpstacks --json: the run's JSON against the same run's text report and the
# simulator's own cycle count (ground truth); the events' largest-path cycles
# add up to that path's length, and FMT's to the simulated cycles.
# usage: rpstacks_json_check.sh CYCLESCOPE WORKDIR PROG [ARGS…]
set -eu
cs=$1 dir=$2
shift 2
"$cs" rpstacks --max 6000 --segment 2000 --json "$dir/rpstacks-run.json" -o "$dir/rpstacks-run.rps" "$@" >"$dir/rpstacks-run.txt"
python3 - "$dir/rpstacks-run.json" "$dir/rpstacks-run.txt" <<'PY'
import json, re, sys
j = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
sim = int(re.search(r"cycles (\d+) \(CPI", text).group(1))
assert j["simulated_cycles"] == sim, (j["simulated_cycles"], sim)
assert abs(j["graph_cycles"] - sim) <= 0.02 * sim, "graph off by more than 2%"
assert j["segments"] == 3 and j["uops"] == 6000, (j["segments"], j["uops"])
assert j["stacks"] >= j["segments"]
ev = {e["event"]: e for e in j["events"]}
assert "base" in ev and "mem-data" in ev, sorted(ev)
fmt = sum(e["fmt_cycles"] for e in j["events"])
assert abs(fmt - sim) < 1e-6, (fmt, sim)
assert j["analysis"]["cpu_seconds"] >= 0 and j["analysis"]["wall_seconds"] > 0
print("rpstacks --json: %d cycles simulated, graph %.0f, %d segments, %d stacks: ok"
      % (sim, j["graph_cycles"], j["segments"], j["stacks"]))
PY
