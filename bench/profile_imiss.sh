#!/bin/bash
# bench/profile_imiss.sh [--doc docs/profile.md] — DCPI's Figure 10 on cyclescope: per
# procedure, the I-cache stall cycles the culprit analysis attributes (a range) against the
# projected I-cache misses (IMISS event samples, every miss sampled), pooled over several
# workloads as the paper pooled SPEC95's procedures. inorder3 with a small I-cache (the
# shipped 16 kB one holds these programs: only cold misses), CYCLES period 100, measured
# execution counts (--truth, as the paper did to judge the culprits alone) and, as a
# second row, the estimated ones. Also the correlation with the true I-cache stall cycles.
# With --doc, writes the table between <!-- profile-imiss begin/end -->.
# Run from the build directory (needs ./cyclescope and workloads/).
set -eu
. "$(dirname "$0")/profile_common.sh"
profile_bench_options "$0 [--doc FILE]" 0 "$@"
workloads=("sort 10000" "hash 10000" "tree 5000" "interp 250" "fft 2048" "strsearch 12000" "embench_like 3" "coremark_like 30")
sizes=(256 1K)
for size in "${sizes[@]}"; do
    for w in "${workloads[@]}"; do
        set -- $w
        f=$out/$1_$size
        nice -n 10 $cs profile record --env-fixed --config inorder3 --set l1i.size=$size --period 100 --events 1 \
            --truth "$f.truth" -o "$f.prof" "workloads/$1" "$2" >/dev/null 2>&1
        $cs profile imiss --truth "$f.truth" --json "$f.measured.json" "$f.prof" >/dev/null 2>&1
        $cs profile imiss --truth "$f.truth" --estimated --json "$f.estimated.json" "$f.prof" >/dev/null 2>&1
        echo "l1i $size $1 done" >&2
    done
done
python3 - "$out" "${sizes[@]}" >"$out/table.md" <<'PY'
import glob, json, math, os, sys
out, sizes = sys.argv[1], sys.argv[2:]
def pearson(x, y):
    n = len(x)
    if n < 2: return float("nan")
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x); syy = sum((b - my) ** 2 for b in y)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")
def ranks(v):
    return [sum(w < a for w in v) + (sum(w == a for w in v) + 1) / 2 for a in v]
def r(v): return "–" if math.isnan(v) else f"{v:.2f}"
print("| I-cache | counts | procedures | misses | r top | r bottom | r midpoint | rank r midpoint | midpoint vs true stall: r | attributed midpoint / true stall cycles |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for size in sizes:
    for kind in ("measured", "estimated"):
        pts = []
        for f in sorted(glob.glob(f"{out}/*_{size}.{kind}.json")):
            pts += json.load(open(f))["procedures"]
        x = [p["projected_misses"] for p in pts]
        hi = [p["stall_high"] for p in pts]; lo = [p["stall_low"] for p in pts]
        mid = [(a + b) / 2 for a, b in zip(lo, hi)]; tru = [p["true_stall"] for p in pts]
        ratio = sum(mid) / sum(tru) if sum(tru) else float("nan")
        print(f"| {size} | {kind} | {len(pts)} | {sum(x):.0f} | {r(pearson(x, hi))} | {r(pearson(x, lo))} | "
              f"{r(pearson(x, mid))} | {r(pearson(ranks(x), ranks(mid)))} | {r(pearson(mid, tru))} | {r(ratio)} |")
PY
cat "$out/table.md"
if [ -n "$doc" ]; then profile_bench_write_doc "$doc" "$out/table.md" profile-imiss; fi
