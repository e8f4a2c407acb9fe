#!/bin/bash
# import_equivalence.sh CYCLESCOPE PROGRAM ARG
# Why an imported ChampSim trace "with every operation at one cycle" can time
# slower than the original trace with its real latencies (issue 12, stencil
# 3.4%): the import is not the same µop stream with shorter latencies. ChampSim
# records keep no operation class, so every arithmetic µop comes back as an
# int-alu µop (1 cycle, and served by the integer ALU pool instead of the FP
# units), and no access size (8 bytes). The bound that holds: the imported trace
# times within 0.5% of the original run with 1-cycle arithmetic and the FP
# classes served by the ALU pool — the same machine the import describes.
set -u
cs=$1 prog=$2 arg=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$cs" trace record --env-fixed -o "$tmp/t.cst" "$prog" "$arg" 2>/dev/null | cat >/dev/null || fail "record"
"$cs" trace export-champsim "$tmp/t.cst" -o "$tmp/t.champsim" 2>/dev/null || fail "export"
"$cs" trace import-champsim --riscv "$tmp/t.champsim" -o "$tmp/i.cst" 2>/dev/null || fail "import"
cycles() { "$cs" sim --config ooo4 --no-report --analysis none "$@" | awk '/^  cycles /{ print $2 }'; }
real=$(cycles "$tmp/t.cst")
one=$(cycles --set ideal.alu=yes "$tmp/t.cst")
fp_on_alu=$(cycles --set ideal.alu=yes \
    --set "fu.alu.classes=int-alu cond-branch jump jump-indirect call return csr-system nop-fence fp-add fp-mul fp-fma fp-div fp-sqrt fp-cvt-mov-cmp" \
    --set "fu.fp.classes=" "$tmp/t.cst")
imported=$(cycles "$tmp/i.cst")
[ -n "$real" ] && [ -n "$one" ] && [ -n "$fp_on_alu" ] && [ -n "$imported" ] || fail "a run failed"
echo "real latencies $real, 1-cycle arithmetic $one, and FP on the ALU pool $fp_on_alu; imported $imported"
awk -v a="$imported" -v b="$fp_on_alu" 'BEGIN { d = (a - b) / b; if (d < 0) d = -d; exit !(d < 0.005) }' ||
    fail "the imported trace is not within 0.5% of the original with 1-cycle arithmetic on the ALU pool"
