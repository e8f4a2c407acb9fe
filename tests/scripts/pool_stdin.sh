#!/bin/bash
# pool_stdin.sh CYCLESCOPE OUTDIR PROG INPUT
#   The verbs that time a program in the runner's pool of processes (sweep, stacks
#   --validate) give it the caller's stdin when that is a file (`< FILE`), as run does: the
#   pool gave every job /dev/null, so a program reading its input from stdin was timed on
#   no input at all (a sweep of `chunk_read - < FILE` ran 3% of its instructions), silently.
#   PROG reads 2000 bytes of stdin (chunk_read - 2000). A pipe (`cat FILE | cyclescope sweep
#   …`) is kept in a temporary file first, so the points read it too (they read nothing
#   before, silently); a pipe nobody writes is left alone after a second, with a warning.
set -u
cs=$1 out=$2 prog=$3 input=$4
rm -rf "$out" && mkdir -p "$out"
fail=0
insns() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d.get("instructions", d.get("result", {}).get("instructions")))' "$1"; }
"$cs" run --env-fixed --no-report --json "$out/run-fixed.json" "$prog" - 2000 <"$input" >/dev/null 2>&1
"$cs" run --no-report --json "$out/run.json" "$prog" - 2000 <"$input" >/dev/null 2>&1
"$cs" sweep --grid 'l1d.size=16K,32K' -j 2 -o "$out/sweep" "$prog" - 2000 <"$input" >/dev/null 2>&1 || { echo "FAIL: sweep exited $?"; fail=1; }
want=$(insns "$out/run-fixed.json")
for f in "$out"/sweep/????????????????.json; do
    got=$(insns "$f")
    [ "$got" = "$want" ] || { echo "FAIL: sweep point $(basename "$f"): $got instructions, run --env-fixed $want"; fail=1; }
done
cat "$input" | "$cs" sweep --grid 'l1d.size=16K,32K' -j 2 -o "$out/sweep-pipe" "$prog" - 2000 >/dev/null 2>"$out/pipe.err" ||
    { echo "FAIL: sweep from a pipe exited $?: $(cat "$out/pipe.err")"; fail=1; }
grep -q "note: stdin is a pipe: its $(wc -c <"$input") bytes were kept in a temporary file" "$out/pipe.err" ||
    { echo "FAIL: sweep from a pipe: no note: $(cat "$out/pipe.err")"; fail=1; }
for f in "$out"/sweep-pipe/????????????????.json; do
    got=$(insns "$f")
    [ "$got" = "$want" ] || { echo "FAIL: sweep point from a pipe $(basename "$f"): $got instructions, run --env-fixed $want"; fail=1; }
done
# a pipe with nothing in it and no end for the first second: not waited for, said
sleep 3 | "$cs" sweep --grid 'l1d.size=16K' -j 1 -o "$out/sweep-idle" "$prog" - 2000 >/dev/null 2>"$out/idle.err" ||
    { echo "FAIL: sweep from an idle pipe exited $?: $(cat "$out/idle.err")"; fail=1; }
grep -q "warning: stdin is a pipe with nothing in it after 1000 ms; the runs read an empty stdin" "$out/idle.err" ||
    { echo "FAIL: sweep from an idle pipe: no warning: $(cat "$out/idle.err")"; fail=1; }
# --emit: the jobs run elsewhere (GNU parallel, Slurm) with another stdin, here /dev/null; each
# command names what it reads: the caller's file, or the pipe kept in DIR/stdin (before, every
# job read the stdin it was given: nothing, silently)
"$cs" sweep --grid 'l1d.size=16K,32K' --emit parallel -o "$out/emit-file" "$prog" - 2000 <"$input" >/dev/null 2>&1 ||
    { echo "FAIL: sweep --emit parallel exited $?"; fail=1; }
while IFS= read -r job; do bash -c "$job" </dev/null >/dev/null 2>&1 || { echo "FAIL: job exited $?: $job"; fail=1; }; done <"$out/emit-file/jobs.txt"
cat "$input" | "$cs" sweep --grid 'l1d.size=16K' --emit slurm -o "$out/emit-pipe" "$prog" - 2000 >/dev/null 2>"$out/emit-pipe.err" ||
    { echo "FAIL: sweep --emit slurm from a pipe exited $?"; fail=1; }
grep -q "note: stdin is a pipe: its $(wc -c <"$input") bytes were kept in $out/emit-pipe/stdin, which every job reads" "$out/emit-pipe.err" ||
    { echo "FAIL: sweep --emit from a pipe: no note: $(cat "$out/emit-pipe.err")"; fail=1; }
SLURM_ARRAY_TASK_ID=0 bash "$out/emit-pipe/sweep.sbatch" </dev/null >/dev/null 2>&1 || { echo "FAIL: the Slurm task exited $?"; fail=1; }
for f in "$out"/emit-file/????????????????.json "$out"/emit-pipe/????????????????.json; do
    got=$(insns "$f")
    [ "$got" = "$want" ] || { echo "FAIL: emitted job ${f#$out/}: $got instructions, run --env-fixed $want"; fail=1; }
done
# a relative file argument names a file from where the caller stood, wherever the job runs
cp "$input" "$out/relative.in"
(cd "$out" && "$cs" run --env-fixed --no-report --json run-relative.json "$prog" relative.in 2000 </dev/null >/dev/null 2>&1 &&
    "$cs" sweep --grid 'l1d.size=16K' --emit parallel -o emit-relative "$prog" relative.in 2000 </dev/null >/dev/null 2>&1) ||
    { echo "FAIL: run or sweep --emit with a relative argument exited $?"; fail=1; }
(cd / && bash -c "$(cat "$out/emit-relative/jobs.txt")" </dev/null >/dev/null 2>&1) || { echo "FAIL: the job from / exited $?"; fail=1; }
want_relative=$(insns "$out/run-relative.json")
for f in "$out"/emit-relative/????????????????.json; do
    got=$(insns "$f")
    [ "$got" = "$want_relative" ] || { echo "FAIL: emitted job ${f#$out/} run from /: $got instructions, run $want_relative"; fail=1; }
done
[ "$(ls "$out"/emit-*/????????????????.json | wc -l)" = 4 ] ||
    { echo "FAIL: the emitted jobs wrote $(ls "$out"/emit-*/????????????????.json | wc -l) results, not 4"; fail=1; }
"$cs" stacks --validate --json "$out/validate.json" "$prog" - 2000 <"$input" >/dev/null 2>&1 || { echo "FAIL: stacks --validate exited $?"; fail=1; }
want=$(insns "$out/run.json") got=$(insns "$out/validate.json")
# the pool's jobs write to a temporary file, run here to /dev/null: glibc's stdio differs by
# a few dozen instructions on the kind of stdout (src/runner/pool.c); no input is thousands
python3 -c 'import sys; a, b = map(int, sys.argv[1:]); sys.exit(0 if abs(a - b) <= 200 else 1)' "$got" "$want" ||
    { echo "FAIL: stacks --validate timed $got instructions, run $want"; fail=1; }
[ $fail = 0 ] && echo "sweep points and stacks --validate read stdin from the file: $want instructions (run --env-fixed), $got (validate)"
exit $fail
