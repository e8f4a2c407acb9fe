#!/bin/bash
# max_whole_instructions.sh CYCLESCOPE OUTDIR CHAMPSIM_FILE
# --max counts instructions, and the last one is timed whole: on an imported x86 ChampSim trace
# (instructions of one to three µops), `sim --max N` times exactly the µops of the trace's first N
# instructions (counted in `trace dump`, where a continuation µop is marked `+`), for every N;
# `model analyze --max N` analyses the same µops and `model solve --compare-sim` times them again
# (simulated µops = the profile's, no warning).
set -eu
cs=$1 out=$2 champsim=$3
rm -rf "$out" && mkdir -p "$out"
"$cs" trace import-champsim "$champsim" -o "$out/x.cst" 2>/dev/null
"$cs" trace dump "$out/x.cst" >"$out/dump"
total=$(grep -cv '^ *[0-9]*+ ' "$out/dump")
split=$(grep -c '^ *[0-9]*+ ' "$out/dump")
[ "$split" -gt 0 ] || { echo "no instruction of several µops in $champsim"; exit 1; }
for n in $(seq 1 "$total"); do
    want=$(awk -v n="$n" '$1 !~ /\+$/ { i++ } i <= n { c++ } END { print c }' "$out/dump")
    "$cs" sim --no-report --config inorder3 --max "$n" --analysis none --json "$out/r.json" "$out/x.cst" >/dev/null 2>&1
    got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["uops"])' "$out/r.json")
    [ "$got" = "$want" ] || { echo "sim --max $n timed $got µops, the first $n instructions have $want"; exit 1; }
done
n=$((total * 2 / 3))
"$cs" model analyze --max "$n" -o "$out/x.smp" "$out/x.cst" >/dev/null 2>&1
"$cs" model solve --compare-sim --json "$out/s.json" "$out/x.smp" >/dev/null 2>"$out/err"
if grep -q warning "$out/err"; then cat "$out/err"; exit 1; fi
want=$(awk -v n="$n" '$1 !~ /\+$/ { i++ } i <= n { c++ } END { print c }' "$out/dump")
python3 - "$out/s.json" "$want" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); want = int(sys.argv[2])
print("analysed", s["instructions_analysed"], "simulated", s["simulated_uops"], "µops of the first instructions", want)
sys.exit(0 if s["instructions_analysed"] == s["simulated_uops"] == want else 1)
PY
echo "ok: $total instructions, $split continuation µops"
