#!/bin/bash
# sandbox_write.sh CYCLESCOPE GUEST_DIR
# Guest writes against --allow-write DIR (tests/guest/sandbox_write.c): what must be
# refused is refused with the right message and leaves nothing outside; what lies
# beneath DIR (dirfd-relative paths, links inside, --allow-write /) is allowed.
# Each case runs twice: with openat2, and with the fallback walk that kernels
# without openat2 take (CYCLESCOPE_BENEATH_WALK=1).
set -u
cs=$1 g=$2/sandbox_write
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# run MODE EXPECTED_STDOUT_REGEX [exec options…] -- guest args
run() {
    local expect=$1; shift
    local opts=()
    while [ "$1" != "--" ]; do opts+=("$1"); shift; done
    shift
    "$cs" exec "${opts[@]}" "$g" "$@" >"$tmp/out" 2>"$tmp/err"
    grep -Eq -- "$expect" "$tmp/out" || bad "$* (${opts[*]}): stdout '$(cat "$tmp/out")' does not match /$expect/; stderr: $(cat "$tmp/err")"
}
for mode in openat2 walk; do
    [ $mode = walk ] && export CYCLESCOPE_BENEATH_WALK=1
    rm -rf "$tmp/a" "$tmp/out-side"
    mkdir -p "$tmp/a/sub" "$tmp/out-side"
    a=$tmp/a o=$tmp/out-side
    # 1. a dangling symlink to a file outside: refused, nothing created outside
    ln -s "$o/created" "$a/dangling"
    ln -s ../out-side/created2 "$a/dangling_rel"
    run "Permission denied|symbolic links" --allow-write "$a" -- create "$a/dangling"
    run "Permission denied|symbolic links" --allow-write "$a" -- create "$a/dangling_rel"
    [ -e "$o/created" ] || [ -e "$o/created2" ] && bad "$mode: a dangling link created a file outside"
    # 2. a directory link leading outside, in the middle of the path
    ln -s "$o" "$a/outdir"
    run "Permission denied|symbolic links" --allow-write "$a" -- create "$a/outdir/x"
    [ -e "$o/x" ] && bad "$mode: a directory link let the guest create a file outside"
    # 3. dirfd-relative paths: allowed beneath, refused when they climb out
    run "^inside: wrote 5" --allow-write "$a" -- at "$a" inside
    [ "$(cat "$a/inside" 2>/dev/null)" = guest ] || bad "$mode: dirfd-relative file not written"
    run "^sub/deeper: wrote 5" --allow-write "$a" -- at "$a" sub/deeper
    run "Permission denied" --allow-write "$a" -- at "$a" ../out-side/esc
    [ -e "$o/esc" ] && bad "$mode: ../ from a dirfd escaped"
    run "Permission denied" --allow-write "$a" -- at "$a/sub" ../../out-side/esc2
    # 4. ".." that stays beneath is fine
    run "wrote 5" --allow-write "$a" -- create "$a/sub/../dotdot"
    [ -e "$a/dotdot" ] || bad "$mode: sub/../dotdot not created"
    # 5. the refusal names --allow-write when it was given, and says to pass it when not
    run "Permission denied" --allow-write "$a" -- create "$o/plain"
    grep -q "denied the guest write access to $o/plain (it resolves outside --allow-write $a)" "$tmp/err" ||
        bad "$mode: refusal message with --allow-write: $(cat "$tmp/err")"
    run "Permission denied" -- create "$o/plain"
    grep -q "(pass --allow-write DIR to allow)" "$tmp/err" || bad "$mode: refusal message without --allow-write"
    [ -e "$o/plain" ] && bad "$mode: a plain path outside was created"
    # 6. --allow-write / allows everything the user may write
    run "wrote 5" --allow-write / -- create "$o/from_root"
    [ "$(cat "$o/from_root" 2>/dev/null)" = guest ] || bad "$mode: --allow-write / did not allow a write"
    # 7. /proc/self/fd magic links are never followed for a write
    run "Permission denied|symbolic links|No such" --allow-write / -- create /proc/self/fd/1
done
[ $fail = 0 ] && echo "ok: every case held with openat2 and with the fallback walk"
exit $fail
