#!/bin/bash
# verb_schema.sh CYCLESCOPE WORKLOAD_DIR DOCS_DIR VERB
# One verb's JSON output on a tiny workload, validated against its schema in docs/ and
# its provenance header checked true by validate_json.py (docs/json-schema.md): present
# (the schema rejects the document without any part of it), the build's commit, today's
# date, the input's SHA-256 = sha256sum's, the configuration = `config show`'s (keys and
# SHA-256), the command as run. VERB: rpstacks, whatif, profile_report, profile_report_set (recorded
# with --set), profile_annotate, profile_imiss (recorded with --set),
# model_solve, model_solve_grid, model_info, merge (the table and every point file's
# result), stallscope, simpoints (run --simpoints), simpoint_manifest (simpoint's simpoint.json). rpstacks also: a failing guest's exit
# status and JSON; rpstacks_partial: Ctrl-C. Exit 77 without python3-jsonschema.
set -u -o pipefail
cs=$(realpath "$1") w=$(realpath "$2") docs=$(realpath "$3") verb=$4
here=$(dirname "$(realpath "$0")")
. "$(dirname "$(realpath "$0")")/find_jsonschema.sh"
. "$(dirname "$(realpath "$0")")/interrupt.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
# run COMMAND…: run cyclescope with the words given, remember them for the command check
run() { cmd=(cyclescope "$@"); "$cs" "$@" >out.txt 2>err.txt || fail "cyclescope $*: exit $?: $(tail -3 err.txt)"; }
validate() { "$py" "$here/validate_json.py" "$cs" "$docs" "$docs/$1" "$2" "${cmd[@]}"; }
rps() { "$cs" rpstacks --max 6000 --segment 2000 --set l1d.latency=5 -o r.rps "$w/ptr_chase" 4 >/dev/null 2>&1 ||
    fail "rpstacks"; }
prof() { "$cs" profile record --config inorder1 --period 500 --max 20000 -o p.prof "$w/sort" 300 >/dev/null 2>&1 ||
    fail "profile record"; }
# config_is JSON SOURCE OVERRIDES: the header's configuration source and overrides (a JSON list)
config_is() {
    "$py" - "$@" <<'PY' || fail "$1: the header's configuration is not $2 with $3"
import json, sys
c = json.load(open(sys.argv[1]))["provenance"]["config"]
sys.exit(not (c["source"] == sys.argv[2] and c["overrides"] == json.loads(sys.argv[3])))
PY
}
smp() { "$cs" model analyze --max 10000 -o m.smp "$w/sort" 300 >/dev/null 2>&1 || fail "model analyze"; }

case "$verb" in
rpstacks)
    run rpstacks --max 6000 --segment 2000 --config ooo4 --set l1d.latency=5 --json r.json -o r.rps "$w/ptr_chase" 4
    validate rpstacks.schema.json r.json || exit 1
    # a failing guest: the results are written, the exit status and the JSON's guest are its own
    "$cs" rpstacks --json f.json -o f.rps "$w/tree" -5 >/dev/null 2>&1
    [ $? = 2 ] || fail "rpstacks of a guest exiting 2 did not exit 2"
    "$py" -c 'import json, sys; g = json.load(open("f.json"))["guest"]
sys.exit(g != {"state": "exited", "exit_code": 2})' || fail "rpstacks: the JSON's guest is not {exited, 2}" ;;
rpstacks_partial)
    # Ctrl-C (one SIGINT, by hand: see results_cli.sh): the stacks of what ran are written,
    # marked partial, exit 130; the .rps records the instructions that ran as its --max
    cmd=(cyclescope rpstacks --segment 2000 --max 3000000 --json r.json -o r.rps "$w/sort" 400000)
    # after a second of processor time, about a million instructions: the analysis of what ran stays short
    interrupt_running 1 rpstacks out.txt err.txt "$cs" "${cmd[@]:1}"
    grep -q "^PARTIAL RESULTS: the run was interrupted" out.txt || fail "the terminal output is not marked partial"
    validate rpstacks.schema.json r.json || exit 1
    "$cs" whatif r.rps --set l1d.latency=5 --json w.json >/dev/null 2>&1 || fail "whatif of the partial .rps"
    "$py" - <<'PY' || fail "the partial rpstacks JSON"
