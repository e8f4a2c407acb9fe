#!/bin/bash
# results_cli.sh CYCLESCOPE WORKLOAD_DIR GUEST_DIR
# The timing verbs' outcomes people and scripts rely on (issue 18):
#  - a guest that fails gives its exit status (run, stacks), and the results are still written;
#  - --json -: stdout is the JSON alone, the guest's output and the tables go to stderr;
#  - an output that cannot be written fails before the run (the guest prints nothing);
#  - each run writes into its own output directory (cyclescope-out/…, latest), or --outdir;
#  - the HTML marks overridden values; the in-order report shows the widths the model runs with;
#  - config show inorder3 lists only what the in-order model reads.
set -u -o pipefail
. "$(dirname "$(realpath "$0")")/interrupt.sh"
cs=$(realpath "$1") w=$(realpath "$2") g=$(realpath "$3")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

# the guest's failure is the verb's exit status; the JSON and the report are still written
"$cs" run --no-report --json f.json "$w/tree" -5 >out 2>err
rc=$?
[ $rc = 2 ] || fail "run: guest exited 2, run exited $rc"
grep -q "bad size" err || fail "the guest's message is not shown: $(cat err)"
grep -q "^cyclescope: .*: the program exited with status 2" err || fail "no status line: $(cat err)"
[ -s f.json ] || fail "no JSON written for a failed guest"
"$cs" stacks --json s.json "$w/tree" -5 >/dev/null 2>&1
[ $? = 2 ] || fail "stacks: guest exited 2, stacks did not"
"$cs" run --no-report --max 5000 "$w/tree" 100 >/dev/null 2>&1 || fail "a good run does not exit 0"

# --json -: stdout holds the JSON alone, even though the guest prints
"$cs" run --no-report --json - "$w/sort" 300 >stdout 2>stderr || fail "run --json -"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' stdout || fail "stdout is not JSON alone: $(head -3 stdout)"
grep -q "checksum" stderr || fail "the guest's output is not on stderr"
grep -q "CPI stacks at dispatch" stderr || fail "the tables are not on stderr"

# outputs checked before the run: nothing of the guest is printed, exit 2, one line
for opt in "--report /nonexistent/r.html" "--json /nonexistent/r.json" "--pipeview /nonexistent/p.log" \
    "--csv /nonexistent/r.csv" "--analysis stacks,pipeview:file=/nonexistent/p.log" "--outdir /nonexistent/out"; do
    # shellcheck disable=SC2086
    "$cs" run $opt "$w/sort" 300 >out 2>err
    rc=$?
    [ $rc = 2 ] || fail "$opt: exit $rc, want 2"
    [ ! -s out ] || fail "$opt: the program ran before the output was checked: $(head -2 out)"
    [ "$(wc -l <err)" = 1 ] && grep -q "^cyclescope: /nonexistent/.*: cannot" err || fail "$opt: $(cat err)"
done
"$cs" sim --report /nonexistent/r.html no-such.cst >/dev/null 2>err
[ $? = 2 ] && grep -q "/nonexistent/r.html: cannot write" err || fail "sim checks its outputs first: $(cat err)"

# every run in its own directory; latest points to the newest
"$cs" run --max 5000 "$w/sort" 300 >out1 2>/dev/null || fail "run 1"
"$cs" run --max 5000 --config knl "$w/sort" 300 >out2 2>/dev/null || fail "run 2"
n=$(find cyclescope-out -mindepth 1 -maxdepth 1 -type d | wc -l)
[ "$n" = 2 ] || fail "want two output directories, got $n: $(ls cyclescope-out)"
for d in cyclescope-out/*/; do
    for f in report.html results.json results.csv config.ini; do [ -s "$d/$f" ] || fail "$d$f missing"; done
done
[ "$(readlink cyclescope-out/latest)" = "$(basename "$(ls -d cyclescope-out/sort-knl-*)")" ] || fail "latest is not the knl run"
grep -q "^HTML report: .*cyclescope-out/sort-ooo4-.*/report.html" out1 || fail "the report's path is not printed"
"$cs" run --outdir mine --max 5000 "$w/sort" 300 >/dev/null 2>&1 && [ -s mine/report.html ] && [ -s mine/results.json ] ||
    fail "--outdir mine"
"$cs" config show knl >knl.ini && cmp -s knl.ini "$(ls -d cyclescope-out/sort-knl-*)/config.ini" ||
    fail "config.ini is not the resolved configuration"
