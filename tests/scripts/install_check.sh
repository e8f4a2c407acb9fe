#!/bin/bash
# install_check.sh CMAKE BUILD_DIR WORKLOAD [ARGS…]
# `cmake --install` into a fresh prefix gives a tool that runs on its own: the installed
# binary reads the installed configurations (an edit to the installed ooo4.ini shows in
# `config show` and changes the run), and `config --help` names the installed directory.
set -u -o pipefail
cmake=$1 build=$(realpath "$2") workload=$(realpath "$3")
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$cmake" --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 || fail "cmake --install: $(tail -3 "$tmp/install.log")"
cs=$tmp/prefix/bin/cyclescope
configs=$tmp/prefix/share/cyclescope/configs
[ -x "$cs" ] || fail "no installed binary"
[ -f "$configs/ooo4.ini" ] || fail "no installed ooo4.ini"
unset CYCLESCOPE_CONFIGS
"$cs" config --help >"$tmp/list.txt" 2>&1
grep -qF "$(realpath "$configs")" "$tmp/list.txt" || fail "config --help does not name $configs: $(head -3 "$tmp/list.txt")"
before=$("$cs" run --no-report --config ooo4 --analysis none --json - "$workload" "$@" 2>"$tmp/err.txt" | sed -n 's/^\t"cycles":\t\([0-9]*\),$/\1/p')
[ -n "$before" ] || fail "installed binary did not run $workload: $(tail -2 "$tmp/err.txt")"
# a narrower machine in the installed file: the installed binary must see it
sed -i 's/^\(commit_width\|dispatch_width\|issue_width\|fetch_width\|width\) *= *[0-9]*/\1 = 1/' "$configs/ooo4.ini"
grep -q '= 1$' "$configs/ooo4.ini" || fail "could not edit the installed ooo4.ini"
after=$("$cs" run --no-report --config ooo4 --analysis none --json - "$workload" "$@" 2>"$tmp/err.txt" | sed -n 's/^\t"cycles":\t\([0-9]*\),$/\1/p')
[ "$before" != "$after" ] || fail "the installed binary ignored its installed ooo4.ini ($before both times)"
echo "ok: installed in $tmp/prefix; ooo4 $before, narrowed $after"
