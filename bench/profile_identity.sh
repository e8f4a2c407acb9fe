#!/bin/bash
# Do two cyclescope binaries analyse profiles the same way? Records a set of profiles once (with
# OLD: recording does not involve the analysis) and compares, byte for byte, what each binary's
# `profile report` (text, and --json but its provenance's date and commit), `profile report
# --truth` and `profile annotate` print for each, and times both binaries' `profile report
# --json` on each profile.
#   bench/profile_identity.sh OLD_CYCLESCOPE NEW_CYCLESCOPE BUILD_DIR PROFILE_DIR [--quick]
# BUILD_DIR: a build directory (its workloads/ and tests/guest/). PROFILE_DIR keeps the profiles:
# made when missing, reused when there (delete it to record again).
# The set: the bundled workloads (small arguments, at most 400 000 instructions) on inorder1,
# inorder3, ooo4, bdw and knl (bdw and knl have TLBs) at periods 100 and 1000; ooo4 also with
# --sample-point issue-head; the random configurations of tests/configs/random/ (large TLBs,
# BTBs, unlimited miss registers) on sort and memcopy; dynamically linked guests (their shared
# libraries' procedures are analysed too) on inorder1, inorder3 and ooo4. --quick: period 100
# only, six workloads.
# PROFILE_IDENTITY_CLOSE="REL ABS" (e.g. "1e-8 1e-6"): a JSON that differs passes when its numbers
# agree within REL relative or are both below ABS, a text when its words are equal but for a
# number one unit apart in its last place or a CPI "-" against "0.00" (bench/profile_json_close.py)
# — for a change of arithmetic that computes the same (flow_solve's downdate).
# Prints one line per profile and a summary with the total report times; exits 1 if any differs.
set -u -o pipefail
old=$(realpath "${1:?usage: profile_identity.sh OLD NEW BUILD_DIR PROFILE_DIR [--quick]}")
new=$(realpath "${2:?}")
build=$(realpath "${3:?}")
profiles=${4:?}
quick=${5:-}
src=$(realpath "$(dirname "$0")/..")
mkdir -p "$profiles"
profiles=$(realpath "$profiles")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

workloads="sort hash strsearch interp list tree matmul stencil fft memcopy coremark_like embench_like polybench_like"
periods="100 1000"
if [ "$quick" = --quick ]; then
    workloads="sort hash interp matmul fft coremark_like"
    periods=100
fi
small_arg() { awk -v w="$1" '$1 == w { print $3 }' "$src/workloads/manifest.txt"; }

# record NAME PROG_ARGS…: the profile NAME (and its truth file), unless already there
record() {
    local name=$1
    shift
    [ -s "$profiles/$name.prof" ] && return 0
    nice -n 10 "$old" profile record --env-fixed --max 400000 --truth "$profiles/$name.truth" \
        -o "$profiles/$name.prof" "$@" >/dev/null 2>"$tmp/err" ||
        { echo "$name: record failed: $(head -1 "$tmp/err")"; rm -f "$profiles/$name.prof"; return 1; }
}

names=()
for w in $workloads; do
    arg=$(small_arg "$w")
    for cfg in inorder1 inorder3 ooo4 bdw knl; do
        for p in $periods; do
            record "$w-$cfg-$p" --config "$cfg" --period "$p" "$build/workloads/$w" "$arg" && names+=("$w-$cfg-$p")
        done
    done
    record "$w-ooo4-issuehead" --config ooo4 --period 100 --sample-point issue-head "$build/workloads/$w" "$arg" &&
        names+=("$w-ooo4-issuehead")
done
for ini in "$src"/tests/configs/random/*.ini; do
    c=$(basename "$ini" .ini)
    for w in sort memcopy; do
        record "$w-$c" --config "$ini" --period 100 "$build/workloads/$w" "$(small_arg "$w")" && names+=("$w-$c")
    done
done
for g in libc_heavy_dynamic:2000 coremark_like_dynamic:20 fft_dynamic:2048 interp_dynamic:250; do
    arg=${g#*:} g=${g%:*}
    [ -x "$build/tests/guest/$g" ] || continue
    for cfg in inorder1 inorder3 ooo4; do
        record "$g-$cfg" --config "$cfg" --period 200 "$build/tests/guest/$g" "$arg" && names+=("$g-$cfg")
    done
done

differ=0 closed=0
: >"$tmp/times"
for n in "${names[@]}"; do
    f=$profiles/$n.prof
    for b in old new; do
        bin=$old
        [ $b = new ] && bin=$new
        mkdir -p "$tmp/$b"
        # each binary writes its JSON under the same name (the JSON names its own file); stderr's
        # "analysed N procedures in T s" is a time, not a result
        start=$(date +%s.%N)
        (cd "$tmp/$b" && nice -n 10 "$bin" profile report --json out.json "$f" >report 2>err; echo "rc $?" >>report)
        end=$(date +%s.%N)
        echo "$b $start $end" >>"$tmp/times"
        # the JSON's provenance: when the report ran and the binary's commit
        sed -i -E '/^\s*"(date|cyclescope_commit)":\s*"[^"]*",?$/d' "$tmp/$b/out.json"
        grep -v '^profile: analysed [0-9]* procedures in ' "$tmp/$b/err" >>"$tmp/$b/report"
        nice -n 10 "$bin" profile report --truth "$profiles/$n.truth" "$f" >"$tmp/$b/truth" 2>"$tmp/$b/err"
        echo "rc $?" >>"$tmp/$b/truth"
        grep -v '^profile: analysed [0-9]* procedures in ' "$tmp/$b/err" >>"$tmp/$b/truth"
        nice -n 10 "$bin" profile annotate "$f" >"$tmp/$b/annotate" 2>"$tmp/$b/err"
        echo "rc $?" >>"$tmp/$b/annotate"
        grep -v '^profile: analysed [0-9]* procedures in ' "$tmp/$b/err" >>"$tmp/$b/annotate"
    done
    same=1 close=""
    for part in out.json report truth annotate; do
        cmp -s "$tmp/old/$part" "$tmp/new/$part" && continue
        if [ "${PROFILE_IDENTITY_CLOSE:-}" ]; then
            if [ $part = out.json ]; then
                # shellcheck disable=SC2086 # "REL ABS": two words
                how=$(python3 "$src/bench/profile_json_close.py" "$tmp/old/$part" "$tmp/new/$part" $PROFILE_IDENTITY_CLOSE)
            else
                how=$(python3 "$src/bench/profile_json_close.py" --text "$tmp/old/$part" "$tmp/new/$part")
            fi && { close="$close $part ($how)"; continue; }
            echo "$n: $part DIFFERENT: $how"
        else
            echo "$n: $part DIFFERENT"
        fi
        same=0
    done
    if [ $same = 0 ]; then
        differ=$((differ + 1))
    elif [ "$close" ]; then
        closed=$((closed + 1))
        echo "$n: close:$close"
    else
        echo "$n: identical ($(wc -c <"$tmp/new/out.json") JSON bytes, $(wc -l <"$tmp/new/annotate") annotate lines)"
    fi
done
total() { awk -v b="$1" '$1 == b { t += $3 - $2 } END { printf "%.2f", t }' "$tmp/times"; }
echo "${#names[@]} profiles, $differ different, $closed of the others only within the tolerance; profile report --json: old $(total old) s, new $(total new) s in all"
[ "$differ" = 0 ]
