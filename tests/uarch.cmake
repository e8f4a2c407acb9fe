# ---- the timing models: configuration errors, properties on real programs, probes ------
set(_cs $<TARGET_FILE:cyclescope>)
set(_scripts ${CMAKE_CURRENT_SOURCE_DIR}/scripts)

# Bad configuration: one line naming the key, exit 2 (bad usage).
foreach(case
    "unknown_key|core.rob_sise=128|unknown key core.rob_sise"
    "out_of_range|core.rob_size=0|core.rob_size = 0: expected an integer from 1 to 65536"
    "not_a_number|l2.latency=fast|l2.latency = fast"
    "width_over_rob|core.rob_size=2|core.fetch_width = 4 is larger than core.rob_size = 2"
    "bad_enum|bpred.type=oracle|bpred.type = oracle: expected one of"
    "bad_class|fu.alu.classes=int-alu teleport|fu.alu.classes: unknown operation class 'teleport'"
    "uncovered_class|fu.alu.classes=int-alu|operation class cond-branch is in no"
    "lsq_of_one|core.lsq_size=1|core.lsq_size = 1: an atomic takes a load and a store entry at once")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 assignment)
  list(GET parts 2 regex)
  add_test(NAME uarch.config.${name}
           COMMAND ${_scripts}/expect_error.sh 2 "${regex}" ${_cs} config show --set ${assignment} ooo4)
endforeach()
add_test(NAME uarch.config.unknown_name
         COMMAND ${_scripts}/expect_error.sh 2 "no configuration named 'haswell'" ${_cs} config show haswell)
foreach(cfg ooo4 bdw knl)
  add_test(NAME uarch.config.show.${cfg} COMMAND ${_cs} config show ${cfg})
  set_tests_properties(uarch.config.show.${cfg} PROPERTIES PASS_REGULAR_EXPRESSION "\\[fu\\.[a-z]+\\]")
endforeach()