import json
r, w = json.load(open("r.json")), json.load(open("w.json"))
assert r["complete"] is False and r["stopped_by"].startswith("interrupted"), r["complete"]
assert 0 < r["instructions"] < 3_000_000 and r["guest"] == {"state": "stopped"}, r["instructions"]
assert w["provenance"]["max_instructions"] == r["instructions"] == w["instructions"], (w["provenance"], r["instructions"])
PY
    ;;
whatif)
    rps
    run whatif r.rps --grid 'l1d.latency=2,6' --json w.json
    validate whatif.schema.json w.json ;;
profile_report)
    prof
    run profile report --json p.json p.prof
    validate profile.schema.json p.json ;;
profile_annotate)
    prof
    run profile annotate --json p.json p.prof
    validate profile.schema.json p.json ;;
profile_report_set)
    # recorded with --set: the header names the source and the overrides in order (docs/profile.md)
    "$cs" profile record --config inorder1 --set l1d.size=2048 --set l1i.size=1024 --period 500 --max 20000 \
        -o p.prof "$w/sort" 300 >/dev/null 2>&1 || fail "profile record --set"
    run profile report --json p.json p.prof
    validate profile.schema.json p.json || exit 1
    config_is p.json inorder1 '["l1d.size=2048", "l1i.size=1024"]' ;;
profile_imiss)
    "$cs" profile record --config inorder3 --set l1i.size=1024 --period 1000 --events 1 --max 50000 -o p.prof \
        "$w/sort" 300 >/dev/null 2>&1 || fail "profile record --events"
    run profile imiss --json p.json p.prof
    validate profile-imiss.schema.json p.json || exit 1
    config_is p.json inorder3 '["l1i.size=1024"]' ;;
model_solve)
    smp
    run model solve --config inorder1 --set l1d.latency=3 --json m.json m.smp
    validate model.schema.json m.json ;;
model_solve_grid)
    smp
    run model solve --config inorder1 --grid 'l1d.size=8K,16K' --json - m.smp
    mv out.txt m.json
    validate model.schema.json m.json ;;
model_info)
    smp
    run model info --json m.json m.smp
    validate model.schema.json m.json ;;
merge)
    "$cs" sweep --grid 'core.rob_size=64,128' --set l1d.latency=5 --max 5000 -o sw "$w/sort" 300 >/dev/null 2>&1 ||
        fail "sweep"
    run merge sw
    validate sweep-table.schema.json sw/sweep-table.json || exit 1
    # each point file's result (the file itself is the sweep's own checksummed record)
    n=0
    for f in sw/????????????????.json; do
        "$py" -c 'import json, sys; json.dump(json.load(open(sys.argv[1]))["result"], open(sys.argv[2], "w"))' \
            "$f" point.json || fail "$f: no result"
        "$py" "$here/validate_json.py" "$cs" "$docs" "$docs/result.schema.json" point.json || fail "$f"
        n=$((n + 1))
    done
    [ "$n" = 2 ] || fail "$n point files, not the grid's 2" ;;
stallscope)
    run stallscope --max 20000 --config bdw --set core.rob_size=64 --json s.json "$w/list" 300
    validate result.schema.json s.json ;;
simpoints)
    "$cs" simpoint --env-fixed --interval 20K -o spd "$w/sort" 2000 >/dev/null 2>&1 || fail "simpoint"
    run run --no-report --simpoints spd --jobs 2 --json sp.json "$w/sort" 2000
    validate result.schema.json sp.json ;;
simpoint_manifest)
    run simpoint --env-fixed --interval 20K -o spd "$w/sort" 2000
    validate simpoint.schema.json spd/simpoint.json || exit 1
    # the header is under the manifest's checksum: `run --simpoints` still accepts it, and refuses it edited
    "$cs" run --no-report --simpoints spd "$w/sort" 2000 >/dev/null 2>&1 || fail "run --simpoints refuses the manifest"
    sed -i 's/"complete":\ttrue/"complete":\tfalse/' spd/simpoint.json
    grep -q '"complete":.false' spd/simpoint.json || fail "could not edit the header"
    "$cs" run --no-report --simpoints spd "$w/sort" 2000 >/dev/null 2>err2.txt && fail "an edited header was accepted"
    grep -q checksum err2.txt || fail "an edited header: $(cat err2.txt)" ;;
*) fail "unknown verb $verb" ;;
esac
