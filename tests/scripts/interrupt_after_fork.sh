#!/bin/bash
# interrupt_after_fork.sh CS GUEST — Ctrl-C during a timed run of a program that has forked: the
# run stops with its partial results, exit 130, as for a program that never forks. (From its
# first fork the first process has host handlers of its own for its children's signals; they
# must hand a Ctrl-C from outside to the run's own handler, not end cyclescope at once.)
set -u
cs=$1 guest=$2
fail() { echo "FAIL: $*"; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/interrupt.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
interrupt_running 0.5 "run of a program that forked" p.out p.err "$cs" run --no-report --json p.json "$guest"
grep -q "^PARTIAL RESULTS: the run was interrupted" p.out || fail "the terminal output is not marked partial: $(tail -3 p.out)"
python3 - p.json <<'PY' || fail "the partial JSON"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["complete"] is False and j["stopped_by"].startswith("interrupted"), (j["complete"], j["stopped_by"])
assert j["instructions"] > 0
PY
echo "PASS: a timed run of a program that forked stops on Ctrl-C with its partial results (exit 130)"
