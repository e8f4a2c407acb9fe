#!/bin/bash
# guest_ends.sh CYCLESCOPE GUEST_DIR: every verb that runs a program, for each way a program
# ends (tests/guest/fail_after.c after ~284 K instructions: exits 3, a segmentation fault,
# abort(), or never ends and --max stops it), ends the same way (docs/json-schema.md):
#   - the exit status: the program's 3, 139 (128 + SIGSEGV), 134 (128 + SIGABRT), 0 stopped;
#   - stderr: exactly one line saying how the program ended, naming it (none when stopped);
#   - its outputs written, and the JSON's "guest" (or simpoint.json's "end") saying the same.
# (simpoint --max stops a program that never ends; run --simpoints then stops there too.)
# Then run --simpoints of each simpoint directory ends as run does, and sim of each trace
# times what run times (the trace is what ran).
set -u -o pipefail
cs=$(realpath "$1") g=$(realpath "$2")
prog=$g/fail_after
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

status_of() { case $1 in exit) echo 3 ;; segv) echo 139 ;; abort) echo 134 ;; spin) echo 0 ;; esac; }
line_of() { # the one stderr line saying how MODE ended (extended regex)
    case $1 in
    exit) echo "^cyclescope: $prog: the program exited with status 3 " ;;
    segv) echo "^cyclescope: $prog: segmentation fault: store to address 0x0 at pc 0x" ;;
    abort) echo "^cyclescope: $prog: killed by signal SIGABRT \(Aborted\), sent by the program itself at pc 0x" ;;
    esac
}
guest_ok() { # JSON_FILE MODE: its "guest" says how MODE ended
    python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); g = d.get("guest"); mode = sys.argv[2]
want = {"exit": g == {"state": "exited", "exit_code": 3},
        "segv": isinstance(g, dict) and g.get("state") == "fault" and "segmentation fault" in g.get("error", ""),
        "abort": isinstance(g, dict) and g.get("state") == "fault" and "SIGABRT" in g.get("error", ""),
        "spin": g == {"state": "stopped"}}[mode]
sys.exit(0 if want and d.get("complete") is True else 1)
PY
}

# verb | the output it must write | "json" when that output is a result JSON | does it take --max
table=(
    "run --no-report --json out.json|out.json|json|max"
    "run --no-report --pipeview out.pv.gz|out.pv.gz||max"
    "stacks --json out.json|out.json|json|max"
    "stallscope --json out.json|out.json|json|max"
    "stallscope --compare ooo4 inorder3 --json out.json|out.json|json|max"
    "rpstacks -o out.rps --json out.json|out.json|json|max"
    "profile record -o out.prof --truth out.truth|out.prof||max"
    "model analyze -o out.smp|out.smp||max"
    "trace record -o out.cst|out.cst||max"
    "simpoint --interval 20K -o out.sp|out.sp/simpoint.json||max"
)
for mode in exit segv abort spin; do
    want=$(status_of $mode)
    for row in "${table[@]}"; do
        IFS='|' read -r verb out json max <<<"$row"
        if [ $mode = spin ]; then
            verb="$verb --max 300000"
        fi
        rm -rf out.*
        "$cs" $verb "$prog" $mode 20000 >stdout 2>err
        rc=$?
        what="$verb ($mode)"
        [ $rc = "$want" ] || fail "$what: exit $rc, not $want: $(cat err)"
        said=$(grep -cE "exited with status|segmentation fault|killed by signal" err)
        if [ $mode = spin ]; then
            [ "$said" = 0 ] || fail "$what: stopped by --max, yet: $(cat err)"
        else
            [ "$said" = 1 ] && grep -qE "$(line_of $mode)" err || fail "$what: not one line naming the program and how it ended: $(cat err)"
        fi
        [ -s "$out" ] || { fail "$what: $out not written"; continue; }
        [ -n "$json" ] && { guest_ok "$out" $mode || fail "$what: the JSON's guest: $(head -c 300 "$out")"; }
        case $verb in
        simpoint*)
            python3 -c "import json, sys; d = json.load(open('out.sp/simpoint.json'))
want = {'exit': {'state': 'exited', 'exit_code': 3}, 'segv': {'state': 'fault', 'signal': 11},
        'abort': {'state': 'fault', 'signal': 6}, 'spin': {'state': 'stopped'}}[sys.argv[1]]
