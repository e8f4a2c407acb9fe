# ---- RpStacks (docs/rpstacks.md) ----
#   rpstacks.cli.*        usage errors of rpstacks and whatif: no output, the in-order model,
#                         a structure refused, an unknown event named, a damaged file, a
#                         --max-scale below 1, a --max-stacks of 0
#   rpstacks.cli.json_is_output / .csv_is_input: an output that is the .rps itself refused
#   rpstacks.cli.guest_options  rpstacks --seed 5 times what run --seed 5 --env-fixed does (the
#                         fixed environment its default), the .rps records the guest options and
#                         whatif --verify re-simulates that run exactly; a bad --seed is usage
#   rpstacks.e2e.json     rpstacks --json against the text report and the simulated cycles
#   rpstacks.e2e.*        rpstacks on a workload, then whatif with --set, --grid, --csv, --json,
#                         --report (checked as the other HTML reports are) and --verify (two
#                         re-simulations through the pool); .outside_design_space: a latency
#                         above --max-scale × the baseline's warned about
#   rpstacks.e2e.unique   --unique combination recorded in the .rps byte, the JSON and the text;
#                         the default records event; --unique both: exit 2 naming it; --max-stacks
#                         5 and the default 6 recorded in the JSON and printed by whatif
#   rpstacks.e2e.ideal_alu  fp_chain under ideal.alu: no negative share of the largest path, the events
#                         sum to it (= simulated), whatif refuses the arithmetic latencies the machine ignores
#   rpstacks.e2e.store_at_exit  a store draining after the last commit (knl): rpstacks' simulated
#                         cycles = run's = the graph's (the drain its drain nodes) = whatif's baseline; memory
#                         and L2 latency what-ifs = re-simulation (the drain's and the first fetch's fills)
#   rpstacks.e2e.store_buffer  knl (store buffer 16), ptr_chase's set-up and memcopy (200 k µops): graph ==
#                         simulated, whatif memory.latency 100 and 480 within 5% of --verify's re-simulation
#                         (before the store-drain nodes: +18.7% / -36.6% and +102% / -43%)
#   rpstacks.e2e.tlb      ptr_chase with a DTLB, then an ITLB and L2 TLB: graph == simulated cycles,
#                         walks weigh their latency, whatif on walk latencies within 3% of re-simulation
#   rpstacks.accuracy.*   the §V-B study, small (bench/bench_rpstacks.c): the two biggest
#                         bottleneck events halved / reduced to 10-25% / both, re-simulated
#                         through the pool. .small: ptr_chase, 8 k µops from the start (memory
#                         and I-cache bound): the graph within 2% (Figure 10's goal), RpStacks
#                         within 5% of every re-simulation; .small_fp: fft after 300 k µops of
#                         warm-up (FP bound): graph and RpStacks within 5%; the slow one
#                         (rpstacks.accuracy): ptr_chase and matmul, 30 k µops, 2% and 5%
# The unit tests (unit.rpstacks) check the similarity, the reduction, the predictions, the
# file, and the graph against re-simulation on streams with known timing.
set(_cs $<TARGET_FILE:cyclescope>)
set(_scripts ${CMAKE_CURRENT_SOURCE_DIR}/scripts)
set(_rps_corpus ${CMAKE_CURRENT_SOURCE_DIR}/corpus/rps)

add_test(NAME rpstacks.cli.help COMMAND ${_cs} rpstacks --help)
set_tests_properties(rpstacks.cli.help PROPERTIES PASS_REGULAR_EXPRESSION "usage: cyclescope rpstacks")
add_test(NAME rpstacks.cli.no_output
         COMMAND ${_scripts}/expect_error.sh 2 "no output file given" ${_cs} rpstacks some/prog)
add_test(NAME rpstacks.cli.bad_similarity
         COMMAND ${_scripts}/expect_error.sh 2 "--similarity 2: expected a number from 0 to 1" ${_cs} rpstacks
                 --similarity 2 -o x.rps some/prog)
add_test(NAME rpstacks.cli.bad_unique
         COMMAND ${_scripts}/expect_error.sh 2 "--unique yes: expected event, combination or off" ${_cs} rpstacks
                 --unique yes -o x.rps some/prog)
add_test(NAME rpstacks.cli.bad_max_scale
         COMMAND ${_scripts}/expect_error.sh 2 "--max-scale 0.5: expected 0 .no bound. or a number from 1" ${_cs} rpstacks
                 --max-scale 0.5 -o x.rps some/prog)
