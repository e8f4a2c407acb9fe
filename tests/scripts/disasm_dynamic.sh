#!/bin/bash
# disasm_dynamic.sh OBJDUMP CYCLESCOPE PROG — a dynamically linked program's listing against
# `objdump -d`: line for line, the PLT stubs named NAME@plt as objdump names them (labels and
# the calls' <NAME@plt> notes), the .plt header <.plt> (a PIE; non-PIE: its symbol). Known difference, allowed and counted:
# objdump names a GOT slot's address in a note by the dynamic symbol it will hold
# (`# 2018 <printf@GLIBC_2.27>`); cyclescope by the nearest symbol of the image.
set -u -o pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$1" -d "$3" >"$tmp/objdump.txt" || exit 1
"$2" disasm "$3" >"$tmp/cs.txt" || exit 1
python3 - "$tmp/objdump.txt" "$tmp/cs.txt" <<'PY'
import re, sys
od, cs = (open(f).read().splitlines() for f in sys.argv[1:3])
if len(od) != len(cs):
    sys.exit("FAIL: %d lines from objdump, %d from cyclescope" % (len(od), len(cs)))
note = re.compile(r" # [0-9a-f]+ <[^>]*>$")
got = re.compile(r" # [0-9a-f]+ <[^>@]+@(GLIBC_[0-9.]+|Base)>$")
allowed = 0
for i, (a, b) in enumerate(zip(od, cs)):
    if a == b:
        continue
    if got.search(a) and note.sub("", a) == note.sub("", b):
        allowed += 1
        continue
    sys.exit("FAIL: line %d differs:\n  objdump:    %s\n  cyclescope: %s" % (i + 1, a, b))
stubs = [l for l in cs if l.endswith("@plt>:")]
calls = [l for l in cs if re.search(r"\tjal\t.*<[^>]+@plt>$", l)]
if not stubs or not calls:
    sys.exit("FAIL: no PLT stub labels (%d) or calls to them (%d)" % (len(stubs), len(calls)))
print("identical listings but %d GOT notes: %d lines, %d PLT stubs, %d calls to them"
      % (allowed, len(cs), len(stubs), len(calls)))
PY
