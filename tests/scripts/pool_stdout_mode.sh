#!/bin/bash
# pool_stdout_mode.sh CYCLESCOPE OUTDIR STDOUT_MODE
#   The verbs that re-run a program in the runner's pool (whatif --verify, stacks --validate)
#   give it a write-only stdout and stderr, as a shell's `> FILE` and `| cmd` do: the pool's
#   temporary files were read-write, and glibc's fdopen(1, "wb") (brotli's) branches on that,
#   so whatif --verify refused the baseline of `brotli -c` run as `rpstacks … > FILE` ("the
#   baseline now takes 2558150 cycles, the .rps recorded 2558111"). STDOUT_MODE prints the
#   access modes of its stdout and stderr through fdopen (tests/guest/stdout_mode.c).
set -u
cs=$1 out=$2 prog=$3
rm -rf "$out" && mkdir -p "$out" && cd "$out" || exit 1
fail=0
"$cs" rpstacks -o r.rps "$prog" >rps.out 2>rps.err </dev/null || { echo "FAIL: rpstacks: $(cat rps.err)"; exit 1; }
grep -q '^stdout write-only, stderr write-only$' rps.out || { echo "FAIL: rpstacks' run printed: $(head -1 rps.out)"; fail=1; }
"$cs" whatif r.rps --set l1d.latency=8 --verify 1 >whatif.out 2>whatif.err </dev/null ||
    { echo "FAIL: whatif --verify exited $?: $(cat whatif.err)"; fail=1; }
# stacks --validate copies its baseline job's output out: what the job's stdout was
"$cs" stacks --validate "$prog" >validate.out 2>validate.err </dev/null ||
    { echo "FAIL: stacks --validate exited $?: $(cat validate.err)"; fail=1; }
grep -q '^stdout write-only, stderr write-only$' validate.out ||
    { echo "FAIL: stacks --validate's job printed: $(grep '^stdout' validate.out)"; fail=1; }
[ $fail = 0 ] && echo "whatif --verify re-simulated the .rps' baseline; the pool's jobs see a write-only stdout and stderr"
exit $fail
