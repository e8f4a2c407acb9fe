# ---- the guest sandbox (docs/sandbox.md): writes, memory, system calls ----------------
set(_cs $<TARGET_FILE:cyclescope>)
set(_scripts ${CMAKE_CURRENT_SOURCE_DIR}/scripts)
set(_g ${CYCLESCOPE_GUEST_DIR})

if(CYCLESCOPE_RISCV_CC)
  add_test(NAME sandbox.write COMMAND ${_scripts}/sandbox_write.sh ${_cs} ${_g})
  add_test(NAME sandbox.race COMMAND ${_scripts}/sandbox_race.sh ${_cs} ${_g} $<TARGET_FILE:rename_swap>)
  add_test(NAME sandbox.race.walk COMMAND ${_scripts}/sandbox_race.sh ${_cs} ${_g} $<TARGET_FILE:rename_swap> walk)
  set_tests_properties(sandbox.race sandbox.race.walk PROPERTIES TIMEOUT 30)
  # --allow-write given twice: the second directory silently replaced the first; now a
  # usage error naming both (the guest writes beneath one directory). The same directory
  # twice, under two names, is one directory: accepted. `model solve` checks it the same way.
  set(_awdir ${CMAKE_CURRENT_BINARY_DIR}/allow-write-twice)
  file(MAKE_DIRECTORY ${_awdir}/a ${_awdir}/b)
  add_test(NAME sandbox.allow_write_twice
           COMMAND ${_scripts}/expect_error.sh 2
                   "cyclescope exec: --allow-write given twice \\(${_awdir}/a, then ${_awdir}/b\\): the guest may write beneath one directory"
                   ${_cs} exec --allow-write ${_awdir}/a --allow-write ${_awdir}/b ${_g}/hello)
  add_test(NAME sandbox.allow_write_twice.run
           COMMAND ${_scripts}/expect_error.sh 2 "cyclescope run: --allow-write given twice"
                   ${_cs} run --allow-write ${_awdir}/a --allow-write ${_awdir}/b ${_g}/hello)
  add_test(NAME sandbox.allow_write_twice.model
           COMMAND ${_scripts}/expect_error.sh 2 "cyclescope model solve: --allow-write given twice"
                   ${_cs} model solve --allow-write ${_awdir}/a --allow-write ${_awdir}/b no-such-profile)
  add_test(NAME sandbox.allow_write_same_twice
           COMMAND ${_scripts}/expect_output.sh 0 "^hello" ${_cs} exec --allow-write ${_awdir}/a --allow-write ${_awdir}/b/../a/. ${_g}/hello)
endif()

