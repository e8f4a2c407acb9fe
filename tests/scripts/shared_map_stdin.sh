#!/bin/bash
# shared_map_stdin.sh CYCLESCOPE GUEST
# Standard input opened read-write by the shell (0<>FILE) is not the guest's to
# write without --allow-write: a shared writable mapping of it is EACCES (Linux
# would map it), and FILE keeps its bytes.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf abc >"$tmp/f"
out=$("$1" exec "$2" "$tmp" stdin 0<>"$tmp/f" 2>&1)
rc=$?
echo "$out"
[ $rc = 0 ] || { echo "exit code $rc"; exit 1; }
echo "$out" | grep -q "stdin, PROT_WRITE, MAP_SHARED: Permission denied" || { echo "not refused"; exit 1; }
[ "$(cat "$tmp/f")" = abc ] || { echo "the file changed: $(cat "$tmp/f")"; exit 1; }
echo "refused; the file is unchanged"
