#!/usr/bin/env bash
# profile_jump_table.sh CYCLESCOPE OUTDIR PROG FUNCTION:EDGES...
# Records PROG's profile on inorder1 (period 100, with the emulator's truth) and, for each
# FUNCTION, checks that its procedure is not missing edges and that its frequencies grade
# within 10% for at least 90% of the samples; EDGES is the number of edges of its widest jump
# (the jump table's targets), or `tail`: exactly one edge to the exit (a tail jump), or
# `missing`: a guard, the procedure must be missing edges (nothing else checked).
set -eu
cs=$1 out=$2 prog=$3
shift 3
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$out"
"$cs" profile record --env-fixed --config inorder1 --period 100 --truth "$out/j.truth" -o "$out/j.prof" "$prog" \
    >/dev/null 2>&1 || fail "profile record $prog"
for spec in "$@"; do
    fn=${spec%:*} edges=${spec#*:}
    "$cs" profile report --function "$fn" --truth "$out/j.truth" --json "$out/$fn.json" "$out/j.prof" >/dev/null 2>&1 ||
        fail "profile report --function $fn"
    if [ "$edges" = missing ]; then
        jq -e '.procedures[0].missing_edges == true' "$out/$fn.json" >/dev/null || fail "$fn: not missing edges"
        continue
    elif [ "$edges" = tail ]; then
        jq -e '.procedures[0] | .missing_edges == false and ([.edges[] | select(.to == "exit")] | length) == 1' \
            "$out/$fn.json" >/dev/null || fail "$fn: missing edges, or not one edge to the exit"
    else
        jq -e --argjson n "$edges" \
            '.procedures[0] | .missing_edges == false and ([.edges | group_by(.from)[] | length] | max) == $n' \
            "$out/$fn.json" >/dev/null || fail "$fn: missing edges, or its widest jump has not $edges edges"
    fi
    jq -e '.grade.within10 >= 0.9' "$out/$fn.json" >/dev/null || fail "$fn: under 90% of the samples within 10%"
done
echo "ok: $*"
