# ---- the thesis' in-order machines (Noonburg): configs/inorder1.ini, inorder3.ini ------------
#   unit.inorder                   (tests/unit/test_inorder.c) Tables 3.2 and 4.1 and §5.3 cycle
#                                  by cycle, closed forms per pipe, caches, predictors, value prediction
#   inorder.order.<workload>       orderings on every workload at its small size, 300 k
#                                  instructions after 100 k of warm-up (tests/tools/inorder_check.c):
#                                  none <= loop <= bimodal <= perfect (§6.3), perfect caches and
#                                  predictor never slower, larger caches, shorter misses and a
#                                  shallower FP pipe never slower, the same run twice identical
#   inorder.order_full.<workload>  the same over the whole small run (label slow)
#   inorder.cli.*                  `cyclescope run --config inorder1|inorder3`, text and JSON,
#                                  `config show`, and the refusal of value prediction without values;
#                                  .tlb: TLBs and write-backs set on the command line (issue 12),
#                                  .prefetch_dram: prefetchers and the DRAM model likewise
set(_cs $<TARGET_FILE:cyclescope>)
set(_scripts ${CMAKE_CURRENT_SOURCE_DIR}/scripts)

add_test(NAME inorder.cli.config_show COMMAND ${_cs} config show inorder3)
set_tests_properties(inorder.cli.config_show PROPERTIES PASS_REGULAR_EXPRESSION
  "model = inorder.*\\[inorder\\].*fetch_buffer = 2.*resolve_delay = 0.*\\[pipe\\.fp\\][^[]*stages = 5")
add_test(NAME inorder.cli.bad_stall_stage
         COMMAND ${_scripts}/expect_error.sh 2 "mem_stall_stage = 3: pipe.mem .* has 2 stages"
                 ${_cs} config show --set inorder.mem_stall_stage=3 inorder3)

