# ---- results people and scripts can trust (issue 18) ---------------------------------
#   results.usage.*        bad usage: one line, exit 2 (a mistyped configuration lists the
#                          names, a mistyped key suggests the nearest, a key the model does not
#                          read is named, an unknown option is named once)
#   results.guest_fault    a program that faults (segfault, illegal instruction): run, stacks (and --validate),
#                          stallscope (--compare too), rpstacks write their results and exit
#                          128 + signal, the JSON's guest a fault; an abort (134) passed through by
#                          --compare and --validate (tests/scripts/guest_fault.sh)
#   results.guest_ends     every verb that runs a program x {exits 3, SIGSEGV, abort(), stopped by
#                          --max}: exit status, one stderr line naming the program, outputs written
#                          and saying the same (tests/scripts/guest_ends.sh, tests/guest/fail_after.c)
#   results.cli            exit status of a failing guest, --json - alone on stdout, outputs
#                          checked before the run, output directories, HTML override marks,
#                          in-order widths and config show (tests/scripts/results_cli.sh)
#   results.bad_input      inputs and surroundings damaged on purpose: a full or closed stdout
#                          is a failure, a closed descriptor never an output's
#                          (tests/scripts/bad_input.sh)
#   results.docs_flags     README and docs/*.md options against every verb's --help, and back
#                          (tests/scripts/docs_flags.py)
#   results.json_schema    every JSON output valid against docs/result.schema.json, its
#                          provenance checked against sha256sum and config show
#   results.schema.VERB    rpstacks, whatif, profile report/annotate, model solve/info, merge
#                          (and each sweep point's result), stallscope, run --simpoints: the
#                          JSON valid against docs/VERB.schema.json, its header present and true
set(_cs $<TARGET_FILE:cyclescope>)
set(_scripts ${CMAKE_CURRENT_SOURCE_DIR}/scripts)

foreach(case
    "config_name|no configuration named 'bwd': did you mean bdw\\? \\(the configurations: ooo4, bdw, knl, inorder1, inorder3|run;--config;bwd;prog"
    "config_far|no configuration named 'haswell' \\(the configurations: ooo4, bdw, knl, inorder1, inorder3|run;--config;haswell;prog"
    "set_key|unknown key core.rob_sze \\(did you mean core.rob_size\\?\\)|run;--set;core.rob_sze=4;prog"
    "set_key_part|unknown key core.rob \\(did you mean core.rob_size\\?\\)|run;--set;core.rob=64;prog"
    "set_key_parts|unknown key core.width \\(did you mean one of core.fetch_width, core.dispatch_width, core.issue_width, core.commit_width\\?\\)|run;--set;core.width=2;prog"
    "unread_key|--set core.rob_size=4: the in-order model does not read core.rob_size|run;--config;inorder3;--set;core.rob_size=4;prog"
    "unread_key_ooo|--set inorder.issue_buffer=4: the out-of-order model does not read inorder.issue_buffer|run;--set;inorder.issue_buffer=4;prog"
    "unknown_option|^cyclescope run: unknown option --bogus|run;--bogus;prog"
    "missing_value|^cyclescope sim: option --json needs a value|sim;--json"
    "stacks_option|^cyclescope stacks: unknown option --nope|stacks;--nope;prog"
    "report_dir|/nonexistent/r.html: cannot write|run;--report;/nonexistent/r.html;prog"
    # the other verbs check their outputs before anything runs or is read, too (item 5)
    "out_rpstacks|/nonexistent/r.json: cannot write|rpstacks;--json;/nonexistent/r.json;-o;r.rps;prog"
    "out_whatif|/nonexistent/w.csv: cannot write|whatif;--grid;l1d.latency=2,3;--csv;/nonexistent/w.csv;no.rps"
    "out_model_solve|/nonexistent/m.json: cannot write|model;solve;--json;/nonexistent/m.json;no.smp"
    "out_model_analyze|/nonexistent/m.smp: cannot write|model;analyze;-o;/nonexistent/m.smp;prog"
    "out_profile_record|/nonexistent/p.prof: cannot write|profile;record;-o;/nonexistent/p.prof;prog"
    "out_profile_report|/nonexistent/p.html: cannot write|profile;report;--html;/nonexistent/p.html;no.prof"
    "out_trace_record|/nonexistent/t.cst: cannot write|trace;record;-o;/nonexistent/t.cst;prog"
    "out_simpoint|/nonexistent/sp: cannot write|simpoint;-o;/nonexistent/sp;prog"
    # a mistyped configuration is bad usage in every verb (item 6)
    "config_rpstacks|no configuration named 'bwd': did you mean bdw|rpstacks;--config;bwd;-o;r.rps;prog"
    "config_model|no configuration named 'inorder4': did you mean|model;solve;--config;inorder4;no.smp"
    "config_profile|no configuration named 'bwd': did you mean bdw|profile;record;--config;bwd;-o;p.prof;prog"
    "config_stallscope_b|no configuration named 'bwd': did you mean bdw|stallscope;--compare;ooo4;bwd;prog"
    # a configuration the method does not model is bad usage, checked before any run
    "model_ooo|ooo4: an out-of-order machine is not modelled.*they model: inorder1, inorder3|model;solve;--config;ooo4;no.smp"
    "rpstacks_inorder|inorder1: an in-order machine is not modelled.*it models: ooo4, bdw, knl|rpstacks;--config;inorder1;-o;r.rps;prog"
    # an existing file that is not an .ini configuration says what is wrong with it
    "config_not_ini_path|results.cmake: not an .ini configuration file|run;--config;${CMAKE_CURRENT_SOURCE_DIR}/results.cmake;prog"
    # an unknown option is named, once, in every verb (item 6)
    "unknown_short|^cyclescope run: unknown option -x |run;-x;prog"
    "unknown_whatif|^cyclescope whatif: unknown option --bogus|whatif;--bogus;no.rps"
    "unknown_model|^cyclescope model solve: unknown option --bogus|model;solve;--bogus;no.smp"
    "unknown_trace|^cyclescope trace: unknown option --bogus|trace;record;--bogus;prog")
  # (the grid's errors are bad usage too: tests/sweep.cmake)
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 regex)
  list(SUBLIST parts 2 -1 args)
  add_test(NAME results.usage.${name} COMMAND ${_scripts}/expect_error.sh 2 "${regex}" ${_cs} ${args})
