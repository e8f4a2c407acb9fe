#!/bin/bash
# signal_handler_run.sh CYCLESCOPE GUEST_DIR: the timing models see a signal handler as
# ordinary instructions. For modes of tests/guest/signal_handler.c that enter handlers from
# a system call (raise, alarm, abort) and from faults (segv, mcontext), on ooo4 and inorder1,
# `run` must print the program's own output as `exec` does, end with the same status, time
# exactly the instructions `exec --stats` counts, and its CPI stacks (dispatch, issue,
# commit) must each sum to the cycles.
set -u -o pipefail
cs=$(realpath "$1") prog=$(realpath "$2")/signal_handler
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
for mode in raise alarm abort segv mcontext; do
    "$cs" exec --stats "$prog" "$mode" >"$tmp/exec.out" 2>"$tmp/exec.err"
    erc=$?
    count=$(grep -Eo '[0-9]+ instructions in' "$tmp/exec.err" | grep -Eo '^[0-9]+')
    [ -n "$count" ] || { fail "$mode: exec --stats printed no count"; cat "$tmp/exec.err"; continue; }
    for config in ooo4 inorder1; do
        "$cs" run --no-report --config "$config" --json "$tmp/run.json" "$prog" "$mode" >"$tmp/run.out" 2>"$tmp/run.err"
        rrc=$?
        [ "$rrc" = "$erc" ] || fail "$mode on $config: run exits $rrc, exec $erc ($(head -2 "$tmp/run.err"))"
        # the program's own output comes first, then the run summary
        head -c "$(wc -c <"$tmp/exec.out")" "$tmp/run.out" | cmp -s - "$tmp/exec.out" ||
            fail "$mode on $config: the program's output differs from exec's"
        python3 - "$tmp/run.json" "$count" "$mode on $config" <<'PY' || failures=$((failures + 1))
import json, sys
d = json.load(open(sys.argv[1]))
count, what = int(sys.argv[2]), sys.argv[3]
ok = True
if d["instructions"] != count:
    print(f"FAIL: {what}: run timed {d['instructions']} instructions, exec counts {count}")
    ok = False
for stage, stack in d["stacks"]["cpi_stacks"].items():
    total = sum(c["cycles"] for c in stack.values() if isinstance(c, dict) and "cycles" in c)
    if abs(total - d["cycles"]) > 1e-6 * d["cycles"] + 0.5:
        print(f"FAIL: {what}: the {stage} stack sums to {total}, the run took {d['cycles']} cycles")
        ok = False
sys.exit(0 if ok else 1)
PY
    done
    echo "$mode: $count instructions, exit $erc, run agrees on ooo4 and inorder1"
done
[ $failures = 0 ] || exit 1
