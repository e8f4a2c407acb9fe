#!/bin/bash
# simpoint_bb_dir.sh CYCLESCOPE PROG ARG: `simpoint -o DIR --bb FILE` over the directory of an
# earlier `simpoint -o DIR PROG` replaces its points; the earlier manifest (simpoint.json) then
# described other points, and `run --simpoints DIR PROG` said the points were "changed after
# `cyclescope simpoint` wrote it" — it was cyclescope that wrote them. Now --bb removes the stale
# manifest with a note, and `run --simpoints` on a --bb directory says why it cannot time it.
set -u
cs=$(realpath "$1") prog=$(realpath "$2") arg=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
"$cs" simpoint --interval 20K -o vec "$prog" "$arg" >/dev/null 2>&1 || fail "simpoint -o vec"
"$cs" simpoint --interval 20K -o D "$prog" "$arg" >/dev/null 2>&1 || fail "simpoint -o D"
[ -f D/simpoint.json ] || fail "no D/simpoint.json"
"$cs" simpoint --k 3 -o D --bb vec/bbv.bb >out 2>err || { cat err; fail "simpoint --bb exited $?"; }
[ ! -e D/simpoint.json ] || fail "the earlier manifest D/simpoint.json was left beside --bb's points"
grep -q "removed D/simpoint.json" err || { cat err; fail "no note that D/simpoint.json was removed"; }
[ -s D/bbv.simpoints ] && [ -s D/bbv.weights ] || fail "--bb wrote no points"
"$cs" run --simpoints D "$prog" "$arg" >out 2>err
rc=$?
[ "$rc" = 125 ] || { cat err; fail "run --simpoints on a --bb directory exited $rc, not 125"; }
grep -q "no simpoint.json: not a directory .cyclescope simpoint -o D PROG. wrote" err ||
    { cat err; fail "run --simpoints does not say the directory is not a program's"; }
grep -q "changed after" err && fail "still says the points were changed after cyclescope wrote them"
# a directory of its own program is untouched by a --bb elsewhere, and times
"$cs" run --no-report --simpoints vec "$prog" "$arg" >out 2>err || { cat err; fail "run --simpoints vec"; }
echo "ok: --bb removes the stale manifest; run --simpoints on its directory says why not"
