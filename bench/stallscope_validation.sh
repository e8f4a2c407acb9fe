#!/bin/bash
# stallscope_validation.sh CYCLESCOPE WORKLOAD_DIR [MAX] [CONFIG] [TOOCLOSE] [COMPLETION] [WARMUP]
# Causal validation of Stallscope by re-simulation (issue 13, check 4): for each workload,
# the share of the lost completion opportunities each idealisable leaf group gets, turned
# into cycles (lost opportunities / commit width), against the cycles actually saved by the
# machine with that knob on (ideal.bpred, ideal.dcache, ideal.icache, ideal.alu). Prints a
# markdown table (docs/stallscope.md) of every case whose group has >= 5% of the opportunities,
# with, beside it, the multi-stage CPI stacks' bounds for the same case (`stacks --validate`:
# the smallest and largest of the dispatch, issue and commit stacks' component, in cycles) and
# whether the cycles saved fall within them.
#
# The idealised run is analysed too, which splits the error exactly: both runs commit the same
# µops, so cycles = (committed + lost) / width and the cycles saved are the fall of the lost
# opportunities, leaf by leaf, over the width. predicted − saved is then the group's own
# residue in the idealised run plus, for every other leaf, its rise (a stall the removed one
# hid, uncovered: the paper's §8 secondary causes) or its fall (a stall that goes away with
# the removed one: the shared cycles). The last column lists the three largest of these terms,
# in cycles; "check" is their full sum against predicted − saved (equal: the split is exact).
# Every run gives the guest the fixed environment (--env-fixed): with ours, its stack and so its
# timing move with the caller's environment and the program's path. TOOCLOSE (leaf, the paper's
# rule, or window: the extension of docs/stallscope.md) is the analysis's tooclose option;
# COMPLETION (commit, or issue: the in-order machines measured at in-order issue) its
# completion option (empty: the analysis's default for the model). WARMUP (default 0, a cold
# start) is every run's --warmup: that many instructions first only warm the caches and
# predictors, then MAX are timed and analysed (docs/stallscope.md, "At a warmed point").
set -eu
cs=$1 wd=$2 max=${3:-300000} cfg=${4:-ooo4} tc=${5:-leaf} completion=${6:-} warmup=${7:-0}
ss() { "$cs" run --no-report --analysis "stallscope:tooclose=$tc${completion:+:completion=$completion}" "$@"; }
work=("sort 10000" "list 10000" "branch_random 4000" "ptr_chase 4" "interp 250" "matmul 4" "fft 2048" "hash 10000")
# a group is what the knob removes: the mispredicts' flushes; D-cache fills and the miss registers
# they hold; I-cache fills; the long latencies of multiplies, divides and FP operations
declare -A knob=([bpred]="flush/" [dcache]="exec/(dcache-miss|mshrs-full)" [icache]="fetch/icache-miss"
    [alu]="exec/long-executing-(int-mul|int-div|fp-)")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| workload | knob | leaf share of opportunities | predicted cycles | cycles saved | error | stacks bounds (cycles) | saved within | predicted − saved: largest terms (cycles, ideal − base) | check |"
echo "|---|---|---:|---:|---:|---:|---:|---|---|---:|"
for w in "${work[@]}"; do
    set -- $w
    name=$1 arg=$2
    ss --env-fixed --config "$cfg" --warmup "$warmup" --max "$max" --json "$tmp/base.json" "$wd/$name" "$arg" >/dev/null 2>&1
    base=$(jq '.cycles' "$tmp/base.json")
    opp=$(jq '.stallscope.opportunities' "$tmp/base.json")
    width=$(jq '.stallscope.opportunities / .stallscope.cycles' "$tmp/base.json")
    insns=$(jq '.instructions' "$tmp/base.json")
    "$cs" stacks --validate --env-fixed --config "$cfg" --warmup "$warmup" --max "$max" --no-report --json "$tmp/stacks.json" "$wd/$name" "$arg" \
        >/dev/null 2>&1
    for k in bpred dcache icache alu; do
        lost=$(jq --arg re "^(${knob[$k]})" '[.stallscope.leaf_summary | to_entries[] | select(.key | test($re)) | .value] | add // 0' "$tmp/base.json")
        share=$(echo "scale=4; 100 * $lost / $opp" | bc)
        if [ "$(echo "$share < 5" | bc)" = 1 ]; then continue; fi
        ss --env-fixed --config "$cfg" --set "ideal.$k=yes" --warmup "$warmup" --max "$max" --json "$tmp/ideal.json" \
            "$wd/$name" "$arg" >/dev/null 2>&1
        ideal=$(jq '.cycles' "$tmp/ideal.json")
        pred=$(echo "scale=1; $lost / $width" | bc)
        saved=$((base - ideal))
        # nothing saved: no relative error exists (a case outside whatever was predicted)
        if [ "$saved" != 0 ]; then err=$(echo "scale=1; 100 * ($pred - $saved) / $saved" | bc)%; else err="n/a (0 saved)"; fi
        lo=$(jq --arg k "$k" --argjson n "$insns" '.validation.cases[] | select(.id == $k) | .lo * $n | round' "$tmp/stacks.json")
        hi=$(jq --arg k "$k" --argjson n "$insns" '.validation.cases[] | select(.id == $k) | .hi * $n | round' "$tmp/stacks.json")
        within=$(if [ "$saved" -ge "$lo" ] && [ "$saved" -le "$hi" ]; then echo yes; else echo no; fi)
        # the split: per leaf, ideal − base in cycles; the group's leaves count their ideal residue
        terms=$(jq -r -n --slurpfile b "$tmp/base.json" --slurpfile i "$tmp/ideal.json" --arg re "^(${knob[$k]})" \
            --argjson w "$width" '
            ($b[0].stallscope.leaf_summary) as $B | ($i[0].stallscope.leaf_summary) as $I
            | ([$B, $I] | map(keys) | add | unique) as $keys
            | [$keys[] | . as $l | {leaf: $l,
                 d: ((if ($l | test($re)) then ($I[$l] // 0) else (($I[$l] // 0) - ($B[$l] // 0)) end) / $w)}]
            | (map(.d) | add) as $sum
            | (sort_by(-(.d | fabs)) | .[0:3] | map("\(.leaf) \(if .d >= 0 then "+" else "" end)\(.d | . * 10 | round / 10)") | join(", "))
              + " | \($sum | . * 10 | round / 10)"')
        echo "| $name $arg | $k | $share% | $pred | $saved | $err | $lo – $hi | $within | $terms |"
    done
done
