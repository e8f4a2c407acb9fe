# ---- the probe contract v2 and the runner (docs/probes.md) ---------------------------------
#   probes.identical.<config>   every workload (small arguments, first 30 k instructions) on one
#                               configuration: the run summary, every stack value and the whole
#                               O3PipeView log identical to the recorded ones (tests/probes_digests.txt;
#                               those before were the probe contract v1's, docs/probes.md), and the same
#                               with no stage views (--analysis pipeview only); bdw, knl and
#                               inorder1 are labelled slow (the sanitizer build runs ooo4
#                               and inorder3)
#   probes.cli.*                --analysis none | stacks | pipeview, bad lists, the list of analyses
#   probes.oom                  out of memory is one line and exit 125 (not under the sanitizers:
#                               they need the address space ulimit -v takes away)
# The unit tests unit.probes (every kind of record, skip exactness, producers, events, waits,
# samples, intervals) and unit.runner (lists, one run, the pool with failing jobs) go with them.
set(_cs $<TARGET_FILE:cyclescope>)
set(_scripts ${CMAKE_CURRENT_SOURCE_DIR}/scripts)

add_test(NAME probes.cli.bad_analysis
         COMMAND ${_scripts}/expect_error.sh 2 "--analysis stacks,fog: unknown analysis 'fog'" ${_cs} run
                 --analysis stacks,fog prog)
add_test(NAME probes.cli.bad_option
         COMMAND ${_scripts}/expect_error.sh 2 "analysis pipeview: option 'file' is not KEY=VALUE" ${_cs} sim
                 --analysis pipeview:file x.cst)
add_test(NAME probes.cli.list COMMAND ${_cs} run --analysis help)
set_tests_properties(probes.cli.list PROPERTIES PASS_REGULAR_EXPRESSION "stacks +CPI stacks.*pipeview +gem5 O3PipeView")

if(CYCLESCOPE_HAVE_WORKLOADS)
  set(_w ${CYCLESCOPE_WORKLOAD_DIR})
  foreach(cfg ooo4 bdw knl inorder1 inorder3)
    add_test(NAME probes.identical.${cfg}
             COMMAND ${_scripts}/probes_digest.sh ${_cs} ${_w} ${PROJECT_SOURCE_DIR}/workloads/manifest.txt 30000
                     ${cfg} --check ${CMAKE_CURRENT_SOURCE_DIR}/probes_digests.txt)
  endforeach()
  # under the sanitizers, one configuration of each model
  set_tests_properties(probes.identical.bdw probes.identical.knl probes.identical.inorder1 PROPERTIES LABELS slow)

  # none: the run summary and nothing else
  add_test(NAME probes.cli.analysis_none
           COMMAND ${_cs} run --no-report --analysis none --max 50000 ${_w}/sort 2000)
  set_tests_properties(probes.cli.analysis_none PROPERTIES PASS_REGULAR_EXPRESSION "cycles"
                       FAIL_REGULAR_EXPRESSION "CPI stacks|FLOPS")
  # pipeview alone: the log, no stacks (pipeview_check.sh checks the log itself)
  add_test(NAME probes.cli.analysis_pipeview
           COMMAND ${_cs} run --no-report --analysis pipeview:file=${CMAKE_CURRENT_BINARY_DIR}/probes-only.log
                   --max 20000 ${_w}/sort 2000)
  set_tests_properties(probes.cli.analysis_pipeview PROPERTIES FAIL_REGULAR_EXPRESSION "CPI stacks")
  add_test(NAME probes.cli.pipeview_needs_file
           COMMAND ${_scripts}/expect_error.sh 2 "analysis pipeview: give the log file" ${_cs} run --no-report
                   --analysis pipeview ${_w}/sort 10)
  # stacks and pipeview together, as the JSON shows them
  add_test(NAME probes.cli.analysis_both
           COMMAND ${_cs} run --no-report --analysis stacks,pipeview:file=${CMAKE_CURRENT_BINARY_DIR}/probes-both.log
                   --json - --max 20000 ${_w}/sort 2000)
  set_tests_properties(probes.cli.analysis_both PROPERTIES PASS_REGULAR_EXPRESSION "\"stacks\":")

  if(NOT CYCLESCOPE_SANITIZE)
    # a 1 GiB fully associative L3 needs far more than 300 MB of address space
    add_test(NAME probes.oom
             COMMAND ${_scripts}/oom_check.sh 300000 ${_cs} run --no-report --analysis none --set l3.enabled=yes
                     --set l3.size=1G --set l3.assoc=0 ${_w}/dep_add 1)
  endif()
endif()
