/* Sampling: basic block vectors against an independent reconstruction from
 * the µop records, the .bb file both ways (ours and another tool's) and its
 * bad inputs, SimPoint clustering on data with known phases, the BIC by hand,
 * the simpoint directory, and sampled timing against the full run. */
#include <setjmp.h>
#include <stdarg.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <zlib.h>

#include "runner/runner.h"
#include "sampling/sampling.h"

static char workload[4096], tmpdir[4096];

static emu_t *start(const char *path, const char *arg) {
    static const char *const env[] = {NULL};
    const char *argv[] = {path, arg, NULL};
    emu_options opt = {.argc = arg ? 2 : 1, .argv = argv, .envp = env, .quiet = true};
    cs_error err;
    emu_t *e = emu_create(path, &opt, &err);
    if (!e) fail_msg("%s", err.msg);
    return e;
}

/* ---- BBVs against the µop records ---- */

/* A plain reconstruction: blocks end after control-transfer µops; a map from
 * first pc to counts, kept as parallel arrays searched linearly (few blocks). */
typedef struct naive_bbv {
    uint64_t pc[4096];
    uint64_t count[4096];
    int n;
} naive_bbv;

static void naive_add(naive_bbv *v, uint64_t pc, uint64_t n) {
    for (int i = 0; i < v->n; i++)
        if (v->pc[i] == pc) {
            v->count[i] += n;
            return;
        }
    assert_true(v->n < 4096);
    v->pc[v->n] = pc;
    v->count[v->n++] = n;
}

static void check_interval(const bbv_profile *p, size_t k, const naive_bbv *v) {
    const bbv_interval *iv = &p->intervals[k];
    int nonzero = 0;
    for (int i = 0; i < v->n; i++) nonzero += v->count[i] != 0;
    assert_int_equal(iv->n, nonzero);
    for (uint32_t j = 0; j < iv->n; j++) {
        const bbv_entry *e = &p->entries[iv->first + j];
        uint64_t pc = p->block_pc[e->block - 1];
        bool found = false;
        for (int i = 0; i < v->n; i++)
            if (v->pc[i] == pc) {
                assert_int_equal(v->count[i], e->count);
                found = true;
            }
        assert_true(found);
    }
}

static void test_bbv_matches_records(void **state) {
    (void)state;
    const uint64_t interval = 100000;
    emu_t *e = start(workload, "10000");
    cs_error err;
    bbv_profile *p = bbv_collect_emu(e, interval, "sort 10000", &err);
    assert_non_null(p);
    uint64_t icount = emu_icount(e);
    emu_destroy(e);
    assert_int_equal(p->instructions, icount);

    /* the same program, µop by µop */
    e = start(workload, "10000");
    naive_bbv *v = calloc(1, sizeof *v);
    uop buf[512];
    uint64_t leader = 0, in_block = 0, in_interval = 0;
    bool have = false;
    size_t k = 0;
    uint64_t n;
    while ((n = emu_run_uops(e, buf, 512)) > 0) {
        for (uint64_t i = 0; i < n; i++) {
            if (!have) leader = buf[i].pc, have = true;
            in_block++;
            in_interval++;
            if (uop_is_control(&buf[i])) {
                naive_add(v, leader, in_block);
                in_block = 0;
                leader = buf[i].next_pc;
            }
            if (in_interval == interval) {
                if (in_block) naive_add(v, leader, in_block);
                in_block = 0;
                assert_true(k < p->interval_count);
                assert_int_equal(p->intervals[k].instructions, interval);
                check_interval(p, k++, v);
                for (int b = 0; b < v->n; b++) v->count[b] = 0;
                in_interval = 0;
            }
        }
    }
    if (in_block) naive_add(v, leader, in_block);
    if (in_interval) check_interval(p, k++, v);
    assert_int_equal(k, p->interval_count);
    free(v);
    emu_destroy(e);
    bbv_profile_free(p);
}

static void check_entries(const bbv_profile *a, const bbv_profile *b) {
    assert_int_equal(a->entry_count, b->entry_count);
    for (size_t i = 0; i < a->entry_count; i++) {
        assert_int_equal(a->entries[i].block, b->entries[i].block);
        assert_int_equal(a->entries[i].count, b->entries[i].count);
    }
}

