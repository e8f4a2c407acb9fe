#!/bin/bash
# statmodel_cli.sh CYCLESCOPE OUTDIR WORKLOAD_DIR
# `cyclescope model` end to end on the sort workload (200 k instructions):
#  - one-pipe (inorder1) with none, loop, bimodal and perfect prediction: the
#    thesis found the monolithic chain exact (§3.4.3, Figures 3.7/3.8); here it
#    is within 1e-4 of the simulated IPC of the same µops (what is left: the
#    simulation's pipeline fill and drain, and that the next instruction's
#    probabilities are conditional on the last two instructions only);
#  - three-pipe (inorder3): the partitioned model runs and --compare-sim reports
#    an error (the accuracy itself is measured by bench/statmodel_accuracy.sh);
#  - a profile analysed from a .cst trace of the same run models the same IPC;
#  - a damaged profile is refused (checksum), as are an out-of-order config and TLBs.
set -eu
cs=$1 out=$2 wl=$3
mkdir -p "$out"
prof=$out/sort.smp
"$cs" model analyze --max 200000 -o "$prof" "$wl/sort" 10000 >/dev/null 2>&1
ipc() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['ipc'], d['simulated_ipc'])" "$1"; }
for pred in none static bimodal perfect; do
    "$cs" model solve --config inorder1 --set bpred.type=$pred --compare-sim --json "$out/one-$pred.json" "$prof" >/dev/null
    read -r m s < <(ipc "$out/one-$pred.json")
    python3 -c "import sys; m,s=float(sys.argv[1]),float(sys.argv[2]); sys.exit(0 if abs(m-s)<=1e-4*s else 1)" "$m" "$s" ||
        { echo "one-pipe $pred: modelled $m, simulated $s (must agree to 1e-4)"; exit 1; }
    echo "one-pipe $pred: modelled $m, simulated $s"
done
"$cs" model solve --config inorder3 --set bpred.type=none --set ideal.icache=yes --set ideal.dcache=yes \
    --compare-sim --json "$out/three.json" "$prof" >/dev/null
read -r m3 s3 < <(ipc "$out/three.json")
echo "three-pipe none: modelled $m3, simulated $s3"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d['components'])==5 and d['relaxation_rounds']>=2 and all(c['states']<=c['states_before_pruning'] for c in d['components'])" "$out/three.json"
# the analysis against the simulator's own counts on the same µops (Ch. 6, 7:
# the analyser runs the same predictors; stack distances give every LRU size)
"$cs" model info --json "$out/info.json" "$prof" >/dev/null
for case in "bimodal 16K" "static 4K" "bimodal 1K"; do
    set -- $case
    "$cs" run --config inorder3 --set bpred.type=$1 --set l1i.size=$2 --set l1d.size=$2 --max 200000 \
        --analysis none --no-report --json "$out/sim-$1-$2.json" "$wl/sort" 10000 >/dev/null 2>&1
    python3 - "$out/info.json" "$out/sim-$1-$2.json" "$1" "$2" <<'PY'
import json, sys
info, sim, pred, size = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3], sys.argv[4]
key = {"bimodal": "bimodal_512", "static": "static"}[pred]
nbytes = str(int(size[:-1]) * 1024)
got = (info["mispredicted"][key], info["cache_misses"][nbytes]["icache"], info["cache_misses"][nbytes]["dcache"],
       info["icache_lookups"], info["dcache_accesses"])
want = (sim["branches"]["mispredicts"], sim["caches"]["l1i"]["misses"], sim["caches"]["l1d"]["misses"],
        sim["caches"]["l1i"]["accesses"], sim["caches"]["l1d"]["accesses"])
print("analysis", got, "simulator", want, pred, size)
sys.exit(0 if got == want else 1)
PY
done
# a grid: Figure 5.7's FP depth sweep, one row per point, the report with the curve
"$cs" model solve --grid 'pipe.fp.stages=5,3,1' --set bpred.type=none --set ideal.icache=yes --set ideal.dcache=yes \
    --json "$out/grid.json" --report "$out/grid.html" "$prof" >/dev/null
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); p=d['points']; assert [x['settings'] for x in p]==['pipe.fp.stages=5','pipe.fp.stages=3','pipe.fp.stages=1'], p" "$out/grid.json"
grep -q "<svg" "$out/grid.html"
if grep -qi "<script" "$out/grid.html"; then echo "grid.html has a script" >&2; exit 1; fi
# the same µops from a trace file
"$cs" trace record --max 200000 -o "$out/sort.cst" "$wl/sort" 10000 >/dev/null 2>&1
"$cs" model analyze -o "$out/sort-trace.smp" "$out/sort.cst" 2>/dev/null
"$cs" model solve --config inorder3 --set bpred.type=none --set ideal.icache=yes --set ideal.dcache=yes \
    --json "$out/three-trace.json" "$out/sort-trace.smp" >/dev/null
python3 -c "import json,sys; a=json.load(open(sys.argv[1]))['ipc']; b=json.load(open(sys.argv[2]))['ipc']; sys.exit(0 if a==b else 1)" \
    "$out/three.json" "$out/three-trace.json" || { echo "profile from the trace models another IPC"; exit 1; }
# a damaged profile
cp "$prof" "$out/bad.smp"
printf '\x55' | dd of="$out/bad.smp" bs=1 seek=300 conv=notrunc 2>/dev/null
"$(dirname "$0")/expect_error.sh" 125 "bad.smp: checksum mismatch" "$cs" model solve "$out/bad.smp"
"$(dirname "$0")/expect_error.sh" 2 "ooo4: an out-of-order machine is not modelled.*configurations they model: inorder1, inorder3" "$cs" model solve --config ooo4 "$prof"
"$(dirname "$0")/expect_error.sh" 2 "TLBs .* are not modelled" "$cs" model solve --set dtlb.entries=16 "$prof"
"$(dirname "$0")/expect_error.sh" 125 "component issue: more than 10 states" "$cs" model solve --max-states 10 "$prof"
echo ok
