# ---- the emulator against qemu-riscv64, objdump, and its own error paths -------------
set(_cs $<TARGET_FILE:cyclescope>)
set(_scripts ${CMAKE_CURRENT_SOURCE_DIR}/scripts)
set(_g ${CYCLESCOPE_GUEST_DIR})
find_program(CYCLESCOPE_RISCV_OBJDUMP riscv64-linux-gnu-objdump)

# Command-line frame.
add_test(NAME cli.version COMMAND ${_cs} --version)
set_tests_properties(cli.version PROPERTIES PASS_REGULAR_EXPRESSION "^cyclescope [0-9]+\\.[0-9]+\\.[0-9]+")
add_test(NAME cli.help COMMAND ${_cs} --help)
set_tests_properties(cli.help PROPERTIES PASS_REGULAR_EXPRESSION "exec.*disasm")
foreach(verb exec disasm)
  add_test(NAME cli.help.${verb} COMMAND ${_cs} ${verb} --help)
  set_tests_properties(cli.help.${verb} PROPERTIES PASS_REGULAR_EXPRESSION "usage: cyclescope ${verb}")
endforeach()
add_test(NAME cli.unknown_verb COMMAND ${_scripts}/expect_error.sh 2 "unknown verb 'frobnicate'" ${_cs} frobnicate)
add_test(NAME cli.exec_no_program COMMAND ${_scripts}/expect_error.sh 2 "no program given" ${_cs} exec)
add_test(NAME cli.exec_bad_max COMMAND ${_scripts}/expect_error.sh 2 "--max lots: not a count" ${_cs} exec --max lots x)
add_test(NAME cli.exec_max_zero COMMAND ${_scripts}/expect_error.sh 2 "--max 0: not a positive count" ${_cs} exec --max 0 x)

# Bad ELF files: one clear line naming the file, exit 125.
set(_elf ${CMAKE_CURRENT_SOURCE_DIR}/corpus/elf)
foreach(case
    "not_elf.txt|not an ELF file"
    "truncated_header|truncated_header: truncated ELF"
    "truncated_phdrs|truncated_phdrs: truncated ELF: program headers"
    "segment_past_end|segment_past_end: truncated ELF: segment 0"
    "wrong_machine_x86_64|wrong machine: x86-64"
    "elf32_riscv|RV32 executable"
    "big_endian|big-endian"
    "interp_unterminated|interp_unterminated: malformed ELF: bad PT_INTERP"
    "entry_outside|entry point 0x90000"
    "odd_entry_point|entry point 0xffffffff is not 2-byte aligned"
    "no_load|no loadable segment")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 file)
  list(GET parts 1 regex)
  add_test(NAME exec.bad_elf.${file} COMMAND ${_scripts}/expect_error.sh 125 "${regex}" ${_cs} exec ${_elf}/${file})
endforeach()
add_test(NAME exec.bad_elf.missing COMMAND ${_scripts}/expect_error.sh 125 "no/such/prog: cannot open" ${_cs} exec no/such/prog)
add_test(NAME exec.bad_elf.directory COMMAND ${_scripts}/expect_error.sh 125 "is a directory" ${_cs} exec /tmp)
add_test(NAME disasm.bad_sections COMMAND ${_scripts}/expect_error.sh 125 "bad section header table" ${_cs} disasm ${_elf}/bad_sections)

