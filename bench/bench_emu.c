/* Emulator speed: fast-forward MIPS, MIPS with µop records, and the ratio to
 * qemu-riscv64's wall time on the same program, measured in the same run.
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

static double best3(double a, double b, double c) {
    double m = a;
    if (b >= 0 && (m < 0 || b < m)) m = b;
    if (c >= 0 && (m < 0 || c < m)) m = c;
    return m;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : CYCLESCOPE_WORKLOAD_DIR;
    const char *defaults[] = {"sort", "dep_add", "stencil", "randaccess"};
    int count = argc > 2 ? argc - 2 : 4;
    printf("%-12s %12s %10s %10s %10s %9s %9s\n", "workload", "instructions", "ff MIPS", "rec MIPS", "qemu MIPS",
           "ff/qemu", "rec/ff");
    for (int i = 0; i < count; i++) {
        const char *name = argc > 2 ? argv[i + 2] : defaults[i];
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        uint64_t n = 0;
        guest_output_off();
        double ff = best3(run_fast(path, &n), run_fast(path, &n), run_fast(path, &n));
        double rec = best3(run_records(path), run_records(path), run_records(path));
        double q = best3(run_qemu(path), run_qemu(path), run_qemu(path));
        guest_output_on();
        double mf = n / ff / 1e6, mr = n / rec / 1e6, mq = q > 0 ? n / q / 1e6 : 0;
        printf("%-12s %12llu %10.1f %10.1f %10.1f %9.3f %9.2f\n", name, (unsigned long long)n, mf, mr, mq,
               mq > 0 ? mf / mq : 0, mr / mf);
        fflush(stdout);
    }
    return 0;
}
