/* The stacks observer on hand-made views (Table II, the §III-A carry-over
 * rule, repeats, the classification of every cause, Table III), the stacks
 * summing to the cycles on random views, the §V-A evaluation, and the
 * parallel validation driver on a synthetic µop stream. The views are fed as
 * the probe contract delivers them: one span per stage and one FP span. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runner/runner.h"
#include "stacks/stacks.h"
#include "validation/validation.h"

/* A cycle (or `repeat` identical cycles) as a test writes it down. */
typedef struct cycle_view {
    uint64_t cycle, repeat;
    stage_view stage[STAGE_COUNT];
    fp_view fp;
    uint16_t rob, iq, lq, sq; /* unused by the stacks */
} cycle_view;

/* ---- helpers ---- */

static stacks_observer *obs;
static probe_observer P;

static void start(uint8_t dispatch, uint8_t issue, uint8_t commit, uint8_t fp_units) {
    obs = stacks_observer_create();
    P = stacks_observer_probe(obs);
    probe_run_info info = {"test", "test", NULL, {4, dispatch, issue, commit}, fp_units, 1, 2.0};
    P.begin(P.ctx, &info);
}

static uint64_t cycles_fed;

static void feed(const cycle_view *v) {
    stage_span sp[3];
    for (int s = STAGE_DISPATCH; s <= STAGE_COMMIT; s++)
        sp[s - STAGE_DISPATCH] = (stage_span){cycles_fed, v->repeat, (uint8_t)s, v->stage[s]};
    P.stages(P.ctx, sp, 3);
    fp_span f = {cycles_fed, v->repeat, v->fp};
    P.fp(P.ctx, &f, 1);
    cycles_fed += v->repeat;
}

static const stacks_result *finish(void) {
    core_stats st = {.cycles = cycles_fed, .instructions = 100};
    P.end(P.ctx, &st);
    cycles_fed = 0;
    return stacks_observer_result(obs);
}

static void stop(void) {
    stacks_observer_destroy(obs);
    obs = NULL;
}

static stage_view sv(uint8_t n, uint8_t width, uint8_t stall, stall_cause c) {
    return (stage_view){n, width, stall, c};
}

static stall_cause cause(uint8_t kind, uint8_t level, uint8_t state, uint8_t cls, uint16_t lat, uint64_t seq) {
    return (stall_cause){kind, level, state, cls, lat, seq, 0x1000};
}

static const stall_cause NONE = {0};

/* A view with the same stage view at dispatch, issue and commit. */
static cycle_view all3(stage_view s, uint64_t repeat) {
    cycle_view v;
    memset(&v, 0, sizeof v);
    v.repeat = repeat;
    v.stage[STAGE_DISPATCH] = v.stage[STAGE_ISSUE] = v.stage[STAGE_COMMIT] = s;
    return v;
}

#define assert_close(a, b) assert_true(fabs((double)(a) - (double)(b)) < 1e-9)

/* ---- names ---- */

static void test_names(void **state) {
    (void)state;
    for (int i = 0; i < COMP_COUNT; i++) {
        assert_non_null(stack_component_name((stack_component)i));
        assert_true(strlen(stack_component_doc((stack_component)i)) > 5);
        for (int j = 0; j < i; j++)
            assert_string_not_equal(stack_component_name((stack_component)i), stack_component_name((stack_component)j));
    }
    for (int i = 0; i < FLOPS_COUNT; i++) assert_true(strlen(flops_component_doc((flops_component)i)) > 5);
    assert_string_equal(stack_stage_name(STACK_ISSUE), "issue");
    assert_string_equal(ideal_kind_name(IDEAL_ALU), "1-cycle ALU");
    assert_string_equal(stack_component_name(COMP_COUNT), "?");
}

/* ---- Table II ---- */

