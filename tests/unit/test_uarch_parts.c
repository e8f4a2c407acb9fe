/* The shared timing parts: caches against a naive LRU reference, branch
 * predictors on patterns with known outcomes, and the configuration loader. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "uarch/bpred.h"
#include "uarch/memsys.h"
#include "uarch/uarch.h"

/* ---- caches ---- */

/* Reference: per set, a list of lines, most recent first. */
typedef struct ref_cache {
    uint64_t *lines; /* sets * ways, 0 = empty (line + 1 stored) */
    uint64_t sets, ways, line_bytes;
} ref_cache;

static bool ref_access(ref_cache *r, uint64_t addr) {
    uint64_t line = addr / r->line_bytes, set = line % r->sets;
    uint64_t *l = &r->lines[set * r->ways];
    uint64_t pos = r->ways - 1;
    bool hit = false;
    for (uint64_t w = 0; w < r->ways; w++) {
        if (l[w] == line + 1) {
            pos = w;
            hit = true;
            break;
        }
    }
    memmove(&l[1], &l[0], pos * sizeof *l); /* move to front, dropping the LRU on a miss */
    l[0] = line + 1;
    return hit;
}

static void compare_with_reference(cache_config cfg, uint64_t footprint_lines, int accesses) {
    cache_t *c = cache_create(&cfg);
    uint64_t lines = cfg.size / cfg.line;
    ref_cache r = {calloc(lines, sizeof(uint64_t)), cfg.assoc ? lines / cfg.assoc : 1, cfg.assoc ? cfg.assoc : lines,
                   cfg.line};
    uint64_t x = 88172645463325252ull, hits = 0;
    for (int i = 0; i < accesses; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        /* skewed reuse: mostly a hot subset, sometimes the whole footprint */
        uint64_t span = (x & 3) ? footprint_lines / 8 + 1 : footprint_lines;
        uint64_t addr = ((x >> 8) % span) * cfg.line + (x & (cfg.line - 1));
        bool want = ref_access(&r, addr);
        bool got = cache_access(c, addr);
        if (got != want)
            fail_msg("access %d to 0x%llx: cache says %s, LRU reference says %s", i, (unsigned long long)addr,
                     got ? "hit" : "miss", want ? "hit" : "miss");
        assert_int_equal(cache_contains(c, addr), true);
        hits += got;
    }
    assert_true(hits > 0 && hits < (uint64_t)accesses); /* the stream exercised both */
    free(r.lines);
    cache_destroy(c);
}

static void test_cache_lru(void **state) {
    (void)state;
    compare_with_reference((cache_config){true, 4096, 2, 64, 1, 0}, 200, 50000);        /* 32 sets */
    compare_with_reference((cache_config){true, 48 * 1024, 4, 64, 1, 0}, 2000, 100000); /* 192 sets */
    compare_with_reference((cache_config){true, 1024, 0, 16, 1, 0}, 200, 50000);        /* 64 blocks, fully assoc */
    compare_with_reference((cache_config){true, 16 * 8, 0, 16, 1, 0}, 20, 20000);       /* 8 blocks: scanned */
    compare_with_reference((cache_config){true, 512 * 16, 0, 16, 1, 0}, 1500, 100000);  /* 512 blocks: hashed */
}

/* cache_reset empties a cache as cache_create made it: none of the lines held before is there,
 * and a stream afterwards hits and misses as on a new cache (set-associative, fully associative
 * scanned and hashed, each filled past its capacity first so that lines were evicted). */
static void test_cache_reset(void **state) {
    (void)state;
    const cache_config cfgs[] = {
        {true, 4096, 2, 64, 1, 0},       /* 32 sets */
        {true, 16 * 8, 0, 16, 1, 0},     /* 8 blocks: scanned */
        {true, 512 * 16, 0, 16, 1, 0},   /* 512 blocks: hashed */
        {true, 4096 * 64, 0, 4096, 1, 0} /* a TLB's shape: 64 pages, hashed */
    };
    for (size_t k = 0; k < sizeof cfgs / sizeof cfgs[0]; k++) {
        const cache_config *cfg = &cfgs[k];
        uint64_t lines = cfg->size / cfg->line;
        cache_t *used = cache_create(cfg), *fresh = cache_create(cfg);
        uint64_t x = 88172645463325252ull;
        enum { BEFORE = 20000 };
        uint64_t *before = malloc(BEFORE * sizeof *before);
        for (int i = 0; i < BEFORE; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            before[i] = (x % (3 * lines)) * cfg->line; /* three times the capacity: evictions */
            cache_access(used, before[i]);
        }
        for (int round = 0; round < 2; round++) { /* and a reset after a reset */
            cache_reset(used);
            for (int i = 0; i < BEFORE; i++)
                if (cache_contains(used, before[i]))
                    fail_msg("cache %zu: line 0x%llx still there after a reset", k, (unsigned long long)before[i]);
        }
        uint64_t hits = 0;
        for (int i = 0; i < 50000; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            uint64_t addr = (x % (2 * lines)) * cfg->line;
            bool want = cache_access(fresh, addr), got = cache_access(used, addr);
            if (got != want)
                fail_msg("cache %zu, access %d to 0x%llx: %s after a reset, %s on a new cache", k, i,
                         (unsigned long long)addr, got ? "hit" : "miss", want ? "hit" : "miss");
            hits += got;
        }
        assert_true(hits > 0 && hits < 50000); /* the stream exercised both */
        free(before);
        cache_destroy(used);
        cache_destroy(fresh);
    }
}

