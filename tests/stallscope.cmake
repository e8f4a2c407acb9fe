# ---- Stallscope (docs/stallscope.md) ---------------------------------------------------------
#   unit.stallscope            the paper's Figures 1, 6, 7, the MultiStack, poor scheduling on synthetic streams;
#                              exact accounting on 5 workloads x ooo4, knl, inorder1, inorder3;
#                              known answers (pointer chase, branch_random, dep_add); the in-order
#                              machines on inorder1 (no issue-width stall, dep_add too close, flush
#                              leaves = a perfect predictor's savings); §3.7's history back to the
#                              last flush; the tooclose=window option; known answers on inorder1 and
#                              inorder3 (pointer chase, dep_add, branch_random against re-simulation);
#                              completion at issue on inorder3 (exact accounting, re-simulation);
#                              issue the in-order default (accounting and the in-order tests at both points);
#                              exact accounting after a warm-up (the validation's warmed point);
#                              the engine's work on a serial chain (sort 3000's checksum loop: searches
#                              known from the walk before them, walk steps from the step cache; counts)
#   stallscope.cli.bad_*       depth/interval 0, threshold outside 0-100, --tooclose other than paper/window,
#                              --completion other than commit/issue (completion_needs_inorder: issue on ooo4),
#                              --compare without B:
#                              one line naming the option, exit 2
#   stallscope.cli.text|json|html|run|compare|tooclose   the verb's renderings, --analysis from run, --tooclose
#   stallscope.cli.completion_*  issue on ooo4 refused (before the run); issue asked, the in-order default,
#                              commit asked on inorder3; compare_points: --compare names each side's point
#   stallscope.cli.compare_outputs  --compare's --json (schema, true header, deltas = B - A on every row, leaves
#                              = lost, text = JSON row for row, --json - alone on stdout) and --report (HTML rows,
#                              bars, no scripts): tests/scripts/stallscope_compare_outputs.sh
#   stallscope.cli.compare_html_browser  that HTML rendered in headless Chromium (skipped without it)
#   stallscope.cli.missing_program_with_args|directory_with_args  PROG ARGS with no file at PROG (or a
#                              directory): one line naming it, exit 125, as run's
#   stallscope.cli.compare_bad_json|compare_bad_csv  an unwritable --json path: one line naming it, exit 2,
#                              before either run; --csv refused with --compare
set(_cs $<TARGET_FILE:cyclescope>)
set(_scripts ${CMAKE_CURRENT_SOURCE_DIR}/scripts)

add_test(NAME stallscope.cli.bad_depth
         COMMAND ${_scripts}/expect_error.sh 2 "--depth 0: not a number of levels" ${_cs} stallscope --depth 0 prog)
add_test(NAME stallscope.cli.bad_interval
         COMMAND ${_scripts}/expect_error.sh 2 "--interval 0: not a positive number" ${_cs} stallscope --interval 0
                 prog)
add_test(NAME stallscope.cli.bad_threshold
         COMMAND ${_scripts}/expect_error.sh 2 "--threshold 100.5: not a percentage from 0 to 100" ${_cs} stallscope
                 --threshold 100.5 prog)
add_test(NAME stallscope.cli.bad_threshold_negative
         COMMAND ${_scripts}/expect_error.sh 2 "--threshold -1: not a percentage" ${_cs} stallscope --threshold -1 prog)
add_test(NAME stallscope.cli.bad_tooclose
         COMMAND ${_scripts}/expect_error.sh 2 "--tooclose sometimes: not 'paper'" ${_cs} stallscope --tooclose
                 sometimes prog)
add_test(NAME stallscope.cli.bad_completion
         COMMAND ${_scripts}/expect_error.sh 2 "--completion retire: not 'commit'" ${_cs} stallscope --completion
                 retire prog)
add_test(NAME stallscope.cli.compare_bad_json
         COMMAND ${_scripts}/expect_error.sh 2 "^cyclescope: /nonexistent-h13w/c.json: cannot write" ${_cs} stallscope
                 --compare inorder3 ooo4 --json /nonexistent-h13w/c.json prog)
add_test(NAME stallscope.cli.compare_bad_csv
         COMMAND ${_scripts}/expect_error.sh 2 "--compare writes text, --json and --report only" ${_cs} stallscope
                 --compare inorder3 ooo4 --csv c.csv prog)
# a program that is not there, with its arguments: named as missing (it was "a trace takes no
# arguments", exit 2), as by run, rpstacks and the others; a directory alike
add_test(NAME stallscope.cli.missing_program_with_args
         COMMAND ${_scripts}/expect_error.sh 125 "^cyclescope: /nonexistent-hdocs/prog: cannot open: No such file"
                 ${_cs} stallscope /nonexistent-hdocs/prog 100)
add_test(NAME stallscope.cli.directory_with_args
         COMMAND ${_scripts}/expect_error.sh 125 "^cyclescope: .*: is a directory" ${_cs} stallscope
                 ${CMAKE_CURRENT_SOURCE_DIR} 100)
add_test(NAME stallscope.cli.compare_needs_two
         COMMAND ${_scripts}/expect_error.sh 2 "--compare needs two configurations" ${_cs} stallscope --compare
                 ooo4)

