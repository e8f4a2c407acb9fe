#!/bin/bash
# Quick start: install dependencies, build, and run the main job on a bundled workload.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
exec build/cyclescope exec --stats build/workloads/sort
