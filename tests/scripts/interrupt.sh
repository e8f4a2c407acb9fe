# interrupt.sh — sourced by the tests of Ctrl-C. interrupt_after SECONDS LABEL OUT ERR CMD…
# starts CMD (stdout to OUT, stderr to ERR), sends it one SIGINT after SECONDS, as one
# Ctrl-C would, and fails (the caller's `fail`) unless it exits 130 (128 + SIGINT). One
# SIGINT by hand: GNU timeout signals the child and then its whole process group, a second
# Ctrl-C that (as documented) quits at once without the results.
interrupt_after() {
    local seconds=$1 label=$2 out=$3 err=$4
    shift 4
    "$@" >"$out" 2>"$err" &
    local pid=$!
    sleep "$seconds"
    kill -INT $pid
    wait $pid
    local rc=$?
    [ $rc = 130 ] || fail "$label, Ctrl-C: exit $rc, want 130: $(tail -3 "$err")"
}
