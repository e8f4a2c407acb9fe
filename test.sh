#!/bin/bash
# Builds cyclescope twice — optimised, and with AddressSanitizer + UBSan — and
# runs the whole test suite on both. Exit status 0 means everything passed.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
jobs=$(nproc)
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$jobs"
# </dev/null: no test reads the caller's stdin (a terminal would hold it, an idle pipe delay it)
ctest --test-dir build -j"$jobs" --output-on-failure </dev/null
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCYCLESCOPE_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan -j"$jobs" --output-on-failure -LE slow </dev/null
