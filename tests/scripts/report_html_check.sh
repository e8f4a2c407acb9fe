#!/bin/bash
# report_html_check.sh REPORT_DEMO
#   Writes the demo HTML reports (full and --minimal) and checks them without a
#   browser: one document, balanced elements, every < and & in text escaped
#   (the demo's program name, title and configuration name hold < & > " '),
#   no script, no URL except the SVG namespace, and the expected sections.
set -u
demo=${1:?usage: report_html_check.sh REPORT_DEMO}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
count() { grep -o -- "$1" "$2" | wc -l; }

check() { # check NAME FILE
    local name=$1 f=$2
    [ -s "$f" ] || { fail "$name: empty report"; return; }
    head -c 16 "$f" | grep -q '^<!DOCTYPE html>' || fail "$name: does not start with <!DOCTYPE html>"
    [ "$(count '<html' "$f")" -eq 1 ] || fail "$name: $(count '<html' "$f") <html> elements"
    for tag in html head body main section figure table thead tbody tr svg g text title p; do
        local open close
        open=$(grep -oE "<$tag[ >]" "$f" | wc -l)
        close=$(count "</$tag>" "$f")
        [ "$open" -eq "$close" ] || fail "$name: <$tag> opened $open times, closed $close times"
    done
    [ "$(count '<svg' "$f")" -ge 2 ] || fail "$name: fewer than two SVG charts"
    grep -qi '<script' "$f" && fail "$name: has a <script>"
    grep -qiE '<(link|img|iframe|object|embed|image|use)[ >]' "$f" && fail "$name: refers to another resource"
    grep -qiE 'url\(|@import|src=|href=' "$f" && fail "$name: refers to another resource"
    if grep -oE 'https?://[^" ]*' "$f" | grep -vqx 'http://www.w3.org/2000/svg'; then
        fail "$name: has URLs: $(grep -oE 'https?://[^" ]*' "$f" | grep -vx 'http://www.w3.org/2000/svg' | head -3)"
    fi
    grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$f" || fail "$name: no strict CSP"
    # Text: every < opens a tag (or <!DOCTYPE), every & starts one of our entities.
    grep -qE '<[^a-zA-Z/!]' "$f" && fail "$name: unescaped '<': $(grep -oE '.{0,20}<[^a-zA-Z/!].{0,10}' "$f" | head -2)"
    grep -qP '&(?!amp;|lt;|gt;|quot;|#39;)' "$f" &&
        fail "$name: unescaped '&': $(grep -oP '.{0,20}&(?!amp;|lt;|gt;|quot;|#39;).{0,10}' "$f" | head -2)"
    grep -qF -e '<64>' -e 'bdw<&>' -e '"friends"' "$f" && fail "$name: the program, title or config name is not escaped"
    grep -qF 'matmul --size=&lt;64&gt; &amp; &#39;fast&#39; &quot;x&quot;' "$f" ||
        fail "$name: the escaped program name is missing"
    grep -qF '<title>Demo report: matmul &lt;64&gt; &amp; &quot;friends&quot;</title>' "$f" ||
        fail "$name: the escaped title is missing"
    # Hover values on every segment; zero components left out of the bars.
    local segs titled
    segs=$(count '<rect[^>]*class="seg"' "$f")
    titled=$(count '<rect[^>]*class="seg"><title>' "$f")
    [ "$segs" -ge 30 ] && [ "$segs" -eq "$titled" ] || fail "$name: $segs bar segments, $titled with a hover title"
    grep -qE '<rect[^>]*class="seg"><title>[^<]*itlb' "$f" && fail "$name: the zero itlb component was drawn"
    grep -qE '<rect[^>]*class="seg"><title>[^<]*icache-L3' "$f" || fail "$name: the tiny icache-L3 component is missing"
    grep -qE 'nan|inf[^oe]' "$f" && fail "$name: NaN or infinity printed"
}

"$demo" "$tmp/full.html" || { echo "FAIL: $demo failed"; exit 1; }
"$demo" --minimal "$tmp/minimal.html" || { echo "FAIL: $demo --minimal failed"; exit 1; }
check full "$tmp/full.html"
check minimal "$tmp/minimal.html"
for id in run stacks ipc-flops validation; do
    grep -q "<section id=\"$id\">" "$tmp/full.html" || fail "full: no $id section"
done
[ "$(count '<svg' "$tmp/full.html")" -eq 3 ] || fail "full: $(count '<svg' "$tmp/full.html") SVG charts, want 3"
[ "$(count 'class="actual' "$tmp/full.html")" -ge 6 ] || fail "full: fewer than six validation markers"
grep -q '<section id="validation">' "$tmp/minimal.html" && fail "minimal: has a validation section, given none"
grep -q 'panel-title">FLOPS stack' "$tmp/minimal.html" && fail "minimal: has a FLOPS stack, given no FP units"

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "ok: $(wc -c <"$tmp/full.html") bytes, $(count '<svg' "$tmp/full.html") SVG charts," \
    "$(count 'class="seg"' "$tmp/full.html") bar segments; minimal report $(wc -c <"$tmp/minimal.html") bytes"
