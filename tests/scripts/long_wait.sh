#!/bin/bash
# long_wait.sh CYCLESCOPE [run options…] -- PROG [ARGS…]
# A wait longer than core.deadlock_cycles (a miss to a slow memory, a long line over a narrow
# channel) is not a deadlock: the run with the least limit (1000 cycles) must end as the run
# with the default limit does (exit 0) with the same cycles. (The detector fired on such
# valid configurations: tests/configs/random/long_*.ini.)
set -u
cs=$1
shift
opts=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
shift
err=$(mktemp)
trap 'rm -f "$err"' EXIT
cycles() {
    "$cs" run --no-report --json - "${opts[@]}" "$@" 2>"$err" |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["cycles"])' 2>/dev/null
}
limited=$(cycles --set core.deadlock_cycles=1000 "$@") ||
    { echo "FAIL: the run with core.deadlock_cycles=1000 failed: $(tail -1 "$err")"; exit 1; }
default=$(cycles "$@") || { echo "FAIL: the run with the default limit failed: $(tail -1 "$err")"; exit 1; }
[ "$limited" = "$default" ] || { echo "FAIL: $limited cycles with the least limit, $default with the default"; exit 1; }
echo "ok: $limited cycles with either limit"
