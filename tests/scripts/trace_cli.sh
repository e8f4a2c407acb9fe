#!/bin/bash
# trace_cli.sh CYCLESCOPE GUEST_DIR CORPUS_DIR
# The trace subverbs end to end on small inputs: record (with --skip/--max),
# info, dump, export-champsim and import-champsim (raw, .gz, .xz, --riscv,
# --cloudsuite), and the refusal to record a program that faults.
set -u
cs=$1 guests=$2 corpus=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect() { # expect FILE REGEX: FILE has a line matching REGEX
    grep -Eq -- "$2" "$1" || { echo "--- $1:"; cat "$1"; fail "no line matches /$2/"; }
}

# record the 18-instruction guest; info and dump describe it
(cd "$guests" && "$cs" trace record -o "$tmp/u.cst" ./uops) 2>"$tmp/err" || fail "record: $(cat "$tmp/err")"
expect "$tmp/err" "recorded 18 instructions to"
"$cs" trace info "$tmp/u.cst" >"$tmp/info" || fail "info"
expect "$tmp/info" "^instructions: +18$"
expect "$tmp/info" "^isa: +rv64gc$"
expect "$tmp/info" "^program: +\./uops$"
expect "$tmp/info" "^  call +1 "
expect "$tmp/info" "bytes/instr"
"$cs" trace dump "$tmp/u.cst" >"$tmp/dump" || fail "dump"
[ "$(wc -l <"$tmp/dump")" = 18 ] || fail "dump: $(wc -l <"$tmp/dump") lines, want 18"
"$cs" trace dump --from 3 --count 2 "$tmp/u.cst" >"$tmp/dump2" || fail "dump --from"
[ "$(wc -l <"$tmp/dump2")" = 2 ] || fail "dump --from 3 --count 2: $(wc -l <"$tmp/dump2") lines"
expect "$tmp/dump2" "^ +3 +10150  00a5b423  sd +a0,8\(a1\) +W 8 @ 0x"
expect "$tmp/dump2" "^ +4 .* ld +a2,8\(a1\) +R 8 @ 0x"
expect "$tmp/dump" "beq +a0,a2,10160 +taken -> 0x10160"
expect "$tmp/dump" "bne +a0,a2,10160 +not taken -> 0x10164"
expect "$tmp/dump" " 0685 +addi? +a3,a3,1$"
expect "$tmp/dump" "amoadd.w +a4,a3,\(a1\) +RW 4 @ 0x"

# --skip and --max
(cd "$guests" && "$cs" trace record --skip 5 --max 7 -o "$tmp/s.cst" ./uops) 2>/dev/null || fail "record --skip"
"$cs" trace info "$tmp/s.cst" >"$tmp/info" || fail "info --skip"
expect "$tmp/info" "^skipped: +5 instructions"
expect "$tmp/info" "^instructions: +7$"
"$cs" trace dump --count 1 "$tmp/s.cst" | grep -q "beq" || fail "the first recorded µop is not the 6th instruction"
# --skip beyond the program's end: one line, exit 125, no trace (it wrote an empty one, exit 0)
(cd "$guests" && "$cs" trace record --skip 100 -o "$tmp/past.cst" ./uops) 2>"$tmp/err"
rc=$?
[ $rc = 125 ] || fail "record --skip past the end: exit $rc, not 125"
[ "$(wc -l <"$tmp/err")" = 1 ] || fail "record --skip past the end: not one line: $(cat "$tmp/err")"
expect "$tmp/err" "uops: the program ends after 18 instructions, within the 100 to skip \(--skip\): nothing to record"
[ ! -e "$tmp/past.cst" ] || fail "record --skip past the end: a trace was written"
# a trace too short for the statistical model: the error names it (it named nothing)
(cd "$guests" && "$cs" trace record --max 1 -o "$tmp/one.cst" ./uops) 2>/dev/null || fail "record --max 1"
"$cs" model analyze -o "$tmp/one.smp" "$tmp/one.cst" 2>"$tmp/err"
rc=$?
[ $rc = 125 ] && [ "$(wc -l <"$tmp/err")" = 1 ] || fail "model analyze of a 1-instruction trace: exit $rc: $(cat "$tmp/err")"
expect "$tmp/err" "one\.cst.*: too few instructions to build a flow graph"

