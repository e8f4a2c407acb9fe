#!/bin/bash
# simpoint_cli.sh CYCLESCOPE WORKDIR PROG ARG
# The simpoint verb end to end: the directory it writes, deterministic for a
# seed, the same phases from a .cst trace of the run as from the live program,
# and a .bb that the reference SimPoint's parser (FVParser: lines starting
# with T, then ":dimension:value" tokens) reads as we mean it.
set -euo pipefail
cs=$1 work=$2 prog=$3 arg=$4
rm -rf "$work" && mkdir -p "$work"
cd "$work"
run() { "$cs" simpoint --env-fixed --interval 100K "$@" >/dev/null; }

run -o a "$prog" "$arg"
for f in bbv.bb bbv.simpoints bbv.weights simpoint.json; do
    [ -s "a/$f" ] || { echo "missing a/$f"; exit 1; }
done
# deterministic: the same files again
run -o b "$prog" "$arg"
for f in bbv.bb bbv.simpoints bbv.weights; do
    cmp -s "a/$f" "b/$f" || { echo "a/$f and b/$f differ"; exit 1; }
done
# the manifest too, but for its provenance (the command names the other directory, the date
# is another) and so its checksum
python3 - a/simpoint.json b/simpoint.json <<'PY' || { echo "a/simpoint.json and b/simpoint.json differ"; exit 1; }
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    del d["provenance"], d["checksum"]
sys.exit(a != b)
PY
# another seed may choose differently but still writes a valid set
run -o c --cluster-seed 7 "$prog" "$arg"

# .simpoints and .weights: one line per cluster, same clusters, weights sum to 1
paste a/bbv.simpoints a/bbv.weights | awk '
    NF != 4 || $2 != $4 || $1 !~ /^[0-9]+$/ { print "bad line: " $0; bad = 1 }
    { sum += $3 }
    END { if (bad || sum < 0.999999 || sum > 1.000001) { print "weights sum to " sum; exit 1 } }'

# the .bb as SimPoint's FVParser reads it: every T line is ":dim:value" tokens
# (dim >= 1), each full interval sums to the interval, the header counts agree
awk -v interval=100000 '
    /^# intervals: / { want = $3 }
    /^# instructions: / { total = $3 }
    /^T/ {
        line = substr($0, 2); sum = 0; n++
        k = split(line, tok, " ")
        for (i = 1; i <= k; i++) {
            if (tok[i] !~ /^:[0-9]+:[0-9]+$/) { print "token " tok[i]; exit 1 }
            split(tok[i], part, ":")
            if (part[2] < 1) { print "dimension " part[2]; exit 1 }
            sum += part[3]
        }
        sums[n] = sum; all += sum
    }
    END {
        if (n != want) { print n " T lines, header says " want; exit 1 }
        for (i = 1; i < n; i++) if (sums[i] != interval) { print "interval " i " has " sums[i]; exit 1 }
        if (sums[n] > interval || all != total) { print "last " sums[n] ", all " all " vs " total; exit 1 }
    }' a/bbv.bb

# the same run recorded to a trace gives the same vectors and points
"$cs" trace record --env-fixed -o run.cst "$prog" "$arg" >/dev/null
run -o t run.cst
cmp -s <(grep '^T' a/bbv.bb) <(grep '^T' t/bbv.bb) || { echo "trace vectors differ from the program's"; exit 1; }
cmp -s a/bbv.simpoints t/bbv.simpoints || { echo "trace simpoints differ"; exit 1; }
cmp -s a/bbv.weights t/bbv.weights || { echo "trace weights differ"; exit 1; }
grep -q '"kind":[[:space:]]*"trace"' t/simpoint.json || { echo "trace manifest"; exit 1; }

# another tool's .bb (T lines only): clustered, only .simpoints and .weights written
grep '^T' a/bbv.bb >foreign.bb
run -o f --bb foreign.bb
cmp -s a/bbv.simpoints f/bbv.simpoints || { echo "foreign .bb gives other points"; exit 1; }
[ ! -e f/simpoint.json ] || { echo "a manifest for a foreign .bb"; exit 1; }
echo "ok: $(wc -l <a/bbv.simpoints) points, deterministic, trace = program, SimPoint-readable .bb"