endforeach()

# an existing file named without a directory or .ini is not taken for a configuration's name
add_test(NAME results.usage.config_not_ini_name COMMAND ${_scripts}/expect_error.sh 2
         "^cyclescope: results.cmake: not a configuration file \\(a configuration file is FILE.ini" ${_cs} run --config
         results.cmake prog)
set_tests_properties(results.usage.config_not_ini_name PROPERTIES WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})

# the help these messages point to, for verbs with subcommands too
add_test(NAME results.help_subcommand COMMAND ${_cs} model solve --help)
set_tests_properties(results.help_subcommand PROPERTIES PASS_REGULAR_EXPRESSION "usage: cyclescope model")

# config list: an argument is bad usage (it was ignored); configurations that do not load (a
# broken install, a wrong CYCLESCOPE_CONFIGS) end it with one line and 125 (it exited 0)
add_test(NAME results.usage.config_list_argument
         COMMAND ${_scripts}/expect_error.sh 2 "config: list takes no arguments \\(ooo4\\)" ${_cs} config list ooo4)
add_test(NAME results.config_list_broken
         COMMAND ${CMAKE_COMMAND} -E env CYCLESCOPE_CONFIGS=/nonexistent-hdocs ${_scripts}/expect_error.sh 125
                 "^cyclescope: /nonexistent-hdocs: 5 of the shipped configurations do not load" ${_cs} config list)

# the options README and docs/*.md name are in the verbs' --help, the options the verbs accept
# are too, and none is listed twice (model's --grid, --report and info were missing, stallscope
# listed --interval twice with two meanings; rpstacks' max-stacks= and profile's exe= were not in
# `run --analysis help`)
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  if(CYCLESCOPE_HAVE_WORKLOADS) # and every key of every analysis in `run --analysis help`
    add_test(NAME results.docs_flags COMMAND ${Python3_EXECUTABLE} ${_scripts}/docs_flags.py ${_cs}
                                             ${PROJECT_SOURCE_DIR} ${CYCLESCOPE_WORKLOAD_DIR}/sort)
  else()
    add_test(NAME results.docs_flags
             COMMAND ${Python3_EXECUTABLE} ${_scripts}/docs_flags.py ${_cs} ${PROJECT_SOURCE_DIR})
  endif()
endif()

# a sweep over a key the model does not read would give identical points
add_test(NAME results.sweep_unread_key
         COMMAND ${_scripts}/expect_error.sh 2 "--grid core.rob_size: the in-order model does not read it"
                 ${_cs} sweep --config inorder3 --grid core.rob_size=64,128 -o ${CMAKE_CURRENT_BINARY_DIR}/results-sweep no/such/prog)

