#!/bin/bash
# statmodel_compare_env.sh CYCLESCOPE OUTDIR WORKLOAD_DIR
# `model solve --compare-sim` times the very µops `model analyze` analysed, wherever and however
# it is started: the guest gets the arguments the profile records (the program's absolute path)
# and, when the analysis ran with --env-fixed, the same fixed environment (flag 2 of the .smp).
# Checked against `run` of the same program on the same machine (the simulated IPC, to the bit):
#  - analysed --env-fixed through a relative path in one directory, solved from another with a
#    3000-byte variable added to the environment: equal to `run --env-fixed`;
#  - the same environment, the program named through a relative path in one directory and its
#    absolute path in another: byte-identical profiles (the guest saw the same arguments).
set -eu
cs=$1 out=$2 wl=$3
rm -rf "$out" && mkdir -p "$out/a" "$out/b"
prog=$(realpath "$wl/hash")
rel=$(realpath --relative-to="$out/a" "$prog")
big=$(head -c 3000 /dev/zero | tr '\0' x)
same_ipc() { # RUN_JSON SOLVE_JSON
    python3 - "$1" "$2" <<'PY'
import json, sys
r, s = (json.load(open(p)) for p in sys.argv[1:3])
print("run IPC", r["ipc"], "compare-sim IPC", s["simulated_ipc"])
sys.exit(0 if r["ipc"] == s["simulated_ipc"] else 1)
PY
}
(cd "$out/a" && "$cs" model analyze --env-fixed --max 50000 -o fixed.smp "$rel" >/dev/null 2>&1)
(cd "$out/b" && env BIG="$big" "$cs" model solve --config inorder3 --compare-sim --json fixed.json ../a/fixed.smp >/dev/null)
"$cs" run --no-report --env-fixed --config inorder3 --max 50000 --analysis none --json "$out/run-fixed.json" "$prog" >/dev/null 2>&1
same_ipc "$out/run-fixed.json" "$out/b/fixed.json"
(cd "$out/a" && env -i PATH=/usr/bin:/bin "$cs" model analyze --max 50000 -o rel.smp "$rel" >/dev/null 2>&1)
(cd "$out/b" && env -i PATH=/usr/bin:/bin "$cs" model analyze --max 50000 -o abs.smp "$prog" >/dev/null 2>&1)
cmp "$out/a/rel.smp" "$out/b/abs.smp"
echo ok