if(CYCLESCOPE_RISCV_CC)
  set(_x ${_scripts}/expect_output.sh)
  # Guest memory: past --guest-memory the guest gets ENOMEM, never the host a signal.
  add_test(NAME sandbox.memory.fill
           COMMAND ${_x} 0 "fill: mmap: Cannot allocate memory after 2[0-9][0-9] MiB" ${_cs} exec --guest-memory 256M ${_g}/sandbox_mem fill)
  add_test(NAME sandbox.memory.devzero_8g
           COMMAND ${_x} 0 "devzero: mmap: Cannot allocate memory" ${_cs} exec ${_g}/sandbox_mem devzero 8192)
  add_test(NAME sandbox.memory.devzero_256m
           COMMAND ${_x} 0 "devzero: mapped, last byte 0" ${_cs} exec ${_g}/sandbox_mem devzero 256)
  # Decoded code costs the host 28 times the page: a guest executing thousands of
  # fresh pages ends with an error naming the limit (exit 125), not a host crash.
  add_test(NAME sandbox.memory.code
           COMMAND ${_x} 125 "passed the host limit of --guest-memory 32 MiB" ${_cs} exec --guest-memory 32M ${_g}/sandbox_mem code 5000)
  add_test(NAME sandbox.memory.code_within
           COMMAND ${_x} 0 "code: ran 1000 pages" ${_cs} exec ${_g}/sandbox_mem code 1000)
  # madvise/munmap cost follows the pages that exist; huge and wrapping lengths are EINVAL.
  add_test(NAME sandbox.memory.madvise
           COMMAND ${_x} 0 "madvise 2 GiB untouched: 0, byte now 0
madvise huge length: -22
madvise wrapping length: -22
madvise unmapped: -12
munmap 63 TiB above the stack: 0" ${_cs} exec ${_g}/sandbox_mem madvise)
  set_tests_properties(sandbox.memory.madvise sandbox.memory.devzero_8g PROPERTIES TIMEOUT 20)
  add_test(NAME sandbox.memory.bad_option
           COMMAND ${_scripts}/expect_error.sh 2 "--guest-memory 1K: not a size from 16M to 128T" ${_cs} exec --guest-memory 1K ${_g}/hello)
  # Linux's answers: MAP_FIXED at 0 is EPERM (mmap_min_addr), kill(0, 0) is 0,
  # sysinfo works (glibc's qsort asks it through sysconf).
  add_test(NAME sandbox.linux
           COMMAND ${_x} 0 "mmap MAP_FIXED at 0: Operation not permitted
kill\\(0, 0\\): 0
sysinfo: 0, mem_unit 1, procs 1, total > 0
qsort of 1000 ints: sorted" ${_cs} exec ${_g}/sandbox_mem linux)
  # sysinfo is deterministic: two runs print the same.
  add_test(NAME sandbox.sysinfo_deterministic COMMAND ${_scripts}/sandbox_sysinfo.sh ${_cs} ${_g})
  # /proc/self/exe names and opens the guest's program (not cyclescope); --env-fixed shows
  # it as /guest/NAME, so the cycles do not depend on the directory the files are in.
  if(CYCLESCOPE_HAVE_WORKLOADS)
    add_test(NAME sandbox.self_exe COMMAND ${_scripts}/sandbox_self.sh ${_cs} ${_g}
             ${CMAKE_CURRENT_BINARY_DIR}/sandbox-self ${CYCLESCOPE_WORKLOAD_DIR}/sort)
  endif()
  # --env-fixed: stdin, stdout and stderr look like pipes wherever they lead, so stdout on
  # /dev/null, a file or a pipe gives the same instructions and cycles.
  add_test(NAME sandbox.env_fixed_streams COMMAND ${_scripts}/env_fixed_streams.sh ${_cs} ${_g}/hello)
  # Unknown system calls: -ENOSYS and one warning by default, the old stop with --strict-syscalls.
  add_test(NAME sandbox.enosys
           COMMAND ${_scripts}/expect_error.sh 0 "warning: unsupported system call acct \\(number 89\\) at pc 0x[0-9a-f]+ returns -ENOSYS" ${_cs} exec ${_g}/bad_syscall)
  add_test(NAME sandbox.enosys.guest_sees_it COMMAND ${_cs} exec ${_g}/bad_syscall)
  set_tests_properties(sandbox.enosys.guest_sees_it PROPERTIES PASS_REGULAR_EXPRESSION "after: -1")
endif()

# Outputs: no verb replaces its input; a failed run keeps the earlier output.
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME sandbox.outputs COMMAND ${_scripts}/sandbox_outputs.sh ${_cs} ${_g})
endif()
# Inputs that are not regular files are refused at once, naming the file.
foreach(verb "exec" "disasm" "config;show" "trace;info" "trace;dump" "sim" "trace;import-champsim")
  string(REPLACE ";" "_" name "${verb}")
  set(extra "")
  set(code 125)
  if(name STREQUAL "config_show")
    set(code 2) # a configuration that cannot be read is bad usage
  endif()
  if(name STREQUAL "trace_import-champsim")
    set(extra -o ${CMAKE_CURRENT_BINARY_DIR}/never.cst)
  endif()
  add_test(NAME sandbox.input.devzero.${name}
           COMMAND ${_scripts}/expect_error.sh ${code} "^cyclescope: /dev/zero: not a regular file$" ${_cs} ${verb} /dev/zero ${extra})
  set_tests_properties(sandbox.input.devzero.${name} PROPERTIES TIMEOUT 10)
endforeach()
# An empty ChampSim trace and a warm-up past the end are errors naming the real length.
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME sandbox.trace_ends COMMAND ${_scripts}/sandbox_trace_ends.sh ${_cs} ${_g})
endif()
# Values once accepted without comment (issue 11 item 13): rejected naming the key and the range.
add_test(NAME sandbox.config.btb_entries
         COMMAND ${_scripts}/expect_error.sh 2 "bpred.btb_entries = 3: expected 0 \\(no BTB\\) or a power of two from 1 to 1048576"
                 ${_cs} config show --set bpred.btb_entries=3 ooo4)
