/* Sweeps: the grid and its checks before any run, the hash that names a
 * point, point files (round trip, checksum, foreign files, resuming), the
 * merged table (numeric order, skipped files, CSV), shell quoting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "sweep/sweep.h"

static char tmpdir[4096];

static void base_config(uarch_config *cfg) {
    cs_error err;
    uarch_config_default(cfg);
    if (!uarch_config_load(cfg, "ooo4", &err)) fail_msg("%s", err.msg);
}

static void expect_grid_error(const char *grid, const char *message) {
    sweep_grid g;
    cs_error err = {{0}};
    uarch_config base;
    base_config(&base);
    bool ok = sweep_grid_parse(&g, grid, &err);
    if (ok) {
        ok = sweep_grid_check(&g, &base, &err);
        sweep_grid_free(&g);
    }
    if (ok) fail_msg("accepted: %s", grid);
    if (!strstr(err.msg, message)) fail_msg("'%s' does not say '%s'", err.msg, message);
}

static void test_grid(void **state) {
    (void)state;
    sweep_grid g;
    cs_error err;
    assert_true(sweep_grid_parse(&g, "  core.rob_size=64,128,256\tl1d.size=32K,48K ", &err));
    assert_int_equal(g.axes, 2);
    assert_int_equal(g.points, 6);
    const char *v[SWEEP_MAX_AXES];
    sweep_point_values(&g, 0, v);
    assert_string_equal(v[0], "64"), assert_string_equal(v[1], "32K");
    sweep_point_values(&g, 1, v); /* the last axis fastest */
    assert_string_equal(v[0], "64"), assert_string_equal(v[1], "48K");
    sweep_point_values(&g, 5, v);
    assert_string_equal(v[0], "256"), assert_string_equal(v[1], "48K");
    char *s = sweep_point_settings(&g, 3);
    assert_string_equal(s, "core.rob_size=128 l1d.size=48K");
    free(s);
    uarch_config base, c;
    base_config(&base);
    assert_true(sweep_grid_check(&g, &base, &err));
    assert_true(sweep_point_config(&g, &base, 3, &c, &err));
    assert_int_equal(c.rob_size, 128);
    assert_int_equal(c.l1d.size, 48 * 1024);
    sweep_grid_free(&g);

    expect_grid_error("", "no KEY=VALUES");
    expect_grid_error("rob_size=64", "not section.key");
    expect_grid_error("core.rob_size", "not KEY=VALUE");
    expect_grid_error("core.rob_size=64,,128", "empty value");
    expect_grid_error("core.rob_size=64 core.rob_size=128", "core.rob_size given twice");
    /* the configuration's own checks, before anything runs, naming the value */
    expect_grid_error("core.rob_sizee=64,128", "--grid: unknown key core.rob_sizee");
    expect_grid_error("core.rob_size=64,abc", "--grid: core.rob_size = abc: expected an integer");
    expect_grid_error("core.rob_size=64,2", "--grid point core.rob_size=2: core.fetch_width = 4 is larger");

    /* A..B, as whatif reads it: the points of the comma list, in its order */
    sweep_grid r, l;
    assert_true(sweep_grid_parse(&r, "core.rob_size=62..65 l1d.latency=2..3", &err));
    assert_true(sweep_grid_parse(&l, "core.rob_size=62,63,64,65 l1d.latency=2,3", &err));
    assert_int_equal(r.points, 8);
    assert_int_equal(l.points, 8);
    for (size_t i = 0; i < r.points; i++) {
        char *a = sweep_point_settings(&r, i), *b = sweep_point_settings(&l, i);
        assert_string_equal(a, b);
        free(a), free(b);
    }
    sweep_grid_free(&r);
    sweep_grid_free(&l);
    assert_true(sweep_grid_parse(&r, "core.rob_size=64..64", &err));
    assert_int_equal(r.points, 1);
    sweep_grid_free(&r);
    /* malformed ranges, named, with whatif's message */
    const char *bad[] = {"1..",  "..8",   "8..1",  "1..8..0",       "1..8..2", "1..4,8",
                         "a..b", "1..+8", "1..-8", "0..4294967296", "1..257"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        char grid[64], message[160];
        snprintf(grid, sizeof grid, "core.rob_size=%s", bad[k]);
        snprintf(message, sizeof message, "--grid %s: expected A..B with A <= B (at most 256 values)", grid);
        expect_grid_error(grid, message);
    }
    /* the largest range an axis may have is accepted */
    assert_true(sweep_grid_parse(&r, "core.rob_size=1..256", &err));
    assert_int_equal(r.axis[0].count, SWEEP_MAX_VALUES);
    sweep_grid_free(&r);
}

