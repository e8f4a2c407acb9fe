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
#   statmodel.matrix          --method matrix (Ch. 2): one-pipe one-stage machine = simulated to
#                             1e-4 for four predictors; caches and multi-cycle pipes refused
#   statmodel.addr_bits       §5.5 address bits: hash with 4 bits has more sequences and models
#                             closer to its simulation than with 0; a version-2 profile is
#                             read (no bits), a version-4 one refused
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
    "addr_bits|--addr-bits 13: 0 to 12|model;analyze;--addr-bits;13;-o;x;prog"
    "no_profile|no profile given|model;solve"
    "option_after|unknown option --opt|model;solve;x.smp;--opt"
    "info_option_after|unknown option --frob|model;info;x.smp;--frob"
    "max_states|--max-states 0: not a count|model;solve;--max-states;0;x.smp")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 regex)
  list(SUBLIST parts 2 -1 args)
  add_test(NAME statmodel.usage.${name} COMMAND ${_scripts}/expect_error.sh 2 "${regex}" ${_cs} ${args})
endforeach()
# A configuration the models do not express is bad usage (exit 2, one line naming it), as a bad
# --set is, whichever check finds it: a pipe deeper than the profile's distances exited 125 (the
# solver found it) while a 2-way cache or a gshare exited 2; a grid point of either, and a grid
# past 1000 points, also exited 125. A state space past --max-states stays 125 (the run could not
# be done: tests/scripts/statmodel_cli.sh).
set(_sm_prof ${CMAKE_CURRENT_SOURCE_DIR}/corpus/statmodel/list_1500_addr2.smp)
foreach(case
    "fp_stages|model solve: inorder3: pipe\\.fp with 40 stages is not modelled|--set;pipe.fp.stages=40"
    "int_stages|model solve: inorder3: pipe\\.int with 2 stages is not modelled|--set;pipe.int.stages=2"
    "one_pipe_stages|model solve: inorder1: a 7-stage pipe is not modelled|--config;inorder1;--set;pipe.exec.stages=7"
    "cache|model solve: inorder3: l1d: a 2-way cache is not modelled|--set;l1d.assoc=2"
    "grid_point_stages|model solve: inorder3 pipe\\.fp\\.stages=6: pipe\\.fp with 6 stages is not modelled|--grid;pipe.fp.stages=4..6"
    "grid_points|model solve: --grid: 1025 points \\(at most 1000\\)|--grid;pipe.fp.stages=1..5 pipe.mem.stages=1..5 memory.latency=1..41")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 regex)
  list(SUBLIST parts 2 -1 args)
  add_test(NAME statmodel.not_modelled.${name}
           COMMAND ${_scripts}/expect_error.sh 2 "${regex}" ${_cs} model solve ${args} ${_sm_prof})
endforeach()
add_test(NAME statmodel.bad.missing COMMAND ${_scripts}/expect_error.sh 125 "no/such.smp" ${_cs} model solve no/such.smp)
if(CYCLESCOPE_HAVE_WORKLOADS)
  add_test(NAME statmodel.cli COMMAND ${_scripts}/statmodel_cli.sh ${_cs} ${CMAKE_CURRENT_BINARY_DIR}/statmodel-out
           ${CYCLESCOPE_WORKLOAD_DIR})
endif()
# statmodel.interrupt: analyze --max counts instructions, its progress bar, Ctrl-C writes a
# partial profile that info/solve mark (tests/scripts/statmodel_interrupt.sh; about 6 s)
if(CYCLESCOPE_HAVE_WORKLOADS)
  add_test(NAME statmodel.interrupt COMMAND ${_scripts}/statmodel_interrupt.sh ${_cs}
           ${CMAKE_CURRENT_BINARY_DIR}/statmodel-interrupt ${CYCLESCOPE_WORKLOAD_DIR})
endif()
if(CYCLESCOPE_HAVE_WORKLOADS)
  add_test(NAME statmodel.addr_bits COMMAND ${_scripts}/statmodel_addr_bits.sh ${_cs}
           ${CMAKE_CURRENT_BINARY_DIR}/statmodel-addr-bits ${CYCLESCOPE_WORKLOAD_DIR}
           ${CMAKE_CURRENT_SOURCE_DIR}/corpus/statmodel)