static void test_cache_example(void **state) {
    (void)state;
    cache_config cfg = {true, 2 * 64, 2, 64, 1, 0}; /* one set, two ways */
    cache_t *c = cache_create(&cfg);
    assert_false(cache_access(c, 0x000)); /* A */
    assert_false(cache_access(c, 0x040)); /* B */
    assert_true(cache_access(c, 0x000));  /* A again: B is now least recent */
    assert_false(cache_access(c, 0x080)); /* C evicts B */
    assert_true(cache_contains(c, 0x000));
    assert_false(cache_contains(c, 0x040));
    assert_true(cache_access(c, 0x0bf)); /* same line as C */
    cache_destroy(c);
}

/* Misses pay every level's latency; a second access to a line in flight waits
 * for the same fill; miss registers run out. */
static void test_memsys_latency(void **state) {
    (void)state;
    uarch_config c;
    uarch_config_default(&c);
    c.l1d.mshrs = 2;
    c.l3.enabled = true;
    memsys_t *m = memsys_create(&c);
    mem_result r;
    assert_true(memsys_load(m, 0x1000, 0, &r));
    assert_int_equal(r.latency, c.l1d.latency + c.l2.latency + c.l3.latency + c.mem_latency);
    assert_int_equal(r.level, LEVEL_MEM);
    assert_true(memsys_load(m, 0x1008, 10, &r)); /* same line, still in flight */
    assert_true(r.merged);
    assert_int_equal(r.latency, c.l1d.latency + c.l2.latency + c.l3.latency + c.mem_latency - 10);
    assert_true(memsys_load(m, 0x2000, 11, &r));
    assert_false(memsys_load(m, 0x3000, 12, &r)); /* both miss registers busy */
    uint64_t free_at = memsys_next_event(m, 12);
    assert_int_equal(free_at, c.l1d.latency + c.l2.latency + c.l3.latency + c.mem_latency);
    assert_true(memsys_load(m, 0x3000, free_at, &r));
    assert_true(memsys_load(m, 0x1000, 2000, &r)); /* long after: an L1 hit */
    assert_int_equal(r.level, LEVEL_L1);
    assert_int_equal(r.latency, c.l1d.latency);
    core_stats s;
    memsys_stats(m, &s);
    assert_int_equal(s.l1d.misses, 3);
    memsys_destroy(m);
}

/* ---- branch predictors ---- */

static uop branch(uint64_t pc, bool taken, bool backward) {
    uop u;
    memset(&u, 0, sizeof u);
    u.pc = pc;
    u.op_class = OPC_BRANCH;
    u.encoding = 0x00000063;
    u.flags = taken ? UOP_TAKEN : 0;
    u.next_pc = taken ? (backward ? pc - 64 : pc + 64) : pc + 4;
    return u;
}

/* Accuracy over the last half of `n` predictions of a pattern. */
static double accuracy(bpred_kind kind, unsigned history, const int *pattern, int period, int n) {
    uarch_config c;
    uarch_config_default(&c);
    c.bpred = kind;
    c.bpred_history = history;
    bpred_t *b = bpred_create(&c);
    int right = 0;
    for (int i = 0; i < n; i++) {
        uop u = branch(0x4000, pattern[i % period], true);
        bool ok = bpred_predict(b, &u);
        if (i >= n / 2) right += ok;
    }
    bpred_destroy(b);
    return (double)right / (n - n / 2);
}

