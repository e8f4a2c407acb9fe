#!/bin/bash
# results_browser.sh CYCLESCOPE WORKLOAD_DIR REPORT_BROWSER
# The charts of issue 18 in headless Chromium (tests/scripts/report_browser.sh
# --page: loaded, not blank, no console message, no network request, the SVG in
# the DOM): the time series of --interval (IPC and MPKI lines, the commit stack
# as stacked areas), with the provenance and override marks of the run section;
# cyclescope compare's stacks side by side.
# Exits 77 when Chromium is missing.
set -u -o pipefail
cs=$(realpath "$1") w=$(realpath "$2") browser=$(realpath "$3")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
"$cs" run --report iv.html --set core.rob_size=64 --interval 50K "$w/sort" 10000 >/dev/null 2>&1 ||
    { echo "FAIL: run --interval --report"; exit 1; }
"$cs" run --no-report --max 50000 --json a.json "$w/sort" 3000 >/dev/null 2>&1 &&
    "$cs" run --no-report --max 50000 --config knl --json b.json "$w/sort" 3000 >/dev/null 2>&1 &&
    "$cs" compare --report cmp.html a.json b.json >/dev/null 2>&1 || { echo "FAIL: compare"; exit 1; }
"$browser" --page cmp.html '<section id="compare"':1 'class="seg"':12 '<svg':3 || exit $?
"$browser" --page iv.html '<section id="over-time"':1 'class="ts-area"':3 'class="ts-line"':2 'class="ts-point"':20 \
    '<mark>core.rob_size=64</mark>':1 'class="ovr"':1 'SHA-256':1
