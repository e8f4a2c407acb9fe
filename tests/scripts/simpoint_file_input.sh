#!/bin/bash
# simpoint_file_input.sh CYCLESCOPE QEMU OUTDIR PROG INPUT
#   `run --simpoints` of a program that reads a file (and then stdin from a file) in chunks
#   spread over many intervals: each point is timed in a forked copy of the fast-forward,
#   and a fork shares the open files' offsets, so a copy's reads used to move the
#   fast-forward's (it then read the wrong bytes, or ended early: "the stream ended after N
#   instructions, before the simulation point"). The program's output must be qemu-riscv64's,
#   the exit 0, and the estimate's instruction count that of the full run (within 0.1%).
#   Also with stdin a pipe (`cat FILE | cyclescope run --simpoints …`): the copies shared it
#   and took each other's bytes (the program printed a wrong count, or the run was refused);
#   now simpoint and run keep a piped stdin in a temporary file first (cli_spool_piped_stdin).
set -u
cs=$1 qemu=$2 out=$3 prog=$4 input=$5
rm -rf "$out" && mkdir -p "$out"
fail=0
expected=$("$qemu" "$prog" "$input" 8000)
# feed CMD…: CMD with the input of this round on its stdin (a file, or a pipe from cat)
feed() { if [ $how = pipe ]; then cat "$input" | "$@"; else "$@" <"$in"; fi; }
for how in file stdin pipe; do
    if [ $how = file ]; then args=("$prog" "$input" 8000); in=/dev/null; else args=("$prog" - 8000); in=$input; fi
    feed "$cs" simpoint --interval 100000 -o "$out/sp-$how" "${args[@]}" >/dev/null 2>"$out/sp-$how.err" ||
        { echo "FAIL $how: simpoint: $(cat "$out/sp-$how.err")"; fail=1; continue; }
    feed "$cs" run --no-report --json "$out/full-$how.json" "${args[@]}" >/dev/null 2>&1
    for jobs in 1 3; do
        got=$(feed "$cs" run --no-report --simpoints "$out/sp-$how" --jobs $jobs --json "$out/sp-$how-$jobs.json" \
              "${args[@]}" 2>"$out/run-$how.err")
        rc=$?
        [ $rc = 0 ] || { echo "FAIL $how, --jobs $jobs: exit $rc: $(head -2 "$out/run-$how.err")"; fail=1; continue; }
        grep -qxF "$expected" <<<"$got" || { echo "FAIL $how, --jobs $jobs: the program printed '$(grep read <<<"$got")', qemu '$expected'"; fail=1; }
        python3 - "$out/full-$how.json" "$out/sp-$how-$jobs.json" <<'PY' || fail=1
import json, sys
full, est = (json.load(open(f)) for f in sys.argv[1:3])
off = abs(est["instructions"] - full["instructions"]) / full["instructions"]
print(f"  instructions: full {full['instructions']}, estimate {est['instructions']}; cycles: full {full['cycles']}, estimate {est['cycles']}")
sys.exit(0 if off < 0.001 else 1)
PY
    done
done
[ $fail = 0 ] && echo "run --simpoints read the input as qemu-riscv64 did: $expected"
exit $fail