/* The µop-stream collector (traces) gives the same vectors as the emulator's. */
static void test_bbv_from_source(void **state) {
    (void)state;
    cs_error err;
    emu_t *e = start(workload, "10000");
    bbv_profile *a = bbv_collect_emu(e, 77777, "x", &err);
    emu_destroy(e);
    e = start(workload, "10000");
    uop_source *src = emu_source_create(e);
    bbv_profile *b = bbv_collect_source(src, 77777, "x", &err);
    uop_source_destroy(src);
    emu_destroy(e);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(a->interval_count, b->interval_count);
    assert_int_equal(a->entry_count, b->entry_count);
    assert_int_equal(a->blocks, b->blocks);
    for (uint32_t i = 0; i < a->blocks; i++) assert_int_equal(a->block_pc[i], b->block_pc[i]);
    check_entries(a, b);
    bbv_profile_free(a);
    bbv_profile_free(b);
}

/* ---- the .bb file ---- */

static void test_bb_round_trip(void **state) {
    (void)state;
    cs_error err;
    emu_t *e = start(workload, "10000");
    bbv_profile *a = bbv_collect_emu(e, 50000, "sort 10000", &err);
    emu_destroy(e);
    char path[4200];
    snprintf(path, sizeof path, "%s/round.bb", tmpdir);
    assert_true(bbv_write(a, path, &err));
    bbv_profile *b = bbv_read(path, &err);
    if (!b) fail_msg("%s", err.msg);
    assert_true(b->verified);
    assert_int_equal(a->interval, b->interval);
    assert_int_equal(a->instructions, b->instructions);
    assert_int_equal(a->interval_count, b->interval_count);
    assert_int_equal(a->blocks, b->blocks);
    assert_string_equal(a->source, b->source);
    assert_memory_equal(a->block_pc, b->block_pc, a->blocks * sizeof *a->block_pc);
    check_entries(a, b);
    for (size_t i = 0; i < a->interval_count; i++) {
        assert_int_equal(a->intervals[i].instructions, b->intervals[i].instructions);
        assert_int_equal(a->intervals[i].n, b->intervals[i].n);
    }
    bbv_profile_free(a);
    bbv_profile_free(b);
}

/* Another tool's file: T lines only (valgrind exp-bbv writes them so). */
static void test_bb_foreign(void **state) {
    (void)state;
    const char *text = "# a comment\nT:45:1024 :189:99343 \nT:11:78573 :15:1353 :56:1\n\nignored line\n";
    cs_error err;
    bbv_profile *p = bbv_parse(text, strlen(text), "valgrind.bb", &err);
    if (!p) fail_msg("%s", err.msg);
    assert_false(p->verified);
    assert_null(p->block_pc);
    assert_int_equal(p->interval_count, 2);
    assert_int_equal(p->blocks, 189);
    assert_int_equal(p->intervals[0].instructions, 1024 + 99343);
    assert_int_equal(p->intervals[1].instructions, 78573 + 1353 + 1);
    assert_int_equal(p->interval, 1024 + 99343); /* the longest */
    assert_int_equal(p->entries[2].block, 11);   /* sorted by block */
    assert_int_equal(p->entries[4].block, 56);
    bbv_profile_free(p);
}

static void expect_bad(const char *text, const char *message) {
    cs_error err = {{0}};
    bbv_profile *p = bbv_parse(text, strlen(text), "bad.bb", &err);
    if (p) fail_msg("accepted: %s", text);
    if (!strstr(err.msg, message)) fail_msg("'%s' does not say '%s'", err.msg, message);
}

static void test_bb_bad_input(void **state) {
    (void)state;
    expect_bad("", "no intervals");
    expect_bad("hello\n", "no intervals");
    expect_bad("T:1:5 :2\n", "bad.bb:1: malformed entry");
    expect_bad("T:1:5 :2:1.5\n", "malformed entry");
    expect_bad("T:0:5\n", "block id 0 out of range");
    expect_bad("T:1:5\nT:1:0\n", "bad.bb:2: interval with no instructions");
    expect_bad("T:3:5 :3:6\n", "block 3 listed twice");
    expect_bad("T:1:18446744073709551615 :2:1\n", "overflows");
    expect_bad("T:1:99999999999999999999\n", "malformed entry");
    /* ours: the header commits the file to its checks */
    expect_bad("# cyclescope-bbv 1\n# interval: 5\n# instructions: 5\n# intervals: 1\n# blocks: 1\nT:1:5 \n",
               "truncated: no checksum line");
    expect_bad("# cyclescope-bbv 2\nT:1:5 \n# crc32: 00000000\n", "version 2");
    expect_bad("# cyclescope-bbv 1\n# interval: 5\n# instructions: 5\n# intervals: 1\n# blocks: 1\nT:1:5 \n"
               "# crc32: 12345678\n",
               "checksum mismatch");
    expect_bad("# cyclescope-bbv 1\n# blocks: 99999999999\nT:1:5 \n", "blocks: too many");
    /* a header that promises 4 billion blocks allocates nothing for them: the
     * file's own block lines are what is checked */
    expect_bad("# cyclescope-bbv 1\n# interval: 5\n# instructions: 5\n# intervals: 1\n# blocks: 4000000000\n"
               "T:1:5 \n# block 1 0x10\n# crc32: bb315525\n",
               "1 block lines for 4000000000 blocks");
}

