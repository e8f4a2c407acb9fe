#!/bin/bash
# profile_cli.sh CYCLESCOPE OUTDIR PROG OTHER_PROG
# `cyclescope profile` end to end: record (and the same sampler from `run
# --analysis profile`), report, annotate, JSON with the fields the issue asks
# for, HTML with an SVG CFG; and the bad inputs: a corrupt, a truncated, a
# foreign profile, a profile of another build, an executable without text —
# each one line naming the file, exit 125.
set -eu
cs=$1 out=$2 prog=$3 other=$4
mkdir -p "$out"
cd "$out"
fail() { echo "FAIL: $*"; exit 1; }
one_error() { # EXIT REGEX CMD…: exactly one line on stderr matching REGEX, exit EXIT
    local want=$1 re=$2; shift 2
    set +e; "$@" >/dev/null 2>err.txt; local rc=$?; set -e
    [ "$rc" = "$want" ] || { cat err.txt; fail "exit $rc, wanted $want: $*"; }
    [ "$(wc -l <err.txt)" = 1 ] || { cat err.txt; fail "not one line: $*"; }
    grep -Eq -- "$re" err.txt || { cat err.txt; fail "no /$re/: $*"; }
}

"$cs" profile record --config inorder1 --period 500 --events 1 -o p.prof "$prog" 3000 >/dev/null 2>rec.txt
grep -q 'CYCLES samples' rec.txt || fail "record said nothing"
head -1 p.prof | grep -qx 'cyclescope-profile 7' || fail "no header"
grep -qx 'sample-point issue-head' p.prof || fail "an in-order profile not sampled at the head of issue"
tail -1 p.prof | grep -Eq '^checksum crc32:[0-9a-f]{8}$' || fail "no checksum"
grep -q '^config-name inorder1$' p.prof || fail "no configuration"
grep -q '^config-source inorder1$' p.prof || fail "no configuration source"
grep -q '^config-overrides 0$' p.prof || fail "overrides recorded where none were given"
grep -Eq '^exe-hash fnv1a64:[0-9a-f]{16}$' p.prof || fail "no executable identity"

# the same sampler through `run`
"$cs" run --config inorder1 --no-report --analysis profile:file=r.prof:period=500 "$prog" 3000 >/dev/null 2>&1
# (record also took event samples: compare the CYCLES counts)
diff <(awk '/^pcs /{on=1;next} on&&!/^checksum/&&$2>0{print $1,$2}' p.prof) \
     <(awk '/^pcs /{on=1;next} on&&!/^checksum/&&$2>0{print $1,$2}' r.prof) >/dev/null ||
    fail "run --analysis profile sampled differently from profile record"
# … which records the configuration's source and --set overrides in order, as record does
"$cs" run --config inorder1 --set l1d.size=2048 --set l1i.size=1024 --no-report \
    --analysis profile:file=s.prof:period=500 "$prog" 3000 >/dev/null 2>&1
[ "$(sed -n '/^config-source /,/^model /p' s.prof)" = "$(printf 'config-source inorder1\nconfig-overrides 2\nl1d.size=2048\nl1i.size=1024\nmodel inorder')" ] ||
    fail "run --analysis profile did not record the source and the overrides"

"$cs" profile report p.prof >report.txt 2>/dev/null
grep -q 'main' report.txt || fail "report lists no main"
"$cs" profile annotate --function main --json p.json --html p.html p.prof >ann.txt 2>/dev/null
grep -q '^main \[' ann.txt || fail "annotate has no main listing"
jq -e '[.procedures[].instructions[] | has("pc") and has("samples") and has("count") and has("confidence")
        and has("cpi") and has("culprits")] | all' p.json >/dev/null || fail "JSON lacks a field"
jq -e '[.procedures[].name] == ["main"]' p.json >/dev/null || fail "--function main gave other procedures"
grep -q '<svg' p.html || fail "no SVG in the HTML"
"$cs" profile report --json - p.prof 2>/dev/null | jq -e '.procedures | length > 0' >/dev/null || fail "--json -"