add_test(NAME rpstacks.cli.bad_max_stacks
         COMMAND ${_scripts}/expect_error.sh 2 "--max-stacks 0: expected a count from 1 to 4096" ${_cs} rpstacks
                 --max-stacks 0 -o x.rps some/prog)
# a ChampSim trace (raw, xz, cloudsuite records) is named as one, with the import that makes it a .cst;
# a file that is neither ELF nor trace is still "not an ELF file"
set(_champsim ${CMAKE_CURRENT_SOURCE_DIR}/corpus/champsim)
add_test(NAME rpstacks.cli.champsim_trace
         COMMAND ${_scripts}/expect_error.sh 2
                 "x86.champsim is a ChampSim trace, and rpstacks takes a program or a .cst trace: import it first .cyclescope trace import-champsim ('[^']*|[^ ]*)x86.champsim'? -o TRACE.cst."
                 ${_cs} rpstacks -o x.rps ${_champsim}/x86.champsim)
add_test(NAME rpstacks.cli.champsim_xz
         COMMAND ${_scripts}/expect_error.sh 2 "x86.champsim.xz is a ChampSim trace.*import-champsim ('[^']*|[^ ]*)x86.champsim.xz'? -o"
                 ${_cs} rpstacks -o x.rps ${_champsim}/x86.champsim.xz)
add_test(NAME rpstacks.cli.champsim_cloudsuite
         COMMAND ${_scripts}/expect_error.sh 2 "cloudsuite.champsim is a ChampSim trace.*import-champsim --cloudsuite ('[^']*|[^ ]*)cloudsuite.champsim'? -o"
                 ${_cs} rpstacks -o x.rps ${_champsim}/cloudsuite.champsim)
# the commands those refusals suggest run as printed when the path holds a space (rpstacks'
# import, stacks' sim: tests/scripts/suggested_command.sh)
add_test(NAME cli.suggested_command_runs
         COMMAND ${_scripts}/suggested_command.sh ${_cs} ${CMAKE_CURRENT_SOURCE_DIR}/corpus)
add_test(NAME rpstacks.cli.not_elf
         COMMAND ${_scripts}/expect_error.sh 125 "README.md: not an ELF file$" ${_cs} rpstacks -o x.rps
                 ${PROJECT_SOURCE_DIR}/README.md)
add_test(NAME rpstacks.cli.structure
         COMMAND ${_scripts}/expect_error.sh 2 "core.rob_size is a structure, not a latency.*own .cyclescope rpstacks. run"
                 ${_cs} whatif ${_rps_corpus}/small.rps --set core.rob_size=64)
add_test(NAME rpstacks.cli.predictor
         COMMAND ${_scripts}/expect_error.sh 2 "bpred.type is a structure" ${_cs} whatif ${_rps_corpus}/small.rps
                 --grid "l1d.latency=1..3" --set bpred.type=bimodal)
add_test(NAME rpstacks.cli.unknown_event
         COMMAND ${_scripts}/expect_error.sh 2 "latency.warp-drive: not an event the stacks carry" ${_cs} whatif
                 ${_rps_corpus}/small.rps --set latency.warp-drive=3)
add_test(NAME rpstacks.cli.bad_grid
         COMMAND ${_scripts}/expect_error.sh 2 "--grid l1d.latency=5..2: expected A..B" ${_cs} whatif
                 ${_rps_corpus}/small.rps --grid "l1d.latency=5..2")
add_test(NAME rpstacks.cli.damaged
         COMMAND ${_scripts}/expect_error.sh 125 "bad_checksum.rps: checksum mismatch" ${_cs} whatif
                 ${_rps_corpus}/bad_checksum.rps --set l1d.latency=2)
add_test(NAME rpstacks.cli.bad_uniqueness_byte
         COMMAND ${_scripts}/expect_error.sh 125 "bad_uniqueness.rps: uniqueness byte 3: expected 0 .off., 1 .by event. or 2"
                 ${_cs} whatif ${_rps_corpus}/bad_uniqueness.rps --set l1d.latency=2)

if(CYCLESCOPE_RISCV_CC)
  # the guest options of run (--seed …), recorded in the .rps for whatif --verify
  add_test(NAME rpstacks.cli.guest_options
           COMMAND ${_scripts}/rpstacks_guest_options.sh ${_cs} ${CYCLESCOPE_GUEST_DIR})
endif()

