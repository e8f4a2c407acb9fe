#!/bin/bash
# whatif_verify_stdin.sh CYCLESCOPE OUTDIR CHUNK_READ
# `whatif --verify` re-simulates through the runner's pool, whose jobs read the caller's stdin
# when it is a file. A piped stdin is now kept in a file first, as every verb that runs the
# program more than once does (the jobs read /dev/null: the baseline took 64 093 cycles against
# the .rps' 839 968 and verify was refused). The .rps (version 5) records what the program read of
# a file stdin, its byte count and SHA-256: a stdin other than rpstacks' run had (no file, fewer
# bytes, other bytes) is refused before anything runs, one line, exit 2 (it was caught only by the
# baseline's cycles, after every point was simulated). rpstacks keeps a piped stdin in a file
# too, so a pipe there is recorded as well.
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
bytes=$(stat -c %s input.txt)
expect_stdin_error() { # INPUT REGEX
    local rc=0
    "$cs" whatif r.rps --set l1d.latency=6 --verify 1 --json refused.json <"$1" >refused.out 2>refused.err || rc=$?
    [ "$rc" = 2 ] || { echo "< $1: exit $rc, expected 2"; cat refused.err; exit 1; }
    [ "$(wc -l <refused.err)" = 1 ] && grep -Eq -- "$2" refused.err || { echo "< $1:"; cat refused.err; exit 1; }
    [ ! -s refused.out ] && [ ! -e refused.json ] || { echo "< $1: whatif printed or wrote"; cat refused.out; exit 1; }
    echo "ok: < $1: $(cat refused.err)"
}
# whatif says what the stacks were recorded from, the stdin's size and digest included
sha=$(sha256sum input.txt | cut -d' ' -f1)
"$cs" whatif r.rps --json info.json >info.out 2>&1 </dev/null || { cat info.out; exit 1; }
grep -q "^recorded from: program $prog -$" info.out && grep -q "^  stdin: a file of $bytes bytes, sha256 $sha$" info.out ||
    { echo "whatif does not say what the .rps was recorded from:"; cat info.out; exit 1; }
python3 - "$bytes" "$sha" "$prog" <<'PY' || exit 1
import json, sys
run = json.load(open("info.json"))["recorded_run"]
want = {"kind": "program", "path": sys.argv[3], "arguments": ["-"], "stdin": {"bytes": int(sys.argv[1]), "sha256": sys.argv[2]}}
bad = {k: run.get(k) for k in want if run.get(k) != want[k]}
if bad: sys.exit(f"recorded_run: {bad}, expected {want}")
PY
echo "ok: whatif names the recorded program and its stdin ($bytes bytes)"
expect_stdin_error /dev/null "^cyclescope: whatif: --verify: the analysed program read $bytes bytes of its stdin .*this stdin is no file"
head -c 100 input.txt >short.txt
expect_stdin_error short.txt "^cyclescope: whatif: --verify: stdin is not the input the analysed program read .*fewer bytes"
sed 's/line 7 /line 8 /' input.txt >other.txt
expect_stdin_error other.txt "^cyclescope: whatif: --verify: stdin is not the input the analysed program read .*other bytes"
# a trace's .rps reads no stdin: /dev/null is fine
"$cs" trace record -o t.cst "$prog" - <input.txt >/dev/null 2>&1
"$cs" rpstacks -o t.rps t.cst >/dev/null 2>&1
"$cs" whatif t.rps --set l1d.latency=6 --verify 1 </dev/null >/dev/null 2>trace.err || { cat trace.err; exit 1; }

# rpstacks given a pipe: kept in a file first, as whatif keeps its own, so the .rps records it and
# the same bytes piped to whatif re-run exactly (before, the recorded run read a pipe and every
# re-run a file: glibc's stdio took another path, the baseline's cycles differed and verify was
# refused, "give it the same" — as Dhrystone's `echo N |` was)
cat input.txt | "$cs" rpstacks -o piped.rps "$prog" - >/dev/null 2>piped-rps.err
grep -q "^cyclescope rpstacks: note: stdin is a pipe: its $bytes bytes were kept" piped-rps.err ||
    { echo "rpstacks: no note on the pipe"; cat piped-rps.err; exit 1; }
"$cs" whatif piped.rps </dev/null | grep -q "^  stdin: a file of $bytes bytes, sha256 $sha$" ||
    { echo "piped.rps: the stdin not recorded"; "$cs" whatif piped.rps </dev/null | head; exit 1; }
cat input.txt | "$cs" whatif piped.rps --set l1d.latency=6 --verify 1 --json piped2.json >/dev/null 2>piped2.err ||
    { echo "piped at rpstacks and at whatif:"; cat piped2.err; exit 1; }
got=$(simulated_cpi piped2.json)
[ "$got" = "$want" ] || { echo "piped at both: simulated CPI $got, from the file $want"; exit 1; }
rc=0
"$cs" whatif piped.rps --set l1d.latency=6 --verify 1 </dev/null >other.out 2>other.err || rc=$?
[ "$rc" = 2 ] && grep -q "this stdin is no file" other.err || { echo "</dev/null: exit $rc"; cat other.err; exit 1; }
echo "ok: a pipe at rpstacks is recorded; the same bytes piped to whatif re-run exactly; </dev/null refused"