static void test_base_and_frontend(void **state) {
    (void)state;
    start(4, 4, 4, 2);
    /* a full cycle everywhere */
    feed(&(cycle_view){0, 1, {{0}, sv(4, 4, 0, NONE), sv(4, 4, 0, NONE), sv(4, 4, 0, NONE)}, {0}, 0, 0, 0, 0});
    /* dispatch 1 of 4, the frontend empty after an I-cache miss served by L3;
     * issue 2 with an empty queue after a mispredict; commit 0, ROB empty, the pipeline draining */
    cycle_view v = {1,
                    1,
                    {{0},
                     sv(1, 4, STALL_FRONTEND_EMPTY, cause(CAUSE_ICACHE, LEVEL_L3, 0, 0, 0, 0)),
                     sv(2, 4, STALL_IQ_EMPTY, cause(CAUSE_BPRED, 0, 0, OPC_BRANCH, 0, 7)),
                     sv(0, 4, STALL_ROB_EMPTY, cause(CAUSE_TRACE_END, 0, 0, 0, 0, 0))},
                    {0},
                    0,
                    0,
                    0,
                    0};
    feed(&v);
    const stacks_result *r = finish();
    assert_int_equal(r->width, 4);
    assert_int_equal(r->cycles, 2);
    assert_close(r->stage[STACK_DISPATCH].cycles[COMP_BASE], 1.25);
    assert_close(r->stage[STACK_DISPATCH].cycles[COMP_ICACHE_L3], 0.75);
    assert_close(r->stage[STACK_ISSUE].cycles[COMP_BASE], 1.5);
    assert_close(r->stage[STACK_ISSUE].cycles[COMP_BPRED], 0.5);
    assert_close(r->stage[STACK_COMMIT].cycles[COMP_BASE], 1.0);
    assert_close(r->stage[STACK_COMMIT].cycles[COMP_OTHER], 1.0);
    stop();
}

