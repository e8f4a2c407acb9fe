/* Emulator speed: fast-forward MIPS, MIPS with µop records, MIPS of the
 * basic-block-counting fast-forward (SimPoint BBVs, a vector taken every 10 M
 * instructions), and the ratio to qemu-riscv64's wall time on the same
 * program, measured in the same run.
 *
 *   bench_emu [WORKLOAD_DIR] [name…]     (default: sort dep_add stencil randaccess)
 *
 * Each figure is the best of three runs, to damp the noise of a shared machine. */
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "emu/emu.h"

extern char **environ;

static emu_t *start(const char *path) {
    static const char *const env[] = {"LANG=C", NULL};
    const char *argv[] = {path, NULL};
    emu_options opt = {.argc = 1, .argv = argv, .envp = env, .quiet = true};
    cs_error err;
    emu_t *e = emu_create(path, &opt, &err);
    if (!e) {
        fprintf(stderr, "bench_emu: %s\n", err.msg);
        exit(1);
    }
    return e;
}

/* Seconds for a whole run; *icount gets the instruction count. Guest stdout is
 * not silenced (it is one or two lines). */
static double run_fast(const char *path, uint64_t *icount) {
    emu_t *e = start(path);
    double t = cs_now();
    emu_run(e, UINT64_MAX);
    t = cs_now() - t;
    *icount = emu_icount(e);
    emu_destroy(e);
    return t;
}

static double run_bbv(const char *path) {
    emu_t *e = start(path);
    emu_bbv *b = emu_bbv_create();
    uint32_t *ids = NULL;
    uint64_t *counts = NULL;
    size_t cap = 0, sink = 0;
    double t = cs_now();
    while (emu_state(e) == EMU_RUNNING) {
        emu_run_bbv(e, b, 10000000);
        if (emu_bbv_block_count(b) > cap) {
            cap = emu_bbv_block_count(b) * 2;
            ids = cs_realloc(ids, cap * sizeof *ids);
            counts = cs_realloc(counts, cap * sizeof *counts);
        }
        sink += emu_bbv_take(b, ids, counts);
    }
    t = cs_now() - t;
    if (sink == 42) puts("");
    free(ids);
    free(counts);
    emu_bbv_destroy(b);
    emu_destroy(e);
    return t;
}

static double run_records(const char *path) {
    enum { BATCH = 4096 };
    static uop buf[BATCH];
    emu_t *e = start(path);
    double t = cs_now();
    uint64_t sink = 0;
    while (emu_state(e) == EMU_RUNNING) {
        uint64_t n = emu_run_uops(e, buf, BATCH);
        for (uint64_t i = 0; i < n; i += 64) sink += buf[i].pc; /* touch the records */
    }
    t = cs_now() - t;
    if (sink == 42) puts("");
    emu_destroy(e);
    return t;
}

static double run_qemu(const char *path) {
    const char *argv[] = {"qemu-riscv64", path, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", 1, 0);
    pid_t pid;
    double t = cs_now();
    if (posix_spawnp(&pid, "qemu-riscv64", &fa, NULL, (char *const *)argv, environ) != 0) return -1;
    int status;
    waitpid(pid, &status, 0);
    t = cs_now() - t;
    posix_spawn_file_actions_destroy(&fa);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? t : -1;
}

/* The guests print a line or two; keep them off the table. */
static int saved_stdout = -1;
static void guest_output_off(void) {
    fflush(stdout);
    saved_stdout = dup(1);
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    close(null);
}
static void guest_output_on(void) {
    dup2(saved_stdout, 1);
    close(saved_stdout);
}

/* The smaller of two times, -1 standing for "failed". */
static double best(double a, double b) { return b >= 0 && (a < 0 || b < a) ? b : a; }

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : CYCLESCOPE_WORKLOAD_DIR;
    const char *defaults[] = {"sort", "dep_add", "stencil", "randaccess"};
    int count = argc > 2 ? argc - 2 : 4;
    printf("%-12s %12s %10s %10s %10s %10s %9s %9s %9s\n", "workload", "instructions", "ff MIPS", "bbv MIPS",
           "rec MIPS", "qemu MIPS", "ff/qemu", "bbv/ff", "rec/ff");
    for (int i = 0; i < count; i++) {
        const char *name = argc > 2 ? argv[i + 2] : defaults[i];
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        uint64_t n = 0;
        guest_output_off();
        /* rounds interleave the modes, so that a busy spell on the shared machine
         * hits them alike and the ratios stay meaningful */
        double ff = -1, bbv = -1, rec = -1, q = -1;
        for (int round = 0; round < 3; round++) {
            ff = best(ff, run_fast(path, &n));
            bbv = best(bbv, run_bbv(path));
            rec = best(rec, run_records(path));
            q = best(q, run_qemu(path));
        }
        guest_output_on();
        double mf = n / ff / 1e6, mb = n / bbv / 1e6, mr = n / rec / 1e6, mq = q > 0 ? n / q / 1e6 : 0;
        printf("%-12s %12llu %10.1f %10.1f %10.1f %10.1f %9.3f %9.2f %9.2f\n", name, (unsigned long long)n, mf, mb, mr,
               mq, mq > 0 ? mf / mq : 0, mb / mf, mr / mf);
        fflush(stdout);
    }
    return 0;
}
