/* .cst trace files: size and speed on the bundled workloads at their default
 * sizes, with ChampSim xz as the size comparison.
 *
 *   bench_trace [--xz-prefix N] [--size-only] [--check-size B] [name…]   (default: every workload)
 *
 * For each workload: the emulator's µops are written to a .cst file (write
 * rate: µops per second spent in cst_writer_write and finish, emulation not
 * counted); the file is read back (read rate, best of two; every µop is
 * compared with a second emulator run in a separate, untimed pass over the first
 * million); bytes per instruction of the whole file. ChampSim comparison: the
 * first N instructions (default 2M) exported to a ChampSim .xz (xz preset 6, as
 * the public traces) and to .cst, bytes per instruction of each.
 * --size-only records and measures size only (no reading back, no ChampSim);
 * --check-size B exits 1 when the mean .cst bytes/instruction exceeds B. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emu/emu.h"
#include "trace/trace.h"

enum { BATCH = 1 << 16 };

static const char *dir = CYCLESCOPE_WORKLOAD_DIR;

static emu_t *start(const char *path) {
    static const char *const env[] = {"LANG=C", NULL};
    const char *argv[] = {path, NULL};
    emu_options opt = {.argc = 1, .argv = argv, .envp = env, .quiet = true};
    cs_error err;
    emu_t *e = emu_create(path, &opt, &err);
    if (!e) {
        fprintf(stderr, "bench_trace: %s\n", err.msg);
        exit(1);
    }
    return e;
}

static void die(const cs_error *err) {
    fprintf(stderr, "bench_trace: %s\n", err->msg);
    exit(1);
}

static uint64_t file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

typedef struct result {
    uint64_t insns, cst_bytes, prefix, prefix_cst, prefix_xz;
    double write_rate, read_rate;
} result;

/* Record the whole run (or the first `limit` instructions) to `path`; returns
 * the seconds spent writing. With `xz`, also export the same µops to it. */
static double record(const char *prog, const char *path, uint64_t limit, const char *xz, uint64_t *insns) {
    emu_t *e = start(prog);
    const char *argv[] = {prog};
    cst_meta meta = {.isa = CST_ISA_RV64GC, .argc = 1, .argv = argv};
    cs_error err;
    cst_writer *w = cst_writer_create(path, &meta, &err);
    if (!w) die(&err);
    champsim_options copt = {0};
    champsim_writer *cw = xz ? champsim_writer_create(xz, &copt, CST_ISA_RV64GC, &err) : NULL;
    if (xz && !cw) die(&err);
    uop *buf = malloc(BATCH * sizeof *buf);
    double spent = 0;
    uint64_t done = 0;
    while (emu_state(e) == EMU_RUNNING && done < limit) {
        uint64_t n = emu_run_uops(e, buf, limit - done < BATCH ? limit - done : BATCH);
        double t = cs_now();
        if (!cst_writer_write(w, buf, n, &err)) die(&err);
        spent += cs_now() - t;
        if (cw && !champsim_writer_write(cw, buf, n, &err)) die(&err);
        done += n;
    }
    double t = cs_now();
    if (!cst_writer_finish(w, &err)) die(&err);
    spent += cs_now() - t;
    if (cw && !champsim_writer_finish(cw, NULL, &err)) die(&err);
    free(buf);
    emu_destroy(e);
    *insns = done;
    return spent;
}

static double read_back(const char *path, uint64_t expect) {
    cs_error err;
    cst_reader *r = cst_open(path, &err);
    if (!r) die(&err);
    uop *buf = malloc(4096 * sizeof *buf);
    uop_source *src = cst_reader_source(r);
    uint64_t total = 0, sum = 0;
    double t = cs_now();
    long n;
    while ((n = uop_source_read(src, buf, 4096, &err)) > 0) {
        total += (uint64_t)n;
        sum += buf[n - 1].pc;
    }
    t = cs_now() - t;
    if (n < 0) die(&err);
    if (total != expect) {
        fprintf(stderr, "bench_trace: %s: read %llu µops, wrote %llu\n", path, (unsigned long long)total,
                (unsigned long long)expect);
        exit(1);
    }
    free(buf);
    uop_source_destroy(src);
    return sum == 1 ? 0 : t; /* keep the loop's work observable */
}

/* The first million records equal a fresh emulator run's. */
static void verify(const char *prog, const char *path) {
    emu_t *e = start(prog);
    cs_error err;
    cst_reader *r = cst_open(path, &err);
    if (!r) die(&err);
    uop a[4096], b[4096];
    uint64_t done = 0;
    while (done < 1000000) {
        uint64_t n = emu_run_uops(e, a, 4096);
        long m = uop_source_read(cst_reader_source(r), b, (size_t)n, &err);
        if (m < 0) die(&err);
        if ((uint64_t)m != n || memcmp(a, b, n * sizeof *a) != 0) {
            fprintf(stderr, "bench_trace: %s: records differ from the emulator near µop %llu\n", path,
                    (unsigned long long)done);
            exit(1);
        }
        if (n < 4096) break;
        done += n;
    }
    cst_close(r);
    emu_destroy(e);
}