# an in-order profile has no warning; an out-of-order one warns once that the
# frequencies are not reliable and why (docs/profile.md), in the JSON and the HTML too
"$cs" profile report p.prof 2>warn.txt >/dev/null
grep -q 'warning' warn.txt && fail "a warning on an in-order profile"
jq -e '.frequencies_reliable == true and (has("warning") | not)' p.json >/dev/null || fail "in-order JSON not marked reliable"
jq -e '.sample_point == "issue-head" and .slots == 1' p.json >/dev/null || fail "in-order JSON: sample point or slots"
grep -q "class='warning'" p.html && fail "a warning in an in-order profile's HTML"
"$cs" profile record --config ooo4 --period 500 --sample-point issue-head -o o.prof "$prog" 2000 >/dev/null 2>&1
grep -qx 'sample-point issue-head' o.prof || fail "--sample-point issue-head not recorded"
"$cs" profile report --json o.json --html o.html o.prof 2>warn.txt >/dev/null
[ "$(wc -l <warn.txt)" = 2 ] || fail "report on ooo4: not the warning and the time alone on stderr"
grep -q '^cyclescope: warning: ooo4 is an out-of-order machine: .*assumes in-order issue' warn.txt ||
    fail "no one-line warning with its reason on ooo4"
# one commit slot drawn a sample cycle (profile version 5's default): its own warning, with what is left
"$cs" profile record --config ooo4 --period 500 --sample-point commit-slot -o oc.prof "$prog" 2000 >/dev/null 2>&1
grep -qx 'sample-point commit-slot' oc.prof || fail "--sample-point commit-slot not recorded"
"$cs" profile report oc.prof 2>warn.txt >/dev/null
grep -q '^cyclescope: warning: ooo4 is an out-of-order machine: .*commit-slot samples.*sampling error is larger' \
    warn.txt || fail "no commit-slot warning on ooo4"
# time-proportional: every sample lands on an instruction (a frontend bubble's on the next
# to commit), so the per-pc counts add up to all the samples, and samples x the mean period
# come to the run's cycles (within 2%: the period is drawn in [480, 520])
awk '/^period /{p=($2+$3)/2} /^cycles /{c=$2} /^samples /{n=$2; idle=$3} /^pcs /{on=1; next}
     /^checksum/{on=0} on{sum+=$2}
     END{exit !(idle == 0 && sum == n && n*p > 0.98*c && n*p < 1.02*c)}' oc.prof ||
    fail "commit-slot samples: idle ones, or the counts x period not the cycles"
# the retiring samples (version 5's fifth column): some at the commit slots, none at the head of issue
awk '/^pcs /{on=1; next} /^checksum/{on=0} on{r+=$6} END{exit !(r > 0)}' oc.prof || fail "no retiring samples"
awk '/^pcs /{on=1; next} /^checksum/{on=0} on{r+=$6} END{exit !(r == 0)}' o.prof || fail "retiring samples at the head of issue"
"$cs" profile record --config ooo4 --period 500 --sample-point commit-slot --sample-seed 2 -o oc2.prof "$prog" 2000 >/dev/null 2>&1
"$cs" profile merge oc.prof oc2.prof -o ocm.prof 2>/dev/null || fail "merge of two commit-slot runs"
grep -qx 'sample-point commit-slot' ocm.prof || fail "the merged profile lost its sample point"
# every commit slot of a sample cycle (commit-cycle, the out-of-order default since version 6):
# W = 4 slot-samples a sample cycle, all at instructions, so the counts add up to the samples and
# samples x the mean period / W come to the run's cycles; per pc the spread (cycles-sq,
# retiring-width) is possible for its counts, and some cycle gave a pc more than one slot
"$cs" profile record --config ooo4 --period 500 -o cc.prof "$prog" 2000 >/dev/null 2>&1
grep -qx 'sample-point commit-cycle' cc.prof || fail "an ooo4 profile not sampled at every commit slot by default"
grep -qx 'pcs [0-9]* cycles imiss dmiss mispredict retiring cycles-sq retiring-width' cc.prof ||
    fail "commit-cycle records without their spread"
awk '/^period /{p=($2+$3)/2} /^cycles /{c=$2} /^samples /{n=$2; idle=$3} /^pcs /{on=1; next}
     /^checksum/{on=0} on{sum+=$2; if ($7 < $2 || $7 > $2 * $2 || $8 < $6 || $8 > 4 * $6) bad=1; if ($7 > $2) grouped=1}
     END{exit !(idle == 0 && sum == n && n % 4 == 0 && n*p/4 > 0.98*c && n*p/4 < 1.02*c && !bad && grouped)}' cc.prof ||
    fail "commit-cycle samples: idle ones, not W a sample cycle, the counts x period / W not the cycles, or a spread impossible"
