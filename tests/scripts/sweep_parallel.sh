#!/bin/bash
# sweep_parallel.sh CYCLESCOPE WORKDIR PROG ARG
# A sweep run three ways gives the same numbers: locally with the process pool
# (-j 2), and from the job list `--emit parallel` writes, run by GNU parallel.
# Then: a second local run resumes (runs nothing, changes nothing); merge names
# and skips a foreign and a corrupt file; the merged CSV of both directories
# agree on every point (all columns but the seconds).
set -euo pipefail
cs=$1 work=$2 prog=$3 arg=$4
command -v parallel >/dev/null || { echo "GNU parallel is not installed (scripts/install-deps.sh)"; exit 77; }
rm -rf "$work" && mkdir -p "$work"
cd "$work"
grid='core.rob_size=48,96 l1d.size=16K,32K'
"$cs" sweep --grid "$grid" --max 300K -j 2 -o local "$prog" "$arg" >local.out
[ "$(ls local/*.json | wc -l)" = 4 ] || { echo "expected 4 point files"; ls local; exit 1; }

"$cs" sweep --grid "$grid" --max 300K --emit parallel -o par "$prog" "$arg" >emit.out
[ "$(wc -l <par/jobs.txt)" = 4 ] || { echo "expected 4 jobs"; cat par/jobs.txt; exit 1; }
parallel --jobs 2 --halt now,fail=1 <par/jobs.txt >parallel.out
[ "$(ls par/*.json | wc -l)" = 4 ] || { echo "GNU parallel left $(ls par/*.json | wc -l) point files"; exit 1; }
for f in local/*.json; do
    [ -e "par/$(basename "$f")" ] || { echo "par/ lacks $(basename "$f")"; exit 1; }
done

# resume: nothing runs again, no file is rewritten
before=$(stat -c %Y.%s local/*.json | sort)
"$cs" sweep --grid "$grid" --max 300K -j 2 -o local "$prog" "$arg" >again.out
grep -q "0 run, 4 already done" again.out || { echo "the second run did not resume:"; cat again.out; exit 1; }
[ "$before" = "$(stat -c %Y.%s local/*.json | sort)" ] || { echo "a point file changed on resume"; exit 1; }

# merge, with a foreign and a corrupt file among the results
echo '{"hello": "world"}' >par/foreign.json
head -c 200 "$(ls local/*.json | head -1)" >par/corrupt.json
"$cs" merge local >/dev/null
"$cs" merge par >/dev/null 2>merge.err
grep -q "skipping .*foreign.json: not a sweep point" merge.err || { echo "foreign file not named:"; cat merge.err; exit 1; }
grep -q "skipping .*corrupt.json: not JSON" merge.err || { echo "corrupt file not named:"; cat merge.err; exit 1; }
for f in sweep.csv sweep-table.json sweep.html; do
    [ -s "par/$f" ] || { echo "merge wrote no par/$f"; exit 1; }
done
col=$(head -1 local/sweep.csv | tr ',' '\n' | grep -n '^seconds$' | cut -d: -f1)
diff <(cut -d, -f"$col" --complement local/sweep.csv) <(cut -d, -f"$col" --complement par/sweep.csv) ||
    { echo "GNU parallel's results differ from the local pool's"; exit 1; }
# the same sweep over a trace of the run (recorded in the sweep's fixed environment)
"$cs" trace record --env-fixed --max 400K -o run.cst "$prog" "$arg" >rec.out 2>&1
"$cs" sweep --grid "$grid" --max 300K -j 2 -o trace run.cst >trace.out
"$cs" merge trace >/dev/null
diff <(cut -d, -f"$col" --complement local/sweep.csv | cut -d, -f1-10) \
     <(cut -d, -f"$col" --complement trace/sweep.csv | cut -d, -f1-10) ||
    { echo "the trace's results differ from the program's"; exit 1; }
echo "ok: 4 points, local pool = GNU parallel = a trace of the run, resume runs nothing, merge skips 2 bad files"
