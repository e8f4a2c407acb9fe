#!/bin/bash
# statmodel_compare_stdin.sh CYCLESCOPE OUTDIR CHUNK_READ
# `model solve --compare-sim` runs the analysed program again, once per machine. Each re-run is
# a job of the runner's pool, as every verb that runs a program again: its own stdout is not
# solve's (it was printed among solve's tables) and its stdin is the caller's file, read from
# where the caller stood by every point (the second grid point read nothing: 22 thousand µops
# timed against a profile of a million, a wrong IPC with a warning). The profile (version 8)
# records what the analysed program read of a file stdin; solve refuses a stdin that does not
# hold those bytes (it timed another run), and takes a pipe as the pooled verbs do (kept in a
# file first).
set -eu
cs=$1 out=$2 prog=$3
rm -rf "$out"
mkdir -p "$out"
cd "$out"
for i in $(seq 1 300); do echo "line $i of the analysed program's input"; done >input.txt
"$cs" model analyze -o in.smp "$prog" - <input.txt >analyze.out 2>/dev/null
guest_line=$(cat analyze.out) # "read N bytes, hash H": what the program prints
bytes=$(stat -c %s input.txt)
want_sha=$(sha256sum input.txt | cut -c1-64)
"$cs" model info in.smp | grep -qx "guest stdin: a file, $bytes bytes read, SHA-256 $want_sha (--compare-sim needs the same input)" ||
    { echo "model info: no stdin of $bytes bytes, $want_sha"; "$cs" model info in.smp | head -6; exit 1; }
instructions=$("$cs" model info --json - in.smp 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["instructions"])')

# two machines, the program re-run for each from the same file
"$cs" model solve --config inorder1 --compare-sim --grid 'l1d.latency=0,2' --json solve.json in.smp \
    <input.txt >solve.out 2>solve.err || { cat solve.err; exit 1; }
if grep -qF "$guest_line" solve.out solve.err; then
    echo "the re-runs' own output is among solve's:"; cat solve.out; exit 1
fi
if grep -q warning solve.err; then cat solve.err; exit 1; fi
python3 - "$instructions" solve.json <<'PY'
import json, sys
want = int(sys.argv[1])
points = json.load(open(sys.argv[2]))["points"]
timed = [p["simulated_uops"] for p in points]
if len(timed) != 2 or any(t != want for t in timed):
    sys.exit(f"the re-runs timed {timed} µops; the profile holds {want}")
print(f"ok: both points timed the analysed {want} µops")
PY

# a pipe holding the same bytes: kept in a file, then the same as < FILE
cat input.txt | "$cs" model solve --config inorder1 --compare-sim --json piped.json in.smp >/dev/null 2>piped.err ||
    { cat piped.err; exit 1; }
timed=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["simulated_uops"])' piped.json)
[ "$timed" = "$instructions" ] || { echo "piped: $timed µops timed, the profile holds $instructions"; exit 1; }

# a pipe at analyze too: kept in a file first, so the profile records it and a piped re-run is
# exact (before, the analysed run read a pipe and the re-run a file: glibc's stdio took another
# path, a few instructions more or less, and --compare-sim was refused)
cat input.txt | "$cs" model analyze -o piped.smp "$prog" - >/dev/null 2>piped-analyze.err
grep -q "^cyclescope model analyze: note: stdin is a pipe: its $bytes bytes were kept" piped-analyze.err ||
    { echo "analyze: no note on the pipe"; cat piped-analyze.err; exit 1; }
"$cs" model info piped.smp | grep -qx "guest stdin: a file, $bytes bytes read, SHA-256 $want_sha (--compare-sim needs the same input)" ||
    { echo "piped analyze: stdin not recorded"; "$cs" model info piped.smp | head -6; exit 1; }
cat input.txt | "$cs" model solve --config inorder1 --compare-sim --json piped2.json piped.smp >/dev/null 2>piped2.err ||
    { cat piped2.err; exit 1; }
timed=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["simulated_uops"])' piped2.json)
[ "$timed" = "$instructions" ] || { echo "piped at both: $timed µops timed, the profile holds $instructions"; exit 1; }
echo "ok: a pipe at analyze is recorded and re-runs exactly"

# another stdin: refused before anything runs, one line, exit 2
expect_stdin_error() { # INPUT REGEX
    local rc=0
    "$cs" model solve --config inorder1 --compare-sim in.smp <"$1" >refused.out 2>refused.err || rc=$?
    [ "$rc" = 2 ] || { echo "< $1: exit $rc, expected 2"; cat refused.err; exit 1; }
    [ "$(wc -l <refused.err)" = 1 ] && grep -Eq -- "$2" refused.err || { echo "< $1:"; cat refused.err; exit 1; }
    [ ! -s refused.out ] || { echo "< $1: solve printed"; cat refused.out; exit 1; }
    echo "ok: < $1: $(cat refused.err)"
}
expect_stdin_error /dev/null "^cyclescope: model solve: --compare-sim: the analysed program read $bytes bytes of its stdin .*this stdin is no file"
head -c 100 input.txt >short.txt
expect_stdin_error short.txt "^cyclescope: model solve: --compare-sim: stdin is not the input the analysed program read .*fewer bytes"
sed 's/line 7 /line 8 /' input.txt >other.txt
expect_stdin_error other.txt "^cyclescope: model solve: --compare-sim: stdin is not the input the analysed program read .*other bytes"

# a program that reads no stdin records none read, and any stdin will do
"$cs" model analyze -o none.smp "$prog" input.txt </dev/null >/dev/null 2>&1
"$cs" model info none.smp | grep -qx "guest stdin: a file, 0 bytes read, .*" && { echo "</dev/null is no file"; exit 1; }
# (its stdout a file, as the re-runs' is: without --env-fixed glibc's stdio tells a terminal or a
# device from a file, a few dozen instructions; with it, the streams look alike, as below)
"$cs" model analyze -o file.smp "$prog" input.txt <input.txt >file.out 2>&1
"$cs" model info file.smp | grep -q "^guest stdin: a file, 0 bytes read, SHA-256 " ||
    { echo "file argument: stdin not recorded as unread"; "$cs" model info file.smp | head -6; exit 1; }
"$cs" model solve --config inorder1 --compare-sim file.smp </dev/null >/dev/null 2>file.err || { cat file.err; exit 1; }
if grep -q warning file.err; then cat file.err; exit 1; fi
# --env-fixed: the streams look alike, so an analysis with stdout on /dev/null re-runs exactly
"$cs" model analyze --env-fixed -o fixed.smp "$prog" - <input.txt >/dev/null 2>&1
"$cs" model solve --config inorder1 --compare-sim --json fixed.json fixed.smp <input.txt >/dev/null 2>fixed.err ||
    { cat fixed.err; exit 1; }
if grep -q warning fixed.err; then cat fixed.err; exit 1; fi
echo "ok"