# A configuration file that loads but describes no machine: the line names the file given,
# not its stem (it said "configuration inorder_no_pipes: …").
add_test(NAME sandbox.config.invalid_file_named
         COMMAND ${_scripts}/expect_error.sh 2 "configuration [^ ]*/corpus/config/inorder_no_pipes\\.ini: core\\.model = inorder needs at least one \\[pipe\\.\\*\\] section"
                 ${_cs} config show ${CMAKE_CURRENT_SOURCE_DIR}/corpus/config/inorder_no_pipes.ini)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME sandbox.trace.frame_uops_0
           COMMAND ${_scripts}/expect_error.sh 2 "--frame-uops 0: not in 1..4194304"
                   ${_cs} trace record --frame-uops 0 -o ${CMAKE_CURRENT_BINARY_DIR}/never.cst ${_g}/hello)
endif()
# The guest-side system-call fuzzer (tests/guest/sandbox_fuzz.c): random call numbers
# and arguments; the host must not crash, write outside --allow-write or pass the
# memory bound. A small run by default, a long one labelled slow.
if(CYCLESCOPE_RISCV_CC)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    if(CYCLESCOPE_SANITIZE)
      set(_slack 1500) # the sanitizers' shadow memory
    else()
      set(_slack 200)
    endif()
    add_test(NAME sandbox.syscall_fuzz
             COMMAND ${Python3_EXECUTABLE} ${_scripts}/sandbox_syscall_fuzz.py ${_cs} ${_g} 8 2000 ${_slack})
    add_test(NAME sandbox.syscall_fuzz.long
             COMMAND ${Python3_EXECUTABLE} ${_scripts}/sandbox_syscall_fuzz.py ${_cs} ${_g} 200 5000 ${_slack})
    set_tests_properties(sandbox.syscall_fuzz.long PROPERTIES LABELS slow TIMEOUT 900)
  endif()
endif()
# MAP_SHARED file mappings write back to the file, compared with Linux (qemu-riscv64).
if(CYCLESCOPE_RISCV_CC AND CYCLESCOPE_QEMU)
  foreach(mode basic exit errors split fixed dontneed mprotect grow)
    add_test(NAME sandbox.shared_map.${mode}
             COMMAND ${_scripts}/shared_map.sh ${CYCLESCOPE_QEMU} ${_cs} ${_g}/shared_map ${mode})
  endforeach()
endif()
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME sandbox.shared_map.stdin_not_writable COMMAND ${_scripts}/shared_map_stdin.sh ${_cs} ${_g}/shared_map)
endif()
# System calls never write into read-only memory nor read PROT_NONE pages: EFAULT,
# as under Linux (qemu-riscv64 is the reference). Found by the system-call fuzzer.
if(CYCLESCOPE_RISCV_CC AND CYCLESCOPE_QEMU)
  add_test(NAME sandbox.efault COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs}
           -- ${_g}/sandbox_mem efault ${_g}/sandbox_mem)