static void test_bpred_patterns(void **state) {
    (void)state;
    static const int always[] = {1};
    static const int alternate[] = {1, 0};
    static const int period10[] = {1, 1, 0, 1, 1, 1, 0, 0, 1, 0};
    assert_true(accuracy(BPRED_BIMODAL, 0, always, 1, 1000) == 1.0);
    assert_true(accuracy(BPRED_GSHARE, 12, always, 1, 1000) == 1.0);
    assert_true(accuracy(BPRED_BIMODAL, 0, alternate, 2, 1000) <= 0.5); /* no history: cannot follow */
    assert_true(accuracy(BPRED_GSHARE, 12, alternate, 2, 1000) == 1.0);
    assert_true(accuracy(BPRED_TAGE, 64, alternate, 2, 4000) > 0.99);
    assert_true(accuracy(BPRED_TAGE, 64, period10, 10, 20000) > 0.97);
    assert_true(accuracy(BPRED_GSHARE, 12, period10, 10, 20000) > 0.97);
    assert_true(accuracy(BPRED_PERFECT, 0, period10, 10, 1000) == 1.0);
    assert_true(accuracy(BPRED_NONE, 0, always, 1, 100) == 0.0); /* predicts not taken */
}

/* Two random branches, then one that repeats the first one's outcome (two outcomes back): only
 * a predictor whose history holds the last few outcomes, and nothing older, can learn it. A
 * TAGE whose folded histories kept bits past their window (a fold updated one outcome at a time
 * must take the leaving one out) sees the whole random past in every index and guesses. */
static void test_bpred_tage_correlated(void **state) {
    (void)state;
    for (unsigned history = 8; history <= 512; history *= 4) {
        uarch_config c;
        uarch_config_default(&c);
        c.bpred = BPRED_TAGE;
        c.bpred_history = history;
        bpred_t *b = bpred_create(&c);
        uint64_t seed = 0x9e3779b97f4a7c15ull;
        int random_right = 0, follower_right = 0, n = 40000;
        for (int i = 0; i < n; i++) {
            int r[2];
            for (int k = 0; k < 2; k++) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                r[k] = (int)(seed >> 63);
                uop random_branch = branch(0x4000 + 0x40 * (uint64_t)k, r[k], false);
                bool ok = bpred_predict(b, &random_branch);
                if (i >= n / 2) random_right += ok;
            }
            uop follower = branch(0x4100, r[0], false);
            bool ok = bpred_predict(b, &follower);
            if (i >= n / 2) follower_right += ok;
        }
        bpred_destroy(b);
        double random_accuracy = (double)random_right / (2 * (n - n / 2));
        double follower_accuracy = (double)follower_right / (n - n / 2);
        assert_true(random_accuracy > 0.45 && random_accuracy < 0.55); /* the stream is random */
        assert_true(follower_accuracy > 0.98);
    }
}

static void test_bpred_static_and_targets(void **state) {
    (void)state;
    uarch_config c;
    uarch_config_default(&c);
    c.bpred = BPRED_STATIC;
    bpred_t *b = bpred_create(&c);
    uop u = branch(0x4000, true, true);
    assert_true(bpred_predict(b, &u)); /* backward taken: predicted */
    u = branch(0x4000, true, false);
    assert_false(bpred_predict(b, &u)); /* forward taken: not */
    u = branch(0x4000, false, false);
    assert_true(bpred_predict(b, &u));
    /* calls and returns: the RAS gets nested returns right */
    uop call = {
        .pc = 0x100, .next_pc = 0x900, .op_class = OPC_CALL, .encoding = 0x000000ef, .flags = UOP_TAKEN, .dst = 1};
    uop call2 = {
        .pc = 0x904, .next_pc = 0xa00, .op_class = OPC_CALL, .encoding = 0x000000ef, .flags = UOP_TAKEN, .dst = 1};
    uop ret2 = {
        .pc = 0xa10, .next_pc = 0x908, .op_class = OPC_RETURN, .encoding = 0x00008067, .flags = UOP_TAKEN, .src = {1}};
    uop ret = {
        .pc = 0x910, .next_pc = 0x104, .op_class = OPC_RETURN, .encoding = 0x00008067, .flags = UOP_TAKEN, .src = {1}};
    assert_true(bpred_predict(b, &call));
    assert_true(bpred_predict(b, &call2));
    assert_true(bpred_predict(b, &ret2));
    assert_true(bpred_predict(b, &ret));
    /* an indirect jump: wrong the first time, right once the BTB knows its target */
    uop jr = {.pc = 0x200,
              .next_pc = 0x777,
              .op_class = OPC_JUMP_INDIRECT,
              .encoding = 0x00078067,
              .flags = UOP_TAKEN,
              .src = {15}};
    assert_false(bpred_predict(b, &jr));
    assert_true(bpred_predict(b, &jr));
    jr.next_pc = 0x888;
    assert_false(bpred_predict(b, &jr));
    bpred_destroy(b);
}

/* ---- configuration ---- */

