#!/bin/bash
# statmodel_program_gone.sh CYCLESCOPE OUTDIR PROG
# `model solve --compare-sim` runs the analysed program again from the path the
# profile recorded. When that program is gone or is no program any more, the
# refusal is one line naming the file and what is wrong (it was two: the
# emulator's error, then "cannot start … again"), exit 125. When it is another program now
# (replaced or rebuilt: the .smp, version 7, records the SHA-256 of what it analysed), it is
# refused naming the file — it was timed, with a warning at best. The same for a trace.
set -eu
cs=$1 out=$2 prog=$3
rm -rf "$out"
mkdir -p "$out"
cd "$out"
expect_error=$(dirname "$0")/expect_error.sh
cp "$prog" ./analysed
# (analysed with --env-fixed: without it the re-run, its stdout a file where the analysis had
# /dev/null, times a few dozen µops more or fewer, which solve refuses)
"$cs" model analyze --env-fixed -o a.smp ./analysed >/dev/null 2>&1
"$cs" model solve --compare-sim a.smp >/dev/null 2>solve.err || { cat solve.err; exit 1; }
# the SHA-256 recorded is sha256sum's of the program
want=$(sha256sum analysed | cut -c1-64)
"$cs" model info a.smp | grep -qx "program SHA-256: $want (--compare-sim refuses another file at its path)" ||
    { echo "model info: no SHA-256 $want"; "$cs" model info a.smp | head -5; exit 1; }
mv analysed analysed.moved
"$expect_error" 125 "^cyclescope: model solve: --compare-sim: $out/analysed: cannot open: No such file" \
    "$cs" model solve --compare-sim a.smp
echo 'not a program' >analysed
"$expect_error" 125 "^cyclescope: model solve: --compare-sim: $out/analysed: not the program the profile analysed" \
    "$cs" model solve --compare-sim a.smp
# replaced by another program: refused, not timed
cp "$(dirname "$prog")/segfault" analysed
"$expect_error" 125 "^cyclescope: model solve: --compare-sim: $out/analysed: not the program the profile analysed \(its SHA-256 differs" \
    "$cs" model solve --compare-sim a.smp
mv analysed.moved analysed
"$cs" model solve --compare-sim a.smp >/dev/null 2>solve.err || { cat solve.err; exit 1; }
# a trace rewritten since
"$cs" trace record -o t.cst ./analysed >/dev/null 2>&1
"$cs" model analyze -o t.smp t.cst >/dev/null 2>&1
"$cs" model solve --compare-sim t.smp >/dev/null 2>solve.err || { cat solve.err; exit 1; }
"$cs" trace record --max 1000 -o t.cst ./analysed >/dev/null 2>&1
"$expect_error" 125 "^cyclescope: model solve: --compare-sim: $out/t.cst: not the trace the profile analysed" \
    "$cs" model solve --compare-sim t.smp
echo ok
