# ---- the documentation's commands run as the pages show them ------------------------------
#   docs.commands          every `cyclescope …` line in the code blocks of README.md and
#                          docs/*.md runs in a scratch directory (placeholders replaced by bundled
#                          workloads, detailed timing capped at --max 200000), exits as the page
#                          says and prints the words of the output the page shows
#                          (tests/scripts/docs_commands.py, its docstring has the rules)
#   docs.commands.full     the same, each command exactly as written (slow)
#   docs.config_list       `config list` says what each machine is
#   docs.simpoint_bb_dir   `simpoint --bb` over an earlier program's directory: the stale manifest
#                          goes, and `run --simpoints` on it says why it cannot time it
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND AND CYCLESCOPE_HAVE_WORKLOADS)
  set(_cs $<TARGET_FILE:cyclescope>)
  set(_scripts ${CMAKE_CURRENT_SOURCE_DIR}/scripts)
  add_test(NAME docs.commands
           COMMAND ${Python3_EXECUTABLE} ${_scripts}/docs_commands.py ${_cs} ${PROJECT_SOURCE_DIR}
                   ${CYCLESCOPE_WORKLOAD_DIR})
  add_test(NAME docs.commands.full
           COMMAND ${Python3_EXECUTABLE} ${_scripts}/docs_commands.py ${_cs} ${PROJECT_SOURCE_DIR}
                   ${CYCLESCOPE_WORKLOAD_DIR} --full)
  set_tests_properties(docs.commands.full PROPERTIES LABELS slow TIMEOUT 3600)
  add_test(NAME docs.simpoint_bb_dir
           COMMAND ${_scripts}/simpoint_bb_dir.sh ${_cs} ${CYCLESCOPE_WORKLOAD_DIR}/sort 2000)
endif()

# `config list` says what each shipped machine is (a name and "out-of-order" told a first user
# too little to choose by)
add_test(NAME docs.config_list COMMAND $<TARGET_FILE:cyclescope> config list)
set_tests_properties(docs.config_list PROPERTIES PASS_REGULAR_EXPRESSION
                     "ooo4 +out-of-order, 4-wide dispatch: [^\n]*default[^\n]*\nbdw [^\n]*\nknl +out-of-order, 2-wide[^\n]*\ninorder1 +in-order: Noonburg's one-pipe")