endif()
# statmodel.matrix: --method matrix (Ch. 2) end to end on hash (100 k instructions): the one-pipe
# machine with a one-stage pipe (every cycle issues one, each misprediction one bubble) is modelled
# within 1e-4 of its simulation for none, static, bimodal and perfect prediction; inorder3's caches
# and its 5-stage FP pipe are refused as bad usage (exit 2, before anything is solved) with what
# is not modelled.
if(CYCLESCOPE_HAVE_WORKLOADS)
  add_test(NAME statmodel.matrix COMMAND bash -c "set -eu; cs=$1 out=$2 wl=$3; mkdir -p \"$out\"
    \"$cs\" model analyze --max 100000 -o \"$out\"/hash.smp \"$wl\"/hash >/dev/null 2>&1
    for pred in none static bimodal perfect; do
      \"$cs\" model solve --method matrix --config inorder1 --set pipe.exec.stages=1 --set bpred.type=$pred \
          --compare-sim --json \"$out\"/one-$pred.json \"$out\"/hash.smp >/dev/null
      python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[2], d[\"ipc\"], d[\"simulated_ipc\"]); \
sys.exit(0 if abs(d[\"ipc\"]-d[\"simulated_ipc\"])<=1e-4*d[\"simulated_ipc\"] else 1)' \"$out\"/one-$pred.json $pred
    done
    rc=0; \"$cs\" model solve --method matrix \"$out\"/hash.smp >\"$out\"/out1 2>\"$out\"/err1 || rc=$?
    test $rc = 2; grep -q 'caches are not modelled' \"$out\"/err1; test ! -s \"$out\"/out1
    rc=0; \"$cs\" model solve --method matrix --set ideal.icache=yes --set ideal.dcache=yes \"$out\"/hash.smp 2>\"$out\"/err2 || rc=$?
    test $rc = 2; grep -q 'pipe.fp has 5 stages' \"$out\"/err2" _ ${_cs} ${CMAKE_CURRENT_BINARY_DIR}/statmodel-matrix ${CYCLESCOPE_WORKLOAD_DIR})
endif()
add_test(NAME statmodel.usage.method COMMAND ${_scripts}/expect_error.sh 2 "--method frob: markov or matrix" ${_cs} model solve --method frob x.smp)
# statmodel.compare_env: --compare-sim replays the analysed µops wherever it is started: the
# recorded absolute program path as the guest's argv[0], --env-fixed's environment when the
# analysis had it (.smp version 5, flag 2); simulated IPC = `run`'s to the bit (about 1 s)
if(CYCLESCOPE_HAVE_WORKLOADS)
  add_test(NAME statmodel.compare_env COMMAND ${_scripts}/statmodel_compare_env.sh ${_cs}
           ${CMAKE_CURRENT_BINARY_DIR}/statmodel-compare-env ${CYCLESCOPE_WORKLOAD_DIR})
endif()
# statmodel.compare_seed: `model analyze --seed N` records N (.smp version 6) and --compare-sim runs
# the program with it again: a program whose loop length comes from getrandom (seeded_loop: 212 080
# iterations with --seed 1, 81 212 with the default) simulates to `run --seed 1`'s IPC to the bit;
# `model info` shows the seed; a version-5 profile reads as the default seed; a trace's profile
# with a seed is refused
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME statmodel.compare_seed COMMAND bash -c "set -eu; cs=$1 out=$2 prog=$3 corpus=$4; mkdir -p \"$out\"
    \"$cs\" model analyze --env-fixed --seed 1 -o \"$out\"/seed1.smp \"$prog\" >/dev/null 2>&1
    \"$cs\" run --env-fixed --seed 1 --config inorder3 --analysis none --no-report --json \"$out\"/run1.json \"$prog\" >/dev/null 2>&1
    \"$cs\" run --env-fixed --config inorder3 --analysis none --no-report --json \"$out\"/run0.json \"$prog\" >/dev/null 2>&1
    \"$cs\" model solve --config inorder3 --compare-sim --json \"$out\"/solve1.json \"$out\"/seed1.smp >/dev/null 2>\"$out\"/solve1.err
    test ! -s \"$out\"/solve1.err
    \"$cs\" model info \"$out\"/seed1.smp | grep -q '^guest seed: 1 '
    \"$cs\" model info \"$corpus\"/v5_dep_add_400_env_fixed.smp | grep -q '^guest seed: the default'
    \"$cs\" trace record --max 2000 -o \"$out\"/t.cst \"$prog\" >/dev/null 2>&1
    \"$cs\" model analyze -o \"$out\"/t.smp \"$out\"/t.cst >/dev/null 2>&1
    python3 -c 'import struct,sys,zlib; d=bytearray(open(sys.argv[1],\"rb\").read()[:-4]); d[48:56]=struct.pack(\"<Q\",3); \
open(sys.argv[2],\"wb\").write(bytes(d)+struct.pack(\"<I\",zlib.crc32(bytes(d))))' \"$out\"/t.smp \"$out\"/t-seeded.smp
    ! \"$cs\" model info \"$out\"/t-seeded.smp 2>\"$out\"/t-seeded.err
    grep -q 'bad source description' \"$out\"/t-seeded.err
    python3 -c 'import json,sys; r1,r0,s=(json.load(open(p)) for p in sys.argv[1:4]); \
print(\"instructions seed 1\", r1[\"instructions\"], \"default\", r0[\"instructions\"], \"run IPC\", r1[\"ipc\"], \"compare-sim IPC\", s[\"simulated_ipc\"]); \
sys.exit(0 if r1[\"instructions\"] != r0[\"instructions\"] and s[\"simulated_ipc\"] == r1[\"ipc\"] else 1)' \
      \"$out\"/run1.json \"$out\"/run0.json \"$out\"/solve1.json" _
    ${_cs} ${CMAKE_CURRENT_BINARY_DIR}/statmodel-compare-seed ${CYCLESCOPE_GUEST_DIR}/seeded_loop
    ${CMAKE_CURRENT_SOURCE_DIR}/corpus/statmodel)
