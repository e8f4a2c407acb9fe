#!/bin/bash
# json_schema.sh CYCLESCOPE WORKLOAD_DIR SCHEMA
# Every JSON the timing verbs write is valid against docs/result.schema.json
# (python3-jsonschema), and its provenance is true: the input's SHA-256 is
# sha256sum's, the resolved configuration is `config show`'s, the overrides are
# the --set options, the guest's exit status is the one `exec` gives. The
# outputs: run (out-of-order with overrides, warm-up and limit; in-order), a
# failing guest, sim of a recorded trace, stacks, stacks --validate, --json -
# and an output directory's results.json. Exit 77 without python3-jsonschema.
set -u -o pipefail
cs=$(realpath "$1") w=$(realpath "$2") schema=$(realpath "$3")
. "$(dirname "$(realpath "$0")")/find_jsonschema.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

"$cs" run --no-report --config bdw --set core.rob_size=64 --set l1d.latency=5 --warmup 2000 --max 30000 \
    --interval 7000 --json ooo.json "$w/sort" 300 >/dev/null 2>&1 || fail "run bdw"
"$cs" run --no-report --config inorder3 --max 30000 --json inorder.json "$w/list" 300 >/dev/null 2>&1 || fail "run inorder3"
"$cs" run --no-report --json guestfail.json "$w/tree" -5 >/dev/null 2>&1
[ $? = 2 ] || fail "run of a guest exiting 2 did not exit 2"
"$cs" exec "$w/tree" -5 >/dev/null 2>&1
[ $? = 2 ] || fail "exec tree -5 does not exit 2 (the test's premise)"
"$cs" trace record -o sort.cst "$w/sort" 300 >/dev/null 2>&1 || fail "trace record"
"$cs" sim --no-report --config knl --json sim.json sort.cst >/dev/null 2>&1 || fail "sim"
"$cs" stacks --max 30000 --json stacks.json "$w/sort" 300 >/dev/null 2>&1 || fail "stacks"
"$cs" stacks --validate --jobs 2 --max 20000 --json validate.json "$w/sort" 300 >/dev/null 2>&1 || fail "stacks --validate"
"$cs" run --no-report --max 20000 --json - "$w/sort" 300 >stdout.json 2>/dev/null || fail "run --json -"
"$cs" run --outdir od --max 20000 "$w/sort" 300 >/dev/null 2>&1 || fail "run --outdir"

"$py" - "$schema" "$cs" "$w" <<'PY' || exit 1
import json, subprocess, sys, hashlib, jsonschema
schema_path, cs, w = sys.argv[1:4]
schema = json.load(open(schema_path))
jsonschema.Draft202012Validator.check_schema(schema)
val = jsonschema.Draft202012Validator(schema)
files = ["ooo.json", "inorder.json", "guestfail.json", "sim.json", "stacks.json", "validate.json",
         "stdout.json", "od/results.json"]
bad = 0
docs = {}
for f in files:
    try:
        j = json.load(open(f))
    except Exception as e:
        print(f"FAIL: {f} is not JSON: {e}")
        bad = 1
        continue
    docs[f] = j
    errs = sorted(val.iter_errors(j), key=lambda e: list(e.path))
    for e in errs[:5]:
        print(f"FAIL: {f}: {'/'.join(map(str, e.path))}: {e.message[:200]}")
    bad |= bool(errs)
if bad:
    sys.exit(1)

def check(cond, what):
    global bad
    if not cond:
        print("FAIL:", what)
        bad = 1

def config_show(name, sets=()):
    args = [cs, "config", "show"]
    for s in sets:
        args += ["--set", s]
    text = subprocess.run(args + [name], capture_output=True, text=True, check=True).stdout
    out, sec = {}, None
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            sec = out.setdefault(line.strip("[]"), {})
            continue
        k, v = line.split(" = ", 1)
        sec[k] = True if v == "yes" else False if v == "no" else float(v) if v.replace(".", "", 1).isdigit() else v
    return out

def sha(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()

o = docs["ooo.json"]
p = o["provenance"]
check(p["config"]["overrides"] == ["core.rob_size=64", "l1d.latency=5"], "overrides listed in order")
check(p["config"]["resolved"] == config_show("bdw", ["core.rob_size=64", "l1d.latency=5"]),
      "resolved configuration = config show bdw with the overrides")
check(p["config"]["resolved"]["core"]["rob_size"] == 64, "the override is in the resolved configuration")
check(p["input"]["sha256"] == sha(f"{w}/sort") and p["input"]["bytes"] == len(open(f"{w}/sort", "rb").read()),
      "program SHA-256 and size = sha256sum's")
check(p["input"]["arguments"] == ["300"], "program arguments")
check(p["command"][:2] == ["cyclescope", "run"] and "--set" in p["command"], "command line")
check(p["warmup_instructions"] == 2000 and p["max_instructions"] == 30000, "warm-up and limit as asked")
check(o["instructions"] == 30000 or 30000 <= o["instructions"] < 30008, "--max counts instructions")
check(o["guest"] == {"state": "stopped"}, "a run cut by --max: guest stopped")
check(o["stacks"]["intervals"]["count"] == 5, "--interval 7000 of 30000 instructions: 5 intervals")
i = docs["inorder.json"]
check("rob_size" not in i["provenance"]["config"]["resolved"]["core"], "in-order resolved config has no rob_size")
check(i["provenance"]["config"]["resolved"] == config_show("inorder3"), "resolved = config show inorder3")
check(i["guest"] == {"state": "stopped"}, "inorder guest")
g = docs["guestfail.json"]
check(g["guest"] == {"state": "exited", "exit_code": 2}, f"failing guest: {g['guest']}")
s = docs["sim.json"]
check(s["guest"] is None and s["provenance"]["input"]["kind"] == "trace", "sim: a trace, no guest")
check(s["provenance"]["input"]["sha256"] == sha("sort.cst"), "trace SHA-256 = sha256sum's")
check(docs["stacks.json"]["stacks"]["cycles"] == docs["stacks.json"]["cycles"], "stacks cycles")
check(docs["stdout.json"]["guest"]["state"] == "stopped", "--json - is the run's JSON")
check(docs["od/results.json"]["provenance"]["command"][2:4] == ["--outdir", "od"], "outdir results.json")
sys.exit(bad)
PY
echo "ok: 8 JSON outputs of run, sim, stacks, stacks --validate, --json -, --outdir valid against the schema; provenance checked"
