#!/usr/bin/env bash
# stallscope_memory.sh CYCLESCOPE WORKLOAD_DIR [MAX] [CONFIG]
# Peak memory of a long run with Stallscope against the same run without it (issue 13: "peak
# memory <= 1.5x on a 100 M-instruction run, chain truncation on"; truncation, §6.3, is always
# on). Each run is its own process (`run --no-report`, the live emulator, --env-fixed), measured
# by /usr/bin/time: peak resident set (the guest's memory included, as in any run) and CPU time
# (user + sys). The workloads are the memory-heavy ones at sizes of about 100 M instructions
# (randaccess: a 32 MiB table, 113 M instructions in all; list 1000000: 106 M), timed up to MAX
# instructions. Prints a markdown table (docs/stallscope.md).
set -euo pipefail
cs=$1 wd=$2 max=${3:-100000000} cfg=${4:-ooo4}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
measure() { # analysis prog [arg]: "<peak KiB> <cpu s> <instructions>"
    local analysis=$1
    shift
    /usr/bin/time -f '%M %U %S' -o "$tmp/time" nice -n 10 "$cs" run --env-fixed --no-report --config "$cfg" \
        --max "$max" --analysis "$analysis" --json "$tmp/run.json" "$@" >/dev/null 2>"$tmp/err" || {
        cat "$tmp/err" >&2
        exit 1
    }
    awk -v n="$(jq '.instructions' "$tmp/run.json")" '{printf "%d %.2f %d", $1, $2 + $3, n}' "$tmp/time"
}
echo "| workload | config | instructions | none MB | stallscope MB | MB ratio | none s | stallscope s | time ratio |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
for w in "randaccess" "list 1000000"; do
    read -r kb0 s0 n0 <<<"$(measure none $wd/$w)"
    read -r kb1 s1 n1 <<<"$(measure stallscope $wd/$w)"
    [ "$n0" = "$n1" ] || echo "warning: $w timed $n0 and $n1 instructions" >&2
    awk -v w="$w" -v c="$cfg" -v n="$n0" -v a="$kb0" -v b="$kb1" -v x="$s0" -v y="$s1" 'BEGIN {
        printf "| %s | %s | %d | %.1f | %.1f | %.2fx | %.1f | %.1f | %.2fx |\n", w, c, n, a / 1024, b / 1024, b / a, x, y, y / x }'
done
