#!/bin/bash
# readv_fifo.sh QEMU CYCLESCOPE PROG
# `PROG fifo PATH` reads a FIFO this script writes 4 bytes to and keeps open until PROG ends:
# readv's later buffer must not wait for more (Linux's pipe_read returns what is there), so
# under qemu-riscv64 and under cyclescope it prints the same line at once; before 2026-11-29
# cyclescope's host read of the later buffer waited for bytes that never come (the test's
# timeout).
set -u
qemu=$1 cs=$2 prog=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # the runner's command… → its stdout in $tmp/out.$1
    local tag=$1
    shift
    rm -f "$tmp/f"
    mkfifo "$tmp/f"
    "$@" "$prog" fifo "$tmp/f" >"$tmp/out.$tag" 2>"$tmp/err.$tag" &
    local pid=$!
    exec 3>"$tmp/f"
    printf abcd >&3
    wait $pid
    echo "exit $?" >>"$tmp/out.$tag"
    exec 3>&-
}
run qemu "$qemu"
run cs "$cs" exec
if ! cmp -s "$tmp/out.qemu" "$tmp/out.cs"; then
    echo "differs:"
    diff "$tmp/out.qemu" "$tmp/out.cs"
    cat "$tmp/err.cs"
    exit 1
fi
echo "identical:"
cat "$tmp/out.cs"