/* A corrupted digit in a file we wrote is caught by the checksum; a header
 * that disagrees with the T lines too. */
static void test_bb_checksum(void **state) {
    (void)state;
    cs_error err;
    bbv_profile p = {0};
    bbv_interval iv[2] = {{10, 0, 2}, {4, 2, 1}};
    bbv_entry en[3] = {{1, 6}, {2, 4}, {2, 4}};
    uint64_t pcs[2] = {0x1000, 0x1010};
    p.interval = 10, p.instructions = 14, p.interval_count = 2, p.intervals = iv, p.entry_count = 3, p.entries = en;
    p.blocks = 2, p.block_pc = pcs, p.source = "hand made";
    char path[4200];
    snprintf(path, sizeof path, "%s/hand.bb", tmpdir);
    assert_true(bbv_write(&p, path, &err));
    uint8_t *data;
    size_t size;
    assert_true(cs_read_file(path, &data, &size, &err));
    char *text = (char *)data;
    char *t = strstr(text, "T:1:6");
    assert_non_null(t);
    bbv_profile *ok = bbv_parse(text, size, "hand.bb", &err);
    assert_non_null(ok);
    bbv_profile_free(ok);
    t[4] = '7'; /* T:1:7 */
    assert_null(bbv_parse(text, size, "hand.bb", &err));
    assert_non_null(strstr(err.msg, "checksum mismatch"));
    free(data);
}

/* ---- clustering ---- */

/* Intervals drawn from three phases with disjoint blocks and a little noise:
 * the phases are the right answer. */
static bbv_profile *phased_profile(uint32_t *truth, size_t *n_out) {
    static const int runs[][2] = {{0, 12}, {1, 7}, {2, 15}, {0, 5}, {1, 9}, {2, 4}, {0, 8}};
    bbv_profile *p = calloc(1, sizeof *p);
    p->interval = 1000;
    p->source = strdup("phased");
    size_t n = 0;
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) n += (size_t)runs[r][1];
    p->intervals = calloc(n, sizeof *p->intervals);
    p->entries = calloc(n * 4, sizeof *p->entries);
    uint64_t seed = 12345;
    size_t i = 0;
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++)
        for (int j = 0; j < runs[r][1]; j++, i++) {
            int phase = runs[r][0];
            truth[i] = (uint32_t)phase;
            bbv_interval *iv = &p->intervals[i];
            iv->first = p->entry_count;
            iv->n = 4;
            uint64_t left = 1000;
            for (int b = 0; b < 4; b++) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                /* phase blocks 1-4, 5-8, 9-12, weights 400/300/200/100 +- 20 */
                uint64_t c = b == 3 ? left : (uint64_t)(400 - 100 * b) + (seed >> 59) - 16;
                left -= c;
                p->entries[p->entry_count++] = (bbv_entry){(uint32_t)(phase * 4 + b + 1), c};
            }
            iv->instructions = 1000;
            p->instructions += 1000;
        }
    p->interval_count = n;
    p->blocks = 12;
    *n_out = n;
    return p;
}

