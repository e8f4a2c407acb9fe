#!/bin/bash
# whatif_verify_stdin.sh CYCLESCOPE OUTDIR CHUNK_READ
# `whatif --verify` re-simulates through the runner's pool, whose jobs read the caller's stdin
# when it is a file. A piped stdin is now kept in a file first, as every verb that runs the
# program more than once does (the jobs read /dev/null: the baseline took 64 093 cycles against
# the .rps' 839 968 and verify was refused). A stdin other than rpstacks' run had is refused by the
# baseline's cycles, and no simulated number is shown for the points then (the point's cycles
# from the other input were printed as its simulated CPI).
set -eu
cs=$1 out=$2 prog=$3
rm -rf "$out"
mkdir -p "$out"
cd "$out"
for i in $(seq 1 60); do echo "line $i of the program's input"; done >input.txt
"$cs" rpstacks -o r.rps "$prog" - <input.txt >/dev/null 2>&1
simulated_cpi() { python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["points"][0]; print(p.get("simulated_cpi", "none"))' "$1"; }
"$cs" whatif r.rps --set l1d.latency=6 --verify 1 --json file.json <input.txt >/dev/null 2>file.err ||
    { cat file.err; exit 1; }
want=$(simulated_cpi file.json)
[ "$want" != none ] || { echo "< FILE: no simulated CPI"; exit 1; }
cat input.txt | "$cs" whatif r.rps --set l1d.latency=6 --verify 1 --json piped.json >/dev/null 2>piped.err ||
    { echo "piped stdin:"; cat piped.err; exit 1; }
grep -q "^cyclescope whatif: note: stdin is a pipe" piped.err || { echo "no note on the pipe"; cat piped.err; exit 1; }
got=$(simulated_cpi piped.json)
[ "$got" = "$want" ] || { echo "piped: simulated CPI $got, from the file $want"; exit 1; }
echo "ok: piped and < FILE: simulated CPI $got"
rc=0
"$cs" whatif r.rps --set l1d.latency=6 --verify 1 --json other.json </dev/null >other.out 2>other.err || rc=$?
[ "$rc" = 125 ] || { echo "</dev/null: exit $rc, expected 125"; cat other.err; exit 1; }
grep -q "the baseline now takes .*or its input did (stdin" other.err || { cat other.err; exit 1; }
[ "$(simulated_cpi other.json)" = none ] || { echo "</dev/null: a simulated CPI shown"; exit 1; }
if grep -Eq "^  l1d.latency=6 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$" other.out; then
    echo "</dev/null: the table shows a simulated CPI:"; cat other.out; exit 1
fi
echo "ok: </dev/null refused, no simulated number"
