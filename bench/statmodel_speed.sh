#!/bin/bash
# statmodel_speed.sh BUILD_DIR [WORKLOAD ARG] [SIZES]
# The statistical model's speed (docs/statmodel.md, thesis Figures 5.5-5.7):
#  1. model time against trace length: the workload analysed at each size of
#     SIZES (instructions, default "1000000 10000000 100000000"); for each, the
#     analysis time, the model time of inorder3 (its default machine) and the
#     simulation time of the same µops (`run --analysis none`). CPU seconds
#     (user + system) of each process (the model: the least of three runs), and
#     the model's own solve time (wall).
#  2. a 20-machine sweep from the largest profile (FP pipe 5..1 stages x
#     D-cache 1, 4, 16, 64 KB) against one simulation.
# Prints a Markdown table; run with nice on a quiet machine.
set -eu
build=$1 wl=${2:-sort} arg=${3:-700000} sizes=${4:-"1000000 10000000 100000000"}
cs=$build/cyclescope prog=$build/workloads/$wl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cpu() { /usr/bin/time -f "%U %S" -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
        awk '{printf "%.2f", $1 + $2}' "$tmp/t"; }
echo "| instructions | analysis CPU s | model CPU s (solve s) | simulation CPU s | sequences |"
echo "|---:|---:|---:|---:|---:|"
last=""
for n in $sizes; do
    a=$(cpu nice -n 10 "$cs" model analyze --max "$n" -o "$tmp/p$n.smp" "$prog" "$arg")
    m=9999
    for r in 1 2 3; do # the least of three: the machine is shared
        t=$(cpu nice -n 10 "$cs" model solve --json "$tmp/m$n.json" "$tmp/p$n.smp")
        m=$(python3 -c "print(min($m, $t))")
    done
    s=$(cpu nice -n 10 "$cs" run --config inorder3 --max "$n" --analysis none --no-report "$prog" "$arg")
    read -r solve seq got < <(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('%.3f'%d['model_seconds'], d['sequences'], int(d['instructions_analysed']))" "$tmp/m$n.json")
    echo "| $got | $a | $m ($solve) | $s | $seq |"
    last=$n
done
g=$(cpu nice -n 10 "$cs" model solve --grid 'pipe.fp.stages=5,4,3,2,1 l1d.size=1K,4K,16K,64K' --json "$tmp/g.json" "$tmp/p$last.smp")
s=$(cpu nice -n 10 "$cs" run --config inorder3 --max "$last" --analysis none --no-report "$prog" "$arg")
python3 -c "
import json,sys
d=json.load(open(sys.argv[1])); p=d['points']
print()
print('20-machine sweep (FP pipe 5..1 stages x D-cache 1/4/16/64 KB) from the %d-instruction profile:' % p[0]['instructions_analysed'])
print('%d machines: %s CPU s for the whole sweep (solve %.2f s, at most %.3f s per machine); one simulation of the same instructions: %s CPU s' % (len(p), sys.argv[2], d['model_seconds'], max(x['model_seconds'] for x in p), sys.argv[3]))
" "$tmp/g.json" "$g" "$s"
