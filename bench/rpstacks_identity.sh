#!/bin/bash
# Do two cyclescope binaries save the same representative stacks? Runs `rpstacks` (the default
# configuration ooo4, the paper's Table II machine) on every workload of the manifest with its
# small argument, as bench_rpstacks runs them, and compares the two .rps files byte for byte,
# all but the two analysis timings (wall and processor seconds, 16 bytes after the header's
# counts) and the checksum over them (the last 4 bytes): every stack, CP1, FMT, count and
# option is compared.
#   bench/rpstacks_identity.sh OLD_CYCLESCOPE NEW_CYCLESCOPE WORKLOAD_DIR [MAX] [WARMUP] [FLAGS]
# FLAGS: more rpstacks options for both (e.g. '--unique combination --threads 1').
# Prints one line per workload; exits 1 if any differs.
set -eu
old=${1:?usage: rpstacks_identity.sh OLD NEW WORKLOAD_DIR [MAX] [WARMUP] [FLAGS]}
new=${2:?}
dir=${3:?}
max=${4:-200000}
warmup=${5:-300000}
flags=${6:-}
manifest=$(dirname "$0")/../workloads/manifest.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
strip() { # FILE: everything but the timings and the checksum (the layout of rps_write, file.c)
    python3 - "$1" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
at = 8 + 4  # magic, version
dims, = struct.unpack_from("<I", data, at)
at += 4
for _ in range(dims):  # each dimension's name (length, bytes) and base latency
    n, = struct.unpack_from("<I", data, at)
    at += 4 + n + 4
at += 4 + 8 + 1 + 4 + 8  # segment, similarity, uniqueness, max-stacks, max-scale
at += 7 * 8  # instructions, µops, cycles, graph cycles, violations, dropped edges, capped nodes
sys.stdout.buffer.write(data[:at] + data[at + 16 : -4])  # not seconds, cpu_seconds, checksum
PY
}
differ=0
count=0
while read -r w _ arg _; do
    case $w in '#'* | '') continue ;; esac
    for b in old new; do
        bin=$old
        [ $b = new ] && bin=$new
        # shellcheck disable=SC2086
        nice -n 10 "$bin" rpstacks $flags --warmup "$warmup" --max "$max" -o "$tmp/$b.rps" "$dir/$w" "$arg" \
            >/dev/null 2>&1
    done
    count=$((count + 1))
    if cmp -s <(strip "$tmp/old.rps") <(strip "$tmp/new.rps"); then
        echo "$w: identical ($(stat -c %s "$tmp/new.rps") bytes)"
    else
        echo "$w: DIFFERENT"
        differ=$((differ + 1))
    fi
done <"$manifest"
echo "$count workloads, $differ different"
[ "$differ" = 0 ]
