#!/bin/bash
# RpStacks with TLBs (issue 12 item 4): on ooo4 with a DTLB (and then an ITLB
# and an L2 TLB) the graph's longest path equals the simulated cycles, each
# page walk on a path weighs exactly its configured latency, and whatif with a
# walk latency changed is within 3% of re-simulation (ground truth). FMT, the
# commit-stall table RpStacks compares against, charges cycles to the TLB
# events too (its error is printed). Without TLBs no TLB event is listed. usage: rpstacks_tlb_check.sh CYCLESCOPE WORKDIR PROG [ARGS…]
set -eu
cs=$1 dir=$2
shift 2
run() { # NAME SETS…: rpstacks on the program with those --set options
    name=$1
    shift
    "$cs" rpstacks "$@" --max 20000 --segment 2000 --json "$dir/$name.json" -o "$dir/$name.rps" "${prog[@]}" \
        >"$dir/$name.txt"
}
prog=("$@") # the program and its arguments, each word kept whole (a path may hold a space)
run tlb-none
run tlb-d --set dtlb.entries=64 --set dtlb.miss_latency=30
run tlb-all --set dtlb.entries=16 --set dtlb.miss_latency=30 --set itlb.entries=4 --set itlb.miss_latency=20 \
    --set l2tlb.entries=64 --set l2tlb.latency=8
verify() { # NAME SET: whatif re-simulated, the RpStacks prediction's error
    "$cs" whatif "$dir/$1.rps" --set "$2" --verify 1 --json "$dir/$1-whatif.json" >/dev/null
    python3 - "$dir/$1-whatif.json" "$2" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["points"][0]
err = (p["rpstacks_cpi"] - p["simulated_cpi"]) / p["simulated_cpi"]
fmt = (p["fmt_cpi"] - p["simulated_cpi"]) / p["simulated_cpi"]
assert abs(err) < 0.03, "%s: RpStacks CPI %.4f vs simulated %.4f" % (sys.argv[2], p["rpstacks_cpi"], p["simulated_cpi"])
print("%s: RpStacks %.4f, simulated %.4f (%+.2f%%); FMT %+.2f%%" % (sys.argv[2], p["rpstacks_cpi"], p["simulated_cpi"],
                                                                   100 * err, 100 * fmt))
PY
}
python3 - "$dir" <<'PY'
import json, re, sys
d = sys.argv[1]
def load(name):
    j = json.load(open("%s/%s.json" % (d, name)))
    text = open("%s/%s.txt" % (d, name)).read()
    assert j["graph_cycles"] == j["simulated_cycles"], (name, j["graph_cycles"], j["simulated_cycles"])
    return j, {e["event"]: e for e in j["events"]}, text
def misses(text, unit):
    return int(re.search(unit + r" accesses / misses +\d+ / (\d+)", text).group(1))
j, ev, text = load("tlb-none")
assert not {"dtlb", "itlb", "l2tlb"} & set(ev), sorted(ev)
j, ev, text = load("tlb-d")
e = ev["dtlb"]
assert e["key"] == "dtlb.miss_latency" and e["base_latency"] == 30, e
walks = e["largest_path_cycles"] / 30
assert walks >= 1 and walks == int(walks) and walks <= misses(text, "DTLB"), (walks, misses(text, "DTLB"))
assert 0 < e["fmt_cycles"] <= 30 * misses(text, "DTLB"), e  # FMT charges commit stalls to the walks too
j, ev, text = load("tlb-all")
for name, lat, unit in (("dtlb", 30, "DTLB"), ("itlb", 20, "ITLB"), ("l2tlb", 8, "L2 TLB")):
    n = ev[name]["largest_path_cycles"] / lat
    assert n >= 1 and n == int(n), (name, n)
    assert ev[name]["fmt_cycles"] > 0, (name, ev[name])
print("graph == simulation with and without TLBs; walks on the largest path: %d" % walks)
PY
verify tlb-d dtlb.miss_latency=10
verify tlb-d dtlb.miss_latency=60
verify tlb-all dtlb.miss_latency=10
verify tlb-all itlb.miss_latency=5
verify tlb-all l2tlb.latency=2
if "$cs" whatif "$dir/tlb-none.rps" --set dtlb.miss_latency=10 2>"$dir/tlb-none.err"; then
    echo "whatif scaled a DTLB the run did not have" >&2
    exit 1
fi
grep -q "dtlb.miss_latency: its latency in the analysed run was 0" "$dir/tlb-none.err"
