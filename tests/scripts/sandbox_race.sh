#!/bin/bash
# sandbox_race.sh CYCLESCOPE GUEST_DIR RENAME_SWAP [walk] [dir]
# The check-then-open race of issue 11, run for real: rename_swap exchanges
# DIR/f (a regular file) and DIR/swap (a link to a file outside DIR) in a loop
# while the guest loops open(DIR/f, O_WRONLY|O_APPEND) + write. The outside file
# must stay empty. The guest must have seen both states (some appends, some
# refusals), or the race was not exercised and the test says so. With "walk",
# the kernel's openat2 is bypassed for the fallback walk. With "dir", the swap is
# one directory up: DIR/sub (a directory holding f) and DIR/swap (a link to the
# directory outside that holds the secret as f).
set -u
cs=$1 g=$2/sandbox_write swap=$3
mode=file
for a in "${@:4}"; do
    [ "$a" = walk ] && export CYCLESCOPE_BENEATH_WALK=1
    [ "$a" = dir ] && mode=dir
done
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir "$tmp/allowed" "$tmp/outside"
if [ $mode = file ]; then
    : >"$tmp/outside/secret"
    : >"$tmp/allowed/f"
    ln -s ../outside/secret "$tmp/allowed/swap"
    secret=$tmp/outside/secret target=$tmp/allowed/f
    "$swap" "$tmp/allowed/f" "$tmp/allowed/swap" 4 >"$tmp/swaps" &
else
    mkdir "$tmp/allowed/sub"
    : >"$tmp/outside/f"
    : >"$tmp/allowed/sub/f"
    ln -s ../outside "$tmp/allowed/swap"
    secret=$tmp/outside/f target=$tmp/allowed/sub/f
    "$swap" "$tmp/allowed/sub" "$tmp/allowed/swap" 4 >"$tmp/swaps" &
fi
pid=$!
out=$("$cs" exec --allow-write "$tmp/allowed" "$g" append "$target" 20000 2>"$tmp/err")
rc=$?
kill "$pid" 2>/dev/null
wait "$pid"
pid=
echo "guest: $out; swapper: $(cat "$tmp/swaps")"
[ $rc = 0 ] || { echo "FAIL: the guest exited $rc: $(cat "$tmp/err")"; exit 1; }
size=$(stat -c %s "$secret")
[ "$size" = 0 ] || { echo "FAIL: $size bytes were appended to the file outside --allow-write"; exit 1; }
read -r _ appended _ denied _ <<<"$out"
[ "${appended:-0}" -gt 0 ] && [ "${denied:-0}" -gt 0 ] ||
    { echo "FAIL: the race was not exercised (the guest saw only one state)"; exit 1; }
echo "ok: the outside file stayed empty"