"$cs" run --no-report --max 5000 "$w/sort" 300 >/dev/null 2>&1
[ "$(find cyclescope-out -mindepth 1 -maxdepth 1 -type d | wc -l)" = 2 ] || fail "--no-report made an output directory"
"$cs" run no/such/prog >/dev/null 2>&1
# fails during the run (exit 125): a read that would block forever (a 5000-cycle memory under
# a 1000-cycle deadlock limit was used until 2026-11-27; such a wait is no longer a deadlock)
"$cs" run "$g/pipe_use" block >/dev/null 2>&1
[ $? = 125 ] || fail "pipe_use block: expected exit 125"
[ "$(find cyclescope-out -mindepth 1 -maxdepth 1 -type d | wc -l)" = 2 ] || fail "a run that failed left an empty directory"
[ "$(readlink cyclescope-out/latest)" = "$(basename "$(ls -d cyclescope-out/sort-knl-*)")" ] || fail "latest moved to a failed run"

# the HTML marks overridden values
"$cs" run --report o.html --no-report --max 5000 "$w/sort" 300 >/dev/null 2>&1 # --no-report last: none
[ ! -e o.html ] || fail "--no-report after --report still wrote it"
"$cs" run --report o.html --config bdw --set core.rob_size=64 --set l1d.latency=5 --max 5000 "$w/sort" 300 >/dev/null 2>&1 ||
    fail "run with overrides"
grep -q '<tr class="ovr"[^>]*><th>ROB / IQ / load-store queue <mark>set</mark></th><td>64 /' o.html ||
    fail "the ROB row is not marked overridden"
grep -q '<tr class="ovr"[^>]*><th>L1D <mark>set</mark>' o.html || fail "the L1D row is not marked"
grep -q '<mark>core.rob_size=64</mark>, <mark>l1d.latency=5</mark>' o.html || fail "the overrides are not listed"
grep -q '<tr class="ovr"[^>]*><th>L1I' o.html && fail "L1I marked overridden"
grep -q "SHA-256 <code>$(sha256sum "$w/sort" | cut -c1-64)</code>" o.html || fail "the HTML does not name the program's hash"

# in-order: the widths the model runs with (fetch buffer 2, issue buffer 2, three pipes: 2/2/2/2, the stacks' W)
"$cs" run --report i.html --config inorder3 --max 5000 --json i.json "$w/sort" 300 >/dev/null 2>&1 || fail "inorder3 run"
grep -q '<th>width (fetch / dispatch / issue / commit)</th><td>2 / 2 / 2 / 2</td>' i.html || fail "inorder3 widths"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["stacks"]["width"] == 2' i.json || fail "stack width"
"$cs" run --report i1.html --config inorder1 --max 5000 "$w/sort" 300 >/dev/null 2>&1 || fail "inorder1 run"
grep -q '<td>1 / 1 / 1 / 1</td>' i1.html || fail "inorder1 widths"
"$cs" config show inorder3 >show || fail "config show inorder3"
grep -Eq "rob_size|issue_width|^\[fu\.|^\[latency\]" show && fail "config show inorder3 lists keys the model does not read"
grep -q "^\[dtlb\]" show || fail "config show inorder3 omits the TLBs (the in-order model reads them)"
# mshrs: the L1D's only (they bound the store buffer's fills); the L1I's, the L2's and the L3's are not read
[ "$(grep -c "^mshrs" show)" = 1 ] && awk '/^\[/ { s = $0 } /^mshrs/ { print s }' show | grep -qx "\[l1d\]" ||
    fail "config show inorder3: mshrs other than the L1D's"
