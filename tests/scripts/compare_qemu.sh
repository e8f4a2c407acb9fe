#!/bin/bash
# compare_qemu.sh QEMU CYCLESCOPE [exec options…] -- PROG [ARGS…]
# Runs PROG under qemu-riscv64 and under `cyclescope exec`; passes when stdout and
# the exit code are identical (and stderr, with COMPARE_STDERR=1). Prints both on a difference.
set -u
qemu=$1 cyclescope=$2
shift 2
opts=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts+=("$1"); shift; done
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# qemu hands the guest every descriptor the test inherited (a CI runner's, a job server's),
# cyclescope only 0, 1 and 2: both run with the others closed, so that "the lowest free
# descriptor" or "a closed descriptor" means the same under both.
without_inherited_fds() {
    local fd
    for fd in $(ls /proc/self/fd); do
        [ "$fd" -gt 2 ] && eval "exec $fd>&-" 2>/dev/null
    done
    exec "$@"
}
(without_inherited_fds "$qemu" "$@") >"$tmp/qemu.out" 2>"$tmp/qemu.err"
qrc=$?
(without_inherited_fds "$cyclescope" exec "${opts[@]}" "$@") >"$tmp/cs.out" 2>"$tmp/cs.err"
crc=$?
fail=0
if ! cmp -s "$tmp/qemu.out" "$tmp/cs.out"; then
    echo "stdout differs ($(wc -l <"$tmp/qemu.out") lines under qemu, $(wc -l <"$tmp/cs.out") under cyclescope):"
    diff "$tmp/qemu.out" "$tmp/cs.out" | head -20
    fail=1
fi
# COMPARE_STDERR=1: stderr too (a program whose stderr is deterministic: a warning of
# cyclescope's own there is a difference from qemu)
if [ "${COMPARE_STDERR:-0}" = 1 ] && ! cmp -s "$tmp/qemu.err" "$tmp/cs.err"; then
    echo "stderr differs:"
    diff "$tmp/qemu.err" "$tmp/cs.err" | head -20
    fail=1
fi
if [ "$qrc" != "$crc" ]; then
    echo "exit code differs: qemu $qrc, cyclescope $crc"
    fail=1
fi
if [ $fail = 1 ]; then
    echo "--- cyclescope stderr:"; head -5 "$tmp/cs.err"
    exit 1
fi
echo "identical: $(wc -c <"$tmp/cs.out") bytes of stdout, exit code $crc"
