#!/bin/bash
# simpoint_run.sh CYCLESCOPE WORKDIR PROG ARG
# run --simpoints against the full detailed run of the same program (the
# estimate's CPI within 3% on this small run: 14 intervals of 100 K), and
# sim --simpoints on a .cst of the same run giving the same estimate exactly.
set -euo pipefail
cs=$1 work=$2 prog=$3 arg=$4
rm -rf "$work" && mkdir -p "$work"
cd "$work"
# stdout to a file every time: glibc looks at it (a terminal or /dev/null takes
# another path) and the instruction streams must be the same
"$cs" simpoint --env-fixed --interval 100K -o sp "$prog" "$arg" >sp.out
"$cs" run --env-fixed --no-report --json full.json "$prog" "$arg" >full.out
"$cs" run --env-fixed --no-report --json est.json --simpoints sp --jobs 2 "$prog" "$arg" >est.out
"$cs" trace record --env-fixed -o run.cst "$prog" "$arg" >rec.out 2>&1
"$cs" simpoint --interval 100K -o spt run.cst >spt.out
"$cs" sim --no-report --json trace.json --simpoints spt --jobs 2 run.cst >trace.out
cpi() { sed -n 's/^\t"cpi":\t\(.*\),$/\1/p' "$1" | head -1; }
full=$(cpi full.json) est=$(cpi est.json) tr=$(cpi trace.json)
[ -n "$full" ] && [ -n "$est" ] && [ -n "$tr" ] || { echo "no CPI in the JSON"; exit 1; }
awk -v f="$full" -v e="$est" 'BEGIN { d = (e - f) / f; if (d < 0) d = -d; if (d > 0.03) { print "estimate " e " vs full " f; exit 1 } }'
[ "$est" = "$tr" ] || { echo "sim --simpoints on the trace: $tr, run --simpoints: $est"; exit 1; }
grep -q "SimPoint estimate from" est.out || { echo "no SimPoint summary"; exit 1; }
echo "ok: full CPI $full, SimPoint estimate $est (program) = $tr (trace)"
