# ---- statmodel: Noonburg's statistical models (docs/statmodel.md) ----------------------------
#   unit.statmodel            (tests/unit/test_statmodel.c) the thesis' worked examples (Tables
#                             3.1-3.3, Figure 3.6, Tables 4.1-4.2, IPC 0.55 and 11/19, the §5.3
#                             aliasing loop), value-prediction chains and a missing pointer chase
#                             against closed forms, Gauss-Seidel against a closed form, --max-states
#   statmodel.cli             analyse sort once; its mispredictions and cache misses equal the
#                             simulator's on the same µops; one-pipe modelled = simulated to 1e-4
#                             for four predictors; three-pipe runs; a grid and its report; .cst
#                             and live profiles agree; damaged profile, out-of-order config,
#                             --max-states refused
#   statmodel.usage.*         bad usage (exit 2), one line
#   fuzz.statmodel.corpus     (tests/fuzz.cmake) the profile reader on tests/corpus/statmodel
set(_cs $<TARGET_FILE:cyclescope>)
set(_scripts ${CMAKE_CURRENT_SOURCE_DIR}/scripts)
add_test(NAME cli.help.model COMMAND ${_cs} model --help)
set_tests_properties(cli.help.model PROPERTIES PASS_REGULAR_EXPRESSION "usage: cyclescope model")
foreach(case
    "verb|give analyze, solve or info|model"
    "sub|frob: not analyze, solve or info|model;frob"
    "no_out|no output file|model;analyze;prog"
    "window|--window 9: 2 to 8|model;analyze;--window;9;-o;x;prog"
    "no_profile|no profile given|model;solve"
    "max_states|--max-states 0: not a count|model;solve;--max-states;0;x.smp")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 regex)
  list(SUBLIST parts 2 -1 args)
  add_test(NAME statmodel.usage.${name} COMMAND ${_scripts}/expect_error.sh 2 "${regex}" ${_cs} ${args})
endforeach()
add_test(NAME statmodel.bad.missing COMMAND ${_scripts}/expect_error.sh 125 "no/such.smp" ${_cs} model solve no/such.smp)
if(CYCLESCOPE_HAVE_WORKLOADS)
  add_test(NAME statmodel.cli COMMAND ${_scripts}/statmodel_cli.sh ${_cs} ${CMAKE_CURRENT_BINARY_DIR}/statmodel-out
           ${CYCLESCOPE_WORKLOAD_DIR})
endif()
