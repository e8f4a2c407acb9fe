#!/bin/bash
# report_browser.sh REPORT_DEMO [PNG_OUT]
#   Writes the demo HTML reports with REPORT_DEMO (tests/tools/report_demo.c) and
#   renders them in headless Chromium. Passes when, for each report:
#     - the page loaded: a PNG screenshot of the expected size, far from blank
#       (several times the size of a blank page's screenshot);
#     - no console message at all: the report has no scripts, so any message is a
#       problem; a blocked fetch shows up here because of the report's
#       Content-Security-Policy (default-src 'none');
#     - no network request from the page: Chromium's NetLog holds no request made
#       on behalf of the file:// page (Chromium's own background requests are
#       ignored; every host resolves to nothing, so nothing leaves the machine);
#     - the DOM holds the SVG charts: stacked-bar segments with hover titles and
#       the expected sections (and the minimal report lacks the absent ones).
#   PNG_OUT, when given, receives the full report's screenshot.
# report_browser.sh --page FILE.html [PATTERN:MIN…]
#   Renders one report written by cyclescope itself with the same checks (loaded,
#   screenshot far from blank, no console message, no network request), and
#   requires each PATTERN at least MIN times in the DOM.
# report_browser.sh --selftest
#   Checks that the checks bite: a page with a script, a console error and an
#   image from the network must fail them.
# Exits 77 (skipped) when Chromium is not installed.
set -u

chromium=""
for c in "${CHROMIUM:-}" /usr/bin/chromium chromium chromium-browser; do
    [ -n "$c" ] && command -v "$c" >/dev/null 2>&1 && { chromium=$(command -v "$c"); break; }
done
if [ -z "$chromium" ]; then
    echo "SKIP: chromium is not installed (scripts/install-deps.sh installs it)"
    exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# run_chromium NAME URL ACTION... : headless Chromium with a fresh profile, logging
# to $tmp/NAME.log and its NetLog to $tmp/NAME.netlog; stdout to $tmp/NAME.out.
run_chromium() {
    local name=$1 url=$2
    shift 2
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --disable-default-apps --disable-extensions --disable-dev-shm-usage --mute-audio --hide-scrollbars \
        --host-resolver-rules="MAP * ~NOTFOUND" \
        --user-data-dir="$tmp/profile-$name" --enable-logging=stderr --v=0 \
        --log-net-log="$tmp/$name.netlog" "$@" "$url" >"$tmp/$name.out" 2>"$tmp/$name.log"
    local rc=$?
    [ $rc -eq 0 ] || fail "$name: chromium exited with $rc"
    return $rc
}

# Console messages: "INFO:CONSOLE:12] ..." (older versions: "CONSOLE(12)").
check_console() {
    local name=$1
    if grep -Eq ':CONSOLE[:(]|Uncaught|Content Security Policy' "$tmp/$name.log"; then
        fail "$name: console messages:"
        grep -E ':CONSOLE[:(]|Uncaught|Content Security Policy' "$tmp/$name.log" | head -5
    fi
}

check_network() {
    local name=$1
    if [ ! -s "$tmp/$name.netlog" ]; then
        fail "$name: chromium wrote no NetLog"
    elif grep -q '"network_isolation_key":"file://' "$tmp/$name.netlog"; then
        fail "$name: the page made network requests:"
        grep -o '"url":"[^"]*"' "$tmp/$name.netlog" | grep -v 'google' | sort -u | head -5
    fi
}

png_size() { stat -c %s "$1" 2>/dev/null || echo 0; }
# Width and height from the IHDR chunk.
png_dims() {
    od -An -tu1 -j16 -N8 "$1" |
        awk '{ printf "%dx%d", $1*16777216 + $2*65536 + $3*256 + $4, $5*16777216 + $6*65536 + $7*256 + $8 }'
}

# screenshot NAME FILE.html: renders 1280x3400 to $tmp/NAME.png and checks it.
screenshot() {
    local name=$1 html=$2
    run_chromium "$name" "file://$html" --window-size=1280,3400 --screenshot="$tmp/$name.png" || return
    check_console "$name"
    check_network "$name"
    local png=$tmp/$name.png
    if [ ! -s "$png" ] || [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' ')" != 89504e470d0a1a0a ]; then
        fail "$name: no PNG screenshot"
        return
    fi
    [ "$(png_dims "$png")" = 1280x3400 ] || fail "$name: screenshot is $(png_dims "$png"), not 1280x3400"
}

# dom NAME FILE.html: the DOM after loading, to $tmp/NAME.out.
dom() {
    run_chromium "$1" "file://$2" --dump-dom || return
    check_console "$1"
    check_network "$1"
}

