#!/bin/bash
# statmodel_program_gone.sh CYCLESCOPE OUTDIR PROG
# `model solve --compare-sim` runs the analysed program again from the path the
# profile recorded. When that program is gone or is no program any more, the
# refusal is one line naming the file and what is wrong (it was two: the
# emulator's error, then "cannot start … again"), exit 125.
set -eu
cs=$1 out=$2 prog=$3
rm -rf "$out"
mkdir -p "$out"
cd "$out"
expect_error=$(dirname "$0")/expect_error.sh
cp "$prog" ./analysed
"$cs" model analyze -o a.smp ./analysed >/dev/null 2>&1
"$cs" model solve --compare-sim a.smp >/dev/null 2>solve.err || { cat solve.err; exit 1; }
mv analysed analysed.moved
"$expect_error" 125 "^cyclescope: model solve: --compare-sim: $out/analysed: cannot open: No such file" \
    "$cs" model solve --compare-sim a.smp
echo 'not a program' >analysed
"$expect_error" 125 "^cyclescope: model solve: --compare-sim: $out/analysed: not an ELF file" \
    "$cs" model solve --compare-sim a.smp
echo ok