if(CYCLESCOPE_HAVE_WORKLOADS)
  set(_w ${CYCLESCOPE_WORKLOAD_DIR})
  # The deadlock detector stops a run that commits nothing for core.deadlock_cycles while
  # nothing is on its way (a model bug). A wait longer than the limit is not one: these runs
  # (a 5000-cycle memory on the least limit, 1000; a 4 KB line over a 1-byte channel) were
  # stopped as deadlocks (exit 125) before; they end with the cycles of the default limit.
  add_test(NAME uarch.long_wait.ooo4_data
           COMMAND ${_scripts}/long_wait.sh ${_cs} --set ideal.icache=yes --set memory.latency=5000 -- ${_w}/ptr_chase 4)
  add_test(NAME uarch.long_wait.ooo4_fetch
           COMMAND ${_scripts}/long_wait.sh ${_cs} --set memory.latency=5000 -- ${_w}/ptr_chase 1)
  add_test(NAME uarch.long_wait.inorder3
           COMMAND ${_scripts}/long_wait.sh ${_cs} --config inorder3 --set memory.latency=5000 -- ${_w}/sort 200)
  add_test(NAME uarch.long_wait.inorder1_dcache
           COMMAND ${_scripts}/long_wait.sh ${_cs} --config inorder1 --set ideal.dcache=no --set memory.latency=5000 -- ${_w}/sort 200)
  add_test(NAME uarch.long_wait.knl_transfer
           COMMAND ${_scripts}/long_wait.sh ${_cs} --config knl --set l1d.line=4096 --set l2.line=4096 --set memory.bandwidth=1
                   -- ${_w}/memcopy 16)
  # Random configurations (tests/scripts/random_config.py; docs/uarch.md "Random configurations"):
  # ten drawn machines of either model x two workloads through run, trace record + sim,
  # stallscope, rpstacks + whatif --verify and profile, every invariant checked; forty
  # invalid ones refused with one line naming the key; and the configurations the campaign
  # found bugs with (tests/configs/random). The found set's hang limit is 300 s a command: its
  # stallscope on long_memory_inorder.ini takes 16 s alone and ran past 120 s on a loaded machine;
  # the drawn set's too (20 s in all alone, a command past 120 s at a load of 10-19): 300 s both.
  find_package(Python3 COMPONENTS Interpreter)
  add_test(NAME uarch.random_configs
           COMMAND ${Python3_EXECUTABLE} ${_scripts}/random_config.py check --cs ${_cs} --workloads ${_w}
                   --seeds 1-10 --invalid 1-40 --work memcopy,polybench_like --max 100000 --timeout 300)
  add_test(NAME uarch.random_configs.found
           COMMAND ${Python3_EXECUTABLE} ${_scripts}/random_config.py check --cs ${_cs} --workloads ${_w} --seeds ""
                   --ini ${CMAKE_CURRENT_SOURCE_DIR}/configs/random/rpstacks_first_store_waited.ini
                         ${CMAKE_CURRENT_SOURCE_DIR}/configs/random/long_memory_ooo.ini
                         ${CMAKE_CURRENT_SOURCE_DIR}/configs/random/long_memory_inorder.ini
                         ${CMAKE_CURRENT_SOURCE_DIR}/configs/random/long_transfer_ooo.ini
                         ${CMAKE_CURRENT_SOURCE_DIR}/configs/random/prefetch_fills_unlimited_mshrs.ini
                         ${CMAKE_CURRENT_SOURCE_DIR}/configs/random/ideal_alu_behind_stalled_load.ini
                   --work sort,memcopy --max 100000 --timeout 300)
  # A line that waits for the L1s-L2 link after the memory channel (random_config.py gen 66): fft's
  # stores, where rpstacks' store-buffer channel edge counted a constraint violation
  add_test(NAME uarch.random_configs.channel_then_link
           COMMAND ${Python3_EXECUTABLE} ${_scripts}/random_config.py check --cs ${_cs} --workloads ${_w} --seeds ""
                   --ini ${CMAKE_CURRENT_SOURCE_DIR}/configs/random/channel_then_link_ooo.ini
                   --work fft --max 100000 --timeout 120)
  # The old name rpstacks of ooo4 (issue 18): the same machine and numbers, one notice on stderr
  add_test(NAME uarch.config.renamed_rpstacks COMMAND ${_scripts}/config_alias.sh ${_cs} ${_w}/sort 300)
  # a file starting from another configuration: `base = NAME|FILE.ini` (docs/uarch.md "Configuration")
  add_test(NAME uarch.config.base COMMAND ${_scripts}/config_base.sh ${_cs} ${_w}/sort 300)
  # cmake --install gives a tool that reads its installed configurations, not the source tree's
  add_test(NAME uarch.config.installed COMMAND ${_scripts}/install_check.sh ${CMAKE_COMMAND} ${CMAKE_BINARY_DIR} ${_w}/sort 300)
  add_test(NAME uarch.pipeview COMMAND ${_scripts}/pipeview_check.sh ${_cs} ${_w}/sort 2000)
  # An imported ChampSim trace times as the original with 1-cycle arithmetic on the ALU pool (issue 12)
  add_test(NAME uarch.import_equivalence COMMAND ${_scripts}/import_equivalence.sh ${_cs} ${_w}/stencil 8)

  # Properties on every workload and configuration (tests/tools/uarch_check.c):
  #  strict: with the issue stage unconstrained, idealising never slows a run and
  #          raising a latency never speeds it up; identical runs are bit-identical;
  #  shipped: on the configurations as shipped, within the list-scheduling anomaly
  #          bound documented in docs/uarch.md.
  set(_wide_ooo4 fu.alu fu.longalu fu.fp fu.load fu.store)
  set(_wide_bdw fu.alu fu.mul fu.div fu.fp fu.fpdiv fu.load fu.store)
  set(_wide_knl fu.alu fu.imul fu.idiv fu.vpu fu.fpdiv fu.mem)
  foreach(cfg ooo4 bdw knl)
    # prefetchers off: prefetching is not monotone (timeliness; docs/uarch.md), the anomaly
    # bound below keeps them on
    set(_wide --set core.issue_width=64 --set prefetch.icache_next_line=no --set prefetch.dcache_next_line=no
              --set prefetch.dcache_stride=0)
    foreach(pool IN LISTS _wide_${cfg})
      list(APPEND _wide --set ${pool}.count=64)
    endforeach()
    foreach(w IN LISTS CYCLESCOPE_WORKLOADS)
      add_test(NAME uarch.monotone.${cfg}.${w}
               COMMAND uarch_check --config ${cfg} ${_wide} --warmup 50000 --max 250000
                       ${_w}/${w} ${CYCLESCOPE_WORKLOAD_${w}_SMALL_ARGS})
      add_test(NAME uarch.anomaly_bound.${cfg}.${w}
               COMMAND uarch_check --config ${cfg} --tolerance 2 --warmup 50000 --max 250000
                       ${_w}/${w} ${CYCLESCOPE_WORKLOAD_${w}_SMALL_ARGS})
      set_tests_properties(uarch.monotone.${cfg}.${w} uarch.anomaly_bound.${cfg}.${w} PROPERTIES LABELS slow)
    endforeach()
  endforeach()
endif()
