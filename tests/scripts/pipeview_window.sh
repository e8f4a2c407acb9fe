#!/bin/bash
# pipeview_window.sh CYCLESCOPE WORKLOAD_DIR
# --pipeview FILE.gz writes the same log gzip-compressed; --pipeview-from N
# --pipeview-count M writes exactly instructions N … N+M-1 of the full log; the
# terminal says what was written; bad windows are usage errors.
set -u -o pipefail
cs=$(realpath "$1") w=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
run() { "$cs" run --no-report --max 30000 "$@" "$w/sort" 3000 2>&1; }

run --pipeview full.log >full.out || fail "plain log"
grep -q "^O3PipeView log (Konata): full.log, 30000 instructions from instruction 0, [0-9.]* MB$" full.out ||
    fail "no word about the log: $(grep -i pipeview full.out)"
run --pipeview full.log.gz >/dev/null || fail "gz log"
gzip -t full.log.gz || fail "not a valid gzip file"
zcat full.log.gz | cmp -s - full.log || fail "the .gz log differs from the plain one"
[ "$(stat -c %s full.log.gz)" -lt "$(($(stat -c %s full.log) / 4))" ] || fail "the .gz log is hardly compressed"
run --pipeview win.log --pipeview-from 1234 --pipeview-count 777 >win.out || fail "window"
grep -q "win.log, 777 instructions from instruction 1234" win.out || fail "window summary: $(grep -i pipeview win.out)"
sed -n "$((1234 * 7 + 1)),$(((1234 + 777) * 7))p" full.log | cmp -s - win.log || fail "the window is not lines 1234..2010 of the full log"
run --pipeview tail.log --pipeview-from 29990 --pipeview-count 100 >/dev/null || fail "window past the end"
[ "$(wc -l <tail.log)" = 70 ] || fail "a window past the end holds $(wc -l <tail.log) lines, not the 10 instructions left"
run --analysis "stacks,pipeview:file=a.log:from=1234:count=777" >/dev/null || fail "analysis options"
cmp -s a.log win.log || fail "pipeview:from=…:count=… differs from --pipeview-from/--pipeview-count"
for bad in "--pipeview-count 0 --pipeview x.log" "--pipeview-from x --pipeview x.log" "--pipeview-from 5"; do
    # shellcheck disable=SC2086
    run $bad >out
    [ $? = 2 ] || fail "$bad: not a usage error: $(cat out)"
done
echo "ok: .gz log = plain log; windows exact"
