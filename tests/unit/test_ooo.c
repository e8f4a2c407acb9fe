/* The out-of-order model against closed-form answers on synthetic µop streams
 * whose timing follows from the configuration alone. Table-driven: each row
 * is a configuration change and the CPI (or IPC) it must give. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "array_source.h"
#include "uarch/uarch.h"

enum { N = 20000, LOOP = 256 };

/* A configuration without incidental stalls: perfect I-cache, no ITLB, wide queues. */
static void base_config(uarch_config *c) {
    uarch_config_default(c);
    c->perfect_icache = true;
    c->itlb_entries = 0;
}

static uop *stream(void) { return calloc(N, sizeof(uop)); }

/* Loop the pcs over LOOP instructions so code stays in a few cache lines. */
static uop at(size_t i, op_class cls, uint8_t dst, uint8_t src0, uint8_t src1) {
    uop u = make_uop(i % LOOP, cls, dst, src0, src1);
    return u;
}

static core_stats run(const uarch_config *cfg, uop *uops, size_t n) {
    cs_error err;
    core_t *core = core_create(cfg, &err);
    if (!core) fail_msg("core_create: %s", err.msg);
    uop_source *src = array_source_create(uops, n);
    core_stats st;
    core_run_options opt = {0, 0, NULL};
    if (!core_run(core, src, &opt, &st, &err)) fail_msg("core_run: %s", err.msg);
    uop_source_destroy(src);
    core_destroy(core);
    assert_int_equal(st.instructions, n);
    return st;
}

static double cpi(const core_stats *s) { return (double)s->cycles / (double)s->instructions; }

static void assert_near(double got, double want, double tolerance, const char *what) {
    if (fabs(got - want) > tolerance) fail_msg("%s: got %.4f, want %.4f ± %.4f", what, got, want, tolerance);
}

/* A serial chain of adds has CPI = the ALU latency. */
static void test_add_chain(void **state) {
    (void)state;
    static const unsigned latencies[] = {1, 2, 3, 5};
    for (size_t k = 0; k < sizeof latencies / sizeof latencies[0]; k++) {
        uarch_config c;
        base_config(&c);
        c.latency[OPC_INT_ALU] = latencies[k];
        uop *u = stream();
        for (size_t i = 0; i < N; i++) u[i] = at(i, OPC_INT_ALU, 5, 5, 0);
        core_stats s = run(&c, u, N);
        char what[64];
        snprintf(what, sizeof what, "add chain, latency %u", latencies[k]);
        assert_near(cpi(&s), latencies[k], 0.01 * latencies[k], what);
    }
}

/* Independent adds reach IPC = min(widths, ALU count). */
static void test_independent_adds(void **state) {
    (void)state;
    static const struct {
        unsigned width, alus;
        double ipc;
    } rows[] = {
        {4, 1, 1}, {4, 2, 2}, {4, 3, 3}, {4, 4, 4}, {1, 4, 1}, {2, 4, 2}, {3, 4, 3}, {8, 6, 6},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        uarch_config c;
        base_config(&c);
        c.fetch_width = c.dispatch_width = c.issue_width = c.commit_width = rows[k].width;
        c.fetch_buffer = 64;
        c.pool[0].count = rows[k].alus; /* pool 0 is "alu" in the defaults */
        uop *u = stream();
        for (size_t i = 0; i < N; i++) u[i] = at(i, OPC_INT_ALU, (uint8_t)(1 + i % 31), 0, 0);
        core_stats s = run(&c, u, N);
        char what[64];
        snprintf(what, sizeof what, "independent adds, width %u, %u ALUs", rows[k].width, rows[k].alus);
        assert_near((double)s.instructions / (double)s.cycles, rows[k].ipc, 0.01 * rows[k].ipc, what);
    }
}

