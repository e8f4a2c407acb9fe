#!/bin/bash
# trace_bad_input.sh EXIT REGEX OUTFILE COMMAND [ARGS…]
# Like expect_error.sh (exit code EXIT, exactly one stderr line matching REGEX),
# and OUTFILE must not exist afterwards: a failed conversion leaves no partial file.
set -u
expected=$1 regex=$2 out=$3
shift 3
rm -f "$out"
"$(dirname "$0")/expect_error.sh" "$expected" "$regex" "$@" || exit 1
if [ -e "$out" ]; then
    echo "the failed command left $out behind"
    exit 1
fi
