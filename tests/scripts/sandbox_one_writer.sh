#!/bin/bash
# sandbox_one_writer.sh SOURCE_DIR
# Every output file goes through cs_output (src/util/files.c: a temporary file
# renamed on success, never over an input; docs/sandbox.md). Fails naming any
# fopen(…, "w…") or open(…, O_WRONLY/O_RDWR/O_CREAT) elsewhere in src/ and cli/.
set -u
cd "$1" || exit 1
hits=$(grep -nE 'fopen\([^;]*"[wa]|[^_a-z]open(at)?\([^;]*O_(WRONLY|RDWR|CREAT)' src/*/*.c cli/*.c |
    grep -v '^src/util/files.c:' |
    grep -v 'O_TMPFILE' |
    grep -v '/dev/null')
if [ -n "$hits" ]; then
    echo "FAIL: files written without cs_output (src/util/files.c):"
    echo "$hits"
    exit 1
fi
echo "ok: every output goes through cs_output"
