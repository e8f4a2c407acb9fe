#!/bin/bash
# probes_digest.sh CYCLESCOPE WORKLOAD_DIR MANIFEST MAX CONFIGS [--check DIGESTS] [-- EXTRA ARGS…]
# One line per configuration x workload: "CONFIG WORKLOAD SHA-JSON SHA-PIPEVIEW",
# where SHA-JSON digests `run --json` (the run's statistics and every stack value,
# without the wall-clock seconds) and SHA-PIPEVIEW the whole O3PipeView log of the
# same run (--max MAX instructions, small arguments from the manifest,
# --env-fixed: the guest sees the same environment and /guest/NAME wherever the
# build is).
# CONFIGS is a comma-separated list (ooo4,bdw,knl,inorder1,inorder3).
#
# With --check DIGESTS, compares with a file written by an earlier build and
# fails on any difference, naming it; and, on this build, also runs each
# workload bare (--analysis pipeview:file=…: no stage views, no stacks) and
# checks that its statistics and pipeview log are the same as with the stacks.
# tests/probes_digests.txt holds the digests recorded when --env-fixed began to
# show the guest /guest/NAME; the ones before them were those of the probe contract
# v1 (commit 6d1634f), which the same code reproduced with the old paths shown to
# the guest (docs/probes.md, "Checked against").
set -u -o pipefail
cs=$(realpath "$1") dir=$2 manifest=$(realpath "$3") max=$4 configs=${5//,/ }
shift 5
check=""
if [ "${1:-}" = --check ]; then
    check=$(realpath "$2")
    shift 2
fi
[ "${1:-}" = -- ] && shift
extra=("$@")
tmp=$(mktemp -d /tmp/cs-probes.XXXXXXXX)
trap 'rm -rf "$tmp"' EXIT
out="$tmp/digests"
: >"$out"
mkdir "$tmp/w"
while read -r name category small rest; do
    case "$name" in '' | \#*) continue ;; esac
    cp "$dir/$name" "$tmp/w/$name"
done <"$manifest"
cd "$tmp/w" || exit 1
# A run's JSON without its provenance header (schema, version, command, input,
# configuration, units: everything before "program", docs/json-schema.md), which
# names paths and versions and is not a result.
results() { awk 'NR == 1 { print; next } /^\t"program":/ { on = 1 } on' "$1"; }
# the statistics of a run's JSON: everything before the analyses' sections, without the seconds
stats_digest() {
    results "$1" | awk '/^\t"stacks":/ { exit } !/"seconds":/ && !/^}$/ { sub(/,$/, ""); print }' | sha256sum | cut -c1-16
}
bad=0
while read -r name category small rest; do
    case "$name" in '' | \#*) continue ;; esac
    for cfg in $configs; do
        if ! "$cs" run --config "$cfg" --env-fixed --no-report --max "$max" --json "$tmp/run.json" \
            --pipeview "$tmp/pipe.log" "${extra[@]}" "./$name" "$small" >/dev/null 2>"$tmp/err"; then
            echo "$cfg $name: run failed: $(cat "$tmp/err")"
            exit 1
        fi
        j=$(results "$tmp/run.json" | grep -v '"seconds":' | sha256sum | cut -c1-16)
        p=$(sha256sum <"$tmp/pipe.log" | cut -c1-16)
        echo "$cfg $name $j $p" >>"$out"
        [ -n "$check" ] || continue
        if ! "$cs" run --config "$cfg" --env-fixed --no-report --max "$max" --json "$tmp/bare.json" \
            --analysis "pipeview:file=$tmp/bare.log" "./$name" "$small" >/dev/null 2>"$tmp/err"; then
            echo "$cfg $name: bare run failed: $(cat "$tmp/err")"
            exit 1
        fi
        if [ "$(stats_digest "$tmp/run.json")" != "$(stats_digest "$tmp/bare.json")" ] ||
            ! cmp -s "$tmp/pipe.log" "$tmp/bare.log"; then
            echo "$cfg $name: the run without stage views times differently from the run with the stacks"
            bad=1
        fi
    done
done <"$manifest"
if [ -z "$check" ]; then
    cat "$out"
    exit 0
fi
# Workloads added after v1 have no v1 digest (v1 is gone): they are checked
# with and without views only; every recorded run must be here and identical.
n=$(awk -v cfgs=" $configs " 'index(cfgs, " " $1 " ")' "$check" | wc -l)
if join <(awk '{ print $1 "/" $2, $3, $4 }' "$check" | sort) <(awk '{ print $1 "/" $2, $3, $4 }' "$out" | sort) |
    awk '$2 != $4 || $3 != $5 { print "  " $1 ": recorded " $2 " " $3 ", this build " $4 " " $5; bad = 1 } END { exit bad }' &&
    [ "$(join <(awk '{ print $1 "/" $2 }' "$check" | sort) <(awk '{ print $1 "/" $2 }' "$out" | sort) | wc -l)" = "$n" ] &&
    [ $bad = 0 ]; then
    echo "$n recorded runs: statistics, stacks and pipeview logs identical to the recorded digests; $(wc -l <"$out") runs identical with and without views"
    exit 0
fi
echo "differences (recorded digests: $check)"
exit 1