/* Every cause the ooo core attaches, and the component it lands in. */
static void test_classification(void **state) {
    (void)state;
    static const struct {
        uint8_t stall;
        stall_cause c;
        stack_component expect;        /* at dispatch and issue */
        stack_component expect_commit; /* 0 (base): the same */
    } cases[] = {
        {STALL_FRONTEND_EMPTY, {CAUSE_ICACHE, LEVEL_L2, 0, 0, 0, 0, 0}, COMP_ICACHE_L2, COMP_BASE},
        {STALL_FRONTEND_EMPTY, {CAUSE_ICACHE, LEVEL_MEM, 0, 0, 0, 0, 0}, COMP_ICACHE_MEM, COMP_BASE},
        {STALL_FRONTEND_EMPTY, {CAUSE_ITLB, 0, 0, 0, 0, 0, 0}, COMP_ITLB, COMP_BASE},
        {STALL_FRONTEND_EMPTY, {CAUSE_BPRED, 0, 0, OPC_BRANCH, 1, 9, 0}, COMP_BPRED, COMP_BASE},
        {STALL_FRONTEND_EMPTY, {CAUSE_FRONTEND, 0, 0, 0, 0, 0, 0}, COMP_FRONTEND, COMP_BASE},
        {STALL_FRONTEND_EMPTY, {CAUSE_STRUCTURE, 0, 0, 0, 0, 0, 0}, COMP_OTHER, COMP_BASE},
        {STALL_FRONTEND_EMPTY, {CAUSE_TRACE_END, 0, 0, 0, 0, 0, 0}, COMP_OTHER, COMP_BASE},
        {STALL_IQ_EMPTY, {CAUSE_NONE, 0, 0, 0, 0, 0, 0}, COMP_OTHER, COMP_BASE},
        /* the ROB head / the producer: D-cache misses by level */
        {STALL_ROB_FULL, {CAUSE_UOP, LEVEL_L2, UOPST_EXECUTING, OPC_LOAD, 20, 3, 0}, COMP_DCACHE_L2, COMP_BASE},
        {STALL_HEAD_NOT_DONE, {CAUSE_UOP, LEVEL_L3, UOPST_EXECUTING, OPC_LOAD, 50, 3, 0}, COMP_DCACHE_L3, COMP_BASE},
        {STALL_NOT_READY, {CAUSE_UOP, LEVEL_MEM, UOPST_EXECUTING, OPC_ATOMIC, 200, 3, 0}, COMP_DCACHE_MEM, COMP_BASE},
        /* a memory µop whose DTLB miss is being served: dtlb, whatever level its data comes from */
        {STALL_HEAD_NOT_DONE, {CAUSE_UOP, LEVEL_MEM, UOPST_TRANSLATING, OPC_LOAD, 230, 3, 0}, COMP_DTLB, COMP_BASE},
        {STALL_NOT_READY, {CAUSE_UOP, 0, UOPST_TRANSLATING, OPC_LOAD, 30, 3, 0}, COMP_DTLB, COMP_BASE},
        {STALL_ROB_FULL, {CAUSE_UOP, 0, UOPST_TRANSLATING, OPC_STORE, 30, 3, 0}, COMP_DTLB, COMP_BASE},
        /* an L1 hit is base pipeline latency: dependence */
        {STALL_NOT_READY, {CAUSE_UOP, 0, UOPST_EXECUTING, OPC_LOAD, 5, 3, 0}, COMP_DEPEND, COMP_BASE},
        /* long latency while executing (first cycle of a 40-cycle divide) */
        {STALL_HEAD_NOT_DONE, {CAUSE_UOP, 0, UOPST_EXECUTING, OPC_INT_DIV, 40, 3, 0}, COMP_LONGLAT_INT, COMP_BASE},
        {STALL_NOT_READY, {CAUSE_UOP, 0, UOPST_EXECUTING, OPC_FP_FMA, 5, 4, 0}, COMP_LONGLAT_FP, COMP_BASE},
        {STALL_NOT_READY, {CAUSE_UOP, 0, UOPST_EXECUTING, OPC_FP_MISC, 3, 5, 0}, COMP_LONGLAT_FP, COMP_BASE},
        /* not executing: its own producers or issue hold it, not its latency (commit: Table II as written) */
        {STALL_HEAD_NOT_DONE, {CAUSE_UOP, 0, UOPST_READY, OPC_INT_MUL, 3, 6, 0}, COMP_DEPEND, COMP_LONGLAT_INT},
        {STALL_NOT_READY, {CAUSE_UOP, 0, UOPST_WAIT_OPERANDS, OPC_FP_ADD, 3, 6, 0}, COMP_DEPEND, COMP_LONGLAT_FP},
        {STALL_HEAD_NOT_DONE, {CAUSE_UOP, 0, UOPST_EXECUTING, OPC_INT_ALU, 1, 7, 0}, COMP_DEPEND, COMP_BASE},
        /* the structural stalls only issue sees */
        {STALL_NO_UNIT, {CAUSE_STRUCTURE, 0, UOPST_READY, OPC_INT_MUL, 3, 8, 0}, COMP_NO_UNIT, COMP_BASE},
        /* a unit held by a µop the model names: an in-order memory pipe frozen by a miss */
        {STALL_NO_UNIT, {CAUSE_UOP, LEVEL_MEM, UOPST_EXECUTING, OPC_LOAD, 200, 8, 0}, COMP_DCACHE_MEM, COMP_BASE},
        {STALL_MEM_ORDER, {CAUSE_UOP, 0, UOPST_READY, OPC_LOAD, 2, 8, 0}, COMP_MEM_ORDER, COMP_BASE},
        {STALL_NO_MSHR, {CAUSE_STRUCTURE, 0, UOPST_READY, OPC_LOAD, 2, 8, 0}, COMP_DCACHE_MEM, COMP_BASE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        start(4, 4, 4, 2);
        cycle_view v = all3(sv(0, 4, cases[i].stall, cases[i].c), 1);
        feed(&v);
        const stacks_result *r = finish();
        for (int st = 0; st < STACK_STAGES; st++) {
            stack_component want = cases[i].expect;
            if (st == STACK_COMMIT && cases[i].expect_commit) want = cases[i].expect_commit;
            if (r->stage[st].cycles[want] != 1.0)
                fail_msg("case %zu: %s at %s went to the wrong component (expected %s)", i,
                         probe_stall_name(cases[i].stall), stack_stage_name((stack_stage)st),
                         stack_component_name(want));
        }
        stop();
    }
}

/* §III-A: W is the narrowest width; a wider stage carries its excess into the next cycle. */
static void test_carry_over(void **state) {
    (void)state;
    start(4, 8, 4, 2);
    stall_cause dep = cause(CAUSE_UOP, 0, UOPST_EXECUTING, OPC_INT_ALU, 1, 1);
    cycle_view v;
    memset(&v, 0, sizeof v);
    v.repeat = 1;
    v.stage[STAGE_DISPATCH] = sv(4, 4, 0, NONE);
    v.stage[STAGE_COMMIT] = sv(4, 4, 0, NONE);
    v.stage[STAGE_ISSUE] = sv(7, 8, STALL_IQ_EMPTY, NONE); /* f = 7/4: 1, carry 3 */
    feed(&v);
    v.stage[STAGE_ISSUE] = sv(2, 8, STALL_NOT_READY, dep); /* 2 + 3 = 5: 1, carry 1 */
    feed(&v);
    v.stage[STAGE_ISSUE] = sv(1, 8, STALL_NOT_READY, dep); /* 1 + 1 = 2: 0.5 + 0.5 dependence */
    feed(&v);
    v.stage[STAGE_ISSUE] = sv(9, 8, STALL_NONE, NONE); /* 1, carry 5 (n beyond the stage width is still counted) */
    feed(&v);
    /* a repeated view uses up the carry cycle by cycle: 1 + 5 = 6 → 1 (carry 2), 1 + 2 = 3 → 0.75,
     * then 0.25 each */
    v.stage[STAGE_ISSUE] = sv(1, 8, STALL_NOT_READY, dep);
    v.repeat = 10;
    feed(&v);
    const stacks_result *r = finish();
    assert_int_equal(r->width, 4);
    const double *is = r->stage[STACK_ISSUE].cycles;
    assert_close(is[COMP_BASE], 1 + 1 + 0.5 + 1 + (1 + 0.75 + 8 * 0.25));
    assert_close(is[COMP_DEPEND], 0.5 + 0.25 + 8 * 0.75);
    assert_close(is[COMP_BASE] + is[COMP_DEPEND], 14);
    assert_close(r->stage[STACK_DISPATCH].cycles[COMP_BASE], 14);
    stop();
}

/* Long latency: at dispatch and issue only beyond one cycle; at commit as
 * Table II has it. A 3-cycle multiply chain. */
static void test_long_latency_beyond_one_cycle(void **state) {
    (void)state;
    start(4, 4, 4, 2);
    for (uint64_t seq = 10; seq < 13; seq++) {
        stall_cause mul = cause(CAUSE_UOP, 0, UOPST_EXECUTING, OPC_INT_MUL, 3, seq);
        stall_cause ready = cause(CAUSE_UOP, 0, UOPST_READY, OPC_INT_MUL, 3, seq);
        cycle_view v;
        memset(&v, 0, sizeof v);
        /* issue and dispatch blame it from its issue cycle (1 µop issued) for 3 cycles;
         * commit sees it ready (not yet issued) in that cycle, then executing for 2 */
        v.repeat = 1;
        v.stage[STAGE_DISPATCH] = sv(1, 4, STALL_ROB_FULL, mul);
        v.stage[STAGE_ISSUE] = sv(1, 4, STALL_NOT_READY, mul);
        v.stage[STAGE_COMMIT] = sv(1, 4, STALL_HEAD_NOT_DONE, ready);
        feed(&v);
        v.repeat = 2;
        v.stage[STAGE_DISPATCH] = sv(0, 4, STALL_ROB_FULL, mul);
        v.stage[STAGE_ISSUE] = sv(0, 4, STALL_NOT_READY, mul);
        v.stage[STAGE_COMMIT] = sv(0, 4, STALL_HEAD_NOT_DONE, mul);
        feed(&v);
    }
    const stacks_result *r = finish();
    /* a 1-cycle multiply would take 1 cycle (0.25 base + 0.75 dependence): 2 cycles saved per multiply */
    for (int st = STACK_DISPATCH; st <= STACK_ISSUE; st++) {
        assert_close(r->stage[st].cycles[COMP_BASE], 0.75);
        assert_close(r->stage[st].cycles[COMP_LONGLAT_INT], 6);
        assert_close(r->stage[st].cycles[COMP_DEPEND], 3 * 0.75);
    }
    /* commit, literally: every stalled cycle with a multiply at the head */
    assert_close(r->stage[STACK_COMMIT].cycles[COMP_BASE], 0.75);
    assert_close(r->stage[STACK_COMMIT].cycles[COMP_LONGLAT_INT], 3 * 2.75);
    assert_close(r->stage[STACK_COMMIT].cycles[COMP_DEPEND], 0);
    stop();
}

/* Table III with k = 2, v = 1. */
static void test_flops(void **state) {
    (void)state;
    start(4, 4, 4, 2);
    stall_cause load = cause(CAUSE_UOP, 0, UOPST_EXECUTING, OPC_LOAD, 5, 3);
    stall_cause fadd = cause(CAUSE_UOP, 0, UOPST_EXECUTING, OPC_FP_ADD, 3, 4);
    cycle_view v = all3(sv(4, 4, 0, NONE), 1);
    v.fp = (fp_view){2, 2, 4, 0, true, 0, 0, NONE}; /* two FMAs: peak */
    feed(&v);
    v.fp = (fp_view){2, 1, 1, 0, true, 0, 0, load}; /* one fadd; the other FP µop waits on a load */
    feed(&v);
    v.fp = (fp_view){2, 0, 0, 1, true, 0, 0, fadd}; /* an fmv holds one unit; the FP µop waits on an fadd */
    feed(&v);
    v.fp = (fp_view){2, 0, 0, 0, false, 0, 0, NONE}; /* no FP work: frontend */
    v.repeat = 3;
    feed(&v);
    v.fp =
        (fp_view){2, 0, 0, 0, true, 0, 0, cause(CAUSE_UOP, 0, UOPST_READY, OPC_FP_DIV, 20, 5)}; /* ready, not issued */
    v.repeat = 1;
    feed(&v);
    v.fp = (fp_view){2,    0, 0, 0,
                     true, 0, 0, cause(CAUSE_UOP, 0, UOPST_READY, OPC_LOAD, 5, 6)}; /* waits on a load not yet issued */
    feed(&v);
    const stacks_result *r = finish();
    const double *f = r->fp.cycles;
    assert_int_equal(r->flops, 5);
    assert_int_equal(r->fp.units, 2);
    assert_close(r->fp.peak_per_cycle, 4);
    assert_close(f[FLOPS_BASE], 1 + 0.25);
    assert_close(f[FLOPS_NON_FMA], 0.25);
    assert_close(f[FLOPS_MEMORY], 0.5 + 1);
    assert_close(f[FLOPS_NON_FP], 0.5);
    assert_close(f[FLOPS_DEPEND], 0.5);
    assert_close(f[FLOPS_FRONTEND], 3);
    assert_close(f[FLOPS_OTHER], 1);
    assert_close(f[FLOPS_MASK], 0);
    stop();
}

/* A divide on a separate divider (bdw, knl): one FP operation of the run, none of the k units'
 * slots; the run's FLOPS count it, the stack's base does not. */
static void test_flops_outside_units(void **state) {
    (void)state;
    start(4, 4, 4, 2);
    cycle_view v = all3(sv(4, 4, 0, NONE), 1);
    v.fp = (fp_view){2, 1, 1, 0, true, 1, 0, NONE}; /* an fadd on a unit, an fdiv on the divider */
    feed(&v);
    v.fp = (fp_view){2, 0, 0, 0, false, 1, 0, NONE}; /* only a divide issued: no FP work for the units */
    feed(&v);
    const stacks_result *r = finish();
    const double *f = r->fp.cycles;
    assert_int_equal(r->flops, 3);
    assert_int_equal(r->flops_outside, 2);
    assert_close(f[FLOPS_BASE], 0.25);
    assert_close(f[FLOPS_NON_FMA], 0.25);
    assert_close(f[FLOPS_FRONTEND], 1);
    assert_close(f[FLOPS_BASE] + f[FLOPS_NON_FMA] + f[FLOPS_FRONTEND] + f[FLOPS_DEPEND] + f[FLOPS_OTHER], 2);
    stop();
}

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
#define RND() rnd()

/* Random views: every stack sums to the cycles, whatever the views say. */
static void test_random_views_sum(void **state) {
    (void)state;
    for (int run = 0; run < 50; run++) {
        uint8_t w[3] = {(uint8_t)(1 + RND() % 6), (uint8_t)(1 + RND() % 8), (uint8_t)(1 + RND() % 6)};
        uint8_t k = (uint8_t)(RND() % 4);
        start(w[0], w[1], w[2], k);
        uint64_t total = 0;
        for (int c = 0; c < 2000; c++) {
            cycle_view v;
            memset(&v, 0, sizeof v);
            v.repeat = RND() % 8 ? 1 : 1 + RND() % 1000;
            for (int s = STAGE_DISPATCH; s <= STAGE_COMMIT; s++) {
                uint8_t width = w[s - 1];
                v.stage[s].width = width;
                v.stage[s].n = (uint8_t)(RND() % (width + 1u));
                v.stage[s].stall = v.stage[s].n == width ? STALL_NONE : (uint8_t)(RND() % STALL_COUNT);
                v.stage[s].cause = cause((uint8_t)(RND() % 8), (uint8_t)(RND() % 5), (uint8_t)(RND() % 4),
                                         (uint8_t)(RND() % OPC_COUNT), (uint16_t)(RND() % 40), RND() % 6);
            }
            v.fp.units = k;
            v.fp.issued = k ? (uint8_t)(RND() % (k + 1u)) : 0;
            v.fp.flops = (uint8_t)(v.fp.issued + RND() % (v.fp.issued + 1u));
            v.fp.nonflop_on_fpu = (uint8_t)(RND() % 3);
            v.fp.waiting = RND() % 2;
            v.fp.cause = cause((uint8_t)(RND() % 8), 0, (uint8_t)(RND() % 4), (uint8_t)(RND() % OPC_COUNT), 3, 1);
            feed(&v);
            total += v.repeat;
        }
        const stacks_result *r = finish();
        assert_int_equal(r->cycles, total);
        for (int st = 0; st < STACK_STAGES; st++) {
            double sum = 0;
            for (int c = 0; c < COMP_COUNT; c++) {
                assert_true(r->stage[st].cycles[c] >= 0);
                sum += r->stage[st].cycles[c];
            }
            assert_true(fabs(sum - (double)total) <= 1e-9 * (double)total);
        }
        double fsum = 0;
        for (int c = 0; c < FLOPS_COUNT; c++) fsum += r->fp.cycles[c];
        assert_true(fabs(fsum - (double)total) <= 1e-9 * (double)total);
        stop();
    }
#undef RND
}

/* ---- §V-A evaluation ---- */

static void test_evaluate(void **state) {
    (void)state;
    stacks_result base;
    memset(&base, 0, sizeof base);
    base.cycles = 2000;
    base.instructions = 1000; /* CPI 2 */
    /* bpred: dispatch 0.8, issue 0.5, commit 0.3 CPI; D-cache: 0.1, 0.4, 0.6; ALU: 0.05 everywhere */
    double bp[3] = {800, 500, 300}, dc[3] = {100, 400, 600};
    for (int s = 0; s < STACK_STAGES; s++) {
        base.stage[s].cycles[COMP_BPRED] = bp[s];
        base.stage[s].cycles[COMP_DCACHE_L2] = dc[s] / 2;
        base.stage[s].cycles[COMP_DCACHE_MEM] = dc[s] / 2;
        base.stage[s].cycles[COMP_LONGLAT_INT] = 30;
        base.stage[s].cycles[COMP_LONGLAT_FP] = 20;
    }
    double cpi[IDEAL_COUNT];
    cpi[IDEAL_ICACHE] = 2.0;             /* reduction 0, predicted 0: within */
    cpi[IDEAL_DCACHE] = 2.0 - 0.9;       /* above the range [0.1, 0.6]: error 0.3 */
    cpi[IDEAL_BPRED] = 2.0 - 0.6;        /* within [0.3, 0.8] */
    cpi[IDEAL_ALU] = 2.0 - 0.02;         /* below 0.05: error 0.03, not relevant (< 10%) */
    cpi[IDEAL_DCACHE_ALU] = 2.0 - 1.2;   /* > 0.9 + 0.02: hidden stalls */
    cpi[IDEAL_BPRED_DCACHE] = 2.0 - 1.0; /* < 0.6 + 0.9: overlap */
    validation_result v;
    memset(&v, 0, sizeof v);
    validation_evaluate(&v, &base, cpi);
    assert_close(v.base_cpi, 2.0);
    const validation_case *c = v.cases;
    assert_true(c[IDEAL_ICACHE].within);
    assert_false(c[IDEAL_ICACHE].relevant);
    assert_false(c[IDEAL_DCACHE].within);
    assert_close(c[IDEAL_DCACHE].lo, 0.1);
    assert_close(c[IDEAL_DCACHE].hi, 0.6);
    assert_close(c[IDEAL_DCACHE].error, 0.3);
    assert_true(c[IDEAL_DCACHE].relevant);
    assert_true(c[IDEAL_BPRED].within);
    assert_close(c[IDEAL_BPRED].error, 0);
    assert_close(c[IDEAL_BPRED].predicted[STACK_DISPATCH], 0.8);
    assert_false(c[IDEAL_ALU].within);
    assert_close(c[IDEAL_ALU].error, 0.03);
    assert_false(c[IDEAL_ALU].relevant);
    assert_close(c[IDEAL_DCACHE_ALU].predicted[STACK_COMMIT], 0.65);
    assert_close(c[IDEAL_DCACHE_ALU].sum_of_singles, 0.92);
    assert_int_equal(c[IDEAL_DCACHE_ALU].interaction, 1);
    assert_close(c[IDEAL_BPRED_DCACHE].sum_of_singles, 1.5);
    assert_int_equal(c[IDEAL_BPRED_DCACHE].interaction, -1);
    for (int k = 0; k < IDEAL_COUNT; k++) assert_int_equal(c[k].kind, k);
}

static void test_ideal_config(void **state) {
    (void)state;
    uarch_config cfg;
    uarch_config_default(&cfg);
    validation_ideal_config(&cfg, IDEAL_BPRED_DCACHE);
    assert_true(cfg.perfect_bpred && cfg.perfect_dcache);
    assert_false(cfg.perfect_icache || cfg.ideal_alu);
    uarch_config_default(&cfg);
    validation_ideal_config(&cfg, IDEAL_DCACHE_ALU);
    assert_true(cfg.ideal_alu && cfg.perfect_dcache);
    assert_false(cfg.perfect_icache || cfg.perfect_bpred);
}

/* ---- the parallel driver on a synthetic stream ---- */

/* A loop of 20 dependent multiplies, a load that misses (a new line each
 * time, 64 KiB apart), and a branch taken 1 time in 3 (bimodal-unfriendly). */
typedef struct synth {
    uop_source base;
    uint64_t i, n;
    bool fail;
} synth;

static long synth_read(uop_source *src, uop *buf, size_t max, cs_error *err) {
    synth *s = (synth *)src;
    size_t k = 0;
    for (; k < max && s->i < s->n; k++, s->i++) {
        uint64_t j = s->i % 24, iter = s->i / 24;
        uop *u = &buf[k];
        memset(u, 0, sizeof *u);
        u->pc = 0x10000 + 4 * j;
        u->next_pc = u->pc + 4;
        if (j < 20) {
            u->op_class = OPC_INT_MUL;
            u->src[0] = 10;
            u->dst = 10;
        } else if (j == 20) {
            u->op_class = OPC_LOAD;
            u->src[0] = 11;
            u->dst = 12;
            u->flags = UOP_MEM_READ;
            u->mem_addr = 0x1000000 + iter * 65536;
            u->mem_size = 8;
        } else if (j < 23) {
            u->op_class = OPC_INT_ALU;
            u->src[0] = 12;
            u->dst = 13;
        } else {
            u->op_class = OPC_BRANCH;
            u->src[0] = 13;
            bool taken = (iter * 2654435761u) % 3 == 0;
            u->flags = taken ? UOP_TAKEN : 0;
            u->next_pc = taken ? 0x10000 : u->pc + 4;
        }
    }
    if (s->fail && s->i >= s->n) {
        cs_error_set(err, "synthetic failure");
        return -1;
    }
    return (long)k;
}
static long long synth_skip(uop_source *src, uint64_t n, cs_error *err) {
    (void)err;
    synth *s = (synth *)src;
    s->i += n;
    return (long long)n;
}
static void synth_destroy(uop_source *src) { free(src); }
static const uop_source_ops synth_ops = {"synthetic", synth_read, synth_skip, synth_destroy};

static bool synth_should_fail;
static uop_source *synth_open(void *ctx, cs_error *err) {
    (void)err;
    synth *s = calloc(1, sizeof *s);
    s->base.ops = &synth_ops;
    s->n = *(uint64_t *)ctx;
    s->fail = synth_should_fail;
    return &s->base;
}
static bool synth_close(void *ctx, uop_source *src, cs_error *err) {
    (void)ctx;
    (void)err;
    uop_source_destroy(src);
    return true;
}

static void test_validate_driver(void **state) {
    (void)state;
    uint64_t n = 24 * 2000;
    validation_options vo;
    memset(&vo, 0, sizeof vo);
    uarch_config_default(&vo.cfg);
    vo.jobs = 3;
    vo.source = (run_source){&n, synth_open, synth_close, NULL};
    validation_result v;
    memset(&v, 0, sizeof v);
    strcpy(v.program, "synthetic");
    core_stats st;
    stacks_result ideal[IDEAL_COUNT];
    cs_error err;
    synth_should_fail = false;
    if (!validation_run(&vo, &v, &st, ideal, &err)) fail_msg("%s", err.msg);
    assert_string_equal(v.program, "synthetic");
    assert_string_equal(v.config, vo.cfg.name);
    assert_int_equal(st.instructions, n);
    assert_int_equal(v.base.instructions, n);
    assert_close(v.base_cpi, (double)st.cycles / (double)n);
    /* the same stream timed in this process gives the same baseline */
    uint64_t n2 = n;
    uop_source *src = synth_open(&n2, &err);
    analysis_list stacks;
    assert_true(analysis_list_parse(&stacks, "stacks", &err));
    run_spec spec = {&vo.cfg, {0, 0, NULL}, &stacks, "synthetic"};
    run_result here;
    assert_true(runner_run(&spec, src, &here, &err));
    assert_true(here.ok);
    uop_source_destroy(src);
    const stacks_result *hs = stacks_observer_result(run_result_analysis(&here, "stacks"));
    assert_int_equal(hs->cycles, v.base.cycles);
    assert_memory_equal(hs, &v.base, sizeof *hs); /* exactly, through the pool's pipe */
    run_result_free(&here);
    analysis_list_free(&stacks);
    /* multiplies dominate: the 1-cycle ALU machine is faster, and the stacks see it */
    const validation_case *alu = &v.cases[IDEAL_ALU];
    assert_true(alu->reduction > 0.5 * v.base_cpi * 0.5);
    assert_true(alu->relevant);
    assert_true(alu->hi > 0);
    for (int k = 0; k < IDEAL_COUNT; k++) {
        assert_int_equal(ideal[k].instructions, n);
        assert_true(v.cases[k].cpi > 0);
    }
    /* a run that fails reports which machine and why */
    synth_should_fail = true;
    assert_false(validation_run(&vo, &v, &st, NULL, &err));
    assert_non_null(strstr(err.msg, "synthetic failure"));
    assert_non_null(strstr(err.msg, "validation: baseline: "));
    synth_should_fail = false;
}

/* ---- an in-order D-cache miss charged beyond its hit latency ---- */

/* A loop that streams over 32 KiB (twice inorder3's 16 KiB L1D; its misses cost the 4 cycles of
 * its flat memory) a 16-byte line at a time: a load that misses the L1D, a reader of its result right behind
 * it (the load-use wait a hit keeps too), two independent additions and the loop branch. */
static long stream_read(uop_source *src, uop *buf, size_t max, cs_error *err) {
    (void)err;
    synth *s = (synth *)src;
    size_t k = 0;
    for (; k < max && s->i < s->n; k++, s->i++) {
        uint64_t j = s->i % 5, iter = s->i / 5;
        uop *u = &buf[k];
        memset(u, 0, sizeof *u);
        u->pc = 0x20000 + 4 * j;
        u->next_pc = u->pc + 4;
        u->op_class = OPC_INT_ALU;
        if (j == 0) {
            u->op_class = OPC_LOAD;
            u->src[0] = 11;
            u->dst = 12;
            u->flags = UOP_MEM_READ;
            u->mem_addr = 0x1000000 + (iter % 2048) * 16;
            u->mem_size = 8;
        } else if (j == 1) {
            u->src[0] = 12;
            u->dst = 13;
        } else if (j < 4) {
            u->src[0] = 14;
            u->dst = (uint8_t)(14 + j);
        } else {
            u->op_class = OPC_BRANCH;
            u->src[0] = 15;
            u->flags = UOP_TAKEN;
            u->next_pc = 0x20000;
        }
    }
    return (long)k;
}
static const uop_source_ops stream_ops = {"stream", stream_read, synth_skip, synth_destroy};
static uop_source *stream_open(void *ctx, cs_error *err) {
    (void)err;
    synth *s = calloc(1, sizeof *s);
    s->base.ops = &stream_ops;
    s->n = *(uint64_t *)ctx;
    return &s->base;
}

/* What the perfect D-cache machine removes is each miss's latency beyond a hit; the stacks'
 * D-cache component (docs/stacks.md) held the hit's load-use cycle too, above the range on
 * this stream before the in-order D-cache cap (1 cycle a miss, as on busybox gzip, docs/validation.md). */
static void test_inorder_dcache_beyond_hit(void **state) {
    (void)state;
    uint64_t n = 5 * 2048 * 6; /* six passes over the array, the first a warm-up */
    validation_options vo;
    memset(&vo, 0, sizeof vo);
    cs_error err;
    if (!uarch_config_load(&vo.cfg, "inorder3", &err)) fail_msg("%s", err.msg);
    vo.run.warmup = 5 * 2048;
    vo.jobs = 2;
    vo.source = (run_source){&n, stream_open, synth_close, NULL};
    validation_result v;
    memset(&v, 0, sizeof v);
    strcpy(v.program, "stream");
    core_stats st;
    if (!validation_run(&vo, &v, &st, NULL, &err)) fail_msg("%s", err.msg);
    const validation_case *d = &v.cases[IDEAL_DCACHE];
    assert_true(d->relevant);
    assert_true(d->reduction > 0);
    for (int s = 0; s < STACK_STAGES; s++) { /* every stack sums to the cycles */
        double sum = 0;
        for (int c = 0; c < COMP_COUNT; c++) sum += v.base.stage[s].cycles[c];
        assert_true(fabs(sum - (double)v.base.cycles) < 1e-6 * (double)v.base.cycles);
    }
    /* 4 cycles a miss in 5 µops: the perfect D-cache removes 0.8 CPI; before the cap the
     * stacks gave 0.9 (commit) .. 1.0, a cycle a miss too many. Within the range up to the
     * last miss's cycles cut by the end of the run (1e-5 CPI). */
    assert_true(fabs(d->reduction - 0.8) < 1e-9);
    if (d->error > 1e-3)
        fail_msg("perfect D-cache removes %.4f CPI, the stacks give %.4f .. %.4f", d->reduction, d->lo, d->hi);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_base_and_frontend),
        cmocka_unit_test(test_classification),
        cmocka_unit_test(test_carry_over),
        cmocka_unit_test(test_long_latency_beyond_one_cycle),
        cmocka_unit_test(test_flops),
        cmocka_unit_test(test_flops_outside_units),
        cmocka_unit_test(test_random_views_sum),
        cmocka_unit_test(test_evaluate),
        cmocka_unit_test(test_ideal_config),
        cmocka_unit_test(test_validate_driver),
        cmocka_unit_test(test_inorder_dcache_beyond_hit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