static void test_hash(void **state) {
    (void)state;
    uarch_config a, b;
    base_config(&a);
    b = a;
    char ha[SWEEP_HASH_LEN + 1], hb[SWEEP_HASH_LEN + 1];
    sweep_config_hash(&a, ha);
    snprintf(b.name, sizeof b.name, "renamed");
    sweep_config_hash(&b, hb);
    assert_string_equal(ha, hb); /* the same values: the same point */
    cs_error err;
    assert_true(uarch_config_set(&b, "core.rob_size=64", &err));
    sweep_config_hash(&b, hb);
    assert_string_not_equal(ha, hb);
    assert_int_equal(strlen(ha), SWEEP_HASH_LEN);
}

static sweep_point make_point(const uarch_config *cfg, const char *prog, bool ok) {
    sweep_point p;
    memset(&p, 0, sizeof p);
    sweep_config_hash(cfg, p.hash);
    p.argc = 2;
    p.argv = calloc(3, sizeof *p.argv);
    p.argv[0] = strdup(prog);
    p.argv[1] = strdup("10000");
    p.config_name = strdup("ooo4");
    p.settings = 1;
    p.key[0] = strdup("core.rob_size");
    char v[16];
    snprintf(v, sizeof v, "%u", cfg->rob_size);
    p.value[0] = strdup(v);
    p.ok = ok;
    if (ok) {
        p.result = cJSON_CreateObject();
        cJSON_AddNumberToObject(p.result, "cycles", 2000.0 + cfg->rob_size);
        cJSON_AddNumberToObject(p.result, "instructions", 1000);
        cJSON_AddNumberToObject(p.result, "cpi", (2000.0 + cfg->rob_size) / 1000);
        cJSON_AddNumberToObject(p.result, "ipc", 1000 / (2000.0 + cfg->rob_size));
        cJSON_AddNumberToObject(p.result, "seconds", 0.5);
    } else {
        p.error = strdup("deadlock: no commit for 1000000 cycles");
    }
    return p;
}

