#!/bin/bash
# format_check.sh SOURCE_DIR: every C file in the repository is formatted as
# .clang-format says (clang-format 14, Debian 12). Skipped (77) without clang-format.
set -u
cd "$1" || exit 1
command -v clang-format >/dev/null || { echo "clang-format not installed"; exit 77; }
files=$(git ls-files '*.c' '*.h' 2>/dev/null || find src cli tests bench workloads -name '*.[ch]')
# shellcheck disable=SC2086
clang-format --dry-run --Werror $files
