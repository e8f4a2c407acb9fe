# ---- sampling: basic block vectors and SimPoint ------------------------------------------
#   unit.sampling              (tests/unit/test_sampling.c) BBVs against the µop records, the
#                              .bb file both ways and its bad inputs, clustering on known
#                              phases, the BIC by hand, the directory, sampled timing against
#                              the full run (every interval: within 1%; one point: exact)
#   simpoint.cli               the verb end to end: files, determinism, trace = program, the
#                              .bb as the reference SimPoint's parser reads it, --bb
#   simpoint.usage.*           bad usage: exit 2, one line
#   simpoint.bad.*             bad input: exit 125, one line naming the file
#   fuzz.bbv.corpus, fuzz.simpoints.corpus   (tests/fuzz.cmake) replay tests/corpus/{bbv,simpoints}
set(_cs $<TARGET_FILE:cyclescope>)
set(_scripts ${CMAKE_CURRENT_SOURCE_DIR}/scripts)
set(_sp_out ${CMAKE_CURRENT_BINARY_DIR}/simpoint-out)
file(MAKE_DIRECTORY ${_sp_out})

add_test(NAME cli.help.simpoint COMMAND ${_cs} simpoint --help)
set_tests_properties(cli.help.simpoint PROPERTIES PASS_REGULAR_EXPRESSION "usage: cyclescope simpoint")

foreach(case
    "no_output|no output directory \\(-o DIR\\)|simpoint;prog"
    "no_program|no program given|simpoint;-o;d"
    "interval_zero|--interval 0: not a positive count|simpoint;--interval;0;-o;d;prog"
    "k_zero|--k 0: give at least 1 cluster|simpoint;--k;0;-o;d;prog"
    "max_k|max k 5000 out of range \\(1..1000\\)|simpoint;--max-k;5000;-o;d;prog"
    "bic|--bic-threshold 2: out of range|simpoint;--bic-threshold;2;-o;d;prog"
    "dims|projection dimensions 0 out of range|simpoint;--dims;0;-o;d;prog"
    "bb_and_program|give --bb FILE or a program, not both|simpoint;--bb;x.bb;-o;d;prog"
    "unknown|unknown option|simpoint;--frobnicate;-o;d;prog"
    "max_zero|--max 0: not a positive count|simpoint;--max;0;-o;d;prog"
    "max_bb|--max applies to a program, not to --bb|simpoint;--max;5;--bb;x.bb;-o;d")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 regex)
  list(SUBLIST parts 2 -1 args)
  add_test(NAME simpoint.usage.${name} COMMAND ${_scripts}/expect_error.sh 2 "${regex}" ${_cs} ${args})
endforeach()

set(_bbv ${CMAKE_CURRENT_SOURCE_DIR}/corpus/bbv)
foreach(case
    "bb_checksum|bad_checksum.bb: checksum mismatch|--bb;${_bbv}/bad_checksum.bb"
    "bb_truncated|truncated.bb: truncated: no checksum line|--bb;${_bbv}/truncated.bb"
    "bb_entry|bad_entry.bb:1: malformed entry|--bb;${_bbv}/bad_entry.bb"
    "bb_version|future_version.bb: cyclescope-bbv version 9|--bb;${_bbv}/future_version.bb"
    "bb_missing|no/such.bb: cannot open|--bb;no/such.bb"
    "program_missing|no/such/prog: cannot open|no/such/prog")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 regex)
  list(SUBLIST parts 2 -1 args)
  add_test(NAME simpoint.bad.${name} COMMAND ${_scripts}/expect_error.sh 125 "${regex}" ${_cs} simpoint -o ${_sp_out}/bad ${args})
endforeach()
if(CYCLESCOPE_RISCV_CC)
  # a program that faults has no complete profile: no points, the status of the fault (128 + SIGSEGV)
  add_test(NAME simpoint.bad.guest_fault
           COMMAND ${_scripts}/expect_error.sh 139 "segfault: segmentation fault" ${_cs} simpoint -o ${_sp_out}/bad ${CYCLESCOPE_GUEST_DIR}/segfault)
endif()
if(CYCLESCOPE_RISCV_CC AND CYCLESCOPE_QEMU)
  # a program reading a file (and stdin from a file) across many intervals: the points'
  # forked copies must not move the fast-forward's file offsets
  add_test(NAME simpoint.file_input
           COMMAND ${_scripts}/simpoint_file_input.sh ${_cs} ${CYCLESCOPE_QEMU} ${_sp_out}/file_input
                   ${CYCLESCOPE_GUEST_DIR}/chunk_read ${CYCLESCOPE_GUEST_DIR}/hello)
