#!/bin/bash
# bench/profile_shared.sh [--quick] [--compare OLD_CYCLESCOPE] [--doc docs/profile.md] — the
# profile of dynamically linked programs with their shared libraries (docs/profile.md, "Shared
# libraries"): each program below is recorded with the truth (--env-fixed, sample seed 1), then
# reported and graded. Per row: the samples, the share at library pcs, the samples outside any
# procedure (had the libraries not been analysed — those outside plus the libraries' — → as
# reported: two columns), the samples in procedures marked "missing edges", the libraries' samples whose
# instruction's estimated count is within 10% of its executions (the truth's pcs as run: a
# library's at its link address plus its bias), the whole program's within 10% (the report's
# grade), and the three library procedures with the most samples. Rows "stripped" run the
# program stripped (riscv64-linux-gnu-strip). With --compare OLD, the same profiles are also
# reported by OLD (another build) and the last columns read OLD → this build. With --doc, writes
# the table between <!-- profile-shared begin/end --> in the document. --quick: libc_heavy on
# inorder1 only. Needs the dynamically linked guests (tests/guest/*_dynamic) and the RISC-V
# sysroot. Run from the build directory.
set -eu
export LC_ALL=C
cs=./cyclescope quick=0 old="" doc=""
usage="usage: $0 [--quick] [--compare OLD_CYCLESCOPE] [--doc FILE]"
while [ $# -gt 0 ]; do
    case $1 in
    --quick) quick=1 ;;
    --compare) [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }; old=$(realpath "$2"); shift ;;
    --doc) [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }; doc=$2; shift ;;
    *) echo "$usage" >&2; exit 2 ;;
    esac
    shift
done
g=tests/guest
[ -x "$cs" ] && [ -x $g/libc_heavy_dynamic ] || { echo "$0: run from the build directory (./cyclescope, $g/*_dynamic)" >&2; exit 2; }
[ -z "$old" ] || [ -x "$old" ] || { echo "$0: --compare $old: not an executable" >&2; exit 2; }
strip_tool=$(command -v riscv64-linux-gnu-strip || true)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# program|arguments|machine|period|stripped (1: run the stripped copy)
rows=("libc_heavy_dynamic|2000|inorder1|200|0"
    "libc_heavy_dynamic|2000|inorder3|200|0"
    "libc_heavy_dynamic|2000|ooo4|200|0"
    "libc_heavy_dynamic|2000|inorder1|200|1"
    "coremark_like_dynamic||inorder3|300|0"
    "fft_dynamic||inorder1|300|0"
    "interp_dynamic||inorder3|300|0"
    "cxx_exceptions_dynamic|40|inorder1|100|0"
    "cxx_exceptions_dynamic|40|inorder1|100|1")
[ $quick = 1 ] && rows=("libc_heavy_dynamic|2000|inorder1|200|0" "libc_heavy_dynamic|2000|inorder1|200|1")
table=$out/table.md
{
    echo "| program (tests/guest) | machine, period | samples | in libraries | outside, libraries not analysed | outside | in procedures missing edges | libraries within 10% | all within 10% | the most sampled in libraries |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"
} >"$table"
# grade JSON PROF TRUTH: "outside-if-not-analysed outside missing-edge-samples lib-w10% all-w10% top3"
grade() {
    python3 - "$@" <<'PY'
import json, sys
r, truth = json.load(open(sys.argv[1])), open(sys.argv[2]).read().split("\n")
t0 = next(i for i, l in enumerate(truth) if l.startswith("pcs "))
execs = {int(l.split()[0], 16): int(l.split()[1]) for l in truth[t0 + 1:t0 + 1 + int(truth[t0].split()[1])]}
bias = {m["name"]: int(m["bias"], 16) for m in r["images"]}
lib_samples = sum(m["samples"] for m in r["images"])
n = w = 0
for p in r["procedures"]:
    if p["image"] not in bias:
        continue
    for x in p["instructions"]:
        if x["samples"]:
            n += x["samples"]
            e = execs.get(int(x["pc"], 16) + bias[p["image"]], 0)
            w += x["samples"] if e and x["count"] is not None and abs(x["count"] - e) <= 0.1 * e else 0
missing = sum(p["samples"] for p in r["procedures"] if p.get("missing_edges"))
top = sorted((p for p in r["procedures"] if p["image"] in bias), key=lambda p: -p["samples"])[:3]
print(r["samples_outside"] + lib_samples, r["samples_outside"], missing, "%.1f%%" % (100.0 * w / n if n else 0),
      "%.1f%%" % (100.0 * r["grade"]["within10"]), lib_samples, r["samples"],
      ", ".join("%s %d" % (p["name"], p["samples"]) for p in top), sep="\t")
PY
}
for row in "${rows[@]}"; do
    IFS='|' read -r prog args machine period stripped <<<"$row"
    exe=$g/$prog name="$prog${args:+ $args}"
    if [ "$stripped" = 1 ]; then
        [ -n "$strip_tool" ] || { echo "$0: no riscv64-linux-gnu-strip: row '$name, stripped' left out" >&2; continue; }
        exe=$out/$prog && "$strip_tool" -o "$exe" "$g/$prog" && name="$name, stripped"
    fi
    f=$out/${prog}_${machine}_${period}_$stripped
    # shellcheck disable=SC2086 # the arguments split as words
    nice -n 10 $cs profile record --env-fixed --config "$machine" --period "$period" --sample-seed 1 \
        --truth "$f.truth" -o "$f.prof" "$exe" $args >/dev/null 2>"$f.err" || { cat "$f.err" >&2; exit 1; }
    $cs profile report --truth "$f.truth" --json "$f.json" "$f.prof" >/dev/null 2>"$f.err" || { cat "$f.err" >&2; exit 1; }
    IFS=$'\t' read -r before outside missing libw10 allw10 libs samples top < <(grade "$f.json" "$f.truth")
    if [ -n "$old" ]; then
        "$old" profile report --truth "$f.truth" --json "$f.old.json" "$f.prof" >/dev/null 2>"$f.err" || { cat "$f.err" >&2; exit 1; }
        IFS=$'\t' read -r _ o_outside o_missing o_libw10 o_allw10 _ _ _ < <(grade "$f.old.json" "$f.truth")
        outside="$o_outside → $outside" missing="$o_missing → $missing" libw10="$o_libw10 → $libw10" allw10="$o_allw10 → $allw10"
    fi
    share=$(awk -v l="$libs" -v s="$samples" 'BEGIN {printf "%.1f%%", s ? 100 * l / s : 0}')
    echo "| $name | $machine, $period | $samples | $share | $before | $outside | $missing | $libw10 | $allw10 | $top |" | tee -a "$table" >&2
done
cat "$table"
if [ -n "$doc" ]; then
    python3 - "$doc" "$table" <<'PY'
import sys
doc, table = sys.argv[1], open(sys.argv[2]).read()
text = open(doc).read()
b, e = "<!-- profile-shared begin -->", "<!-- profile-shared end -->"
i, j = text.index(b) + len(b), text.index(e)
open(doc, "w").write(text[:i] + "\n" + table + text[j:])
PY
fi
