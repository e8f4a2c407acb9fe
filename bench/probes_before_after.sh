#!/bin/bash
# probes_before_after.sh [--reps R] [--max N] [--config NAME] [--ir] [--old COMMIT] [NAME[=ARG]…]
#
# The probe contract v2 against v1 (commit 6d1634f, the main this work started
# from), on the same workload binaries: the time of a timing run with no
# observer, with an observer that takes the views and does nothing, and with
# the stacks observer, for each build (bench/probe_cost.c built against each
# library). Modes and builds are alternated, R rounds (default 5), and each
# figure is the minimum (the least disturbed run on a shared machine); the
# ratios come from this one run. With --ir, each run is also counted once under
# valgrind (callgrind): host instructions, which do not depend on the machine's
# load. Prints Markdown tables (docs/probes.md). Workloads: the manifest's, at
# their small size, by default. The host-instruction table also counts, for this
# build only, an observer of the dispatch and commit spans alone ("dc", a
# stage_mask: what Stallscope asks for), over no observer.
#
# --old COMMIT with the v2 contract (a later main) compares this tree with that
# commit instead ("before/after"): the same bench/probe_cost.c, built without
# PROBES_V1. Builds the old library once into BUILD/probes-COMMIT (BUILD: $BUILD
# or build).
set -euo pipefail
export LC_ALL=C # printf's %.Nf and awk's numbers: a decimal point in any locale
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath "${BUILD:-$root/build}")
reps=5 max=0 config=ooo4 ir=0 old=6d1634f
items=()
while [ $# -gt 0 ]; do
    case "$1" in
    --reps) reps=$2; shift 2 ;;
    --max) max=$2; shift 2 ;;
    --config) config=$2; shift 2 ;;
    --ir) ir=1; shift ;;
    --old) old=$2; shift 2 ;;
    *) items+=("$1"); shift ;;
    esac
done
if [ ${#items[@]} -eq 0 ]; then
    while read -r name category small rest; do
        case "$name" in '' | \#*) continue ;; esac
        items+=("$name=$small")
    done <"$root/workloads/manifest.txt"
fi
libs="$(pkg-config --libs libzstd inih libcjson liblzma zlib) $(pkg-config --libs nettle 2>/dev/null || true)"
v1=$build/probes-$old
if [ ! -x "$v1/probe_cost" ]; then
    echo "building $old into $v1 …" >&2
    rm -rf "$v1" && mkdir -p "$v1/src"
    git -C "$root" archive "$old" | tar -x -C "$v1/src"
    cmake -S "$v1/src" -B "$v1/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build "$v1/build" -j2 --target cyclescope_core >/dev/null
    api=-DPROBES_V1
    grep -q PROBE_STAGES "$v1/src/src/probes/probes.h" && api=-DPROBES_V2
    gcc -O2 -g -std=c11 -D_GNU_SOURCE $api -I"$v1/src/src" "$root/bench/probe_cost.c" \
        "$v1/build/libcyclescope_core.a" $libs -lm -lpthread -o "$v1/probe_cost"
fi
v2=$build/bench/probe_cost
[ -x "$v2" ] || { echo "build $v2 first (cmake --build $build --target probe_cost)" >&2; exit 1; }
# The old side is built RelWithDebInfo (-O2 -g); another type here moves "none" by ~3%.
type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null)
[ "$type" = RelWithDebInfo ] || {
    echo "probes_before_after.sh: $build is a '${type:-unknown}' build; configure it with -DCMAKE_BUILD_TYPE=RelWithDebInfo, as the old side is" >&2
    exit 1
}
wdir=$build/workloads

seconds() { # BIN MODE NAME ARG
    local out
    out=$(cd "$wdir" && "$1" "$2" "$config" "$max" "./$3" ${4:+"$4"})
    echo "$out" | awk '{ print $6 }'
}
instructions() { # BIN MODE NAME ARG
    (cd "$wdir" && valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$2" "$config" "$max" "./$3" ${4:+"$4"} 2>&1 >/dev/null) |
        awk '/Collected :/ { print $NF }'
}
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b ? a : b) }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f%%", 100 * (a / b - 1) }'; }