/* A chain of multiplies has CPI = the multiply latency. */
static void test_mul_chain(void **state) {
    (void)state;
    static const unsigned latencies[] = {2, 4, 7};
    for (size_t k = 0; k < 3; k++) {
        uarch_config c;
        base_config(&c);
        c.latency[OPC_INT_MUL] = latencies[k];
        uop *u = stream();
        for (size_t i = 0; i < N; i++) u[i] = at(i, OPC_INT_MUL, 7, 7, 6);
        core_stats s = run(&c, u, N);
        assert_near(cpi(&s), latencies[k], 0.01 * latencies[k], "mul chain");
    }
}

/* Independent divides on one unit: CPI = latency when unpipelined, 1 when pipelined. */
static void test_divider_occupancy(void **state) {
    (void)state;
    for (int pipelined = 0; pipelined < 2; pipelined++) {
        uarch_config c;
        base_config(&c);
        c.latency[OPC_INT_DIV] = 12;
        c.pipelined[OPC_INT_DIV] = pipelined;
        c.pool[1].count = 1; /* "longalu" */
        uop *u = stream();
        for (size_t i = 0; i < N; i++) u[i] = at(i, OPC_INT_DIV, (uint8_t)(1 + i % 31), 0, 0);
        core_stats s = run(&c, u, N);
        assert_near(cpi(&s), pipelined ? 1.0 : 12.0, pipelined ? 0.02 : 0.12, "divider");
    }
}

/* A pointer chase that always misses: CPI = address generation plus the hit
 * latency of every level on the way to memory plus the memory latency. */
static void test_pointer_chase(void **state) {
    (void)state;
    for (int l3 = 0; l3 < 2; l3++) {
        uarch_config c;
        base_config(&c);
        c.l3.enabled = l3;
        uop *u = stream();
        for (size_t i = 0; i < N; i++) {
            u[i] = at(i, OPC_LOAD, 10, 10, 0);
            u[i].flags = UOP_MEM_READ;
            u[i].mem_size = 8;
            u[i].mem_addr = 0x40000000ull + (uint64_t)i * 69632; /* a new line every time */
        }
        core_stats s = run(&c, u, N);
        double want = c.latency[OPC_LOAD] + c.l1d.latency + c.l2.latency + (l3 ? c.l3.latency : 0) + c.mem_latency;
        assert_near(cpi(&s), want, 0.01 * want, l3 ? "pointer chase with L3" : "pointer chase");
        assert_int_equal(s.l1d.misses, N);
    }
}

/* An always-mispredicted branch costs the resolution time plus the redirect
 * penalty: fetch → dispatch takes l1i latency + decode depth, issue one cycle
 * later, execute 1, then the penalty before the next fetch. */
static void test_mispredict_cost(void **state) {
    (void)state;
    static const unsigned penalties[] = {0, 3, 10};
    static const unsigned depths[] = {0, 1, 3, 6}; /* 0: decode adds no cycle after the I-cache */
    for (size_t p = 0; p < 3; p++) {
        for (size_t d = 0; d < 4; d++) {
            uarch_config c;
            base_config(&c);
            c.bpred = BPRED_NONE; /* predicts not taken: every taken branch mispredicts */
            c.redirect_penalty = penalties[p];
            c.decode_depth = depths[d];
            uop *u = stream();
            for (size_t i = 0; i < N; i++) {
                u[i] = at(i, OPC_BRANCH, 0, 5, 6);
                u[i].flags = UOP_TAKEN;
                u[i].next_pc = 0x10000 + 4 * ((i + 1) % LOOP);
            }
            core_stats s = run(&c, u, N);
            double want = c.l1i.latency + depths[d] + 2 + penalties[p];
            char what[80];
            snprintf(what, sizeof what, "mispredicted branch, penalty %u, decode depth %u", penalties[p], depths[d]);
            assert_near(cpi(&s), want, 0.01 * want, what);
            assert_int_equal(s.mispredicts, N);
        }
    }
}

