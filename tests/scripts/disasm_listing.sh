#!/bin/bash
# disasm_listing.sh OBJDUMP CYCLESCOPE PROG [STRIP]
# `cyclescope disasm PROG` must print exactly what `objdump -d PROG` prints
# (headers, symbols, raw bytes, instructions, address comments). With STRIP,
# the listings of PROG stripped of its symbols (addresses no symbol names).
set -u -o pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $# -ge 4 ]; then
    "$4" -o "$tmp/stripped" "$3" || exit 1
    set -- "$1" "$2" "$tmp/stripped"
fi
"$1" -d "$3" >"$tmp/objdump.txt" || exit 1
"$2" disasm "$3" >"$tmp/cs.txt" || exit 1
if ! cmp -s "$tmp/objdump.txt" "$tmp/cs.txt"; then
    echo "listings differ in $(diff "$tmp/objdump.txt" "$tmp/cs.txt" | grep -c '^>') lines:"
    diff "$tmp/objdump.txt" "$tmp/cs.txt" | head -30
    exit 1
fi
echo "identical listings: $(wc -l <"$tmp/cs.txt") lines"