if(CYCLESCOPE_HAVE_WORKLOADS)
  add_test(NAME results.cli COMMAND ${_scripts}/results_cli.sh ${_cs} ${CYCLESCOPE_WORKLOAD_DIR} ${CYCLESCOPE_GUEST_DIR})
  # damaged inputs and surroundings: a full or closed stdout, closed descriptors, … (hbad)
  add_test(NAME results.bad_input COMMAND ${_scripts}/bad_input.sh ${_cs} ${CYCLESCOPE_WORKLOAD_DIR})
  # tables to a pipe whose reader is gone (`run PROG | head`): ended by SIGPIPE, silently, as
  # before the host's SIGPIPE was ignored while a guest runs (it then said "write failed", 125)
  add_test(NAME results.stdout_pipe_closed
           COMMAND ${_scripts}/closed_pipe_stdout.sh ${_cs} run --max 1000 ${CYCLESCOPE_WORKLOAD_DIR}/dep_add)
  # the systematic audit (docs/errors.md): every verb given bad option values, damaged and foreign
  # inputs, unwritable outputs; each case one line on stderr naming it, exit 1..127, no file
  # changed. The fast subset here (875 cases); every combination (2015) labelled slow.
  if(Python3_FOUND)
    add_test(NAME results.hostile_audit
             COMMAND ${Python3_EXECUTABLE} ${_scripts}/hostile_audit.py ${_cs} ${CYCLESCOPE_WORKLOAD_DIR}
                     ${CYCLESCOPE_GUEST_DIR})
    add_test(NAME results.hostile_audit_full
             COMMAND ${Python3_EXECUTABLE} ${_scripts}/hostile_audit.py ${_cs} ${CYCLESCOPE_WORKLOAD_DIR}
                     ${CYCLESCOPE_GUEST_DIR} --full)
    set_tests_properties(results.hostile_audit_full PROPERTIES LABELS slow TIMEOUT 3600)
  endif()
  add_test(NAME results.json_schema
           COMMAND ${_scripts}/json_schema.sh ${_cs} ${CYCLESCOPE_WORKLOAD_DIR} ${PROJECT_SOURCE_DIR}/docs/result.schema.json)
  set_tests_properties(results.json_schema PROPERTIES SKIP_RETURN_CODE 77)
  # the other verbs' JSON (rpstacks, whatif, profile, model, merge): strict, documented fields, --json - alone
  add_test(NAME results.verbs_json
           COMMAND ${_scripts}/verbs_json.sh ${_cs} ${CYCLESCOPE_WORKLOAD_DIR} ${PROJECT_SOURCE_DIR}/docs/result.schema.json)
  # a sweep of something that is no program fails once, before any point (not as every point)
  add_test(NAME results.sweep_not_elf
           COMMAND ${_scripts}/expect_error.sh 125 "README.md: not an ELF file"
                   ${_cs} sweep --grid core.rob_size=64,128 -o ${CMAKE_CURRENT_BINARY_DIR}/results-sweep-not-elf
                   ${PROJECT_SOURCE_DIR}/README.md)
  if(CYCLESCOPE_RISCV_CC)
    # a sweep whose points all fail (a faulting program): exit 125 with one line on stderr saying
    # why, the first point's error (stderr was empty)
    # (and run again, it still exits 125: the failed points are not run again, and said so)
    add_test(NAME results.sweep_points_failed
             COMMAND bash -c "rm -rf \"$2\" && \"$0\" 125 '^cyclescope: 2 of 2 points failed, the first: .*segfault: segmentation fault' \
                     \"$1\" sweep --grid core.rob_size=64,128 -o \"$2\" \"$3\" && \
                     \"$0\" 125 '^cyclescope: 2 points failed in an earlier run of this sweep, and were not run again' \
                     \"$1\" sweep --grid core.rob_size=64,128 -o \"$2\" \"$3\""
                     ${_scripts}/expect_error.sh ${_cs} ${CMAKE_CURRENT_BINARY_DIR}/results-sweep-failed
                     ${CYCLESCOPE_GUEST_DIR}/segfault)
    # a program that faults: results written, exit 128 + signal (run, stacks, stallscope, rpstacks)
    add_test(NAME results.guest_fault
             COMMAND ${_scripts}/guest_fault.sh ${_cs} ${CYCLESCOPE_GUEST_DIR} ${PROJECT_SOURCE_DIR}/docs)
    # a run that fails leaves no output directory: its own is removed, and cyclescope-out/ too
    # when this run made it (it stayed, empty)
    add_test(NAME results.failed_run_leaves_nothing
             COMMAND bash -c "d=$(mktemp -d) && cd \"$d\" && \"$1\" 125 'read from an empty pipe would block forever' \
                     \"$0\" run \"$2\" block && [ -z \"$(ls -A)\" ]; rc=$?; rm -rf \"$d\"; exit $rc"
             ${_cs} ${_scripts}/expect_error.sh ${CYCLESCOPE_GUEST_DIR}/pipe_use)
    # every verb x {exit 3, SIGSEGV, abort(), --max}: status, one line naming the program, outputs
    # and their guest state; run --simpoints and sim of the trace after them
    add_test(NAME results.guest_ends COMMAND ${_scripts}/guest_ends.sh ${_cs} ${CYCLESCOPE_GUEST_DIR})
    # a count past 2^53 is read exactly: --seed 9007199254740993 was read as …992, the same
    # random stream (seeded_loop prints its getrandom-drawn loop length and a value)
    add_test(NAME results.bad_input_seed
             COMMAND bash -c "a=$(\"$0\" exec --seed 9007199254740992 \"$1\") && b=$(\"$0\" exec --seed 9007199254740993 \"$1\") && \
                     [ -n \"$a\" ] && [ \"$a\" != \"$b\" ]" ${_cs} ${CYCLESCOPE_GUEST_DIR}/seeded_loop)
  endif()
  # the terminal text of two runs of the same design is the same but for the speed line: the table's
  # width once followed the speed string, so runs at 9.8 and 12.7 M instructions/s printed two tables
  add_test(NAME results.text_repeatable
           COMMAND bash -c "a=$(\"$0\" run --max 200000 --analysis none --env-fixed --no-report \"$1/sort\") && b=$(\"$0\" run --max 200000 --analysis none --env-fixed --no-report \"$1/sort\") && \
                   grep -q '^  simulation speed: ' <<<\"$a\" && ! grep -q 'simulation speed  ' <<<\"$a\" && \
                   diff <(grep -v '^  simulation speed: ' <<<\"$a\") <(grep -v '^  simulation speed: ' <<<\"$b\")"
           ${_cs} ${CYCLESCOPE_WORKLOAD_DIR})
  # every verb that runs a program ends with its failure (rpstacks, profile, model, simpoint, sweep)
  add_test(NAME results.guest_exit COMMAND ${_scripts}/guest_exit.sh ${_cs} ${CYCLESCOPE_WORKLOAD_DIR})
  # every other verb's JSON against its schema in docs/, its provenance header present and true
  foreach(verb rpstacks rpstacks_partial whatif profile_report profile_report_set profile_annotate profile_imiss model_solve model_solve_grid model_info merge stallscope
          simpoints simpoint_manifest)
    add_test(NAME results.schema.${verb}
             COMMAND ${_scripts}/verb_schema.sh ${_cs} ${CYCLESCOPE_WORKLOAD_DIR} ${PROJECT_SOURCE_DIR}/docs ${verb})
    set_tests_properties(results.schema.${verb} PROPERTIES SKIP_RETURN_CODE 77)
  endforeach()
