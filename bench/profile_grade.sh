#!/bin/bash
# bench/profile_grade.sh [--quick] [--doc docs/profile.md] — the DCPI analysis graded against the truth
# (issue 16; the paper's Figures 8 and 9): for each machine (inorder1, inorder3, ooo4
# as the out-of-order one), each sampling period and each seed, every workload below is
# recorded with the truth (exact per-pc counts, true stall causes), analysed and graded.
# Prints a Markdown table per machine and period, samples of all workloads and seeds
# pooled (true dynamic stall samples and dynamic stall cycles found: sums; unexplained: the share
# of all their estimated dynamic stall cycles, and — the paper's §7 measure — of all the
# cycles sampled; "all marked low": the share of all samples at low confidence, the price of
# marking the off ones), and the spread
# of "within 10%" over the seeds; then a row with each workload's seeds merged into one
# profile (`profile merge`) and graded against the merged truths; with --doc, writes the table
# into the document between the markers <!-- profile-grade begin/end -->.
# PROFILE_GRADE_CONFIGS="ooo4 ooo4:commit-slot" grades those machines only (NAME:POINT records with
# --sample-point POINT; the default "inorder1 inorder3 ooo4 ooo4:commit-slot" is every machine at its
# default point and ooo4 at the commit slots too: the rows docs/profile.md holds).
# Run from the build directory (needs ./cyclescope and workloads/).
set -eu
export LC_ALL=C # printf's %.Nf and awk's numbers: a decimal point in any locale
. "$(dirname "$0")/profile_common.sh"
profile_bench_options "$0 [--quick] [--doc FILE]" 1 "$@"
workloads=("sort 10000" "hash 10000" "list 10000" "tree 5000" "interp 250" "matmul 4" "fft 2048" "strsearch 12000")
read -r -a configs <<<"${PROFILE_GRADE_CONFIGS:-inorder1 inorder3 ooo4 ooo4:commit-slot}"
periods=(100 300 1000)
seeds=(1 2 3)
if [ $quick = 1 ]; then workloads=("sort 10000" "tree 5000"); periods=(100); seeds=(1); fi
table=$out/table.md
{
    echo "| machine | period | samples | within 5% | within 10% | within 15% | >15% marked low | all marked low | edges within 10% | true dynamic stall samples | culprit coverage | stalls found | dynamic stall cycles found | unexplained | unexplained of all cycles | within 10% over seeds (min–max) |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
} >"$table"
for machine in "${configs[@]}"; do
    config=${machine%%:*} point=()
    [ "$machine" != "$config" ] && point=(--sample-point "${machine#*:}")
    for period in "${periods[@]}"; do
        : >"$out/rows"
        for seed in "${seeds[@]}"; do
            : >"$out/seedrows"
            for w in "${workloads[@]}"; do
                set -- $w
                f=$out/$1_${config}_${period}_$seed
                nice -n 10 $cs profile record --env-fixed --config "$config" ${point[@]+"${point[@]}"} --period "$period" --sample-seed "$seed" \
                    --truth "$f.truth" -o "$f.prof" "workloads/$1" "$2" >/dev/null 2>&1
                $cs profile report --truth "$f.truth" --json "$f.json" "$f.prof" >/dev/null 2>&1
                # samples w5 w10 w15 off15-low edge-execs edges-w10 stall-samples coverage stalls-found unexplained dyn-cycles
                jq -r '. as $r | .grade | [.samples, .within5, .within10, .within15, .off15_marked_low, .edge_executions,
                       .edges_within10, .stall_samples, .culprit_coverage, .stalls_found, .unexplained,
                       .dynamic_stall_cycles, ([$r.procedures[].instructions[] | select(.confidence == "low") | .samples] | add)] | @tsv' \
                    "$f.json" | tee -a "$out/rows" >>"$out/seedrows"
                echo "$machine $period $seed $1: $(tail -1 "$out/rows")" >&2
            done
            awk -F'\t' '{s+=$1; w10+=$1*$3} END {printf "%.1f\n", s ? 100*w10/s : 0}' "$out/seedrows" >>"$out/seedw10"
        done
        spread=$(sort -n "$out/seedw10" | awk 'NR==1{a=$1} {b=$1} END {printf "%s–%s%%", a, b}')
        rm -f "$out/seedw10"
        # the same runs with each workload's seeds merged into one profile (profile merge:
        # DCPI accumulates samples across runs), graded against their merged truths
        : >"$out/merged"
        if [ ${#seeds[@]} -gt 1 ]; then
            for w in "${workloads[@]}"; do
                set -- $w
                f=$out/$1_${config}_$period
                $cs profile merge $(for s in "${seeds[@]}"; do echo "${f}_$s.prof"; done) -o "$f.prof" 2>/dev/null
                $cs profile merge $(for s in "${seeds[@]}"; do echo "${f}_$s.truth"; done) -o "$f.truth" 2>/dev/null
                $cs profile report --truth "$f.truth" --json "$f.json" "$f.prof" >/dev/null 2>&1
                jq -r '. as $r | .grade | [.samples, .within5, .within10, .within15, .off15_marked_low, .edge_executions,
                       .edges_within10, .stall_samples, .culprit_coverage, .stalls_found, .unexplained,
                       .dynamic_stall_cycles, ([$r.procedures[].instructions[] | select(.confidence == "low") | .samples] | add)] | @tsv' "$f.json" >>"$out/merged"
            done
        fi
        for rows in rows merged; do
            [ -s "$out/$rows" ] || continue
            label=$config
            [ "$machine" != "$config" ] && label="$config (${machine#*:})"
            [ $rows = merged ] && { label="$label, ${#seeds[@]} runs merged"; spread="–"; }
            awk -F'\t' -v m="$label" -v p="$period" -v sp="$spread" '
                { s+=$1; w5+=$1*$2; w10+=$1*$3; w15+=$1*$4; off+=$1*(1-$4); ol+=$1*(1-$4)*$5
                  ex+=$6; e10+=$6*$7; st+=$8; cov+=$8*$9; det+=$8*$10; un+=$11*$12; dy+=$12; lo+=$13; n++ }
                END { printf "| %s | %d | %d | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %d | %.1f%% | %.1f%% | %d | %.1f%% | %.3f%% | %s |\n",
                      m, p, s, 100*w5/s, 100*w10/s, 100*w15/s, off ? 100*ol/off : 100, 100*lo/s, 100*e10/ex, st, st ? 100*cov/st : 100,
                      st ? 100*det/st : 100, dy, dy ? 100*un/dy : 0, 100*un/(s*p), sp }' "$out/$rows" >>"$table"
        done
    done
done
cat "$table"
if [ -n "$doc" ]; then profile_bench_write_doc "$doc" "$table" profile-grade; fi
