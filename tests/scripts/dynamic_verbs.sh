#!/bin/bash
# dynamic_verbs.sh CYCLESCOPE GUEST_DIR: dynamically linked programs (ld.so and libc.so run
# from the sysroot) through every verb that times or analyses a program, each checked
# against its own ground truth (docs/sandbox.md, "Dynamically linked programs"):
#   - run (ooo4, inorder1): the program's output as exec's, exactly the instructions
#     `exec --stats` counts (the loader's included), CPI stacks that sum to the cycles;
#   - trace record, then sim: the instructions and cycles of run;
#   - stallscope: accumulated = lost = width x cycles - committed µops; its hot spots name
#     main (PIE and non-PIE) and leave the libraries' pcs unnamed;
#   - rpstacks: the graph's longest path = the simulated cycles, no constraint violated;
#   - profile record --truth / report / annotate (a non-PIE and a PIE): main,
#     the hot loop, holds the most samples; ld.so's samples are in its procedures
#     (docs/profile.md, "Shared libraries"); the grade finds main's frequencies within 10%; main's listing starts at
#     the address disasm gives;
#   - disasm of a dynamically linked PIE: main listed.
set -u -o pipefail
cs=$(realpath "$1") g=$(realpath "$2")
prog=$g/hot_loop_dynamic arg=60000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$cs" exec --env-fixed --stats "$prog" $arg >exec.out 2>exec.err || fail "exec: $(cat exec.err)"
count=$(grep -Eo '[0-9]+ instructions in' exec.err | grep -Eo '^[0-9]+')
[ -n "$count" ] || fail "exec --stats printed no count"
"$cs" trace record --env-fixed -o t.cst "$prog" $arg >trace.out 2>err || fail "trace record: $(cat err)"
for config in ooo4 inorder1; do
    "$cs" run --env-fixed --no-report --config $config --json run.$config.json "$prog" $arg >run.out 2>err ||
        fail "run $config: $(cat err)"
    head -c "$(wc -c <exec.out)" run.out | cmp -s - exec.out || fail "run $config: the program's output differs from exec's"
    python3 - run.$config.json "${count:-0}" <<'PY' || fail "run $config: instructions or stacks wrong"
import json, sys
d = json.load(open(sys.argv[1])); count = int(sys.argv[2])
assert d["instructions"] == count, (d["instructions"], count)
for where, stack in d["stacks"]["cpi_stacks"].items():
    total = sum(c["cycles"] for c in stack.values() if isinstance(c, dict) and "cycles" in c)
    assert abs(total - d["cycles"]) <= 1e-6 * d["cycles"] + 0.5, (where, total, d["cycles"])
PY
    "$cs" sim --no-report --config $config --json sim.$config.json t.cst >/dev/null 2>err || fail "sim $config: $(cat err)"
    python3 -c "import json, sys; s, r = (json.load(open(f)) for f in sys.argv[1:])
sys.exit(0 if (s['instructions'], s['cycles']) == (r['instructions'], r['cycles']) else 1)" sim.$config.json run.$config.json ||
        fail "sim of the trace ($config) does not time what run does"
done
cmp -s trace.out exec.out || fail "trace record: the program's output differs from exec's"

"$cs" stallscope --env-fixed --json ss.json "$prog" $arg >out 2>err || fail "stallscope: $(cat err)"
python3 -c "import json; d = json.load(open('ss.json')); s = d['stallscope']
assert s['accumulated'] == s['lost'] == s['opportunities'] - s['completed'] and s['opportunities'] == 4 * s['cycles'], s" ||
    fail "stallscope: accumulated != lost"

"$cs" rpstacks -o r.rps --json r.json "$prog" $arg >out 2>err || fail "rpstacks: $(cat err)"
python3 -c "import json; d = json.load(open('r.json'))
assert d['graph_cycles'] == d['simulated_cycles'] > 0 and d['constraint_violations'] == 0, d" ||
    fail "rpstacks: the graph's longest path is not the simulated cycles"

nopie=$g/hot_loop_dynamic_nopie
# hot spots name the program's own functions, never a library's pc (which lies past the
# program's last symbol: it was named __global_pointer$)
for p in "$nopie" "$prog"; do
"$cs" stallscope --json ssn.json "$p" 20000 >out 2>err || fail "stallscope ($p): $(cat err)"
python3 - ssn.json <<'PY' || fail "stallscope ($p): hot spots named wrongly"
import json, sys
named, libs = set(), 0
def walk(o):
    global libs
    if isinstance(o, dict):
        if "pc" in o:
            pc = int(o["pc"], 16) if isinstance(o["pc"], str) else o["pc"]
            if pc >= 0x3000000000:
                libs += 1
                assert "function" not in o, ("a library pc named", o)
            elif "function" in o:
                named.add(o["function"])
        for v in o.values(): walk(v)
    elif isinstance(o, list):
        for v in o: walk(v)
walk(json.load(open(sys.argv[1])))
assert "main" in named and libs > 0, (named, libs)
PY
done
# profiles: the non-PIE and the PIE (the cross gcc's default); the pcs of a
# PIE's code are kept at their link addresses, so its procedures are found (before, none of
# a PIE's samples was at an instruction of a procedure)
for p in "$nopie" "$prog"; do
    "$cs" profile record --config inorder1 --period 2000 --truth p.truth -o p.prof "$p" 200000 >out 2>err ||
        fail "profile record ($p): $(cat err)"
    "$cs" profile report --truth p.truth p.prof >report 2>err || fail "profile report ($p): $(cat err)"
    first=$(awk '/samples +%/ {getline; print $NF; exit}' report)
    [ "$first" = main ] || fail "profile report ($p): the first procedure is $first, not main (the hot loop)"
    # ld.so's and libc's samples in their own procedures (profile version 7; before, outside any)
    grep -qE '^ +[0-9]+ .* ld-linux-riscv64-lp64d\.so\.1:[A-Za-z_0-9]+' report ||
        fail "profile report ($p): no procedure of ld.so (the libraries' samples)"
    grep -qE 'frequency within 5% [0-9.]+%, 10% (9[0-9]|100)\.' report ||
        fail "profile report ($p): grade: $(grep grade report | head -1)"
    "$cs" profile annotate --function main p.prof >ann 2>err || fail "profile annotate ($p): $(cat err)"
    # the listing's addresses are the ELF's, as disasm prints them
    "$cs" disasm "$p" >dis 2>err || fail "disasm ($p): $(cat err)"
    pc=$(awk '/<main>:/ {sub(/^0+/, "", $1); print $1; exit}' dis)
    grep -qiE "^ *${pc:-none} " ann || fail "profile annotate ($p): main's first address ${pc:-?} (disasm) not in its listing"
done

"$cs" disasm "$g/hello_dynamic" >dis 2>err || fail "disasm: $(cat err)"
grep -q '<main>:' dis || fail "disasm: no main"

[ $failures = 0 ] || { cat "$tmp/err" 2>/dev/null | head -3; exit 1; }
echo "dynamic verbs: $count instructions under exec and run; trace, stallscope, rpstacks, profile, disasm agree"
