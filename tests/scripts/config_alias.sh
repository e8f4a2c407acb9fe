#!/bin/bash
# config_alias.sh CYCLESCOPE PROG [ARGS…]: the old configuration name `rpstacks` (issue 18
# renamed it ooo4) still loads the same machine: the same resolved configuration, the
# same statistics and stacks on a run, and one notice line on stderr, once.
set -u
cs=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "config_alias: $*"; exit 1; }
notice="cyclescope: configuration 'rpstacks' is now called 'ooo4'"

"$cs" config show ooo4 >"$tmp/new.ini" 2>"$tmp/new.err" || fail "config show ooo4: $(cat "$tmp/new.err")"
"$cs" config show rpstacks >"$tmp/old.ini" 2>"$tmp/old.err" || fail "config show rpstacks: $(cat "$tmp/old.err")"
[ ! -s "$tmp/new.err" ] || fail "config show ooo4 wrote to stderr: $(cat "$tmp/new.err")"
[ "$(cat "$tmp/old.err")" = "$notice" ] || fail "config show rpstacks: stderr is not the one notice: $(cat "$tmp/old.err")"
cmp -s "$tmp/new.ini" "$tmp/old.ini" || fail "config show rpstacks differs from ooo4: $(diff "$tmp/new.ini" "$tmp/old.ini" | head -5)"
grep -q "^# cyclescope configuration 'ooo4'" "$tmp/new.ini" || fail "config show ooo4 does not name ooo4: $(head -1 "$tmp/new.ini")"

# a run: the same numbers; only the provenance (command line, the name as given) differs
"$cs" run --no-report --max 20000 --json "$tmp/new.json" "$@" >/dev/null 2>"$tmp/new.err" || fail "run --config ooo4 failed"
"$cs" run --no-report --max 20000 --config rpstacks --json "$tmp/old.json" "$@" >/dev/null 2>"$tmp/old.err" ||
    fail "run --config rpstacks failed: $(cat "$tmp/old.err")"
[ ! -s "$tmp/new.err" ] || fail "run on ooo4 wrote to stderr: $(cat "$tmp/new.err")"
[ "$(cat "$tmp/old.err")" = "$notice" ] || fail "run --config rpstacks: stderr is not the one notice: $(cat "$tmp/old.err")"
python3 - "$tmp/new.json" "$tmp/old.json" <<'PY' || fail "the alias times differently"
import json, sys
new, old = (json.load(open(p)) for p in sys.argv[1:3])
assert new["config"] == old["config"] == "ooo4", (new["config"], old["config"])
assert old["provenance"]["config"]["source"] == "rpstacks", old["provenance"]["config"]
assert new["provenance"]["config"]["resolved"] == old["provenance"]["config"]["resolved"]
for k in ("provenance", "seconds"):
    new.pop(k, None), old.pop(k, None)
def drop_seconds(x):
    if isinstance(x, dict): return {k: drop_seconds(v) for k, v in x.items() if k != "seconds"}
    if isinstance(x, list): return [drop_seconds(v) for v in x]
    return x
new, old = drop_seconds(new), drop_seconds(old)
diff = [k for k in new if new[k] != old.get(k)]
assert not diff and new.keys() == old.keys(), diff
assert new["cycles"] > 0
print("rpstacks loads ooo4: %d cycles, %d instructions on both, one notice" % (new["cycles"], new["instructions"]))
PY