if(CYCLESCOPE_HAVE_WORKLOADS)
  set(_wd ${CYCLESCOPE_WORKLOAD_DIR})
  # each run its own --outdir: the default, cyclescope-out/ in ctest's directory, was one both
  # wrote (with its `latest` link) side by side, and gained two directories every ctest run
  add_test(NAME inorder.cli.run_inorder3
           COMMAND ${_cs} run --config inorder3 --json - --outdir ${CMAKE_CURRENT_BINARY_DIR}/inorder-run-inorder3
                   ${_wd}/list ${CYCLESCOPE_WORKLOAD_list_SMALL_ARGS})
  set_tests_properties(inorder.cli.run_inorder3 PROPERTIES PASS_REGULAR_EXPRESSION
    "in-order model.*cycles issuing k instructions.*pipe mem \\(2 stages\\).*D-cache: 1024 blocks of 16 B, fully associative.*\"issue_distribution\".*\"occupancy_distribution\"")
  add_test(NAME inorder.cli.run_inorder1
           COMMAND ${_cs} run --config inorder1 --max 200000 --outdir ${CMAKE_CURRENT_BINARY_DIR}/inorder-run-inorder1
                   ${_wd}/sort ${CYCLESCOPE_WORKLOAD_sort_SMALL_ARGS})
  set_tests_properties(inorder.cli.run_inorder1 PROPERTIES PASS_REGULAR_EXPRESSION
    "on inorder1 \\(in-order model\\).*cycles issuing k instructions:  0: [0-9.]+%  1: [0-9.]+%\n")
  # bpred.type = none (inorder1's default): no predictor, fetch stops at every branch; the text
  # says so instead of "branch accuracy 0.00%", the JSON keeps the counts and sets no_predictor;
  # with a predictor (bimodal) the accuracy is printed and no_predictor absent
  add_test(NAME inorder.cli.no_predictor
           COMMAND sh -c "cs=$0 out=$1; shift
             \"$cs\" run --config inorder1 --max 50000 --no-report --json \"$out\"/nopred.json \"$@\" >\"$out\"/nopred.txt || exit 1
             grep -E 'branch accuracy +no predictor .fetch stops at each of the [1-9][0-9]* branches.$' \"$out\"/nopred.txt || exit 1
             ! grep -E 'branch accuracy.*%' \"$out\"/nopred.txt || exit 1
             jq -e '.branches.no_predictor == true and .branches.total > 0 and .branches.mispredicts == .branches.total' \"$out\"/nopred.json || exit 1
             \"$cs\" run --config inorder1 --set bpred.type=bimodal --max 50000 --no-report --json \"$out\"/bimodal.json \"$@\" >\"$out\"/bimodal.txt || exit 1
             grep -E 'branch accuracy +[0-9.]+% ' \"$out\"/bimodal.txt || exit 1
             jq -e '.branches.no_predictor == null' \"$out\"/bimodal.json"
             ${_cs} ${CMAKE_CURRENT_BINARY_DIR} ${_wd}/sort ${CYCLESCOPE_WORKLOAD_sort_SMALL_ARGS})
  # Value prediction (§8.1) on a live run: the emulator hands the model every result.
  add_test(NAME inorder.cli.value_prediction
           COMMAND ${_cs} run --config inorder3 --set inorder.value_prediction=yes --max 300000 --no-report
                   ${_wd}/interp ${CYCLESCOPE_WORKLOAD_interp_SMALL_ARGS})
  set_tests_properties(inorder.cli.value_prediction PROPERTIES PASS_REGULAR_EXPRESSION
    "value predictions: [1-9][0-9]*, mispredicted [0-9]+")

  # TLBs and write-backs (issue 12) from the command line: statistics and stack components
  add_test(NAME inorder.cli.tlb
           COMMAND ${_cs} run --config inorder3 --set itlb.entries=4 --set itlb.miss_latency=20
                   --set dtlb.entries=8 --set dtlb.miss_latency=30 --set memory.writebacks=yes --max 100000
                   --no-report ${_wd}/ptr_chase ${CYCLESCOPE_WORKLOAD_ptr_chase_SMALL_ARGS})
  set_tests_properties(inorder.cli.tlb PROPERTIES PASS_REGULAR_EXPRESSION
    "ITLB accesses / misses +[0-9]+ / [1-9][0-9]* .*DTLB accesses / misses +[0-9]+ / [1-9][0-9]* .*write-backs L1D / L2 / L3 / memory +[1-9][0-9]* / 0 / 0 / [1-9].*\n  itlb +0\.0*[1-9].*\n  dtlb +0\.0*[1-9]")
  # The prefetchers and the DRAM model (the shared memory system's) from the command line
  add_test(NAME inorder.cli.prefetch_dram
           COMMAND ${_cs} run --config inorder1 --set ideal.dcache=no --set prefetch.dcache_next_line=yes
                   --set prefetch.dcache_stride=64 --set dram.enabled=yes --max 100000 --no-report
                   ${_wd}/memcopy ${CYCLESCOPE_WORKLOAD_memcopy_SMALL_ARGS})
  set_tests_properties(inorder.cli.prefetch_dram PROPERTIES PASS_REGULAR_EXPRESSION
    "L1D prefetches: useful / late +[1-9][0-9]*: [1-9][0-9]* / .*DRAM reads / writes. row hits / empty / conflicts +[1-9][0-9]* / 0. [1-9]")

  foreach(w IN LISTS CYCLESCOPE_WORKLOADS)
    add_test(NAME inorder.order.${w}
             COMMAND inorder_check --warmup 100000 --max 300000 ${_wd}/${w} ${CYCLESCOPE_WORKLOAD_${w}_SMALL_ARGS})
    add_test(NAME inorder.order_full.${w}
             COMMAND inorder_check --max 4000000 ${_wd}/${w} ${CYCLESCOPE_WORKLOAD_${w}_SMALL_ARGS})
    set_tests_properties(inorder.order_full.${w} PROPERTIES LABELS slow)
  endforeach()
else()
  message(STATUS "cyclescope: no workloads built; inorder.order.* and inorder.cli.run* tests are skipped")
endif()
# ---- end in-order machines ------------------------------------------------------------------
