#!/bin/bash
# profile_shared_libs.sh CYCLESCOPE OUTDIR GUEST_DIR: a dynamically linked program whose time is
# mostly in libc.so (tests/guest/dynamic/libc_heavy.c) profiled with its shared libraries
# (docs/profile.md, "Shared libraries"), checked against the sampler's own counts and the truth:
#   - the profile (version 7) lists ld.so and libc.so.6 with their host files, identities and ranges;
#   - report: libc.so.6:strlen holds the most samples, libc.so.6:memcpy is named; every sample is
#     in a procedure, outside any, or idle (the sum is the samples taken), and each image's
#     procedures hold no more than the pcs of its ranges in the profile;
#   - the library procedures graded against the truth (its pcs as run): libc's within 10% (95% of
#     its samples, computed here from the JSON and the truth file), strlen's alone with --function
#     in both forms (IMAGE:NAME and NAME: the same procedure);
#   - a library missing or changed since: one line naming it, its samples IMAGE:unknown (no
#     procedure of it analysed), the rest as before.
#   - a dlopen'd library (dlclose'd before the end) in the loadmap, its samples in its procedures.
# Skips (77) without the dynamically linked guest or the sysroot.
set -u -o pipefail
cs=$(realpath "$1") out=$2 g=$(realpath "$3")
prog=$g/libc_heavy_dynamic
[ -x "$prog" ] || { echo "no $prog (no RISC-V cross compiler)"; exit 77; }
[ -e /usr/riscv64-linux-gnu/lib/libc.so.6 ] || [ -n "${CYCLESCOPE_SYSROOT:-}" ] || { echo "no RISC-V sysroot"; exit 77; }
rm -rf "$out" && mkdir -p "$out" && cd "$out" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$cs" profile record --env-fixed --config inorder1 --period 200 --sample-seed 1 --truth p.truth -o p.prof \
    "$prog" 2000 >run.out 2>err || { cat err; exit 1; }
head -1 p.prof | grep -qx 'cyclescope-profile 7' || fail "not a version-7 profile: $(head -1 p.prof)"

# the profile-producing path of run records the same loadmap
"$cs" run --env-fixed --config inorder1 --no-report --analysis profile:file=run.prof:period=200:seed=1 \
    "$prog" 2000 >/dev/null 2>err || fail "run --analysis profile: $(cat err)"
[ "$(sed -n '/^images /,/^pcs /p' run.prof)" = "$(sed -n '/^images /,/^pcs /p' p.prof)" ] ||
    fail "run --analysis profile: the images differ from record's"
grep -q '^images 0$' run.prof && fail "run --analysis profile: no images"

"$cs" profile report --truth p.truth --json r.json p.prof >report 2>err || fail "report: $(cat err)"
python3 - p.prof r.json <<'PY' || fail "report: the libraries' procedures or counts are wrong"
import json, os, sys
prof, r = open(sys.argv[1]).read().split("\n"), json.load(open(sys.argv[2]))
images, i = [], prof.index(next(l for l in prof if l.startswith("images ")))
for _ in range(int(prof[i].split()[1])):
    img = {"path": prof[i + 1][6:], "host": prof[i + 2][11:], "bias": int(prof[i + 5].split()[1], 16)}
    n = int(prof[i + 6].split()[1])
    img["ranges"] = [tuple(int(x, 16) for x in prof[i + 7 + k].split()) for k in range(n)]
    images.append(img)
    i += 6 + n
names = sorted(os.path.basename(m["path"]) for m in images)
assert names[0].startswith("ld-linux") and "libc.so.6" in names, names
for m in images: assert os.path.exists(m["host"]), m
# per-pc CYCLES counts as the sampler wrote them
p0 = prof.index(next(l for l in prof if l.startswith("pcs ")))
pcs = {int(l.split()[0], 16): int(l.split()[1]) for l in prof[p0 + 1:p0 + 1 + int(prof[p0].split()[1])]}
procs = r["procedures"]
by = {p["name"]: p for p in procs}
first = max(procs, key=lambda p: p["samples"])
assert first["name"] == "libc.so.6:strlen" and first["image"] == "libc.so.6", first["name"]
assert by["libc.so.6:memcpy"]["samples"] > 0
assert by["main"]["image"] == "libc_heavy_dynamic"
total = sum(p["samples"] for p in procs) + r["samples_outside"] + r["idle_samples"]
assert total == r["samples"] == sum(pcs.values()) + r["idle_samples"], (total, r["samples"])
for m in images:
    name = os.path.basename(m["path"])
    in_ranges = sum(c for pc, c in pcs.items() if any(a <= pc < b for a, b in m["ranges"]))
    in_procs = sum(p["samples"] for p in procs if p["name"].startswith(name + ":"))
    reported = next(x["samples"] for x in r["images"] if x["name"] == name)
    assert in_procs <= in_ranges == reported, (name, in_procs, in_ranges, reported)
    # a procedure's instructions at the library's link addresses: as run, they are in its ranges
    for p in procs:
        if p["name"].startswith(name + ":"):
            for x in p["instructions"]:
                run = int(x["pc"], 16) + m["bias"]
                assert any(a <= run < b for a, b in m["ranges"]), (p["name"], x["pc"])
print("libraries:", {m["path"]: sum(p["samples"] for p in procs if p["name"].startswith(os.path.basename(m["path"]) + ":")) for m in images})
PY

