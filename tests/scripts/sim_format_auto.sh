#!/bin/bash
# sim_format_auto.sh CYCLESCOPE CORPUS_DIR GUEST_DIR
# `sim --format auto` (the default) decides by the file's content: a .cst trace by its magic
# number, ChampSim records (standard or cloudsuite, raw, .gz or .xz) by plausible instruction
# addresses. Anything else is refused in one line naming the file: an ELF (exit 2, pointing to
# `run`), a text, random bytes (exit 125, "the format is not recognised") — it was timed as
# ChampSim records, one nonsense "instruction" per 64 bytes.
set -u
cs=$(realpath "$1") corpus=$(realpath "$2") g=$(realpath "$3")
expect_error=$(dirname "$(realpath "$0")")/expect_error.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
insns() { # FILE [OPTIONS…]: the instructions sim timed
    local f=$1; shift
    "$cs" sim --no-report --analysis none --json out.json "$@" "$f" >/dev/null 2>err || fail "sim $* $f: $(cat err)"
    python3 -c "import json; print(json.load(open('out.json'))['instructions'])"
}
# the real traces: auto reads them as the explicit format does
for f in x86.champsim x86.champsim.gz x86.champsim.xz riscv.champsim; do
    [ "$(insns "$corpus/champsim/$f")" = "$(insns "$corpus/champsim/$f" --format champsim)" ] ||
        fail "auto and --format champsim differ on $f"
done
[ "$(insns "$corpus/champsim/cloudsuite.champsim")" = "$(insns "$corpus/champsim/cloudsuite.champsim" --cloudsuite)" ] ||
    fail "auto and --cloudsuite differ on cloudsuite.champsim"
"$cs" trace record -o h.cst "$g/hello" >/dev/null 2>&1 || fail "trace record"
[ "$(insns h.cst)" = "$(insns h.cst --format cst)" ] || fail "auto and --format cst differ on a .cst trace"
# what is no trace
head -c 4096 /dev/urandom >random.bin
printf 'This is a README, not a trace.\n%.0s' $(seq 1 64) >README
for f in random.bin README; do
    "$expect_error" 125 "^cyclescope: $f: not a trace: the format is not recognised" "$cs" sim --no-report "$f" ||
        fail "$f"
done
for f in "$g/hello" "$cs"; do
    "$expect_error" 2 "^cyclescope sim: $f is a program \(ELF\), and sim times traces: time it with .cyclescope run" \
        "$cs" sim --no-report "$f" || fail "$f"
done
# a damaged compressed trace: the reader's error, not "not recognised"
"$expect_error" 125 "corrupt.champsim.xz: corrupt xz data" "$cs" sim --no-report "$corpus/champsim/corrupt.champsim.xz" ||
    fail "corrupt.champsim.xz"
[ -e cyclescope-out ] && fail "a refused input left an output directory"
echo ok
