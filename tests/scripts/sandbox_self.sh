#!/bin/bash
# sandbox_self.sh CYCLESCOPE GUEST_DIR OUTDIR WORKLOAD
# The guest's own executable: readlink("/proc/self/exe") names it and opening
# either name reads the program, not cyclescope. With --env-fixed the guest sees
# itself as /guest/NAME wherever the file lives, so a timed run gives the same
# cycles from two directories of different lengths (glibc mallocs the
# /proc/self/exe path at start-up: its length used to move the heap).
set -u
cs=$(readlink -f "$1") g=$2/sandbox_mem out=$3 work=$4
fail() { echo "FAIL: $*"; exit 1; }
size=$(stat -c %s "$g")
real=$(readlink -f "$g")
a=$("$cs" exec "$g" self) || fail "the guest failed"
echo "$a"
[ "$a" = "argv[0] $g
exe $real
open /proc/self/exe: size $size magic ELF
open exe: size $size magic ELF" ] || fail "without --env-fixed the guest does not see its real path and file"
b=$("$cs" exec --env-fixed "$g" self) || fail "the guest failed with --env-fixed"
echo "$b"
[ "$b" = "argv[0] /guest/sandbox_mem
exe /guest/sandbox_mem
open /proc/self/exe: size $size magic ELF
open exe: size $size magic ELF" ] || fail "--env-fixed does not show the program as /guest/sandbox_mem"

rm -rf "$out" && mkdir -p "$out/a" "$out/a-much-longer-directory-name/and/deeper/still" || fail "no $out"
cycles() { # the cycles of `run` on the workload copied to DIR
    cp "$work" "$1/prog" && (cd "$1" && "$cs" run --env-fixed --config inorder1 --no-report --analysis none \
        --json run.json ./prog 2000 >/dev/null 2>&1 && jq -r '.cycles' run.json)
}
c1=$(cycles "$out/a") c2=$(cycles "$out/a-much-longer-directory-name/and/deeper/still")
echo "cycles: $c1 $c2"
[ -n "$c1" ] && [ "$c1" -gt 0 ] || fail "no cycle count"
[ "$c1" = "$c2" ] || fail "--env-fixed: the cycles depend on the directory ($c1, $c2)"
echo "ok"
