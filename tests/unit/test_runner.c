/* The runner: analysis lists and their errors; one run with and without
 * analyses (the analyses change nothing the core measures); the process pool
 * with jobs that succeed, fail and die, whose results come back exactly as
 * the same runs give in this process. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "array_source.h"
#include "runner/runner.h"
#include "stacks/stacks.h"

/* ---- lists ---- */

static void test_lists(void **state) {
    (void)state;
    analysis_list l;
    cs_error err;
    assert_true(analysis_list_parse(&l, "none", &err));
    assert_int_equal(l.count, 0);
    analysis_list_free(&l);

    assert_true(analysis_list_parse(&l, "stacks,pipeview:file=/tmp/x.log", &err));
    assert_int_equal(l.count, 2);
    assert_string_equal(l.ops[0]->name, "stacks");
    assert_string_equal(l.ops[1]->name, "pipeview");
    assert_string_equal(analysis_option(&l.opt[1], "file"), "/tmp/x.log");
    assert_null(analysis_option(&l.opt[1], "other"));
    assert_true(analysis_list_has(&l, "pipeview"));
    /* added again: the option is replaced, the analysis not repeated */
    assert_true(analysis_list_add(&l, "pipeview", "file", "/tmp/y.log", &err));
    assert_int_equal(l.count, 2);
    assert_string_equal(analysis_option(&l.opt[1], "file"), "/tmp/y.log");
    analysis_list_free(&l);

    static const struct {
        const char *text, *error;
    } bad[] = {
        {"stacks,fog", "unknown analysis 'fog' (known: stacks, pipeview"},
        {"", "an empty analysis name"},
        {"stacks,,pipeview", "an empty analysis name"},
        {"pipeview:file", "option 'file' is not KEY=VALUE"},
        {"pipeview:=x", "option '=x' is not KEY=VALUE"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (analysis_list_parse(&l, bad[i].text, &err)) fail_msg("'%s' parsed", bad[i].text);
        if (!strstr(err.msg, bad[i].error)) fail_msg("'%s': %s", bad[i].text, err.msg);
    }
    assert_non_null(analysis_find("stacks"));
    assert_null(analysis_find("none"));
}

/* ---- one run ---- */

enum { N = 6000 };

static uop *stream(void) {
    uop *u = calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) {
        u[i] = make_uop(i % 300, i % 7 == 0 ? OPC_INT_MUL : OPC_INT_ALU, (uint8_t)(1 + i % 9),
                        (uint8_t)(1 + (i + 4) % 9), 0);
        if (i % 11 == 0) {
            u[i].op_class = OPC_LOAD;
            u[i].flags = UOP_MEM_READ;
            u[i].mem_size = 8;
            u[i].mem_addr = 0x200000 + 4096 * (uint64_t)(i % 900);
        }
    }
    return u;
}

static void test_run(void **state) {
    (void)state;
    uop *u = stream();
    uarch_config cfg;
    uarch_config_default(&cfg);
    cs_error err;
    core_stats st[2];
    /* a directory of its own (a pid names nothing uniquely: every PID namespace sharing /tmp
       starts its tests at small pids) */
    char dir[] = "/tmp/test_runner_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char log[64], analyses[96];
    snprintf(log, sizeof log, "%s/pipeview.log", dir);
    snprintf(analyses, sizeof analyses, "stacks,pipeview:file=%s", log);
    for (int with = 0; with < 2; with++) {
        analysis_list l;
        assert_true(analysis_list_parse(&l, with ? analyses : "none", &err));
        run_spec spec = {&cfg, {0, 0, NULL}, &l, "stream"};
        array_source src = array_source_borrow(u, N);
        run_result r;
        assert_true(runner_run(&spec, &src.base, &r, &err));
        assert_true(r.ok);
        assert_int_equal(r.count, with ? 2 : 0);
        st[with] = r.stats;
        st[with].seconds = 0;
        if (with) {
            const stacks_result *s = stacks_observer_result(run_result_analysis(&r, "stacks"));
            assert_int_equal(s->cycles, r.stats.cycles);
            assert_int_equal(s->instructions, N);
            cJSON *root = cJSON_CreateObject();
            runner_json(&r, root);
            assert_non_null(cJSON_GetObjectItem(root, "stacks"));
            assert_null(cJSON_GetObjectItem(root, "pipeview")); /* a file, no JSON */
            cJSON_Delete(root);
        }
        run_result_free(&r);
        analysis_list_free(&l);
    }
    assert_memory_equal(&st[0], &st[1], sizeof st[0]);
    FILE *f = fopen(log, "r");
    assert_non_null(f);
    fclose(f);
    remove(log);
    rmdir(dir);

    /* an analysis that cannot be created: nothing runs, the error names it */
    analysis_list l;
    assert_true(analysis_list_parse(&l, "pipeview", &err));
    run_spec spec = {&cfg, {0, 0, NULL}, &l, "stream"};
    array_source src = array_source_borrow(u, N);
    run_result r;
    assert_false(runner_run(&spec, &src.base, &r, &err));
    assert_non_null(strstr(err.msg, "analysis pipeview: give the log file"));
    analysis_list_free(&l);
    assert_true(analysis_list_parse(&l, "stacks:depth=3", &err));
    assert_false(runner_run(&spec, &src.base, &r, &err));
    assert_non_null(strstr(err.msg, "analysis stacks: unknown option 'depth'"));
    analysis_list_free(&l);
    free(u);
}

