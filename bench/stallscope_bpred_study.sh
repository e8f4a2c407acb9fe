#!/bin/bash
# stallscope_bpred_study.sh CYCLESCOPE WORKLOAD_DIR [WARMUP] [MAX] [PROG ARG]
# The paper's §7.2 on our machine: ooo4 with a bimodal predictor (A) and a TAGE-class one (B),
# the rest unchanged, on interp 250 by default, with the guest's fixed environment (with the
# caller's, the length of libc's start-up moves the window: see docs/stallscope.md). For each
# of A and B: cycles, branches and how many were predicted (the core's counters), then
# Stallscope's comparison (`stallscope --compare`) with the paper's rule and with the
# tooclose=window extension. The numbers of docs/stallscope.md's case study.
set -eu
cs=$1 wd=$2 warmup=${3:-1000000} max=${4:-1000000} prog=${5:-interp} arg=${6:-250}
wd=$(realpath "$wd") # the program's path is on the guest's stack: one path, one timing
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cs" config show ooo4 >"$tmp/base.ini"
for p in bimodal tage; do
    sed "/^\[bpred\]/,/^\[/ s/^type = .*/type = $p/" "$tmp/base.ini" >"$tmp/$p.ini"
    grep -q "^type = $p" "$tmp/$p.ini" || { echo "stallscope_bpred_study: no [bpred] type in ooo4" >&2; exit 2; }
done
run=(--warmup "$warmup" --max "$max" --env-fixed "$wd/$prog" "$arg")
for p in bimodal tage; do
    echo "== $p"
    "$cs" run --no-report --config "$tmp/$p.ini" "${run[@]}" 2>/dev/null |
        grep -E '^  (cycles|IPC|branch accuracy|cond. branch accuracy) '
done
for rule in paper window; do
    echo "== stallscope --tooclose $rule --compare bimodal tage"
    "$cs" stallscope --tooclose "$rule" --compare "$tmp/bimodal.ini" "$tmp/tage.ini" "${run[@]}" 2>/dev/null |
        grep -v -E ' [+]0$'
done
