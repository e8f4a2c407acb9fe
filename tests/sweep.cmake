# ---- sweeps and their merge ----------------------------------------------------------------
#   unit.sweep                 (tests/unit/test_sweep.c) the grid and its checks, the point hash,
#                              point files and resuming, the merged table, shell quoting
#   sweep.parallel             a 4-point sweep: the local pool and the job list run by GNU
#                              parallel give the same numbers; resume runs nothing; merge names
#                              and skips a foreign and a corrupt file
#   sweep.slurm                (slow) the array script run by a single-node Slurm whose daemons
#                              the test starts; skipped, with the reason, where they cannot start
#   sweep.usage.*, sweep.bad.*, merge.*   bad usage (exit 2) and bad input (exit 125), one line
set(_cs $<TARGET_FILE:cyclescope>)
set(_scripts ${CMAKE_CURRENT_SOURCE_DIR}/scripts)
set(_sw_out ${CMAKE_CURRENT_BINARY_DIR}/sweep-out)
file(MAKE_DIRECTORY ${_sw_out})

foreach(verb sweep merge)
  add_test(NAME cli.help.${verb} COMMAND ${_cs} ${verb} --help)
  set_tests_properties(cli.help.${verb} PROPERTIES PASS_REGULAR_EXPRESSION "usage: cyclescope ${verb}")
endforeach()

foreach(case
    "no_grid|no --grid given|sweep;-o;d;prog"
    "no_output|no output directory|sweep;--grid;core.rob_size=64;prog"
    "no_program|no program or trace given|sweep;--grid;core.rob_size=64;-o;d"
    "emit|--emit pbs: not parallel or slurm|sweep;--emit;pbs;--grid;core.rob_size=64;-o;d;prog"
    "jobs|-j 0: not a number of jobs|sweep;-j;0;--grid;core.rob_size=64;-o;d;prog"
    "report|--json, --pipeview and --report do not apply to a sweep|sweep;--report;x.html;--grid;core.rob_size=64;-o;d;prog"
    "slurm_time|--slurm-time 10\\*: unexpected character|sweep;--slurm-time;10*;--grid;core.rob_size=64;-o;d;prog"
    "analysis|--analysis nope: unknown analysis 'nope'|sweep;--analysis;nope;--grid;core.rob_size=64;-o;d;prog"
    "analysis_file|--analysis pipeview writes a file, which every point would write over|sweep;--analysis;stacks,pipeview:file=x.log;--grid;core.rob_size=64;-o;d;prog"
    "merge_none|no directory given|merge"
    "merge_two|give exactly one directory|merge;a;b")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 regex)
  list(SUBLIST parts 2 -1 args)
  add_test(NAME sweep.usage.${name} COMMAND ${_scripts}/expect_error.sh 2 "${regex}" ${_cs} ${args})
endforeach()

# A bad grid fails before any run, naming the key or value, as bad usage (exit 2, as a bad
# --set); no result file is written.
foreach(case
    "unknown_key|--grid: unknown key core.rob_sise|core.rob_sise=64,128"
    "bad_value|--grid: core.rob_size = big: expected an integer|core.rob_size=64,big"
    "bad_point|--grid point core.rob_size=16: core.iq_size = 36 is larger than core.rob_size = 16|core.rob_size=16,64"
    "syntax|--grid: 'core.rob_size' is not KEY=VALUE|core.rob_size"
    # ranges as whatif reads them (one parser, cs_grid_range): the same refusals
    "range_open|--grid core.rob_size=64\\.\\.: expected A\\.\\.B with A <= B \\(at most 256 values\\)|core.rob_size=64.."
    "range_reversed|--grid core.rob_size=128\\.\\.64: expected A\\.\\.B|core.rob_size=128..64"
    "range_step|--grid core.rob_size=64\\.\\.128\\.\\.0: expected A\\.\\.B|core.rob_size=64..128..0"
    "range_size|--grid core.rob_size=1\\.\\.257: expected A\\.\\.B with A <= B \\(at most 256 values\\)|core.rob_size=1..257"
    "range_point|--grid point core.rob_size=34: core.iq_size = 36 is larger than core.rob_size = 34|core.rob_size=34..64")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 regex)
  list(GET parts 2 grid)
  add_test(NAME sweep.bad.${name}
           COMMAND ${_scripts}/expect_error.sh 2 "${regex}" ${_cs} sweep --grid "${grid}" -o ${_sw_out}/bad-${name} no/such/prog)
