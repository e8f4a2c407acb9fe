#!/bin/bash
# rpstacks_store_buffer.sh CYCLESCOPE WORKLOAD_DIR: runs on knl (a store buffer of 16) where the
# buffer fills and commit waits for it: ptr_chase's set-up (its random stores, the first 200 k
# µops) and memcopy. The stores' drain nodes carry their fills' memory latency (and the miss
# registers and memory channel that hold their requests back), so whatif on memory.latency is
# checked against --verify's re-simulation: within BOUND%. Before the drain nodes those stalls
# were residual base: ptr_chase memory 240 -> 100 +18.7%, 240 -> 480 -36.6%; memcopy +101%, -43%.
set -u -o pipefail
cs=$(realpath "$1") dir=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
check() { # NAME BOUND PROG [ARGS]
    local name=$1 bound=$2
    shift 2
    "$cs" rpstacks --config knl --max 200000 -o "$name.rps" "$@" >"$name.txt" 2>&1 || fail "$name: rpstacks"
    grep -q "graph longest path [0-9]* cycles (+0.000% vs simulated); 0 constraint violations" "$name.txt" ||
        fail "$name: the graph is not the simulated cycles: $(grep 'graph longest' "$name.txt")"
    for m in 100 480; do
        "$cs" whatif "$name.rps" --set memory.latency=$m --verify 1 --jobs 2 --json "$name-$m.json" --quiet \
            >/dev/null 2>&1 || fail "$name: whatif memory.latency=$m --verify"
        python3 - "$name-$m.json" "$name" "$m" "$bound" <<'PY' || exit 1
import json, sys
f, name, m, bound = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
p = json.load(open(f))["points"][0]
err = 100 * (p["rpstacks_cpi"] - p["simulated_cpi"]) / p["simulated_cpi"]
line = f"{name}: memory.latency={m}: RpStacks CPI {p['rpstacks_cpi']:.4f}, re-simulated {p['simulated_cpi']:.4f} ({err:+.2f}%, bound {bound}%)"
if abs(err) > bound:
    sys.exit("FAIL: " + line)
print("ok: " + line)
PY
    done
}
check ptr_chase 5 "$dir/ptr_chase" 4
check memcopy 5 "$dir/memcopy"
