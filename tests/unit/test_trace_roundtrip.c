/* Round trips on every bundled workload (small arguments from the manifest):
 *  - emulator -> .cst (through the tee, the writer as a uop_source) -> reader
 *    gives records identical, field by field, to a second emulator run; on
 *    every other workload the µops carry their results (--values);
 *  - .cst -> ChampSim (raw, .gz or .xz) -> import --riscv -> .cst gives, for
 *    every µop, exactly the projection of test_trace_util.h: every field a
 *    ChampSim record carries, and nothing that it cannot.
 *   test_trace_roundtrip                  every workload, small arguments
 *   test_trace_roundtrip --full NAME…     the named workloads at default size, the
 *                                         emulator / .cst identity only */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emu/emu.h"
#include "test_trace_util.h"

enum { CHUNK = 4096, MAX_WORKLOADS = 64 };

typedef struct workload {
    char name[64], arg[64];
    int index;
} workload;

static workload workloads[MAX_WORKLOADS];
static bool full; /* default sizes: the .cst identity only (a ChampSim copy would be gigabytes) */

/* Odd-numbered workloads are recorded with results (CST_FIELD_VALUES). */
static bool with_values(const workload *w) { return w->index % 2 == 1; }

static emu_t *start(const workload *w) {
    static char path[MAX_WORKLOADS][4096];
    snprintf(path[w->index], sizeof path[0], "%s/workloads/%s", getenv("CYCLESCOPE_BUILD"), w->name);
    const char *argv[] = {path[w->index], w->arg, NULL};
    static const char *const env[] = {"LANG=C", NULL};
    emu_options opt = {
        .argc = w->arg[0] ? 2 : 1, .argv = argv, .envp = env, .quiet = true, .record_values = with_values(w)};
    cs_error err;
    emu_t *e = emu_create(path[w->index], &opt, &err);
    if (!e) fail_msg("%s", err.msg);
    return e;
}

/* Read exactly n µops (fewer only at the end of the stream). */
static size_t fill(uop_source *s, uop *buf, size_t n) {
    size_t got = 0;
    cs_error err;
    while (got < n) {
        long k = uop_source_read(s, buf + got, n - got, &err);
        if (k < 0) fail_msg("%s", err.msg);
        if (k == 0) break;
        got += (size_t)k;
    }
    return got;
}

