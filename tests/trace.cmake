# ---- trace files: .cst record/replay, ChampSim import/export -------------------------
#   unit.trace_cst, unit.trace_champsim, unit.trace_roundtrip   (tests/unit/test_trace_*.c)
#   trace.cli                  every subverb end to end on small inputs
#   trace.usage.*              bad usage: exit 2
#   trace.bad.*                bad input: one line naming the file and the offset, exit 125,
#                              no output file left behind
#   fuzz.cst.corpus, fuzz.champsim.corpus   (tests/fuzz.cmake) replay tests/corpus/{cst,champsim}
#   trace.roundtrip_full       (slow) emulator -> .cst -> reader identical at default size
#   trace.size                 (slow) mean .cst bytes/instruction over the workloads at
#                              default size is at most 2 (bench/bench_trace --size-only)
set(_cs $<TARGET_FILE:cyclescope>)
set(_scripts ${CMAKE_CURRENT_SOURCE_DIR}/scripts)
set(_corpus ${CMAKE_CURRENT_SOURCE_DIR}/corpus)
set(_tout ${CMAKE_CURRENT_BINARY_DIR}/trace-out)
file(MAKE_DIRECTORY ${_tout})

add_test(NAME cli.help.trace COMMAND ${_cs} trace --help)
set_tests_properties(cli.help.trace PROPERTIES PASS_REGULAR_EXPRESSION "usage: cyclescope trace")
add_test(NAME cli.help.trace_record COMMAND ${_cs} trace record --help)
set_tests_properties(cli.help.trace_record PROPERTIES PASS_REGULAR_EXPRESSION "trace import-champsim")

foreach(case
    "no_subverb|no subverb given|trace"
    "unknown_subverb|unknown subverb 'frobnicate'|trace;frobnicate"
    "record_no_output|record: no output file given|trace;record;prog"
    "record_no_program|record: no program given|trace;record;-o;x.cst"
    "record_bad_max|--max lots: not a count|trace;record;--max;lots;-o;x.cst;prog"
    "record_max_zero|--max 0: not a positive count|trace;record;--max;0;-o;x.cst;prog"
    "dump_bad_count|--count x: not a count|trace;dump;--count;x;f.cst"
    "info_two_files|info: give exactly one trace file|trace;info;a;b"
    "import_no_output|import-champsim: no output file given|trace;import-champsim;in"
    "export_riscv|export-champsim: unknown option|trace;export-champsim;--riscv;in;-o;out")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 regex)
  list(SUBLIST parts 2 -1 args)
  add_test(NAME trace.usage.${name} COMMAND ${_scripts}/expect_error.sh 2 "${regex}" ${_cs} ${args})
endforeach()

