#!/bin/bash
# Quick start: install dependencies, build, and run the main job on a bundled workload.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
# The main job on a bundled workload: run summary, the CPI stacks at dispatch, issue and
# commit, the FLOPS stack, and the run's output directory
# build/cyclescope-out/tree-ooo4-TIME/ (report.html, results.json, results.csv, config.ini).
cd build
exec ./cyclescope run workloads/tree 10000
