#!/bin/bash
# config_base.sh CYCLESCOPE PROG [ARGS…]: a configuration file's first line `base = NAME|FILE.ini`
# starts it from another configuration (as Sniper's `#include nehalem`), its own keys then
# overriding the base's: the resolved configuration is the base's with those keys set (the same
# as `--set` on the base), also two bases deep with a path from the file's own directory; a run
# on it times as the base with `--set`; a base given twice, inside a section, missing,
# empty or a cycle is one line naming it, exit 2.
set -u
cs=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "config_base: $*"; exit 1; }
mkdir -p "$tmp/sub"
printf 'base = bdw   # the Broadwell-like machine\n[core]\nrob_size = 96\n' >"$tmp/mine.ini"
printf '# two levels\nbase = ../mine.ini\n[l1d]\nlatency = 6\n' >"$tmp/sub/two.ini"
"$cs" config show "$tmp/mine.ini" | tail -n +2 >"$tmp/mine.out" || fail "config show mine.ini"
"$cs" config show --set core.rob_size=96 bdw | tail -n +2 >"$tmp/set.out" || fail "config show bdw --set"
cmp -s "$tmp/mine.out" "$tmp/set.out" || fail "base = bdw + rob_size differs from bdw --set: $(diff "$tmp/mine.out" "$tmp/set.out" | head -5)"
"$cs" config show "$tmp/sub/two.ini" | tail -n +2 >"$tmp/two.out" || fail "config show sub/two.ini"
"$cs" config show --set core.rob_size=96 --set l1d.latency=6 bdw | tail -n +2 >"$tmp/set2.out" || fail "config show --set x2"
cmp -s "$tmp/two.out" "$tmp/set2.out" || fail "two bases deep differs: $(diff "$tmp/two.out" "$tmp/set2.out" | head -5)"
"$cs" config show "$tmp/sub/two.ini" | head -1 | grep -q "configuration 'two'" || fail "the name is not the file's"

# a run on it: bdw's numbers with the key set
"$cs" run --no-report --max 20000 --config "$tmp/mine.ini" --json "$tmp/a.json" "$@" >/dev/null 2>&1 || fail "run on mine.ini"
"$cs" run --no-report --max 20000 --config bdw --set core.rob_size=96 --json "$tmp/b.json" "$@" >/dev/null 2>&1 ||
    fail "run on bdw --set"
python3 - "$tmp/a.json" "$tmp/b.json" <<'PY' || fail "a run on the file times differently from the base with --set"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["cycles"] == b["cycles"] and a["instructions"] == b["instructions"], (a["cycles"], b["cycles"])
assert a["stacks"]["cpi_stacks"] == b["stacks"]["cpi_stacks"]
PY

# refused, one line naming the file and the base
refused() { # FILE_TEXT REGEX
    printf "$1" >"$tmp/bad.ini"
    "$cs" config show "$tmp/bad.ini" >/dev/null 2>"$tmp/err"
    local rc=$?
    [ $rc = 2 ] || fail "'$1': exit $rc"
    [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "bad.ini.*$2" "$tmp/err" || fail "'$1': $(cat "$tmp/err")"
}
refused '[core]\nrob_size = 64\nbase = bdw\n' "base = bdw inside \\[core\\]: it must be the file's first line"
refused 'freq = 2\nbase = bdw\n' "freq before any \\[section\\]"
refused 'base = bdw\nbase = knl\n' "base set twice"
refused 'base = haswell\n' "base = haswell: no configuration named 'haswell'"
refused 'base =\n[core]\nrob_size = 64\n' "base = nothing"
refused 'base = bad.ini\n' "base = bad.ini: a cycle"
printf 'base = b2.ini\n' >"$tmp/a2.ini"
printf 'base = a2.ini\n' >"$tmp/b2.ini"
"$cs" config show "$tmp/a2.ini" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "a cycle" "$tmp/err" || fail "a cycle of two files: $(cat "$tmp/err")"
refused 'base = bdw\n[core]\nrob_size = 7\n' "rob_size = 7"
echo "ok: base = NAME|FILE resolves as the base with --set, two levels deep, and its errors name it"
