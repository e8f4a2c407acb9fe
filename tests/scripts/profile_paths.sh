#!/bin/bash
# profile_paths.sh CYCLESCOPE PROG OTHER_PROG: a profile finds its program from anywhere.
#   - record (and run --analysis profile) write the program's absolute path, so report from
#     another directory needs no --exe;
#   - a profile moved with its program (a copied tree), or one recorded before 2026-11-27 with a
#     relative path, finds it under the profile's directory;
#   - the recorded size and hash stay the guard: another file there is refused, one line;
#   - neither there: one line naming the profile and the recorded path.
set -u -o pipefail
cs=$(realpath "$1") prog=$(realpath "$2") other=$(realpath "$3")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
program_of() { sed -n 's/^program //p' "$1"; }
# PROFILE NEW_PROGRAM_LINE OUT: the profile with another program line, its checksum made again
with_program() {
    python3 - "$@" <<'PY'
import sys, zlib
prof, program, out = sys.argv[1:]
body = open(prof, 'rb').read()
body = body[:body.rindex(b'checksum')]
lines = [b'program ' + program.encode() if l.startswith(b'program ') else l for l in body.split(b'\n')]
body = b'\n'.join(lines)
open(out, 'wb').write(body + b'checksum crc32:%08x\n' % zlib.crc32(body))
PY
}

mkdir -p "$tmp/rec/bin" "$tmp/elsewhere"
cp "$prog" "$tmp/rec/bin/prog"
cd "$tmp/rec" || exit 1
"$cs" profile record --config inorder1 --period 500 -o p.prof bin/prog 2000 >/dev/null 2>&1 || fail "record: exit $?"
"$cs" run --config inorder1 --no-report --analysis profile:file=r.prof:period=500 bin/prog 2000 >/dev/null 2>&1 ||
    fail "run --analysis profile: exit $?"
for f in p.prof r.prof; do
    [ "$(program_of $f)" = "$tmp/rec/bin/prog" ] || fail "$f records '$(program_of $f)', not the absolute path"
done
cd "$tmp/elsewhere" || exit 1
"$cs" profile report ../rec/p.prof >report.txt 2>err.txt || fail "report from another directory: $(cat err.txt)"
grep -q "procedures" err.txt || fail "report from another directory said nothing: $(cat err.txt)"
"$cs" profile annotate ../rec/r.prof >/dev/null 2>err.txt || fail "annotate from another directory: $(cat err.txt)"

# the tree moved, the profile in it: found under the profile's directory
mv "$tmp/rec" "$tmp/moved"
"$cs" profile report ../moved/p.prof >moved.txt 2>err.txt || fail "report of a moved tree: $(cat err.txt)"
cmp -s report.txt moved.txt || fail "the moved tree's report differs"
# a profile of before 2026-11-27: a relative path, reported from another directory
with_program ../moved/p.prof bin/prog ../moved/old.prof
"$cs" profile report ../moved/old.prof >old.txt 2>err.txt || fail "report of a relative path: $(cat err.txt)"
# (its first line names the program as recorded)
cmp -s <(tail -n +2 report.txt) <(tail -n +2 old.txt) || fail "the relative path's report differs"
head -1 old.txt | grep -q "^profile of bin/prog on inorder1" || fail "the first line: $(head -1 old.txt)"
# the guard: another program where the profile's should be
cp "$other" ../moved/bin/prog
out=$("$cs" profile report ../moved/p.prof 2>&1 >/dev/null)
rc=$?
[ $rc = 125 ] && [ "$(echo "$out" | wc -l)" = 1 ] && echo "$out" | grep -q "p.prof: recorded from another build" ||
    fail "another program in its place: exit $rc: $out"
# nowhere: the recorded path named
rm ../moved/bin/prog
out=$("$cs" profile report ../moved/p.prof 2>&1 >/dev/null)
rc=$?
[ $rc = 125 ] && [ "$(echo "$out" | wc -l)" = 1 ] &&
    echo "$out" | grep -q "^cyclescope: ../moved/p.prof: its program: $tmp/rec/bin/prog: cannot open" ||
    fail "the program nowhere: exit $rc: $out"
[ $failures = 0 ] || { echo "$failures failures"; exit 1; }
echo "ok: profiles record the absolute path and find a moved program beside them"
