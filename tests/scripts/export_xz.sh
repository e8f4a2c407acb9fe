#!/bin/bash
# export_xz.sh CYCLESCOPE WORKLOAD_DIR
# trace export-champsim to .xz on several threads (liblzma's multithreaded
# encoder): a valid xz file of several independent blocks whose content is
# byte for byte the raw export's, and which cyclescope reads back; --preset
# and --threads checked; bad values are usage errors.
set -u -o pipefail
cs=$(realpath "$1") w=$(realpath "$2")
command -v xz >/dev/null || { echo "xz is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
"$cs" trace record -o s.cst "$w/sort" 3000 >/dev/null 2>&1 || fail "record"
"$cs" trace export-champsim s.cst -o s.raw 2>/dev/null || fail "raw export"
"$cs" trace export-champsim --preset 1 --threads 2 s.cst -o mt.xz 2>err || fail "export --threads 2: $(cat err)"
xz -t mt.xz || fail "not a valid xz file"
blocks=$(xz --robot -l mt.xz | awk '$1 == "totals" { print $3 }')
[ "${blocks:-0}" -gt 1 ] || fail "one block: the multithreaded encoder did not run ($(xz -l mt.xz | tail -1))"
xz -dc mt.xz | cmp -s - s.raw || fail "the multithreaded .xz does not hold the raw export's records"
"$cs" trace export-champsim --preset 1 --threads 1 s.cst -o one.xz 2>/dev/null || fail "export --threads 1"
[ "$(xz --robot -l one.xz | awk '$1 == "totals" { print $3 }')" = 1 ] || fail "--threads 1 is not one block"
xz -dc one.xz | cmp -s - s.raw || fail "the one-thread .xz differs"
"$cs" trace record --max 20000 -o small.cst "$w/sort" 3000 >/dev/null 2>&1 &&
    "$cs" trace export-champsim small.cst -o small.raw 2>/dev/null || fail "small trace"
"$cs" trace export-champsim --preset 9e --threads 2 small.cst -o x.xz 2>/dev/null && xz -dc x.xz | cmp -s - small.raw ||
    fail "--preset 9e"
"$cs" sim --riscv --no-report --json a.json mt.xz >/dev/null 2>&1 && "$cs" sim --riscv --no-report --json b.json s.raw >/dev/null 2>&1 ||
    fail "sim of the exports"
python3 -c 'import json,sys; a,b=(json.load(open(f)) for f in sys.argv[1:]); assert a["cycles"]==b["cycles"] and a["instructions"]==b["instructions"]' a.json b.json ||
    fail "the .xz times differently from the raw trace"
for bad in "--preset 0" "--preset 10" "--preset 6x" "--threads many"; do
    # shellcheck disable=SC2086
    "$cs" trace export-champsim $bad s.cst -o bad.xz >/dev/null 2>&1
    [ $? = 2 ] || fail "$bad accepted"
done
echo "ok: $blocks-block multithreaded .xz = raw export; presets, threads"
