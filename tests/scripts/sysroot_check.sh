#!/bin/bash
# sysroot_check.sh QEMU CYCLESCOPE GUEST_DIR: the guest library prefix (--sysroot DIR,
# docs/sandbox.md §17) against qemu-riscv64 -L DIR, and the sandbox around it:
#   - a dynamically linked program lists /sub, which exists only as DIR/sub: the listing
#     qemu -L DIR gives (the prefix is looked through for reads);
#   - a static program given the same --sysroot sees the host's files: /sub does not exist;
#   - with --allow-write DIR, a write to /marker (DIR/marker exists) is the host's /marker,
#     outside DIR: denied; DIR/marker keeps its bytes, and no /marker appears on the host.
set -u
qemu=$1 cs=$2 g=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/sysroot
mkdir -p "$root/sub"
ln -s /usr/riscv64-linux-gnu/lib "$root/lib"
touch "$root/sub/one" "$root/sub/two"
echo original >"$root/marker"
fail() { echo "FAIL: $*"; exit 1; }

QEMU_LD_PREFIX=$root "$qemu" "$g/list_dir_dynamic" /sub >"$tmp/qemu.out" 2>&1
qrc=$?
"$cs" exec --sysroot "$root" "$g/list_dir_dynamic" /sub >"$tmp/cs.out" 2>&1
crc=$?
[ "$qrc" = "$crc" ] || fail "list_dir_dynamic /sub: exit $crc, qemu $qrc"
cmp -s "$tmp/qemu.out" "$tmp/cs.out" || { diff "$tmp/qemu.out" "$tmp/cs.out"; fail "list_dir_dynamic /sub differs from qemu -L"; }
grep -q one "$tmp/cs.out" || fail "list_dir_dynamic /sub did not list DIR/sub: $(head -3 "$tmp/cs.out")"

"$cs" exec --sysroot "$root" "$g/list_dir" /sub >"$tmp/static.out" 2>&1
[ $? != 0 ] && ! grep -q one "$tmp/static.out" || fail "a static program saw DIR/sub: $(head -3 "$tmp/static.out")"

[ -e /marker ] && fail "/marker exists on the host before the test"
"$cs" exec --sysroot "$root" --allow-write "$root" "$g/sandbox_write_dynamic" create /marker >"$tmp/w.out" 2>"$tmp/w.err"
grep -q "^/marker: Permission denied" "$tmp/w.out" || fail "a write to /marker was not denied: $(cat "$tmp/w.out")"
[ "$(cat "$root/marker")" = original ] || fail "DIR/marker changed"
[ -e /marker ] && fail "/marker was created on the host"
echo "ok: reads through the prefix as qemu -L; static programs unaffected; writes still only beneath --allow-write"