static void test_cluster_known_phases(void **state) {
    (void)state;
    uint32_t truth[64];
    size_t n;
    bbv_profile *p = phased_profile(truth, &n);
    simpoint_options o;
    simpoint_options_default(&o);
    o.max_k = 10;
    simpoint_result r;
    cs_error err;
    assert_true(simpoint_cluster(p, &o, &r, &err));
    assert_int_equal(r.k, 3);
    assert_int_equal(r.point_count, 3);
    /* the clustering is the phases, up to the names of the clusters */
    uint32_t map[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
    for (size_t i = 0; i < n; i++) {
        if (map[truth[i]] == UINT32_MAX) map[truth[i]] = r.labels[i];
        assert_int_equal(r.labels[i], map[truth[i]]);
    }
    assert_true(map[0] != map[1] && map[1] != map[2] && map[0] != map[2]);
    /* weights: each phase's share of the instructions (25, 16, 19 of 60 intervals) */
    double want[3] = {25.0 / 60, 16.0 / 60, 19.0 / 60};
    for (size_t i = 0; i < r.point_count; i++) {
        const simpoint_point *pt = &r.points[i];
        assert_int_equal(r.labels[pt->interval], pt->cluster);
        assert_int_equal(pt->start, pt->interval * 1000);
        assert_int_equal(pt->length, 1000);
        int phase = (int)truth[pt->interval];
        assert_true(pt->weight > want[phase] - 1e-12 && pt->weight < want[phase] + 1e-12);
    }
    /* deterministic for a seed */
    simpoint_result again;
    assert_true(simpoint_cluster(p, &o, &again, &err));
    assert_int_equal(again.k, r.k);
    assert_memory_equal(again.points, r.points, r.point_count * sizeof *r.points);
    assert_memory_equal(again.labels, r.labels, n * sizeof *r.labels);
    /* a fixed k is used as given */
    o.fixed_k = 5;
    simpoint_result five;
    assert_true(simpoint_cluster(p, &o, &five, &err));
    assert_int_equal(five.k, 5);
    assert_int_equal(five.trial_count, 1);
    simpoint_result_free(&five);
    simpoint_result_free(&again);
    simpoint_result_free(&r);
    bbv_profile_free(p);
}

/* Fewer intervals than --max-k: the first 24 of the three phases (12, 7 and 5 intervals),
 * max k 30. The search stops at k = n - 1: k = n (each interval its own cluster, no
 * distortion, the BIC's variance 0) scored a near-infinite BIC and was chosen whenever
 * there were no more intervals than max k, a point per interval. The BIC of these few
 * noisy intervals still grows with k (k 1: -72, 12: 998, 20: 1134, 23: 1242), so the
 * choice is k = 20, not the 3 phases: only the degenerate k = n is gone. */
static void test_cluster_short_run(void **state) {
    (void)state;
    uint32_t truth[64];
    size_t n;
    bbv_profile *p = phased_profile(truth, &n);
    p->interval_count = 24;
    p->entry_count = 24 * 4;
    p->instructions = 24 * 1000;
    simpoint_options o;
    simpoint_options_default(&o);
    assert_true(o.max_k >= 24);
    simpoint_result r;
    cs_error err;
    assert_true(simpoint_cluster(p, &o, &r, &err));
    bool tried_top = false;
    for (size_t t = 0; t < r.trial_count; t++) {
        assert_true(r.trials[t].k <= 23);
        tried_top |= r.trials[t].k == 23;
    }
    assert_true(tried_top); /* the search's upper end is n - 1 */
    assert_true(r.k >= 1 && r.k <= 23);
    assert_int_equal(r.point_count, r.k);
    simpoint_result_free(&r);
    /* two intervals: k = 1 (k = 2 is the degenerate one); one interval: k = 1 */
    for (size_t count = 1; count <= 2; count++) {
        p->interval_count = count;
        p->entry_count = count * 4;
        p->instructions = count * 1000;
        assert_true(simpoint_cluster(p, &o, &r, &err));
        assert_int_equal(r.k, 1);
        simpoint_result_free(&r);
    }
    /* a fixed k is still used as given, up to the intervals */
    p->interval_count = 24, p->entry_count = 24 * 4, p->instructions = 24 * 1000;
    o.fixed_k = 24;
    assert_true(simpoint_cluster(p, &o, &r, &err));
    assert_int_equal(r.k, 24);
    simpoint_result_free(&r);
    p->interval_count = n; /* what bbv_profile_free expects */
    bbv_profile_free(p);
}

/* One phase: k = 1 and its one point weighs 1. */
static void test_cluster_one_phase(void **state) {
    (void)state;
    bbv_profile *p = calloc(1, sizeof *p);
    p->interval = 100;
    p->source = strdup("flat");
    p->interval_count = 20;
    p->intervals = calloc(20, sizeof *p->intervals);
    p->entries = calloc(20, sizeof *p->entries);
    for (size_t i = 0; i < 20; i++) {
        p->intervals[i] = (bbv_interval){100, i, 1};
        p->entries[i] = (bbv_entry){1, 100};
    }
    p->entry_count = 20, p->instructions = 2000, p->blocks = 1;
    simpoint_options o;
    simpoint_options_default(&o);
    simpoint_result r;
    cs_error err;
    assert_true(simpoint_cluster(p, &o, &r, &err));
    assert_int_equal(r.point_count, 1);
    assert_true(r.points[0].weight == 1.0);
    simpoint_result_free(&r);
    bbv_profile_free(p);
}

/* SimPoint 3.2's BIC, worked by hand for 1-D points {0, 1, 4, 5} (weights
 * 1/4) in clusters {0, 1} and {4, 5}: distortion = n * sum w d^2 = 4 * 4 *
 * (1/4)(1/4) = 1, sigma^2 = 1 / (1 * 4), log-likelihood = 4 * (-(ln(2 pi / 4)
 * + 1) / 2 + ln(1/2)), parameters (2 - 1) + 2 * 1 + 1 = 4, penalty 4/2 ln 4. */
static void test_bic_by_hand(void **state) {
    (void)state;
    double data[4] = {0, 1, 4, 5}, w[4] = {0.25, 0.25, 0.25, 0.25}, centres[2] = {0.5, 4.5};
    uint32_t labels[4] = {0, 0, 1, 1};
    double got = simpoint_bic(data, w, 4, 1, centres, 2, labels);
    double pi = 3.14159265358979323846;
    double want = 4 * (-(log(2 * pi / 4) + 1) / 2 + log(0.5)) - 2 * log(4.0);
    assert_true(fabs(got - want) < 1e-9);
}

/* ---- the directory ---- */

static simpoint_set *save_and_load(const char *dir, bbv_profile *p, simpoint_result *r, simpoint_identity *id) {
    simpoint_options o;
    simpoint_options_default(&o);
    cs_error err;
    if (!simpoint_save(dir, p, r, &o, id, NULL, NULL, &err)) fail_msg("%s", err.msg);
    simpoint_set *s = simpoint_load(dir, &err);
    if (!s) fail_msg("%s", err.msg);
    return s;
}

/* The phased profile clustered with the default options, and the identity of `workload 10000`. */
static bbv_profile *phased_clustered(simpoint_options *o, simpoint_result *r, simpoint_identity *id) {
    uint32_t truth[64];
    size_t n;
    bbv_profile *p = phased_profile(truth, &n);
    simpoint_options_default(o);
    cs_error err;
    if (!simpoint_cluster(p, o, r, &err)) fail_msg("%s", err.msg);
    char *argv[] = {workload, "10000", NULL};
    if (!simpoint_identity_of(id, false, 2, argv, &err)) fail_msg("%s", err.msg);
    return p;
}

static void test_directory(void **state) {
    (void)state;
    simpoint_options o;
    simpoint_result r;
    simpoint_identity id;
    bbv_profile *p = phased_clustered(&o, &r, &id);
    cs_error err;
    char dir[4200], path[4300];
    snprintf(dir, sizeof dir, "%s/points", tmpdir);
    simpoint_set *s = save_and_load(dir, p, &r, &id);
    assert_int_equal(s->count, r.point_count);
    assert_int_equal(s->instructions, p->instructions);
    for (size_t i = 1; i < s->count; i++) assert_true(s->points[i - 1].start < s->points[i].start);
    assert_true(simpoint_identity_match(&s->id, &id, &err));
    /* other arguments, another program */
    char *other[] = {workload, "20000", NULL};
    simpoint_identity id2;
    assert_true(simpoint_identity_of(&id2, false, 2, other, &err));
    assert_false(simpoint_identity_match(&s->id, &id2, &err));
    assert_non_null(strstr(err.msg, "other arguments"));
    simpoint_identity_free(&id2);
    char *prog[] = {"/proc/self/exe", "10000", NULL};
    assert_true(simpoint_identity_of(&id2, false, 2, prog, &err));
    assert_false(simpoint_identity_match(&s->id, &id2, &err));
    assert_non_null(strstr(err.msg, "different executable"));
    simpoint_identity_free(&id2);
    simpoint_set_free(s);
    /* an edited .simpoints file is refused */
    snprintf(path, sizeof path, "%s/%s", dir, SIMPOINT_POINTS_FILE);
    FILE *f = fopen(path, "a");
    fputs("0 99\n", f);
    fclose(f);
    assert_null(simpoint_load(dir, &err));
    assert_non_null(strstr(err.msg, "does not match"));
    /* an edited manifest too */
    s = save_and_load(dir, p, &r, &id);
    simpoint_set_free(s);
    snprintf(path, sizeof path, "%s/%s", dir, SIMPOINT_MANIFEST_FILE);
    uint8_t *data;
    size_t size;
    assert_true(cs_read_file(path, &data, &size, &err));
    char *k = strstr((char *)data, "\"k\":");
    assert_non_null(k);
    simpoint_set *intact = simpoint_parse_manifest((char *)data, size, "m", &err);
    assert_non_null(intact);
    simpoint_set_free(intact);
    k[5] = k[5] == '7' ? '8' : '7';
    assert_null(simpoint_parse_manifest((char *)data, size, "m", &err));
    assert_non_null(strstr(err.msg, "checksum mismatch"));
    free(data);
    assert_null(simpoint_load("/nonexistent-dir", &err));
    simpoint_identity_free(&id);
    simpoint_result_free(&r);
    bbv_profile_free(p);
}

/* The manifest text of `root` sealed with its checksum, as simpoint_save seals it (CRC-32
 * of the compact printing without "checksum"), so an edit is read rather than refused. */
static char *reseal(cJSON *root) {
    cJSON_DeleteItemFromObjectCaseSensitive(root, "checksum");
    char *compact = cJSON_PrintUnformatted(root);
    char hex[9];
    snprintf(hex, sizeof hex, "%08lx", crc32(crc32(0L, Z_NULL, 0), (const Bytef *)compact, (uInt)strlen(compact)));
    free(compact);
    cJSON_AddStringToObject(root, "checksum", hex);
    return cJSON_Print(root);
}

/* simpoint.json version 2 records how the profiled program ended ("end"); version 1
 * directories, which did not, are still read (end unknown); a bad "end" is refused. */
static void test_manifest_end(void **state) {
    (void)state;
    simpoint_options o;
    simpoint_result r;
    simpoint_identity id;
    bbv_profile *p = phased_clustered(&o, &r, &id);
    cs_error err;
    char dir[4200], path[4300];
    snprintf(dir, sizeof dir, "%s/ends", tmpdir);
    snprintf(path, sizeof path, "%s/%s", dir, SIMPOINT_MANIFEST_FILE);
    const simpoint_end ends[] = {{SIMPOINT_END_EXITED, 3, 0},
                                 {SIMPOINT_END_FAULT, 0, 11},
                                 {SIMPOINT_END_EXITED, 0, 0},
                                 {SIMPOINT_END_STOPPED, 0, 0}};
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        assert_true(simpoint_save(dir, p, &r, &o, &id, &ends[i], NULL, &err));
        simpoint_set *s = simpoint_load(dir, &err);
        if (!s) fail_msg("%s", err.msg);
        assert_int_equal(s->end.state, ends[i].state);
        assert_int_equal(s->end.exit_code, ends[i].exit_code);
        assert_int_equal(s->end.signal, ends[i].signal);
        simpoint_set_free(s);
    }
    /* NULL (a trace): "end": null, unknown */
    assert_true(simpoint_save(dir, p, &r, &o, &id, NULL, NULL, &err));
    uint8_t *data;
    size_t size;
    assert_true(cs_read_file(path, &data, &size, &err));
    assert_non_null(strstr((char *)data, "\"end\":\tnull"));
    simpoint_set *s = simpoint_parse_manifest((char *)data, size, "m", &err);
    assert_non_null(s);
    assert_int_equal(s->end.state, SIMPOINT_END_UNKNOWN);
    simpoint_set_free(s);
    free(data);

    /* edits, resealed: a version 1 manifest (no "end") is read; the others are refused */
    assert_true(simpoint_save(dir, p, &r, &o, &id, &ends[0], NULL, &err));
    assert_true(cs_read_file(path, &data, &size, &err));
    static const struct {
        int version;
        const char *end; /* JSON, NULL: no member */
        bool ok;
    } cases[] = {
        {1, NULL, true},
        {1, "{\"state\": \"exited\", \"exit_code\": 3}", false}, /* version 1 had none */
        {2, NULL, false},                                        /* version 2 must say */
        {2, "{\"state\": \"exited\", \"exit_code\": 256}", false},
        {2, "{\"state\": \"exited\"}", false},
        {2, "{\"state\": \"fault\", \"signal\": 0}", false},
        {2, "{\"state\": \"fault\", \"signal\": 6}", true},
        {2, "{\"state\": \"stopped\", \"signal\": 6}", false},
        {2, "{\"state\": \"running\"}", false},
        {2, "\"exited\"", false},
        {3, "null", false}, /* a later version */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cJSON *root = cJSON_ParseWithLength((char *)data, size);
        assert_non_null(root);
        cJSON_ReplaceItemInObjectCaseSensitive(root, "version", cJSON_CreateNumber(cases[i].version));
        cJSON_DeleteItemFromObjectCaseSensitive(root, "end");
        if (cases[i].end) cJSON_AddItemToObject(root, "end", cJSON_Parse(cases[i].end));
        char *text = reseal(root);
        cJSON_Delete(root);
        s = simpoint_parse_manifest(text, strlen(text), "m", &err);
        if (cases[i].ok != (s != NULL))
            fail_msg("case %zu (version %d, end %s): %s", i, cases[i].version, cases[i].end ? cases[i].end : "none",
                     s ? "read" : err.msg);
        if (s && cases[i].version == 1) assert_int_equal(s->end.state, SIMPOINT_END_UNKNOWN);
        if (s && cases[i].version == 2) assert_int_equal(s->end.signal, 6);
        simpoint_set_free(s);
        free(text);
    }
    free(data);
    simpoint_identity_free(&id);
    simpoint_result_free(&r);
    bbv_profile_free(p);
}

