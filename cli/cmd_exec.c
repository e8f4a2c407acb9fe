/* cyclescope exec: run a program like qemu-riscv64 does. */
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void help_exec(void) {
    printf("usage: cyclescope exec [options] PROG [ARGS…]\n"
           "\n"
           "Run the RISC-V executable PROG (statically linked, or dynamically with its\n"
           "libraries from --sysroot) in the emulator, with its stdin, stdout and stderr,\n"
           "and exit with its exit code (like qemu-riscv64 -L).\n"
           "\n"
           "options:\n"
           "  --stats            print the instruction count, the mix by operation class\n"
           "                     and the speed to stderr when the program ends\n"
           "  --max N            stop after N instructions (K, M, G suffixes allowed)\n" CLI_GUEST_OPTIONS_HELP "\n"
           "exit code: the program's; 128+signal when it faults (139 segmentation fault,\n"
           "132 illegal instruction, 134 abort()) as under qemu; 125 if cyclescope cannot\n"
           "run it (bad ELF file, unsupported system call with --strict-syscalls, guest\n"
           "memory past the host limit); 2 for bad usage.\n");
}

static void print_stats(const char *prog, uint64_t icount, const uint64_t *mix, double seconds) {
    fprintf(stderr, "cyclescope: %s: %" PRIu64 " instructions in %.3f s, %.1f MIPS (with µop records)\n", prog, icount,
            seconds, icount / (seconds > 0 ? seconds : 1e-9) / 1e6);
    fprintf(stderr, "  %-16s %14s %7s\n", "class", "count", "share");
    for (int c = 0; c < OPC_COUNT; c++) {
        if (!mix[c]) continue;
        fprintf(stderr, "  %-16s %14" PRIu64 " %6.2f%%\n", isa_class_name((op_class)c), mix[c],
                100.0 * (double)mix[c] / (double)(icount ? icount : 1));
    }
}

int cmd_exec(int argc, char **argv) {
    static const struct option longopts[] = {{"stats", no_argument, 0, 's'},
                                             {"max", required_argument, 0, 'm'},
                                             /* hidden: the process a guest's execve made (docs/sandbox.md §15) */
                                             {"exec-state", required_argument, 0, 'X'},
                                             CLI_GUEST_LONG_OPTIONS,
                                             {0, 0, 0, 0}};
    cli_guest_options g;
    cli_guest_defaults(&g);
    bool stats = false, bad = false;
    uint64_t max = UINT64_MAX;
    int opt, exec_state = -1;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "+", longopts, "exec")) != -1) {
        if (opt == 's') stats = true;
        else if (opt == 'X') {
            uint64_t fd;
            if (!cs_parse_count(optarg, &fd) || fd > INT32_MAX)
                return cli_usage("exec", "--exec-state %s: not a descriptor", optarg);
            exec_state = (int)fd;
        } else if (opt == 'm') {
            if (!cs_parse_count(optarg, &max)) return cli_usage("exec", "--max %s: not a count", optarg);
            if (max == 0) return cli_usage("exec", "--max %s: not a positive count", optarg); /* as every verb */
        } else if (!cli_guest_option(&g, opt, optarg, "exec", &bad)) {
            return cli_bad_option("exec", argv);
        }
        if (bad) return EXIT_USAGE;
    }
    emu_t *e;
    const char *prog;
    if (exec_state >= 0) { /* the guest's options, program and arguments are in the state */
        cs_error err;
        e = emu_create_exec_state(exec_state, &err);
        if (!e) cli_fail("%s", err.msg);
        prog = e ? emu_path(e) : "";
    } else {
        if (optind >= argc) return cli_usage("exec", "no program given");
        /* a guest execve replaces this process when nothing is counted or stopped here */
        g.emu.may_exec = !stats && max == UINT64_MAX;
        e = cli_guest_create(&g, argc - optind, argv + optind);
        prog = argv[optind];
    }
    if (!e) return EXIT_RUN_FAILED;

    double start = cs_now();
    uint64_t mix[OPC_COUNT] = {0};
    if (stats) {
        enum { BATCH = 4096 };
        uop *buf = cs_malloc(BATCH * sizeof(uop));
        while (emu_state(e) == EMU_RUNNING && emu_icount(e) < max) {
            uint64_t want = max - emu_icount(e) < BATCH ? max - emu_icount(e) : BATCH;
            uint64_t n = emu_run_uops(e, buf, want);
            for (uint64_t i = 0; i < n; i++) mix[buf[i].op_class]++;
        }
        free(buf);
    } else {
        emu_run(e, max);
    }
    double seconds = cs_now() - start;
    fflush(stdout);
    if (exec_state >= 0) emu_end_child_process(e); /* a guest's child: as the guest ended */

    int rc;
    switch (emu_state(e)) {
    case EMU_EXITED: rc = emu_exit_code(e); break;
    case EMU_FAILED:
        /* a writer ended by SIGPIPE (`exec PROG | head`) is said by no one, as under a shell
         * or qemu-riscv64; its exit code says it */
        if (emu_fault_signal(e) != SIGPIPE) cli_fail("%s", emu_error(e));
        /* a guest fault exits as the signal would under Linux or qemu (139 for SIGSEGV) */
        rc = emu_fault_signal(e) ? 128 + emu_fault_signal(e) : EXIT_RUN_FAILED;
        break;
    default:
        fprintf(stderr, "cyclescope: %s: stopped after %" PRIu64 " instructions (--max)\n", prog, emu_icount(e));
        rc = 0;
    }
    if (stats) print_stats(prog, emu_icount(e), mix, seconds);
    emu_destroy(e);
    return rc;
}
