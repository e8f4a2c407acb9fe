#!/bin/sh
# rpstacks --unique combination: accepted, and recorded in the .rps (its uniqueness byte,
# read by walking the documented header of docs/rpstacks.md) and in the JSON; the default
# records the event rule; whatif prints the options (text and JSON). A bad mode is bad usage (exit 2) naming it.
# --max-stacks (the per-node cap) is recorded too: 5 with combination, the default 6 without.
# usage: rpstacks_unique_check.sh CYCLESCOPE WORKDIR PROG [ARGS…]
set -eu
cs=$1 dir=$2
shift 2
for mode in combination default; do
    flag="--unique combination --max-stacks 5"
    [ $mode = default ] && flag=""
    # shellcheck disable=SC2086
    "$cs" rpstacks $flag --max 3000 --segment 1000 --json "$dir/rps-unique-$mode.json" \
        -o "$dir/rps-unique-$mode.rps" "$@" >"$dir/rps-unique-$mode.txt"
    # whatif says which options the stacks it predicts from were reduced with
    "$cs" whatif "$dir/rps-unique-$mode.rps" --set l1d.latency=2 --json "$dir/whatif-unique-$mode.json" \
        >"$dir/whatif-unique-$mode.txt"
done
python3 - "$dir" <<'PY'
import json, struct, sys
d = sys.argv[1]
def unique_byte(path):
    b = open(path, "rb").read()
    assert b[:8] == b"CSRPS\x1a\n\0", "magic"
    at = 8
    version, dims = struct.unpack_from("<II", b, at); at += 8
    assert version == 5, version
    for _ in range(dims):
        n, = struct.unpack_from("<I", b, at); at += 4 + n + 4  # the event's name, its latency
    at += 4 + 8  # segment, similarity
    return b[at]
for mode, byte, name, cap in (("combination", 2, "combination", 5), ("default", 1, "event", 6)):
    j = json.load(open("%s/rps-unique-%s.json" % (d, mode)))
    assert j["options"]["uniqueness"] == name and j["options"]["unique"] is True, j["options"]
    assert unique_byte("%s/rps-unique-%s.rps" % (d, mode)) == byte, mode
    text = open("%s/rps-unique-%s.txt" % (d, mode)).read()
    assert "uniqueness %s," % name in text, text
    w = json.load(open("%s/whatif-unique-%s.json" % (d, mode)))
    assert w["options"] == j["options"], (w["options"], j["options"])
    assert w["options"]["segment"] == 1000 and w["options"]["similarity"] == 0.7, w["options"]
    assert j["options"]["max_stacks"] == cap, j["options"]
    line = "stacks reduced with: segment 1000, similarity 0.70, uniqueness %s, max %d stacks per node, " \
        "design space latencies 0-4× the baseline's\n" % (name, cap)
    assert line in open("%s/whatif-unique-%s.txt" % (d, mode)).read(), mode
print("rpstacks --unique and --max-stacks: combination (cap 5) and the defaults (event, cap 6) recorded in the .rps and the JSON, and printed by whatif: ok")
PY
out=$("$cs" rpstacks --unique both -o "$dir/rps-unique-bad.rps" "$@" 2>&1) && rc=0 || rc=$?
[ "$rc" = 2 ] || { echo "--unique both: exit $rc, want 2"; exit 1; }
case $out in *"--unique both: expected event, combination or off"*) ;; *) echo "message: $out"; exit 1 ;; esac
[ ! -e "$dir/rps-unique-bad.rps" ] || { echo "a .rps written on bad usage"; exit 1; }
echo "rpstacks --unique both: exit 2, named: ok"