/* ---- sampled timing ---- */

static void full_run(const uarch_config *cfg, core_stats *stats, stacks_result *stacks) {
    cs_error err;
    emu_t *e = start(workload, "10000");
    uop_source *src = emu_source_create(e);
    analysis_list list;
    if (!analysis_list_parse(&list, "stacks", &err)) fail_msg("%s", err.msg);
    run_spec spec = {cfg, {0, 0, NULL}, &list, "sort 10000"};
    run_result r;
    if (!runner_run(&spec, src, &r, &err)) fail_msg("%s", err.msg);
    if (!r.ok) fail_msg("%s", r.err.msg);
    *stats = r.stats;
    *stacks = *stacks_observer_result(run_result_analysis(&r, "stacks"));
    run_result_free(&r);
    analysis_list_free(&list);
    uop_source_destroy(src);
    emu_destroy(e);
}

/* Every interval its own point, warmed all the way: the estimate is the full
 * run up to the pipeline refilling at each boundary. One point covering the
 * whole program: the full run exactly. */
static void test_time_every_interval(void **state) {
    (void)state;
    cs_error err;
    uarch_config cfg;
    uarch_config_default(&cfg);
    assert_true(uarch_config_load(&cfg, "ooo4", &err));
    core_stats full;
    stacks_result full_stacks;
    full_run(&cfg, &full, &full_stacks);

    emu_t *e = start(workload, "10000");
    bbv_profile *p = bbv_collect_emu(e, 200000, "sort", &err);
    emu_destroy(e);
    assert_non_null(p);
    simpoint_set set = {0};
    set.interval = p->interval, set.instructions = p->instructions, set.interval_count = p->interval_count;
    set.count = p->interval_count;
    set.points = calloc(set.count, sizeof *set.points);
    uint64_t at = 0;
    for (size_t i = 0; i < set.count; i++) {
        uint64_t len = p->intervals[i].instructions;
        set.points[i] = (simpoint_point){i, (uint32_t)i, (double)len / (double)p->instructions, at, len};
        at += len;
    }
    simpoint_timing *t = calloc(set.count, sizeof *t);
    e = start(workload, "10000");
    simpoint_stream from = {e, NULL};
    if (!simpoint_time(&set, &from, &cfg, SIMPOINT_WARM_ALL, 2, t, &err)) fail_msg("%s", err.msg);
    emu_destroy(e);
    core_stats est;
    stacks_result est_stacks;
    simpoint_combine(&set, t, &est, &est_stacks);
    assert_int_equal(est.instructions, full.instructions);
    double rel = ((double)est.cycles - (double)full.cycles) / (double)full.cycles;
    if (rel > 0.01 || rel < -0.01)
        fail_msg("every interval: %llu cycles, full run %llu", (unsigned long long)est.cycles,
                 (unsigned long long)full.cycles);
    /* the combined stacks sum to the combined cycles */
    for (int s = 0; s < STACK_STAGES; s++) {
        double sum = 0;
        for (int c = 0; c < COMP_COUNT; c++) sum += est_stacks.stage[s].cycles[c];
        assert_true(fabs(sum - (double)est_stacks.cycles) < 1.0 + 1e-9 * sum);
    }

    /* one point, the whole program */
    simpoint_set whole = set;
    simpoint_point all = {0, 0, 1.0, 0, p->instructions};
    whole.count = 1, whole.points = &all, whole.interval = p->instructions, whole.interval_count = 1;
    simpoint_timing one;
    e = start(workload, "10000");
    from.emu = e;
    if (!simpoint_time(&whole, &from, &cfg, 1000, 1, &one, &err)) fail_msg("%s", err.msg);
    emu_destroy(e);
    simpoint_combine(&whole, &one, &est, &est_stacks);
    assert_int_equal(est.cycles, full.cycles);
    assert_int_equal(est.mispredicts, full.mispredicts);
    assert_int_equal(est.l1d.misses, full.l1d.misses);

    /* a point past the end of the run is an error naming it */
    simpoint_point late = {0, 0, 1.0, p->instructions + 5, 10};
    whole.points = &late;
    whole.instructions = p->instructions + 20;
    e = start(workload, "10000");
    from.emu = e;
    assert_false(simpoint_time(&whole, &from, &cfg, SIMPOINT_WARM_ALL, 1, &one, &err));
    assert_non_null(strstr(err.msg, "before the simulation point"));
    emu_destroy(e);
    free(t);
    free(set.points);
    bbv_profile_free(p);
}

