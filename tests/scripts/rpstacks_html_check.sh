#!/bin/bash
# rpstacks_html_check.sh REPORT.html
#   The whatif HTML report without a browser: one document, balanced svg/figure/table
#   elements, no script, the RpStacks section with its stacked bars and the grid's section.
set -u
f=${1:?usage: rpstacks_html_check.sh REPORT.html}
fail() { echo "FAIL: $*"; exit 1; }
count() { grep -o -- "$1" "$f" | wc -l; }
[ -s "$f" ] || fail "empty report"
head -c 16 "$f" | grep -q '^<!DOCTYPE html>' || fail "does not start with <!DOCTYPE html>"
[ "$(count '<html')" -eq 1 ] || fail "not one <html>"
for tag in svg figure table section; do
    [ "$(count "<$tag[ >]")" -eq "$(count "</$tag>")" ] || fail "<$tag> not balanced"
done
[ "$(count '<script')" -eq 0 ] || fail "has a script"
grep -q 'id="rpstacks"' "$f" || fail "no RpStacks section"
grep -q 'largest representative paths' "$f" || fail "no stacked bars of the paths"
grep -q '<rect' "$f" || fail "no bars drawn"
[ "$(count '<svg')" -ge 2 ] || fail "no chart of the grid"
echo "ok: $f"
