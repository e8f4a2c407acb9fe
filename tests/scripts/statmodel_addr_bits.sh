#!/bin/bash
# statmodel_addr_bits.sh CYCLESCOPE OUTDIR WORKLOAD_DIR CORPUS_DIR
# The low-order address bits of thesis §5.5 (Figure 5.9):
#  - hash (100 k instructions) analysed with 0 and 4 address bits: the
#    three-pipe flow graph grows, and the three-pipe machine with no prediction
#    and perfect caches is modelled closer to its simulation of the same µops
#    (less aliasing, §5.3/5.5); each profile records its bit count;
#  - a version-2 profile (before the bits) is still read, as having none;
#  - a profile of an unknown version (8, checksum intact) is refused with the
#    versions this build reads;
#  - one-pipe numbers carry no bits: the one-pipe graph is unchanged.
set -eu
cs=$1 out=$2 wl=$3 corpus=$4
mkdir -p "$out"
for b in 0 4; do
    "$cs" model analyze --addr-bits $b --max 100000 -o "$out/hash$b.smp" "$wl/hash" 10000 >/dev/null 2>&1
    "$cs" model info --json "$out/info$b.json" "$out/hash$b.smp" >/dev/null
    "$cs" model solve --set bpred.type=none --set ideal.icache=yes --set ideal.dcache=yes --compare-sim \
        --json "$out/solve$b.json" "$out/hash$b.smp" >/dev/null
done
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
i0, i4 = (json.load(open("%s/info%d.json" % (out, b))) for b in (0, 4))
s0, s4 = (json.load(open("%s/solve%d.json" % (out, b))) for b in (0, 4))
print("sequences", i0["sequences"]["three_pipe"], "->", i4["sequences"]["three_pipe"],
      "error", s0["error"], "->", s4["error"], "simulated", s0["simulated_ipc"], s4["simulated_ipc"])
assert i0["address_bits"] == 0 and i4["address_bits"] == 4 and s4["address_bits"] == 4
assert i4["sequences"]["three_pipe"] > i0["sequences"]["three_pipe"]
assert i4["sequences"]["one_pipe"] == i0["sequences"]["one_pipe"]
assert s0["simulated_ipc"] == s4["simulated_ipc"]
assert abs(s4["error"]) < abs(s0["error"]), "4 address bits must model hash closer to its simulation"
PY
"$cs" model info "$corpus/v2_list_1500.smp" | grep -q "0 address bits"
python3 - "$out/hash4.smp" "$out/v9.smp" <<'PY'
import struct, sys, zlib
d = bytearray(open(sys.argv[1], "rb").read()[:-4])
d[8:12] = struct.pack("<I", 9)
open(sys.argv[2], "wb").write(bytes(d) + struct.pack("<I", zlib.crc32(bytes(d))))
PY
if "$cs" model solve "$out/v9.smp" 2>"$out/v9.err"; then echo "a version-9 profile was modelled"; exit 1; fi
grep -q "profile version 9 (this build reads versions 2 to 8)" "$out/v9.err"
echo ok