grep -q "^\[pipe.fp\]" show && grep -q "^fetch_buffer = 2" show || fail "config show inorder3 lacks its own keys"
"$cs" config show --set core.issue_width=1 inorder3 >/dev/null 2>err
[ $? = 2 ] && grep -q "the in-order model does not read core.issue_width" err || fail "config show --set of an unread key"
"$cs" run --no-report --config ooo4 --set inorder.issue_buffer=4 "$w/sort" 300 >out 2>err
[ $? = 2 ] && [ ! -s out ] && grep -q "the out-of-order model does not read inorder.issue_buffer" err || fail "ooo with an in-order key"
# the model chosen by an override decides, whatever the order
"$cs" config show --set inorder.issue_buffer=4 --set core.model=ooo inorder3 >/dev/null 2>err
[ $? = 2 ] && grep -q "out-of-order model does not read inorder.issue_buffer" err || fail "core.model=ooo and an in-order key: $(cat err)"
# --csv: one row per summary value and per stage x component, the JSON's numbers
"$cs" run --no-report --config bdw --max 20000 --csv r.csv --json r.json "$w/fma" 300 >/dev/null 2>&1 || fail "run --csv"
python3 - r.csv r.json <<'PY' || fail "CSV and JSON differ"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
j = json.load(open(sys.argv[2]))
summary = {r["component"]: float(r["value"]) for r in rows if r["section"] == "summary"}
assert summary["cycles"] == j["cycles"] and summary["instructions"] == j["instructions"], summary
assert abs(summary["branch_mpki"] - j["branches"]["mpki"]) < 1e-9
n = 0
for r in rows:
    if r["section"] != "cpi_stack":
        continue
    e = j["stacks"]["cpi_stacks"][r["stage"]][r["component"]]
    assert abs(float(r["cycles"]) - e["cycles"]) < 1e-6 and abs(float(r["cpi"]) - e["cpi"]) < 1e-9, r
    assert abs(float(r["value"]) - j["stacks"]["ipc_stacks"][r["stage"]][r["component"]]) < 1e-9, r
    n += 1
assert n == 3 * len(j["stacks"]["cpi_stacks"]["commit"]), n
f = [r for r in rows if r["section"] == "flops_stack"]
assert len(f) == len(j["stacks"]["flops_stack"]["components"])
PY
"$cs" run --no-report --max 20000 --csv - "$w/sort" 300 >c.csv 2>/dev/null || fail "run --csv -"
[ "$(head -1 c.csv)" = "interval,section,stage,component,cycles,cpi,fraction,value,unit" ] &&
    [ "$(awk -F, 'NF != 9' c.csv | wc -l)" = 0 ] && [ "$(grep -c '^,cpi_stack,commit,' c.csv)" -gt 10 ] ||
    fail "--csv -: stdout is not the CSV alone"
# Ctrl-C: the run stops at the next safe point; the statistics, JSON and report of what ran
# are written, marked partial; exit 130 (128 + SIGINT). The Ctrl-C comes once the run has timed
# for 0.5 s of processor time (not after a fixed 2 s, which a loaded machine could spend starting)
interrupt_running 0.5 run p.out p.err "$cs" run --report p.html --json p.json "$w/sort" 400000
grep -q "^PARTIAL RESULTS: the run was interrupted" p.out || fail "the terminal output is not marked partial"
grep -q "<b>Partial results</b>" p.html || fail "the HTML report is not marked partial"
python3 - p.json <<'PY' || fail "the partial JSON"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["complete"] is False and j["stopped_by"].startswith("interrupted"), j["complete"]
assert 0 < j["instructions"] < 72_000_000 and j["guest"] == {"state": "stopped"}, j["instructions"]
for stage, stack in j["stacks"]["cpi_stacks"].items():  # whole instructions: every stack still sums to the cycles
    assert abs(sum(c["cycles"] for c in stack.values()) - j["cycles"]) < 1e-6 * j["cycles"], stage
PY

# the progress bar on a terminal (script(1) gives one): the running IPC, the total and an
# ETA when known (a trace's length), and the guest's output never inside the bar's line
if command -v script >/dev/null; then
    script -qc "env -u CYCLESCOPE_NO_PROGRESS CYCLESCOPE_PROGRESS_INTERVAL=0 '$cs' run --no-report '$w/sort' 20000" /dev/null >tty.out 2>&1 </dev/null
    python3 - tty.out <<'PY' || fail "progress bar on a terminal"
import re, sys
d = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
bars = re.findall(r"simulating [0-9.]+ [kMG] instructions, [0-9.]+ M/s  IPC [0-9.]+", d)
assert bars, d[:300]
i = d.find("sort: n=20000")
assert i > 0 and d[i - 4:i] == "\r\x1b[K", repr(d[i - 80:i + 10])  # the bar was erased first
PY
    "$cs" trace record -o s.cst "$w/sort" 10000 >/dev/null 2>&1
    script -qc "env -u CYCLESCOPE_NO_PROGRESS CYCLESCOPE_PROGRESS_INTERVAL=0 '$cs' sim --no-report s.cst" /dev/null >tty2.out 2>&1 </dev/null
    grep -aEq "simulating \[[#.]+\] +[0-9.]+% [0-9.]+ [kM] of [0-9.]+ M instructions, [0-9.]+ M/s  IPC [0-9.]+  ETA [0-9]+:[0-9]{2}" tty2.out ||
        fail "sim's bar has no total, IPC or ETA: $(tr '\r' '\n' <tty2.out | head -3)"
fi
echo "ok"
