#!/bin/bash
# zfh_verbs.sh CYCLESCOPE PROG: a half-precision program (tests/guest/zfh_kernel, N = 1000,
# R = 20) through the verbs that time it, each against its own ground truth (docs/isa.md, "Zfh"):
#   - run on every configuration: the run's flops and the FLOPS stack's are the kernel's,
#     R * (N fmadd.h * 2 + fsqrt.h + fdiv.h) = 40 040;
#   - run and stacks on ooo4 and inorder3: the CPI stacks at dispatch, issue and commit sum to
#     the cycles; trace record, then sim: the instructions and cycles of run;
#   - exec --stats: the fmadd.h's counted as fp-fma (R * N), fsqrt.h/fdiv.h as fp-sqrt/fp-div;
#   - trace dump names the Zfh instructions.
set -u -o pipefail
cs=$(realpath "$1") prog=$(realpath "$2")
n=1000 r=20 flops=40040
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$cs" trace record -o t.cst "$prog" $n $r >out 2>err || fail "trace record: $(cat err)"
for config in ooo4 inorder1 inorder3 bdw knl; do
    "$cs" run --no-report --config $config --json run.$config.json "$prog" $n $r >out 2>err || fail "run $config: $(cat err)"
    python3 - run.$config.json $flops <<'PY' || fail "run $config: flops are not the kernel's $flops"
import json, sys
d = json.load(open(sys.argv[1])); want = int(sys.argv[2])
assert d["flops"] == want, (d["flops"], want)
assert d["stacks"]["flops_stack"]["flops"] == want, d["stacks"]["flops_stack"]
PY
done
for config in ooo4 inorder3; do
    "$cs" stacks --config $config --json stacks.$config.json "$prog" $n $r >out 2>err || fail "stacks $config: $(cat err)"
    for json in run.$config.json stacks.$config.json; do
        python3 - $json <<'PY' || fail "$json: stacks do not sum to the cycles"
import json, sys
d = json.load(open(sys.argv[1])); s = d["stacks"]
for where, stack in s["cpi_stacks"].items():
    total = sum(c["cycles"] for c in stack.values())
    assert abs(total - d["cycles"]) <= 1e-6 * d["cycles"], (where, total, d["cycles"])
assert d["instructions"] > 150000
PY
    done
    "$cs" sim --no-report --config $config --json sim.$config.json t.cst >/dev/null 2>err || fail "sim $config: $(cat err)"
    python3 2>/dev/null -c "import json, sys; s, r = (json.load(open(f)) for f in sys.argv[1:])
sys.exit(0 if (s['instructions'], s['cycles'], s['flops']) == (r['instructions'], r['cycles'], r['flops']) else 1)" sim.$config.json run.$config.json ||
        fail "sim of the trace ($config) does not time what run does"
done
"$cs" exec --stats "$prog" $n $r >out 2>stats || fail "exec --stats: $(cat stats)"
for want in "fp-fma $((n * r))" "fp-div $r" "fp-sqrt $r"; do
    set -- $want
    got=$(awk -v c="$1" '$1 == c {print $2}' stats)
    [ "${got:-0}" = "$2" ] || fail "exec --stats: $1 ${got:-0}, expected $2"
done
"$cs" trace dump t.cst >dump 2>err || fail "trace dump: $(cat err)"
for name in flh fmadd.h fsqrt.h fdiv.h fcvt.h.l fabs.h fmv.x.h fmv.h.x; do
    grep -qE "[[:space:]]$name[[:space:]]" dump || fail "trace dump: no $name"
done

[ $failures = 0 ] || exit 1
echo "zfh_kernel through run (every configuration), stacks, trace/sim, exec --stats, trace dump: all checks hold"