/* Independent missing loads: the ROB (or the L1D's or the L2's miss registers)
 * bound the memory-level parallelism, so CPI = miss latency / min(ROB, MSHRs). */
static void test_memory_parallelism(void **state) {
    (void)state;
    static const struct { unsigned rob, mshrs; } rows[] = {{8, 0}, {16, 0}, {32, 0}, {64, 0}, {64, 8}, {128, 16}};
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        uarch_config c;
        base_config(&c);
        c.rob_size = rows[k].rob;
        c.iq_size = rows[k].rob < 36 ? rows[k].rob : 36;
        c.lsq_size = 0;
        c.lq_size = c.sq_size = 256;
        c.l1d.mshrs = rows[k].mshrs;
        uop *u = stream();
        for (size_t i = 0; i < N; i++) {
            u[i] = at(i, OPC_LOAD, (uint8_t)(1 + i % 31), 0, 0);
            u[i].flags = UOP_MEM_READ;
            u[i].mem_size = 8;
            u[i].mem_addr = 0x40000000ull + (uint64_t)i * 69632;
        }
        core_stats s = run(&c, u, N);
        double latency = c.latency[OPC_LOAD] + c.l1d.latency + c.l2.latency + c.mem_latency;
        unsigned limit = rows[k].mshrs && rows[k].mshrs < rows[k].rob ? rows[k].mshrs : rows[k].rob;
        if (c.l2.mshrs && c.l2.mshrs < limit) limit = c.l2.mshrs; /* every load misses the L2 too */
        char what[64];
        snprintf(what, sizeof what, "MLP, ROB %u, MSHRs %u", rows[k].rob, rows[k].mshrs);
        assert_near(cpi(&s), latency / limit, 0.08 * latency / limit, what);
    }
}

/* A load after a store to the same address takes the store's data from the
 * store queue while the store waits to commit (here behind a slow divide). */
static void test_store_forwarding(void **state) {
    (void)state;
    uarch_config c;
    base_config(&c);
    c.latency[OPC_INT_DIV] = 20;
    uop *u = stream();
    size_t groups = N / 3;
    for (size_t g = 0; g < groups; g++) {
        size_t i = 3 * g;
        u[i] = at(i, OPC_INT_DIV, 20, 21, 22);
        u[i + 1] = at(i + 1, OPC_STORE, 0, 8, 9);
        u[i + 1].flags = UOP_MEM_WRITE;
        u[i + 2] = at(i + 2, OPC_LOAD, 9, 8, 0);
        u[i + 2].flags = UOP_MEM_READ;
        u[i + 1].mem_size = u[i + 2].mem_size = 8;
        u[i + 1].mem_addr = u[i + 2].mem_addr = 0x80000 + 64 * (uint64_t)g;
    }
    core_stats s = run(&c, u, 3 * groups);
    assert_int_equal(s.forwarded_loads, groups);
    /* the cache classifies every access in program order, forwarded loads included */
    assert_int_equal(s.l1d.accesses, 2 * groups);
}

/* Every stage span and FP span an observer sees, as one running hash per
 * stage (and one for the FP view) of every field, causes included: spans are
 * maximal runs of identical cycles, so equal hashes mean equal views in every
 * cycle. Each stage's spans must also cover the run's cycles exactly. */
typedef struct view_hash {
    uint64_t h[STAGE_COUNT + 1], next[STAGE_COUNT + 1];
    bool gap;
} view_hash;

static inline void mix(uint64_t *h, uint64_t x) { *h = (*h ^ x) * 0x100000001b3ull; }

static void mix_cause(uint64_t *h, const stall_cause *c) {
    mix(h, c->kind), mix(h, c->level), mix(h, c->state), mix(h, c->op_class), mix(h, c->latency);
    mix(h, c->seq), mix(h, c->pc);
}