/* ---- the pool ---- */

typedef struct job_source {
    const uop *u;
    size_t n;
    int fail; /* 0: fine; 1: the source fails at open; 2: the stream fails midway; 3: the process dies */
    array_source src;
} job_source;

static long failing_read(uop_source *s, uop *buf, size_t max, cs_error *err) {
    array_source *a = (array_source *)s;
    if (a->pos > a->n / 2) {
        cs_error_set(err, "the stream broke at µop %zu", a->pos);
        return -1;
    }
    return array_read(s, buf, max, err);
}
static const uop_source_ops failing_ops = {"failing", failing_read, array_fast_forward, array_destroy};

static uop_source *job_open(void *ctx, cs_error *err) {
    job_source *j = ctx;
    if (j->fail == 1) {
        cs_error_set(err, "no such stream");
        return NULL;
    }
    if (j->fail == 3) raise(SIGKILL);
    j->src = array_source_borrow(j->u, j->n);
    if (j->fail == 2) j->src.base.ops = &failing_ops;
    return &j->src.base;
}

static bool job_close(void *ctx, uop_source *src, cs_error *err) {
    (void)ctx, (void)err;
    uop_source_destroy(src);
    return true;
}

static void test_pool(void **state) {
    (void)state;
    uop *u = stream();
    cs_error err;
    analysis_list stacks;
    assert_true(analysis_list_parse(&stacks, "stacks", &err));
    enum { JOBS = 6 };
    static const int fail[JOBS] = {0, 1, 0, 2, 3, 0};
    job_source src[JOBS];
    run_job jobs[JOBS];
    for (int i = 0; i < JOBS; i++) {
        src[i] = (job_source){u, N, fail[i], {{0}, 0, 0, 0, false}};
        jobs[i] = (run_job){.name = fail[i] ? "bad" : "good",
                            .source = {.ctx = &src[i], .open = job_open, .close = job_close},
                            .analyses = &stacks,
                            .program = "stream"};
        uarch_config_default(&jobs[i].cfg);
        jobs[i].cfg.rob_size = 64 + 32 * (uint32_t)i; /* different machines */
    }
    for (int parallel = 1; parallel <= 3; parallel += 2) {
        job_result res[JOBS];
        assert_true(runner_pool(jobs, JOBS, parallel, res, &err));
        for (int i = 0; i < JOBS; i++) {
            if (fail[i]) {
                assert_false(res[i].ok);
                static const char *const why[] = {"", "bad: no such stream", "bad: the stream broke at µop",
                                                  "bad: the run died with signal 9"};
                if (!strstr(res[i].err.msg, why[fail[i]])) fail_msg("job %d: %s", i, res[i].err.msg);
                job_result_free(&res[i]);
                continue;
            }
            if (!res[i].ok) fail_msg("job %d: %s", i, res[i].err.msg);
            assert_int_equal(res[i].count, 1);
            assert_non_null(res[i].result[0]);
            assert_non_null(cJSON_GetObjectItem(cJSON_GetObjectItem(res[i].json[0], "cpi_stacks"), "dispatch"));
            /* the same machine in this process: the same statistics and stacks, bit for bit */
            run_spec spec = {&jobs[i].cfg, {0, 0, NULL}, &stacks, "stream"};
            array_source s = array_source_borrow(u, N);
            run_result here;
            assert_true(runner_run(&spec, &s.base, &here, &err));
            here.stats.seconds = res[i].stats.seconds = 0;
            assert_memory_equal(&here.stats, &res[i].stats, sizeof here.stats);
            assert_memory_equal(stacks_observer_result(run_result_analysis(&here, "stacks")), res[i].result[0],
                                sizeof(stacks_result));
            run_result_free(&here);
            job_result_free(&res[i]);
        }
    }
    analysis_list_free(&stacks);
    free(u);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lists),
        cmocka_unit_test(test_run),
        cmocka_unit_test(test_pool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
