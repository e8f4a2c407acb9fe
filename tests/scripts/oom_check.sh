#!/bin/bash
# oom_check.sh KBYTES COMMAND [ARGS…]
# Runs COMMAND with its address space limited to KBYTES (ulimit -v) and passes when it
# ends as the allocation policy says (util/util.h): exit 125 and exactly one line on
# stderr, "cyclescope: out of memory (N bytes)" — no crash, no signal, nothing else.
set -u
limit=$1
shift
err=$(mktemp)
trap 'rm -f "$err"' EXIT
(ulimit -v "$limit" && exec "$@") >/dev/null 2>"$err"
rc=$?
[ "$rc" = 125 ] || { echo "expected exit code 125, got $rc"; cat "$err"; exit 1; }
[ "$(wc -l <"$err")" = 1 ] || { echo "expected one line on stderr:"; cat "$err"; exit 1; }
grep -Eq '^cyclescope: out of memory \([0-9]+ bytes\)$' "$err" || { echo "unexpected message:"; cat "$err"; exit 1; }
echo "out of memory reported as one line, exit 125: $(cat "$err")"
