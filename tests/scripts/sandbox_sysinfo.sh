#!/bin/bash
# sandbox_sysinfo.sh CYCLESCOPE GUEST_DIR
# sysinfo(2) is deterministic: the same answer in two runs; the total memory is
# --guest-memory (default 4 GiB), free memory below it, one process, no swap,
# every field written (the guest fills the struct with 0xff first).
set -u
cs=$1 g=$2/sandbox_mem
a=$("$cs" exec "$g" sysinfo) && b=$("$cs" exec "$g" sysinfo) || { echo "FAIL: the guest failed"; exit 1; }
[ "$a" = "$b" ] || { echo "FAIL: two runs differ:"; echo "$a"; echo "$b"; exit 1; }
c=$("$cs" exec --guest-memory 256M "$g" sysinfo)
echo "$a"; echo "$c"
re='^sysinfo 0 uptime 0 loads 0 0 0 total %s free ([0-9]+) shared 0 buffer 0 swap 0 0 procs 1 high 0 0 unit 1$'
for pair in "$a 4294967296" "$c 268435456"; do
    line=${pair% *} total=${pair##* }
    # shellcheck disable=SC2059
    [[ $line =~ $(printf "$re" "$total") ]] || { echo "FAIL: unexpected: $line"; exit 1; }
    [ "${BASH_REMATCH[1]}" -lt "$total" ] && [ "${BASH_REMATCH[1]}" -gt $((total - (64 << 20))) ] ||
        { echo "FAIL: free memory ${BASH_REMATCH[1]} is not just below the total $total"; exit 1; }
done
echo "ok"
