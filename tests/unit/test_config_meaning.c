/* Values issue 11 found accepted without comment (item 13): each is either
 * rejected with an error naming the key and the valid range, or has a
 * documented meaning checked here by a known answer. (core.decode_depth = 0 is
 * checked in test_ooo's mispredict cost, mshrs = 0 and lsq_size = 0 in
 * test_ooo's memory parallelism and test_memsys's bandwidth tests.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "uarch/cache.h"
#include "uarch/config.h"

static void expect_rejected(const char *assignment, const char *message) {
    uarch_config c;
    uarch_config_default(&c);
    cs_error err = {{0}};
    bool ok = uarch_config_set(&c, assignment, &err) && uarch_config_validate(&c, &err);
    if (ok) fail_msg("%s accepted", assignment);
    if (!strstr(err.msg, message)) fail_msg("%s: '%s' does not say '%s'", assignment, err.msg, message);
}

static void expect_accepted(const char *assignment) {
    uarch_config c;
    uarch_config_default(&c);
    cs_error err = {{0}};
    if (!uarch_config_set(&c, assignment, &err) || !uarch_config_validate(&c, &err))
        fail_msg("%s: %s", assignment, err.msg);
}

static void test_rejected(void **state) {
    (void)state;
    /* a BTB of 3 entries would have been rounded up to 4, quietly */
    expect_rejected("bpred.btb_entries=3", "bpred.btb_entries = 3: expected 0 (no BTB) or a power of two");
    expect_rejected("bpred.btb_entries=1000", "power of two from 1 to 1048576");
    expect_accepted("bpred.btb_entries=0"); /* documented: no BTB */
    expect_accepted("bpred.btb_entries=1024");
    /* ranges that were already enforced, named with key and range */
    expect_rejected("core.rob_size=0", "core.rob_size = 0: expected an integer from 1 to 65536");
    expect_rejected("l1d.line=48", "l1d.line = 48: must be a power of two");
    expect_rejected("l1d.assoc=5", "is not a whole number of 5-way sets");
}

/* Misses of a cyclic walk over `distinct` lines mapping to one set, after the first round. */
static unsigned steady_misses(const cache_config *cfg, unsigned distinct, uint64_t stride) {
    cache_t *c = cache_create(cfg);
    for (unsigned i = 0; i < distinct; i++) cache_access(c, i * stride);
    unsigned misses = 0;
    for (unsigned round = 0; round < 10; round++)
        for (unsigned i = 0; i < distinct; i++) misses += !cache_access(c, i * stride);
    cache_destroy(c);
    return misses;
}

/* l1d.assoc = 3 is a 3-way cache (sets need not be a power of two): three lines
 * of one set stay, a fourth evicts in LRU order so a cyclic walk always misses. */
static void test_three_ways(void **state) {
    (void)state;
    expect_accepted("l1d.assoc=3");                  /* 48 KiB / 64 B = 768 lines = 256 sets of 3 */
    cache_config cfg = {true, 12 * 64, 3, 64, 1, 0}; /* 4 sets of 3 ways */
    assert_int_equal(steady_misses(&cfg, 3, 4 * 64), 0);
    assert_int_equal(steady_misses(&cfg, 4, 4 * 64), 40);
    cache_config odd = {true, 9 * 64, 3, 64, 1, 0}; /* 3 sets: not a power of two */
    assert_int_equal(steady_misses(&odd, 3, 3 * 64), 0);
    assert_int_equal(steady_misses(&odd, 4, 3 * 64), 40);
}

/* itlb.entries = 3 is a fully associative 3-entry TLB of 4 KiB pages (ooo.c
 * builds it as a cache of entries pages, assoc 0): 3 pages hit, 4 in a cycle miss. */
static void test_three_tlb_entries(void **state) {
    (void)state;
    expect_accepted("itlb.entries=3");
    cache_config tlb = {true, 3 * 4096, 0, 4096, 0, 0};
    assert_int_equal(steady_misses(&tlb, 3, 4096), 0);
    assert_int_equal(steady_misses(&tlb, 4, 4096), 40);
}

static void set_all(uarch_config *c, const char *const *assignments) {
    cs_error err = {{0}};
    for (; *assignments; assignments++)
        if (!uarch_config_set(c, *assignments, &err)) fail_msg("%s: %s", *assignments, err.msg);
}

/* The DRAM timings are DDR4-2400-like nanoseconds (docs/uarch.md): 40/40/40/8/20 cycles of
 * the default 3 GHz core, a third of that at 1 GHz, whatever order the clock is set in;
 * a timing the configuration names keeps its cycles on any clock. */
static void test_dram_timing_follows_clock(void **state) {
    (void)state;
    uarch_config c;
    uarch_config_default(&c);
    assert_int_equal(c.dram_cas, 40), assert_int_equal(c.dram_burst, 8), assert_int_equal(c.dram_turn, 20);
    set_all(&c, (const char *const[]){"core.freq_ghz=1", NULL});
    assert_int_equal(c.dram_cas, 13), assert_int_equal(c.dram_rcd, 13), assert_int_equal(c.dram_rp, 13);
    assert_int_equal(c.dram_burst, 3), assert_int_equal(c.dram_turn, 7);
    set_all(&c, (const char *const[]){"dram.t_rcd=30", "dram.burst=9", "core.freq_ghz=2.3", NULL});
    assert_int_equal(c.dram_cas, 31), assert_int_equal(c.dram_rp, 31), assert_int_equal(c.dram_turn, 15);
    assert_int_equal(c.dram_rcd, 30), assert_int_equal(c.dram_burst, 9); /* named: kept */
    set_all(&c, (const char *const[]){"core.freq_ghz=0.05", NULL});
    assert_int_equal(c.dram_burst, 9), assert_int_equal(c.dram_turn, 1); /* at least a cycle */
}

/* --set drops blanks around the section, key and value as the INI reader does: a value with
 * a blank after it was refused while one with a blank before it was taken */
static void test_set_blanks(void **state) {
    (void)state;
    uarch_config c;
    uarch_config_default(&c);
    set_all(&c, (const char *const[]){"core.rob_size=96 ", "core . iq_size = 20", "\tl1d.size=\t32K\t", NULL});
    assert_int_equal(c.rob_size, 96), assert_int_equal(c.iq_size, 20), assert_int_equal(c.l1d.size, 32 * 1024);
    expect_rejected("core.rob_size=9 6", "core.rob_size = 9 6: expected an integer");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rejected),          cmocka_unit_test(test_three_ways),
        cmocka_unit_test(test_three_tlb_entries), cmocka_unit_test(test_dram_timing_follows_clock),
        cmocka_unit_test(test_set_blanks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
