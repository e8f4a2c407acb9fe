#!/bin/bash
# statmodel_speed.sh BUILD_DIR [WORKLOAD ARG] [SIZES]
# The statistical model's speed (docs/statmodel.md, thesis Figures 5.5-5.7):
#  1. model time against trace length: the workload analysed at each size of
#     SIZES (instructions, default "1000000 10000000 100000000"); for each, the
#     analysis time, the model time of inorder3 (its default machine) and the
#     simulation time of the same µops (`run --analysis none`). CPU seconds
#     (user + system) of each process (the model: the least of three runs), the
#     solve's own CPU and wall time (JSON model_cpu_seconds, model_seconds: the
#     process without reading the profile) and its relaxation rounds.
#  2. a 20-machine sweep from the largest profile (FP pipe 5..1 stages x
#     D-cache 1, 4, 16, 64 KB) against one simulation.
# Prints a Markdown table; with SVG=FILE in the environment also draws model
# and simulation CPU time against instructions (log-log) into FILE.
set -eu
export LC_ALL=C # printf's %.Nf and awk's numbers: a decimal point in any locale
build=$1 wl=${2:-sort} arg=${3:-700000} sizes=${4:-"1000000 10000000 100000000"}
rows=
cs=$build/cyclescope prog=$build/workloads/$wl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cpu() { /usr/bin/time -f "%U %S" -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
        awk '{printf "%.2f", $1 + $2}' "$tmp/t"; }
echo "| instructions | analysis CPU s | model CPU s | solve CPU s (wall s) | rounds | simulation CPU s | sequences |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
last=""
for n in $sizes; do
    a=$(cpu nice -n 10 "$cs" model analyze --max "$n" -o "$tmp/p$n.smp" "$prog" "$arg")
    m=9999
    for r in 1 2 3; do # the least of three: the machine is shared
        t=$(cpu nice -n 10 "$cs" model solve --json "$tmp/m$n.json" "$tmp/p$n.smp")
        m=$(python3 -c "print(min($m, $t))")
    done
    s=$(cpu nice -n 10 "$cs" run --config inorder3 --max "$n" --analysis none --no-report "$prog" "$arg")
    read -r solve scpu rounds seq got < <(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('%.3f'%d['model_seconds'], '%.3f'%d['model_cpu_seconds'], d['relaxation_rounds'], d['sequences'], int(d['instructions_analysed']))" "$tmp/m$n.json")
    echo "| $got | $a | $m | $scpu ($solve) | $rounds | $s | $seq |"
    rows="$rows $got:$m:$s"
    last=$n
done
g=$(cpu nice -n 10 "$cs" model solve --grid 'pipe.fp.stages=5,4,3,2,1 l1d.size=1K,4K,16K,64K' --json "$tmp/g.json" "$tmp/p$last.smp")
s=$(cpu nice -n 10 "$cs" run --config inorder3 --max "$last" --analysis none --no-report "$prog" "$arg")
python3 -c "
import json,sys
d=json.load(open(sys.argv[1])); p=d['points']
print()
print('20-machine sweep (FP pipe 5..1 stages x D-cache 1/4/16/64 KB) from the %d-instruction profile:' % p[0]['instructions_analysed'])
print('%d machines: %s CPU s for the whole sweep (solve %.2f s, at most %.3f s per machine); one simulation of the same instructions: %s CPU s' % (len(p), sys.argv[2], d['model_seconds'], max(x['model_seconds'] for x in p), sys.argv[3]))
" "$tmp/g.json" "$g" "$s"
if [ -n "${SVG:-}" ]; then
    python3 - "$SVG" $rows <<'PY'
import math, sys
pts = [tuple(float(x) for x in r.split(":")) for r in sys.argv[2:]]
W, H, L, B = 460, 300, 60, 40
xs = [math.log10(p[0]) for p in pts]; ys = [math.log10(max(v, 0.01)) for p in pts for v in p[1:]]
x0, x1, y0, y1 = min(xs) - 0.2, max(xs) + 0.2, min(ys) - 0.3, max(ys) + 0.3
X = lambda v: L + (math.log10(v) - x0) / (x1 - x0) * (W - L - 20)
Y = lambda v: H - B - (math.log10(max(v, 0.01)) - y0) / (y1 - y0) * (H - B - 30)
out = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" font-family="sans-serif" font-size="12">' % (W, H, W),
       '<text x="%d" y="18" font-weight="bold">CPU seconds against instructions (log-log)</text>' % L,
       '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#444"/>' % (L, H - B, W - 20, H - B),
       '<line x1="%d" y1="30" x2="%d" y2="%d" stroke="#444"/>' % (L, L, H - B)]
for e in range(int(math.floor(y0)) + 1, int(math.ceil(y1))):
    out.append('<text x="%d" y="%.1f" text-anchor="end">%g</text>' % (L - 4, Y(10 ** e) + 4, 10 ** e))
for p in pts:
    out.append('<text x="%.1f" y="%d" text-anchor="middle">%gM</text>' % (X(p[0]), H - B + 16, p[0] / 1e6))
for col, name, color, dash in ((2, "simulation", "#222", ""), (1, "model (solve)", "#888", ' stroke-dasharray="6 4"')):
    out.append('<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>' % (color, dash, " ".join("%.1f,%.1f" % (X(p[0]), Y(p[col])) for p in pts)))
    for p in pts:
        out.append('<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"/>' % (X(p[0]), Y(p[col]), color))
    out.append('<text x="%.1f" y="%.1f" fill="%s">%s</text>' % (X(pts[-1][0]) - 90, Y(pts[-1][col]) - 8, color, name))
out.append("</svg>")
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
fi
