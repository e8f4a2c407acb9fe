#!/bin/bash
# compare_check.sh CYCLESCOPE WORKLOAD_DIR
# cyclescope compare: the terminal shows each run's numbers as its JSON has them
# and the changes against A computed from them (summary and every CPI-stack
# component at dispatch, issue and commit, in the fixed order); a note when the
# inputs differ; the HTML has the stacks side by side; bad inputs are refused.
set -u -o pipefail
cs=$(realpath "$1") w=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

"$cs" run --no-report --max 100000 --json a.json "$w/tree" 10000 >/dev/null 2>&1 || fail "run a"
"$cs" run --no-report --max 100000 --set bpred.type=tage --json b.json "$w/tree" 10000 >/dev/null 2>&1 || fail "run b"
"$cs" run --no-report --config inorder3 --max 100000 --json c.json "$w/sort" 3000 >/dev/null 2>&1 || fail "run c"
"$cs" compare --report cmp.html a.json b.json c.json >cmp.out 2>&1 || fail "compare: $(cat cmp.out)"
python3 - cmp.out a.json b.json c.json <<'PY' || exit 1
import json, re, sys
text = open(sys.argv[1]).read()
runs = [json.load(open(f)) for f in sys.argv[2:5]]
def row(section_start, name):
    block = text[text.index(section_start):]
    block = block[:block.index("\n\n")] if "\n\n" in block else block
    m = re.search(rf"^  {re.escape(name)} +(.*)$", block, re.M)
    assert m, (section_start, name)
    return m.group(1).split()
for name, key, dec in (("cycles", "cycles", 0), ("instructions", "instructions", 0), ("IPC", "ipc", 3), ("CPI", "cpi", 3)):
    cells = row("  summary", name)
    vals = [float(c) for c in cells[:3]]
    for v, r in zip(vals, runs):
        assert abs(v - r[key]) <= 0.5 * 10 ** -dec + 1e-9, (name, v, r[key])  # a printed tie may round up
    assert abs(float(cells[3]) - (runs[1][key] - runs[0][key])) <= 10 ** -dec, (name, cells)
for st in ("dispatch", "issue", "commit"):
    order = [c for c in runs[0]["stacks"]["cpi_stacks"][st]]
    block = text[text.index(f"  CPI at {st}"):]
    block = block[:block.index("  total")]
    shown = re.findall(r"^  ([a-z][a-zA-Z0-9-]*) +[0-9.]+ ", block, re.M)
    assert shown == [c for c in order if c in shown], (st, shown)
    for c in shown:
        cells = row(f"  CPI at {st}", c)
        vals = [r["stacks"]["cpi_stacks"][st][c]["cpi"] for r in runs]
        for cell, v in zip(cells[:3], vals):
            assert abs(float(cell) - v) <= 0.0005 + 1e-9, (st, c, cell, v)  # 0.0475 prints 0.048
        assert abs(float(cells[3]) - (vals[1] - vals[0])) <= 0.001, (st, c, cells)
        assert abs(float(cells[5]) - (vals[2] - vals[0])) <= 0.001, (st, c, cells)
assert re.search(r"note: C ran another input than A", text), "no note for another input"
assert "note: B ran another input" not in text
assert "(--set bpred.type=tage)" in text
PY
grep -q '<section id="compare"' cmp.html && [ "$(grep -o 'class="seg"' cmp.html | wc -l)" -ge 9 ] || fail "HTML: no stacks side by side"
grep -q 'C ran another input than A' cmp.html || fail "HTML: no note for another input"
# options after the files, as users type them (they were read as a file named --report)
"$cs" compare a.json b.json --report cmp2.html >/dev/null 2>err || fail "--report after the files: $(cat err)"
grep -q '<section id="compare"' cmp2.html || fail "--report after the files wrote no report"
# bad inputs
"$cs" compare a.json >/dev/null 2>err
[ $? = 2 ] && grep -q "give two or more JSON results" err || fail "one file: $(cat err)"
echo '{"cycles": 1}' >plain.json
"$cs" compare a.json plain.json >/dev/null 2>err
[ $? = 125 ] && [ "$(wc -l <err)" = 1 ] && grep -q "plain.json: not a cyclescope result" err || fail "a JSON that is no result: $(cat err)"
echo 'not json' >bad.json
"$cs" compare a.json bad.json >/dev/null 2>err
[ $? = 125 ] && grep -q "bad.json: not JSON" err || fail "not JSON: $(cat err)"
"$cs" compare a.json no-such.json >/dev/null 2>err
[ $? = 125 ] && grep -q "no-such.json" err || fail "missing file: $(cat err)"
echo "ok: compare shows the JSONs' numbers and their changes; HTML side by side; bad inputs refused"