if(CYCLESCOPE_RISCV_CC AND CYCLESCOPE_QEMU)
  # Guest faults and unsupported features: one line naming what and where.
  add_test(NAME exec.fault.illegal_instruction
           COMMAND ${_scripts}/expect_error.sh 132 "illegal instruction 0x0000000b at pc 0x[0-9a-f]+" ${_cs} exec ${_g}/illegal)
  add_test(NAME exec.fault.beyond_gc
           COMMAND ${_scripts}/expect_error.sh 132 "illegal instruction 0x[0-9a-f]+ at pc 0x[0-9a-f]+ \\(the program was built for extensions beyond RV64GC, Zba/Zbb/Zbc/Zbs, Zfh, Zicond, Zcb, Zfa, Zbk\\*/Zkn\\*/Zks\\*, which cyclescope runs: v zve32f zve32x zve64d zve64f zve64x zvl128b zvl32b zvl64b\\)" ${_cs} exec ${_g}/beyond_gc)
  # the bitmanip program through every verb that times or analyses a program
  add_test(NAME bitmanip.verbs COMMAND ${_scripts}/bitmanip_verbs.sh ${_cs} ${_g}/bitmanip_bitset)
  add_test(NAME exec.fault.segfault
           COMMAND ${_scripts}/expect_error.sh 139 "segmentation fault: store to address 0x0 at pc 0x[0-9a-f]+" ${_cs} exec ${_g}/segfault)
  add_test(NAME exec.fault.unsupported_syscall
           COMMAND ${_scripts}/expect_error.sh 125 "unsupported system call acct \\(number 89\\) at pc 0x[0-9a-f]+" ${_cs} exec --strict-syscalls ${_g}/bad_syscall)
  # A dynamically linked program whose interpreter is nowhere: one line naming it, where it
  # was looked for and how to say where it is (docs/sandbox.md, "Dynamically linked programs")
  add_test(NAME exec.bad_elf.dynamic_no_interpreter
           COMMAND ${_scripts}/expect_error.sh 125
                   "hello_dynamic: dynamically linked, and its interpreter /lib/ld-linux-riscv64-lp64d.so.1 is not found \\(no sysroot: looked on the host only\\); give .* with --sysroot DIR"
                   ${_cs} exec --sysroot "" ${_g}/hello_dynamic)
  # an interpreter that is not RISC-V (the host's x86-64 ld.so): its error, after the program's name
  add_test(NAME exec.bad_elf.interp_x86
           COMMAND ${_scripts}/expect_error.sh 125 "interp_x86: its interpreter /lib64/ld-linux-x86-64.so.2: wrong machine: x86-64"
                   ${_cs} exec --sysroot "" ${_elf}/interp_x86)
  add_test(NAME exec.bad_elf.interp_not_found
           COMMAND ${_scripts}/expect_error.sh 125 "interp_not_found: dynamically linked, and its interpreter /no/such/ld-riscv.so.1 is not found"
                   ${_cs} exec ${_elf}/interp_not_found)
  # Dynamically linked programs (ld.so and libc.so from the sysroot, default
  # /usr/riscv64-linux-gnu) against qemu-riscv64 -L the same directory.
  set(_dyn_cases
      "hello|hello_dynamic,42,two"
      "syscalls|syscalls_dynamic,basic,${_g}/hello"
      "threads.sum|threads_dynamic,sum"
      "threads.cancel|threads_dynamic,cancel"
      "threads.tls|threads_dynamic,tls"
      "procs.fork|procs_dynamic,fork"
      "procs.vfork|procs_dynamic,vfork"
      "hot_loop|hot_loop_dynamic,100000"
      "dlopen|dlopen_use_dynamic,${_g}/libshared.so,main,x,y"
      "dlopen_missing|dlopen_use_dynamic,/no/such/lib.so,main"
      "self_realpath|self_realpath_dynamic"
      "clock_ids|clock_ids_dynamic"
      "workload.interp|interp_dynamic"
      "workload.coremark_like|coremark_like_dynamic"
      "workload.fft|fft_dynamic")
  if(CYCLESCOPE_RISCV_CXX)
    list(APPEND _dyn_cases "cxx_exceptions|cxx_exceptions_dynamic,40")
  endif()
  foreach(case ${_dyn_cases})
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 name)
    list(GET parts 1 args)
    string(REPLACE "," ";" args "${args}") # the program, then its arguments
    list(POP_FRONT args prog)
    add_test(NAME exec.qemu.dynamic.${name}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --sysroot /usr/riscv64-linux-gnu -- ${_g}/${prog} ${args})
    set_tests_properties(exec.qemu.dynamic.${name} PROPERTIES ENVIRONMENT QEMU_LD_PREFIX=/usr/riscv64-linux-gnu)
  endforeach()
  # stdout, stderr and exit status as qemu's: the user database (glibc tries nscd's socket
  # first: refused quietly, no warning on stderr), and writes that name no file ("", a missing
  # directory: ENOENT, no notice)
  add_test(NAME exec.qemu.dynamic.nss_passwd
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --sysroot /usr/riscv64-linux-gnu -- ${_g}/nss_passwd_dynamic)
  set_tests_properties(exec.qemu.dynamic.nss_passwd PROPERTIES ENVIRONMENT "QEMU_LD_PREFIX=/usr/riscv64-linux-gnu;COMPARE_STDERR=1")
  add_test(NAME exec.qemu.write_nowhere COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/write_nowhere)
  set_tests_properties(exec.qemu.write_nowhere PROPERTIES ENVIRONMENT COMPARE_STDERR=1)
  # path edge cases as Linux answers them (docs/sandbox.md §19): a trailing slash on a path a
  # call creates or removes, `//`, rmdir/unlink/mkdir of `/`, access(W_OK) by the permission
  # bits, socket calls on a file; static, dynamic (`//` is the host's root, not the sysroot),
  # and through the fallback walk beneath --allow-write (CYCLESCOPE_BENEATH_WALK=1)
  set(_pedir ${CMAKE_CURRENT_BINARY_DIR}/path-edges-area)
  foreach(variant "static|path_edges||" "dynamic|path_edges_dynamic|QEMU_LD_PREFIX=/usr/riscv64-linux-gnu|no-listing"
          "walk|path_edges|CYCLESCOPE_BENEATH_WALK=1|")
    string(REPLACE "|" ";" parts "${variant}")
    list(GET parts 0 kind)
    list(GET parts 1 prog)
    list(GET parts 2 env)
    list(GET parts 3 mode)
    set(_name exec.qemu.path_edges.${kind})
    if(kind STREQUAL "static")
      set(_name exec.qemu.path_edges)
    elseif(kind STREQUAL "dynamic")
      set(_name exec.qemu.dynamic.path_edges)
    endif()
    add_test(NAME ${_name}
             COMMAND ${CMAKE_COMMAND} -E env bash -c "rm -rf '${_pedir}-${kind}' && mkdir -p '${_pedir}-${kind}' && exec \"$0\" \"$@\""
                     ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --allow-write ${_pedir}-${kind} --
                     ${_g}/${prog} ${_pedir}-${kind} ${mode})
    set_tests_properties(${_name} PROPERTIES ENVIRONMENT "COMPARE_STDERR=1;${env}")
  endforeach()
  # what a dynamic program lists as `//`: the host's root, as Linux (and the static program
  # under qemu: exec.qemu.path_edges); qemu -L lists its prefix there, so it is no reference
  add_test(NAME exec.dynamic.path_edges.root_listing
           COMMAND ${CMAKE_COMMAND} -E env bash -c "rm -rf '${_pedir}-listing' && mkdir -p '${_pedir}-listing' && exec \"$0\" \"$@\""
                   ${_scripts}/expect_output.sh 0 "^opendir\\(//\\): lists proc$
^opendir\\(///\\): lists proc$
^opendir\\(//\\.\\): lists proc$
^opendir\\(/\\./\\): lists proc$
^stat\\(//\\): the root$"
                   ${_cs} exec --sysroot /usr/riscv64-linux-gnu --allow-write ${_pedir}-listing ${_g}/path_edges_dynamic ${_pedir}-listing)
  # the sysroot's ld.so run as the program (`ld.so PROG`, as ldd and --library-path users do):
  # it loads PROG's libraries as a dynamic program's ld.so does, from the sysroot (it found
  # no libc.so.6 before: a program without PT_INTERP saw only the host's files)
  add_test(NAME exec.qemu.dynamic.ldso_as_program
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --sysroot /usr/riscv64-linux-gnu --
                   /usr/riscv64-linux-gnu/lib/ld-linux-riscv64-lp64d.so.1 ${_g}/hello_dynamic 42 two)
  set_tests_properties(exec.qemu.dynamic.ldso_as_program PROPERTIES ENVIRONMENT "QEMU_LD_PREFIX=/usr/riscv64-linux-gnu;COMPARE_STDERR=1")
  # RUNPATH $ORIGIN under --env-fixed (the program seen as /guest/NAME): its library is found
  add_test(NAME exec.qemu.dynamic.origin_env_fixed
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --env-fixed --sysroot /usr/riscv64-linux-gnu --
                   ${_g}/origin_use_dynamic)
  set_tests_properties(exec.qemu.dynamic.origin_env_fixed PROPERTIES ENVIRONMENT "QEMU_LD_PREFIX=/usr/riscv64-linux-gnu;COMPARE_STDERR=1")
  # the default sysroot is /usr/riscv64-linux-gnu: no option needed
  add_test(NAME exec.qemu.dynamic.default_sysroot
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/hello_dynamic 1)
  set_tests_properties(exec.qemu.dynamic.default_sysroot PROPERTIES ENVIRONMENT QEMU_LD_PREFIX=/usr/riscv64-linux-gnu)
  # every verb that times or analyses a program, on a dynamically linked one
  add_test(NAME dynamic.verbs COMMAND ${_scripts}/dynamic_verbs.sh ${_cs} ${_g})
  # a shared library (entry point 0): refused, not run from its ELF header (illegal instruction
  # 0x464c457f, "\x7fELF", and the results of a run of nothing)
  foreach(verb "exec" "run;--no-report")
    list(GET verb 0 _v)
    add_test(NAME exec.bad_elf.shared_library_${_v}
             COMMAND ${_scripts}/expect_error.sh 125 "libshared.so: a shared library \\(no entry point\\), not a program"
                     ${_cs} ${verb} ${_g}/libshared.so)
  endforeach()

  # Same stdout and exit code as qemu-riscv64.
  add_test(NAME exec.qemu.hello COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/hello 42 two three)
  add_test(NAME exec.qemu.abort COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/guest_abort)
  # getrusage's user time (libgfortran's cpu_time reads it: it said 0 for every Fortran timing)
  add_test(NAME exec.qemu.rusage COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/rusage_use)
  # a Fortran program, static and dynamic: libgfortran's I/O, a file in the guest directory, stop 3
  if(CYCLESCOPE_RISCV_FC)
    add_test(NAME exec.qemu.fortran
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --allow-write ${_g} -- ${_g}/fortran_use ${_g} static)
    set_tests_properties(exec.qemu.fortran PROPERTIES ENVIRONMENT COMPARE_STDERR=1)
    add_test(NAME exec.qemu.dynamic.fortran
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --allow-write ${_g} -- ${_g}/fortran_use_dynamic ${_g} dynamic)
    set_tests_properties(exec.qemu.dynamic.fortran PROPERTIES ENVIRONMENT "QEMU_LD_PREFIX=/usr/riscv64-linux-gnu;COMPARE_STDERR=1")
  endif()
  # A signal sent while blocked waits for sigprocmask to unblock it (found by a foreign
  # program: blocked SIGINT then raise() killed the run instead of going on).
  foreach(mode block unblock ignored)
    add_test(NAME exec.qemu.signal_mask.${mode}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/signal_mask ${mode})
  endforeach()
  # opendir/readdir (getdents64) of a host directory, listed as qemu lists it
  add_test(NAME exec.qemu.list_dir
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/list_dir ${CMAKE_CURRENT_SOURCE_DIR}/guest)
  # ftruncate, fsync, fdatasync of a file beneath --allow-write (returned ENOSYS)
  set(_tsdir ${CMAKE_CURRENT_BINARY_DIR}/truncate-area)
  file(MAKE_DIRECTORY ${_tsdir})
  add_test(NAME exec.qemu.truncate_sync
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --allow-write ${_tsdir} -- ${_g}/truncate_sync ${_tsdir})
  # what bzip2 does to its output (the input's mode, owner and times: fchmod, fchown,
  # utime, futimens, chmod) and SQLite's record locks (fcntl F_SETLK, F_GETLK), found by
  # the Debian hunt (docs/sandbox.md §12): bzip2 file.txt and every SQLite database in a
  # file failed on -ENOSYS and -EINVAL; zstd's chown of its output (fchownat) warned of
  # -ENOSYS (§14)
  set(_fadir ${CMAKE_CURRENT_BINARY_DIR}/file-attrs-area)
  file(MAKE_DIRECTORY ${_fadir})
  foreach(mode attrs locks)
    add_test(NAME exec.qemu.file_attrs.${mode}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --allow-write ${_fadir} -- ${_g}/file_attrs ${mode} ${_fadir})
  endforeach()
  # mknodat (a FIFO a child writes and its parent reads; a regular file) and setpriority,
  # found by busybox's mkfifo and nice (both -ENOSYS; docs/sandbox.md §4)
  # a directory each: the two tests make the same FIFO name and ctest -j runs them side by side
  # (a parent then waited forever in open of the other test's FIFO)
  set(_mkdir ${CMAKE_CURRENT_BINARY_DIR}/mknod-area)
  file(MAKE_DIRECTORY ${_mkdir})
  add_test(NAME exec.qemu.mknod_nice
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --allow-write ${_mkdir} -- ${_g}/mknod_nice ${_mkdir})
  set_tests_properties(exec.qemu.mknod_nice PROPERTIES ENVIRONMENT COMPARE_STDERR=1 TIMEOUT 60)
  set(_mkdir ${CMAKE_CURRENT_BINARY_DIR}/mknod-area-refused)
  file(MAKE_DIRECTORY ${_mkdir})
  add_test(NAME exec.mknod_nice.refused
           COMMAND ${_scripts}/expect_output.sh 0 "^mknod char device +-1 errno Operation not permitted$
^setpriority raise +0$
^setpriority lower +-1 errno Permission denied$
^setpriority other +-1 errno No such process$" ${_cs} exec --allow-write ${_mkdir} ${_g}/mknod_nice ${_mkdir} refused)
  set_tests_properties(exec.mknod_nice.refused PROPERTIES TIMEOUT 60)
  # symbolic and hard links (symlinkat, linkat) beneath --allow-write: GNU patch creating a
  # git diff's symlink failed on -ENOSYS with a warning (docs/sandbox.md §4); a hard link to
  # a file outside DIR, or through a symbolic link leaving it, is refused (it would make that
  # file writable through the new name)
  set(_lkdir ${CMAKE_CURRENT_BINARY_DIR}/links-area)
  file(MAKE_DIRECTORY ${_lkdir})
  add_test(NAME exec.qemu.links_use
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --allow-write ${_lkdir} -- ${_g}/links_use ${_lkdir})
  set_tests_properties(exec.qemu.links_use PROPERTIES ENVIRONMENT COMPARE_STDERR=1)
  add_test(NAME sandbox.links_outside
           COMMAND ${_scripts}/expect_output.sh 0 "link\\(outside file, DIR/hard_out\\): -1 \\(Permission denied\\)
symlink\\(outside file, DIR/sym_out\\): 0 \\(ok\\)
linkat\\(DIR/sym_out, DIR/hard_out, AT_SYMLINK_FOLLOW\\): -1 \\(Permission denied\\)
open\\(DIR/sym_out, O_WRONLY\\): -1 \\(Permission denied\\)
symlink\\(x, OUTSIDE_FILE.sym\\): -1 \\(Permission denied\\)
denied the guest write access to ${CMAKE_CURRENT_SOURCE_DIR}/guest/hello.c"
                   ${_cs} exec --allow-write ${_lkdir} ${_g}/links_use outside ${_lkdir} ${CMAKE_CURRENT_SOURCE_DIR}/guest/hello.c)
  # a file outside --allow-write keeps its mode and times: refused in one line
  add_test(NAME sandbox.file_attrs_outside
           COMMAND ${_scripts}/expect_output.sh 0 "utime outside: -1 \\(Permission denied\\)
chmod outside: -1 \\(Permission denied\\)
chown outside: -1 \\(Permission denied\\)
fchmod read-only descriptor: -1 \\(Operation not permitted\\)
futimens read-only descriptor: -1 \\(Operation not permitted\\)
fchmod stdout: -1 \\(Operation not permitted\\)
denied the guest write access to ${CMAKE_CURRENT_SOURCE_DIR}/guest/hello.c \\(pass --allow-write DIR to allow\\)"
                   ${_cs} exec ${_g}/file_attrs outside ${CMAKE_CURRENT_SOURCE_DIR}/guest/hello.c)
  # /dev/null is writable without --allow-write (gawk reopens its spent stdin on it read-write;
  # refused with a notice before, found by the GNU tools hunt, docs/sandbox.md §13); the other
  # devices are not
  # a moving mremap (and glibc's realloc of a large chunk, which is one) moves the pages: a buffer
  # grown to more than half of --guest-memory keeps every word (it mapped the new range beside the
  # old and copied, needing old + new under the limit: ENOMEM, "mremap: Cannot allocate memory";
  # libxml2's billion-laughs test growing 1 GB under the 4 GiB default)
  # mremap growing shared anonymous memory (in place, and moved): the pages it grew by are past
  # the shmem object's end, SIGBUS (BUS_ADRERR) when touched and EFAULT for a system call, as
  # Linux; its pages stay shared with children forked before and after (before 2026-11-29: the
  # grown pages were private zeros, the stores succeeded)
  foreach(case place move)
    add_test(NAME exec.qemu.mremap_shared.${case}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/mremap_shared ${case})
  endforeach()
  add_test(NAME exec.qemu.mremap_grow
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --guest-memory 64M -- ${_g}/mremap_grow 28 40)
  set_tests_properties(exec.qemu.mremap_grow PROPERTIES ENVIRONMENT COMPARE_STDERR=1)
  add_test(NAME exec.qemu.dev_null COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/dev_null sink)
  add_test(NAME sandbox.dev_null_others
           COMMAND ${_scripts}/expect_output.sh 0 "open /dev/zero O_WRONLY +-1 Permission denied
open /dev/full O_RDWR +-1 Permission denied
denied the guest write access to /dev/zero \\(pass --allow-write DIR to allow\\)"
                   ${_cs} exec ${_g}/dev_null others)
  # /proc/self/maps lists the guest's mappings (it opened the host's: cyclescope's own, moved
  # by ASLR every run, so GNU grep, diff and cmp ran a different number of instructions each
  # time; docs/sandbox.md §13)
  add_test(NAME exec.qemu.self_maps COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/self_maps find)
  add_test(NAME exec.self_maps_repeatable
           COMMAND bash -c "a=$(\"$0\" exec \"$1\" dump) && b=$(\"$0\" exec \"$1\" dump) && [ \"$a\" = \"$b\" ] && echo \"$a\" | grep -q '\\[stack\\]$' && echo same"
                   ${_cs} ${_g}/self_maps)
  # /dev/urandom and /dev/random read the --seed stream, as getrandom does (they were the
  # host's: a program seeding itself from them ran differently every run); docs/sandbox.md §4
  add_test(NAME exec.random_devices_repeatable
           COMMAND bash -c "a=$(\"$0\" exec \"$1\") && b=$(\"$0\" exec \"$1\") && c=$(\"$0\" exec --seed 7 \"$1\") && [ \"$a\" = \"$b\" ] && [ \"$a\" != \"$c\" ] && [ $(echo \"$a\" | sort -u -k2 | wc -l) = 3 ] && echo same"
                   ${_cs} ${_g}/random_devices)
  set_tests_properties(exec.random_devices_repeatable PROPERTIES PASS_REGULAR_EXPRESSION "^same")
  # /proc/self/cmdline and auxv are the guest's argv and auxiliary vector, as qemu-riscv64
  # serves them (they were cyclescope's own: its command line, the x86-64 host's vector);
  # docs/sandbox.md §4
  add_test(NAME exec.qemu.self_proc COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/self_proc check)
  # cmdline, comm and environ under --env-fixed, by /proc/self/, /proc/thread-self/ and the
  # guest's pid: argv[0] /guest/NAME, comm the program's name (fs/exec.c), environ the fixed
  # environment, not cyclescope's (qemu shows its own comm and environ: not compared)
  set(_self_proc_expect "")
  foreach(dir self thread-self 1000)
    string(APPEND _self_proc_expect "^/proc/${dir}/cmdline: \\[/guest/self_proc\\] \\[show\\]$
^/proc/${dir}/comm: self_proc$
^/proc/${dir}/environ: \\[PATH=/usr/bin:/bin\\] \\[HOME=/\\] \\[LANG=C\\]$
^/proc/${dir}/environ: envp$
")
  endforeach()
  add_test(NAME exec.self_proc_fixed
           COMMAND ${_scripts}/expect_output.sh 0 "${_self_proc_expect}" ${_cs} exec --env-fixed ${_g}/self_proc show)
  # /proc/self/stat's name, pid, ppid and startstack, as qemu-riscv64 serves them (it leaves the
  # other fields 0); status's who-and-what lines are the guest's (qemu shows its own process':
  # not compared), from the main thread and, by /proc/thread-self/, a second one
  add_test(NAME exec.qemu.self_proc.stat COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/self_proc stat)
  set(_self_status_expect "^/proc/thread-self/status Pid:[[:space:]]+1001$
^/proc/thread-self/status Threads:[[:space:]]+2$
")
  foreach(dir self 1000 thread-self)
    string(APPEND _self_status_expect "^/proc/${dir}/status Name:[[:space:]]+self_proc$
^/proc/${dir}/status State:[[:space:]]+R \\(running\\)$
^/proc/${dir}/status Tgid:[[:space:]]+1000$
^/proc/${dir}/status Pid:[[:space:]]+1000$
^/proc/${dir}/status PPid:[[:space:]]+1$
^/proc/${dir}/status TracerPid:[[:space:]]+0$
^/proc/${dir}/status Uid:[[:space:]]+1000[[:space:]]+1000[[:space:]]+1000[[:space:]]+1000$
^/proc/${dir}/status Threads:[[:space:]]+1$
")
  endforeach()
  add_test(NAME exec.self_proc_status
           COMMAND ${_scripts}/expect_output.sh 0 "${_self_status_expect}" ${_cs} exec ${_g}/self_proc status)
  # sleeping moves the guest's clocks (it took no time: a wait for time to pass never ended)
  add_test(NAME exec.qemu.sleep_clock COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/sleep_clock)
  # timed futex waits of one thread time out (ETIMEDOUT) instead of ending the run
  add_test(NAME exec.qemu.timed_wait COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/timed_wait)
  # poll, select and other side calls answered as Linux does (ENOSYS before)
  # setrlimit: EINVAL and EPERM as Linux answers, and a lowered limit holds (it said yes and
  # kept nothing: mbedtls' net test raised RLIMIT_NOFILE past 256, then its dup2 to 1024 failed)
  add_test(NAME exec.qemu.rlimits COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/rlimits)
  set_tests_properties(exec.qemu.rlimits PROPERTIES ENVIRONMENT COMPARE_STDERR=1)
  add_test(NAME exec.rlimits_guest
           COMMAND ${_scripts}/expect_output.sh 0 "hard limit raised: Operation not permitted
RLIMIT_AS 64 MiB: ok
mmap 128 MiB: Cannot allocate memory
mmap 4 MiB: mapped
RLIMIT_AS raised again: Operation not permitted" ${_cs} exec ${_g}/rlimits guest)
  # limits lowered, then an execve of the program: Linux keeps them (they were reset)
  add_test(NAME exec.rlimits_exec
           COMMAND ${_scripts}/expect_output.sh 0 "^lowered: ok ok ok$
^after exec: NOFILE soft 12, CORE 0/0, AS 64/64 MiB$
^highest descriptor 11, then: Too many open files$
^mmap 128 MiB: Cannot allocate memory$" ${_cs} exec ${_g}/rlimits exec)
  # kill(tid) and tgkill(pid, tid) of a thread of another process (ESRCH before: the parent
  # then waited forever for a child whose signals never came)
  add_test(NAME exec.qemu.kill_thread COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/kill_thread)
  set_tests_properties(exec.qemu.kill_thread PROPERTIES TIMEOUT 60)
  # tgkill and tkill of a child's second thread: that thread's handler, SI_TKILL; kill: SI_USER
  # (the receiving process picked a thread by its masks, SI_USER, before)
  add_test(NAME exec.qemu.tkill_other COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/tkill_other)
  set_tests_properties(exec.qemu.tkill_other PROPERTIES TIMEOUT 60)
  # SIGRTMIN sent by two processes to a stopped child's thread (tgkill, tkill) or the child (kill):
  # queued twice, each with its sender's pid (one copy, or the last sender's pid, before)
  # a thread's name: prctl PR_SET_NAME/PR_GET_NAME, pthread_setname_np, writes to /proc/self/comm
  # and /proc/thread-self/comm, what comm and status's Name: read (the program's name, and the
  # write denied, before)
  add_test(NAME exec.qemu.thread_name COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/thread_name)
  add_test(NAME exec.qemu.signal_queue_other COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/signal_queue_other)
  set_tests_properties(exec.qemu.signal_queue_other PROPERTIES TIMEOUT 60)
  # a thread in waitpid/waitid while another feeds the child's stdin (it hung: the host's wait held
  # every thread)
  add_test(NAME exec.qemu.threads_wait_child COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/threads_wait_child)
  set_tests_properties(exec.qemu.threads_wait_child PROPERTIES TIMEOUT 60)
  # the same with the other thread sleeping against a timeout: the guest's time passes with the
  # child's real time (the clock jumped from deadline to deadline and the watchdog killed it)
  add_test(NAME exec.qemu.threads_wait_timeout COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/threads_wait_timeout)
  set_tests_properties(exec.qemu.threads_wait_timeout PROPERTIES TIMEOUT 60)
  # a thread in read, poll and epoll_wait (no timeout) for a pipe an echo child writes, while the
  # main thread sleeps and then sends the child its line (it hung: the host's wait for the pipe
  # held every thread; Go's os/exec TestContext); also with a one-instruction quantum
  add_test(NAME exec.qemu.threads_outside_wait COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/threads_outside_wait)
  add_test(NAME exec.qemu.threads_outside_wait_q1
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --thread-quantum 1 -- ${_g}/threads_outside_wait)
  set_tests_properties(exec.qemu.threads_outside_wait exec.qemu.threads_outside_wait_q1 PROPERTIES TIMEOUT 60)
  # waits only another process ends (tests/guest/outside_block.c): the only thread's timed poll
  # goes on past a SIGCHLD or a blocked signal that came meanwhile (it answered 0 at once); a
  # thread's poll of 12 descriptors, pipe write after part of its bytes, socketpair recv/send
  # and splice block that thread alone (they held every thread: the run hung); also with a
  # one-instruction quantum
  foreach(case sigchld sigchld_blocked blocked poll_many poll_many_timed write_partial write_signal socket_send
          socket_recv splice)
    add_test(NAME exec.qemu.outside_block.${case}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/outside_block ${case})
    set_tests_properties(exec.qemu.outside_block.${case} PROPERTIES TIMEOUT 60)
  endforeach()
  # another thread's name through /proc/self/task/TID/comm, stat, status (pthread_setname_np and
  # pthread_getname_np of another thread failed: task/ was cyclescope's own)
  add_test(NAME exec.qemu.thread_comm COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/thread_comm)
  # the name across execve: the basename of the path executed, a script's own (it was its
  # interpreter's); qemu-riscv64 cannot execve a RISC-V program here, so Linux's rule is the check
  add_test(NAME exec.thread_comm_exec
           COMMAND sh -c "set -e; d=$(mktemp -d); trap 'rm -rf $d' EXIT; cp \"$1\" $d/a-program-named-long; printf '#!%s\\n' $d/a-program-named-long >$d/run.script; chmod +x $d/run.script; \"$0\" exec $d/a-program-named-long exec; \"$0\" exec $d/a-program-named-long exec-script $d/run.script"
                   ${_cs} ${_g}/thread_comm)
  set_tests_properties(exec.thread_comm_exec PROPERTIES PASS_REGULAR_EXPRESSION
    "after execve: \"a-program-named\"\n/proc/self/comm: \"a-program-named\"\nafter execve: \"run.script\"\n/proc/self/comm: \"run.script\"\n")
  # pthread_cancel (SIGCANCEL, signal 32, glibc's, in the process) of a thread in each kind of
  # wait, computing asynchronously or deferred, and after setuid/setgid ran in every thread
  # through SIGSETXID (33); also with a 7-instruction quantum
  foreach(case sleep read outside poll pause waitpid async deferred setxid)
    add_test(NAME exec.qemu.cancel_use.${case}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/cancel_use ${case})
    add_test(NAME exec.qemu.cancel_use_q7.${case}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --thread-quantum 7 -- ${_g}/cancel_use ${case})
    set_tests_properties(exec.qemu.cancel_use.${case} exec.qemu.cancel_use_q7.${case} PROPERTIES TIMEOUT 60)
  endforeach()
  # posix_spawn of a file that is not executable, of a directory: EACCES from posix_spawn and
  # no child, as glibc 2.36 on Linux (measured natively on x86-64); qemu-riscv64 gives 0 and a
  # child that exits 127 (it makes the CLONE_VFORK a fork)
  add_test(NAME exec.procs.spawn_not_executable COMMAND ${_cs} exec ${_g}/procs spawn ${CMAKE_CURRENT_SOURCE_DIR}/guest/procs.c)
  add_test(NAME exec.procs.spawn_directory COMMAND ${_cs} exec ${_g}/procs spawn ${CMAKE_CURRENT_SOURCE_DIR}/guest)
  set_tests_properties(exec.procs.spawn_not_executable exec.procs.spawn_directory PROPERTIES
    PASS_REGULAR_EXPRESSION "^posix_spawn: Permission denied\n$" FAIL_REGULAR_EXPRESSION "spawned|waited")
  foreach(case poll_many write_partial write_signal socket_send socket_recv splice)
    add_test(NAME exec.qemu.outside_block_q1.${case}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --thread-quantum 1 -- ${_g}/outside_block ${case})
    set_tests_properties(exec.qemu.outside_block_q1.${case} PROPERTIES TIMEOUT 60)
  endforeach()
  # a one-instruction quantum: an LR/SC loop still reaches its SC (its quantum runs on while the
  # reservation is held, up to 16 instructions); before, a quantum of 1 or 2 spun forever in
  # glibc's lock before the fork
  add_test(NAME exec.qemu.threads_wait_child_q1
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --thread-quantum 1 -- ${_g}/threads_wait_child)
  set_tests_properties(exec.qemu.threads_wait_child_q1 PROPERTIES TIMEOUT 60)
  # 300 threads started and joined: their ids stay in the process' block, below the next pid (the
  # 100th took pid + 100, the first child's pid, before)
  add_test(NAME exec.threads_many_tids
           COMMAND ${_scripts}/expect_output.sh 0 "^threads 300, ids outside the block 0, live ids shared 0, child pid a thread id 0$"
                   ${_cs} exec ${_g}/threads_many_tids)
  # the id calls: the guest's own ids may be set, no other (setresuid was ENOSYS: glibc's
  # posix_spawn with POSIX_SPAWN_RESETIDS failed, so GNU make ran no recipe)
  add_test(NAME exec.qemu.ids COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/ids)
  set_tests_properties(exec.qemu.ids PROPERTIES ENVIRONMENT COMPARE_STDERR=1)
  add_test(NAME exec.ids_guest
           COMMAND ${_scripts}/expect_output.sh 0 "^uid 1000 gid 1000$
^setuid\\(0\\): Operation not permitted$
^setresgid\\(0, -1, -1\\): Operation not permitted$
^setreuid\\(-1, 0\\): Operation not permitted$
^posix_spawn with RESETIDS of a missing program: No such file or directory$" ${_cs} exec ${_g}/ids guest)
  # sendfile, whole and at an offset, and its errors (ENOSYS with a warning before: busybox's cat)
  add_test(NAME exec.qemu.sendfile COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/sendfile_use
                                           ${CMAKE_CURRENT_SOURCE_DIR}/guest/hello.c)
  set_tests_properties(exec.qemu.sendfile PROPERTIES ENVIRONMENT COMPARE_STDERR=1)
  # copy_file_range, splice and tee (ENOSYS with a warning before: coreutils' cp and cat): files
  # made in DIR copied whole and at offsets, through a pipe, tee between pipes, Linux's refusals
  set(_splicedir ${CMAKE_CURRENT_BINARY_DIR}/splice-area)
  add_test(NAME exec.qemu.splice
           COMMAND ${CMAKE_COMMAND} -E env bash -c "rm -rf '${_splicedir}' && mkdir -p '${_splicedir}' && exec \"$0\" \"$@\""
                   ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --allow-write ${_splicedir} -- ${_g}/splice_use ${_splicedir})
  set_tests_properties(exec.qemu.splice PROPERTIES ENVIRONMENT COMPARE_STDERR=1)
  set(_splicedir3 ${CMAKE_CURRENT_BINARY_DIR}/splice-thread)
  add_test(NAME exec.qemu.splice.thread
           COMMAND ${CMAKE_COMMAND} -E env bash -c "rm -rf '${_splicedir3}' && mkdir -p '${_splicedir3}' && exec \"$0\" \"$@\""
                   ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --allow-write ${_splicedir3} -- ${_g}/splice_use ${_splicedir3} thread)
  set(_splicedir2 ${CMAKE_CURRENT_BINARY_DIR}/splice-block)
  add_test(NAME exec.fault.splice_forever
           COMMAND ${CMAKE_COMMAND} -E env bash -c "rm -rf '${_splicedir2}' && mkdir -p '${_splicedir2}' && exec \"$0\" \"$@\""
                   ${_scripts}/expect_error.sh 125 "splice from an empty pipe would block forever" ${_cs} exec
                   --allow-write ${_splicedir2} ${_g}/splice_use ${_splicedir2} block)
  # pselect/ppoll's signal mask holds during the wait (it was ignored: a child's SIGCHLD, blocked
  # outside the wait, never ended it, and GNU make -j2 hung)
  add_test(NAME exec.qemu.pselect_mask COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/pselect_mask)
  set_tests_properties(exec.qemu.pselect_mask PROPERTIES ENVIRONMENT COMPARE_STDERR=1 TIMEOUT 60)
  # epoll as Go's netpoller uses it (ENOSYS before: every Go program that opened a file, started
  # a timer or a child ended "fatal error: runtime: netpollinit failed"): epoll_ctl's answers,
  # edge-triggered, level-triggered and one-shot reports, a hang-up, an entry leaving with its
  # file, timeouts, epoll_pwait's mask, a thread's wait ended by another's write
  add_test(NAME exec.qemu.epoll_use COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/epoll_use)
  set_tests_properties(exec.qemu.epoll_use PROPERTIES ENVIRONMENT COMPARE_STDERR=1)
  add_test(NAME exec.qemu.epoll_use_q7
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --thread-quantum 7 -- ${_g}/epoll_use)
  add_test(NAME exec.fault.epoll_forever
           COMMAND ${_scripts}/expect_error.sh 125 "epoll_wait would block forever: nothing it waits for can become ready" ${_cs} exec ${_g}/epoll_use forever)
  # eventfd2 (ENOSYS before; Go's netpoller since Go 1.21 ends its epoll wait through one):
  # the counter's reads and writes and their refusals, EFD_SEMAPHORE, O_NONBLOCK, poll and
  # epoll, threads waiting in a read and in epoll_wait until another writes
  add_test(NAME exec.qemu.eventfd_use COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/eventfd_use)
  set_tests_properties(exec.qemu.eventfd_use PROPERTIES ENVIRONMENT COMPARE_STDERR=1)
  add_test(NAME exec.qemu.eventfd_use_q7
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --thread-quantum 7 -- ${_g}/eventfd_use)
  add_test(NAME exec.fault.eventfd_forever
           COMMAND ${_scripts}/expect_error.sh 125 "read from an eventfd would block forever: only the guest itself can change it" ${_cs} exec ${_g}/eventfd_use forever)
  # a handler that a quantum's end switches to runs its first system call once (it ran twice,
  # the second time with the first's result as a0: Go's futex wake in its signal handler
  # returned EINVAL and every Go program using os/signal under load crashed)
  foreach(quantum default 1000)
    set(_q_opts "")
    if(NOT quantum STREQUAL "default")
      set(_q_opts --thread-quantum ${quantum})
    endif()
    add_test(NAME exec.qemu.threads_handler_syscall.${quantum}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} ${_q_opts} -- ${_g}/threads_handler_syscall)
  endforeach()
  add_test(NAME exec.qemu.poll_misc COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/poll_misc)
  # the process the guest sees is cyclescope's own, wherever cyclescope runs (qemu shows the
  # host's, so exec.qemu.poll_misc compares only that these calls succeed): its own session and
  # group, nice 0, CPU 0 — the same under `nice -n 19`, `setsid` or a PID namespace; one CPU
  # (the host's count made a program's thread pool, and its instruction count, the host's) and
  # /proc/self a link to the guest's pid (it was the host pid, whose digits changed the count)
  add_test(NAME exec.virtual_process COMMAND ${_cs} exec ${_g}/poll_misc identity)
  set_tests_properties(exec.virtual_process PROPERTIES
    PASS_REGULAR_EXPRESSION "^pid 1000 pgid 1000 sid 1000 nice 0 cpu 0 node 0 groups 0 0 cpus 1 1 self 1000\n$")
  add_test(NAME exec.fault.poll_forever
           COMMAND ${_scripts}/expect_error.sh 125 "poll would block forever: nothing it waits for can become ready" ${_cs} exec ${_g}/poll_misc forever)
  # pipe2 inside one process (ENOSYS before): data, EOF, O_NONBLOCK/O_CLOEXEC, dup2 of
  # stdout, poll, stdio over a pipe, EPIPE; SIGPIPE's default action kills (141)
  add_test(NAME exec.qemu.pipe_use COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/pipe_use)
  # Threads (clone with CLONE_THREAD, futexes) on the one hart: the same stdout and exit code
  # as qemu-riscv64's host threads, with the default quantum and with one of 7 instructions
  # (a switch almost anywhere: mid critical section, between a futex's check and its wait).
  # pipe, pipe_stream, poll, sigsuspend, pipe_cancel: a thread waits in a read or write of a pipe, in poll/select
  # or in sigsuspend for another thread (before: the run ended, "… would block forever");
  # robust: a robust mutex whose owner exited gives EOWNERDEAD (before: a deadlock)
  # sleep_rem: a thread's nanosleep interrupted by a handler writes the time left (rem was left as it was)
  # wake_op: FUTEX_WAKE_OP, every operation and comparison, a waiter woken through the second word
  # (before: "unsupported futex operation", the run ended)
  foreach(case sum join condvar barrier tls sem exit main_returns main_exits_first cancel spin timedwait kill futex wake_op
          pipe pipe_stream poll sigsuspend pipe_cancel sigwait robust sigqueue_thread sleep_rem)
    add_test(NAME exec.qemu.threads.${case} COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/threads ${case})
    add_test(NAME exec.qemu.threads_q7.${case}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --thread-quantum 7 -- ${_g}/threads ${case})
  endforeach()
  # /proc/self/limits and statm are the guest's (limits: getrlimit's values, after a setrlimit
  # too, by /proc/PID/ and /proc/thread-self/; statm: status' VmSize and VmRSS), as under
  # qemu-riscv64 where both are the host's; before, the host process' (7 of 16 limits agreed,
  # statm none). smaps, smaps_rollup, io, numa_maps, pagemap, mem: ENOENT (they were the host's)
  foreach(case limits statm)
    add_test(NAME exec.qemu.proc_figures.${case} COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/proc_figures ${case})
  endforeach()
  add_test(NAME exec.proc_figures.limits_all COMMAND ${_cs} exec ${_g}/proc_figures limits)
  set_tests_properties(exec.proc_figures.limits_all PROPERTIES PASS_REGULAR_EXPRESSION
    "^limits: 16 of 16 agree with getrlimit\nafter setrlimit: 16 agree\nby the pid: 16 agree\nby thread-self: 16 agree\n")
  add_test(NAME exec.proc_figures.refused COMMAND ${_cs} exec ${_g}/proc_figures refused)
  set_tests_properties(exec.proc_figures.refused PROPERTIES PASS_REGULAR_EXPRESSION
    "^smaps: ENOENT\nsmaps_rollup: ENOENT\nio: ENOENT\nnuma_maps: ENOENT\npagemap: ENOENT\nmem: ENOENT\nio by the pid: ENOENT\n$")
  # stat, access, faccessat, statx and readlink of the refused /proc files: ENOENT as open
  # (before: the host's files were found); /proc/PID of a pid other than the guest's own as in a
  # PID namespace of the guest's processes: its parent's and children's directories (also a
  # child ended but not waited for) with their comm, stat, status and cmdline (also after the
  # child renamed itself, or exec'd), no other pid's (before: the host's processes, 64 of pids
  # 2..4999 on the machine it was written on, and none of the guest's)
  add_test(NAME exec.proc_others.refused COMMAND ${_cs} exec ${_g}/proc_others refused)
  set_tests_properties(exec.proc_others.refused PROPERTIES PASS_REGULAR_EXPRESSION
    "^smaps: stat ENOENT, access ENOENT, faccessat ENOENT, statx ENOENT, readlink ENOENT\nsmaps_rollup: stat ENOENT, access ENOENT, faccessat ENOENT, statx ENOENT, readlink ENOENT\nnuma_maps: stat ENOENT, access ENOENT, faccessat ENOENT, statx ENOENT, readlink ENOENT\npagemap: stat ENOENT, access ENOENT, faccessat ENOENT, statx ENOENT, readlink ENOENT\nmem: stat ENOENT, access ENOENT, faccessat ENOENT, statx ENOENT, readlink ENOENT\nio: stat ENOENT, access ENOENT, faccessat ENOENT, statx ENOENT, readlink ENOENT\nstatus: stat found, access found, faccessat found, statx found, readlink Invalid argument\nsmaps by the pid: stat ENOENT\n$")
  add_test(NAME exec.proc_others.others COMMAND ${_cs} exec ${_g}/proc_others others)
  set_tests_properties(exec.proc_others.others PROPERTIES TIMEOUT 60 PASS_REGULAR_EXPRESSION
    "^own: directory\nchild running: directory\nchild's comm: kid\nchild's stat: 1100 \\(kid\\) ppid 1000\nchild's status: \\[Name:\tkid\\] \\[Pid:\t1100\\] \\[PPid:\t1000\\]\nchild's cmdline: proc_others others\nchild's maps: ENOENT\nother pids with a directory: 0\nchild: parent directory\nchild: parent's comm proc_others\nchild: parent's stat: 1000 \\(proc_others\\) ppid 1\nchild: parent's status: \\[Name:\tproc_others\\] \\[Pid:\t1000\\] \\[PPid:\t1\\]\nchild: parent's cmdline proc_others others\nchild: parent's smaps ENOENT\nchild before its wait: directory\nchild after its wait: ENOENT, comm ENOENT\n$")
  # cyclescope's own host pid is no directory of the guest's (it was its own, seen whenever the
  # host's pids were low enough for the scan of 2..4999 above): sh's pid becomes cyclescope's by exec
  add_test(NAME exec.proc_others.host_pid
           COMMAND sh -c "exec \"$0\" exec \"$1\" pid $$" ${_cs} ${_g}/proc_others)
  set_tests_properties(exec.proc_others.host_pid PROPERTIES PASS_REGULAR_EXPRESSION "^/proc/N: ENOENT, stat ENOENT\n$")
  add_test(NAME exec.proc_others.exec COMMAND ${_cs} exec ${_g}/proc_others exec)
  set_tests_properties(exec.proc_others.exec PROPERTIES TIMEOUT 60 PASS_REGULAR_EXPRESSION
    "^exec'd child's comm: proc_others\nexec'd child's stat: 1100 \\(proc_others\\) ppid 1000\nexec'd child's cmdline: renamed-by-exec execd\n$")
  # a listing of /proc holds the guest's processes alone (before 2026-11-29: the host's, none of
  # the guest's but by name), by readdir, getdents64 with a buffer of one or two entries,
  # rewinddir and seekdir; another process' stat has its state, parent, group, session, thread
  # count, start and size (before: 0 from field 7 on); cyclescope only, qemu shows the host's
  add_test(NAME exec.proc_list.list COMMAND ${_cs} exec ${_g}/proc_list list)
  set_tests_properties(exec.proc_list.list PROPERTIES TIMEOUT 60 PASS_REGULAR_EXPRESSION
    "^readdir: 1000 1100 1200 1300\nself and thread-self: 2\nafter rewinddir: 1000 1100 1200 1300\nafter seekdir past the second: 1200 1300\ngetdents64 by 32 bytes: 1000 1100 1200 1300\ngetdents64 by 8 bytes: EINVAL\ngetdents64 by 56 bytes: 1000 1100 1200 1300\nfirst: 1000 \\(proc_list\\) state known ppid 1 pgrp 1000 session 1000 threads 1 start first size >0 rss >0\nfirst: 1100 \\(kid-a\\) state known ppid 1000 pgrp 1000 session 1000 threads 1 start later size >0 rss >0\nfirst: 1200 \\(grandkid\\) state known ppid 1100 pgrp 1000 session 1000 threads 1 start later size >0 rss >0\nfirst: 1300 \\(kid-b\\) state known ppid 1000 pgrp 1000 session 1000 threads 2 start later size >0 rss >0\nB's readdir: 1000 1100 1200 1300\nB: 1000 \\(proc_list\\) state known ppid 1 pgrp 1000 session 1000 threads 1 start first size >0 rss >0\nB: 1100 \\(kid-a\\) state known ppid 1000 pgrp 1000 session 1000 threads 1 start later size >0 rss >0\nB: 1200 \\(grandkid\\) state known ppid 1100 pgrp 1000 session 1000 threads 1 start later size >0 rss >0\nB: 1300 \\(kid-b\\) state known ppid 1000 pgrp 1000 session 1000 threads 2 start later size >0 rss >0\nafter the waits: 1000\n$")
  # another process' name read while it renames itself 20 000 times: never half of one
  add_test(NAME exec.proc_list.torn COMMAND ${_cs} exec ${_g}/proc_list torn)
  set_tests_properties(exec.proc_list.torn PROPERTIES TIMEOUT 120 PASS_REGULAR_EXPRESSION "^torn names: 0 \\(read\\)\n$")
  # a /proc/self/comm descriptor open for writing, kept across execve, renames the new program
  # (before: it had become a plain file taking the writes); Linux's lines for the x86-64 build,
  # qemu-riscv64 cannot exec a RISC-V program on this host
  add_test(NAME exec.comm_exec_fd COMMAND ${_cs} exec ${_g}/comm_exec_fd)
  set_tests_properties(exec.comm_exec_fd PROPERTIES PASS_REGULAR_EXPRESSION
    "^write: 5\nbefore exec: first\nafter exec: comm_exec_fd\nwrite: 8\nnow: renamed\n\nwrite of a long name: 26\nnow: a-name-longer-t\n*$")
  # writev whose later buffer waits for room blocks its thread alone and writes all of it (before:
  # a short count to the process' own pipe, every thread held on the host for a child's pipe);
  # readv's later buffer of a FIFO from outside takes what is there (before: its host read waited
  # for more, the test's timeout) — tests/guest/threads_iov.c
  foreach(case own cross)
    add_test(NAME exec.qemu.threads_iov.${case} COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/threads_iov ${case})
    add_test(NAME exec.qemu.threads_iov_q7.${case}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --thread-quantum 7 -- ${_g}/threads_iov ${case})
    set_tests_properties(exec.qemu.threads_iov.${case} exec.qemu.threads_iov_q7.${case} PROPERTIES TIMEOUT 60)
  endforeach()
  add_test(NAME exec.qemu.threads_iov.fifo COMMAND ${_scripts}/readv_fifo.sh ${CYCLESCOPE_QEMU} ${_cs} ${_g}/threads_iov)
  set_tests_properties(exec.qemu.threads_iov.fifo PROPERTIES TIMEOUT 30)
  # recvmmsg's timeout counts the time a thread waited for a later message, looked at once it came
  # (qemu-riscv64 ignores the timeout): the lines the host's Linux kernel prints for the program
  # built for x86-64 (before: 3 messages, 0.05 s left, both rounds)
  foreach(quantum 100000 7)
    add_test(NAME exec.threads_mmsg.timeout_q${quantum} COMMAND ${_cs} exec --thread-quantum ${quantum} ${_g}/threads_mmsg)
    set_tests_properties(exec.threads_mmsg.timeout_q${quantum} PROPERTIES PASS_REGULAR_EXPRESSION
      "^recvmmsg: 2, left 0.000000000\nthen: three\nrecvmmsg: 1, left 0.000000000\nthen: two\nthen: three\n$")
  endforeach()
  # an eventfd open at a fork: a blocking read waits for the other process' write (before: "read
  # from an eventfd would block forever", or a deadlock of the reader thread and main's join)
  foreach(case child_reads thread counter epoll)
    add_test(NAME exec.qemu.threads_eventfd_fork.${case}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/threads_eventfd_fork ${case})
    add_test(NAME exec.qemu.threads_eventfd_fork_q7.${case}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --thread-quantum 7 -- ${_g}/threads_eventfd_fork ${case})
    set_tests_properties(exec.qemu.threads_eventfd_fork.${case} exec.qemu.threads_eventfd_fork_q7.${case} PROPERTIES TIMEOUT 60)
  endforeach()
  # PI futexes (tests/guest/threads_pi.c; before: "unsupported futex operation N", exit 125):
  # PTHREAD_PRIO_INHERIT mutexes under contention, the word's TID | FUTEX_WAITERS |
  # FUTEX_OWNER_DIED through every call, the handoff at FUTEX_UNLOCK_PI, EDEADLK by the chain
  # walk, a handler in FUTEX_LOCK_PI (it waits on), a condition variable on a PI mutex,
  # FUTEX_WAIT_REQUEUE_PI / FUTEX_CMP_REQUEUE_PI — identical to qemu-riscv64 (the host kernel's
  # answers), with the default quantum and with 7
  foreach(case mutex raw handoff deadlock signal condvar requeue requeue_errors)
    add_test(NAME exec.qemu.threads_pi.${case} COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/threads_pi ${case})
    add_test(NAME exec.qemu.threads_pi_q7.${case}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --thread-quantum 7 -- ${_g}/threads_pi ${case})
    set_tests_properties(exec.qemu.threads_pi.${case} exec.qemu.threads_pi_q7.${case} PROPERTIES TIMEOUT 120)
  endforeach()
  # robust PI mutexes (qemu-riscv64 7.2 dies of SIGBUS on them): the lines the host's Linux
  # kernel and glibc 2.36 print for the same program built for x86-64 — the owner exits
  # holding it (before the lock, and while main waits in FUTEX_LOCK_PI): EOWNERDEAD, the word
  # main's tid (FUTEX_WAITERS kept when it waited), then ENOTRECOVERABLE when not made consistent
  set(_pi_robust "^after the owner's exit: 0\\|OWNER_DIED\nlock: EOWNERDEAD\nword: self\nconsistent: 0\nunlock: 0\nword: 0\nlock again: 0\nunlock: 0\nlock: EOWNERDEAD\nunlock: 0\nlock: ENOTRECOVERABLE\n$")
  set(_pi_robust_wait "^lock: EOWNERDEAD\nword: self\\|WAITERS\nconsistent: 0\nunlock: 0\nword: 0\nlock again: 0\nunlock: 0\nlock: EOWNERDEAD\nunlock: 0\nlock: ENOTRECOVERABLE\n$")
  foreach(quantum 100000 7)
    foreach(case robust robust_wait)
      add_test(NAME exec.threads_pi.${case}_q${quantum} COMMAND ${_cs} exec --thread-quantum ${quantum} ${_g}/threads_pi ${case})
      set_tests_properties(exec.threads_pi.${case}_q${quantum} PROPERTIES PASS_REGULAR_EXPRESSION "${_pi_${case}}")
    endforeach()
  endforeach()
  # Processes (docs/sandbox.md §15; before: clone without CLONE_THREAD and execve returned
  # -ENOSYS with a warning). fork, exit statuses, wait4 (WNOHANG, -1, a signalled child),
  # waitid, kill of a child, a pipe between parent and child, getpid/getppid: as under
  # qemu-riscv64 (which forks natively); a parent whose child prints.
  # sigchld: a handler reaps the child whose end it was told of; threads: a thread forks while
  # another waits on a condition variable, the child has the forking thread alone
  # vfork: vfork() (clone CLONE_VM|CLONE_VFORK without a new stack), the parent on after the exit
  foreach(case fork simple sigchld threads vfork signaller)
    add_test(NAME exec.qemu.procs.${case} COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/procs ${case})
  endforeach()
  # posix_spawn (vfork), execve and #! scripts against the program run directly; host
  # programs never run; the timed run observes the parent alone
  foreach(case spawn exec script host timed simpoints point_kill abandoned)
    add_test(NAME exec.procs.${case}
             COMMAND ${_scripts}/procs_check.sh ${case} ${_cs} ${_g}/procs $<TARGET_FILE:stacks_check>)
  endforeach()
  # Signals between processes (before: a parent's kill was the host's default action on the
  # child's host process, whatever the child's guest did with the signal): a child catching
  # SIGTERM in pause(), one computing without system calls until SIGUSR1's handler; SIGUSR1
  # ignored, then SIGKILL; SIGTERM's default action (WIFSIGNALED 15); SIGUSR2 blocked: pending,
  # its handler at the unblock; a child's read of a pipe interrupted (EINTR) or restarted
  # (SA_RESTART); kill(0, SIGUSR1) to the parent, two children and a grandchild; SIGCHLD to
  # a parent computing without system calls (it spun forever before: the timeout ends it);
  # a child's waitpid interrupted (EINTR); a child's sigwait takes its parent's signal;
  # getpgid/getsid of the caller, its parent, its child, a reaped child (ESRCH); a child's
  # kill(getppid()) to the first process (pending, then its handler), a grandchild's to the child
  foreach(case term spin ignore blocked read_eintr read_restart group sigchld_spin wait_eintr sigwait groups
          to_parent)
    add_test(NAME exec.qemu.proc_signals.${case}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/proc_signals ${case})
    set_tests_properties(exec.qemu.proc_signals.${case} PROPERTIES TIMEOUT 30)
  endforeach()
  # The whole process tree (one table of virtual -> host pids every process shares; before,
  # a process knew its parent and children only): a kill of a sibling (EPERM before) and of a
  # grandparent (EPERM), a child's kill(0, …) to its parent, sibling and their child (the parent
  # missed it), getpgid/getsid of a sibling and a grandchild (ESRCH) and waitpid of a grandchild
  # (ECHILD); a child with two waiting threads woken by its parent's signal (the run ended:
  # "deadlock"); a child killed by SIGTERM's default action leaves its shared file mapping's
  # writes in the file (they were lost)
  foreach(case sibling ancestor child_group relatives threads)
    add_test(NAME exec.qemu.proc_tree.${case}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/proc_tree ${case})
    set_tests_properties(exec.qemu.proc_tree.${case} PROPERTIES TIMEOUT 30)
  endforeach()
  # Process groups and sessions (virtual ids in the tree's table): a child's setsid, setpgid of
  # itself and of its children (EPERM, EINVAL, ESRCH as Linux's), getpgid/getsid/getpgrp,
  # kill(-pgid) and kill(0) of its group only, waitpid(-pgid) and waitpid(0) (ECHILD for a
  # child of another group), a group leader's /proc/PID/stat (setsid was "unsupported" before,
  # setpgid to a new group ended the run)
  add_test(NAME exec.qemu.proc_groups.session
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/proc_groups session)
  set_tests_properties(exec.qemu.proc_groups.session PROPERTIES TIMEOUT 30)
  set(_ptdir ${CMAKE_CURRENT_BINARY_DIR}/proc-tree-area)
  file(MAKE_DIRECTORY ${_ptdir})
  add_test(NAME exec.qemu.proc_tree.shared_kill
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --allow-write ${_ptdir} -- ${_g}/proc_tree shared_kill ${_ptdir})
  set_tests_properties(exec.qemu.proc_tree.shared_kill PROPERTIES TIMEOUT 30)
  # MAP_SHARED memory shared with forked children (tests/guest/shared_mem.c): anonymous shared
  # memory a child writes (before: the parent never saw it), also when SIGKILL ends the child,
  # both ways, across an mprotect split and a child's munmap, MADV_DONTNEED keeping shared bytes,
  # a file mapping a SIGKILLed child wrote (before: lost); private memory stays the child's own
  foreach(case anon anon_kill both_ways split private dontneed)
    add_test(NAME exec.qemu.shared_mem.${case}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/shared_mem ${case})
    set_tests_properties(exec.qemu.shared_mem.${case} PROPERTIES TIMEOUT 30)
  endforeach()
  # a child that maps a file MAP_SHARED after the fork and is killed by SIGKILL (its parent's,
  # a sibling's; one thread, or two waiting): its writes are in the file, as on Linux (before
  # 2026-11-29 they were lost: a host SIGKILL skipped its write-back); a directory per case
  foreach(case one threads sibling)
    set(_lmdir ${CMAKE_CURRENT_BINARY_DIR}/late-map-kill-${case})
    file(MAKE_DIRECTORY ${_lmdir})
    add_test(NAME exec.qemu.late_map_kill.${case}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --allow-write ${_lmdir} -- ${_g}/late_map_kill ${case} ${_lmdir})
    set_tests_properties(exec.qemu.late_map_kill.${case} PROPERTIES TIMEOUT 30)
  endforeach()
  # atomic instructions between processes on MAP_SHARED memory (tests/guest/shared_atomics.c):
  # amoadd.w/.d, lr/sc, an amoswap spin lock, amomax from two and three processes at once lose no
  # update (before 2026-11-29 an AMO was a read then a write: updates lost between processes)
  add_test(NAME exec.qemu.shared_atomics
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/shared_atomics 200000 2)
  add_test(NAME exec.shared_atomics.three COMMAND ${_cs} exec ${_g}/shared_atomics 100000 3)
  set_tests_properties(exec.qemu.shared_atomics exec.shared_atomics.three PROPERTIES TIMEOUT 60)
  # SimPoint's copies time their points in shared memory of their own (not the run's)
  add_test(NAME simpoint.shared_mem COMMAND ${_scripts}/shared_mem_simpoint.sh ${_cs} ${_g}/shared_mem)
  set_tests_properties(simpoint.shared_mem PROPERTIES TIMEOUT 120)
  set(_smdir ${CMAKE_CURRENT_BINARY_DIR}/shared-mem-area)
  file(MAKE_DIRECTORY ${_smdir})
  add_test(NAME exec.qemu.shared_mem.file_kill
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --allow-write ${_smdir} -- ${_g}/shared_mem file_kill ${_smdir})
  set_tests_properties(exec.qemu.shared_mem.file_kill PROPERTIES TIMEOUT 30)
  # SIGBUS/SIGFPE/SIGILL/SIGSEGV sent to a child that catches them (the host's default killed
  # it); never run under qemu-riscv64 7.2, which takes a third of them for faults of its own:
  # the lines are Linux's answer
  add_test(NAME exec.procs.fault_signals COMMAND ${_cs} exec ${_g}/proc_tree faults)
  set_tests_properties(exec.procs.fault_signals PROPERTIES TIMEOUT 30
    PASS_REGULAR_EXPRESSION "^child ready: 1\nsent: 4\nchild catching SIGBUS, SIGFPE, SIGILL, SIGSEGV \\(44: each handler ran\\): exited 44\nchild ready: 1\nkill SIGSEGV: 0\nchild without a handler: killed by signal 11\n$")
  # the first process execs after a fork: its child's kill reaches the new program's handler
  # (the host's default killed it, 138); not under qemu-riscv64, whose execve of a RISC-V
  # program fails on a host without binfmt_misc (ENOEXEC): the lines are Linux's answer
  add_test(NAME exec.procs.exec_parent COMMAND ${_cs} exec ${_g}/proc_tree exec_parent)
  set_tests_properties(exec.procs.exec_parent PROPERTIES TIMEOUT 30
    PASS_REGULAR_EXPRESSION "^the child's kill of its parent, now another program: 0\nSIGUSR1 pending: 1, handler ran: 0\nafter the unblock: handler ran 1, si_pid is the child's 1\n$")
  # setpgid of a child after its execve is EACCES (0 before it), the caller's /proc/self/stat
  # shows its own session (not under qemu-riscv64: no execve of a RISC-V program without
  # binfmt_misc, and its /proc/self/stat has 0 there; the lines are Linux's answer)
  add_test(NAME exec.procs.groups_exec COMMAND ${_cs} exec ${_g}/proc_groups exec)
  set_tests_properties(exec.procs.groups_exec PROPERTIES TIMEOUT 30
    PASS_REGULAR_EXPRESSION "^setpgid\\(child, child\\) before its execve: 0\nsetpgid\\(child, own group\\) before its execve: 0\nthe new program is ready: 1\n/proc/self/stat: 1 1 1\nsetpgid\\(child, child\\) after its execve: EACCES\nits group is still the caller's: 1\nchild: exited 6\nsession leader: exited 0\n$")
  # a process keeps its children through an execve: the new program waits for the one made
  # before it (before: ECHILD, "child: exited 0"); Linux's answer, as above (the same program
  # built for the host prints these lines)
  add_test(NAME exec.procs.exec_wait COMMAND ${_cs} exec ${_g}/procs exec-wait)
  set_tests_properties(exec.procs.exec_wait PROPERTIES TIMEOUT 30
    PASS_REGULAR_EXPRESSION "^waited for the child made before the execve: yes\nchild: exited 7\nno child left: ECHILD: yes\n$")
  # kill(-1, …) reaches every process of the tree but the sender, SIGKILL the grandchild too
  # (never run under qemu, where -1 is every process of the user: the lines are Linux's answer)
  add_test(NAME exec.procs.kill_all COMMAND ${_cs} exec ${_g}/proc_tree kill_all)
  set_tests_properties(exec.procs.kill_all PROPERTIES TIMEOUT 30 ENVIRONMENT PROC_TREE_KILL_ALL=1
    PASS_REGULAR_EXPRESSION "^ready: 1 1\nkill\\(-1, SIGUSR1\\): 0\nacknowledged: 3\nthe sender's own: pending 0\nkill\\(-1, SIGKILL\\): 0\nthe child and the grandchild ended: 1\nchild: killed by signal 9\nthe sender's handler ran: 0\n$")
  # execve through --sysroot (docs/sandbox.md §17): system() and popen() run the prefix's
  # bin/sh (a RISC-V stand-in); without one they get 127; a #! interpreter under the prefix
  add_test(NAME exec.procs.sysroot_exec COMMAND ${_scripts}/sysroot_exec.sh ${_cs} ${_g})
  # Ctrl-C during a timed run of a program that has forked: partial results, exit 130
  add_test(NAME exec.procs.interrupt_after_fork COMMAND ${_scripts}/interrupt_after_fork.sh ${_cs} ${_g}/fork_spin)
  # the same of a dynamically linked procs: its children (posix_spawn, execve, a #! script)
  # are dynamically linked too, each started by ld.so from the sysroot
  foreach(case spawn exec script host)
    add_test(NAME exec.procs.dynamic.${case} COMMAND ${_scripts}/procs_check.sh ${case} ${_cs} ${_g}/procs_dynamic)
  endforeach()
  # the internal --exec-state given something else: one line, exit 125 (a descriptor that is
  # no state, a file of garbage, a state cut short), or bad usage, exit 2
  add_test(NAME exec.procs.bad_state_fd
           COMMAND ${_scripts}/expect_error.sh 125 "^cyclescope: --exec-state 77: not a state a guest execve wrote$"
                   ${_cs} exec --exec-state 77)
  add_test(NAME exec.procs.bad_state_garbage
           COMMAND ${_scripts}/expect_error.sh 125 "^cyclescope: --exec-state 3: not a state a guest execve wrote$"
                   sh -c "exec \"$0\" exec --exec-state 3 3<\"$1\"" ${_cs} ${CMAKE_CURRENT_SOURCE_DIR}/guest/procs.c)
  add_test(NAME exec.procs.bad_state_cut
           COMMAND ${_scripts}/expect_error.sh 125 "^cyclescope: --exec-state 3: not a state a guest execve wrote$"
                   sh -c "printf 'cyclescope-exec-state-3\\0/bin/x\\0003\\0a\\0' >\"$1\" && exec \"$0\" exec --exec-state 3 3<\"$1\""
                   ${_cs} ${CMAKE_CURRENT_BINARY_DIR}/cut-exec-state)
  add_test(NAME exec.procs.bad_state_usage
           COMMAND ${_scripts}/expect_error.sh 2 "--exec-state x: not a descriptor" ${_cs} exec --exec-state x)
  # what a kernel would wait on forever ends the run in one line naming the waiters
  add_test(NAME exec.threads.deadlock
           COMMAND ${_scripts}/expect_error.sh 125 "threads: deadlock: all 2 threads wait and no timeout is pending \\(thread 1000 on futex 0x[0-9a-f]+ at pc 0x[0-9a-f]+, 1001 on futex"
                   ${_cs} exec ${_g}/threads deadlock)
  # the other threads ended: the one left waiting is named as such (it read "all 1 threads")
  add_test(NAME exec.threads.last_deadlock
           COMMAND ${_scripts}/expect_error.sh 125 "threads: deadlock: the one thread left waits and no timeout is pending \\(thread 1000 on futex 0x[0-9a-f]+ at pc 0x[0-9a-f]+\\)$"
                   ${_cs} exec ${_g}/threads last_deadlock)
  # past the 64 threads cyclescope runs: EAGAIN (pthread_create's error) and one warning
  add_test(NAME exec.threads.cap
           COMMAND ${_scripts}/expect_output.sh 0 "warning: clone of a thread beyond the 64 cyclescope runs returns -EAGAIN
created 63 threads, then: Resource temporarily unavailable
joined 63" ${_cs} exec ${_g}/threads many)
  # two threads each reading a pipe only the other writes: the deadlock line names both waits
  add_test(NAME exec.threads.pipe_deadlock
           COMMAND ${_scripts}/expect_error.sh 125 "threads: deadlock: all 2 threads wait and no timeout is pending \\(thread 1000 reading an empty pipe at pc 0x[0-9a-f]+, 1001 reading an empty pipe at pc 0x[0-9a-f]+\\)$"
                   ${_cs} exec ${_g}/threads pipe_deadlock)
  # kill() of the process from a thread: the main thread's handler when main lets the signal
  # through, else the sender's (Linux's complete_signal; qemu-riscv64 picks either thread, or
  # runs it after kill returned, so this is checked against Linux's rule, on both quanta)
  foreach(q 100000 7)
    add_test(NAME exec.threads.process_signal_q${q}
             COMMAND ${_scripts}/expect_output.sh 0 "^kill from a thread, main lets it through: handler in thread 1$
^main blocks it: handler in thread 2$
^kill of another thread's tid: 0, handler in thread 1$" ${_cs} exec --thread-quantum ${q} ${_g}/threads process_signal)
  endforeach()
  # SA_RESTART: a handler interrupting a read of an empty pipe and a futex wait without a
  # timeout runs the call again; without the flag both return EINTR (Linux's handle_signal;
  # not compared with qemu: it cannot promise the signal comes while the thread waits)
  foreach(q 100000 7)
    add_test(NAME exec.threads.restart_q${q}
             COMMAND ${_scripts}/expect_output.sh 0 "^read: 1 \\(the byte\\)$
^futex wait: 0 \\(woken\\)$
^handler ran 2 times$" ${_cs} exec --thread-quantum ${q} ${_g}/threads restart)
    add_test(NAME exec.threads.no_restart_q${q}
             COMMAND ${_scripts}/expect_output.sh 0 "^read: -1 \\(Interrupted system call\\)$
^futex wait: Interrupted system call$
^handler ran 2 times$" ${_cs} exec --thread-quantum ${q} ${_g}/threads no_restart)
  endforeach()
  # a --sysroot that is no directory was taken silently (a static program ran as without it)
  add_test(NAME exec.cli.sysroot_missing
           COMMAND ${_scripts}/expect_error.sh 2 "--sysroot /nonexistent/cyclescope-sysroot: No such file or directory" ${_cs} exec --sysroot /nonexistent/cyclescope-sysroot ${_g}/hello)
  add_test(NAME exec.cli.sysroot_not_dir
           COMMAND ${_scripts}/expect_error.sh 2 "--sysroot ${_g}/hello: not a directory" ${_cs} exec --sysroot ${_g}/hello ${_g}/hello)
  # CYCLESCOPE_SYSROOT naming no directory was taken silently too; "" means none
  add_test(NAME exec.cli.sysroot_env_missing
           COMMAND env CYCLESCOPE_SYSROOT=/nonexistent/cyclescope-sysroot ${_scripts}/expect_error.sh 2 "^cyclescope: CYCLESCOPE_SYSROOT /nonexistent/cyclescope-sysroot: No such file or directory" ${_cs} exec ${_g}/hello)
  add_test(NAME exec.cli.sysroot_env_not_dir
           COMMAND env CYCLESCOPE_SYSROOT=${_g}/hello ${_scripts}/expect_error.sh 2 "^cyclescope: CYCLESCOPE_SYSROOT ${_g}/hello: not a directory" ${_cs} run ${_g}/hello)
  add_test(NAME exec.cli.sysroot_env_empty
           COMMAND env CYCLESCOPE_SYSROOT= ${_scripts}/expect_output.sh 0 "^hello from RISC-V: argc=1$" ${_cs} exec ${_g}/hello)
  add_test(NAME exec.threads.bad_quantum
           COMMAND ${_scripts}/expect_error.sh 2 "--thread-quantum 0: not a positive count" ${_cs} exec --thread-quantum 0 ${_g}/threads sum)
  # every tool on a threaded program: same counts and cycles run after run and from a trace,
  # stallscope's and rpstacks' exact accounting
  foreach(case condvar spin)
    add_test(NAME threads.tools.${case}
             COMMAND ${_scripts}/threads_check.sh ${_cs} ${CMAKE_CURRENT_BINARY_DIR}/threads-${case} ${_g}/threads ${case})
  endforeach()
  add_test(NAME exec.qemu.pipe_use.sigpipe
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/pipe_use sigpipe)
  # SIGPIPE for a pipe from outside the program (inherited across execve, or its stdout):
  # the program's action decides, as on Linux (tests/guest/sigpipe_outside.c, checked natively);
  # before, an exec'd writer got EPIPE alone and a first process died by the host's SIGPIPE
  add_test(NAME exec.sigpipe_outside.tree_default
           COMMAND ${_scripts}/expect_output.sh 0 "^tree default: writer killed by signal 13$" ${_cs} exec ${_g}/sigpipe_outside tree default)
  add_test(NAME exec.sigpipe_outside.tree_handler
           COMMAND ${_scripts}/expect_output.sh 0 "^writer handler: EPIPE, handler ran 1$
^tree handler: writer exit 3$" ${_cs} exec ${_g}/sigpipe_outside tree handler)
  foreach(mode ignore handler)
    add_test(NAME exec.sigpipe_outside.stdout_${mode}
             COMMAND ${_scripts}/expect_output.sh 3 "^writer ${mode}: EPIPE, handler ran" bash -c "set -o pipefail; \"\$0\" exec \"\$1\" writer ${mode} | true" ${_cs} ${_g}/sigpipe_outside)
  endforeach()
  add_test(NAME exec.sigpipe_outside.stdout_default
           COMMAND ${_scripts}/expect_output.sh 141 "" bash -c "set -o pipefail; \"\$0\" exec \"\$1\" writer default | true" ${_cs} ${_g}/sigpipe_outside)
  # a read only the guest itself could satisfy waits forever on Linux: one line, exit 125
  add_test(NAME exec.fault.pipe_forever
           COMMAND ${_scripts}/expect_error.sh 125 "read from an empty pipe would block forever" ${_cs} exec ${_g}/pipe_use block)
  # socketpair(AF_UNIX) (ENOSYS before): both ends read and write, datagram boundaries,
  # shutdown, sendmsg/recvmsg, flags, Linux's refusals; a child serving its parent through one;
  # a thread waiting in recv for main (default quantum and 7); SIGPIPE's default (141)
  foreach(case all fork threads sigpipe)
    add_test(NAME exec.qemu.socketpair.${case}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/socketpair_use ${case})
  endforeach()
  add_test(NAME exec.qemu.socketpair_q7.threads
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --thread-quantum 7 -- ${_g}/socketpair_use threads)
  # sendmmsg/recvmmsg (ENOSYS before): counts, msg_len, MSG_WAITFORONE, truncation, a stream,
  # Linux's errors; a thread's blocking recvmmsg woken message by message, a sendmmsg larger
  # than the socket's buffer read by a thread (default quantum and 7)
  foreach(case mmsg mmsg_threads)
    add_test(NAME exec.qemu.socket_more.${case}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/socket_more ${case})
  endforeach()
  add_test(NAME exec.qemu.socket_more_q7.mmsg_threads
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --thread-quantum 7 -- ${_g}/socket_more mmsg_threads)
  # an epoll instance two processes share: a pipe the other process adds after the fork and
  # writes reaches this one's epoll_wait (main, a thread), also in a program exec'd by the child
  # (the lines of the host kernel for the x86-64 build; qemu cannot exec a RISC-V program here)
  foreach(case main thread)
    add_test(NAME exec.qemu.epoll_shared.${case}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/epoll_shared ${case})
  endforeach()
  add_test(NAME exec.epoll_shared.exec COMMAND ${_cs} exec ${_g}/epoll_shared exec)
  set_tests_properties(exec.epoll_shared.exec PROPERTIES TIMEOUT 60 PASS_REGULAR_EXPRESSION
    "^exec'd child: 1 event, data 77, EPOLLIN\nchild: exit 0\n$")
  # recvmmsg with MSG_WAITALL on a stream: each message waits for its whole buffer, as Linux's
  # do_recvmmsg passes the flag to each recvmsg (before 2026-11-29 it was dropped: one piece a
  # message), with a thread (default quantum and 7) or a child writing; with MSG_WAITFORONE
  # the first message waits for all of it
  foreach(case threads fork one)
    add_test(NAME exec.qemu.mmsg_waitall.${case}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/mmsg_waitall ${case})
  endforeach()
  add_test(NAME exec.qemu.mmsg_waitall_q7.threads
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --thread-quantum 7 -- ${_g}/mmsg_waitall threads)
  # MSG_WAITALL on a stream (it returned what was there): recv, recvfrom and recvmsg get all
  # of what a thread or a child process writes in pieces; end of file, MSG_DONTWAIT, MSG_PEEK
  # and a datagram return what is there. SO_RCVTIMEO/SO_SNDTIMEO (ignored: "would block
  # forever"): EAGAIN when nothing comes in time, on the guest clock; a thread's write before
  # the time is read
  foreach(case waitall waitall_fork timeo timeo_threads)
    add_test(NAME exec.qemu.socket_more.${case}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/socket_more ${case})
  endforeach()
  foreach(case waitall timeo_threads)
    add_test(NAME exec.qemu.socket_more_q7.${case}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --thread-quantum 7 -- ${_g}/socket_more ${case})
  endforeach()
  # recvmmsg's timeout, which qemu-riscv64 ignores (it waits for the third message forever):
  # the lines the host's Linux kernel prints for the same program built for x86-64
  add_test(NAME exec.socket_more.mmsg_timeout
           COMMAND ${_scripts}/expect_output.sh 0 "^recvmmsg timeout 0 +1$
^  \\[0\\] len 1 flags 0 \\[a\\]$
^  left 0\\.000000000$
^recvmmsg timeout 10 s +2$
^  left in \\(9 s, 10 s\\]: 1$
^recvmmsg bad timeout +-1 errno Invalid argument$
^recvmmsg bad timeout, no fd +-1 errno Invalid argument$
^recvmmsg timeout nowhere +-1 errno Bad address$
^recvmmsg empty, timeout +-1 errno Resource temporarily unavailable$
^  timeout 5\\.000000005$" ${_cs} exec ${_g}/socket_more mmsg_timeout)
  # the child execs this program again, which serves through the end it inherited (recv, send,
  # getsockopt: it is a socket still); qemu-riscv64 cannot exec a RISC-V program on this host
  add_test(NAME exec.procs.socketpair_exec COMMAND ${_cs} exec ${_g}/socketpair_use exec)
  set_tests_properties(exec.procs.socketpair_exec PROPERTIES PASS_REGULAR_EXPRESSION
    "reply 13 \\[len 5 first a\\]\nreply 13 \\[len 2 first b\\]\nreply 13 \\[len 9 first g\\]\nshutdown SHUT_WR +0\nwait +1\nchild exit 3\nread eof +0\n$")
  add_test(NAME exec.fault.socket_forever
           COMMAND ${_scripts}/expect_error.sh 125 "read from an empty socket would block forever" ${_cs} exec ${_g}/socketpair_use block)
  # run --simpoints of a program reading back what it parked in its own pipe: each point's
  # forked copy gets a pipe of its own holding the same bytes (emu_private_pipes)
  add_test(NAME simpoint.guest_pipe
           COMMAND ${_scripts}/simpoint_file_input.sh ${_cs} ${CYCLESCOPE_QEMU} ${CMAKE_CURRENT_BINARY_DIR}/simpoint-pipe
                   ${_g}/pipe_park ${_g}/hello)
  # the same with a stream socketpair (emu_private_pipes peeks its bytes into a fresh pair)
  add_test(NAME simpoint.guest_socket
           COMMAND ${_scripts}/simpoint_file_input.sh ${_cs} ${CYCLESCOPE_QEMU} ${CMAKE_CURRENT_BINARY_DIR}/simpoint-socket
                   ${_g}/socket_park ${_g}/hello)
  # chdir/fchdir/getcwd, relative paths after them, rename/unlink/mkdir/rmdir beneath --allow-write
  set(_cwddir ${CMAKE_CURRENT_BINARY_DIR}/cwd-area)
  add_test(NAME exec.qemu.cwd_use
           COMMAND ${CMAKE_COMMAND} -E env bash -c "rm -rf '${_cwddir}' && mkdir -p '${_cwddir}' && exec \"$0\" \"$@\""
                   ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} --allow-write ${_cwddir} -- ${_g}/cwd_use ${_cwddir})
  # chdir out of DIR cannot widen the write sandbox: create, mkdir, rename and unlink there are refused
  set(_escdir ${CMAKE_CURRENT_BINARY_DIR}/cwd-escape/inner)
  file(MAKE_DIRECTORY ${_escdir})
  # access(W_OK) of a file outside --allow-write: EACCES, as open() for writing answers (it was 0)
  set(_accdir ${CMAKE_CURRENT_BINARY_DIR}/access-area)
  file(MAKE_DIRECTORY ${_accdir})
  add_test(NAME sandbox.access_write
           COMMAND ${_scripts}/expect_output.sh 0 "^access\\(inside, W_OK\\) +0$
^access\\(DIR, W_OK\\) +0$
^access\\(outside, R_OK\\) +0$
^access\\(outside, W_OK\\) +Permission denied$
^faccessat\\(outside, R_OK\\|W_OK\\) +Permission denied$
^access\\(link to outside, W_OK\\) +Permission denied$
^access\\(missing outside, W_OK\\) +No such file or directory$
^open\\(outside, O_WRONLY\\) +Permission denied$" ${_cs} exec --allow-write ${_accdir} ${_g}/access_write ${_accdir}
                   ${CMAKE_CURRENT_SOURCE_DIR}/guest/hello.c)
  add_test(NAME sandbox.chdir_escape
           COMMAND ${_scripts}/expect_output.sh 0
                   "create outside after chdir +-1 errno Permission denied
mkdir outside +-1 errno Permission denied
rename out of DIR +-1 errno Permission denied
rename to \\.\\./ +-1 errno Permission denied
unlink \\.\\./ +-1 errno Permission denied
outside file exists +0$
unlink inside +0$
denied the guest write access to escaped-by-chdir \\(it resolves outside --allow-write"
                   ${_cs} exec --allow-write ${_escdir} ${_g}/cwd_use ${_escdir} escape)
  # without --allow-write a rename is refused like any write, in one line
  add_test(NAME sandbox.rename_denied
           COMMAND ${_scripts}/expect_output.sh 0
                   "create inside +-1 errno Permission denied
rename out of DIR +-1 errno Permission denied
denied the guest write access to inside \\(pass --allow-write DIR to allow\\)"
                   ${_cs} exec ${_g}/cwd_use ${_escdir} escape)
  # setitimer(ITIMER_REAL)/alarm on the guest clock: read back, cancel, and SIGALRM's
  # default action at its time (142) in a busy loop, a sleep, pause(), and once unblocked
  # real-time signals queued in order with sigqueue's value, a standard one pending once
  # (tests/guest/rt_signals.c; sigqueue and sigtimedwait were ENOSYS before)
  foreach(mode wait handler)
    add_test(NAME exec.qemu.rt_signals.${mode}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/rt_signals ${mode})
  endforeach()
  # (sigwait: sigtimedwait/sigwaitinfo take the blocked SIGALRM; ENOSYS before)
  foreach(mode query kill sleep pause ignored blocked sigwait)
    add_test(NAME exec.qemu.alarm_use.${mode}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/alarm_use ${mode})
  endforeach()
  # an ignored 1 µs interval timer through an 11-day sleep: skipped, not fired 10^12 times
  add_test(NAME exec.alarm_long_sleep
           COMMAND ${_scripts}/expect_output.sh 0 "nanosleep: 0" ${_cs} exec ${_g}/alarm_use long)
  set_tests_properties(exec.alarm_long_sleep PROPERTIES TIMEOUT 60)
  # a handler for SIGALRM, alarm(1), pause(): the handler runs (it ended the run, exit 125,
  # before signal frames were built)
  add_test(NAME exec.qemu.alarm_use.handler
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/alarm_use handler)
  # signal handlers: the riscv64 frame, rt_sigreturn, masks, flags, the alternate stack, the
  # alarm, faults (tests/guest/signal_handler.c says what each mode does)
  foreach(mode raise nested resethand nodefer altstack alarm segv segv_twice mcontext abort)
    add_test(NAME exec.qemu.signal_handler.${mode}
             COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/signal_handler ${mode})
  endforeach()
  # sa_mask is blocked while the handler runs (kernel/signal.c signal_delivered()); qemu-riscv64
  # 7.2 leaves it out (its handler sees only the signal itself blocked), so not compared with it
  # `run` times a handler as ordinary instructions: the same output, status and count as
  # exec, and stacks that sum to the cycles, on ooo4 and inorder1
  add_test(NAME run.signal_handler COMMAND ${_scripts}/signal_handler_run.sh ${_cs} ${_g})
  add_test(NAME exec.signal_handler.sa_mask
           COMMAND ${_scripts}/expect_output.sh 0 "order: 10 12 -1 10
in handler: SIGUSR1 blocked 1, SIGUSR2 blocked 0
in handler: SIGTERM \\(sa_mask\\) blocked 1"
                   ${_cs} exec ${_g}/signal_handler sa_mask)
  # Zba/Zbb/Zbc/Zbs: every instruction over corner operands, and a program GCC built with
  # them, as qemu runs them (docs/isa.md, "Bit manipulation")
  add_test(NAME exec.qemu.bitmanip_ops
           COMMAND ${_scripts}/bitmanip_ops_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} ${_g}/bitmanip_ops)
  add_test(NAME exec.qemu.bitmanip_bitset
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/bitmanip_bitset)
  add_test(NAME exec.qemu.bitmanip_bitset.large
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/bitmanip_bitset 3000000)
  add_test(NAME exec.qemu.isa_int COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/isa_int)
  add_test(NAME exec.qemu.isa_fp COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/isa_fp)
  add_test(NAME exec.qemu.syscalls COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs}
           -- ${_g}/syscalls basic ${_g}/hello)
  # Every F/D instruction in every rounding mode on hard operands: results and fflags as qemu.
  add_test(NAME exec.qemu.fptest COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/fptest)
  add_test(NAME exec.qemu.fptest.seed777
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/fptest 2000 777)
  # Zfh: every instruction in every rounding mode on hard and on random operands, results and
  # fflags as qemu's (qemu 7.2 runs Zfh only when its CPU is given the extension; docs/isa.md, "Zfh")
  add_test(NAME exec.qemu.zfh_ops COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/zfh_ops)
  add_test(NAME exec.qemu.zfh_ops.seed99
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/zfh_ops 1000 99)
  add_test(NAME exec.qemu.zfh_kernel COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/zfh_kernel)
  set_tests_properties(exec.qemu.zfh_ops exec.qemu.zfh_ops.seed99 exec.qemu.zfh_kernel
                       PROPERTIES ENVIRONMENT "QEMU_CPU=rv64,Zfh=true")
  # the half-precision kernel through the verbs that time it (flops, stacks, trace/sim)
  add_test(NAME zfh.verbs COMMAND ${_scripts}/zfh_verbs.sh ${_cs} ${_g}/zfh_kernel)
  # Scalar cryptography: every instruction on corner and random operands, and the seed CSR's
  # SIGILL, as qemu's (qemu 7.2 runs them only when its CPU is given the extensions; docs/isa.md,
  # "Scalar cryptography"); the kernel's AES/SHA/SM3/SM4 results are the standards' test vectors
  add_test(NAME exec.qemu.crypto_ops COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/crypto_ops)
  add_test(NAME exec.qemu.crypto_ops.seed7
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/crypto_ops 1000 7)
  add_test(NAME exec.qemu.crypto_kernel
           COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${_g}/crypto_kernel)
  set_tests_properties(exec.qemu.crypto_ops exec.qemu.crypto_ops.seed7 exec.qemu.crypto_kernel
                       PROPERTIES ENVIRONMENT
                       "QEMU_CPU=rv64,zbkb=true,zbkc=true,zbkx=true,zknd=true,zkne=true,zknh=true,zksed=true,zksh=true")
  add_test(NAME exec.crypto_kernel COMMAND ${_cs} exec ${_g}/crypto_kernel)
  # the kernel through the verbs that time it (five configurations, stacks, trace/sim, trace dump)
  add_test(NAME crypto.verbs COMMAND ${_scripts}/crypto_verbs.sh ${_cs} ${_g}/crypto_kernel)
  # Zicond, Zcb, Zfa: no qemu runs them; checked against the specifications' definitions
  # (Zcb: each compressed form against its 32-bit expansion) by self-checking programs
  add_test(NAME exec.zicond_zcb COMMAND ${_cs} exec ${_g}/zx_zicond_zcb)
  set_tests_properties(exec.zicond_zcb PROPERTIES PASS_REGULAR_EXPRESSION "\nok: 0 mismatches\n")
  add_test(NAME exec.zfa COMMAND ${_cs} exec ${_g}/zx_zfa)
  set_tests_properties(exec.zfa PROPERTIES PASS_REGULAR_EXPRESSION "\nok: 0 mismatches\n")
  # The self-checking programs must also pass on their own (exit 0), not merely agree.
  foreach(g isa_int isa_fp)
    add_test(NAME exec.selfcheck.${g} COMMAND ${_cs} exec ${_g}/${g})
  endforeach()
  add_test(NAME exec.selfcheck.syscalls COMMAND ${_cs} exec ${_g}/syscalls basic ${_g}/hello)

  # Writes: denied by default, allowed under --allow-write DIR.
  set(_wdir ${CMAKE_CURRENT_BINARY_DIR}/write-area)
  file(MAKE_DIRECTORY ${_wdir})
  add_test(NAME exec.write.denied COMMAND ${_cs} exec ${_g}/syscalls write ${_wdir})
  set_tests_properties(exec.write.denied PROPERTIES PASS_REGULAR_EXPRESSION "write denied: Permission denied")
  add_test(NAME exec.write.allowed COMMAND ${_cs} exec --allow-write ${_wdir} ${_g}/syscalls write ${_wdir})
  set_tests_properties(exec.write.allowed PROPERTIES PASS_REGULAR_EXPRESSION "write allowed: written by the guest")
  add_test(NAME exec.write.outside_allowed COMMAND ${_cs} exec --allow-write ${_wdir} ${_g}/syscalls write ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(exec.write.outside_allowed PROPERTIES PASS_REGULAR_EXPRESSION "write denied")

  if(CYCLESCOPE_HAVE_WORKLOADS)
    foreach(w IN LISTS CYCLESCOPE_WORKLOADS)
      add_test(NAME exec.qemu.workload.${w}
               COMMAND ${_scripts}/compare_qemu.sh ${CYCLESCOPE_QEMU} ${_cs} -- ${CYCLESCOPE_WORKLOAD_DIR}/${w})
    endforeach()
  endif()
endif()

# cyclescope disasm prints what objdump -d prints, line for line.
if(CYCLESCOPE_RISCV_OBJDUMP AND CYCLESCOPE_HAVE_WORKLOADS)
  foreach(w IN LISTS CYCLESCOPE_WORKLOADS)
    add_test(NAME disasm.listing.${w}
             COMMAND ${_scripts}/disasm_listing.sh ${CYCLESCOPE_RISCV_OBJDUMP} ${_cs} ${CYCLESCOPE_WORKLOAD_DIR}/${w})
  endforeach()
  # stripped: objdump writes an address no symbol names as 0x…
  find_program(CYCLESCOPE_RISCV_STRIP riscv64-linux-gnu-strip)
  if(CYCLESCOPE_RISCV_STRIP)
    add_test(NAME disasm.listing_stripped
             COMMAND ${_scripts}/disasm_listing.sh ${CYCLESCOPE_RISCV_OBJDUMP} ${_cs}
                     ${CYCLESCOPE_WORKLOAD_DIR}/sort ${CYCLESCOPE_RISCV_STRIP})
  endif()
  # dynamically linked (the cross gcc's default): the PLT stubs named as objdump names them
  foreach(p hello_dynamic threads_dynamic hot_loop_dynamic_nopie)
    add_test(NAME disasm.listing_dynamic.${p}
             COMMAND ${_scripts}/disasm_dynamic.sh ${CYCLESCOPE_RISCV_OBJDUMP} ${_cs} ${CYCLESCOPE_GUEST_DIR}/${p})
  endforeach()
endif()