# libc's procedures together, graded here from the JSON and the truth file (its pcs as run):
# the estimated count of each instruction with samples against its executions
python3 - p.prof p.truth r.json <<'PY' || fail "libc's frequencies not within 10% of the truth"
import json, sys
prof, truth, r = open(sys.argv[1]).read().split("\n"), open(sys.argv[2]).read().split("\n"), json.load(open(sys.argv[3]))
bias = int(prof[prof.index("image /lib/libc.so.6") + 4].split()[1], 16)
t0 = next(i for i, l in enumerate(truth) if l.startswith("pcs "))
execs = {int(l.split()[0], 16): int(l.split()[1]) for l in truth[t0 + 1:t0 + 1 + int(truth[t0].split()[1])]}
w = n = 0
for p in r["procedures"]:
    if p["name"].startswith("libc.so.6:"):
        for x in p["instructions"]:
            if x["samples"]:
                n += x["samples"]
                e = execs.get(int(x["pc"], 16) + bias, 0)
                w += x["samples"] if e and x["count"] is not None and abs(x["count"] - e) <= 0.1 * e else 0
print("libc: %d samples, %.1f%% within 10%%" % (n, 100.0 * w / n))
assert n > 30000 and w >= 0.95 * n
PY

# one procedure (--function in both forms): strlen's samples graded alone
for f in libc.so.6:strlen strlen; do
    "$cs" profile report --function $f --truth p.truth --json f.json p.prof >/dev/null 2>err || fail "report --function $f: $(cat err)"
    python3 -c "import json, sys; d = json.load(open('f.json')); g = d['grade']
assert [p['name'] for p in d['procedures']] == ['libc.so.6:' + sys.argv[1].split(':')[-1]], d['procedures']
assert g['samples'] > 500 and g['within10'] >= 0.9 and g['off15_marked_low'] == 1, g" "$f" ||
        fail "report --function $f: $(python3 -c "import json; print(json.load(open('f.json')).get('grade'))")"
done
"$cs" profile annotate --function libc.so.6:strlen p.prof >ann 2>err || fail "annotate: $(cat err)"
grep -q '^libc.so.6:strlen \[0x' ann || fail "annotate: no listing of libc.so.6:strlen"

# the library missing, then changed: one line each naming it, its samples libc.so.6:unknown
libc_host=$(awk '$1 == "image-host" && /libc.so.6$/ {print $2}' p.prof)
cp "$libc_host" changed-libc.so.6 && printf 'x' >>changed-libc.so.6
for case in missing changed; do
    new=$([ $case = missing ] && echo "$out/no/such/libc.so.6" || echo "$out/changed-libc.so.6")
    python3 - p.prof "$libc_host" "$new" $case.prof <<'PY'
import sys, zlib
text = open(sys.argv[1]).read().split("\n")
text = [("image-host " + sys.argv[3]) if l == "image-host " + sys.argv[2] else l for l in text]
body = "\n".join(text[:-2]) + "\n"  # without the checksum line (and the empty string after it)
open(sys.argv[4], "w").write(body + "checksum crc32:%08x\n" % zlib.crc32(body.encode()))
PY
    "$cs" profile report --truth p.truth --json $case.json $case.prof >$case.report 2>$case.err ||
        fail "report ($case library): $(cat $case.err)"
    [ "$(grep -c 'libc.so.6' $case.err)" = 1 ] || fail "report ($case library): not one line naming it: $(cat $case.err)"
    word=$([ $case = missing ] && echo "is not there" || echo "changed since the profile was recorded")
    grep -q "warning: $case.prof: the library /lib/libc.so.6 ($new) $word.*its samples are libc.so.6:unknown" $case.err ||
        fail "report ($case library): $(cat $case.err)"
    python3 - r.json $case.json <<'PY' || fail "report ($case library): the attribution"
import json, sys
before, after = (json.load(open(f)) for f in sys.argv[1:])
libc = next(x["samples"] for x in before["images"] if x["name"] == "libc.so.6")
names = {p["name"]: p for p in after["procedures"]}
assert names["libc.so.6:unknown"]["samples"] == libc and not names["libc.so.6:unknown"]["instructions"], names.get("libc.so.6:unknown")
assert not [n for n in names if n.startswith("libc.so.6:") and n != "libc.so.6:unknown"]
same = lambda d: {p["name"]: p["samples"] for p in d["procedures"] if not p["name"].startswith("libc.so.6:")}
assert same(before) == same(after)
assert sum(p["samples"] for p in after["procedures"]) + after["samples_outside"] + after["idle_samples"] == after["samples"]
PY
done

# a library dlopen'd (and dlclose'd before the end): in the loadmap all the same, its
# samples in its own procedures
if [ -x "$g/dlopen_use_dynamic" ] && [ -e "$g/libshared.so" ]; then
    "$cs" profile record --env-fixed --config inorder1 --period 20 --sample-seed 1 -o dl.prof \
        "$g/dlopen_use_dynamic" "$g/libshared.so" main x y >/dev/null 2>err || fail "record (dlopen): $(cat err)"
    grep -qx "image $g/libshared.so" dl.prof || fail "record (dlopen): libshared.so not in the images"
    "$cs" profile report --json dl.json dl.prof >/dev/null 2>err || fail "report (dlopen): $(cat err)"
    python3 -c "import json; d = json.load(open('dl.json'))
n = next(x['samples'] for x in d['images'] if x['name'] == 'libshared.so')
assert n > 0 and n == sum(p['samples'] for p in d['procedures'] if p['name'].startswith('libshared.so:')), n" ||
        fail "report (dlopen): libshared.so's samples not in its procedures"
fi

[ $failures = 0 ] || exit 1
echo "shared libraries: $(grep -c . report) report lines; strlen, memcpy named and graded; missing and changed libc reported as libc.so.6:unknown"
