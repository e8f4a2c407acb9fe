#!/bin/bash
# verbs_json.sh CYCLESCOPE WORKLOAD_DIR SCHEMA: the JSON of the verbs outside the run
# schema (issue 18 items 2 and 4): rpstacks, whatif, profile report, model solve and
# merge each write strict JSON (no NaN or Infinity) holding the fields their doc pages
# name; with `--json -` stdout holds the JSON alone (the guest's output and the tables go
# to stderr); and every document starts with the common provenance header (validated
# against its schema, and checked true, by the results.schema.* tests: verb_schema.sh).
set -u -o pipefail
cs=$(realpath "$1") w=$(realpath "$2") schema=$(realpath "$3")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

"$cs" rpstacks --max 6000 --segment 2000 --json rpstacks.json -o r.rps "$w/ptr_chase" 4 >/dev/null 2>&1 || fail "rpstacks"
"$cs" rpstacks --max 6000 --segment 2000 --json - -o r2.rps "$w/ptr_chase" 4 >rpstacks-stdout.json 2>/dev/null ||
    fail "rpstacks --json -"
"$cs" whatif r.rps --grid 'l1d.latency=2,6' --json whatif.json >/dev/null 2>&1 || fail "whatif"
"$cs" whatif r.rps --grid 'l1d.latency=2,6' --json - >whatif-stdout.json 2>/dev/null || fail "whatif --json -"
"$cs" profile record --period 1000 --max 100000 -o p.prof "$w/sort" 300 >/dev/null 2>&1 || fail "profile record"
"$cs" profile report --json profile.json p.prof >/dev/null 2>&1 || fail "profile report"
"$cs" profile report --json - p.prof >profile-stdout.json 2>/dev/null || fail "profile report --json -"
"$cs" model analyze --max 20000 -o m.smp "$w/sort" 300 >/dev/null 2>&1 || fail "model analyze"
"$cs" model solve --json model.json m.smp >/dev/null 2>&1 || fail "model solve"
"$cs" model solve --json - m.smp >model-stdout.json 2>/dev/null || fail "model solve --json -"
"$cs" model info --json - m.smp >info-stdout.json 2>/dev/null || fail "model info --json -"
"$cs" sweep --grid 'core.rob_size=64,128' --max 5000 -o sw "$w/sort" 300 >/dev/null 2>&1 || fail "sweep"
"$cs" merge sw >/dev/null 2>&1 || fail "merge"

python3 - "$schema" <<'PY'
import json, sys
run_schema = json.load(open(sys.argv[1]))
def strict(f):
    def bad(c): raise ValueError(f"{c} is not JSON")
    return json.load(open(f), parse_constant=bad)
docs, bad = {}, 0
for f in ["rpstacks.json", "rpstacks-stdout.json", "whatif.json", "whatif-stdout.json", "profile.json",
          "profile-stdout.json", "model.json", "model-stdout.json", "info-stdout.json", "sw/sweep-table.json"]:
    try:
        docs[f] = strict(f)
    except Exception as e:
        print(f"FAIL: {f} is not strict JSON: {e}")
        bad = 1
if bad:
    sys.exit(1)
def check(cond, what):
    global bad
    if not cond:
        print("FAIL:", what)
        bad = 1
# the fields each verb's doc page names
named = {
    "rpstacks.json": ["simulated_cycles", "graph_cycles", "graph_error_percent", "segments", "stacks", "analysis",
                      "events"],  # docs/rpstacks.md
    "model.json": ["components"],  # docs/statmodel.md (Table 9.1 state spaces)
    "sw/sweep-table.json": ["format", "points"],  # docs/sweep.md
    "whatif.json": ["points"],  # docs/rpstacks.md (every point of the grid)
    "profile.json": ["procedures"],  # docs/profile.md (the procedure summary, culprit_cycles)
}
for f, keys in named.items():
    for k in keys:
        check(k in docs[f], f"{f}: no {k}")
check(docs["sw/sweep-table.json"].get("format") == "cyclescope-sweep-table", "sweep-table.json: format")
check(len(docs["sw/sweep-table.json"].get("points", [])) == 2, "sweep-table.json: not the grid's 2 points")
check(len(docs["whatif.json"]["points"]) == 2, "whatif.json: not the grid's 2 points")
check(all("culprit_cycles" in p for p in docs["profile.json"]["procedures"]) and docs["profile.json"]["procedures"],
      "profile.json: a procedure without culprit_cycles")
# --json - gives the same document as --json FILE (wall-clock seconds and the provenance's
# command and date aside)
def no_time(x):
    if isinstance(x, dict):
        return {k: no_time(v) for k, v in x.items()
                if "seconds" not in k and k not in ("file", "analysis", "provenance")}
    if isinstance(x, list):
        return [no_time(v) for v in x]
    return x
for v in ["rpstacks", "whatif", "profile", "model"]:
    check(no_time(docs[f"{v}.json"]) == no_time(docs[f"{v}-stdout.json"]), f"{v}: --json - differs from --json FILE")
# every document starts with the common header (its schema and the truth of its provenance:
# tests results.schema.* with tests/scripts/verb_schema.sh)
without = [f for f, j in docs.items()
           if not all(k in j for k in ("schema", "schema_version", "cyclescope_version", "cyclescope_commit",
                                       "provenance"))]
check(not without, f"without the provenance header: {', '.join(without)}")
print("strict JSON with the documented fields and the provenance header; --json - alone on stdout")
sys.exit(bad)
PY
