#!/bin/bash
# env_fixed_streams.sh CYCLESCOPE PROG: with --env-fixed the guest's standard streams look the
# same wherever they lead, so the run's instructions and cycles do not depend on whether its
# stdout is /dev/null, a file or a pipe (glibc asks isatty of a character device only: the
# program ran 75 more instructions with stdout on /dev/null, and whatif --verify, whose
# children write to a file, was off at the baseline of such a run).
set -u -o pipefail
cs=$(realpath "$1") prog=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
one() { python3 -c "import json, sys; j = json.load(open(sys.argv[1])); print(j['instructions'], j['cycles'])" "$1"; }
"$cs" run --no-report --env-fixed --json "$tmp/null.json" "$prog" >/dev/null 2>&1 || fail "run > /dev/null"
"$cs" run --no-report --env-fixed --json "$tmp/file.json" "$prog" >"$tmp/out.txt" 2>&1 || fail "run > file"
"$cs" run --no-report --env-fixed --json "$tmp/pipe.json" "$prog" 2>&1 | cat >/dev/null || fail "run | cat"
[ -s "$tmp/out.txt" ] || fail "the premise: the program prints"
null=$(one "$tmp/null.json") file=$(one "$tmp/file.json") pipe=$(one "$tmp/pipe.json")
[ "$null" = "$file" ] && [ "$file" = "$pipe" ] ||
    fail "instructions and cycles: /dev/null $null, file $file, pipe $pipe"
echo "ok: $null (instructions cycles) with stdout on /dev/null, a file and a pipe"
