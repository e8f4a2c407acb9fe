# interrupt.sh — sourced by the tests of Ctrl-C. interrupt_running CPU_SECONDS LABEL OUT ERR CMD…
# starts CMD (stdout to OUT, stderr to ERR), sends it one SIGINT, as one Ctrl-C would, once it
# is running (below), and fails (the caller's `fail`) unless it exits 130 (128 + SIGINT). One
# SIGINT by hand: GNU timeout signals the child and then its whole process group, a second
# Ctrl-C that (as documented) quits at once without the results.
#
# Not after a fixed sleep (a loaded machine could spend it starting): the SIGINT goes once CMD
# has installed its Ctrl-C handler (SIGINT caught, in /proc/PID/status SigCgt) and has then used
# CPU_SECONDS more of processor time, so that it is stopped in the middle of its run however
# loaded the machine is (a loaded machine only makes the wait longer; at most 600 s of wall
# clock, then a failure that says so).
interrupt_running() {
    local cpu=$1 label=$2 out=$3 err=$4
    shift 4
    "$@" >"$out" 2>"$err" &
    local pid=$!
    local hz need="" waited=0 caught ticks
    hz=$(getconf CLK_TCK)
    while :; do
        if ! kill -0 $pid 2>/dev/null; then
            wait $pid
            fail "$label: ended (exit $?) before it could be interrupted: $(tail -3 "$err")"
        fi
        caught=$(awk '/^SigCgt:/ { print $2 }' /proc/$pid/status 2>/dev/null)
        # utime + stime (fields 14 and 15 of /proc/PID/stat; the name, field 2, has no space here)
        ticks=$(awk '{ print $14 + $15 }' /proc/$pid/stat 2>/dev/null)
        if [ -n "$caught" ] && [ -n "$ticks" ] && (((0x$caught >> 1) & 1)); then # bit 1: SIGINT (2)
            [ -n "$need" ] || need=$(awk -v t="$ticks" -v c="$cpu" -v hz="$hz" 'BEGIN { print int(t + c * hz + 0.5) }')
            [ "$ticks" -ge "$need" ] && break
        fi
        [ $waited -lt 6000 ] || { kill -KILL $pid; fail "$label: not running its timed part after 600 s"; }
        sleep 0.1
        waited=$((waited + 1))
    done
    kill -INT $pid
    wait $pid
    local rc=$?
    [ $rc = 130 ] || fail "$label, Ctrl-C: exit $rc, want 130: $(tail -3 "$err")"
}
