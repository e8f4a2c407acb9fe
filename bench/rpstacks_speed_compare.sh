#!/bin/bash
# The analysis' processor time and the peak memory (resident set of the whole process, GNU
# time) of two cyclescope binaries on the same runs, alternating per workload (the machine is
# shared), and how far apart their predictions are (RpStacks' CPI over a grid; identical when
# they agree to the last digit printed):
#   bench/rpstacks_speed_compare.sh OLD_CYCLESCOPE NEW_CYCLESCOPE WORKLOAD_DIR [MAX] [WARMUP] [FLAGS]
# FLAGS: more rpstacks options for both (e.g. '--unique combination').
# Prints one row per workload and binary, then the totals in processor-s per M µops.
set -eu
export LC_ALL=C # printf's %.Nf and awk's numbers: a decimal point in any locale
old=${1:?usage: rpstacks_speed_compare.sh OLD NEW WORKLOAD_DIR [MAX] [WARMUP]}
new=${2:?}
dir=${3:?}
max=${4:-200000}
warmup=${5:-300000}
flags=${6:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grid='l1d.latency=1..4 memory.latency=50,100,300 latency.fp-add=1..5 latency.int-mul=1,3'
echo "| workload | µops | old processor-s | new processor-s | old peak MB | new peak MB | predictions ($grid) |"
echo "|---|---:|---:|---:|---:|---:|---|"
tot_old=0 tot_new=0 tot_uops=0
for w in fma matmul ptr_chase sort hash coremark_like polybench_like; do
    row=()
    mem=()
    for b in old new; do
        bin=$old
        [ $b = new ] && bin=$new
        # shellcheck disable=SC2086
        out=$(nice -n 10 /usr/bin/time -f 'peak-kb %M' "$bin" rpstacks $flags --warmup "$warmup" --max "$max" \
            -o "$tmp/$b.rps" "$dir/$w" 2>&1)
        uops=$(echo "$out" | grep -o 'µops [0-9]*,' | head -1 | tr -dc 0-9)
        row+=("$(echo "$out" | grep -o 'processor [0-9.]* s' | awk '{print $2}')")
        mem+=("$(echo "$out" | awk '/^peak-kb/ {printf "%.1f", $2 / 1024}')")
        "$new" whatif "$tmp/$b.rps" --grid "$grid" --csv "$tmp/$b.csv" >/dev/null
    done
    points=$(($(wc -l <"$tmp/new.csv") - 1))
    same="identical ($points points)"
    if ! cmp -s "$tmp/old.csv" "$tmp/new.csv"; then
        col=$(head -1 "$tmp/new.csv" | tr ',' '\n' | grep -n '^rpstacks_cpi$' | cut -d: -f1)
        same=$(paste -d, <(cut -d, -f"$col" "$tmp/old.csv") <(cut -d, -f"$col" "$tmp/new.csv") | tail -n +2 |
            awk -F, -v n="$points" '{d = ($2 - $1) / $1; if (d < 0) d = -d; s += d; if (d > m) m = d}
                END {printf "differ: avg %.2f%%, max %.2f%% (%d points)", 100 * s / n, 100 * m, n}')
    fi
    echo "| $w | $uops | ${row[0]} | ${row[1]} | ${mem[0]} | ${mem[1]} | $same |"
    tot_old=$(echo "$tot_old + ${row[0]}" | bc -l)
    tot_new=$(echo "$tot_new + ${row[1]}" | bc -l)
    tot_uops=$((tot_uops + uops))
done
printf "| all | %d | %.2f s/M µops | %.2f s/M µops | | | |\n" "$tot_uops" "$(echo "$tot_old * 1000000 / $tot_uops" | bc -l)" \
    "$(echo "$tot_new * 1000000 / $tot_uops" | bc -l)"
