#!/bin/bash
# probes_digest.sh CYCLESCOPE WORKLOAD_DIR MANIFEST MAX [--check DIGESTS]
# One line per configuration x workload: "CONFIG WORKLOAD SHA-JSON SHA-PIPEVIEW",
# where SHA-JSON digests `run --json` (the run's statistics and every stack value,
# without the wall-clock seconds) and SHA-PIPEVIEW the whole O3PipeView log of the
# same run (--max MAX instructions, small arguments from the manifest, a fixed
# environment and argv[0] = ./NAME, so that any two builds see the same guest).
# With --check DIGESTS, compares with a file written by an earlier build (the
# probe contract v1, commit 6d1634f: tests/probes_v1_digests.txt) and fails on
# any difference, naming it. Both sides must be produced with the same MAX.
set -u -o pipefail
cs=$(realpath "$1") dir=$2 manifest=$(realpath "$3") max=$4
check=${6:+$(realpath "$6")}
[ "${5:-}" = --check ] || check=""
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
configs="rpstacks bdw knl inorder1 inorder3"
out="$tmp/digests"
: >"$out"
cd "$dir" || exit 1
while read -r name category small rest; do
    case "$name" in ''|\#*) continue ;; esac
    for cfg in $configs; do
        if ! "$cs" run --config "$cfg" --env-fixed --no-report --max "$max" --json "$tmp/run.json" \
            --pipeview "$tmp/pipe.log" "./$name" "$small" >/dev/null 2>"$tmp/err"; then
            echo "$cfg $name: run failed: $(cat "$tmp/err")"
            exit 1
        fi
        j=$(grep -v '"seconds":' "$tmp/run.json" | sha256sum | cut -c1-16)
        p=$(sha256sum <"$tmp/pipe.log" | cut -c1-16)
        echo "$cfg $name $j $p" >>"$out"
    done
done <"$manifest"
if [ -z "$check" ]; then
    cat "$out"
    exit 0
fi
if diff <(sort "$check") <(sort "$out") >"$tmp/diff"; then
    echo "$(wc -l <"$out") runs: statistics, stacks and pipeview logs identical to the recorded digests"
    exit 0
fi
echo "differences (< recorded, > this build):"
cat "$tmp/diff"
exit 1