if(CYCLESCOPE_HAVE_WORKLOADS)
  set(_w ${CYCLESCOPE_WORKLOAD_DIR})
  add_test(NAME stallscope.cli.bad_analysis_option
           COMMAND ${_scripts}/expect_error.sh nonzero "analysis stallscope: depth 0" ${_cs} run --analysis
                   stallscope:depth=0 ${_w}/sort 100)
  add_test(NAME stallscope.cli.text COMMAND ${_cs} stallscope --interval 5000 --max 20000 ${_w}/sort 2000)
  set_tests_properties(stallscope.cli.text PROPERTIES PASS_REGULAR_EXPRESSION
                       "accumulated [0-9]+ \\(exact\\).*Top-level hierarchy.*Leaf summary.*Twig summary.*Node summary.*Hot spots.*Partial summaries")
  add_test(NAME stallscope.cli.json COMMAND ${_cs} stallscope --json - --max 20000 ${_w}/sort 2000)
  set_tests_properties(stallscope.cli.json PROPERTIES PASS_REGULAR_EXPRESSION
                       "\"stallscope\".*\"leaf_summary\".*\"twig_summary\".*\"node_summary\".*\"hot_spots\"")
  add_test(NAME stallscope.cli.tooclose COMMAND ${_cs} stallscope --tooclose window --json - --max 20000 ${_w}/sort
                                                2000)
  set_tests_properties(stallscope.cli.tooclose PROPERTIES PASS_REGULAR_EXPRESSION "\"tooclose\":[ \t]*\"window\"")
  add_test(NAME stallscope.cli.completion_needs_inorder
           COMMAND ${_scripts}/expect_error.sh nonzero "completion=issue needs the in-order model" ${_cs} stallscope
                   --completion issue --max 2000 ${_w}/sort 100)
  add_test(NAME stallscope.cli.completion_issue COMMAND ${_cs} stallscope --config inorder3 --completion issue --json -
                                                        --max 20000 ${_w}/sort 2000)
  set_tests_properties(stallscope.cli.completion_issue PROPERTIES PASS_REGULAR_EXPRESSION
                       "\"completion\":[ \t]*\"issue\"")
  # the in-order default is issue (text and JSON say so); commit is still asked for by name
  add_test(NAME stallscope.cli.completion_inorder_default COMMAND ${_cs} stallscope --config inorder3 --json -
                                                                  --max 20000 ${_w}/sort 2000)
  set_tests_properties(stallscope.cli.completion_inorder_default PROPERTIES PASS_REGULAR_EXPRESSION
                       "completion=issue \\(the in-order default\\).*\"completion\":[ \t]*\"issue\"")
  add_test(NAME stallscope.cli.completion_commit COMMAND ${_cs} stallscope --config inorder3 --completion commit
                                                         --json - --max 20000 ${_w}/sort 2000)
  set_tests_properties(stallscope.cli.completion_commit PROPERTIES PASS_REGULAR_EXPRESSION
                       "completion=commit: measured at the in-order model's virtual retirement.*\"completion\":[ \t]*\"commit\"")
  add_test(NAME stallscope.cli.compare_points COMMAND ${_cs} stallscope --compare inorder3 ooo4 --max 20000 ${_w}/sort
                                                      2000)
  set_tests_properties(stallscope.cli.compare_points PROPERTIES PASS_REGULAR_EXPRESSION
                       "completion measured at: A issue, B commit \\(not the same point")
  add_test(NAME stallscope.cli.html
           COMMAND bash -c "f=$(mktemp --suffix=.html) && trap 'rm -f $f' EXIT && \"$0\" stallscope --report $f --max 20000 \"$1\" 2000 >/dev/null && grep -q '<details' $f && grep -q 'icicle' $f && grep -q 'Hot spots' $f"
                   ${_cs} ${_w}/sort)
  add_test(NAME stallscope.cli.run COMMAND ${_cs} run --no-report --analysis stacks,stallscope:depth=2 --max 20000
                                           ${_w}/list 2000)
  set_tests_properties(stallscope.cli.run PROPERTIES PASS_REGULAR_EXPRESSION "CPI stacks.*Stallscope.*\\(2 levels")
  add_test(NAME stallscope.cli.compare_outputs COMMAND ${_scripts}/stallscope_compare_outputs.sh ${_cs}
                                                       ${PROJECT_SOURCE_DIR}/docs ${_w}/sort 2000)
  # the comparison's HTML in headless Chromium: renders, no console message, no request (skipped without it)
  add_test(NAME stallscope.cli.compare_html_browser
           COMMAND bash -c "f=$(mktemp --suffix=.html) && trap 'rm -f $f' EXIT && \"$0\" stallscope --compare inorder3 ooo4 --report $f --max 20000 \"$1\" 2000 >/dev/null && \"$2\" --page $f 'stallscope-compare:1' 'not measured at the same point:1'"
                   ${_cs} ${_w}/sort ${_scripts}/report_browser.sh)
  set_tests_properties(stallscope.cli.compare_html_browser PROPERTIES SKIP_RETURN_CODE 77)
  add_test(NAME stallscope.cli.compare COMMAND ${_cs} stallscope --compare ooo4 knl --max 20000 ${_w}/sort 2000)
  set_tests_properties(stallscope.cli.compare PROPERTIES PASS_REGULAR_EXPRESSION "A = ooo4.*B = knl.*Leaf summary.*B-A")
endif()
