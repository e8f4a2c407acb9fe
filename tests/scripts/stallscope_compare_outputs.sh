#!/bin/bash
# stallscope_compare_outputs.sh CYCLESCOPE DOCS_DIR PROG [ARGS…]
# `stallscope --compare inorder3 ooo4` with --json and --report (issue 13):
# - the JSON parses, is valid against docs/stallscope-compare.schema.json and its
#   header is true (validate_json.py; skipped part when python3-jsonschema is missing);
# - every leaf and node row: delta = B - A, percent = weight / opportunities, cycles =
#   weight / width; each run's leaf weights add up to its lost opportunities (exact
#   accounting: lost = opportunities - completed);
# - each side's configuration SHA-256 is `config show`'s;
# - every number the text prints equals the JSON's (rounded as printed), row for row;
# - --json -: stdout holds the JSON alone, the same rows;
# - the HTML: no scripts, the comparison section, each row's shares with a bar.
set -eu
cs=$(realpath "$1") docs=$2
shift 2
here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
common=(--max 20000 "$@")
"$cs" stallscope --compare inorder3 ooo4 --json "$tmp/c.json" --report "$tmp/c.html" "${common[@]}" >"$tmp/c.txt"
"$cs" stallscope --compare inorder3 ooo4 --json - "${common[@]}" >"$tmp/stdout.json" 2>"$tmp/stderr.txt"
"$cs" config show inorder3 | sha256sum | cut -d' ' -f1 >"$tmp/a.sha"
"$cs" config show ooo4 | sha256sum | cut -d' ' -f1 >"$tmp/b.sha"
if py=$(. "$here/find_jsonschema.sh" >/dev/null && echo "$py"); then
    "$py" "$here/validate_json.py" "$cs" "$docs" "$docs/stallscope-compare.schema.json" "$tmp/c.json"
else
    echo "python3-jsonschema missing: schema not checked"
fi
python3 - "$tmp" <<'PY'
import json, re, sys
tmp = sys.argv[1]
bad = []
def check(ok, what):
    if not ok: bad.append(what)

j = json.load(open(f"{tmp}/c.json"))
runs = j["runs"]
check([r["label"] for r in runs] == ["A", "B"] and [r["config"] for r in runs] == ["inorder3", "ooo4"], "runs")
for r, f in zip(runs, ["a.sha", "b.sha"]):
    check(r["configuration"]["sha256"] == open(f"{tmp}/{f}").read().strip(), f"{r['label']}: config sha256")
    check(r["lost"] == r["opportunities"] - r["completed"], f"{r['label']}: lost")
check(runs[0]["completion"] == "issue" and runs[1]["completion"] == "commit", "completion points")
for summary in ["leaf_summary", "node_summary"]:
    rows = j[summary]
    check(len(rows) > 3, f"{summary}: {len(rows)} rows")
    for row in rows:
        t = row["type"]
        for side, r in zip("AB", runs):
            s = row[side]
            check(abs(s["percent"] - 100.0 * s["weight"] / r["opportunities"]) < 1e-9, f"{summary} {t} {side} percent")
            check(abs(s["cycles"] - s["weight"] * r["cycles"] / r["opportunities"]) < 1e-6, f"{summary} {t} {side} cycles")
        # cJSON writes 15 significant digits when they read back within an ulp: equal to 1e-9
        check(abs(row["delta_cycles"] - (row["B"]["cycles"] - row["A"]["cycles"])) < 1e-9, f"{summary} {t}: delta_cycles != B - A")
        check(abs(row["delta_percent"] - (row["B"]["percent"] - row["A"]["percent"])) < 1e-9, f"{summary} {t}: delta_percent != B - A")
for k, r in enumerate(runs):  # the leaves account for every lost opportunity
    check(sum(row["AB"[k]]["weight"] for row in j["leaf_summary"]) == r["lost"], f"{r['label']}: leaves != lost")

def text_rows(text):
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r" (Leaf|Node) summary +A +B +B-A cycles$", line)
        if m:
            cur = m.group(1).lower() + "_summary"; out[cur] = []; continue
        if not line.strip(): cur = None; continue
        if cur:
            f = line.split()
            out[cur].append((f[0], f[1], f[2], f[3], f[4], f[5]))
    return out

def json_rows(doc):
    return {s: [(r["type"], "%.2f%%" % r["A"]["percent"], "%.0f" % r["A"]["cycles"], "%.2f%%" % r["B"]["percent"],
                 "%.0f" % r["B"]["cycles"], "%+.0f" % r["delta_cycles"]) for r in doc[s]]
            for s in ["leaf_summary", "node_summary"]}

text = open(f"{tmp}/c.txt").read()
check(text_rows(text) == json_rows(j), "the text's rows differ from the JSON's")
a, b = runs
m = re.search(r"A = inorder3: (\d+) cycles, IPC ([\d.]+);  B = ooo4: (\d+) cycles, IPC ([\d.]+)", text)
check(m and m.groups() == (str(a["run_cycles"]), "%.3f" % a["ipc"], str(b["run_cycles"]), "%.3f" % b["ipc"]),
      "the text's first line differs from runs[].run_cycles/ipc")
m = re.search(r"cycles: A (\d+), B (\d+) .*; µops A (\d+), B (\d+)", text)
check(m and m.groups() == tuple(str(x) for x in (a["cycles"], b["cycles"], a["completed"], b["completed"])),
      "the text's cycles line differs from runs[]")

s = json.load(open(f"{tmp}/stdout.json"))  # --json -: stdout is the JSON alone
check(json_rows(s) == json_rows(j), "--json -: rows differ from --json FILE's")
check("Leaf summary" in open(f"{tmp}/stderr.txt").read(), "--json -: the text is not on stderr")

html = open(f"{tmp}/c.html").read()
check("<script" not in html, "the HTML has a script")
check('id="stallscope-compare"' in html or "Stallscope comparison" in html, "no comparison section")
for r in json_rows(j)["leaf_summary"]:
    pat = re.escape(r[0]) + r"</td><td><span[^>]*><span[^>]*></span></span> " + re.escape(r[1]) + \
          r"</td><td class=\"num\">" + re.escape(r[2]) + r"</td>"
    check(re.search(pat, html), f"HTML: no row for {r[0]} with A {r[1]} {r[2]} and a bar")
for b_ in bad: print("FAIL:", b_)
if bad: sys.exit(1)
print(f"ok: {len(j['leaf_summary'])} leaf and {len(j['node_summary'])} node rows; deltas B - A; text = JSON = HTML")
PY
