#!/bin/bash
# procs_check.sh MODE CYCLESCOPE PROCS [STACKS_CHECK]
# The guest's processes (tests/guest/procs.c, docs/sandbox.md §15) against what the program
# prints when run directly, which is computed independently of fork, vfork and execve:
#   spawn      posix_spawn of `procs show` with args and a fixed environment: its output
#              (through a pipe) = `env -i … cyclescope exec procs show …`'s, each line prefixed;
#              of a missing program and of a host one: the errno (ENOENT, ENOEXEC), as Linux
#   exec       execve of `procs show`: the same, the pid kept, its exit code the process'
#   script     execve of a #! script whose interpreter is procs: Linux's argv for scripts
#   host       execve of host x86 programs (an ELF, a #! /bin/sh script) fails with ENOEXEC,
#              and neither ran: the file each would have made is not there
#   timed      `run` of a program that forks: the child's output is there, the instructions
#              are the emulator's exact count of the parent alone (exec --stats), the stacks
#              sum to the cycles (stacks_check); an execve in the timed process ends the run
#              with one line
#   simpoints  a fork inside a simulation point (timed on a forked copy of the run) ends the
#              run with one line instead of starting the child a second time
#   point_kill a kill of another process inside a simulation point ends the run with one line
#              instead of signalling the real run's child a second time, and no process of the
#              guest's is left running (`procs signaller`: its child waits for SIGTERM)
#   abandoned  a run stopped before the program's end (`run --max`) leaves no process of the
#              guest's running (before: the child waited in pause() forever)
set -u
mode=$1 cs=$2 procs=$3 stacks_check=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
same() { # same FILE_EXPECTED FILE_GOT WHAT
    cmp -s "$1" "$2" || { echo "$3 differs:"; diff "$1" "$2" | head -20; exit 1; }
}
direct_show() { env -i A=1 "B=two words" EMPTY= "$cs" exec "$procs" show "$@"; }
case $mode in
spawn)
    direct_show a "b c" '' >"$tmp/direct"; rc=$?
    [ $rc = 5 ] || fail "procs show exits $rc, not 5"
    { sed 's/^/[spawned] /' "$tmp/direct"; echo "waited: yes"; echo "spawned: exited 5"; } >"$tmp/expected"
    "$cs" exec "$procs" spawn "$procs" show a "b c" '' >"$tmp/got" 2>"$tmp/err" || fail "exit $?: $(cat "$tmp/err")"
    same "$tmp/expected" "$tmp/got" "posix_spawn's output"
    [ -s "$tmp/err" ] && fail "stderr: $(cat "$tmp/err")"
    # an exec that fails: glibc's child writes the errno into its parent's memory (CLONE_VM),
    # and posix_spawn returns it, as on Linux (qemu-riscv64 makes a vfork a fork, so there
    # it returns 0 and a child that exits 127; before 2026-11-28 cyclescope did the same)
    "$cs" exec "$procs" spawn /nonexistent >"$tmp/got" 2>&1
    printf 'posix_spawn: No such file or directory\n' >"$tmp/expected"
    same "$tmp/expected" "$tmp/got" "a posix_spawn whose exec fails"
    # and for a host program (x86): ENOEXEC; neither child is left to wait for
    "$cs" exec "$procs" spawn "$(type -P true)" >"$tmp/got" 2>&1
    printf 'posix_spawn: Exec format error\n' >"$tmp/expected"
    same "$tmp/expected" "$tmp/got" "a posix_spawn of a host program"
    ;;
exec)
    direct_show a "b c" >"$tmp/direct"
    { echo "before the exec"; cat "$tmp/direct"; echo "the pid is kept across execve: yes"; } >"$tmp/expected"
    "$cs" exec "$procs" exec "$procs" show a "b c" >"$tmp/got" 2>"$tmp/err"; rc=$?
    [ $rc = 5 ] || fail "exit code $rc, not the exec'd program's 5: $(cat "$tmp/err")"
    same "$tmp/expected" "$tmp/got" "the exec'd program's output"
    # a descriptor without FD_CLOEXEC passes on: the exec'd program's stdout is the pipe
    "$cs" exec "$procs" exec "$procs" show x | grep -q '^arg 1: x$' || fail "output through a pipe lost"
    # /proc/self/exe is the guest's program, not cyclescope
    "$cs" exec "$procs" exec /proc/self/exe show y >"$tmp/got" 2>&1
    grep -q '^arg 1: y$' "$tmp/got" || { cat "$tmp/got"; fail "execve of /proc/self/exe"; }
    ;;
script)
    printf '#! %s show \n' "$procs" >"$tmp/script"
    chmod +x "$tmp/script"
    "$cs" exec "$procs" exec "$tmp/script" one two >"$tmp/got" 2>"$tmp/err"; rc=$?
    [ $rc = 5 ] || fail "exit code $rc: $(cat "$tmp/err")"
    # Linux: argv = interpreter, its one argument (blanks around it dropped), the script's
    # path, then argv[1..]
    printf 'before the exec\narg 1: %s\narg 2: one\narg 3: two\n' "$tmp/script" >"$tmp/expected"
    grep '^arg\|^before' "$tmp/got" >"$tmp/got.args"
    same "$tmp/expected" "$tmp/got.args" "the script's argv"
    ;;