endif()
# statmodel.compare_allow_write: a program that writes its output (truncate_sync DIR) analysed with
# `model analyze --allow-write DIR` runs again under `model solve --compare-sim --allow-write DIR`
# with the same write access: the analysed µops to the one (no warning that the re-run timed
# another stream; one-pipe model within 5%) (the option did not exist: the re-run,
# refused its file, ended early and timed another stream — libpng's pngtest, docs/sandbox.md §14)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME statmodel.compare_allow_write COMMAND bash -c "set -eu; cs=$1 out=$2 prog=$3; rm -rf \"$out\"; mkdir -p \"$out\"/area
    \"$cs\" model analyze --env-fixed --allow-write \"$out\"/area -o \"$out\"/w.smp \"$prog\" \"$out\"/area >/dev/null 2>&1
    \"$cs\" model solve --config inorder1 --compare-sim --allow-write \"$out\"/area --json \"$out\"/w.json \"$out\"/w.smp >/dev/null 2>\"$out\"/w.err
    test ! -s \"$out\"/w.err
    python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(\"simulated µops\", s[\"simulated_uops\"], \"error\", s[\"error\"]); \
sys.exit(0 if s[\"simulated_uops\"] > 1000 and abs(s[\"error\"]) < 0.05 else 1)' \"$out\"/w.json
    ! \"$cs\" model solve --compare-sim --allow-write \"$out\"/no-such-dir \"$out\"/w.smp 2>\"$out\"/bad.err
    grep -q 'allow-write .*no-such-dir: No such file or directory' \"$out\"/bad.err" _
    ${_cs} ${CMAKE_CURRENT_BINARY_DIR}/statmodel-compare-allow-write ${CYCLESCOPE_GUEST_DIR}/truncate_sync)
endif()
# statmodel.hot_loop: a very hot tiny loop (5 instructions, 200 k times): Gauss-Seidel stalled on
# its one-pipe chain (residual 0.02 through all 20000 sweeps, "did not converge"); solved exactly
# by GTH now, and the one-pipe model is exact (within 1e-4 of the simulation)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME statmodel.hot_loop COMMAND bash -c "set -eu; cs=$1 out=$2 prog=$3; mkdir -p \"$out\"
    \"$cs\" model analyze --env-fixed -o \"$out\"/hot.smp \"$prog\" 200000 >/dev/null 2>&1
    \"$cs\" model solve --config inorder1 --compare-sim --json \"$out\"/hot.json \"$out\"/hot.smp >/dev/null
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d[\"ipc\"], d[\"simulated_ipc\"]); \
sys.exit(0 if abs(d[\"ipc\"]-d[\"simulated_ipc\"])<=1e-4*d[\"simulated_ipc\"] else 1)' \"$out\"/hot.json" _
    ${_cs} ${CMAKE_CURRENT_BINARY_DIR}/statmodel-hot-loop ${CYCLESCOPE_GUEST_DIR}/hot_loop)
endif()
# statmodel.program_gone: --compare-sim when the recorded program or trace is missing, or another file
# now (the .smp, version 7, records its SHA-256):
# one line naming it (tests/scripts/statmodel_program_gone.sh)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME statmodel.program_gone COMMAND ${_scripts}/statmodel_program_gone.sh ${_cs}
           ${CMAKE_CURRENT_BINARY_DIR}/statmodel-program-gone ${CYCLESCOPE_GUEST_DIR}/hello)
