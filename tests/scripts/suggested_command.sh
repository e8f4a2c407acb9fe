#!/bin/bash
# suggested_command.sh CYCLESCOPE CORPUS: the command lines cyclescope's refusals suggest run as
# they are printed when the input's path holds a space (a checkout in "My Projects"): rpstacks
# given a ChampSim trace suggests `cyclescope trace import-champsim PATH -o TRACE.cst`, stacks
# given a .cst trace `cyclescope sim PATH`; each is run by sh, with cyclescope and TRACE.cst
# replaced, and must succeed (the paths were printed unquoted, and the pasted command failed).
set -u -o pipefail
cs=$(realpath "$1") corpus=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$tmp/a dir"
cp "$corpus/champsim/x86.champsim" "$corpus/cst/uops.cst" "$tmp/a dir/"
cd "$tmp" || exit 1

# the suggestion: the text between the given prefix and suffix on the one stderr line
suggestion() { # PREFIX SUFFIX COMMAND…
    local prefix=$1 suffix=$2 line
    shift 2
    "$@" >/dev/null 2>err && fail "$*: accepted"
    line=$(cat err)
    [[ $line == *"$prefix"*"$suffix"* ]] || fail "no suggestion in: $line"
    line=${line#*"$prefix"}
    echo "${line%%"$suffix"*}"
}

import=$(suggestion "import it first (" ") (see" "$cs" rpstacks -o x.rps "$tmp/a dir/x86.champsim")
echo "suggested: $import"
[[ $import == "cyclescope trace import-champsim "*" -o TRACE.cst" ]] || fail "not an import command: $import"
import=${import#cyclescope }
import=${import% -o TRACE.cst}
sh -c "\"\$0\" $import -o out.cst" "$cs" || fail "the suggested import did not run: $import"
"$cs" trace info out.cst >/dev/null || fail "the suggested import wrote no trace"

sim=$(suggestion "time a trace with \`" "\` (see" "$cs" stacks "$tmp/a dir/uops.cst")
echo "suggested: $sim"
[[ $sim == "cyclescope sim "* ]] || fail "not a sim command: $sim"
sim=${sim#cyclescope }
sh -c "\"\$0\" $sim" "$cs" >sim.out 2>&1 || fail "the suggested sim did not run: $sim: $(tail -2 sim.out)"
echo "ok: both suggestions run as printed"