endif()
if(CYCLESCOPE_RISCV_CC AND CYCLESCOPE_QEMU)
  # a program reading all of stdin in one read() just after a point's start: the point's
  # copy took its offset while the fast-forward went on and read first (a race); the copy
  # read end of file and the run was refused (exit 125). Now: exit 0, the program's output
  # qemu's, the estimate's instructions the full run's (within 0.1%), --jobs 1 and 3
  # (--env-fixed: the same points wherever the build is; before the fix 4 failures in 4)
  add_test(NAME simpoint.late_read COMMAND bash -c "set -eu; cs=$1 qemu=$2 out=$3 prog=$4 in=$5
    rm -rf $out && mkdir -p $out
    $cs simpoint --env-fixed --interval 20000 --k 12 -o $out/sp $prog <$in >/dev/null 2>&1
    $cs run --env-fixed --no-report --json $out/full.json $prog <$in >/dev/null 2>&1
    expected=$($qemu $prog <$in)
    for jobs in 1 3; do
      got=$($cs run --env-fixed --no-report --simpoints $out/sp --jobs $jobs --json $out/est.json $prog <$in 2>$out/err) ||
        { echo \"--jobs $jobs: $(cat $out/err)\"; exit 1; }
      grep -qxF \"$expected\" <<<\"$got\"
      jq -e --slurpfile f $out/full.json '((.instructions - $f[0].instructions) | fabs) <= 0.001 * $f[0].instructions' $out/est.json
    done" _ ${_cs} ${CYCLESCOPE_QEMU} ${_sp_out}/late_read ${CYCLESCOPE_GUEST_DIR}/late_read
    ${CMAKE_CURRENT_SOURCE_DIR}/guest/chunk_read.c)
endif()
if(CYCLESCOPE_HAVE_WORKLOADS)
  add_test(NAME simpoint.cli COMMAND ${_scripts}/simpoint_cli.sh ${_cs} ${_sp_out}/cli ${CYCLESCOPE_WORKLOAD_DIR}/sort 10000)
  # a run of fewer than 10 intervals draws one warning naming the count (sort 2000: 261 140
  # instructions, 3 intervals of 100 000); 27 intervals of 10 000 none
  add_test(NAME simpoint.few_intervals_warning
           COMMAND bash -c "set -u; mkdir -p \"$1\" && few=$(\"$0\" simpoint -o \"$1\"/few --interval 100000 \"$2\" 2000 2>&1 >/dev/null) &&
                    many=$(\"$0\" simpoint -o \"$1\"/many --interval 10000 \"$2\" 2000 2>&1 >/dev/null) &&
                    echo \"$few\" | grep -q 'warning: .*only 3 intervals of 100000 instructions' &&
                    [ $(echo \"$few\" | grep -c warning) = 1 ] && ! echo \"$many\" | grep -q warning && echo ok"
                   ${_cs} ${_sp_out}/intervals ${CYCLESCOPE_WORKLOAD_DIR}/sort)
  set_tests_properties(simpoint.few_intervals_warning PROPERTIES PASS_REGULAR_EXPRESSION "^ok")
endif()

# run/sim --simpoints: the estimate against the full run, the trace equal to the program
#   simpoint.run               (tests/scripts/simpoint_run.sh)
#   simpoint.run.*             refused: another program or arguments, a missing directory,
#                              --max with --simpoints
if(CYCLESCOPE_HAVE_WORKLOADS)
  add_test(NAME simpoint.run COMMAND ${_scripts}/simpoint_run.sh ${_cs} ${_sp_out}/run ${CYCLESCOPE_WORKLOAD_DIR}/sort 10000)
  add_test(NAME simpoint.run.fixture COMMAND ${_cs} simpoint --interval 100K -o ${_sp_out}/fixture ${CYCLESCOPE_WORKLOAD_DIR}/sort 10000)
  set_tests_properties(simpoint.run.fixture PROPERTIES FIXTURES_SETUP simpoint_dir)
  foreach(case
      "other_args|125|made for '.*sort 10000', not '.*sort 20000'|${CYCLESCOPE_WORKLOAD_DIR}/sort;20000"
      "other_program|125|made for a different executable|${CYCLESCOPE_WORKLOAD_DIR}/tree;10000"
      "with_max|2|no --max or --pipeview with it|--max;1M;${CYCLESCOPE_WORKLOAD_DIR}/sort;10000")
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 name)
    list(GET parts 1 code)
    list(GET parts 2 regex)
    list(SUBLIST parts 3 -1 args)
    add_test(NAME simpoint.run.${name} COMMAND ${_scripts}/expect_error.sh ${code} "${regex}"
             ${_cs} run --no-report --simpoints ${_sp_out}/fixture ${args})
    set_tests_properties(simpoint.run.${name} PROPERTIES FIXTURES_REQUIRED simpoint_dir)
  endforeach()
  add_test(NAME simpoint.run.missing_dir COMMAND ${_scripts}/expect_error.sh 125 "no/such/dir: not a directory"
           ${_cs} run --no-report --simpoints no/such/dir ${CYCLESCOPE_WORKLOAD_DIR}/sort 10000)
endif()

# The SimPoint goal at a small scale (slow, ~15 s): three multi-phase programs of about
# 300 intervals of 100 K instructions; against their full detailed runs the estimate's
# CPI error must be at most 2% on average and 5% at worst, with at least 10x fewer
# instructions timed in detail (bench/bench_simpoint.c has the full-size study).
if(CYCLESCOPE_HAVE_WORKLOADS)
  add_test(NAME simpoint.accuracy
           COMMAND bench_simpoint --interval 100K --jobs 2 --check-avg 0.02 --check-worst 0.05 --check-fewer 10
                   coremark_like=300 polybench_like=80 embench_like=10)
  set_tests_properties(simpoint.accuracy PROPERTIES LABELS slow TIMEOUT 900)
endif()
