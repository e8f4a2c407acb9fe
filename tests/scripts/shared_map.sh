#!/bin/bash
# shared_map.sh QEMU CYCLESCOPE GUEST MODE
# Runs `shared_map DIR MODE` under qemu-riscv64 (Linux's own mmap: the
# reference) and under `cyclescope exec --allow-write DIR`, each in a fresh
# directory; passes when stdout, the exit code and the files left in DIR are
# identical.
set -u
qemu=$1 cs=$2 guest=$3 mode=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/q" "$tmp/c"
"$qemu" "$guest" "$tmp/q" "$mode" >"$tmp/q.out" 2>&1
qrc=$?
"$cs" exec --allow-write "$tmp/c" "$guest" "$tmp/c" "$mode" >"$tmp/c.out" 2>"$tmp/c.err"
crc=$?
sed -i "s|$tmp/q|DIR|g" "$tmp/q.out"
sed -i "s|$tmp/c|DIR|g" "$tmp/c.out"
fail=0
if ! cmp -s "$tmp/q.out" "$tmp/c.out"; then
    echo "stdout differs:"; diff "$tmp/q.out" "$tmp/c.out"; fail=1
fi
[ "$qrc" = "$crc" ] || { echo "exit code differs: qemu $qrc, cyclescope $crc"; fail=1; }
if ! diff -r "$tmp/q" "$tmp/c" >/dev/null; then
    echo "files differ:"; for f in "$tmp"/q/*; do b=$(basename "$f"); cmp "$f" "$tmp/c/$b" || { od -c "$f" | head -3; od -c "$tmp/c/$b" | head -3; }; done
    fail=1
fi
if [ $fail = 1 ]; then echo "--- cyclescope stderr:"; cat "$tmp/c.err"; exit 1; fi
echo "identical: $(wc -l <"$tmp/c.out") lines, exit $crc, files: $(cd "$tmp/c" && ls | tr '\n' ' ')"
cat "$tmp/c.out"