sys.exit(0 if d['version'] == 2 and d['end'] == want else 1)" $mode || fail "$what: simpoint.json's end: $(grep -A3 '"end"' out.sp/simpoint.json)"
            # the points' run ends as the program does (stops where simpoint --max stopped), with
            # the estimate written
            timeout 120 "$cs" run --no-report --json sp.json --simpoints out.sp "$prog" $mode 20000 >/dev/null 2>err
            rc=$?
            [ $rc = "$want" ] || fail "run --simpoints ($mode): exit $rc, not $want: $(cat err)"
            said=$(grep -cE "exited with status|segmentation fault|killed by signal" err)
            if [ $mode = spin ]; then
                [ "$said" = 0 ] || fail "run --simpoints ($mode): stopped, yet: $(cat err)"
            else
                [ "$said" = 1 ] && grep -qE "$(line_of $mode)" err ||
                    fail "run --simpoints ($mode): not one line naming how it ended: $(cat err)"
            fi
            [ -s sp.json ] && guest_ok sp.json $mode || fail "run --simpoints ($mode): no JSON or its guest: $(head -c 300 sp.json)"
            ;;
        trace*)
            # the trace is what ran: sim of it times exactly what run times (stdout a file both times)
            "$cs" sim --no-report --json sim.json out.cst >/dev/null 2>&1 || fail "sim of the trace ($mode)"
            "$cs" run --no-report --json run.json ${verb#trace record -o out.cst} "$prog" $mode 20000 >stdout 2>&1
            python3 -c "import json, sys; s, r = (json.load(open(f)) for f in sys.argv[1:])
sys.exit(0 if (s['instructions'], s['cycles']) == (r['instructions'], r['cycles']) and s['instructions'] > 200000 else 1)" sim.json run.json ||
                fail "trace record ($mode): sim of the trace does not time what run does"
            ;;
        esac
    done
done
# a program that ends otherwise than when it was profiled (its environment changed): the
# status is this run's, and a note says both
rm -rf out.*
FAIL_AFTER_MODE=exit "$cs" simpoint --interval 20K -o out.sp "$prog" env 20000 >/dev/null 2>&1
[ $? = 3 ] || fail "simpoint (env exit): not exit 3"
FAIL_AFTER_MODE=ok "$cs" run --no-report --json sp.json --simpoints out.sp "$prog" env 20000 >/dev/null 2>err
rc=$?
[ $rc = 0 ] || fail "run --simpoints (profiled exit 3, now exit 0): exit $rc, not 0: $(cat err)"
grep -q "^cyclescope: note: the program exited with status 0, the profiled one exited with status 3" err ||
    fail "run --simpoints (profiled exit 3, now exit 0): no note: $(cat err)"
python3 -c "import json; assert json.load(open('sp.json'))['guest'] == {'state': 'exited', 'exit_code': 0}" 2>/dev/null ||
    fail "run --simpoints (now exit 0): the JSON's guest is not this run's exit 0"
FAIL_AFTER_MODE=segv "$cs" run --no-report --json sp.json --simpoints out.sp "$prog" env 20000 >/dev/null 2>err
rc=$?
[ $rc = 139 ] && grep -q "^cyclescope: note: the program was killed by signal 11, the profiled one exited with status 3" err ||
    fail "run --simpoints (profiled exit 3, now a fault): exit $rc: $(cat err)"

# what cyclescope cannot run (an unsupported system call with --strict-syscalls): exit 125, one
# line naming the program and the call, and nothing written, by every verb alike: no output, no
# temporary beside one (profile record left its profile and truth, and run --pipeview its log,
# until 2026-11-27; rpstacks took no guest options until then)
for row in "${table[@]}"; do
    IFS='|' read -r verb out json max <<<"$row"
    rm -rf out.*
    "$cs" $verb --strict-syscalls "$g/bad_syscall" >stdout 2>err
    rc=$?
    [ $rc = 125 ] || fail "$verb (unsupported system call): exit $rc, not 125: $(cat err)"
    [ "$(grep -c 'unsupported system call' err)" = 1 ] && grep -q "^cyclescope: .*$g/bad_syscall: unsupported system call acct" err ||
        fail "$verb (unsupported system call): not one line naming it: $(cat err)"
    left=$(ls -d out.* 2>/dev/null)
    [ -z "$left" ] || fail "$verb (unsupported system call): written: $left"
done
# run with the profile analysis alike (its sampler is the same)
rm -rf out.*
"$cs" run --no-report --analysis profile:file=out.prof --strict-syscalls "$g/bad_syscall" >stdout 2>err
rc=$?
left=$(ls -d out.* 2>/dev/null)
[ $rc = 125 ] && [ -z "$left" ] || fail "run --analysis profile (unsupported system call): exit $rc, written: $left"
[ $failures = 0 ] || { echo "$failures failures"; exit 1; }
echo "ok: run (and --pipeview), stacks, stallscope, rpstacks, profile record, model analyze, trace record, simpoint"
echo "    (and run --simpoints, sim of the trace) x {exit 3, SIGSEGV, abort(), --max, unsupported system call}"
