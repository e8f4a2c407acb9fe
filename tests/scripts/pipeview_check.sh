#!/bin/bash
# pipeview_check.sh CYCLESCOPE PROG [ARGS…]
# Runs PROG with --pipeview and checks the O3PipeView log: seven lines per
# instruction in gem5's order, ticks in multiples of 1000 that never go
# backwards within an instruction, one block per committed instruction.
set -u -o pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cs=$1
shift
"$cs" run --no-report --max 20000 --pipeview "$tmp/pipe.log" "$@" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
awk '
  BEGIN { want[0]="fetch"; want[1]="decode"; want[2]="rename"; want[3]="dispatch"; want[4]="issue"; want[5]="complete"; want[6]="retire" }
  {
    split($0, f, ":")
    if (f[1] != "O3PipeView") { print "line " NR ": not an O3PipeView line: " $0; bad = 1; exit 1 }
    k = (NR - 1) % 7
    if (f[2] != want[k]) { print "line " NR ": expected " want[k] ", got " f[2]; bad = 1; exit 1 }
    tick = f[3] + 0
    if (tick % 1000) { print "line " NR ": tick " tick " is not a whole cycle"; bad = 1; exit 1 }
    if (k == 0) { last = tick; if (f[4] !~ /^0x[0-9a-f]+$/) { print "line " NR ": bad pc " f[4]; bad = 1; exit 1 } n++ }
    else if (tick < last) { print "line " NR ": " f[2] " at " tick " before the previous stage at " last; bad = 1; exit 1 }
    else last = tick
  }
  END { if (!bad) { if (NR % 7 || n == 0) { print "truncated log: " NR " lines"; exit 1 } print n " instructions, all well-formed" } }
' "$tmp/pipe.log" || exit 1
# the run summary's "instructions" row
insns=$(awk '$1 == "instructions" { print $2; exit }' "$tmp/out")
blocks=$(( $(wc -l < "$tmp/pipe.log") / 7 ))
[ "$insns" = "$blocks" ] || { echo "log has $blocks instructions, the run committed $insns"; exit 1; }
