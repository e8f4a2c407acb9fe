#!/bin/bash
# memsys_before_after.sh [--rounds R] [--config NAME] [--old COMMIT] [--ir] [NAME[:ARG]…]
#
# The timing model's speed before and after the memory system of issue 12:
# bench_uarch (simulated M instructions per second, no observer, best of five)
# built from COMMIT (default 6a5deb2, the main this work started from) and from
# this tree, on the same workload binaries, alternated for R rounds (default 3);
# each figure is the best of all its runs, and the ratios come from this one
# run. Each build reads its own configs/ (the old one has no new knobs).
# Workloads: bench_uarch's defaults unless named. With --ir, also host
# instructions of `cyclescope run --max 500000` of each workload under valgrind
# (callgrind), which do not depend on the machine's load (the emulator's share
# included).
#
# Builds the old bench_uarch once into BUILD/memsys-base (BUILD: $BUILD or build).
set -euo pipefail
export LC_ALL=C # printf's %.Nf and awk's numbers: a decimal point in any locale
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath "${BUILD:-$root/build}")
rounds=3 config=ooo4 old=6a5deb2 ir=0
items=()
while [ $# -gt 0 ]; do
    case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --config) config=$2; shift 2 ;;
    --old) old=$2; shift 2 ;;
    --ir) ir=1; shift ;;
    *) items+=("$1"); shift ;;
    esac
done
[ ${#items[@]} -gt 0 ] || items=(sort matmul list dep_add branch_random)
base=$build/memsys-base
if [ ! -x "$base/build/bench/bench_uarch" ] || [ ! -x "$base/build/cyclescope" ]; then
    echo "building $old into $base …" >&2
    rm -rf "$base" && mkdir -p "$base/src"
    git -C "$root" archive "$old" | tar -x -C "$base/src"
    cmake -S "$base/src" -B "$base/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build "$base/build" -j2 --target bench_uarch cyclescope >/dev/null
fi
new=$build/bench/bench_uarch
[ -x "$new" ] || { echo "build $new first (cmake --build $build --target bench_uarch)" >&2; exit 1; }
wdir=$build/workloads

# M instructions/s of one workload (no observer), from bench_uarch's table
speed() { "$1" --config "$config" "$wdir" "$2" | awk 'NR > 2 && NF == 5 { print $3; exit }'; }
max() { awk -v a="$1" -v b="$2" 'BEGIN { print (a > b ? a : b) }'; }

echo "configuration $config; bench_uarch (M simulated instructions/s, no observer), best of $rounds rounds x 5 runs"
echo "old = $old, new = this build"
echo
echo "| workload | old | new | new/old |"
echo "|---|---:|---:|---:|"
log_sum=0
for item in "${items[@]}"; do
    o=0 n=0
    for ((r = 0; r < rounds; r++)); do
        o=$(max "$o" "$(speed "$base/build/bench/bench_uarch" "$item")")
        n=$(max "$n" "$(speed "$new" "$item")")
    done
    ratio=$(awk -v a="$n" -v b="$o" 'BEGIN { printf "%.3f", a / b }')
    log_sum=$(awk -v s="$log_sum" -v r="$ratio" 'BEGIN { print s + log(r) }')
    echo "| $item | $o | $n | $ratio |"
done
awk -v s="$log_sum" -v k="${#items[@]}" 'BEGIN { printf "\ngeometric mean new/old: %.3f\n", exp(s / k) }'
[ $ir = 1 ] || exit 0
# host instructions: each build with its own configuration file of that name
ir_of() { # CYCLESCOPE CONFIG NAME
    (cd "$wdir" && valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" run --env-fixed --config "$2" \
        --no-report --analysis none --max 500000 "./$3" 2>&1 >/dev/null) | awk '/Collected :/ { print $NF }'
}
echo
echo "| workload | old host instructions | new | new/old |"
echo "|---|---:|---:|---:|"
log_sum=0
for item in "${items[@]}"; do
    name=${item%%:*}
    o=$(ir_of "$base/build/cyclescope" "$base/src/configs/$config.ini" "$name")
    n=$(ir_of "$build/cyclescope" "$root/configs/$config.ini" "$name")
    ratio=$(awk -v a="$n" -v b="$o" 'BEGIN { printf "%.3f", a / b }')
    log_sum=$(awk -v s="$log_sum" -v r="$ratio" 'BEGIN { print s + log(r) }')
    echo "| $name | $o | $n | $ratio |"
done
awk -v s="$log_sum" -v k="${#items[@]}" 'BEGIN { printf "\ngeometric mean new/old host instructions: %.3f\n", exp(s / k) }'
