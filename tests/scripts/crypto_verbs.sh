#!/bin/bash
# crypto_verbs.sh CYCLESCOPE PROG: the scalar cryptography kernel (tests/guest/crypto_kernel,
# R = 20 repetitions) through the verbs that time it, each against its own ground truth
# (docs/isa.md, "Scalar cryptography"):
#   - run on every configuration: the program's six results are the standards' test vectors
#     and the instruction count is the same on all five;
#   - run and stacks on ooo4 and inorder3: the CPI stacks at dispatch, issue and commit sum to
#     the cycles; trace record, then sim: the instructions and cycles of run;
#   - trace dump: each instruction named, as many times as the algorithms execute it
#     (R x: 18 aes64esm, 2 aes64es, 10 aes64ks1i, 18 aes64dsm, 18 aes64im, 128 sm4ed and
#     128 sm4ks, 64 sha512sig0, 64 sha256sum1, 64 sm3p0).
set -u -o pipefail
cs=$(realpath "$1") prog=$(realpath "$2")
r=20
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$cs" trace record -o t.cst "$prog" $r >out 2>err || fail "trace record: $(cat err)"
for config in ooo4 inorder1 inorder3 bdw knl; do
    "$cs" run --no-report --config $config --json run.$config.json "$prog" $r >out.$config 2>err ||
        fail "run $config: $(cat err)"
    [ "$(grep -c '(the standard.s)$' out.$config)" = 6 ] || fail "run $config: $(grep -v 'standard' out.$config)"
done
python3 - run.*.json <<'PY' || fail "run: the instruction counts differ between configurations"
import json, sys
counts = {json.load(open(f))["instructions"] for f in sys.argv[1:]}
assert len(counts) == 1 and min(counts) > 100000, counts
PY
for config in ooo4 inorder3; do
    "$cs" stacks --config $config --json stacks.$config.json "$prog" $r >out 2>err || fail "stacks $config: $(cat err)"
    for json in run.$config.json stacks.$config.json; do
        python3 - $json <<'PY' || fail "$json: stacks do not sum to the cycles"
import json, sys
d = json.load(open(sys.argv[1])); s = d["stacks"]
for where, stack in s["cpi_stacks"].items():
    total = sum(c["cycles"] for c in stack.values())
    assert abs(total - d["cycles"]) <= 1e-6 * d["cycles"], (where, total, d["cycles"])
PY
    done
    "$cs" sim --no-report --config $config --json sim.$config.json t.cst >/dev/null 2>err || fail "sim $config: $(cat err)"
    python3 2>/dev/null -c "import json, sys; s, r = (json.load(open(f)) for f in sys.argv[1:])
sys.exit(0 if (s['instructions'], s['cycles']) == (r['instructions'], r['cycles']) else 1)" sim.$config.json run.$config.json ||
        fail "sim of the trace ($config) does not time what run does"
done
"$cs" trace dump t.cst >dump 2>err || fail "trace dump: $(cat err)"
for want in "aes64esm 18" "aes64es 2" "aes64ks1i 10" "aes64dsm 18" "aes64im 18" "sm4ed 128" "sm4ks 128" \
    "sha512sig0 64" "sha256sum1 64" "sm3p0 64"; do
    set -- $want
    got=$(grep -cE "[[:space:]]$1[[:space:]]" dump)
    [ "$got" = $(($2 * r)) ] || fail "trace dump: $got $1, expected $(($2 * r))"
done

[ $failures = 0 ] || exit 1
echo "crypto_kernel through run (every configuration), stacks, trace/sim, trace dump: all checks hold"
