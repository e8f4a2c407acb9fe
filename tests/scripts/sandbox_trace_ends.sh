#!/bin/bash
# sandbox_trace_ends.sh CYCLESCOPE GUEST_DIR
# Nonsense that used to be accepted quietly (issue 11, item 12) is an error that
# names the input and its real length: an empty ChampSim trace given to `sim` or
# `trace import-champsim` (which must then write no output), and `sim --warmup N`
# at or past the end of a trace. A warm-up one instruction short still times that instruction.
set -u
cs=$1 g=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
: >empty.champsim
"$cs" sim --no-report empty.champsim >/dev/null 2>err.txt && bad "sim of an empty trace succeeded"
grep -q "^cyclescope: empty.champsim: empty ChampSim trace (no records)$" err.txt || bad "sim: $(cat err.txt)"
"$cs" trace import-champsim empty.champsim -o e.cst >/dev/null 2>err.txt && bad "import of an empty trace succeeded"
grep -q "empty.champsim: empty ChampSim trace" err.txt || bad "import: $(cat err.txt)"
[ -e e.cst ] && bad "import of an empty trace left an output"
"$cs" trace record -o h.cst "$g/hello" >/dev/null 2>&1 || { echo "FAIL: cannot record"; exit 1; }
n=$("$cs" trace info h.cst | awk '/^instructions:/ {print $2}')
[ -n "$n" ] && [ "$n" -gt 1000 ] || { echo "FAIL: no instruction count from trace info"; exit 1; }
for w in $((n + 1000)) "$n"; do
    "$cs" sim --no-report --warmup "$w" h.cst >out.txt 2>err.txt && bad "--warmup $w of a $n-µop trace succeeded"
    grep -Eq "h.cst.*(ends after $n instructions, within the warm-up of $w|ends with the warm-up of $w) instructions" err.txt ||
        bad "--warmup $w: $(cat err.txt)"
    [ -s out.txt ] && bad "--warmup $w printed a report"
done
"$cs" sim --no-report --warmup $((n - 1)) h.cst >out.txt 2>err.txt || bad "--warmup n-1 failed: $(cat err.txt)"
grep -Eq "instructions +1$" out.txt || bad "--warmup n-1 did not time the last µop: $(grep instructions out.txt)"
grep -Eq "warm-up µops +$((n - 1))$" out.txt || bad "--warmup n-1: warm-up reported wrong"
[ $fail = 0 ] && echo "ok: empty trace and warm-up past the end are errors naming the real length ($n instructions)"
exit $fail