if(CYCLESCOPE_HAVE_WORKLOADS)
  set(_w ${CYCLESCOPE_WORKLOAD_DIR})
  add_test(NAME rpstacks.cli.inorder
           COMMAND ${_scripts}/expect_error.sh 2 "inorder3: an in-order machine is not modelled.*configurations it models: ooo4, bdw, knl" ${_cs} rpstacks --config inorder3
                   -o x.rps ${_w}/sort 100)
  if(CYCLESCOPE_RISCV_CC)
    # a store still draining after the last commit: the simulated cycles are the core's
    add_test(NAME rpstacks.e2e.store_at_exit
             COMMAND ${_scripts}/rpstacks_store_at_exit.sh ${_cs} ${CYCLESCOPE_GUEST_DIR}/store_at_exit)
  endif()
  # knl's store buffer fills: the drain nodes make whatif on memory latency follow re-simulation
  add_test(NAME rpstacks.e2e.store_buffer COMMAND ${_scripts}/rpstacks_store_buffer.sh ${_cs} ${_w})
  # ideal.alu: arithmetic weighed at one cycle, as the core ran it; its latencies not scalable
  add_test(NAME rpstacks.e2e.ideal_alu COMMAND ${_scripts}/rpstacks_ideal_alu.sh ${_cs} ${_w})
  # as an analysis of run: refused before the run (exit 2), not after timing all of it (125)
  add_test(NAME rpstacks.cli.inorder_analysis
           COMMAND ${_scripts}/expect_error.sh 2 "analysis rpstacks: the dependence graph models the out-of-order core .configuration inorder3"
                   ${_cs} run --no-report --config inorder3 --analysis rpstacks ${_w}/sort 100)
  set(_rps ${CMAKE_CURRENT_BINARY_DIR}/rpstacks-e2e.rps)
  add_test(NAME rpstacks.e2e.build COMMAND ${_cs} rpstacks --max 6000 --segment 2000 ${_w}/ptr_chase 4 -o ${_rps})
  set_tests_properties(rpstacks.e2e.build PROPERTIES FIXTURES_SETUP rps_e2e PASS_REGULAR_EXPRESSION
    "graph longest path [0-9]+ cycles \\(\\+0.000% vs simulated\\). 0 constraint violations.*Representative stacks:")
  add_test(NAME rpstacks.e2e.whatif
           COMMAND ${_cs} whatif ${_rps} --set memory.latency=66 --grid "l1d.latency=2,4 latency.load=1..2"
                   --csv ${CMAKE_CURRENT_BINARY_DIR}/rpstacks-e2e.csv --json ${CMAKE_CURRENT_BINARY_DIR}/rpstacks-e2e.json
                   --report ${CMAKE_CURRENT_BINARY_DIR}/rpstacks-e2e.html --verify 2 --jobs 2)
  set_tests_properties(rpstacks.e2e.whatif PROPERTIES FIXTURES_REQUIRED rps_e2e PASS_REGULAR_EXPRESSION
    "4 design points predicted.*Verification: 2 points re-simulated.*average \\|error\\|.*HTML report: ")
  # a latency beyond the design space the stacks were reduced for (0 to --max-scale × the
  # baseline's, default 4×): a warning
  add_test(NAME rpstacks.e2e.outside_design_space COMMAND ${_cs} whatif ${_rps} --grid "l1d.latency=0,1,4,16,17,20")
  set_tests_properties(rpstacks.e2e.outside_design_space PROPERTIES FIXTURES_REQUIRED rps_e2e PASS_REGULAR_EXPRESSION
    "warning: 2 design points set a latency above 4× the baseline's.*6 design points predicted")
  add_test(NAME rpstacks.cli.csv_is_input
           COMMAND ${_scripts}/expect_error.sh 125 "the output is also an input" ${_cs} whatif ${_rps}
                   --set l1d.latency=2 --grid "l1d.latency=1..2" --csv ${_rps})
  set_tests_properties(rpstacks.cli.csv_is_input PROPERTIES DEPENDS rpstacks.e2e.whatif FIXTURES_REQUIRED rps_e2e)
  add_test(NAME rpstacks.cli.json_is_output
           COMMAND ${_scripts}/expect_error.sh 2 "--json x.rps: the same file as the .rps output" ${_cs} rpstacks
                   --json x.rps -o x.rps ${_w}/ptr_chase 4)
  add_test(NAME rpstacks.e2e.json
           COMMAND ${_scripts}/rpstacks_json_check.sh ${_cs} ${CMAKE_CURRENT_BINARY_DIR} ${_w}/ptr_chase 4)
  add_test(NAME rpstacks.e2e.unique
           COMMAND ${_scripts}/rpstacks_unique_check.sh ${_cs} ${CMAKE_CURRENT_BINARY_DIR} ${_w}/ptr_chase 4)
  add_test(NAME rpstacks.e2e.tlb
           COMMAND ${_scripts}/rpstacks_tlb_check.sh ${_cs} ${CMAKE_CURRENT_BINARY_DIR} ${_w}/ptr_chase 4)
  add_test(NAME rpstacks.e2e.html COMMAND ${_scripts}/rpstacks_html_check.sh ${CMAKE_CURRENT_BINARY_DIR}/rpstacks-e2e.html)
  set_tests_properties(rpstacks.e2e.html PROPERTIES DEPENDS rpstacks.e2e.whatif FIXTURES_REQUIRED rps_e2e)
  # a .cst trace instead of a program, and whatif re-simulating from the trace
  add_test(NAME rpstacks.e2e.trace
           COMMAND sh -c "\"$0\" trace record --max 8000 -o \"$1\"/rpstacks-e2e.cst \"$2\"/sort 1000 >/dev/null && \"$0\" rpstacks -o \"$1\"/rpstacks-e2e-trace.rps \"$1\"/rpstacks-e2e.cst && \"$0\" whatif \"$1\"/rpstacks-e2e-trace.rps --set l1d.latency=2 --verify 1"
                   ${_cs} ${CMAKE_CURRENT_BINARY_DIR} ${_w})
  set_tests_properties(rpstacks.e2e.trace PROPERTIES PASS_REGULAR_EXPRESSION
    "graph longest path [0-9]+ cycles \\(\\+0.000% vs simulated\\).*Verification: 1 point re-simulated")
  add_test(NAME rpstacks.accuracy.small
           COMMAND bench_rpstacks --max 8000 --segment 2000 --jobs 2 --check-graph 2 --check-max 5 ptr_chase)
  add_test(NAME rpstacks.accuracy.small_fp
           COMMAND bench_rpstacks --warmup 300000 --max 10000 --segment 2000 --jobs 2 --check-graph 5 --check-max 5 fft)
  # the bench's --max-scale reaches the analysis (it was dropped before), and a bad one is refused
  add_test(NAME rpstacks.bench.max_scale
           COMMAND bench_rpstacks --max 4000 --segment 2000 --max-scale 2 ptr_chase)
  set_tests_properties(rpstacks.bench.max_scale PROPERTIES PASS_REGULAR_EXPRESSION
    "analysis: rpstacks:segment=2000:[^\n]*:max-scale=2:keep=yes")
  # the refusals: their exit status and one line on stderr (expect_error.sh), so that under the
  # ASan build a leak report (LeakSanitizer's lines, its exit status) fails them
  add_test(NAME rpstacks.bench.max_scale_refused
           COMMAND ${_scripts}/expect_error.sh 2 "bench_rpstacks: --max-scale 0.5: expected 0 \\(no bound\\) or from 1 to"
                   $<TARGET_FILE:bench_rpstacks> --max-scale 0.5 ptr_chase)
  # --config reaches the run and the re-simulations (knl: a store buffer of 16, separate queues) and
  # --point's design points are re-simulated: ptr_chase's set-up, memory 240 -> 100 and -> 480,
  # graph and RpStacks within 5% (docs/rpstacks.md, "The store buffer"; without --config the bench
  # refused the option)
  add_test(NAME rpstacks.bench.config
           COMMAND bench_rpstacks --config knl --max 200000 --jobs 2 --point memory.latency=100
                   --point memory.latency=480 --check-graph 5 --check-max 5 ptr_chase=4)
  set_tests_properties(rpstacks.bench.config PROPERTIES PASS_REGULAR_EXPRESSION
    "config: knl. analysis: .*memory.latency=100 +simulated .*memory.latency=480 +simulated .*\\| given points \\| 2 \\|")
  # stores whose requests join fills in flight (knl memcopy and randaccess: next lines' prefetches,
  # started by the previous line's request) and wait for miss registers prefetches' fills hold
  # (bdw ptr_chase's set-up): the probes' PEV_STORE_JOIN and PEV_FILL tie each wait to the request
  # that started the fill (docs/rpstacks.md, "Prefetch fills"). Memory 240 -> 480 on knl: graph and
  # RpStacks within 5% of re-simulation (before: graph +44.1% and +44.0%); 180 -> 480 on bdw: the
  # graph within 5% (before +14.1%; RpStacks' -26.6% there is the reduction's merge, not checked).
  # The graph equals the simulated cycles with no violation (--check-graph) in both
  add_test(NAME rpstacks.bench.prefetch_join
           COMMAND bench_rpstacks --config knl --max 200000 --jobs 2 --point memory.latency=480
                   --check-graph 5 --check-max 5 memcopy= randaccess=65536)
  set_tests_properties(rpstacks.bench.prefetch_join PROPERTIES PASS_REGULAR_EXPRESSION
    "\\| given points \\| 2 \\|.*max \\|error\\| 0.0000%, 0 constraint violations")
  add_test(NAME rpstacks.bench.prefetch_mshr
           COMMAND bench_rpstacks --config bdw --max 200000 --jobs 2 --point memory.latency=480
                   --check-graph 5 ptr_chase=4)
  set_tests_properties(rpstacks.bench.prefetch_mshr PROPERTIES PASS_REGULAR_EXPRESSION
    "\\| given points \\| 1 \\|.*max \\|error\\| 0.0000%, 0 constraint violations")
  # the memory channel's edge from a store whose request joined a fill that had already landed
  # (its A two cycles after the line): bdw polybench_like, 200 k µops, had 801 constraint
  # violations before 2026-11-29 (500 k: 2 235, the graph +0.004%), 0 after (docs/rpstacks.md)
  add_test(NAME rpstacks.e2e.channel_landed
           COMMAND ${_cs} rpstacks --config bdw --max 200000 --threads 2
                   -o ${CMAKE_CURRENT_BINARY_DIR}/rpstacks-channel-landed.rps ${_w}/polybench_like)
  set_tests_properties(rpstacks.e2e.channel_landed PROPERTIES PASS_REGULAR_EXPRESSION
    "graph longest path [0-9]+ cycles \\(\\+0.000% vs simulated\\); 0 constraint violations")
  add_test(NAME rpstacks.bench.point_refused
           COMMAND ${_scripts}/expect_error.sh 2 "bench_rpstacks: --point 'rob.size=3': expected KEY=V"
                   $<TARGET_FILE:bench_rpstacks> --point rob.size=3 ptr_chase)
  # a run that does not start (no such program): exit 1, one line naming it, and under ASan no
  # leak (the parsed analysis options were left allocated until 2026-11-27)
  add_test(NAME rpstacks.bench.start_refused
           COMMAND ${_scripts}/expect_error.sh 1 "bench_rpstacks: no_such_workload: .*no_such_workload: cannot open"
                   $<TARGET_FILE:bench_rpstacks> --max 1000 no_such_workload)
  add_test(NAME rpstacks.accuracy
           COMMAND bench_rpstacks --max 30000 --jobs 2 --check-graph 2 --check-max 5 ptr_chase matmul=4)
  set_tests_properties(rpstacks.accuracy PROPERTIES LABELS slow)
