#!/bin/bash
# threads_check.sh CYCLESCOPE WORKDIR PROG [ARGS…]
# A multithreaded program on the one hart through every tool, against the tools' own
# ground truth: two `exec` runs retire the same instruction count; two `run`s on ooo4
# give the same cycles, and the same instructions as exec (one µop stream whatever the
# run mode); `sim` of a recorded trace gives the run's cycles; stallscope's accumulated
# losses equal the lost opportunities (it prints "(exact)" only then, and both numbers
# are compared here); rpstacks' graph equals its simulated cycles; profile record writes
# a profile; SimPoint's estimate covers the same instructions. The stacks' own sums are stacks_check's (tests/stacks.cmake). All with
# --env-fixed, so that the guest sees the same argv and environment in every verb.
set -eu
cs=$1 dir=$2
shift 2
mkdir -p "$dir"
count() { "$cs" exec --env-fixed --stats "$@" 2>&1 >/dev/null | sed -n 's/.*: \([0-9]*\) instructions in.*/\1/p'; }
i1=$(count "$@")
i2=$(count "$@")
[ -n "$i1" ] && [ "$i1" = "$i2" ] || { echo "exec instruction counts differ: $i1 vs $i2"; exit 1; }

"$cs" run --env-fixed --no-report --config ooo4 --json "$dir/run1.json" "$@" >/dev/null 2>&1
"$cs" run --env-fixed --no-report --config ooo4 --json "$dir/run2.json" "$@" >/dev/null 2>&1
"$cs" trace record --env-fixed -o "$dir/threads.cst" "$@" >/dev/null 2>&1
"$cs" sim --no-report --config ooo4 --json "$dir/sim.json" "$dir/threads.cst" >/dev/null 2>&1
"$cs" stallscope --env-fixed --config ooo4 "$@" >"$dir/stallscope.txt" 2>&1
"$cs" rpstacks --env-fixed --config ooo4 --json "$dir/rpstacks.json" -o "$dir/threads.rps" "$@" >/dev/null 2>&1
"$cs" profile record --env-fixed --config ooo4 --period 5000 -o "$dir/threads.prof" "$@" >/dev/null 2>&1
rm -rf "$dir/simpoint"
"$cs" simpoint --env-fixed --interval 100000 -o "$dir/simpoint" "$@" >/dev/null 2>&1
"$cs" run --env-fixed --no-report --config ooo4 --simpoints "$dir/simpoint" --json "$dir/simpoint.json" "$@" >/dev/null 2>&1
[ -s "$dir/threads.prof" ] || { echo "profile record wrote nothing"; exit 1; }
python3 - "$dir" "$i1" <<'PY'
import json, re, sys
d, icount = sys.argv[1], int(sys.argv[2])
r1, r2, sim, sp = (json.load(open(f"{d}/{n}.json")) for n in ("run1", "run2", "sim", "simpoint"))
assert r1["cycles"] == r2["cycles"] and r1["instructions"] == r2["instructions"], (r1["cycles"], r2["cycles"])
assert r1["instructions"] == icount, ("run and exec retire different counts", r1["instructions"], icount)
assert sim["cycles"] == r1["cycles"] and sim["instructions"] == icount, (sim["cycles"], r1["cycles"])
# SimPoint's checkpoints (forks of the fast-forward) carry the threads: the same program length
assert sp["instructions"] == icount, ("simpoint", sp["instructions"], icount)
text = open(f"{d}/stallscope.txt").read()
lost = int(re.search(r"; (\d+) lost \(", text).group(1))
acc = re.search(r"accumulated (\d+) \(exact\)", text)
assert acc and int(acc.group(1)) == lost, ("stallscope", lost, acc and acc.group(1))
rp = json.load(open(f"{d}/rpstacks.json"))
assert rp["graph_cycles"] == rp["simulated_cycles"], (rp["graph_cycles"], rp["simulated_cycles"])
print(f"{icount} instructions twice; {r1['cycles']} cycles on ooo4 twice and from the trace; "
      f"stallscope {lost} lost = accumulated; rpstacks graph = {rp['simulated_cycles']} simulated cycles")
PY
