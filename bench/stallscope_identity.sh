#!/usr/bin/env bash
# Before/after for a Stallscope speed change, in one run: its JSON (tree, summaries, hot spots;
# the host time, command line, run date and commit dropped) from two cyclescope binaries on the
# same runs must be identical, and the CPU time of each (user + sys) is printed beside the run
# without the
# analysis (`sim`, the new binary).
# Usage: stallscope_identity.sh REFERENCE_CYCLESCOPE NEW_CYCLESCOPE WORKLOAD_DIR [MAX]
# (build the reference from the commit before the change, e.g. with git worktree).
# STALLSCOPE_OPTS="…" is passed to both binaries' stallscope runs, e.g. "--completion commit"
# to compare the in-order rows with a reference older than the in-order default (issue).
# Each program is recorded to a trace first: a live run is not repeatable from process to
# process (its cycle count moves a little), a trace is. The reference records it (a newer
# binary reads older traces).
set -euo pipefail
export LC_ALL=C # printf's %.Nf and awk's numbers: a decimal point in any locale
ref=$1 new=$2 dir=$3 max=${4:-300000}
read -r -a opts <<<"${STALLSCOPE_OPTS:-}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cpu() { # CPU seconds of one command, its output dropped
    /usr/bin/time -f '%U %S' -o "$tmp/time" "$@" >/dev/null
    awk '{printf "%.2f", $1 + $2}' "$tmp/time"
}
printf '%-9s %-22s %9s %9s %9s %8s %8s  %s\n' config workload 'none s' 'ref s' 'new s' ref/none new/none result
while read -r config prog arg; do
    "$ref" trace record --max "$max" -o "$tmp/run.cst" "$dir/$prog" "$arg" >/dev/null 2>&1
    none=$(cpu "$new" sim --no-report --config "$config" "$tmp/run.cst")
    tref=$(cpu "$ref" stallscope --config "$config" ${opts[@]+"${opts[@]}"} --json "$tmp/ref.json" "$tmp/run.cst")
    tnew=$(cpu "$new" stallscope --config "$config" ${opts[@]+"${opts[@]}"} --json "$tmp/new.json" "$tmp/run.cst")
    for which in ref new; do
        grep -v -e '"seconds"' -e '"command"' -e '"date"' -e '"cyclescope_commit"' "$tmp/$which.json" >"$tmp/$which.cut"
    done
    result=identical
    cmp -s "$tmp/ref.cut" "$tmp/new.cut" || { result=DIFFERENT; fail=1; }
    printf '%-9s %-22s %9s %9s %9s %7.2fx %7.2fx  %s\n' "$config" "$prog $arg" "$none" "$tref" "$tnew" \
        "$(echo "$tref / $none" | bc -l)" "$(echo "$tnew / $none" | bc -l)" "$result"
done <<'LIST'
ooo4 list 10000
ooo4 dep_add 10000
ooo4 sort 10000
ooo4 interp 250
ooo4 branch_random 4000
ooo4 ptr_chase 4
ooo4 matmul 4
ooo4 fp_chain 10000
ooo4 mul_chain 10000
knl list 10000
inorder3 fft 2048
inorder1 sort 10000
inorder1 dep_add 10000
inorder3 sort 10000
inorder3 matmul 4
LIST
exit $fail