# export to ChampSim in the three containers, import back with --riscv: same dump
# except what ChampSim cannot carry (encodings, classes of non-branches, sizes, link of a call)
for ext in champsim champsim.gz champsim.xz; do
    "$cs" trace export-champsim "$tmp/u.cst" -o "$tmp/u.$ext" 2>"$tmp/err" || fail "export $ext: $(cat "$tmp/err")"
    expect "$tmp/err" "exported 18 µops as 18 ChampSim records"
    "$cs" trace import-champsim --riscv "$tmp/u.$ext" -o "$tmp/back.cst" 2>/dev/null || fail "import $ext"
    "$cs" trace dump "$tmp/back.cst" >"$tmp/back" || fail "dump after import"
    [ "$(wc -l <"$tmp/back")" = 18 ] || fail "import $ext: $(wc -l <"$tmp/back") µops"
    expect "$tmp/back" "^ +3 +10150  --------  store +a1,a0 +W 8 @ 0x"
    expect "$tmp/back" "^ +5 .* cond-branch a0,a2 +taken -> 0x10160"
    expect "$tmp/back" "^ +9 .* call +taken -> 0x10186"
    expect "$tmp/back" "^ +11 .* return +ra +taken -> 0x10170"
    expect "$tmp/back" "^ +14 .* atomic +a1,a3 -> a4 +RW 8 @ 0x"
done
[ "$(stat -c %s "$tmp/u.champsim")" = $((18 * 64)) ] || fail "raw export is not 18 64-byte records"
"$cs" trace export-champsim --cloudsuite "$tmp/u.cst" -o "$tmp/c.champsim" 2>/dev/null || fail "export --cloudsuite"
[ "$(stat -c %s "$tmp/c.champsim")" = $((18 * 96)) ] || fail "cloudsuite export is not 18 96-byte records"
"$cs" trace import-champsim --riscv --cloudsuite "$tmp/c.champsim" -o "$tmp/c.cst" 2>/dev/null || fail "import --cloudsuite"
"$cs" trace dump "$tmp/c.cst" >"$tmp/c" || fail "dump cloudsuite"
expect "$tmp/c" "^ +9 .* call +-> ra +taken -> 0x10186"

# an x86 ChampSim trace: several µops per instruction, no encodings
"$cs" trace import-champsim "$corpus/champsim/x86.champsim.xz" -o "$tmp/x.cst" 2>"$tmp/err" || fail "import x86"
expect "$tmp/err" "imported 28 ChampSim records as 39 µops"
"$cs" trace info "$tmp/x.cst" >"$tmp/info" || fail "info x86"
expect "$tmp/info" "^isa: +champsim$"
expect "$tmp/info" "^instructions: +28$"
expect "$tmp/info" "^µops: +39$"
"$cs" trace dump "$tmp/x.cst" >"$tmp/x" || fail "dump x86"
expect "$tmp/x" "^ +5\+ +40100c  --------  store +W 8 @ 0x601048"
expect "$tmp/x" "^ +7 .* call +r6 -> r6 +taken -> 0x402000"
"$cs" trace export-champsim "$tmp/x.cst" -o "$tmp/x.champsim" 2>/dev/null || fail "re-export x86"
cmp -s "$tmp/x.champsim" "$corpus/champsim/x86.champsim" && fail "x86 re-export is byte-identical: the instruction-pointer reads of jumps should differ"
[ "$(stat -c %s "$tmp/x.champsim")" = $((28 * 64)) ] || fail "x86 re-export is not 28 records"

# a program that faults: the trace of what ran, then the fault's status (128 + SIGSEGV) and
# one line naming it, as every verb ends; timing the trace times what `run` times
(cd "$guests" && "$cs" trace record -o "$tmp/f.cst" ./segfault) >/dev/null 2>"$tmp/err" # stdout as run's below
rc=$?
[ $rc = 139 ] || fail "recording a faulting program: exit $rc, not 139: $(cat "$tmp/err")"
expect "$tmp/err" "segfault: segmentation fault: store to address 0x0 at pc"
[ -s "$tmp/f.cst" ] || fail "no trace of what the faulting program ran"
"$cs" sim --no-report --json "$tmp/fs.json" "$tmp/f.cst" >/dev/null 2>&1 || fail "sim of the faulting program's trace"
(cd "$guests" && "$cs" run --no-report --json "$tmp/fr.json" ./segfault) >/dev/null 2>&1
python3 -c "import json, sys; s, r = (json.load(open(f)) for f in sys.argv[1:])
sys.exit(0 if (s['instructions'], s['cycles']) == (r['instructions'], r['cycles']) else 1)" "$tmp/fs.json" "$tmp/fr.json" ||
    fail "sim of the faulting program's trace does not time what run does"
# a fault at the first instruction: nothing ran, no trace (no file left), the fault's status
"$cs" trace record -o "$tmp/ff.cst" "$guests/fault_first" 2>"$tmp/err"
rc=$?
[ $rc = 132 ] || fail "recording fault_first: exit $rc, not 132: $(cat "$tmp/err")"
[ -e "$tmp/ff.cst" ] && fail "a trace of nothing was left"
echo "ok"
