#!/bin/bash
# sandbox_outputs.sh CYCLESCOPE GUEST_DIR
# No verb destroys its input, and no failed run destroys an earlier output:
# an output that is an input (same inode: the same name, a hard link, a link)
# is refused before anything is written; every output goes to a temporary file
# beside it that is renamed only on success; no temporary file is left behind.
set -u
cs=$1 g=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# refused EXPECTED_FILE COMMAND…: must exit non-zero naming the output as an input, file unchanged
refused() {
    local file=$1; shift
    cp "$file" "$file.before"
    "$cs" "$@" >out.txt 2>err.txt && bad "'$*' succeeded"
    grep -q "the output is also an input" err.txt || bad "'$*': message: $(cat err.txt)"
    cmp -s "$file" "$file.before" || bad "'$*' changed its input $file"
    rm -f "$file.before"
}
"$cs" trace record -o t.cst "$g/hello" >/dev/null || { echo "FAIL: cannot record"; exit 1; }
"$cs" trace export-champsim t.cst -o t.champsim >/dev/null || { echo "FAIL: cannot export"; exit 1; }
refused t.cst trace export-champsim t.cst -o t.cst
refused t.champsim trace import-champsim t.champsim -o t.champsim
ln t.cst hard.cst
refused t.cst trace export-champsim t.cst -o hard.cst
ln -s t.cst soft.cst
refused t.cst trace export-champsim soft.cst -o t.cst
cp "$g/hello" prog
refused prog trace record -o prog ./prog
refused t.cst sim --no-report --json t.cst t.cst
refused t.cst sim --report t.cst t.cst
# a trace given as an output too is refused once open, before the run: nothing of a run printed
# (until 2026-11-29 each of these ran the whole trace, printed its results, then refused the output)
before_run() { refused "$@"; [ -s out.txt ] && bad "'${*:2}' ran before refusing: $(head -c 200 out.txt)"; }
before_run t.cst sim --no-report --json t.cst t.cst
before_run t.cst stallscope --no-report --json t.cst t.cst
before_run t.cst rpstacks -o t.cst t.cst
before_run t.cst model analyze -o t.cst t.cst
before_run t.champsim sim --no-report --json t.champsim t.champsim
# a failed run leaves the earlier output as it was
cp t.cst keep.cst
head -c 100 t.champsim >damaged.champsim
"$cs" trace import-champsim damaged.champsim -o keep.cst >/dev/null 2>err.txt && bad "a damaged trace was imported"
cmp -s keep.cst t.cst || bad "a failed import destroyed the earlier output"
# an output through a symbolic link replaces the file, keeps the link
ln -s real.cst link.cst
"$cs" trace record -o link.cst "$g/hello" >/dev/null || bad "record through a link failed"
[ -L link.cst ] && [ -f real.cst ] && cmp -s real.cst t.cst || bad "record through a link: link or file wrong"
# /dev/null is written in place
"$cs" trace export-champsim t.cst -o /dev/null >/dev/null || bad "export to /dev/null failed"
[ -c /dev/null ] || bad "/dev/null is no longer a device"
leftover=$(ls -a | grep -c '\.tmp-')
[ "$leftover" = 0 ] || bad "temporary files left behind: $(ls -a | grep '\.tmp-')"
[ $fail = 0 ] && echo "ok: no input replaced, no earlier output destroyed, no temporary left"
exit $fail