endif()
# Data in .text ($d mapping symbols) disassembles as objdump prints it (issue 11 item 11).
if(CYCLESCOPE_RISCV_CC AND CYCLESCOPE_RISCV_OBJDUMP)
  add_test(NAME sandbox.disasm.mapping_symbols
           COMMAND ${_scripts}/disasm_listing.sh ${CYCLESCOPE_RISCV_OBJDUMP} ${_cs} ${_g}/mapping_data)
  add_test(NAME sandbox.disasm.mapping_symbols_runs COMMAND ${_cs} exec ${_g}/mapping_data)
  add_test(NAME sandbox.disasm.no_c_extension
           COMMAND ${_scripts}/disasm_listing.sh ${CYCLESCOPE_RISCV_OBJDUMP} ${_cs} ${_g}/no_c_ext)
  # Zba/Zbb/Zbc/Zbs named where the file's attributes or a $x<isa> enable them, .4byte elsewhere
  add_test(NAME sandbox.disasm.bitmanip
           COMMAND ${_scripts}/disasm_listing.sh ${CYCLESCOPE_RISCV_OBJDUMP} ${_cs} ${_g}/bitmanip_listing)
  add_test(NAME sandbox.disasm.bitmanip_runs COMMAND ${_cs} exec ${_g}/bitmanip_listing)
  add_test(NAME sandbox.disasm.bitmanip_not_enabled
           COMMAND ${_scripts}/disasm_listing.sh ${CYCLESCOPE_RISCV_OBJDUMP} ${_cs} ${_g}/zb_words_gc)
  add_test(NAME sandbox.disasm.bitmanip_not_enabled_runs COMMAND ${_cs} exec ${_g}/zb_words_gc)
  add_test(NAME sandbox.disasm.bitmanip_program
           COMMAND ${_scripts}/disasm_listing.sh ${CYCLESCOPE_RISCV_OBJDUMP} ${_cs} ${_g}/bitmanip_bitset)
  # Zfh named where enabled (a program GCC built with -march=rv64gc_zfh); Zfh, Zicond, Zcb and
  # Zfa words in an rv64gc program as objdump 2.40 prints them (docs/isa.md)
  add_test(NAME sandbox.disasm.zfh_program
           COMMAND ${_scripts}/disasm_listing.sh ${CYCLESCOPE_RISCV_OBJDUMP} ${_cs} ${_g}/zfh_kernel)
  add_test(NAME sandbox.disasm.ext_not_enabled
           COMMAND ${_scripts}/disasm_listing.sh ${CYCLESCOPE_RISCV_OBJDUMP} ${_cs} ${_g}/ext_words_gc)
  add_test(NAME sandbox.disasm.ext_not_enabled_runs COMMAND ${_cs} exec ${_g}/ext_words_gc)
  # the scalar cryptography instructions named where the ISA enables them, each extension on its
  # own (Zbkb without Zbb, Zbkc without Zbc, Zknd without Zkne); Zfhmin's 8 named without Zfh
  add_test(NAME sandbox.disasm.crypto
           COMMAND ${_scripts}/disasm_listing.sh ${CYCLESCOPE_RISCV_OBJDUMP} ${_cs} ${_g}/crypto_listing)
  add_test(NAME sandbox.disasm.crypto_runs COMMAND ${_cs} exec ${_g}/crypto_listing)
  add_test(NAME sandbox.disasm.crypto_program
           COMMAND ${_scripts}/disasm_listing.sh ${CYCLESCOPE_RISCV_OBJDUMP} ${_cs} ${_g}/crypto_kernel)
  add_test(NAME sandbox.disasm.zfhmin
           COMMAND ${_scripts}/disasm_listing.sh ${CYCLESCOPE_RISCV_OBJDUMP} ${_cs} ${_g}/zfhmin_listing)
  add_test(NAME sandbox.disasm.zfhmin_runs COMMAND ${_cs} exec ${_g}/zfhmin_listing)
  add_test(NAME sandbox.disasm.before_first_symbol
           COMMAND ${_scripts}/disasm_listing.sh ${CYCLESCOPE_RISCV_OBJDUMP} ${_cs} ${_g}/before_symbol)
  # Linked at 0x80000000 as riscv-tests are: objdump's address column is 12 wide there.
  add_custom_command(OUTPUT ${_g}/high_address_80000000
    COMMAND ${CYCLESCOPE_RISCV_CC} -o ${_g}/high_address_80000000 ${CMAKE_CURRENT_SOURCE_DIR}/guest/high_address.S
            -nostdlib -static -march=rv64gc -mabi=lp64d -Wl,-Ttext-segment=0x80000000
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/guest/high_address.S test_guests VERBATIM)
  add_custom_target(test_guest_high_address ALL DEPENDS ${_g}/high_address_80000000)
  add_test(NAME sandbox.disasm.address_width
           COMMAND ${_scripts}/disasm_listing.sh ${CYCLESCOPE_RISCV_OBJDUMP} ${_cs} ${_g}/high_address_80000000)
  add_test(NAME sandbox.disasm.address_width_runs COMMAND ${_cs} exec ${_g}/high_address_80000000)
  # "# address <symbol>" notes as objdump resolves them (jalr, c.addi 0, c.addiw).
  add_test(NAME sandbox.disasm.address_notes
           COMMAND ${_scripts}/disasm_listing.sh ${CYCLESCOPE_RISCV_OBJDUMP} ${_cs} ${_g}/address_notes)
  # Encodings longer than 32 bits, printed as objdump prints what it cannot decode.
  add_test(NAME sandbox.disasm.long_encodings
           COMMAND ${_scripts}/disasm_listing.sh ${CYCLESCOPE_RISCV_OBJDUMP} ${_cs} ${_g}/long_encodings)
  # @object symbols in .text dumped as data; items cut by the next symbol ("out of bounds").
  foreach(t object_in_text out_of_bounds symbol_past_end)
    add_test(NAME sandbox.disasm.${t}
             COMMAND ${_scripts}/disasm_listing.sh ${CYCLESCOPE_RISCV_OBJDUMP} ${_cs} ${_g}/${t})
  endforeach()
  # Random programs (code, data, labels, objects, norvc stretches) against objdump, four seeds.
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    foreach(seed 1 2 3 4)
      add_test(NAME sandbox.disasm.random_${seed}
               COMMAND ${Python3_EXECUTABLE} ${_scripts}/disasm_random.py ${CYCLESCOPE_RISCV_CC}
                       ${CYCLESCOPE_RISCV_OBJDUMP} ${_cs} ${seed} 20000)
    endforeach()
  endif()
  # CSR names follow the privileged spec in the ELF attributes (none given: objdump's latest, 1.12).
  foreach(spec latest 1_9_1 1_10)
    add_test(NAME sandbox.disasm.csr_names_${spec}
             COMMAND ${_scripts}/disasm_listing.sh ${CYCLESCOPE_RISCV_OBJDUMP} ${_cs} ${_g}/csr_names_${spec})
  endforeach()
endif()
# The same race one directory up: a directory and a link to a directory outside swapped.
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME sandbox.race.dir COMMAND ${_scripts}/sandbox_race.sh ${_cs} ${_g} $<TARGET_FILE:rename_swap> dir)
  add_test(NAME sandbox.race.dir.walk
           COMMAND ${_scripts}/sandbox_race.sh ${_cs} ${_g} $<TARGET_FILE:rename_swap> walk dir)
  set_tests_properties(sandbox.race.dir sandbox.race.dir.walk PROPERTIES TIMEOUT 30)
endif()
# Every output through cs_output: a writer added later without it is named here.
add_test(NAME sandbox.one_writer COMMAND ${_scripts}/sandbox_one_writer.sh ${PROJECT_SOURCE_DIR})
# The guest library prefix of dynamically linked programs (--sysroot, docs/sandbox.md §17):
# read through as qemu -L does, never written through
if(CYCLESCOPE_RISCV_CC AND CYCLESCOPE_QEMU)
  add_test(NAME sandbox.sysroot COMMAND ${_scripts}/sysroot_check.sh ${CYCLESCOPE_QEMU} ${_cs} ${_g})
endif()
