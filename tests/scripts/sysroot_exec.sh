#!/bin/bash
# sysroot_exec.sh CYCLESCOPE GUEST_DIR
# execve through the guest library prefix (docs/sandbox.md §17): with --sysroot DIR whose
# bin/sh is a RISC-V stand-in shell (tests/guest/mini_sh.c), a program's system() and popen()
# (glibc: posix_spawn of "/bin/sh") run it, as under `qemu-riscv64 -L DIR`; without a shell
# under the prefix, /bin/sh is the host's (x86: ENOEXEC): system() returns 127 and popen()
# NULL, as on a RISC-V Linux whose /bin/sh is an x86 program (posix_spawn
# returns the errno: docs/sandbox.md §15). A #! interpreter is looked up under the prefix too.
# qemu-riscv64 cannot be the reference here: it runs the host's x86 /bin/sh natively (binfmt
# or not, a host program to it), so the expected outputs are written out below.
set -u
cs=$1 g=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
same() { cmp -s "$1" "$2" || { echo "$3 differs:"; diff "$1" "$2" | head -20; exit 1; }; }
mkdir -p "$tmp/root/bin" "$tmp/empty"
cp "$g/mini_sh" "$tmp/root/bin/sh"
cp "$g/procs" "$tmp/root/bin/procs"
# a dynamically linked program needs the RISC-V libraries under the prefix too
[ -d /usr/riscv64-linux-gnu/lib ] && ln -s /usr/riscv64-linux-gnu/lib "$tmp/root/lib"
cat >"$tmp/with_sh" <<'END'
hi there
system("echo hi there"): exited 0
system("exit 3"): exited 3
popen read 1: x y
popen lines: 1
pclose: exited 0
END
cat >"$tmp/without_sh" <<'END'
system("echo hi there"): exited 127
system("exit 3"): exited 127
popen: NULL
END
for prog in shell_use shell_use_dynamic; do
    [ -x "$g/$prog" ] || continue
    [ $prog = shell_use_dynamic ] && [ ! -e "$tmp/root/lib" ] && continue
    "$cs" exec --sysroot "$tmp/root" "$g/$prog" >"$tmp/got" 2>"$tmp/err" || fail "$prog: exit $?: $(cat "$tmp/err")"
    same "$tmp/with_sh" "$tmp/got" "$prog with the prefix's sh"
    [ -s "$tmp/err" ] && fail "$prog: stderr: $(cat "$tmp/err")"
    # the same given through the environment (how the processes a run starts receive it)
    CYCLESCOPE_SYSROOT="$tmp/root" "$cs" exec "$g/$prog" >"$tmp/got" 2>&1 || fail "$prog: CYCLESCOPE_SYSROOT"
    same "$tmp/with_sh" "$tmp/got" "$prog with CYCLESCOPE_SYSROOT"
done
# no sh under the prefix (static: no libraries needed): the host's /bin/sh is not run
"$cs" exec --sysroot "$tmp/empty" "$g/shell_use" >"$tmp/got" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] || fail "without sh: exit $rc, not 1 (popen failed): $(cat "$tmp/err")"
same "$tmp/without_sh" "$tmp/got" "shell_use without a shell under the prefix"
# a #! script whose interpreter is the prefix's: Linux's argv (interpreter as the script
# names it, its argument, the script's path, the arguments)
printf '#!/bin/procs show\n' >"$tmp/script"
chmod +x "$tmp/script"
"$cs" exec --sysroot "$tmp/root" "$g/procs" exec "$tmp/script" one >"$tmp/got" 2>"$tmp/err"; rc=$?
[ $rc = 5 ] || fail "#! script: exit $rc: $(cat "$tmp/err")"
printf 'before the exec\narg 1: %s\narg 2: one\n' "$tmp/script" >"$tmp/expected"
grep '^arg\|^before' "$tmp/got" >"$tmp/got.args"
same "$tmp/expected" "$tmp/got.args" "the script's argv"
# an absolute path the prefix has is the prefix's; one it lacks is the host's (as for open)
"$cs" exec --sysroot "$tmp/root" "$g/procs" exec /bin/procs show z >"$tmp/got" 2>&1; rc=$?
[ $rc = 5 ] && grep -qx 'arg 1: z' "$tmp/got" || { cat "$tmp/got"; fail "execve of /bin/procs under the prefix"; }
"$cs" exec --sysroot "$tmp/root" "$g/procs" exec "$g/procs" show w >"$tmp/got" 2>&1; rc=$?
[ $rc = 5 ] && grep -qx 'arg 1: w' "$tmp/got" || { cat "$tmp/got"; fail "execve of a host path the prefix lacks"; }
echo "ok"