count() { grep -o -- "$1" "$tmp/$2.out" | wc -l; }

need() { # need NAME PATTERN MIN WHAT
    local n
    n=$(count "$2" "$1")
    [ "$n" -ge "$3" ] || fail "$1: DOM has $n of $4 (want at least $3)"
}

if [ "${1:-}" = --selftest ]; then
    cat >"$tmp/bad.html" <<'EOF'
<!DOCTYPE html><html><head><meta charset="utf-8"><title>bad</title></head>
<body><p>A page that breaks every rule.</p><img src="http://example.invalid/x.png" alt="">
<script>console.error("boom"); not_defined();</script></body></html>
EOF
    dom bad "$tmp/bad.html"
    if [ "$failures" -ge 2 ]; then
        echo "ok: the checks caught the console error and the network request ($failures failures, as expected)"
        exit 0
    fi
    echo "FAIL: the bad page passed the checks ($failures failures, expected 2)"
    exit 1
fi

if [ "${1:-}" = --page ]; then
    page=$(realpath "$2")
    shift 2
    printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>blank</title></head><body></body></html>\n' \
        >"$tmp/blank.html"
    screenshot blank "$tmp/blank.html"
    screenshot page "$page"
    size=$(png_size "$tmp/page.png") blank=$(png_size "$tmp/blank.png")
    [ "$size" -gt $((blank * 5)) ] && [ "$size" -gt 50000 ] || fail "page: screenshot looks blank ($size bytes)"
    dom page-dom "$page"
    [ "$(count '<script' page-dom)" -eq 0 ] || fail "page-dom: DOM has a <script>"
    for want in "$@"; do need page-dom "${want%:*}" "${want##*:}" "${want%:*}"; done
    [ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
    echo "ok: $(basename "$page") rendered: no console messages, no network requests, screenshot $size bytes; $*"
    exit 0
fi

demo=${1:?usage: report_browser.sh REPORT_DEMO [PNG_OUT] | --page FILE.html [PATTERN:MIN…] | --selftest}
png_out=${2:-}
"$demo" "$tmp/report.html" || { echo "FAIL: $demo failed"; exit 1; }
"$demo" --minimal "$tmp/minimal.html" || { echo "FAIL: $demo --minimal failed"; exit 1; }
printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>blank</title></head><body></body></html>\n' \
    >"$tmp/blank.html"

screenshot blank "$tmp/blank.html"
screenshot full "$tmp/report.html"
screenshot minimal "$tmp/minimal.html"
blank=$(png_size "$tmp/blank.png")
for name in full minimal; do
    size=$(png_size "$tmp/$name.png")
    [ "$size" -gt $((blank * 5)) ] && [ "$size" -gt 50000 ] ||
        fail "$name: screenshot looks blank ($size bytes; a blank page: $blank)"
done

dom full-dom "$tmp/report.html"
dom minimal-dom "$tmp/minimal.html"
for name in full-dom minimal-dom; do
    need "$name" '<svg' 2 "SVG charts"
    need "$name" 'class="seg"' 30 "stacked-bar segments"
    need "$name" '<title>' 30 "hover titles"
    need "$name" '<section id="run"' 1 "the run section"
    need "$name" '<section id="stacks"' 1 "the CPI stacks section"
    need "$name" 'matmul --size=&lt;64&gt; &amp;' 1 "the escaped program name"
    [ "$(count '<script' "$name")" -eq 0 ] || fail "$name: DOM has a <script>"
done
need full-dom '<svg' 3 "SVG charts (CPI, IPC/FLOPS, validation)"
need full-dom '<section id="validation"' 1 "the validation section"
need full-dom 'class="actual' 6 "validation markers"
need full-dom 'panel-title">FLOPS stack' 1 "the FLOPS stack"
[ "$(count 'id="validation"' minimal-dom)" -eq 0 ] || fail "minimal-dom: has a validation section, given none"
[ "$(count 'panel-title">FLOPS stack' minimal-dom)" -eq 0 ] || fail "minimal-dom: has a FLOPS stack, given no FP units"

if [ -n "$png_out" ] && [ -s "$tmp/full.png" ]; then cp "$tmp/full.png" "$png_out"; fi
if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "ok: $("$chromium" --version 2>/dev/null | head -1) rendered both reports: no console messages, no network" \
    "requests, $(count '<svg' full-dom) SVG charts with $(count 'class="seg"' full-dom) bar segments" \
    "(screenshot $(png_size "$tmp/full.png") bytes, blank page $blank)"