"$cs" profile report --json cc.json cc.prof 2>warn.txt >/dev/null
jq -e '.sample_point == "commit-cycle" and .slots == 4 and (.period * .samples - .cycles | fabs) < 0.001 * .cycles' cc.json \
    >/dev/null || fail "commit-cycle JSON: sample point, slots, or period x samples not the cycles"
grep -q '^cyclescope: warning: ooo4 is an out-of-order machine: .*commit-cycle samples.*merge runs' warn.txt ||
    fail "no commit-cycle warning on ooo4"
"$cs" profile record --config ooo4 --period 500 --sample-seed 2 -o cc2.prof "$prog" 2000 >/dev/null 2>&1
"$cs" profile merge cc.prof cc2.prof -o ccm.prof 2>/dev/null || fail "merge of two commit-cycle runs"
grep -qx 'sample-point commit-cycle' ccm.prof || fail "the merged commit-cycle profile lost its sample point"
"$cs" profile report ccm.prof >/dev/null 2>&1 || fail "report of a merged commit-cycle profile"
one_error 125 '^cyclescope: oc.prof: samples taken at another point \(commit-slot; expected commit-cycle\)$' \
    "$cs" profile merge cc.prof oc.prof -o bad.prof
# a commit point asked of an in-order machine: refused before anything runs
one_error 2 'sample point commit-cycle is an out-of-order machine.s \(inorder1 is in-order' \
    "$cs" profile record --config inorder1 --sample-point commit-cycle -o bad.prof "$prog" 100
one_error 125 '^cyclescope: o.prof: samples taken at another point \(issue-head; expected commit-slot\)$' \
    "$cs" profile merge oc.prof o.prof -o bad.prof
jq -e '.frequencies_reliable == false and (.warning | test("^ooo4 is an out-of-order machine"))' o.json >/dev/null ||
    fail "out-of-order JSON not marked unreliable"
grep -q "<p class='warning'.*ooo4 is an out-of-order machine" o.html || fail "no warning in the out-of-order HTML"
"$cs" profile record --config ooo4 --period 500 --events 5 -o oe.prof "$prog" 2000 >/dev/null 2>&1
"$cs" profile imiss --json oe.json --html oe.html oe.prof 2>warn.txt >/dev/null || fail "imiss on ooo4"
grep -q '^cyclescope: warning: ooo4 is an out-of-order machine' warn.txt || fail "no imiss warning on ooo4"
jq -e '.warning | test("^ooo4 is an out-of-order machine")' oe.json >/dev/null || fail "no warning in imiss' JSON"
grep -q "<p class='warning'" oe.html || fail "no warning in imiss' HTML"

# the store-buffer and DTLB culprits: candidates on a machine that has a store
# buffer and a DTLB (bdw; inorder3 with both turned on), ruled out on one without
# (inorder1, ooo4)
"$cs" profile record --config bdw --period 200 -o b.prof "$(dirname "$prog")/hash" 2000 >/dev/null 2>&1 ||
    fail "record on bdw"
"$cs" profile report --json b.json b.prof >/dev/null 2>&1
"$cs" profile record --config inorder3 --set core.store_buffer=4 --set dtlb.entries=8 --set dtlb.miss_latency=30 \
    --period 200 -o i.prof "$(dirname "$prog")/hash" 2000 >/dev/null 2>&1 || fail "record on inorder3 with TLBs"
"$cs" profile report --json i.json i.prof >/dev/null 2>&1
for c in store-buffer dtlb-miss; do
    for j in b.json i.json; do
        jq -e --arg c "$c" '[.procedures[].instructions[].culprits[].cause] | index($c) != null' $j >/dev/null ||
            fail "no $c culprit on a machine with one ($j)"
    done
    for j in p.json o.json; do
        jq -e --arg c "$c" '[.procedures[].instructions[].culprits[].cause] | index($c) == null' $j >/dev/null ||
            fail "a $c culprit on a machine without one ($j)"
    done
done