static bool size_only;

static void run(const char *name, uint64_t xz_prefix, result *res) {
    char prog[4096], cst[256], pcst[256], xz[256];
    snprintf(prog, sizeof prog, "%s/%s", dir, name);
    snprintf(cst, sizeof cst, "/tmp/bench_trace_%d_%s.cst", (int)getpid(), name);
    snprintf(pcst, sizeof pcst, "/tmp/bench_trace_%d_%s.prefix.cst", (int)getpid(), name);
    snprintf(xz, sizeof xz, "/tmp/bench_trace_%d_%s.champsim.xz", (int)getpid(), name);
    memset(res, 0, sizeof *res);
    double w = record(prog, cst, UINT64_MAX, NULL, &res->insns);
    res->write_rate = (double)res->insns / w / 1e6;
    res->cst_bytes = file_size(cst);
    if (size_only) {
        unlink(cst);
        return;
    }
    double r1 = read_back(cst, res->insns), r2 = read_back(cst, res->insns);
    res->read_rate = (double)res->insns / (r1 < r2 ? r1 : r2) / 1e6;
    verify(prog, cst);
    if (xz_prefix) {
        record(prog, pcst, xz_prefix, xz, &res->prefix);
        res->prefix_cst = file_size(pcst);
        res->prefix_xz = file_size(xz);
    }
    unlink(cst);
    unlink(pcst);
    unlink(xz);
}

/* Workload names from the manifest, in its order. */
static int manifest(char names[][64], int max) {
    char path[4096];
    snprintf(path, sizeof path, "%s", CYCLESCOPE_MANIFEST);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "bench_trace: cannot open %s\n", path);
        exit(1);
    }
    char line[512];
    int n = 0;
    while (n < max && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        if (sscanf(line, "%63s", names[n]) == 1) n++;
    }
    fclose(f);
    return n;
}

int main(int argc, char **argv) {
    /* the guests' own output goes to /dev/null, the table to our stdout */
    fflush(stdout);
    int keep = dup(1), null = open("/dev/null", O_WRONLY);
    if (keep < 0 || null < 0 || dup2(null, 1) < 0) return 1;
    close(null);
    FILE *out = fdopen(keep, "w");
    static char names[64][64];
    int n = 0;
    uint64_t xz_prefix = 2000000;
    double check = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--xz-prefix") && i + 1 < argc) {
            if (!cs_parse_count(argv[++i], &xz_prefix)) return 2;
        } else if (!strcmp(argv[i], "--check-size") && i + 1 < argc) {
            check = atof(argv[++i]);
        } else if (!strcmp(argv[i], "--size-only")) {
            size_only = true;
            xz_prefix = 0;
        } else if (n < 64) {
            snprintf(names[n++], sizeof names[0], "%s", argv[i]);
        }
    }
    if (!n) n = manifest(names, 64);
    fprintf(out, "%-14s %12s %11s %8s %9s %9s | %9s %9s %9s\n", "workload", "instructions", ".cst bytes", "B/instr",
            "write M/s", "read M/s", "prefix", "cst B/in", "xz B/in");
    double sum_bpi = 0, sum_w = 0, sum_r = 0, sum_pc = 0, sum_px = 0;
    uint64_t tot_i = 0, tot_b = 0;
    for (int i = 0; i < n; i++) {
        result r;
        run(names[i], xz_prefix, &r);
        double bpi = (double)r.cst_bytes / (double)(r.insns ? r.insns : 1);
        double pc = r.prefix ? (double)r.prefix_cst / (double)r.prefix : 0,
               px = r.prefix ? (double)r.prefix_xz / (double)r.prefix : 0;
        fprintf(out, "%-14s %12llu %11llu %8.3f %9.1f %9.1f | %9llu %9.3f %9.3f\n", names[i],
                (unsigned long long)r.insns, (unsigned long long)r.cst_bytes, bpi, r.write_rate, r.read_rate,
                (unsigned long long)r.prefix, pc, px);
        fflush(out);
        sum_bpi += bpi, sum_w += r.write_rate, sum_r += r.read_rate, sum_pc += pc, sum_px += px;
        tot_i += r.insns, tot_b += r.cst_bytes;
    }
    fprintf(out, "%-14s %12llu %11llu %8.3f %9.1f %9.1f | %9s %9.3f %9.3f\n", "mean", (unsigned long long)tot_i,
            (unsigned long long)tot_b, sum_bpi / n, sum_w / n, sum_r / n, "", sum_pc / n, sum_px / n);
    fprintf(out, "(B/instr mean is the mean of the per-workload figures; over all instructions together: %.3f)\n",
            (double)tot_b / (double)(tot_i ? tot_i : 1));
    if (check > 0 && sum_bpi / n > check) {
        fprintf(out, "FAIL: mean %.3f bytes/instruction exceeds %.3f\n", sum_bpi / n, check);
        return 1;
    }
    return 0;
}
