#!/usr/bin/env bash
# Compare cyclescope's disassembler with objdump on one RISC-V binary:
#
#   disasm_vs_objdump.sh OBJDUMP CHECKTOOL BINARY [CHECKTOOL ARGS...]
#
# OBJDUMP is riscv64-linux-gnu-objdump, CHECKTOOL the disasm_check test tool
# (which decodes and disassembles every instruction line of the listing and
# compares). pipefail makes an objdump failure fail the test too, not only a
# mismatch.
set -euo pipefail

if [ "$#" -lt 3 ]; then
    echo "usage: $0 OBJDUMP CHECKTOOL BINARY [CHECKTOOL ARGS...]" >&2
    exit 2
fi
objdump=$1
checktool=$2
binary=$3
shift 3

if [ ! -f "$binary" ]; then
    echo "$0: no such binary: $binary" >&2
    exit 1
fi

"$objdump" -d "$binary" | "$checktool" "$@"