echo "configuration $config, $( [ "$max" = 0 ] && echo "whole small runs" || echo "first $max instructions"), min of $reps rounds; v1 = $old, v2 = this build"
echo
echo "| workload | v1 none s | v2 none s | v2/v1 none | v1 views | v2 views | v1 stacks | v2 stacks | v2/v1 stacks |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
declare -a r_none r_views r_stacks
for item in "${items[@]}"; do
    name=${item%%=*} arg=""
    [ "$item" != "$name" ] && arg=${item#*=}
    declare -A best=()
    for ((r = 0; r < reps; r++)); do
        for bin in v1 v2; do
            exe=$([ $bin = v1 ] && echo "$v1/probe_cost" || echo "$v2")
            for mode in none views stacks; do
                t=$(seconds "$exe" $mode "$name" "$arg")
                best[$bin.$mode]=$(min "${best[$bin.$mode]:-1e30}" "$t")
            done
        done
    done
    echo "| $name | ${best[v1.none]} | ${best[v2.none]} | $(pct "${best[v2.none]}" "${best[v1.none]}") | $(pct "${best[v1.views]}" "${best[v1.none]}") | $(pct "${best[v2.views]}" "${best[v2.none]}") | $(pct "${best[v1.stacks]}" "${best[v1.none]}") | $(pct "${best[v2.stacks]}" "${best[v2.none]}") | $(pct "${best[v2.stacks]}" "${best[v1.stacks]}") |"
    r_none+=("$(awk -v a="${best[v2.none]}" -v b="${best[v1.none]}" 'BEGIN { print a / b - 1 }')")
    r_views+=("$(awk -v a="${best[v2.views]}" -v b="${best[v2.none]}" 'BEGIN { print a / b - 1 }')")
    r_stacks+=("$(awk -v a="${best[v2.stacks]}" -v b="${best[v2.none]}" 'BEGIN { print a / b - 1 }')")
    unset best
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%+.1f%% (worst %+.1f%%)", 100 * m, 100 * v[NR] }'; }
echo
echo "v2 none against v1 none: median $(median "${r_none[@]}"); v2 views over v2 none: median $(median "${r_views[@]}"); v2 stacks over v2 none: median $(median "${r_stacks[@]}")"
[ $ir = 1 ] || exit 0
echo
echo "host instructions (callgrind), millions"
echo
echo "| workload | v1 none | v2 none | v2/v1 none | v1 views | v2 views | v2/v1 views | v2 dc | v1 stacks | v2 stacks | v2/v1 stacks |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
r_none=() r_views=() r_stacks=() r_dc=()
for item in "${items[@]}"; do
    name=${item%%=*} arg=""
    [ "$item" != "$name" ] && arg=${item#*=}
    declare -A n=()
    for bin in v1 v2; do
        exe=$([ $bin = v1 ] && echo "$v1/probe_cost" || echo "$v2")
        for mode in none views stacks; do n[$bin.$mode]=$(instructions "$exe" $mode "$name" "$arg"); done
    done
    n[v2.dc]=$(instructions "$v2" dc "$name" "$arg")
    m() { awk -v a="$1" 'BEGIN { printf "%.1f", a / 1e6 }'; }
    echo "| $name | $(m "${n[v1.none]}") | $(m "${n[v2.none]}") | $(pct "${n[v2.none]}" "${n[v1.none]}") | $(pct "${n[v1.views]}" "${n[v1.none]}") | $(pct "${n[v2.views]}" "${n[v2.none]}") | $(pct "${n[v2.views]}" "${n[v1.views]}") | $(pct "${n[v2.dc]}" "${n[v2.none]}") | $(pct "${n[v1.stacks]}" "${n[v1.none]}") | $(pct "${n[v2.stacks]}" "${n[v2.none]}") | $(pct "${n[v2.stacks]}" "${n[v1.stacks]}") |"
    r_none+=("$(awk -v a="${n[v2.none]}" -v b="${n[v1.none]}" 'BEGIN { print a / b - 1 }')")
    r_views+=("$(awk -v a="${n[v2.views]}" -v b="${n[v2.none]}" 'BEGIN { print a / b - 1 }')")
    r_stacks+=("$(awk -v a="${n[v2.stacks]}" -v b="${n[v2.none]}" 'BEGIN { print a / b - 1 }')")
    r_dc+=("$(awk -v a="${n[v2.dc]}" -v b="${n[v2.none]}" 'BEGIN { print a / b - 1 }')")
    unset n
done
echo
echo "v2 none against v1 none: median $(median "${r_none[@]}"); v2 views over v2 none: median $(median "${r_views[@]}"); v2 dc over v2 none: median $(median "${r_dc[@]}"); v2 stacks over v2 none: median $(median "${r_stacks[@]}")"