static void hash_stages(void *ctx, const stage_span *sp, size_t n) {
    view_hash *v = ctx;
    for (size_t i = 0; i < n; i++) {
        int s = sp[i].stage;
        if (sp[i].cycle != v->next[s]) v->gap = true;
        v->next[s] = sp[i].cycle + sp[i].cycles;
        uint64_t *h = &v->h[s];
        mix(h, sp[i].cycle), mix(h, sp[i].cycles);
        mix(h, sp[i].v.n), mix(h, sp[i].v.width), mix(h, sp[i].v.stall);
        mix_cause(h, &sp[i].v.cause);
    }
}

static void hash_fp(void *ctx, const fp_span *sp, size_t n) {
    view_hash *v = ctx;
    for (size_t i = 0; i < n; i++) {
        if (sp[i].cycle != v->next[STAGE_COUNT]) v->gap = true;
        v->next[STAGE_COUNT] = sp[i].cycle + sp[i].cycles;
        uint64_t *h = &v->h[STAGE_COUNT];
        const fp_view *f = &sp[i].v;
        mix(h, sp[i].cycle), mix(h, sp[i].cycles);
        mix(h, f->units), mix(h, f->issued), mix(h, f->flops), mix(h, f->nonflop_on_fpu), mix(h, f->waiting);
        mix_cause(h, &f->cause);
    }
}

/* Skipping idle cycles changes nothing but speed: the statistics, and every
 * view an observer sees, causes included. (tests/unit/test_probes.c checks
 * every other kind of record the same way.) */
static void test_skip_is_exact(void **state) {
    (void)state;
    core_stats out[2];
    view_hash views[2];
    for (int skip = 0; skip < 2; skip++) {
        uarch_config c;
        uarch_config_default(&c);
        c.skip_idle = skip;
        uop *u = stream();
        for (size_t i = 0; i < N; i++) {
            int kind = (int)(i * 7 % 5);
            u[i] = at(i,
                      kind == 0       ? OPC_LOAD
                          : kind == 1 ? OPC_INT_MUL
                                      : OPC_INT_ALU,
                      (uint8_t)(1 + i % 13), (uint8_t)(1 + (i + 3) % 13), 0);
            if (kind == 0) {
                u[i].flags = UOP_MEM_READ;
                u[i].mem_size = 8;
                u[i].mem_addr = 0x40000000ull + (uint64_t)((i * 2654435761u) % 100000) * 64;
            }
        }
        /* with an observer: the views it is given */
        memset(&views[skip], 0, sizeof views[skip]);
        cs_error err;
        core_t *core = core_create(&c, &err);
        probe_observer obs = {
            .ctx = &views[skip], .needs = PROBE_STAGES | PROBE_FETCH | PROBE_FP, .stages = hash_stages, .fp = hash_fp};
        assert_true(core_observe(core, &obs, &err));
        array_source src = array_source_borrow(u, N);
        core_stats st;
        core_run_options opt = {0, 0, NULL};
        if (!core_run(core, &src.base, &opt, &st, &err)) fail_msg("core_run: %s", err.msg);
        core_destroy(core);
        /* and without */
        out[skip] = run(&c, u, N); /* takes u */
        out[skip].seconds = st.seconds = 0;
        assert_memory_equal(&st, &out[skip], sizeof st); /* observing changes no timing */
        for (int s = 0; s <= STAGE_COUNT; s++) assert_int_equal(views[skip].next[s], st.cycles);
        assert_false(views[skip].gap);
    }
    assert_memory_equal(&out[0], &out[1], sizeof out[0]);
    assert_memory_equal(views[0].h, views[1].h, sizeof views[0].h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_chain),          cmocka_unit_test(test_independent_adds),
        cmocka_unit_test(test_mul_chain),          cmocka_unit_test(test_divider_occupancy),
        cmocka_unit_test(test_pointer_chase),      cmocka_unit_test(test_mispredict_cost),
        cmocka_unit_test(test_memory_parallelism), cmocka_unit_test(test_store_forwarding),
        cmocka_unit_test(test_skip_is_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