endif()
# statmodel.compare_stdin: --compare-sim's re-runs are pool jobs: their own output is not among
# solve's, every grid point reads the caller's stdin from the same place, and a stdin other than
# the one the analysed program read (the .smp, version 8, records its bytes' SHA-256) is refused
# (tests/scripts/statmodel_compare_stdin.sh)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME statmodel.compare_stdin COMMAND ${_scripts}/statmodel_compare_stdin.sh ${_cs}
           ${CMAKE_CURRENT_BINARY_DIR}/statmodel-compare-stdin ${CYCLESCOPE_GUEST_DIR}/chunk_read)
  set_tests_properties(statmodel.compare_stdin PROPERTIES TIMEOUT 300)
endif()
# statmodel.compare_other_stream: a program that reads a file (chunk_read FILE) analysed, the file
# then shortened: the re-run times another stream (72 thousand µops against 648 thousand), which
# the profile does not record; solve gives no simulated IPC and no model error for it, but one line
# naming the profile and both counts, exit 125, and writes neither --json nor --report (it printed
# the other stream's IPC with a warning)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME statmodel.compare_other_stream COMMAND bash -c "set -eu; cs=$1 out=$2 prog=$3; rm -rf \"$out\"; mkdir -p \"$out\"
    for i in \$(seq 1 300); do echo \"line $i of the file the program reads\"; done >\"$out\"/input.txt
    \"$cs\" model analyze --env-fixed -o \"$out\"/f.smp \"$prog\" \"$out\"/input.txt >/dev/null 2>&1
    \"$cs\" model solve --config inorder1 --compare-sim \"$out\"/f.smp >\"$out\"/same.out 2>\"$out\"/same.err
    grep -q '^simulated IPC' \"$out\"/same.out; test ! -s \"$out\"/same.err
    head -n 30 \"$out\"/input.txt >\"$out\"/short.txt; mv \"$out\"/short.txt \"$out\"/input.txt
    n=\$(\"$cs\" model info --json - \"$out\"/f.smp | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"instructions\"])')
    rc=0; \"$cs\" model solve --config inorder1 --compare-sim --json \"$out\"/other.json --report \"$out\"/other.html \
        \"$out\"/f.smp >\"$out\"/other.out 2>\"$out\"/other.err || rc=$?
    cat \"$out\"/other.err
    test $rc = 125; test \$(wc -l <\"$out\"/other.err) = 1
    grep -Eq \"^cyclescope: model solve: --compare-sim: $out/f.smp: the re-run timed [0-9]+ µops, the profile holds $n: \" \"$out\"/other.err
    ! grep -Eq 'simulated IPC|model error' \"$out\"/other.out
    test ! -e \"$out\"/other.json; test ! -e \"$out\"/other.html" _
    ${_cs} ${CMAKE_CURRENT_BINARY_DIR}/statmodel-compare-other-stream ${CYCLESCOPE_GUEST_DIR}/chunk_read)
endif()
# statmodel.compare_stdout_device: a program analysed without --env-fixed with its stdout on
# /dev/null (a character device: glibc asks isatty, a few dozen more instructions than on a file)
# is re-run by --compare-sim, whose stdout is a file, with the same µops: both runs show the
# inherited standard streams as pipes (before: the counts differed and solve refused, exit 125)
if(CYCLESCOPE_HAVE_WORKLOADS)
  add_test(NAME statmodel.compare_stdout_device COMMAND bash -c "set -eu; cs=$1 out=$2 wl=$3; rm -rf \"$out\"; mkdir -p \"$out\"
    \"$cs\" model analyze -o \"$out\"/t.smp \"$wl\"/tree 300 >/dev/null 2>&1
    \"$cs\" model solve --config inorder1 --compare-sim \"$out\"/t.smp >\"$out\"/solve.out 2>\"$out\"/solve.err
    cat \"$out\"/solve.err; test ! -s \"$out\"/solve.err
    n=\$(\"$cs\" model info --json - \"$out\"/t.smp | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"instructions\"])')
    grep -Eq \"^simulated IPC [0-9.]+ \\\\($n µops\" \"$out\"/solve.out" _
    ${_cs} ${CMAKE_CURRENT_BINARY_DIR}/statmodel-compare-stdout-device ${CYCLESCOPE_WORKLOAD_DIR})
endif()