endif()
# rpstacks.whatif_verify_stdin: whatif --verify's pool jobs read the caller's stdin: a pipe is kept
# in a file first (they read /dev/null and the baseline was refused); another input than the one
# the .rps records (version 5) is refused before anything runs, one line, exit 2; one not recorded
# (a pipe at rpstacks) by the baseline's cycles with no simulated number shown
# (tests/scripts/whatif_verify_stdin.sh)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME rpstacks.whatif_verify_stdin COMMAND ${_scripts}/whatif_verify_stdin.sh ${_cs}
           ${CMAKE_CURRENT_BINARY_DIR}/whatif-verify-stdin ${CYCLESCOPE_GUEST_DIR}/chunk_read)
  set_tests_properties(rpstacks.whatif_verify_stdin PROPERTIES TIMEOUT 300)
  # the pool's jobs get a write-only stdout, as `> FILE` gives rpstacks' own run: a program
  # branching on it (glibc's fdopen, brotli) made whatif --verify refuse its baseline
  add_test(NAME rpstacks.whatif_verify_stdout_mode COMMAND ${_scripts}/pool_stdout_mode.sh ${_cs}
           ${CMAKE_CURRENT_BINARY_DIR}/whatif-verify-stdout-mode ${CYCLESCOPE_GUEST_DIR}/stdout_mode)
endif()