# Figure 10: I-cache stall cycles against IMISS events, with a 256-byte I-cache
# so that misses happen; measured counts and the true stall cycles from --truth
# (4000 elements, 32 kB: enough D-cache misses that stalls on loads pass the 3σ test)
"$cs" profile record --config inorder3 --set l1i.size=256 --period 100 --events 1 --truth f.truth -o f.prof \
    "$prog" 4000 >/dev/null 2>&1 || fail "record with events"
"$cs" profile imiss --truth f.truth --json f.json --html f.html f.prof >imiss.txt 2>/dev/null || fail "imiss failed"
grep -q '^correlation with the projected misses over' imiss.txt || fail "imiss printed no correlation"
jq -e '.schema == "cyclescope-profile-imiss" and .measured_counts == true and (.procedures | length > 0) and
       ([.procedures[] | .stall_low <= .stall_high and .projected_misses >= 0 and has("true_stall")] | all) and
       (.procedures | map(.projected_misses) | add > 0) and (.correlation | has("top") and has("midpoint_vs_true"))' \
    f.json >/dev/null || fail "imiss JSON"
grep -q '<svg' f.html || fail "no SVG in the imiss HTML"
# with every D-cache miss sampled (--events 1), no load is blamed for a D-cache
# miss it never had: every load a dcache-miss culprit names has DMISS samples
"$cs" profile report --json fr.json f.prof >/dev/null 2>&1
jq -r '[.procedures[].instructions[].culprits[] | select(.cause == "dcache-miss" and .pc) | .pc] | unique[]' fr.json |
    sed 's/^0x//' | sort -u >blamed.txt
awk '/^pcs /{on=1;next} on&&!/^checksum/&&$4>0{print $1}' f.prof | sort -u >missed.txt
[ -s blamed.txt ] || fail "no dcache-miss culprit names a load"
if comm -23 blamed.txt missed.txt | grep -q .; then fail "a load blamed for a D-cache miss it never had"; fi
# DCPI's I-cache rule (in-order samples name the instruction waiting for its line): an
# I-cache culprit only at the first instruction of a 16-byte line (inorder3's), at one
# that straddles two, or at a block's head
jq -e '[.procedures[] | .instructions as $i | range(0; $i | length) as $k | $i[$k] |
        select([.culprits[].cause] | index("icache-miss") != null) |
        (.pc | ltrimstr("0x") | explode | reduce .[] as $c (0; . * 16 + ($c | if . >= 97 then . - 87 else . - 48 end))) as $pc |
        ($pc % 16 == 0 or $pc % 16 == 14 or $k == 0 or $i[$k - 1].block != .block)] |
       (length > 0) and all' fr.json >/dev/null || fail "an I-cache culprit inside a line, not at a block's head"
# a profile recorded without --events is the wrong input for imiss: bad usage
# (exit 2), the message naming the option that was missing when it was recorded
one_error 2 'o.prof has no event samples: record it with --events N' "$cs" profile imiss o.prof
one_error 2 '--estimated needs --truth' "$cs" profile imiss --estimated f.prof

# a switch's jump table (interp's bytecode dispatch): the table is read and the
# dispatch block gets an edge per case, so the procedure is not "missing edges"
interp=$(dirname "$prog")/interp
if [ -x "$interp" ]; then
    "$cs" profile record --config inorder1 --period 500 -o i.prof "$interp" 20 >/dev/null 2>&1
    "$cs" profile report --json i.json i.prof >/dev/null 2>&1
    jq -e '[.procedures[] | select(.missing_edges == false) | [.edges[] | select(.to != "exit")] | group_by(.from)
            | map(length) | max] | max >= 10' i.json >/dev/null || fail "no jump table resolved in interp"
fi

# merge: runs with other seeds summed into one profile (and their truths into one truth)
for s in 1 2 3; do
    "$cs" profile record --env-fixed --config inorder1 --period 500 --sample-seed $s --truth m$s.truth -o m$s.prof \
        "$prog" 3000 >/dev/null 2>&1
