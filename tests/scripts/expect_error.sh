#!/bin/bash
# expect_error.sh EXPECTED_EXIT REGEX COMMAND [ARGS…]
# Passes when COMMAND exits with EXPECTED_EXIT ("nonzero" accepts any failure) and
# writes exactly one line to stderr that matches the extended regex REGEX.
set -u
expected=$1 regex=$2
shift 2
err=$(mktemp)
trap 'rm -f "$err"' EXIT
"$@" >/dev/null 2>"$err"
rc=$?
lines=$(wc -l <"$err")
if [ "$expected" = nonzero ]; then
    [ "$rc" -ne 0 ] || { echo "expected a failure, got exit code 0"; exit 1; }
elif [ "$rc" != "$expected" ]; then
    echo "expected exit code $expected, got $rc"; cat "$err"; exit 1
fi
if [ "$lines" != 1 ]; then
    echo "expected one line on stderr, got $lines:"; cat "$err"; exit 1
fi
if ! grep -Eq -- "$regex" "$err"; then
    echo "stderr does not match /$regex/:"; cat "$err"; exit 1
fi
echo "ok (exit $rc): $(cat "$err")"
