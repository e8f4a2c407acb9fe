#!/bin/bash
# profile_grade.sh CYCLESCOPE OUTDIR CONFIG[:POINT] PERIOD SEEDS "PROG ARGS" ["PROG ARGS"…]
# Records each program with the sampler and the truth (exact per-pc counts,
# true stall causes) at PERIOD for each seed in SEEDS (comma-separated; seeds
# joined by '+', e.g. 1+2+3, are recorded each and merged into one profile with
# `profile merge`, graded against their merged truths), at the sample point
# POINT when given (--sample-point), analyses the profile and grades it.
# Asserts the goals of issue 16 that the in-order one-pipe machine meets (frequency: >= 80% of samples within 5%,
# >= 92% within 10%, >= 95% within 15%; edges: >= 70% of executions within
# 10%) on the samples of all runs together; prints the culprit figures, not
# asserted: inorder1 has a few dozen true dynamic stall samples a row (docs/profile.md).
# PROFILE_GRADE_ASSERT=low asserts instead the issue's "nearly all samples off by more than
# 15% marked low confidence" (>= 95% of them), for machines whose single runs miss the others.
set -eu
export LC_ALL=C # printf's %.Nf and awk's numbers: a decimal point in any locale
cs=$1 out=$2 config=${3%%:*} period=$4 seeds=$5
point=()
[ "$3" != "$config" ] && point=(--sample-point "${3#*:}")
shift 5
mkdir -p "$out"
tot=0 w5=0 w10=0 w15=0 ew=0 e10=0 off=0 offlow=0
# "PROG ARGS…": the program is the shortest leading run of words that names a file, so that a
# checkout whose path holds a space still works; its arguments are the words after it
split_spec() {
    local words k
    read -r -a words <<<"$1"
    for ((k = 1; k <= ${#words[@]}; k++)); do
        prog_path="${words[*]:0:k}"
        prog_args=("${words[@]:k}")
        [ -f "$prog_path" ] && return 0
    done
    echo "no program in '$1'" >&2
    exit 1
}
for spec in "$@"; do
    split_spec "$spec"
    for seed in ${seeds//,/ }; do
        name=$(basename "$prog_path")_$seed
        runs=()
        for run in ${seed//+/ }; do
            "$cs" profile record --env-fixed --config "$config" ${point[@]+"${point[@]}"} --period "$period" \
                --sample-seed "$run" --truth "$out/${name}_$run.truth" -o "$out/${name}_$run.prof" "$prog_path" \
                ${prog_args[@]+"${prog_args[@]}"} >/dev/null 2>&1
            runs+=("$run")
        done
        if [ ${#runs[@]} = 1 ]; then
            mv "$out/${name}_$seed.prof" "$out/$name.prof"
            mv "$out/${name}_$seed.truth" "$out/$name.truth"
        else
            profs=() truths=()
            for run in "${runs[@]}"; do profs+=("$out/${name}_$run.prof") truths+=("$out/${name}_$run.truth"); done
            "$cs" profile merge "${profs[@]}" -o "$out/$name.prof" 2>/dev/null
            "$cs" profile merge "${truths[@]}" -o "$out/$name.truth" 2>/dev/null
        fi
        "$cs" profile report --truth "$out/$name.truth" "$out/$name.prof" 2>/dev/null | grep '^grade' >"$out/$name.grade"
        line=$(head -1 "$out/$name.grade")
        echo "$name: $line"
        sed -n 2,3p "$out/$name.grade"
        read -r s a b c l e ee < <(echo "$line" | sed -E 's/.*samples ([0-9.]+); frequency within 5% ([0-9.]+)%, 10% ([0-9.]+)%, 15% ([0-9.]+)%; off by >15% marked low ([0-9.]+)%;.*edges within 10% ([0-9.]+)% of ([0-9.]+) executions.*/\1 \2 \3 \4 \5 \6 \7/')
        tot=$(echo "$tot + $s" | bc -l)
        w5=$(echo "$w5 + $s * $a / 100" | bc -l)
        w10=$(echo "$w10 + $s * $b / 100" | bc -l)
        w15=$(echo "$w15 + $s * $c / 100" | bc -l)
        ew=$(echo "$ew + $ee" | bc -l)
        e10=$(echo "$e10 + $ee * $e / 100" | bc -l)
        off=$(echo "$off + $s * (100 - $c) / 100" | bc -l)
        offlow=$(echo "$offlow + $s * (100 - $c) / 100 * $l / 100" | bc -l)
    done
done
p5=$(echo "100 * $w5 / $tot" | bc -l) p10=$(echo "100 * $w10 / $tot" | bc -l)
p15=$(echo "100 * $w15 / $tot" | bc -l) pe=$(echo "100 * $e10 / $ew" | bc -l)
plow=$(echo "if ($off > 0) 100 * $offlow / $off else 100" | bc -l)
printf 'all: samples %.0f; within 5%% %.1f%%, 10%% %.1f%%, 15%% %.1f%%; off by >15%% marked low %.1f%%; edges within 10%% %.1f%%\n' \
    "$tot" "$p5" "$p10" "$p15" "$plow" "$pe"
ok=1
check() { # NAME VALUE MIN
    if [ "$(echo "$2 >= $3" | bc -l)" = 1 ]; then echo "met: $1 $(printf %.1f "$2")% >= $3%"; else echo "NOT MET: $1 $(printf %.1f "$2")% < $3%"; ok=0; fi
}
if [ "${PROFILE_GRADE_ASSERT:-}" = low ]; then
    check "off by >15% marked low" "$plow" 95
else
    check "frequency within 5%" "$p5" 80
    check "frequency within 10%" "$p10" 92
    check "frequency within 15%" "$p15" 95
    check "edges within 10%" "$pe" 70
fi
[ $ok = 1 ]
