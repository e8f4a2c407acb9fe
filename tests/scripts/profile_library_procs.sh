#!/bin/bash
# profile_library_procs.sh CYCLESCOPE OUTDIR GUEST_DIR EH_FRAME_RANGES: the procedures of dynamically linked
# programs and their libraries (docs/profile.md, "Shared libraries"), against the truth:
#   - a C++ program throwing exceptions (tests/guest/dynamic/cxx_exceptions.cc): libstdc++'s and
#     libgcc's unwinder functions are reached through pointers and far `auipc`+`jalr` calls,
#     which no direct call shows; with the functions .eh_frame describes (the FDEs, listed by
#     tests/tools/eh_frame_ranges.c) they are procedures: no library procedure with samples runs
#     over the start of another FDE (before: 12 671 of the 37 632 samples were in ld.so's and
#     libgcc's procedures that did, the functions after the first not found), and at most 1% of
#     the samples are outside any procedure;
#   - the PLT stubs (`strlen@plt`, `memcpy@plt` of tests/guest/dynamic/libc_heavy.c): their
#     jump through the GOT slot is the tail call out it is, an edge to the exit; no stub is
#     marked "missing edges" (before: all).
# Skips (77) without the guests or the sysroot.
set -u -o pipefail
cs=$(realpath "$1") out=$2 g=$(realpath "$3") fde_tool=$(realpath "$4")
for p in cxx_exceptions_dynamic libc_heavy_dynamic; do
    [ -x "$g/$p" ] || { echo "no $g/$p (no RISC-V cross compiler)"; exit 77; }
done
[ -e /usr/riscv64-linux-gnu/lib/libc.so.6 ] || [ -n "${CYCLESCOPE_SYSROOT:-}" ] || { echo "no RISC-V sysroot"; exit 77; }
rm -rf "$out" && mkdir -p "$out" && cd "$out" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$cs" profile record --env-fixed --config inorder1 --period 100 --sample-seed 1 --truth x.truth -o x.prof \
    "$g/cxx_exceptions_dynamic" 40 >/dev/null 2>err || { cat err; exit 1; }
"$cs" profile report --truth x.truth --json x.json x.prof >/dev/null 2>err || fail "report: $(cat err)"
python3 - x.json "$fde_tool" <<'PY' || fail "cxx_exceptions: the library procedures"
import bisect, json, subprocess, sys
r = json.load(open(sys.argv[1]))
fdes = {}
for m in r["images"]:
    out = subprocess.run([sys.argv[2], m["host_path"]], capture_output=True, text=True, check=True).stdout.split()
    fdes[m["name"]] = sorted(int(l.split("..")[0], 16) for l in out)
assert len(fdes["libstdc++.so.6"]) > 1000, len(fdes["libstdc++.so.6"])
over = []
for p in r["procedures"]:
    if p["image"] in fdes and p["instructions"]:
        start, last, f = int(p["start"], 16), int(p["instructions"][-1]["pc"], 16), fdes[p["image"]]
        i = bisect.bisect_right(f, start)
        if i < len(f) and f[i] <= last:
            over.append((p["name"], p["samples"], hex(f[i])))
assert not over, over
libs = sum(m["samples"] for m in r["images"])
print("cxx_exceptions: %d samples, %d in libraries, %d outside" % (r["samples"], libs, r["samples_outside"]))
assert libs > 0.5 * r["samples"], libs
assert r["samples_outside"] <= 0.01 * r["samples"], r["samples_outside"]
PY

"$cs" profile record --env-fixed --config inorder1 --period 200 --sample-seed 1 --truth l.truth -o l.prof \
    "$g/libc_heavy_dynamic" 2000 >/dev/null 2>err || { cat err; exit 1; }
"$cs" profile report --truth l.truth --json l.json l.prof >/dev/null 2>err || fail "report: $(cat err)"
python3 - l.json <<'PY' || fail "libc_heavy: the PLT stubs"
import json, sys
r = json.load(open(sys.argv[1]))
stubs = [p for p in r["procedures"] if p["name"].endswith("@plt")]
names = sorted(p["name"] for p in stubs)
print("PLT stubs with samples:", ", ".join("%s %d" % (p["name"], p["samples"]) for p in stubs))
assert "memcpy@plt" in names and "strlen@plt" in names, names
for p in stubs:
    assert not p["missing_edges"], p["name"]
    # the stub's block (auipc, ld, jalr) to the exit: the jump through the GOT slot leaves it
    assert {"from": 0, "to": "exit"} in [{"from": e["from"], "to": e["to"]} for e in p["edges"]], (p["name"], p["edges"])
PY
exit $((failures > 0))