/* Weighted per-instruction rates: two points, known numbers. */
static void test_combine(void **state) {
    (void)state;
    simpoint_point pts[2] = {{0, 0, 0.25, 0, 100}, {3, 1, 0.75, 300, 100}};
    simpoint_set set = {0};
    set.instructions = 1000, set.count = 2, set.points = pts;
    simpoint_timing t[2];
    memset(t, 0, sizeof t);
    t[0].stats.instructions = 100, t[0].stats.cycles = 200, t[0].stats.mispredicts = 4;
    t[1].stats.instructions = 100, t[1].stats.cycles = 100, t[1].stats.mispredicts = 0;
    t[0].stacks.stage[STACK_COMMIT].cycles[COMP_BASE] = 50, t[0].stacks.stage[STACK_COMMIT].cycles[COMP_BPRED] = 150;
    t[1].stacks.stage[STACK_COMMIT].cycles[COMP_BASE] = 100;
    core_stats s;
    stacks_result st;
    simpoint_combine(&set, t, &s, &st);
    /* CPI = 0.25 * 2 + 0.75 * 1 = 1.25 over 1000 instructions */
    assert_int_equal(s.cycles, 1250);
    assert_int_equal(s.instructions, 1000);
    assert_int_equal(s.mispredicts, 10); /* 0.25 * 0.04 * 1000 */
    assert_true(fabs(st.stage[STACK_COMMIT].cycles[COMP_BASE] - (0.25 * 0.5 + 0.75 * 1.0) * 1000) < 1e-9);
    assert_true(fabs(st.stage[STACK_COMMIT].cycles[COMP_BPRED] - 0.25 * 1.5 * 1000) < 1e-9);
}

int main(void) {
    const char *build = getenv("CYCLESCOPE_BUILD");
    if (!build) build = ".";
    snprintf(workload, sizeof workload, "%s/workloads/sort", build);
    snprintf(tmpdir, sizeof tmpdir, "%s/tests/sampling-tmp", build);
    mkdir(tmpdir, 0777);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bbv_matches_records),
        cmocka_unit_test(test_bbv_from_source),
        cmocka_unit_test(test_bb_round_trip),
        cmocka_unit_test(test_bb_foreign),
        cmocka_unit_test(test_bb_bad_input),
        cmocka_unit_test(test_bb_checksum),
        cmocka_unit_test(test_cluster_known_phases),
        cmocka_unit_test(test_cluster_one_phase),
        cmocka_unit_test(test_cluster_short_run),
        cmocka_unit_test(test_bic_by_hand),
        cmocka_unit_test(test_directory),
        cmocka_unit_test(test_manifest_end),
        cmocka_unit_test(test_time_every_interval),
        cmocka_unit_test(test_combine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
