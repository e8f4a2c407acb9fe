#!/bin/bash
# eh_frame_ranges.sh TOOL READELF FILE…: the function ranges the ELF reader takes from each
# FILE's .eh_frame (tests/tools/eh_frame_ranges.c) are the FDEs binutils' readelf lists
# (--debug-dump=frames: "FDE cie=… pc=START..END"), but for those of discarded code (start 0)
# and empty ones, which the reader leaves out. Files that are not there are passed over;
# skips (77) when none is.
set -u -o pipefail
tool=$1 readelf=$2
shift 2
checked=0 failures=0
for f in "$@"; do
    [ -e "$f" ] || continue
    ours=$("$tool" "$f") || { echo "FAIL: $f: the reader refused it"; failures=$((failures + 1)); continue; }
    theirs=$("$readelf" --debug-dump=frames "$f" 2>/dev/null) || { echo "FAIL: readelf $f"; failures=$((failures + 1)); continue; }
    python3 - "$f" <(echo "$ours") <(echo "$theirs") <<'PY' || failures=$((failures + 1))
import re, sys
name, ours, theirs = sys.argv[1], open(sys.argv[2]).read().split(), open(sys.argv[3]).read()
ours = sorted(tuple(int(x, 16) for x in l.split("..")) for l in ours)
want = sorted((int(a, 16), int(b, 16)) for a, b in re.findall(r"FDE cie=\S+ pc=([0-9a-f]+)\.\.([0-9a-f]+)", theirs))
want = [(a, b) for a, b in want if a and b > a]
print("%s: %d FDEs, readelf %d" % (name, len(ours), len(want)))
if ours != want:
    print("FAIL: %s: ours and readelf's differ: %s" % (name, sorted(set(ours) ^ set(want))[:5]))
    sys.exit(1)
PY
    checked=$((checked + 1))
done
[ $checked -gt 0 ] || { echo "none of the files is there"; exit 77; }
[ $failures = 0 ]
