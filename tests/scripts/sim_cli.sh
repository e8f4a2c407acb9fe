#!/bin/bash
# sim_cli.sh CYCLESCOPE WORKLOAD_DIR
# `cyclescope sim` times a trace exactly as `cyclescope run` times the live
# program: record a small run to .cst, then sim it and run it on the same
# configuration; cycles, instructions, branch and cache counts and all three
# CPI stacks must be identical (JSON compared field by field, without the
# timing of the host). A ChampSim export of the same trace, read back with
# --riscv, times the same instruction count. Usage errors name the input.
set -u
cs=$1 w=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# The guest's stdout is a pipe in all three runs: glibc's start-up depends on its file type.
"$cs" trace record -o "$tmp/sort.cst" "$w/sort" 3000 2>"$tmp/err" | cat >/dev/null
grep -q "recorded [0-9]* instructions" "$tmp/err" || fail "record: $(cat "$tmp/err")"

same_run() { # same_run A.json B.json: identical except host seconds, program title, guest and provenance
    python3 - "$1" "$2" <<'EOF' || exit 1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for j in (a, b):
    for k in ("seconds", "program", "guest", "provenance"):  # the provenance names the input
        j.pop(k, None)
if a != b:
    diff = [k for k in set(a) | set(b) if a.get(k) != b.get(k)]
    print("FAIL: sim and run differ in", sorted(diff))
    for k in sorted(diff)[:3]:
        print(" ", k, "sim:", str(a.get(k))[:300], "run:", str(b.get(k))[:300])
    sys.exit(1)
print("identical:", a["cycles"], "cycles,", a["instructions"], "instructions")
EOF
}

for cfg in ooo4 inorder3 bdw knl; do # bdw, knl: every memory-system knob on (issue 12)
    "$cs" sim --config "$cfg" --no-report --json "$tmp/sim-$cfg.json" "$tmp/sort.cst" >"$tmp/sim.out" 2>&1 ||
        fail "sim --config $cfg: $(cat "$tmp/sim.out")"
    grep -q "sort.cst (trace of .*sort 3000) on $cfg" "$tmp/sim.out" || fail "sim title: $(head -3 "$tmp/sim.out")"
    grep -q "CPI stacks at dispatch, issue and commit" "$tmp/sim.out" || fail "sim printed no CPI stacks"
    "$cs" run --config "$cfg" --no-report --json "$tmp/run-$cfg.json" "$w/sort" 3000 2>&1 | cat >/dev/null
    same_run "$tmp/sim-$cfg.json" "$tmp/run-$cfg.json" || fail "sim vs run on $cfg"
done

# --warmup and --max apply to traces as to live runs
"$cs" sim --warmup 10000 --max 50000 --no-report --json "$tmp/sim-w.json" "$tmp/sort.cst" >/dev/null 2>&1 || fail "sim --warmup"
"$cs" run --warmup 10000 --max 50000 --no-report --json "$tmp/run-w.json" "$w/sort" 3000 2>&1 | cat >/dev/null
same_run "$tmp/sim-w.json" "$tmp/run-w.json" || fail "sim vs run with --warmup/--max"

# Value prediction needs results: a .cst recorded without them is refused, naming
# the first µop; one recorded with --values times exactly as the live run.
"$cs" sim --config inorder3 --set inorder.value_prediction=yes --no-report "$tmp/sort.cst" >/dev/null 2>"$tmp/err"
[ $? = 125 ] || fail "value prediction on a trace without results: want exit 125"
grep -q "writes a register but carries no result value.*trace record --values" "$tmp/err" ||
    fail "value prediction without results: $(cat "$tmp/err")"
"$cs" trace record --values -o "$tmp/sortv.cst" "$w/sort" 3000 2>/dev/null | cat >/dev/null
"$cs" trace info "$tmp/sortv.cst" | grep -q "^fields: .* fp_ops values$" || fail "trace info does not list values"
vp="--config inorder3 --set inorder.value_prediction=yes --no-report"
"$cs" sim $vp --json "$tmp/sim-vp.json" "$tmp/sortv.cst" >"$tmp/vp.out" 2>&1 || fail "sim with values: $(cat "$tmp/vp.out")"
grep -q "value predictions: [1-9]" "$tmp/vp.out" || fail "sim with values made no value predictions"
"$cs" run $vp --json "$tmp/run-vp.json" "$w/sort" 3000 2>&1 | cat >/dev/null
same_run "$tmp/sim-vp.json" "$tmp/run-vp.json" || fail "value prediction: sim vs run"

# ChampSim: export, then time the export (auto-detected as ChampSim by its content)
"$cs" trace export-champsim "$tmp/sort.cst" -o "$tmp/sort.champsim.xz" 2>/dev/null || fail "export-champsim"
"$cs" sim --riscv --no-report --json "$tmp/cs.json" "$tmp/sort.champsim.xz" >"$tmp/cs.out" 2>&1 ||
    fail "sim of a ChampSim trace: $(cat "$tmp/cs.out")"
grep -q "(ChampSim trace) on ooo4" "$tmp/cs.out" || fail "ChampSim title: $(head -3 "$tmp/cs.out")"
python3 - "$tmp/cs.json" "$tmp/sim-ooo4.json" <<'EOF' || fail "ChampSim trace timed a different instruction count"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["instructions"] == b["instructions"], (a["instructions"], b["instructions"])
assert a["cycles"] > 0
EOF

# Usage and input errors: one line naming the input, non-zero exit
"$cs" sim >/dev/null 2>"$tmp/err"; [ $? = 2 ] || fail "sim without a trace: want exit 2"
grep -q "no trace file given" "$tmp/err" || fail "sim without a trace: $(cat "$tmp/err")"
"$cs" sim --format zip "$tmp/sort.cst" >/dev/null 2>"$tmp/err"; [ $? = 2 ] || fail "bad --format: want exit 2"
grep -q -- "--format zip: not one of auto, cst, champsim" "$tmp/err" || fail "bad --format: $(cat "$tmp/err")"
"$cs" sim --format cst "$w/sort" >/dev/null 2>"$tmp/err"; [ $? = 125 ] || fail "ELF as .cst: want exit 125"
grep -q "sort: .*not a .cst trace" "$tmp/err" || fail "ELF as .cst: $(cat "$tmp/err")"
head -c 100 "$tmp/sort.cst" >"$tmp/cut.cst"
"$cs" sim "$tmp/cut.cst" >/dev/null 2>"$tmp/err"; [ $? = 125 ] || fail "truncated .cst: want exit 125"
grep -q "cut.cst.*truncated" "$tmp/err" || fail "truncated .cst: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/err")" = 1 ] || fail "truncated .cst: more than one line of error"
"$cs" sim "$tmp/missing.cst" >/dev/null 2>"$tmp/err"; [ $? = 125 ] || fail "missing file: want exit 125"
grep -q "missing.cst" "$tmp/err" || fail "missing file: $(cat "$tmp/err")"
echo "sim: all checks passed"
