#!/bin/bash
# guest_fault.sh CYCLESCOPE GUEST_DIR DOCS_DIR: a program that faults ends every timing verb as
# Linux would end it (docs/json-schema.md): the results of what ran are written, the JSON says
# {"state": "fault", "error": …}, stderr says why in one line and the exit status is 128 + the
# signal (139: segfault, 132: illegal instruction), as `exec` gives. A program that aborts is
# killed by SIGABRT as by a fault: the JSON's guest a fault (not "exited" with 134), one line
# saying so (not "killed by signal" then "exited with status 134"), exit 134 — `stallscope
# --compare` and `stacks --validate` too, after the outputs.
set -u -o pipefail
cs=$(realpath "$1") g=$(realpath "$2") docs=$(realpath "$3")
here=$(dirname "$(realpath "$0")")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
check() { # STATUS PROG SCHEMA COMMAND…: the exit status, one line naming the fault, the JSON
    local want=$1 prog=$2 schema=$3
    shift 3
    rm -f out.json
    "$cs" "$@" --json out.json "$g/$prog" >/dev/null 2>err
    local rc=$?
    [ $rc = "$want" ] || fail "$* $prog: exit $rc, not $want: $(cat err)"
    [ -s out.json ] || fail "$* $prog: no JSON written"
    if [ "$want" -gt 128 ]; then
        grep -q "^cyclescope: .*$prog: \(segmentation fault\|illegal instruction\|killed by signal SIGABRT\)" err ||
            fail "$* $prog: the fault is not said: $(cat err)"
        # (--compare's header: how its first run ended; --validate's ran in another process: null)
        python3 -c "import json, sys; g = json.load(open('out.json'))['guest']
sys.exit(0 if g is None and 'validate' in sys.argv[1] or g is not None and g['state'] == 'fault' and 'at pc 0x' in g['error'] else 1)" "$*" ||
            fail "$* $prog: guest is not a fault: $(head -c 300 out.json)"
    fi
    if [ -n "$schema" ] && py=$(. "$here/find_jsonschema.sh" >/dev/null && echo "$py"); then
        "$py" "$here/validate_json.py" "$cs" "$docs" "$docs/$schema" out.json >/dev/null ||
            fail "$* $prog: the JSON is not valid against $schema"
    fi
}
for prog in segfault:139 illegal:132 fault_first:132 guest_abort:134; do
    p=${prog%:*} s=${prog#*:}
    check "$s" "$p" result.schema.json run --no-report
    check "$s" "$p" result.schema.json run --no-report --config inorder3 --analysis stacks,stallscope
    check "$s" "$p" result.schema.json stacks
    check "$s" "$p" result.schema.json stallscope
    check "$s" "$p" rpstacks.schema.json rpstacks -o r.rps
    check "$s" "$p" stallscope-compare.schema.json stallscope --compare ooo4 inorder3
    check "$s" "$p" result.schema.json stacks --validate --jobs 2
done
# a fault at the very first instruction (fault_first.S): no instruction ran, and that run of
# nothing is the result — not "the input has no µops" (exit 125); one line, the fault's
for args in "run --no-report" "stacks" "stallscope" "rpstacks -o r.rps"; do
    check 132 fault_first "" $args
    [ "$(grep -c '^cyclescope:' err)" = 1 ] || fail "$args fault_first: not one line: $(cat err)"
    python3 -c "import json; d = json.load(open('out.json'))
r = d if 'instructions' in d else d['run']
assert d['complete'] and r['instructions'] == 0, d" || fail "$args fault_first: $(head -c 300 out.json)"
done
fault_first_line() { # COMMAND…: exit 132, one line on stderr naming the program and the fault
    "$cs" "$@" "$g/fault_first" >/dev/null 2>err
    local rc=$?
    [ $rc = 132 ] || fail "$* fault_first: exit $rc, not 132: $(cat err)"
    [ "$(wc -l <err)" = 1 ] && grep -q "^cyclescope: .*fault_first: illegal instruction 0x0000000b at pc 0x" err ||
        fail "$* fault_first: not one line naming the fault: $(cat err)"
}
fault_first_line profile record -o f.prof
fault_first_line model analyze -o f.smp
fault_first_line run --warmup 5 --no-report # (the fault ended the warm-up: not "nothing is left to time")
[ -s f.prof ] || fail "profile record fault_first: no profile written"
check 134 guest_abort stallscope-compare.schema.json stallscope --compare ooo4 knl
for args in "run --no-report" "stacks" "stallscope" "rpstacks -o r.rps" "stacks --validate --jobs 2"; do
    check 134 guest_abort "" $args
    [ "$(grep -c '^cyclescope:' err)" = 1 ] || fail "$args guest_abort: not one line: $(cat err)"
done
# simpoint of a faulting program: the points of what ran (the intervals up to the fault; a
# replay stops there too), one line naming the fault, and the status of the fault; the
# manifest says how it ended. A fault at the first instruction leaves nothing to cluster.
for prog in segfault:139 illegal:132 guest_abort:134 fault_first:132; do
    p=${prog%:*} s=${prog#*:}
    rm -rf sp
    "$cs" simpoint -o sp "$g/$p" >/dev/null 2>err
    rc=$?
    [ $rc = "$s" ] && [ "$(wc -l <err)" = 1 ] && grep -q "^cyclescope: .*$p: " err ||
        fail "simpoint $p: exit $rc: $(cat err)"
    if [ "$p" = fault_first ]; then
        [ -e sp ] && fail "simpoint fault_first: points written for a run of nothing"
        continue
    fi
    python3 -c "import json, sys; d = json.load(open('sp/simpoint.json'))
sys.exit(0 if d['end'] == {'state': 'fault', 'signal': int(sys.argv[1]) - 128} and d['guest']['state'] == 'fault' else 1)" "$s" ||
        fail "simpoint $p: the manifest does not say the fault: $(head -c 400 sp/simpoint.json)"
done
# the .rps of a faulting run re-simulates: whatif --verify times the same instructions
"$cs" rpstacks -o f.rps "$g/segfault" >/dev/null 2>&1
"$cs" whatif f.rps --set l1d.latency=6 --verify 1 --jobs 1 >v.txt 2>&1 || fail "whatif --verify of a faulting run: $(cat v.txt)"
echo "ok: run, stacks (and --validate), stallscope (and --compare), rpstacks of segfault and illegal: 128 + signal, results written"