# Bad input: exit 125, one line "cyclescope: <file>: <what> at offset N", no output file.
set(_o ${_tout}/out)
foreach(case
    "wrong_magic|bad_magic.cst: not a .cst trace \\(wrong magic number\\) at offset 0$|info;${_corpus}/cst/bad_magic.cst"
    "unknown_version|bad_version.cst: unsupported .cst format version 2 \\(this cyclescope reads version 1\\) at offset 8$|info;${_corpus}/cst/bad_version.cst"
    "truncated|truncated.cst: truncated file .* at offset 635$|info;${_corpus}/cst/truncated.cst"
    "checksum|bad_checksum.cst: frame 1: checksum mismatch \\(stored [0-9a-f]+, computed [0-9a-f]+\\) at offset 615$|info;${_corpus}/cst/bad_checksum.cst"
    "checksum_dump|bad_checksum.cst: frame 1: checksum mismatch .* at offset 615$|dump;${_corpus}/cst/bad_checksum.cst"
    "checksum_export|bad_checksum.cst: frame 1: checksum mismatch .* at offset 615$|export-champsim;${_corpus}/cst/bad_checksum.cst;-o;${_o}.xz"
    "incomplete|incomplete.cst: incomplete trace: the writer did not finish \\(no index\\) at offset 56$|info;${_corpus}/cst/incomplete.cst"
    "missing|no/such.cst: cannot open: No such file|info;no/such.cst"
    "champsim_length|truncated.champsim: truncated record: the length, 1802 bytes, is not a multiple of the 64-byte ChampSim record at offset 1792$|import-champsim;${_corpus}/champsim/truncated.champsim;-o;${_o}.cst"
    "champsim_length_gz|truncated.champsim.gz: truncated record: the decompressed length, 1802 bytes, is not a multiple of the 64-byte ChampSim record at decompressed offset 1792$|import-champsim;${_corpus}/champsim/truncated.champsim.gz;-o;${_o}.cst"
    "champsim_cloudsuite_length|cloudsuite.champsim: .* not a multiple of the 64-byte ChampSim record at offset 2752$|import-champsim;${_corpus}/champsim/cloudsuite.champsim;-o;${_o}.cst"
    "champsim_corrupt_xz|corrupt.champsim.xz: corrupt xz data at offset [0-9]+$|import-champsim;${_corpus}/champsim/corrupt.champsim.xz;-o;${_o}.cst"
    "champsim_not_riscv|x86.champsim: register [0-9]+ is outside cyclescope's RISC-V mapping \\(64..127\\) at offset 0$|import-champsim;--riscv;${_corpus}/champsim/x86.champsim;-o;${_o}.cst")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 regex)
  list(SUBLIST parts 2 -1 args)
  # each test its own output (trace-out/NAME.cst): ctest -j runs them side by side, and one
  # test's `rm -f` or a conversion left behind must not reach another's check
  string(REPLACE "${_o}." "${_tout}/${name}." args "${args}")
  set(out ${_tout}/${name}.cst)
  if(name STREQUAL "checksum_export")
    set(out ${_tout}/${name}.xz)
  endif()
  add_test(NAME trace.bad.${name}
           COMMAND ${_scripts}/trace_bad_input.sh 125 "${regex}" ${out} ${_cs} trace ${args})
endforeach()

if(CYCLESCOPE_RISCV_CC)
  add_test(NAME trace.cli COMMAND ${_scripts}/trace_cli.sh ${_cs} ${CYCLESCOPE_GUEST_DIR} ${_corpus})
  # sim --format auto: real traces detected by content, an ELF, a text or random bytes refused
  # in one line (tests/scripts/sim_format_auto.sh)
  add_test(NAME sim.format_auto COMMAND ${_scripts}/sim_format_auto.sh ${_cs} ${_corpus} ${CYCLESCOPE_GUEST_DIR})
endif()

if(CYCLESCOPE_HAVE_WORKLOADS)
  add_test(NAME trace.roundtrip_full COMMAND test_trace_roundtrip --full sort ptr_chase)
  set_tests_properties(trace.roundtrip_full PROPERTIES LABELS slow ENVIRONMENT
    "CYCLESCOPE_TEST_DATA=${CMAKE_CURRENT_SOURCE_DIR};CYCLESCOPE_BUILD=${CMAKE_BINARY_DIR}")
  add_test(NAME trace.size COMMAND bench_trace --size-only --check-size 2)
  set_tests_properties(trace.size PROPERTIES LABELS slow)
  # `cyclescope sim` on a recorded trace = `cyclescope run` on the program, to the cycle
  add_test(NAME sim.cli COMMAND ${_scripts}/sim_cli.sh ${_cs} ${CYCLESCOPE_WORKLOAD_DIR})
endif()
# ---- end trace files ------------------------------------------------------------------
# trace.max_whole_instructions: --max N times the µops of the first N instructions, the last one
# whole, for every N of an imported x86 ChampSim trace; model analyze/solve --compare-sim the same
# µops (tests/scripts/max_whole_instructions.sh; under 1 s)
add_test(NAME trace.max_whole_instructions COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/scripts/max_whole_instructions.sh
         $<TARGET_FILE:cyclescope> ${CMAKE_CURRENT_BINARY_DIR}/max-whole ${CMAKE_CURRENT_SOURCE_DIR}/corpus/champsim/x86.champsim)