done
"$cs" profile merge m1.prof m2.prof m3.prof -o m.prof 2>/dev/null
"$cs" profile merge -o m.truth m1.truth m2.truth m3.truth 2>/dev/null
[ "$(sed -n '/^runs /,/^event-period /p' m.prof)" = "$(printf 'runs 3\n1\n2\n3\nevent-period 0')" ] || fail "merge: runs and seeds"
sum_of() { awk -v k="$1" '$1 == k {s += $2} END {print s}' "${@:2}"; }
[ "$(sum_of samples m1.prof m2.prof m3.prof)" = "$(sum_of samples m.prof)" ] || fail "merge: samples not summed"
[ "$(sum_of cycles m1.prof m2.prof m3.prof)" = "$(sum_of cycles m.prof)" ] || fail "merge: cycles not summed"
pcs_of() { awk 'FNR == 1 {on = 0} /^pcs /{on=1;next} on&&!/^checksum/{print}' "$@"; }
diff <(pcs_of m1.prof m2.prof m3.prof | awk '{for (k = 2; k <= 6; k++) c[$1, k] += $k; pc[$1]} END {for (p in pc) print p, c[p, 2], c[p, 3], c[p, 4], c[p, 5], c[p, 6]}' | sort) \
     <(pcs_of m.prof | sort) >/dev/null || fail "merge: per-pc counts not the sums"
# the merged truth: three times the executions of one run (the run is deterministic)
"$cs" profile report --truth m.truth --json m.json m.prof >/dev/null 2>&1
"$cs" profile report --truth m1.truth --json m1.json m1.prof >/dev/null 2>&1
jq -e --slurpfile one m1.json '.grade.samples > 2.5 * $one[0].grade.samples' m.json >/dev/null || fail "merge: grade"
awk '/^pcs /{on=1;next} /^edges /{on=0} on{print $1, 3 * $2}' m1.truth >t1.txt
awk '/^pcs /{on=1;next} /^edges /{on=0} on{print $1, $2}' m.truth >t3.txt
diff t1.txt t3.txt >/dev/null || fail "merge: truth executions not summed"
# what cannot be merged: one line naming the file
one_error 125 'm1.prof: sampling seed 1 is already in the profile' "$cs" profile merge m.prof m1.prof -o x.prof
"$cs" profile record --env-fixed --config inorder1 --period 400 --sample-seed 9 -o q.prof "$prog" 3000 >/dev/null 2>&1
one_error 125 'q.prof: a different sampling period' "$cs" profile merge m1.prof q.prof -o x.prof
"$cs" profile record --env-fixed --config inorder3 --period 500 --sample-seed 9 -o c.prof "$prog" 3000 >/dev/null 2>&1
one_error 125 'c.prof: recorded on a different machine configuration' "$cs" profile merge m1.prof c.prof -o x.prof
"$cs" profile record --env-fixed --config inorder1 --period 500 --sample-seed 9 -o e.prof "$other" 50 >/dev/null 2>&1
one_error 125 'e.prof: a different executable' "$cs" profile merge m1.prof e.prof -o x.prof
one_error 125 'm2.prof: not a cyclescope profile truth file' "$cs" profile merge m1.truth m2.prof -o x.truth
one_error 2 'two or more' "$cs" profile merge m1.prof -o x.prof
one_error 2 'no output' "$cs" profile merge m1.prof m2.prof
[ ! -e x.prof ] && [ ! -e x.truth ] || fail "merge wrote an output after an error"

# a run shorter than one sampling period: no sample at all (no pc, no edge to sort;
# under the sanitizers a qsort of the NULL array was undefined), a profile that
# says so, and a report that refuses it in one line
"$cs" profile record --config inorder1 --period 1000000000 --truth short.truth -o short.prof "$prog" 3000 \
    >/dev/null 2>rec_short.txt || { cat rec_short.txt; fail "record of a run shorter than its period failed"; }
grep -q '^profile: 0 CYCLES samples' rec_short.txt || fail "a run shorter than its period: $(cat rec_short.txt)"
"$cs" run --config inorder1 --no-report --analysis profile:file=short_run.prof:period=1000000000 "$prog" 3000 \
    >/dev/null 2>&1 || fail "run --analysis profile shorter than its period failed"
"$cs" profile record --config inorder1 --period 1000000000 --sample-seed 5 -o short2.prof "$prog" 3000 >/dev/null 2>&1
"$cs" profile merge short.prof short2.prof -o short_m.prof 2>/dev/null || fail "merge of two empty profiles failed"
one_error 125 'short.prof: no CYCLES samples at any instruction' "$cs" profile report short.prof
one_error 125 'short_m.prof: no CYCLES samples at any instruction' "$cs" profile annotate short_m.prof

