#!/bin/bash
# expect_output.sh EXPECTED_EXIT REGEX COMMAND [ARGS…]
# Passes when COMMAND exits with EXPECTED_EXIT and every line of REGEX (one
# extended regex per line) matches some line of its stdout and stderr together.
set -u
expected=$1 regexes=$2
shift 2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$@" >"$out" 2>&1
rc=$?
fail=0
[ "$rc" = "$expected" ] || { echo "expected exit code $expected, got $rc"; fail=1; }
while IFS= read -r re; do
    [ -z "$re" ] && continue
    grep -Eq -- "$re" "$out" || { echo "no line matches /$re/"; fail=1; }
done <<<"$regexes"
[ $fail = 0 ] || { echo "--- output:"; cat "$out"; exit 1; }
echo "ok (exit $rc)"; cat "$out"
