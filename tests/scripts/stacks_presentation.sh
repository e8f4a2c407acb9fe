#!/bin/bash
# stacks_presentation.sh CYCLESCOPE WORKLOAD_DIR
# Honest presentation of the stacks (issue 18, items 16-18), checked against the
# run's own JSON:
#  - the terminal lists components in the fixed order of stacks.h (the JSON's and
#    the HTML's), whatever their sizes, so two runs' outputs line up;
#  - every component's range (min - max over the three stacks) is printed, and
#    exactly those whose range exceeds 10% of the cycles are marked uncertain, in
#    the terminal and in the HTML, with the pointer to stacks --validate;
#  - a run with no FP work says so instead of drawing a FLOPS stack; one with FP
#    work shows the FLOPS components under names that are not the CPI stack's;
#  - the validation table gives the summary line of the HTML report ("k of n
#    relevant cases fall within the range") and the error in % of CPI.
set -u -o pipefail
cs=$(realpath "$1") w=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

"$cs" run --report tree.html --json tree.json --max 300000 "$w/tree" 10000 >tree.out 2>&1 || fail "run tree"
"$cs" run --no-report --json fma.json --max 100000 "$w/fma" 3000 >fma.out 2>&1 || fail "run fma"
python3 - tree.out tree.json fma.out fma.json <<'PY' || exit 1
import json, re, sys
for out, js in ((sys.argv[1], sys.argv[2]), (sys.argv[3], sys.argv[4])):
    text = open(out).read()
    j = json.load(open(js))
    stacks = j["stacks"]["cpi_stacks"]
    order = list(stacks["commit"])                       # stacks.h order
    table = text[text.index("component     dispatch"):text.index("  total ")]
    rows = re.findall(r"^  ([a-z][a-zA-Z0-9-]*) +[0-9.]+ ", table, re.M)
    assert rows == [c for c in order if c in rows], f"{out}: terminal order {rows} is not the fixed order"
    cycles = j["cycles"]
    for c in rows:
        vals = [stacks[st][c]["cycles"] for st in ("dispatch", "issue", "commit")]
        wide = c != "base" and max(vals) - min(vals) > 0.10 * cycles
        line = re.search(rf"^  {re.escape(c)} .*$", table, re.M).group(0)
        assert line.endswith("uncertain") == wide, f"{out}: {c}: range {min(vals)}-{max(vals)} of {cycles}: {line}"
    if any(l.endswith("uncertain") for l in table.splitlines()):
        assert "`cyclescope stacks --validate` measures" in text, "no pointer to stacks --validate"
    assert "Range: each stack sees a stall from its own stage" in text
tree = open(sys.argv[1]).read()
assert "bpred" in tree and re.search(r"^  bpred .*uncertain$", tree, re.M), "tree on ooo4: bpred should be uncertain"
assert "FLOPS stack: no FP work (0 floating-point operations)" in tree, "tree: no FP work not said"
assert json.load(open(sys.argv[2]))["flops"] == 0
fma = open(sys.argv[3]).read()
assert json.load(open(sys.argv[4]))["flops"] > 0 and "FLOPS stack (Table III" in fma
flops_rows = re.findall(r"^  (no FP work|FP other|frontend|other) +[0-9.]+ +[0-9.]+%$", fma, re.M)
assert "no FP work" in flops_rows and "frontend" not in flops_rows and "other" not in flops_rows, flops_rows
PY
grep -q 'No FP work: the run did no floating-point operations' tree.html || fail "HTML: no FP work not said"
grep -q '<span class="uncertain" title="[^"]*stacks --validate' tree.html || fail "HTML: no uncertain mark"
grep -q 'panel-title">FLOPS stack' tree.html && fail "HTML draws a FLOPS stack for a run with no FP work"

"$cs" stacks --validate --jobs 2 --max 150000 --json v.json "$w/tree" 10000 >v.out 2>&1 || fail "stacks --validate"
python3 - v.out v.json <<'PY' || exit 1
import json, re, sys
text, v = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))["validation"]
rel = [c for c in v["cases"] if c["relevant"]]
k, n = sum(c["within"] for c in rel), len(rel)
m = re.search(r"(\d+) of (\d+) relevant cases? falls? within the range; mean §V-A error ([0-9.]+) CPI \(([0-9.]+)% of the CPI\)", text)
assert m, text[-800:]
assert (int(m.group(1)), int(m.group(2))) == (k, n), (m.groups(), k, n)
err = sum(c["error"] for c in rel) / n
assert abs(float(m.group(3)) - err) < 0.0005 and abs(float(m.group(4)) - 100 * err / v["base_cpi"]) < 0.05
assert "error % of CPI" in text
PY
echo "ok: fixed order, ranges and uncertain marks as the JSON says; no FP work said; validation summary line"