static void test_workload(void **state) {
    const workload *w = *state;
    char cst[256], cs[256], back[256];
    tmp_path(cst, sizeof cst, "wl.cst");
    /* mostly raw (fast); one workload through xz and two through gzip */
    const char *ext = w->index == 9 ? "xz" : w->index == 2 || w->index == 13 ? "gz" : "champsim";
    char name[64];
    snprintf(name, sizeof name, "wl.champsim.%s", ext);
    tmp_path(cs, sizeof cs, name);
    tmp_path(back, sizeof back, "wl.back.cst");
    cs_error err;

    /* 1. emulator -> .cst through the tee */
    emu_t *e = start(w);
    const char *argv[] = {w->name, w->arg};
    cst_meta meta = {.isa = CST_ISA_RV64GC,
                     .fields = CST_FIELDS_ALL | (with_values(w) ? CST_FIELD_VALUES : 0),
                     .argc = 2,
                     .argv = argv,
                     .frame_uops = 300000,
                     .level = 1};
    cst_writer *wr = cst_writer_create(cst, &meta, &err);
    if (!wr) fail_msg("%s", err.msg);
    uop_source *es = emu_source_create(e), *tee = cst_tee_create(es, wr);
    uop *a = malloc(CHUNK * sizeof *a), *b = malloc(CHUNK * sizeof *b);
    uint64_t total = 0;
    size_t k;
    while ((k = fill(tee, a, CHUNK)) > 0) total += k;
    assert_int_equal(emu_state(e), EMU_EXITED);
    assert_true(cst_writer_finish(wr, &err));
    uop_source_destroy(tee);
    uop_source_destroy(es);
    emu_destroy(e);
    assert_true(total > 100000);

    /* 2. a second run against the file, record by record */
    e = start(w);
    cst_reader *r = cst_open(cst, &err);
    if (!r) fail_msg("%s", err.msg);
    assert_int_equal(cst_reader_info(r)->uops, total);
    uint64_t done = 0, valued = 0;
    char msg[600];
    for (;;) {
        size_t n = (size_t)emu_run_uops(e, a, CHUNK);
        size_t m = fill(cst_reader_source(r), b, CHUNK);
        assert_int_equal(m, n);
        for (size_t i = 0; i < m; i++) valued += (b[i].flags & UOP_HAS_VALUE) != 0;
        if (memcmp(a, b, n * sizeof *a) != 0)
            for (size_t i = 0; i < n; i++)
                if (uop_diff(&a[i], &b[i], msg, sizeof msg))
                    fail_msg("%s: µop %llu:\n%s", w->name, (unsigned long long)(done + i), msg);
        done += n;
        if (n < CHUNK) break;
    }
    assert_int_equal(done, total);
    if (with_values(w)) assert_true(valued > total / 4); /* most instructions write a register */
    else assert_int_equal(valued, 0);
    emu_destroy(e);
    if (full) {
        cst_close(r);
        free(a);
        free(b);
        unlink(cst);
        return;
    }

    /* 3. .cst -> ChampSim -> .cst */
    assert_true(cst_reader_seek(r, 0, &err));
    champsim_options copt = {.level = 1};
    champsim_writer *cw = champsim_writer_create(cs, &copt, CST_ISA_RV64GC, &err);
    if (!cw) fail_msg("%s", err.msg);
    while ((k = fill(cst_reader_source(r), a, CHUNK)) > 0)
        if (!champsim_writer_write(cw, a, k, &err)) fail_msg("%s", err.msg);
    champsim_export_stats st;
    if (!champsim_writer_finish(cw, &st, &err)) fail_msg("%s", err.msg);
    assert_int_equal(st.records, total);
    copt.riscv = true;
    uop_source *imp = champsim_open(cs, &copt, &err);
    if (!imp) fail_msg("%s", err.msg);
    const char *bargv[] = {cs};
    cst_meta bmeta = {.isa = CST_ISA_RV64GC, .fields = CST_FIELDS_CHAMPSIM, .argc = 1, .argv = bargv, .level = 1};
    cst_writer *bw = cst_writer_create(back, &bmeta, &err);
    while ((k = fill(imp, a, CHUNK)) > 0)
        if (!cst_writer_write(bw, a, k, &err)) fail_msg("%s", err.msg);
    assert_true(cst_writer_finish(bw, &err));
    uop_source_destroy(imp);

    cst_reader *rb = cst_open(back, &err);
    if (!rb) fail_msg("%s", err.msg);
    assert_int_equal(cst_reader_info(rb)->uops, total);
    assert_true(cst_reader_seek(r, 0, &err));
    done = 0;
    while ((k = fill(cst_reader_source(r), a, CHUNK)) > 0) {
        assert_int_equal(fill(cst_reader_source(rb), b, k), k);
        for (size_t i = 0; i < k; i++) {
            uop want;
            champsim_projection(&a[i], done + i == total - 1, false, &want);
            if (uop_diff(&want, &b[i], msg, sizeof msg))
                fail_msg("%s: µop %llu after export and import (%s):\n%s", w->name, (unsigned long long)(done + i), ext,
                         msg);
        }
        done += k;
    }
    assert_int_equal(done, total);
    cst_close(rb);
    cst_close(r);
    free(a);
    free(b);
    unlink(cst);
    unlink(cs);
    unlink(back);
}

int main(int argc, char **argv) {
    if (!getenv("CYCLESCOPE_BUILD") || !getenv("CYCLESCOPE_TEST_DATA")) {
        fprintf(stderr, "CYCLESCOPE_BUILD and CYCLESCOPE_TEST_DATA must be set (ctest sets them)\n");
        return 1;
    }
    int n = 0;
    if (argc > 1 && !strcmp(argv[1], "--full")) {
        full = true;
        for (int i = 2; i < argc && n < MAX_WORKLOADS; i++, n++) {
            snprintf(workloads[n].name, sizeof workloads[n].name, "%s", argv[i]);
            workloads[n].index = n;
        }
    } else {
        char path[4096];
        snprintf(path, sizeof path, "%s/../workloads/manifest.txt", getenv("CYCLESCOPE_TEST_DATA"));
        FILE *f = fopen(path, "r");
        if (!f) {
            fprintf(stderr, "cannot open %s\n", path);
            return 1;
        }
        char line[512];
        while (n < MAX_WORKLOADS && fgets(line, sizeof line, f)) {
            if (line[0] == '#' || line[0] == '\n') continue;
            char cat[32];
            if (sscanf(line, "%63s %31s %63s", workloads[n].name, cat, workloads[n].arg) == 3) {
                workloads[n].index = n;
                n++;
            }
        }
        fclose(f);
    }
    char probe[4096];
    snprintf(probe, sizeof probe, "%s/workloads/%s", getenv("CYCLESCOPE_BUILD"), n ? workloads[0].name : "");
    if (!n || access(probe, X_OK) != 0) {
        printf("no workloads built; skipped\n");
        return 0;
    }
    struct CMUnitTest tests[MAX_WORKLOADS];
    for (int i = 0; i < n; i++)
        tests[i] = (struct CMUnitTest){workloads[i].name, test_workload, NULL, NULL, &workloads[i]};
    return _cmocka_run_group_tests("trace_roundtrip", tests, (size_t)n, NULL, NULL);
}
