#!/bin/bash
# The RpStacks accuracy, speed and sensitivity tables of docs/rpstacks.md.
#   bench/rpstacks_study.sh BUILD_DIR [MAX] [WARMUP] [accuracy|sensitivity|all] [BENCH OPTIONS…]
# Runs at nice 10 (the development machine is shared). MAX: µops per workload (default 200000),
# after WARMUP µops that only warm caches and predictors (default 300000: past the cold start).
set -eu
export LC_ALL=C # printf's %.Nf and awk's numbers: a decimal point in any locale
build=${1:?usage: rpstacks_study.sh BUILD_DIR [MAX]}
max=${2:-200000}
warmup=${3:-300000}
part=${4:-all}
shift $(($# < 4 ? $# : 4))
# the rest: options for every bench_rpstacks run (e.g. --max-stacks 64, the cap before the cap study;
# --config knl: the machine, for the runs and every re-simulation)
bench="nice -n 10 $build/bench/bench_rpstacks --jobs 2 --warmup $warmup $*"
if [ "$part" != sensitivity ]; then
echo "## Accuracy: every workload, $max µops after $warmup of warm-up (bench_rpstacks --warmup $warmup --max $max --markdown)"
echo
$bench --max "$max" --markdown --grid 10
echo
fi
[ "$part" = accuracy ] && exit 0
echo "## Sensitivity (RpStacks §V-D): fma, matmul, ptr_chase, sort, hash, $((max / 2)) µops after the warm-up"
echo
echo "| segment | similarity | uniqueness | cap per node | RpStacks avg | RpStacks max | stacks per segment (all) | analysis processor-s per M µops |"
echo "|---:|---:|---|---:|---:|---:|---:|---:|"
for params in "5000 0.7 event 6" "1000 0.7 event 6" "20000 0.7 event 6" "5000 0.5 event 6" "5000 0.9 event 6" \
    "5000 0.7 off 6" "5000 0.7 combination 6" "5000 0.7 event 64" "5000 0.7 event 3" "5000 0.7 event 1" \
    "5000 0.9 event 64" "5000 0.7 combination 64"; do
    set -- $params
    flags="--segment $1 --similarity $2 --unique $3 --max-stacks $4"
    out=$($bench --max $((max / 2)) $flags fma matmul ptr_chase sort hash)
    all=$(echo "$out" | grep '^| all')
    rps=$(echo "$all" | awk -F'|' '{print $5}')
    avg=$(echo "$rps" | awk -F'/' '{gsub(/ /,"",$1); print $1}')
    mx=$(echo "$rps" | awk -F'/' '{gsub(/ /,"",$2); print $2}')
    stacks=$(echo "$out" | grep -o '[0-9]* stacks in [0-9]* segments' | awk '{s+=$1; g+=$4} END {printf "%.1f", s/g}')
    speed=$(echo "$out" | grep -o 'analysis [0-9.]* processor-s' | awk '{print $2}')
    echo "| $1 | $2 | $3 | $4 | $avg | $mx | $stacks | $speed |"
done
