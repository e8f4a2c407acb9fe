#!/bin/sh
# bench/profile_overhead_ir.sh — what the DCPI-style sampler costs the timing model, in host
# instructions (issue 16: "sampling overhead < 2% over the run without it"). Wall clock on the
# shared machine moves by several per cent between runs; host instructions do not depend on
# its load. Each workload at its small size (workloads/manifest.txt), once with
# `--analysis none` and once with `--analysis profile:…`, under
# `valgrind --tool=callgrind --toggle-collect=<model>_run` (the core's run only, emulator
# included as it feeds the core; not the startup nor the report). One run: host instructions
# are deterministic for a given binary.
#
#   bench/profile_overhead_ir.sh [--cs BIN] [--config NAME] [--period P|MIN-MAX] [--point POINT] [name[=ARG]…]
#       run from the build directory; default ./cyclescope, ooo4, 60000-64000, the machine's default
#       sample point (out of order: commit-cycle; --point commit-slot|issue-head), every workload
#
# Prints one markdown row per workload (host instructions none, with the sampler, overhead)
# and the total.
set -eu
cs=./cyclescope config=ooo4 period=60000-64000 point=
while [ $# -gt 0 ]; do
    case $1 in
    --cs) cs=$2; shift 2 ;;
    --config) config=$2; shift 2 ;;
    --period) period=$2; shift 2 ;;
    --point) point=:point=$2; shift 2 ;;
    -*) echo "usage: $0 [--cs BIN] [--config NAME] [--period P|MIN-MAX] [--point POINT] [name[=ARG]…]" >&2; exit 2 ;;
    *) break ;;
    esac
done
[ -x "$cs" ] && [ -d workloads ] || { echo "$0: run from the build directory (./cyclescope, workloads/)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "$0: needs valgrind" >&2; exit 125; }
src=$(dirname "$0")/../workloads/manifest.txt
if [ $# -eq 0 ]; then
    set -- $(awk '!/^#/ && NF >= 3 { print $1 "=" $3 }' "$src")
fi
model=$("$cs" config show "$config" 2>/dev/null | awk -F' *= *' '$1 == "model" { print $2; exit }')
[ -n "$model" ] || { echo "$0: cannot read the model of '$config'" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# host_instructions ANALYSIS PROG [ARG]: the instructions of <model>_run and what it calls
host_instructions() {
    a=$1; shift
    valgrind --tool=callgrind --dump-instr=no --toggle-collect="${model}_run" --callgrind-out-file="$tmp/cg" \
        "$cs" run --config "$config" --analysis "$a" --outdir "$tmp/out" "$@" >/dev/null 2>&1
    callgrind_annotate "$tmp/cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }'
}
echo "| $config, period $period${point:+, ${point#:point=}} | none | profile | overhead |"
echo "|---|---:|---:|---:|"
tn=0 tp=0
for w in "$@"; do
    name=${w%%=*} arg=
    case $w in *=*) arg=${w#*=} ;; esac
    n=$(host_instructions none "workloads/$name" $arg)
    p=$(host_instructions "profile:file=$tmp/p.prof:period=$period$point" "workloads/$name" $arg)
    tn=$((tn + n)) tp=$((tp + p))
    awk -v w="$name $arg" -v n="$n" -v p="$p" 'BEGIN { printf "| %s | %.4f G | %.4f G | %+.3f%% |\n", w, n / 1e9, p / 1e9, 100 * (p / n - 1) }'
done
awk -v n="$tn" -v p="$tp" 'BEGIN { printf "| total | %.3f G | %.3f G | %+.3f%% |\n", n / 1e9, p / 1e9, 100 * (p / n - 1) }'