endif()

if(CYCLESCOPE_HAVE_WORKLOADS)
  # --interval N: exact per-interval stacks and statistics (tests/scripts/intervals_check.sh)
  add_test(NAME results.intervals COMMAND ${_scripts}/intervals_check.sh ${_cs} ${CYCLESCOPE_WORKLOAD_DIR})
  # the new charts in headless Chromium (skipped without it; slow: Chromium starts four times)
  add_test(NAME results.html.browser
           COMMAND ${_scripts}/results_browser.sh ${_cs} ${CYCLESCOPE_WORKLOAD_DIR} ${_scripts}/report_browser.sh)
  set_tests_properties(results.html.browser PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS slow)
endif()
if(CYCLESCOPE_HAVE_WORKLOADS)
  # the stacks' presentation: fixed order, ranges, uncertain marks, no FP work, the validation summary
  add_test(NAME results.presentation COMMAND ${_scripts}/stacks_presentation.sh ${_cs} ${CYCLESCOPE_WORKLOAD_DIR})
endif()
if(CYCLESCOPE_HAVE_WORKLOADS)
  # cyclescope compare: the JSONs' numbers and their changes, HTML side by side, bad inputs
  add_test(NAME results.compare COMMAND ${_scripts}/compare_check.sh ${_cs} ${CYCLESCOPE_WORKLOAD_DIR})
endif()
if(CYCLESCOPE_HAVE_WORKLOADS)
  # --pipeview FILE.gz and --pipeview-from/--pipeview-count
  add_test(NAME results.pipeview COMMAND ${_scripts}/pipeview_window.sh ${_cs} ${CYCLESCOPE_WORKLOAD_DIR})
endif()
if(CYCLESCOPE_HAVE_WORKLOADS)
  # trace export-champsim .xz on several threads, --preset
  add_test(NAME results.export_xz COMMAND ${_scripts}/export_xz.sh ${_cs} ${CYCLESCOPE_WORKLOAD_DIR})
  set_tests_properties(results.export_xz PROPERTIES SKIP_RETURN_CODE 77)
endif()