# bad input
cp p.prof corrupt.prof
sed -i '0,/^pcs /!{0,/^[0-9a-f]* /s/^\([0-9a-f]*\) \([0-9]*\)/\1 9\2/}' corrupt.prof
one_error 125 'corrupt.prof: checksum mismatch' "$cs" profile report corrupt.prof
head -c 700 p.prof >trunc.prof
one_error 125 'trunc.prof: truncated' "$cs" profile report trunc.prof
echo hello >foreign.prof
# the profile's program is gone (a profile moved away from where it was recorded): one line
# naming both the profile and the program, and the executable given by --exe likewise
cp "$prog" gone_prog
"$cs" profile record --config inorder1 --period 500 -o gone.prof ./gone_prog 3000 >/dev/null 2>&1
rm gone_prog
for verb in report annotate; do
    one_error 125 '^cyclescope: gone.prof: its program: /.*/gone_prog: cannot open' "$cs" profile $verb gone.prof
done
one_error 125 '^cyclescope: gone.prof: the executable given by --exe: nowhere/prog: cannot open' \
    "$cs" profile report --exe nowhere/prog gone.prof
one_error 125 '^cyclescope: foreign.prof: not a cyclescope profile' "$cs" profile report foreign.prof
# files that are no profile at all, whatever their last line: an ELF (the tool
# itself, the program), a text, an empty file, the truth file — one line, not a
# parse error about some line or a missing checksum
: >empty.prof
for f in "$cs" "$prog" "$(dirname "$0")/profile_cli.sh" empty.prof m1.truth; do
    for verb in report annotate; do
        one_error 125 "^cyclescope: $f: not a cyclescope profile \(it does not begin with" "$cs" profile $verb "$f"
    done
done
# a bad key in the profile's recorded configuration: named against the profile and the line
# of its configuration, not a temporary file the configuration was copied to
python3 - p.prof badcfg.prof <<'PY'
import sys, zlib
b = open(sys.argv[1], 'rb').read()
lines = b[:b.rindex(b'checksum')].split(b'\n')
at = [i for i, l in enumerate(lines) if l.startswith(b'config ') and l[7:].isdigit()][0]
lines[at] = b'config %d' % (int(lines[at][7:]) + 1)
lines.insert(lines.index(b'[core]'), b'[core]\nbogus_key = 3')  # two lines: its count grows by one more
lines[at] = b'config %d' % (int(lines[at][7:]) + 1)
body = b'\n'.join(lines)
open(sys.argv[2], 'wb').write(body + b'checksum crc32:%08x\n' % zlib.crc32(body))
PY
one_error 125 "^cyclescope: badcfg.prof: the profile's configuration:[0-9]+: unknown key core.bogus_key" \
    "$cs" profile report badcfg.prof
one_error 125 'p.prof: recorded from another build' "$cs" profile report --exe "$other" p.prof
one_error 125 'no/such.prof' "$cs" profile report no/such.prof
one_error 125 "no procedure named 'nosuch'" "$cs" profile report --function nosuch p.prof
# a bad truth file: one line naming it, and no report printed before it
head -c 500 m1.truth >trunc.truth
one_error 125 'trunc.truth: truncated' "$cs" profile report --truth trunc.truth m1.prof
"$cs" profile record --config inorder1 --period 500 --truth other.truth -o other.prof "$other" 2000 >/dev/null 2>&1
one_error 125 'other.truth: the truth file is of another executable' "$cs" profile report --truth other.truth m1.prof
# the truth of another run of the same program (another sampling seed): its samples are not the profile's
one_error 125 'm2.truth: the truth file is of another run: at pc [0-9a-f]+ it has [0-9]+ CYCLES samples, the profile [0-9]+' \
    "$cs" profile report --truth m2.truth m1.prof
one_error 125 'm2.truth: the truth file is of another run' "$cs" profile annotate --truth m2.truth m1.prof
for t in trunc other m2; do
    [ -z "$("$cs" profile report --truth $t.truth m1.prof 2>/dev/null)" ] || fail "a report printed before the bad $t.truth"