endforeach()
# A range grid is the comma list's grid: the same points, in the same order (--emit writes one
# command per point, naming its settings; nothing runs, so the trace is not read)
add_test(NAME sweep.range_is_list
         COMMAND bash -c "rm -rf \"$0\"-r \"$0\"-l && \
                          \"$1\" sweep --emit parallel --grid 'core.rob_size=62..65 l1d.size=16K,32K' -o \"$0\"-r \"$2\" >/dev/null && \
                          \"$1\" sweep --emit parallel --grid 'core.rob_size=62,63,64,65 l1d.size=16K,32K' -o \"$0\"-l \"$2\" >/dev/null && \
                          grep -o \"sweep --grid '[^']*'\" \"$0\"-r/jobs.txt > \"$0\"-r.pts && \
                          grep -o \"sweep --grid '[^']*'\" \"$0\"-l/jobs.txt > \"$0\"-l.pts && \
                          [ $(wc -l < \"$0\"-r.pts) = 8 ] && cmp \"$0\"-r.pts \"$0\"-l.pts && head -1 \"$0\"-r.pts"
                 ${_sw_out}/range ${_cs} ${CMAKE_CURRENT_SOURCE_DIR}/corpus/cst/frames.cst)
set_tests_properties(sweep.range_is_list PROPERTIES PASS_REGULAR_EXPRESSION "^sweep --grid 'core.rob_size=62 l1d.size=16K'\n$")
add_test(NAME sweep.bad.program COMMAND ${_scripts}/expect_error.sh 125 "no/such/prog: cannot open"
         ${_cs} sweep --grid core.rob_size=64 -o ${_sw_out}/bad-program no/such/prog)
add_test(NAME merge.bad.empty COMMAND ${_scripts}/expect_error.sh 125 "no sweep results" ${_cs} merge ${_sw_out})
add_test(NAME merge.bad.missing COMMAND ${_scripts}/expect_error.sh 125 "no/such/dir: cannot read directory" ${_cs} merge no/such/dir)
# compare reads a sweep point as merge does: an edited one (its cycles halved, CPI and IPC made to
# agree) is refused by its checksum, never compared as measured (it was, before this test)
add_test(NAME compare.bad.edited_point
         COMMAND ${_scripts}/expect_error.sh 125 "edited_cycles_halved\\.json: checksum mismatch \\(corrupt or edited\\)"
                 ${_cs} compare ${CMAKE_CURRENT_SOURCE_DIR}/corpus/sweep/edited_cycles_halved.json
                 ${CMAKE_CURRENT_SOURCE_DIR}/corpus/sweep/minimal_current_result.json)

if(CYCLESCOPE_RISCV_CC)
  # the pool's jobs (sweep points, stacks --validate) read the caller's stdin when it is a
  # file, as run does (they read /dev/null: a program reading stdin was timed on no input)
  # compare reads sweep points (DIR/HASH.json: the result under "result"); it refused them
  add_test(NAME sweep.compare_points
           COMMAND bash -c "rm -rf \"$0\" && \"$1\" sweep --grid l1d.size=16K,32K -j 2 -o \"$0\" \"$2\" >/dev/null 2>&1 && \
                            \"$1\" compare \"$0\"/????????????????.json | grep -E '^Comparing 2 runs|^  cycles '"
                   ${_sw_out}/compare_points ${_cs} ${CYCLESCOPE_GUEST_DIR}/hello)
  set_tests_properties(sweep.compare_points PROPERTIES PASS_REGULAR_EXPRESSION "Comparing 2 runs.*\n  cycles ")
  # a failed point (a guest fault) has no result to compare: one line naming it and its error
  add_test(NAME compare.bad.failed_point
           COMMAND bash -c "rm -rf \"$0\" && { \"$1\" sweep --grid l1d.size=16K,32K -j 2 -o \"$0\" \"$2\" >/dev/null 2>&1; \
                            [ $? = 125 ] && exec \"$3\" 125 'json: a sweep point that has no result \\(status failed: .*segmentation fault' \
                            \"$1\" compare \"$0\"/????????????????.json; }"
                   ${_sw_out}/compare_failed ${_cs} ${CYCLESCOPE_GUEST_DIR}/segfault ${_scripts}/expect_error.sh)
  add_test(NAME sweep.stdin_file
           COMMAND ${_scripts}/pool_stdin.sh ${_cs} ${_sw_out}/stdin_file ${CYCLESCOPE_GUEST_DIR}/chunk_read
                   ${CYCLESCOPE_GUEST_DIR}/hello)
endif()
if(CYCLESCOPE_HAVE_WORKLOADS)
  add_test(NAME sweep.parallel COMMAND ${_scripts}/sweep_parallel.sh ${_cs} ${_sw_out}/parallel ${CYCLESCOPE_WORKLOAD_DIR}/sort 10000)
  set_tests_properties(sweep.parallel PROPERTIES SKIP_RETURN_CODE 77)
  add_test(NAME sweep.slurm COMMAND ${_scripts}/sweep_slurm.sh ${_cs} ${_sw_out}/slurm ${CYCLESCOPE_WORKLOAD_DIR}/sort 10000)
  set_tests_properties(sweep.slurm PROPERTIES SKIP_RETURN_CODE 77 LABELS slow TIMEOUT 600)
endif()
