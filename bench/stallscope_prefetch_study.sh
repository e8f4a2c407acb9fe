#!/bin/bash
# stallscope_prefetch_study.sh CYCLESCOPE WORKLOAD_DIR [MAX] [CONFIG]
# The paper's prefetching paradox (§7.3) on our machines: each workload with a prefetcher off
# (A) and on (B), the rest of CONFIG unchanged — the next-line I-cache prefetcher and, as a
# second row, the next-line D-cache one. Per case: L1I (or L1D) demand misses, IPC, the
# I-cache (or D-cache) miss leaves' lost cycles (lost opportunities / commit width), and the
# three leaves whose lost cycles moved most from A to B (the pathways), as a markdown table
# (docs/stallscope.md). `cyclescope stallscope --compare A.ini B.ini PROG` shows a case whole.
set -eu
cs=$1 wd=$2 max=${3:-1000000} cfg=${4:-ooo4}
work=("sort 10000" "list 10000" "branch_random 4000" "ptr_chase 4" "interp 250" "matmul 4" "fft 2048" "hash 10000"
    "coremark_like 1" "embench_like 1" "tree 2000" "strsearch 2000")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cs" config show "$cfg" >"$tmp/base.ini"
for k in icache_next_line dcache_next_line; do
    grep -q "^$k = no" "$tmp/base.ini" || { echo "stallscope_prefetch_study: $cfg has $k on already" >&2; exit 2; }
    sed "/^\[prefetch\]/,/^\[/ s/^$k = no/$k = yes/" "$tmp/base.ini" >"$tmp/$k.ini"
done
echo "| workload | prefetcher | demand misses A → B | IPC A → B | miss leaves' lost cycles A → B | largest moves (lost cycles B − A) |"
echo "|---|---|---:|---:|---:|---|"
for w in "${work[@]}"; do
    set -- $w
    name=$1 arg=$2
    [ -x "$wd/$name" ] || continue
    "$cs" stallscope --config "$tmp/base.ini" --max "$max" --no-report --json "$tmp/a.json" "$wd/$name" "$arg" \
        >/dev/null 2>&1
    for k in icache_next_line dcache_next_line; do
        "$cs" stallscope --config "$tmp/$k.ini" --max "$max" --no-report --json "$tmp/b.json" "$wd/$name" "$arg" \
            >/dev/null 2>&1
        case $k in
        icache_next_line) cache=l1i re='^fetch/icache-miss' label="next-line I" ;;
        *) cache=l1d re='^exec/dcache-miss' label="next-line D" ;;
        esac
        row=$(jq -rn --slurpfile a "$tmp/a.json" --slurpfile b "$tmp/b.json" --arg c "$cache" --arg re "$re" '
            def width(j): j.stallscope.opportunities / j.stallscope.cycles;
            def cyc(j; v): (v / width(j) * 10 | round) / 10;
            def leaves(j): j.stallscope.leaf_summary;
            def grp(j): cyc(j; [leaves(j) | to_entries[] | select(.key | test($re)) | .value] | add // 0);
            ($a[0]) as $A | ($b[0]) as $B
            | ([(leaves($A) + leaves($B)) | keys[]] | unique
               | map({k: ., d: (cyc($B; leaves($B)[.] // 0) - cyc($A; leaves($A)[.] // 0))})
               | sort_by(-(.d | fabs)) | .[0:3]
               | map("\(.k) \(if .d >= 0 then "+" else "" end)\((.d * 10 | round) / 10)") | join(", ")) as $moves
            | "\($A.caches[$c].misses) → \($B.caches[$c].misses) | \($A.ipc * 1000 | round / 1000) → \($B.ipc * 1000 | round / 1000) | \(grp($A)) → \(grp($B)) | \($moves)"')
        echo "| $name $arg | $label | $row |"
    done
done