done
# an executable without text: a profile whose identity is that of a data file,
# or of the ELF with its executable sections removed (riscv64-linux-gnu-objcopy,
# binutils-riscv64-linux-gnu in scripts/install-deps.sh)
with_identity_of() { # EXE PROFILE OUT: PROFILE, its program and identity EXE's, checksum made again
    python3 - "$@" <<'PY'
import sys, zlib
exe, prof, out = sys.argv[1:]
d = open(exe, 'rb').read()
h = 1469598103934665603
for b in d:
    h = ((h ^ b) * 1099511628211) & 0xffffffffffffffff
body = open(prof, 'rb').read()
body = body[:body.rindex(b'checksum')]
lines = body.split(b'\n')
for i, l in enumerate(lines):
    if l.startswith(b'program '): lines[i] = b'program ' + exe.encode()
    if l.startswith(b'exe-size '): lines[i] = b'exe-size %d' % len(d)
    if l.startswith(b'exe-hash '): lines[i] = b'exe-hash fnv1a64:%016x' % h
body = b'\n'.join(lines)
open(out, 'wb').write(body + b'checksum crc32:%08x\n' % zlib.crc32(body))
PY
}
printf 'not an executable at all\n' >data.bin
with_identity_of data.bin p.prof notext.prof
one_error 125 'data.bin' "$cs" profile report notext.prof
objcopy=riscv64-linux-gnu-objcopy
if command -v $objcopy >/dev/null; then
    code_sections="-R .text -R .plt -R .init -R .fini -R .iplt -R .rela.plt"
    # only __libc_freeres_fn left: text, but none of the samples is in it
    $objcopy $code_sections "$prog" sometext.elf
    with_identity_of sometext.elf p.prof sometext.prof
    one_error 125 'sometext.prof: none of its [0-9]+ samples is at an instruction of a procedure of sometext.elf' \
        "$cs" profile report sometext.prof
    $objcopy $code_sections -R __libc_freeres_fn "$prog" notext.elf
    with_identity_of notext.elf p.prof notext-elf.prof
    one_error 125 'notext.elf: the executable has no text section' "$cs" profile report notext-elf.prof
else
    echo "note: no $objcopy, the ELF without text not tested"
fi

# a stripped executable: procedures from the entry and the call targets, named
# by address; the estimates graded against the truth as with symbols, at period
# 100 as profile.grade.inorder1 (at 300 the share within 10% is 0.89-0.95 with the
# length of the program's name: the goal is met at 100, not at 300; docs/profile.md)
strip=riscv64-linux-gnu-strip
if command -v $strip >/dev/null; then
    $strip -o stripped "$prog"
    ! riscv64-linux-gnu-nm stripped 2>/dev/null | grep -q . || fail "the stripped program has symbols"
    "$cs" profile record --env-fixed --config inorder1 --period 100 --truth s.truth -o s.prof stripped 10000 \
        >/dev/null 2>&1 || fail "record of a stripped program"
    "$cs" profile report --truth s.truth --json s.json s.prof >/dev/null 2>&1 || fail "report of a stripped program"
    jq -e '[.procedures[].name | test("^proc_[0-9a-f]+$")] | all' s.json >/dev/null ||
        fail "a stripped program's procedure not named by its address"
    jq -e '(.procedures | length) > 3 and .grade.within10 >= 0.92 and .grade.edges_within10 >= 0.7' s.json \
        >/dev/null || fail "a stripped program's estimates below the issue's goals on inorder1"
else
    echo "note: no $strip, the stripped executable not tested"
fi
# run --analysis profile of a program whose path holds a space: the profile's executable is that
# program (the sampler took the first word of the command line, "…/a", and the run failed)
mkdir -p "a dir"
cp "$prog" "a dir/prog"
"$cs" run --config inorder1 --no-report --analysis profile:file=space.prof:period=500 "$PWD/a dir/prog" 3000 \
    >/dev/null 2>err.txt || fail "run --analysis profile of '$PWD/a dir/prog': $(cat err.txt)"
grep -qxF "program $PWD/a dir/prog" space.prof || fail "the profile names another program: $(grep ^program space.prof)"
# usage
one_error 2 'no output file' "$cs" profile record "$prog"
one_error 2 'no profile file given' "$cs" profile report
one_error 2 'unknown subcommand' "$cs" profile frobnicate
one_error 2 "bad period" "$cs" profile record --period 0 -o x.prof "$prog"
one_error 2 "bad events" "$cs" profile record --events x -o x.prof "$prog"
echo "ok"
