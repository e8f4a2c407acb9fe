# ---- the HTML report: a demo report checked as text and rendered in Chromium --------
set(_scripts ${CMAKE_CURRENT_SOURCE_DIR}/scripts)
set(_demo $<TARGET_FILE:report_demo>)

# Well-formed, escaped, self-contained; the sections given and only those.
add_test(NAME report.html.demo COMMAND ${_scripts}/report_html_check.sh ${_demo})
# Writing to a place that cannot be written is an error value, one line.
add_test(NAME report.html.write_error
         COMMAND ${_scripts}/expect_error.sh 1 "no/such/dir/r.html: cannot (write|create): No such file or directory"
                 ${_demo} ${CMAKE_CURRENT_BINARY_DIR}/no/such/dir/r.html)
# Headless Chromium: the page loads and renders, no console message, no network
# request, the SVG charts are in the DOM. Skipped (77) without chromium.
add_test(NAME report.html.browser COMMAND ${_scripts}/report_browser.sh ${_demo})
# The browser checks catch a page with a console error and a network fetch.
add_test(NAME report.html.browser_selftest COMMAND ${_scripts}/report_browser.sh --selftest)
set_tests_properties(report.html.browser report.html.browser_selftest PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