static void put_file(const char *name, const char *text) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static void test_points_and_merge(void **state) {
    (void)state;
    cs_error err;
    uarch_config base, c;
    base_config(&base);
    char *argv[] = {"prog", "10000"};
    unsigned robs[] = {256, 64, 128};
    char hashes[3][SWEEP_HASH_LEN + 1];
    for (int i = 0; i < 3; i++) {
        c = base;
        c.rob_size = robs[i];
        sweep_point p = make_point(&c, "prog", i != 2);
        if (i == 0) p.exit_code = 3; /* the program exited with 3: measured all the same */
        assert_int_equal(sweep_point_status(tmpdir, p.hash, 2, argv, &err), SWEEP_TO_RUN);
        assert_true(sweep_point_write(tmpdir, &p, &c, &err));
        memcpy(hashes[i], p.hash, sizeof p.hash);
        sweep_point_free(&p);
    }
    assert_int_equal(sweep_point_status(tmpdir, hashes[0], 2, argv, &err), SWEEP_DONE);
    { /* its exit status read back; the points whose program exited with 0 have none */
        char path0[4200];
        sweep_point q;
        snprintf(path0, sizeof path0, "%s/%s.json", tmpdir, hashes[0]);
        assert_true(sweep_point_read(path0, &q, &err));
        assert_true(q.ok);
        assert_int_equal(q.exit_code, 3);
        sweep_point_free(&q);
        snprintf(path0, sizeof path0, "%s/%s.json", tmpdir, hashes[1]);
        assert_true(sweep_point_read(path0, &q, &err));
        assert_int_equal(q.exit_code, 0);
        sweep_point_free(&q);
    }
    assert_int_equal(sweep_point_status(tmpdir, hashes[2], 2, argv, &err), SWEEP_DONE_FAILED);
    char *other[] = {"another", "10000"};
    assert_int_equal(sweep_point_status(tmpdir, hashes[0], 2, other, &err), SWEEP_OTHER_PROGRAM);
    assert_non_null(strstr(err.msg, "not of this program"));

    /* a point file with one byte changed */
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.json", tmpdir, hashes[1]);
    uint8_t *data;
    size_t size;
    assert_true(cs_read_file(path, &data, &size, &err));
    char *cyc = strstr((char *)data, "\"cycles\":");
    assert_non_null(cyc);
    sweep_point p;
    assert_true(sweep_point_parse((char *)data, size, "x", &p, &err));
    assert_true(p.ok);
    assert_true(p.cpi == (2000.0 + 64) / 1000);
    sweep_point_free(&p);
    char *digit = strpbrk(cyc, "0123456789");
    *digit = *digit == '9' ? '8' : (char)(*digit + 1);
    put_file("corrupt.json", (char *)data);
    assert_false(sweep_point_parse((char *)data, size, "x", &p, &err));
    assert_non_null(strstr(err.msg, "checksum mismatch"));
    free(data);
    put_file("foreign.json", "{\"name\": \"not ours\"}\n");
    put_file("broken.json", "{\"format\": \"cyclescope-sweep-point\", \"vers");
    put_file("notes.txt", "ignored: not .json\n");

    /* the table: three points in numeric order of rob_size, three files skipped */
    sweep_table t;
    char warnings[4096] = "";
    FILE *w = fmemopen(warnings, sizeof warnings - 1, "w");
    assert_true(sweep_table_read(tmpdir, &t, w, &err));
    fclose(w);
    assert_int_equal(t.count, 3);
    assert_int_equal(t.skipped, 3);
    assert_non_null(strstr(warnings, "corrupt.json: checksum mismatch"));
    assert_non_null(strstr(warnings, "foreign.json: not a sweep point"));
    assert_non_null(strstr(warnings, "broken.json: not JSON"));
    assert_string_equal(t.points[0].value[0], "64");
    assert_string_equal(t.points[1].value[0], "128");
    assert_string_equal(t.points[2].value[0], "256");
    assert_false(t.points[1].ok);
    snprintf(path, sizeof path, "%s/table.csv", tmpdir);
    assert_true(sweep_table_csv(&t, path, &err));
    assert_true(cs_read_file(path, &data, &size, &err));
    data = realloc(data, size + 1);
    data[size] = 0;
    assert_non_null(strstr((char *)data, "core.rob_size,status,exit_code,cycles,instructions,cpi,ipc"));
    assert_non_null(strstr((char *)data, "\n64,ok,,2064,1000,2.064000,"));
    assert_non_null(strstr((char *)data, "\n256,ok,3,2256,1000,2.256000,"));
    assert_non_null(strstr((char *)data, "\n128,failed,,,,,,,,,"));
    assert_non_null(strstr((char *)data, "deadlock: no commit"));
    free(data);
    sweep_table_free(&t);
}

static void test_quote(void **state) {
    (void)state;
    char *q = sweep_shell_quote("it's a $file");
    assert_string_equal(q, "'it'\\''s a $file'");
    free(q);
}

int main(void) {
    const char *build = getenv("CYCLESCOPE_BUILD");
    snprintf(tmpdir, sizeof tmpdir, "%s/tests/sweep-unit-tmp", build ? build : ".");
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) return 1;
    mkdir(tmpdir, 0777);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid),
        cmocka_unit_test(test_hash),
        cmocka_unit_test(test_points_and_merge),
        cmocka_unit_test(test_quote),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