static void test_config_shipped(void **state) {
    (void)state;
    static const char *const names[] = {"ooo4", "bdw", "knl"};
    for (int i = 0; i < 3; i++) {
        uarch_config c;
        cs_error err;
        uarch_config_default(&c);
        if (!uarch_config_load(&c, names[i], &err)) fail_msg("%s", err.msg);
        if (!uarch_config_validate(&c, &err)) fail_msg("%s: %s", names[i], err.msg);
        assert_string_equal(c.name, names[i]);
    }
    /* RpStacks Table II, exactly */
    uarch_config c;
    uarch_config_default(&c);
    cs_error err;
    assert_true(uarch_config_load(&c, "ooo4", &err));
    assert_int_equal(c.rob_size, 128);
    assert_int_equal(c.iq_size, 36);
    assert_int_equal(c.lsq_size, 64);
    assert_int_equal(c.fetch_width, 4);
    assert_int_equal(c.commit_width, 4);
    assert_int_equal(c.latency[OPC_INT_MUL], 4);
    assert_int_equal(c.latency[OPC_INT_DIV], 32);
    assert_int_equal(c.latency[OPC_FP_ADD], 6);
    assert_int_equal(c.latency[OPC_FP_DIV], 24);
    assert_int_equal(c.latency[OPC_LOAD], 2);
    assert_int_equal(c.l1i.size, 48 * 1024);
    assert_int_equal(c.l1i.latency, 2);
    assert_int_equal(c.l1d.latency, 4);
    assert_int_equal(c.l2.size, 4 * 1024 * 1024);
    assert_int_equal(c.l2.assoc, 8);
    assert_int_equal(c.l2.latency, 12);
    assert_int_equal(c.mem_latency, 133);
    assert_int_equal(c.pool_count, 5);
}

static void expect_error(const char *assignment, const char *fragment) {
    uarch_config c;
    cs_error err = {{0}};
    uarch_config_default(&c);
    bool ok = uarch_config_set(&c, assignment, &err) && uarch_config_validate(&c, &err);
    if (ok) fail_msg("--set %s was accepted", assignment);
    if (!strstr(err.msg, fragment))
        fail_msg("--set %s: message '%s' does not mention '%s'", assignment, err.msg, fragment);
}

static void test_config_errors(void **state) {
    (void)state;
    expect_error("core.rob_sise=128", "unknown key core.rob_sise");
    expect_error("core.rob_size=0", "core.rob_size = 0");
    expect_error("core.rob_size=lots", "core.rob_size = lots");
    expect_error("core.fetch_width=200", "core.fetch_width");
    expect_error("core.rob_size=2", "core.fetch_width = 4 is larger than core.rob_size = 2");
    expect_error("core.iq_size=200", "core.iq_size = 200 is larger than core.rob_size = 128");
    expect_error("bpred.type=oracle", "expected one of none, static, bimodal, gshare, tage, perfect");
    expect_error("latency.int-mull=3", "not an operation class");
    expect_error("fu.alu.classes=int-alu bogus", "unknown operation class 'bogus'");
    expect_error("fu.alu.classes=int-alu", "cond-branch is in no [fu.*] section");
    expect_error("fu.nothere.count=1", "unknown section [fu.nothere]");
    expect_error("l1d.line=48", "l1d.line = 48: must be a power of two");
    expect_error("l1d.size=1000", "l1d.size = 1000: must be a multiple");
    expect_error("ideal.dcache=maybe", "expected yes or no");
    expect_error("rob_size=3", "expected section.key=value");
}

static void test_config_round_trip(void **state) {
    (void)state;
    static const char *const names[] = {"ooo4", "bdw", "knl"};
    for (int i = 0; i < 3; i++) {
        uarch_config a, b;
        cs_error err;
        uarch_config_default(&a);
        assert_true(uarch_config_load(&a, names[i], &err));
        assert_true(uarch_config_set(&a, "ideal.alu=yes", &err));
        assert_true(uarch_config_set(&a, "fu.alu.count=3", &err));
        char path[] = "/tmp/cyclescope-config-XXXXXX.ini";
        int fd = mkstemps(path, 4);
        FILE *f = fdopen(fd, "w");
        uarch_config_print(&a, f);
        fclose(f);
        uarch_config_default(&b);
        if (!uarch_config_load(&b, path, &err)) fail_msg("reloading the printed %s: %s", names[i], err.msg);
        unlink(path);
        memcpy(b.name, a.name, sizeof a.name);
        /* the printed file names every DRAM timing, so they no longer follow the clock;
         * their values are what they were */
        assert_int_equal(b.dram_timing_set, 0x1f);
        b.dram_timing_set = a.dram_timing_set;
        assert_memory_equal(&a, &b, sizeof a);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_lru),
        cmocka_unit_test(test_cache_example),
        cmocka_unit_test(test_cache_reset),
        cmocka_unit_test(test_memsys_latency),
        cmocka_unit_test(test_bpred_patterns),
        cmocka_unit_test(test_bpred_tage_correlated),
        cmocka_unit_test(test_bpred_static_and_targets),
        cmocka_unit_test(test_config_shipped),
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_config_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
