#!/bin/bash
# flops_analytic.sh CYCLESCOPE GUEST_DIR
# The FP-operation counts against the analytic count of tests/guest/flop_kernels.c
# (2 N^3 + 2 N^2 + 5 M, of them 2 M divides and square roots): the emulator's class mix
# (fp-add, fp-mul, fp-div, fp-sqrt one each, fp-fma two), and on every machine the run's
# `flops`, the FLOPS stack's `flops` (every FP operation issued), its
# `flops_outside_units` (bdw's and knl's separate divider: the 2 M divides and square
# roots; no other machine has one) and its base (the operations on the k units:
# base x 2k = flops - outside).
set -u -o pipefail
cs=$(realpath "$1") prog=$(realpath "$2/flop_kernels")
n=12 m=1500
want=$((2 * n * n * n + 2 * n * n + 5 * m)) divider=$((2 * m))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$cs" exec --stats "$prog" $n $m >/dev/null 2>"$tmp/stats" || fail "exec: $(tail -2 "$tmp/stats")"
got=$(awk '$1 == "fp-add" || $1 == "fp-mul" || $1 == "fp-div" || $1 == "fp-sqrt" { f += $2 }
           $1 == "fp-fma" { f += 2 * $2 } END { print f + 0 }' "$tmp/stats")
[ "$got" = "$want" ] || fail "exec --stats: $got FP operations by the class mix, analytically $want"
for cfg in ooo4 bdw knl inorder1 inorder3; do
    "$cs" run --config "$cfg" --env-fixed --no-report --json "$tmp/$cfg.json" "$prog" $n $m >"$tmp/$cfg.out" 2>&1 ||
        fail "$cfg run: $(tail -2 "$tmp/$cfg.out")"
    case $cfg in bdw | knl) outside=$divider ;; *) outside=0 ;; esac
    python3 - "$tmp/$cfg.json" "$cfg" "$want" "$outside" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1])); cfg = sys.argv[2]; want = int(sys.argv[3]); outside = int(sys.argv[4])
f = d['stacks']['flops_stack']
base_flops = f['components']['base']['cycles'] * 2 * f['units'] * f['vector']
checks = [('run flops', d['flops'], want), ('flops_stack.flops', f['flops'], want),
          ('flops_stack.flops_outside_units', f.get('flops_outside_units'), outside),
          ('base x 2kv', round(base_flops, 6), want - outside)]
bad = [f'{cfg}: {name} {got}, analytically {exp}' for name, got, exp in checks if got != exp]
for b in bad: print('FAIL:', b)
sys.exit(1 if bad else 0)
PY
    if [ "$outside" != 0 ]; then
        grep -q "^  $want FP operations: .*GFLOPS" "$tmp/$cfg.out" || fail "$cfg: the FLOPS stack's line does not say $want FP operations"
        grep -q "^  ($outside of them on the separate divider" "$tmp/$cfg.out" || fail "$cfg: no line for the $outside on the divider"
    fi
done
echo "analytic $want FP operations ($divider divides and square roots): exact in the class mix and on 5 machines"