host)
    printf '#!/bin/sh\ntouch "%s/by-script"\n' "$tmp" >"$tmp/make_mark"
    chmod +x "$tmp/make_mark"
    "$tmp/make_mark" && [ -e "$tmp/by-script" ] || fail "the host script does not work natively"
    rm -f "$tmp/by-script"
    touch=$(command -v touch)
    out=$("$cs" exec "$procs" exec-fail "$tmp/make_mark" 2>&1)
    [ "$out" = "execve $tmp/make_mark: Exec format error" ] || fail "script: $out"
    out=$("$cs" exec "$procs" exec-fail "$touch" "$tmp/by-elf" 2>&1)
    [ "$out" = "execve $touch: Exec format error" ] || fail "ELF: $out"
    out=$("$cs" exec "$procs" exec-fail "$tmp/missing" 2>&1)
    [ "$out" = "execve $tmp/missing: No such file or directory" ] || fail "missing: $out"
    out=$("$cs" exec "$procs" exec-fail "$tmp" 2>&1)
    [ "$out" = "execve $tmp: Permission denied" ] || fail "directory: $out"
    [ -e "$tmp/by-script" ] && fail "the host script ran"
    [ -e "$tmp/by-elf" ] && fail "the host touch ran"
    ;;
timed)
    "$cs" exec --env-fixed --stats "$procs" simple >"$tmp/exec.out" 2>"$tmp/exec.err" || fail "exec: $(cat "$tmp/exec.err")"
    want=$(sed -n 's/.*: \([0-9]*\) instructions in.*/\1/p' "$tmp/exec.err")
    "$cs" run --env-fixed --analysis stacks "$procs" simple >"$tmp/run.out" 2>"$tmp/run.err" || fail "run: $(cat "$tmp/run.err")"
    got=$(awk '$1 == "instructions" { print $2; exit }' "$tmp/run.out" "$tmp/run.err")
    [ -n "$want" ] && [ "$want" = "$got" ] || fail "run timed $got instructions, the parent alone runs $want"
    cat "$tmp/run.out" "$tmp/run.err" | grep -q '^the child runs$' || fail "the child's output is missing"
    cat "$tmp/run.out" "$tmp/run.err" | grep -q '^child: exited 3$' || fail "the child's status is missing"
    [ -n "$stacks_check" ] && { "$stacks_check" --config ooo4 "$procs" simple >"$tmp/sc" 2>&1 || { cat "$tmp/sc"; fail "stacks_check"; }; }
    "$cs" run "$procs" exec "$procs" show >"$tmp/x.out" 2>"$tmp/x.err"; rc=$?
    [ $rc != 0 ] || fail "an execve in the timed process did not end the run"
    grep -c 'a run that times or counts a program observes that program alone' "$tmp/x.err" | grep -qx 1 || { cat "$tmp/x.err"; fail "no one-line reason"; }
    echo "run: $got instructions = the parent's exact count"
    ;;
simpoints) # one interval: the one point holds the fork whatever the build makes of the program
    "$cs" simpoint --interval 100000 -o "$tmp/sp" --env-fixed "$procs" simple >/dev/null 2>&1 || fail "simpoint"
    "$cs" run --simpoints "$tmp/sp" --env-fixed "$procs" simple >"$tmp/out" 2>"$tmp/err"; rc=$?
    [ $rc = 125 ] || fail "exit $rc, not 125"
    [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'forks at pc 0x[0-9a-f]* inside a simulation point' "$tmp/err" ||
        { cat "$tmp/err"; fail "not one line naming the fork"; }
    ;;
point_kill) # --k 1: the one point is a middle interval, every one of which holds a kill
    "$cs" simpoint --k 1 --interval 100000 -o "$tmp/sp" --env-fixed "$procs" signaller >/dev/null 2>&1 || fail "simpoint"
    grep -qx '0 0' "$tmp/sp/bbv.simpoints" && fail "the point is the first interval (the fork's), not one of the kills'"
    "$cs" run --simpoints "$tmp/sp" --env-fixed "$procs" signaller >"$tmp/out" 2>"$tmp/err"; rc=$?
    [ $rc = 125 ] || fail "exit $rc, not 125"
    [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q 'signals process 1100 at pc 0x[0-9a-f]* inside a simulation point' "$tmp/err" ||
        { cat "$tmp/err"; fail "not one line naming the kill"; }
    pgrep -f "$tmp/sp" >/dev/null && { pkill -KILL -f "$tmp/sp"; fail "a process of the guest's is left running"; }
    ;;
abandoned) # the program's own path is unique to this run: a copy in $tmp
    cp "$procs" "$tmp/procs_abandoned"
    "$cs" run --max 300000 --no-report "$tmp/procs_abandoned" signaller >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; fail "run --max"; }
    pgrep -f "$tmp/procs_abandoned" >/dev/null && { pkill -KILL -f "$tmp/procs_abandoned"; fail "the guest's child is left running"; }
    ;;
*) echo "procs_check.sh: unknown mode $mode"; exit 2 ;;
esac
echo "ok: $mode"
