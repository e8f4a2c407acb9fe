#!/usr/bin/env bash
# Stallscope's JSON (tree, summaries, hot spots; the host time and command line dropped) from two
# cyclescope binaries on the same runs must be identical: a speed change must not change a
# result. Usage: stallscope_identity.sh REFERENCE_CYCLESCOPE NEW_CYCLESCOPE WORKLOAD_DIR [MAX]
# (build the reference from the commit before the change, e.g. with git worktree).
# Each program is recorded to a trace first: a live run is not repeatable from process to
# process (its cycle count moves a little), a trace is.
set -euo pipefail
ref=$1 new=$2 dir=$3 max=${4:-300000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
while read -r config prog arg; do
    "$new" trace record --max "$max" -o "$tmp/run.cst" "$dir/$prog" "$arg" >/dev/null 2>&1
    for which in ref new; do
        bin=$ref
        [ "$which" = new ] && bin=$new
        "$bin" stallscope --config "$config" --json "$tmp/$which.json" "$tmp/run.cst" >/dev/null
        grep -v -e '"seconds"' -e '"command"' "$tmp/$which.json" >"$tmp/$which.cut"
    done
    if cmp -s "$tmp/ref.cut" "$tmp/new.cut"; then
        echo "identical  $config $prog $arg"
    else
        echo "DIFFERENT  $config $prog $arg"
        fail=1
    fi
done <<'LIST'
rpstacks list 10000
rpstacks dep_add 10000
rpstacks sort 10000
rpstacks interp 250
rpstacks branch_random 4000
rpstacks ptr_chase 4
knl list 10000
inorder3 fft 2048
LIST
exit $fail
