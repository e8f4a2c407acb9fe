/* The probe contract v2 on both timing models, against what the streams make
 * certain: idle-cycle skipping changes nothing an observer can see (every
 * kind of record, hashed, with and without observers, skip on and off); the
 * producers of known dependences; the memory producer of a forwarded load;
 * miss events on loads that must miss; mispredict, resolve, flush and
 * redirect events against the records' own timestamps; wait-state
 * transitions consistent with the stage timestamps; samples at exactly the
 * cycles the sampler asked for; intervals that add up to the run; structure
 * full/empty transitions; what probe_set_add refuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "array_source.h"
#include "uarch/uarch.h"

enum { LOOP = 256 };

/* ---- an observer that keeps everything ---- */

typedef struct collector {
    probe_run_info info;
    uop_record *recs;
    size_t n_recs, cap_recs;
    probe_event *events;
    size_t n_events, cap_events;
    wait_transition *waits;
    size_t n_waits, cap_waits;
    sample_view *samples;
    size_t n_samples, cap_samples;
    core_stats *intervals;
    size_t n_intervals, cap_intervals;
    uint64_t span_next[STAGE_COUNT + 1]; /* each stage's spans (and the FP view's) must tile the run */
    bool gap;
    uint64_t h_spans[STAGE_COUNT + 1];
    uint64_t periods[2];      /* the sampler alternates between these */
    stage_span *commit_spans; /* kept when keep_commit is set */
    size_t n_commit, cap_commit;
    bool keep_commit;
    core_stats end;
    bool ended;
} collector;

#define GROW(arr, n, cap)                                      \
    do {                                                       \
        if ((n) == (cap)) {                                    \
            (cap) = (cap) ? 2 * (cap) : 256;                   \
            (arr) = realloc((arr), (cap) * sizeof *(arr));     \
            if (!(arr)) fail_msg("out of memory in the test"); \
        }                                                      \
    } while (0)

static inline void mix(uint64_t *h, uint64_t x) { *h = (*h ^ x) * 0x100000001b3ull; }

static void c_begin(void *ctx, const probe_run_info *info) { ((collector *)ctx)->info = *info; }

static void c_stages(void *ctx, const stage_span *s, size_t n) {
    collector *c = ctx;
    for (size_t i = 0; i < n; i++) {
        int st = s[i].stage;
        if (s[i].cycle != c->span_next[st] || !s[i].cycles) c->gap = true;
        c->span_next[st] = s[i].cycle + s[i].cycles;
        uint64_t w[4];
        memcpy(w, &s[i].v, sizeof w);
        mix(&c->h_spans[st], s[i].cycle), mix(&c->h_spans[st], s[i].cycles);
        for (int k = 0; k < 4; k++) mix(&c->h_spans[st], w[k]);
        if (c->keep_commit && st == STAGE_COMMIT) {
            GROW(c->commit_spans, c->n_commit, c->cap_commit);
            c->commit_spans[c->n_commit++] = s[i];
        }
    }
}

static void c_fp(void *ctx, const fp_span *s, size_t n) {
    collector *c = ctx;
    for (size_t i = 0; i < n; i++) {
        if (s[i].cycle != c->span_next[STAGE_COUNT] || !s[i].cycles) c->gap = true;
        c->span_next[STAGE_COUNT] = s[i].cycle + s[i].cycles;
        uint64_t w[4];
        memcpy(w, &s[i].v, sizeof w);
        mix(&c->h_spans[STAGE_COUNT], s[i].cycle), mix(&c->h_spans[STAGE_COUNT], s[i].cycles);
        for (int k = 0; k < 4; k++) mix(&c->h_spans[STAGE_COUNT], w[k]);
    }
}

static void c_retire(void *ctx, const uop_record *r, size_t n) {
    collector *c = ctx;
    for (size_t i = 0; i < n; i++) {
        GROW(c->recs, c->n_recs, c->cap_recs);
        c->recs[c->n_recs++] = r[i];
    }
}

static void c_events(void *ctx, const probe_event *e, size_t n) {
    collector *c = ctx;
    for (size_t i = 0; i < n; i++) {
        GROW(c->events, c->n_events, c->cap_events);
        c->events[c->n_events++] = e[i];
    }
}

static void c_waits(void *ctx, const wait_transition *w, size_t n) {
    collector *c = ctx;
    for (size_t i = 0; i < n; i++) {
        GROW(c->waits, c->n_waits, c->cap_waits);
        c->waits[c->n_waits++] = w[i];
    }
}

static uint64_t c_sample(void *ctx, const sample_view *s) {
    collector *c = ctx;
    GROW(c->samples, c->n_samples, c->cap_samples);
    c->samples[c->n_samples++] = *s;
    return c->periods[c->n_samples % 2];
}

static void c_interval(void *ctx, const core_stats *s) {
    collector *c = ctx;
    GROW(c->intervals, c->n_intervals, c->cap_intervals);
    c->intervals[c->n_intervals++] = *s;
}

static void c_end(void *ctx, const core_stats *s) {
    collector *c = ctx;
    c->end = *s;
    c->ended = true;
}

static void c_free(collector *c) {
    free(c->recs);
    free(c->events);
    free(c->waits);
    free(c->samples);
    free(c->intervals);
    free(c->commit_spans);
    memset(c, 0, sizeof *c);
}

enum {
    ALL = PROBE_STAGES | PROBE_FETCH | PROBE_FP | PROBE_RETIRE | PROBE_PRODUCERS | PROBE_EVENTS | PROBE_WAITS |
        PROBE_SAMPLES | PROBE_INTERVALS
};

static probe_observer everything(collector *c) {
    if (!c->periods[0]) c->periods[0] = 37, c->periods[1] = 101;
    return (probe_observer){.ctx = c,
                            .needs = ALL,
                            .begin = c_begin,
                            .stages = c_stages,
                            .fp = c_fp,
                            .retire = c_retire,
                            .events = c_events,
                            .waits = c_waits,
                            .sample_period = 50,
                            .sample = c_sample,
                            .interval_insns = 1000,
                            .interval = c_interval,
                            .end = c_end};
}

/* Time `n` µops on cfg with the `nobs` observers given. */
static core_stats run_observed(const uarch_config *cfg, const uop *u, size_t n, const probe_observer *obs,
                               size_t nobs) {
    cs_error err;
    core_t *core = core_create(cfg, &err);
    if (!core) fail_msg("core_create: %s", err.msg);
    for (size_t i = 0; i < nobs; i++)
        if (!core_observe(core, &obs[i], &err)) fail_msg("core_observe: %s", err.msg);
    array_source src = array_source_borrow(u, n);
    core_stats st;
    core_run_options opt = {0, 0, NULL};
    if (!core_run(core, &src.base, &opt, &st, &err)) fail_msg("core_run: %s", err.msg);
    core_destroy(core);
    st.seconds = 0;
    return st;
}

/* Time `n` µops on cfg, with the observer of everything if given (NULL: none). */
static core_stats run(const uarch_config *cfg, const uop *u, size_t n, collector *c) {
    probe_observer o = c ? everything(c) : (probe_observer){0};
    core_stats st = run_observed(cfg, u, n, &o, c ? 1 : 0);
    if (c) {
        assert_true(c->ended);
        assert_false(c->gap);
        for (int s = 0; s <= STAGE_COUNT; s++) assert_int_equal(c->span_next[s], st.cycles);
        assert_int_equal(c->n_recs, st.uops);
    }
    return st;
}

static uint64_t hash_all(const collector *c) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (int s = 0; s <= STAGE_COUNT; s++) mix(&h, c->h_spans[s]);
    const struct {
        const void *p;
        size_t n;
    } parts[] = {{c->recs, c->n_recs * sizeof *c->recs},
                 {c->events, c->n_events * sizeof *c->events},
                 {c->waits, c->n_waits * sizeof *c->waits},
                 {c->samples, c->n_samples * sizeof *c->samples},
                 {c->intervals, c->n_intervals * sizeof *c->intervals}};
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
        const unsigned char *b = parts[k].p;
        for (size_t i = 0; i < parts[k].n; i++) mix(&h, b[i]);
    }
    return h;
}

/* ---- streams ---- */

static uop at(size_t i, op_class cls, uint8_t dst, uint8_t src0, uint8_t src1) {
    return make_uop(i % LOOP, cls, dst, src0, src1);
}

static void load(uop *u, uint64_t addr) {
    u->flags |= UOP_MEM_READ;
    u->mem_size = 8;
    u->mem_addr = addr;
}

static void store(uop *u, uint64_t addr) {
    u->flags |= UOP_MEM_WRITE;
    u->mem_size = 8;
    u->mem_addr = addr;
}

/* A bit of everything: dependent and independent integer work, multiplies,
 * divides, FP, loads that hit and miss, stores and loads of the same words,
 * branches that a predictor gets wrong now and then, code over many lines. */
static uop *mixed_stream(size_t n) {
    uop *u = calloc(n, sizeof *u);
    uint64_t x = 12345;
    for (size_t i = 0; i < n; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        unsigned r = (unsigned)(x >> 33);
        uint8_t d = (uint8_t)(1 + r % 20), s0 = (uint8_t)(1 + (r >> 5) % 20), s1 = (uint8_t)(1 + (r >> 10) % 20);
        switch (r % 13) {
        case 0:
        case 1: u[i] = at(i, OPC_LOAD, d, s0, 0), load(&u[i], 0x100000 + 64 * (uint64_t)(r % 64)); break;
        case 2: u[i] = at(i, OPC_LOAD, d, s0, 0), load(&u[i], 0x40000000 + 4096 * (uint64_t)(r % 5000)); break;
        case 3: u[i] = at(i, OPC_STORE, 0, s0, s1), store(&u[i], 0x100000 + 64 * (uint64_t)(r % 64)); break;
        case 4: u[i] = at(i, OPC_INT_MUL, d, s0, s1); break;
        case 5: u[i] = at(i, r % 7 ? OPC_FP_ADD : OPC_FP_DIV, (uint8_t)(32 + d), (uint8_t)(32 + s0), 0); break;
        case 6:
            u[i] = at(i, OPC_FP_FMA, (uint8_t)(32 + d), (uint8_t)(32 + s0), (uint8_t)(32 + s1)), u[i].fp_ops = 2;
            break;
        case 7:
            u[i] = at(i, OPC_BRANCH, 0, s0, 0);
            if (r % 3 == 0) u[i].flags |= UOP_TAKEN; /* next_pc stays sequential: only the outcome varies */
            break;
        case 8: u[i] = at(i, OPC_INT_DIV, d, s0, s1); break;
        default: u[i] = at(i, OPC_INT_ALU, d, s0, s1); break;
        }
        u[i].pc = 0x10000 + 4 * (uint64_t)(i % 4096); /* 16 KiB of code: I-cache misses at the start */
    }
    return u;
}

static void configs(uarch_config *c, int k) {
    cs_error err;
    uarch_config_default(c);
    static const char *const names[] = {"ooo4", "knl", "bdw", "inorder3", "inorder1"};
    if (!uarch_config_load(c, names[k % 5], &err)) fail_msg("%s", err.msg);
    if (k == 5) c->mem_order = MEM_ORDER_CONSERVATIVE, c->itlb_entries = 4;
    if (k == 6) c->bpred = BPRED_NONE, c->lsq_size = 16, c->rename_regs = 40;
}

/* ---- skipping is exact: nothing an observer sees depends on it ---- */

static void test_skip_exact_everything(void **state) {
    (void)state;
    enum { N = 12000 };
    uop *u = mixed_stream(N);
    for (int k = 0; k < 7; k++) {
        uarch_config c;
        configs(&c, k);
        core_stats bare[2], seen[2];
        uint64_t h[2];
        for (int skip = 0; skip < 2; skip++) {
            c.skip_idle = skip;
            bare[skip] = run(&c, u, N, NULL);
            collector col = {0};
            seen[skip] = run(&c, u, N, &col);
            h[skip] = hash_all(&col);
            assert_true(col.n_waits > 0 && col.n_samples > 0 && col.n_intervals > 0);
            assert_memory_equal(&bare[skip], &seen[skip], sizeof bare[0]); /* observing changes no timing */
            c_free(&col);
        }
        assert_memory_equal(&bare[0], &bare[1], sizeof bare[0]);
        if (h[0] != h[1]) fail_msg("configuration %d: what the observer saw depends on idle skipping", k);
    }
    free(u);
}

/* ---- producers ---- */

/* µop i reads the register µop i-3 wrote (and, on even i, the one µop i-5
 * wrote); µops 0..4 read registers nobody wrote. */
static void test_register_producers(void **state) {
    (void)state;
    enum { N = 3000 };
    uop *u = calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) {
        uint8_t src0 = i >= 3 ? (uint8_t)(1 + (i - 3) % 8) : 20,
                src1 = i >= 5 && i % 2 == 0 ? (uint8_t)(1 + (i - 5) % 8) : 0;
        u[i] = at(i, i % 4 ? OPC_INT_ALU : OPC_INT_MUL, (uint8_t)(1 + i % 8), src0, src1);
    }
    for (int k = 0; k < 4; k++) {
        uarch_config c;
        configs(&c, k);
        collector col = {0};
        run(&c, u, N, &col);
        for (size_t i = 0; i < N; i++) {
            const uop_record *r = &col.recs[i];
            assert_int_equal(r->seq, i + 1);
            assert_int_equal(r->prod_seq[0], i >= 3 ? i - 3 + 1 : 0);
            assert_int_equal(r->prod_seq[1], u[i].src[1] ? i - 5 + 1 : 0);
            assert_int_equal(r->prod_seq[2], 0);
            /* the record's own times agree: operands ready after the producer completed */
            if (i >= 3) assert_true(r->ready >= col.recs[i - 3].complete);
        }
        c_free(&col);
    }
    free(u);
}

/* A store and a load of the same word: the load forwards from that store
 * (unless the store has left the store queue by the time the load issues). */
static void test_memory_producer(void **state) {
    (void)state;
    enum { GROUPS = 500 };
    uop *u = calloc(3 * GROUPS, sizeof *u);
    for (size_t g = 0; g < GROUPS; g++) {
        size_t i = 3 * g;
        u[i] = at(i, OPC_INT_MUL, 8, 8, 0); /* makes the store's data late */
        u[i + 1] = at(i + 1, OPC_STORE, 0, 7, 8);
        store(&u[i + 1], 0x80000 + 64 * (uint64_t)g);
        u[i + 2] = at(i + 2, OPC_LOAD, 9, 7, 0);
        load(&u[i + 2], 0x80000 + 64 * (uint64_t)g);
    }
    for (int conservative = 0; conservative < 2; conservative++) {
        uarch_config c;
        configs(&c, 0);
        c.mem_order = conservative ? MEM_ORDER_CONSERVATIVE : MEM_ORDER_PERFECT;
        collector col = {0};
        core_stats st = run(&c, u, 3 * GROUPS, &col);
        assert_true(st.forwarded_loads > GROUPS * 9 / 10);
        size_t forwarded = 0;
        for (size_t g = 0; g < GROUPS; g++) {
            const uop_record *st_rec = &col.recs[3 * g + 1], *ld = &col.recs[3 * g + 2];
            if (!(ld->flags & UREC_FORWARDED)) {
                assert_true(ld->issue >= st_rec->commit); /* the store had gone to the cache */
                continue;
            }
            forwarded++;
            assert_int_equal(ld->mem_prod_seq, st_rec->seq);
            assert_int_equal(ld->mem_wait_seq, st_rec->seq); /* it waited for the store's data */
            assert_true(ld->issue >= st_rec->complete);
            assert_int_equal(ld->addr_ready, ld->ready);
            assert_true(st_rec->addr_ready <= st_rec->ready && st_rec->addr_ready >= st_rec->dispatch);
        }
        assert_int_equal(forwarded, st.forwarded_loads);
        c_free(&col);
    }
    free(u);
}

/* ---- events ---- */

static size_t count_events(const collector *c, uint8_t kind, uint8_t unit) {
    size_t n = 0;
    for (size_t i = 0; i < c->n_events; i++)
        n += c->events[i].kind == kind && (unit == UNIT_NONE || c->events[i].unit == unit);
    return n;
}

/* Independent loads, each to a line of its own far apart: every one misses L1
 * and L2 (served by memory), on both models. */
static void test_miss_events(void **state) {
    (void)state;
    enum { N = 2000 };
    uop *u = calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) {
        u[i] = at(i, OPC_LOAD, (uint8_t)(1 + i % 16), 30, 0);
        load(&u[i], 0x40000000ull + (uint64_t)i * 1048576);
    }
    for (int k = 0; k < 4; k++) {
        uarch_config c;
        configs(&c, k);
        c.perfect_icache = true;
        c.l3.enabled = false;
        collector col = {0};
        core_stats st = run(&c, u, N, &col);
        assert_int_equal(st.l1d.misses, N);
        assert_int_equal(count_events(&col, PEV_MISS, UNIT_L1D), N);
        assert_int_equal(count_events(&col, PEV_MISS, UNIT_L2), c.l2.enabled ? N : 0); /* on the way to memory */
        assert_int_equal(count_events(&col, PEV_MISS, UNIT_L1I), 0);
        size_t seen = 0;
        for (size_t i = 0; i < col.n_events; i++) {
            const probe_event *e = &col.events[i];
            if (e->kind != PEV_MISS || e->unit != UNIT_L1D) continue;
            const uop_record *r = &col.recs[e->seq - 1];
            assert_int_equal(e->level, LEVEL_MEM);
            assert_int_equal(r->dcache_level, LEVEL_MEM);
            assert_int_equal(e->addr, r->u.mem_addr);
            assert_int_equal(e->pc, r->u.pc);
            /* ooo: the fill starts when the load issues and the data arrives when it completes;
             * in-order: the miss is seen in the memory stage and holds it until the fill */
            assert_true(e->cycle >= r->issue && e->end > e->cycle && e->end <= r->complete + 1);
            if (c.model == MODEL_OOO) assert_true(e->cycle == r->issue && e->end == r->complete);
            seen++;
        }
        assert_int_equal(seen, N);
        c_free(&col);
    }
    free(u);
}

/* Taken branches with no predictor: each is a mispredict that resolves,
 * flushes and redirects, in that order, at the times its record gives. */
static void test_mispredict_events(void **state) {
    (void)state;
    enum { N = 3000 };
    uop *u = calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) {
        u[i] = at(i, i % 10 == 9 ? OPC_BRANCH : OPC_INT_ALU, (uint8_t)(1 + i % 5), (uint8_t)(1 + (i + 2) % 5), 0);
        if (i % 10 == 9) u[i].flags = UOP_TAKEN;
    }
    for (int k = 0; k < 4; k++) {
        uarch_config c;
        configs(&c, k);
        c.bpred = BPRED_NONE;
        c.perfect_icache = true;
        collector col = {0};
        core_stats st = run(&c, u, N, &col);
        assert_int_equal(st.mispredicts, N / 10);
        assert_int_equal(count_events(&col, PEV_MISPREDICT, UNIT_NONE), N / 10);
        assert_int_equal(count_events(&col, PEV_RESOLVE, UNIT_NONE), N / 10);
        assert_int_equal(count_events(&col, PEV_FLUSH, UNIT_NONE), N / 10);
        assert_int_equal(count_events(&col, PEV_REDIRECT, UNIT_NONE), N / 10);
        uint64_t last_seq = 0;
        int phase = 0; /* per branch: mispredict, resolve, flush, redirect */
        for (size_t i = 0; i < col.n_events; i++) {
            const probe_event *e = &col.events[i];
            if (e->kind == PEV_MISS || e->kind == PEV_STRUCT) continue;
            const uop_record *r = &col.recs[e->seq - 1];
            assert_int_equal(r->mispredict, MISP_COND);
            static const uint8_t order[4] = {PEV_MISPREDICT, PEV_RESOLVE, PEV_FLUSH, PEV_REDIRECT};
            assert_int_equal(e->kind, order[phase]);
            if (phase == 0) {
                assert_true(e->seq > last_seq);
                last_seq = e->seq;
                assert_int_equal(e->cycle, r->fetch);
                assert_int_equal(e->detail, MISP_COND);
            } else {
                assert_int_equal(e->seq, last_seq);
            }
            uint64_t resolved = c.model == MODEL_OOO ? r->complete : r->issue;
            if (phase == 1 || phase == 2) assert_int_equal(e->cycle, resolved);
            if (phase == 3) {
                uint64_t penalty = c.model == MODEL_OOO ? c.redirect_penalty : c.inorder.resolve_delay;
                assert_int_equal(e->cycle, resolved + penalty);
            }
            phase = (phase + 1) % 4;
        }
        for (size_t i = 0; i < N; i++) assert_int_equal(col.recs[i].mispredict, i % 10 == 9 ? MISP_COND : MISP_NONE);
        c_free(&col);
    }
    free(u);
}

/* A chain of loads that miss fills the ROB behind it: ROB full, and empty at the end. */
static void test_structure_events(void **state) {
    (void)state;
    enum { N = 2000 };
    uop *u = calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) {
        if (i % 50 == 0) u[i] = at(i, OPC_LOAD, 5, 5, 0), load(&u[i], 0x40000000ull + (uint64_t)i * 1048576);
        else u[i] = at(i, OPC_INT_ALU, (uint8_t)(6 + i % 8), 0, 0); /* done at once, commit waits */
    }
    uarch_config c;
    configs(&c, 0);
    c.perfect_icache = true;
    collector col = {0};
    run(&c, u, N, &col);
    size_t full = 0, empty = 0;
    uint8_t state_now = 0;
    for (size_t i = 0; i < col.n_events; i++) {
        const probe_event *e = &col.events[i];
        if (e->kind != PEV_STRUCT || e->unit != UNIT_ROB) continue;
        assert_true(e->detail != state_now); /* a transition */
        state_now = e->detail;
        if (e->detail & STRUCT_FULL) full++, assert_int_equal(e->count, c.rob_size);
        if (e->detail & STRUCT_EMPTY) empty++, assert_int_equal(e->count, 0);
    }
    assert_true(full > 0);
    assert_true(empty >= 2); /* empty at the start and again at the end */
    assert_int_equal(state_now, STRUCT_EMPTY);
    c_free(&col);
    free(u);
}

/* ---- the memory system's events (contract 3) ---- */

/* The PEV_STRUCT transitions of `unit` equal the full / empty / neither
 * states of an occupancy given per cycle (occ[t]: at the end of cycle t). */
static void check_struct_transitions(const collector *c, uint8_t unit, const int64_t *occ, uint64_t cycles,
                                     uint32_t cap) {
    uint8_t state = 0;
    size_t next = 0;
    for (uint64_t t = 0; t < cycles; t++) {
        uint8_t want = (uint8_t)((cap && occ[t] >= cap ? STRUCT_FULL : 0) | (occ[t] == 0 ? STRUCT_EMPTY : 0));
        if (cap) assert_true(occ[t] <= cap);
        if (want == state) continue;
        state = want;
        while (next < c->n_events && (c->events[next].kind != PEV_STRUCT || c->events[next].unit != unit)) next++;
        if (next == c->n_events)
            fail_msg("unit %s: no transition at cycle %llu", probe_unit_name(unit), (unsigned long long)t);
        const probe_event *e = &c->events[next++];
        if (e->cycle != t || e->detail != want || e->count != occ[t])
            fail_msg("unit %s: transition at %llu to %u (%llu in use), expected at %llu to %u (%lld)",
                     probe_unit_name(unit), (unsigned long long)e->cycle, e->detail, (unsigned long long)e->count,
                     (unsigned long long)t, want, (long long)occ[t]);
    }
    while (next < c->n_events && (c->events[next].kind != PEV_STRUCT || c->events[next].unit != unit)) next++;
    assert_int_equal(next, c->n_events); /* no transition beyond */
}

/* Fills and prefetches against the memory system's own counters, exactly;
 * the miss registers' full / empty transitions (the L1s', the L2's and the
 * L3's) against the occupancy the fill events give, cycle by cycle; TLB misses
 * (and the level that served them) against the TLB counters and the records;
 * the store buffer full whenever commit waits for it. ooo4 with 2 miss
 * registers, 2 in the L2, a 2-entry store buffer, small TLBs and every
 * prefetcher; bdw with 3 L3 miss registers; knl as shipped; inorder3 with
 * prefetchers and the same small TLBs. */
static void test_memory_system_events(void **state) {
    (void)state;
    enum { N = 6000 };
    uop *u = mixed_stream(N);
    for (int k = 0; k < 4; k++) {
        uarch_config c;
        configs(&c, k == 0 ? 0 : k == 1 ? 2 : k == 2 ? 1 : 3);
        if (k == 0) c.l1d.mshrs = 2, c.l1i.mshrs = 1, c.store_buffer = 2;
        if (k == 0 || k == 3) {
            c.itlb_entries = 4, c.itlb_miss_latency = 20;
            c.dtlb_entries = 8, c.dtlb_miss_latency = 30, c.l2tlb_entries = 64, c.l2tlb_latency = 7;
        }
        if (k == 0 || k == 3) {
            c.prefetch_icache_next_line = c.prefetch_dcache_next_line = true;
            c.prefetch_dcache_stride = 16;
        }
        if (k == 0) c.l2.mshrs = 2; /* so that they fill up (contract 4) */
        if (k == 1) c.l3.mshrs = 3; /* bdw (it has an L3) */
        collector col = {.keep_commit = true};
        core_stats st = run(&c, u, N, &col);
        /* events in the order of their cycles; fills still in flight at the end come last */
        for (size_t i = 1; i < col.n_events; i++)
            assert_true(col.events[i].cycle >= col.events[i - 1].cycle ||
                        (col.events[i].kind == PEV_FILL && col.events[i].cycle >= st.cycles));
        for (int side = 0; side < 2; side++) {
            uint8_t unit = side ? UNIT_L1I : UNIT_L1D;
            const cache_stats *cs = side ? &st.l1i : &st.l1d;
            uint32_t hit = side ? c.l1i.latency : c.l1d.latency, cap = side ? c.l1i.mshrs : c.l1d.mshrs;
            if (c.model == MODEL_INORDER) cap = 0; /* blocking caches, their misses unlimited */
            uint64_t fills = 0, fill_cycles = 0, prefetches = 0, prefetch_fills = 0;
            int64_t *occ = calloc(st.cycles + 1, sizeof *occ);
            for (size_t i = 0; i < col.n_events; i++) {
                const probe_event *e = &col.events[i];
                if (e->unit != unit) continue;
                if (e->kind == PEV_PREFETCH) prefetches++;
                if (e->kind != PEV_FILL) continue;
                assert_true(e->count >= hit && e->level >= LEVEL_L2);
                if (e->detail) prefetch_fills++;
                else fills++, fill_cycles += e->count - hit;
                uint64_t from = e->cycle - e->count, to = e->cycle < st.cycles ? e->cycle : st.cycles;
                for (uint64_t t = from; t < to; t++) occ[t]++;
            }
            assert_int_equal(fills, cs->fills);
            assert_int_equal(fill_cycles, cs->fill_cycles);
            assert_int_equal(prefetches, cs->prefetches);
            assert_true(prefetch_fills <= prefetches);
            if (k == 0 && !side) assert_true(prefetches > 0 && prefetch_fills > 0);
            check_struct_transitions(&col, side ? UNIT_MSHR_L1I : UNIT_MSHR_L1D, occ, st.cycles, cap);
            if (k == 0 && !side) assert_true(count_events(&col, PEV_STRUCT, UNIT_MSHR_L1D) > 2); /* it filled up */
            free(occ);
        }
        /* the L2's and the L3's miss registers (contract 4): held by the L1 fills, demand and
         * prefetch, of both L1s, that miss that level too, cycle by cycle; none when unlimited */
        for (int lower = 0; lower < 2; lower++) {
            const cache_config *lc = lower ? &c.l3 : &c.l2;
            uint8_t unit = lower ? UNIT_MSHR_L3 : UNIT_MSHR_L2;
            if (!lc->enabled || !lc->mshrs) {
                assert_false((k == 0 && !lower) || (k == 1 && lower)); /* those are checked below */
                assert_int_equal(count_events(&col, PEV_STRUCT, unit), 0);
                continue;
            }
            int64_t *occ = calloc(st.cycles + 1, sizeof *occ);
            for (size_t i = 0; i < col.n_events; i++) {
                const probe_event *e = &col.events[i];
                if (e->kind != PEV_FILL || e->level < (lower ? LEVEL_MEM : LEVEL_L3)) continue;
                uint64_t from = e->cycle - e->count, to = e->cycle < st.cycles ? e->cycle : st.cycles;
                for (uint64_t t = from; t < to; t++) occ[t]++;
            }
            check_struct_transitions(&col, unit, occ, st.cycles, lc->mshrs);
            size_t full = 0;
            for (size_t i = 0; i < col.n_events; i++)
                full += col.events[i].kind == PEV_STRUCT && col.events[i].unit == unit &&
                    col.events[i].detail == STRUCT_FULL;
            if ((k == 0 && !lower) || (k == 1 && lower)) assert_true(full > 0); /* the small ones fill up */
            free(occ);
        }
        /* TLBs: one miss event per first-level miss, the level that served it, L2 TLB misses */
        assert_int_equal(count_events(&col, PEV_MISS, UNIT_ITLB), st.itlb.misses);
        assert_int_equal(count_events(&col, PEV_MISS, UNIT_DTLB), st.dtlb.misses);
        assert_int_equal(count_events(&col, PEV_MISS, UNIT_L2TLB), st.l2tlb.misses);
        size_t by_l2 = 0, dtlb_flagged = 0;
        for (size_t i = 0; i < col.n_events; i++) {
            const probe_event *e = &col.events[i];
            if (e->kind != PEV_MISS || (e->unit != UNIT_ITLB && e->unit != UNIT_DTLB)) continue;
            assert_true(e->level == (c.l2tlb_entries ? LEVEL_L2 : LEVEL_MEM) || e->level == LEVEL_MEM);
            by_l2 += e->level == LEVEL_L2;
            if (e->unit != UNIT_DTLB) continue;
            const uop_record *r = &col.recs[e->seq - 1];
            assert_true(r->flags & UREC_DTLB_MISS);
            uint64_t extra = e->level == LEVEL_L2 ? c.l2tlb_latency
                : c.l2tlb_entries                 ? c.l2tlb_latency + c.dtlb_miss_latency
                                                  : c.dtlb_miss_latency;
            assert_int_equal(r->dtlb_done - r->addr_ready, extra);
        }
        for (size_t i = 0; i < col.n_recs; i++) dtlb_flagged += (col.recs[i].flags & UREC_DTLB_MISS) != 0;
        assert_int_equal(dtlb_flagged, st.dtlb.misses);
        assert_int_equal(by_l2, st.l2tlb.accesses - st.l2tlb.misses);
        assert_true(st.dtlb.misses > 0);
        /* the store buffer: commit waits for it only while it is full */
        if (c.store_buffer && c.model == MODEL_OOO) {
            uint64_t waited = 0;
            size_t e = 0;
            uint8_t sb = 0;
            for (size_t i = 0; i < col.n_commit; i++) {
                const stage_span *sp = &col.commit_spans[i];
                if (sp->v.stall != STALL_SB_FULL) continue;
                waited += sp->cycles;
                for (; e < col.n_events && col.events[e].cycle <= sp->cycle; e++)
                    if (col.events[e].kind == PEV_STRUCT && col.events[e].unit == UNIT_STORE_BUFFER)
                        sb = col.events[e].detail;
                assert_int_equal(sb, STRUCT_FULL);
            }
            assert_int_equal(waited, st.sb_full_cycles);
            if (k == 0) assert_true(waited > 0);
        }
        c_free(&col);
    }
    free(u);
}

/* PEV_STORE_WRITE (contract 6), a known stream: stores to a new line each (misses to memory)
 * among independent work, then stores to one line (hits). One event per store through the
 * buffer, in program order, one write a cycle, its line asked for after the store's commit
 * (ooo; in-order after its issue); ooo: the level the record gives it, a miss that joined no
 * fill waiting at least the L2's and memory's latencies; the run ends with the last write. None
 * without a store buffer. */
static void test_store_write_events(void **state) {
    (void)state;
    enum { N = 600, STORES = N / 2 };
    uop *u = calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) {
        if (i % 2) {
            u[i] = at(i, OPC_INT_ALU, (uint8_t)(1 + i % 16), 20, 0);
            continue;
        }
        u[i] = at(i, OPC_STORE, 0, 20, 21);
        store(&u[i], i < N / 2 ? 0x40000000ull + (uint64_t)i * 4096 : 0x100000);
    }
    for (int k = 0; k < 4; k++) {
        uarch_config c;
        configs(&c, k == 0 ? 1 : k == 1 ? 2 : k == 2 ? 3 : 0); /* knl, bdw, inorder3, ooo4 */
        if (k == 2) c.store_buffer = 4;
        c.perfect_icache = true;
        collector col = {0};
        core_stats st = run(&c, u, N, &col);
        size_t writes = 0, misses = 0;
        uint64_t last_seq = 0, last_cycle = 0;
        for (size_t i = 0; i < col.n_events; i++) {
            const probe_event *e = &col.events[i];
            if (e->kind != PEV_STORE_WRITE) continue;
            const uop_record *r = &col.recs[e->seq - 1];
            assert_true(r->u.flags & UOP_MEM_WRITE);
            assert_int_equal(e->unit, UNIT_STORE_BUFFER);
            assert_int_equal(e->addr, r->u.mem_addr);
            assert_int_equal(e->pc, r->u.pc);
            assert_true(e->seq > last_seq && (!writes || e->cycle > last_cycle)); /* in order, one a cycle */
            last_seq = e->seq, last_cycle = e->cycle;
            uint64_t request = e->cycle - e->count;
            if (c.model == MODEL_OOO) assert_true(request > r->commit); /* it enters at commit */
            else assert_true(request > r->issue); /* in-order: it enters the buffer in its memory stage */
            assert_true(e->end >= request && e->end <= e->cycle);
            /* the store's level in its record, in-order as out of order (until 2026-11-27 the
             * in-order record said 0, an L1 hit, for a store whose line came from memory) */
            if (!e->detail) assert_int_equal(e->level, r->dcache_level ? r->dcache_level : LEVEL_L1);
            if (e->level == LEVEL_MEM && !e->detail) {
                /* the whole way down: inorder3 has no L2 and a 4-cycle memory (Noonburg §7.4) */
                uint32_t below = (c.l2.enabled ? c.l2.latency : 0) + (c.l3.enabled ? c.l3.latency : 0);
                if (c.model == MODEL_OOO) assert_true(e->end - request >= c.l2.latency + c.mem_latency);
                else assert_int_equal(e->end - request, below + c.mem_latency);
                misses++;
            }
            writes++;
        }
        assert_int_equal(writes, c.store_buffer ? STORES : 0);
        if (c.store_buffer) {
            assert_true(misses > STORES / 4); /* the first half's lines came from memory */
            assert_true(last_cycle < st.cycles && last_cycle + 2 >= st.cycles); /* the run ends with it */
        }
        c_free(&col);
    }
    free(u);
}

/* PEV_STORE_JOIN (contract 7), a known stream: stores walking through memory 8 bytes at a
 * time among independent work, so that most requests join a fill in flight (the line's first
 * store's, or a prefetch's: bdw prefetches the next line). Every write whose request joined a
 * fill (detail 1) comes right after its PEV_STORE_JOIN (same store, same cycle) and no other
 * does; the fill joined started at or before the request and arrives no earlier than the line
 * was there for the store (memsys: the L1D's latency before); a prefetch's (detail 1) is the
 * PEV_FILL of a prefetch of that line with that start and latency; a demand fill's was started
 * by an older store to the line. Nothing changes in the run (the events are only reported). */
static void test_store_join_events(void **state) {
    (void)state;
    enum { N = 4000 };
    uop *u = calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) {
        if (i % 2) {
            u[i] = at(i, OPC_INT_ALU, (uint8_t)(1 + i % 16), 20, 0);
            continue;
        }
        u[i] = at(i, OPC_STORE, 0, 20, 21);
        store(&u[i], 0x40000000ull + (uint64_t)i * 4);
    }
    for (int k = 1; k <= 2; k++) { /* knl, bdw */
        uarch_config c;
        configs(&c, k);
        c.perfect_icache = true;
        collector col = {0};
        run(&c, u, N, &col);
        size_t joins = 0, prefetch_joins = 0, merged = 0;
        for (size_t i = 0; i < col.n_events; i++) {
            const probe_event *e = &col.events[i];
            if (e->kind == PEV_STORE_WRITE && e->detail) {
                merged++;
                assert_true(i > 0 && col.events[i - 1].kind == PEV_STORE_JOIN && col.events[i - 1].seq == e->seq);
            }
            if (e->kind != PEV_STORE_JOIN) continue;
            joins++;
            assert_true(i + 1 < col.n_events);
            const probe_event *w = &col.events[i + 1];
            assert_int_equal(w->kind, PEV_STORE_WRITE);
            assert_int_equal(w->seq, e->seq);
            assert_int_equal(w->cycle, e->cycle);
            assert_int_equal(w->detail, 1);
            assert_int_equal(e->level, w->level);
            uint64_t request = w->cycle - w->count, start = e->end, arrival = e->end + e->count;
            assert_true(start <= request && arrival > request);
            assert_true(arrival >= w->end && arrival <= w->end + c.l1d.latency);
            uint64_t line = e->addr / c.l1d.line * c.l1d.line;
            bool found = false;
            if (e->detail) { /* a prefetch's fill of that line, that start, that latency */
                prefetch_joins++;
                for (size_t f = 0; f < col.n_events && !found; f++) {
                    const probe_event *x = &col.events[f];
                    found = x->kind == PEV_FILL && x->detail && x->unit == UNIT_L1D && x->addr == line &&
                        x->cycle == arrival && x->count == e->count;
                }
            } else { /* an older store to the line asked for it then */
                for (size_t f = 0; f < col.n_events && !found; f++) {
                    const probe_event *x = &col.events[f];
                    found = x->kind == PEV_STORE_WRITE && x->seq < e->seq &&
                        x->addr / c.l1d.line * c.l1d.line == line && x->cycle - x->count == start;
                }
            }
            assert_true(found);
        }
        assert_int_equal(joins, merged);
        assert_true(joins > N / 4);                  /* most of the stores */
        if (k == 2) assert_true(prefetch_joins > 0); /* bdw's next-line prefetches */
        c_free(&col);
    }
    free(u);
}

/* PROBE_FETCH (contract 3): an observer of PROBE_STAGES alone gets dispatch, issue
 * and commit spans and no fetch span; one of PROBE_FETCH alone gets only the fetch
 * spans, tiling the run; both exactly those an observer of everything gets, on
 * both models, with skipping on and off. */
static void test_fetch_on_request(void **state) {
    (void)state;
    enum { N = 3000 };
    uop *u = mixed_stream(N);
    for (int k = 0; k < 5; k += 3) { /* ooo4, inorder3 */
        uarch_config c;
        configs(&c, k);
        for (int skip = 0; skip < 2; skip++) {
            c.skip_idle = skip;
            collector all = {0}, stages = {0}, fetch = {0};
            core_stats st = run(&c, u, N, &all);
            const probe_observer two[2] = {{.ctx = &stages, .needs = PROBE_STAGES, .stages = c_stages},
                                           {.ctx = &fetch, .needs = PROBE_FETCH, .stages = c_stages}};
            core_stats st2 = run_observed(&c, u, N, two, 2);
            assert_int_equal(st2.cycles, st.cycles);
            assert_false(stages.gap || fetch.gap);
            for (int s = 0; s < STAGE_COUNT; s++) {
                const collector *got = s == STAGE_FETCH ? &fetch : &stages, *none = s == STAGE_FETCH ? &stages : &fetch;
                assert_int_equal(got->span_next[s], st.cycles); /* tiles the run */
                assert_true(got->h_spans[s] == all.h_spans[s]);
                assert_int_equal(none->span_next[s], 0); /* never delivered to the other */
                assert_true(none->h_spans[s] == 0);
            }
            c_free(&all);
            c_free(&stages);
            c_free(&fetch);
        }
    }
    free(u);
}

/* stage_mask: an observer asking for some of dispatch, issue and commit gets
 * exactly the spans of those stages an observer of everything gets, and none of
 * the others; Stallscope's dispatch and commit with samples beside them (the
 * issue cause a sample carries, which is not computed for those spans), the
 * samples too. Every
 * configuration of both models, skipping on and off: a cause the core stops
 * computing for a stage nobody asked for must change nothing of the others'. */
static void test_stage_mask(void **state) {
    (void)state;
    enum { N = 3000 };
    uop *u = mixed_stream(N);
    static const uint32_t masks[] = {
        PROBE_STAGE_BIT(STAGE_DISPATCH) | PROBE_STAGE_BIT(STAGE_COMMIT), /* Stallscope's */
        PROBE_STAGE_BIT(STAGE_ISSUE),
        PROBE_STAGE_BIT(STAGE_COMMIT),
    };
    for (int k = 0; k < 7; k++) {
        uarch_config c;
        configs(&c, k);
        for (int skip = 0; skip < 2; skip++) {
            c.skip_idle = skip;
            collector all = {0};
            core_stats st = run(&c, u, N, &all);
            for (size_t m = 0; m < sizeof masks / sizeof masks[0]; m++) {
                for (int with_samples = 0; with_samples < (m == 0 ? 2 : 1); with_samples++) {
                    collector some = {0};
                    some.periods[0] = 37, some.periods[1] = 101; /* as everything()'s sampler */
                    probe_observer o = {.ctx = &some,
                                        .needs = PROBE_STAGES | (with_samples ? PROBE_SAMPLES : 0),
                                        .stage_mask = masks[m],
                                        .stages = c_stages,
                                        .sample_period = 50,
                                        .sample = c_sample};
                    core_stats st2 = run_observed(&c, u, N, &o, 1);
                    assert_int_equal(st2.cycles, st.cycles);
                    assert_false(some.gap);
                    for (int s = 0; s < STAGE_COUNT; s++) {
                        if (masks[m] & PROBE_STAGE_BIT(s)) {
                            assert_int_equal(some.span_next[s], st.cycles); /* tiles the run */
                            if (some.h_spans[s] != all.h_spans[s])
                                fail_msg("configuration %d, skip %d, mask %#x: the %s spans differ", k, skip,
                                         (unsigned)masks[m], probe_stage_name((probe_stage)s));
                        } else {
                            assert_int_equal(some.span_next[s], 0); /* never delivered */
                        }
                    }
                    if (with_samples) {
                        assert_int_equal(some.n_samples, all.n_samples);
                        assert_memory_equal(some.samples, all.samples, all.n_samples * sizeof *all.samples);
                    }
                    c_free(&some);
                }
            }
            c_free(&all);
        }
    }
    free(u);
}

/* ---- wait states ---- */

/* Every µop's transitions start at dispatch, enter execution at issue, end
 * done at completion (when it commits later) and committed at commit; while
 * it waits for operands the cause is one of its producers; a ready state
 * never comes before the record's ready time. */
static void test_wait_states(void **state) {
    (void)state;
    enum { N = 6000 };
    uop *u = mixed_stream(N);
    for (int k = 0; k < 7; k++) {
        uarch_config c;
        configs(&c, k);
        collector col = {0};
        run(&c, u, N, &col);
        /* gather each µop's transitions (they come by cycle, µops interleaved) */
        size_t *first = calloc(N + 1, sizeof *first), *count = calloc(N + 1, sizeof *count);
        wait_transition *by = calloc(col.n_waits, sizeof *by);
        for (size_t i = 0; i < col.n_waits; i++) count[col.waits[i].seq]++;
        for (size_t s = 1, at = 0; s <= N; s++) first[s] = at, at += count[s];
        memset(count, 0, (N + 1) * sizeof *count);
        for (size_t i = 0; i < col.n_waits; i++) by[first[col.waits[i].seq] + count[col.waits[i].seq]++] = col.waits[i];
        for (size_t s = 1; s <= N; s++) {
            const uop_record *r = &col.recs[s - 1];
            const wait_transition *w = &by[first[s]];
            size_t n = count[s];
            if (n < 2) fail_msg("config %d µop %zu: %zu transitions", k, s, n);
            assert_int_equal(w[0].cycle, r->dispatch);
            assert_int_equal(w[n - 1].state, WST_COMMITTED);
            assert_int_equal(w[n - 1].cycle, r->commit);
            bool issued = false;
            for (size_t i = 0; i < n; i++) {
                if (i) assert_true(w[i].cycle > w[i - 1].cycle); /* one state per cycle */
                switch (w[i].state) {
                case WST_EXECUTING:
                case WST_FILL:
                    if (!issued) assert_int_equal(w[i].cycle, r->issue);
                    issued = true;
                    break;
                case WST_DONE: assert_int_equal(w[i].cycle, r->complete); break;
                case WST_COMMITTED: break;
                case WST_TRANSLATING: /* a DTLB miss: after address generation, before completion */
                    assert_true(issued);
                    assert_true(w[i].cycle > r->issue && w[i].cycle < r->complete);
                    break;
                case WST_OPERANDS:
                    assert_false(issued);
                    assert_true(w[i].cycle < r->ready || r->ready == r->dispatch || w[i].cycle < r->issue);
                    /* a producer of a source; in-order also the last writer of the destination (no
                     * renaming: write-after-write waits, Noonburg §3.5) */
                    if (w[i].cause_seq && w[i].cause_seq != r->prod_seq[0] && w[i].cause_seq != r->prod_seq[1] &&
                        w[i].cause_seq != r->prod_seq[2] && (c.model != MODEL_INORDER || w[i].cause_seq >= s))
                        fail_msg("config %d µop %zu waits for µop %llu, not one of its producers", k, s,
                                 (unsigned long long)w[i].cause_seq);
                    /* the named producer is not complete while the state holds: its completion
                     * moves the wait on (to another producer, or ready) by that cycle */
                    if (w[i].cause_seq && w[i].cause_seq <= N && i + 1 < n &&
                        col.recs[w[i].cause_seq - 1].complete < w[i + 1].cycle)
                        fail_msg("config %d µop %zu names µop %llu from %llu to %llu, complete at %llu", k, s,
                                 (unsigned long long)w[i].cause_seq, (unsigned long long)w[i].cycle,
                                 (unsigned long long)w[i + 1].cycle,
                                 (unsigned long long)col.recs[w[i].cause_seq - 1].complete);
                    break;
                case WST_QUEUED:
                    assert_int_equal(c.model, MODEL_INORDER);
                    assert_true(w[i].cause_seq < s);
                    break;
                default: /* ready, no unit, mem-order, no MSHR: operands are there */
                    assert_false(issued);
                    if (w[i].cycle < r->ready)
                        fail_msg("config %d µop %zu (%s): %s at %llu, ready only at %llu", k, s,
                                 isa_class_name((op_class)r->u.op_class), wait_state_name((wait_state)w[i].state),
                                 (unsigned long long)w[i].cycle, (unsigned long long)r->ready);
                    if (w[i].state == WST_MEM_ORDER) assert_true(w[i].cause_seq && w[i].cause_seq < s);
                    break;
                }
            }
            if (!issued) fail_msg("config %d µop %zu never reported executing", k, s);
        }
        free(first);
        free(count);
        free(by);
        c_free(&col);
    }
    free(u);
}

/* A serial chain of multiplies: each waits for the one before it, then executes, then is done. */
static void test_wait_chain(void **state) {
    (void)state;
    enum { N = 500 };
    uop *u = calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) u[i] = at(i, OPC_INT_MUL, 7, i ? 7 : 0, 0);
    for (int k = 0; k < 2; k++) {
        uarch_config c;
        configs(&c, k);
        c.perfect_icache = true;
        collector col = {0};
        run(&c, u, N, &col);
        size_t operands = 0;
        for (size_t i = 0; i < col.n_waits; i++) {
            const wait_transition *w = &col.waits[i];
            if (w->state != WST_OPERANDS) continue;
            assert_int_equal(w->cause_seq, w->seq - 1); /* the previous multiply */
            operands++;
        }
        assert_true(operands >= N / 2);
        c_free(&col);
    }
    free(u);
}

/* ---- samples and intervals ---- */

static void test_samples(void **state) {
    (void)state;
    enum { N = 5000 };
    uop *u = mixed_stream(N);
    for (int k = 0; k < 4; k++) {
        uarch_config c;
        configs(&c, k);
        collector col = {.periods = {7, 1000}};
        core_stats st = run(&c, u, N, &col);
        /* first at the period, then 7 and 1000 cycles apart by turns */
        uint64_t at = 50;
        for (size_t i = 0; i < col.n_samples; i++) {
            assert_int_equal(col.samples[i].cycle, at);
            at += col.periods[(i + 1) % 2];
            const sample_view *s = &col.samples[i];
            if (s->seq) {
                assert_true(s->seq <= N);
                assert_int_equal(s->pc, col.recs[s->seq - 1].u.pc);
                const uop_record *r = &col.recs[s->seq - 1];
                assert_true(r->dispatch <= s->cycle && s->cycle < r->commit); /* in the window then */
                if (s->state == WST_EXECUTING || s->state == WST_FILL)
                    assert_true(r->issue <= s->cycle && s->cycle < r->complete);
            }
        }
        if (at < st.cycles) /* no sample missed before the end */
            fail_msg("config %d: %zu samples, the next due at %llu, the run ended at %llu", k, col.n_samples,
                     (unsigned long long)at, (unsigned long long)st.cycles);
        assert_true(col.n_samples > st.cycles / 1007);
        c_free(&col);
    }
    free(u);
}

/* ---- samples cost nothing between samples, and are the same as with views ---- */

static void noop_stages(void *ctx, const stage_span *s, size_t n);

/* The samples of a run with only the sampler, or with a stage observer beside
 * it (then the core builds every cycle's views, as it did for samplers alone). */
static void sample_run(const uarch_config *cfg, const uop *u, size_t n, bool with_views, collector *c) {
    const probe_observer obs[2] = {{.ctx = c, .needs = PROBE_SAMPLES, .sample_period = 50, .sample = c_sample},
                                   {.needs = PROBE_STAGES, .stages = noop_stages}};
    run_observed(cfg, u, n, obs, with_views ? 2 : 1);
}

/* Loads that miss, each address from the previous load, then a long FP chain:
 * long idle stretches that skipping jumps over. */
static uop *idle_stream(size_t n) {
    uop *u = calloc(n, sizeof *u);
    for (size_t i = 0; i < n; i++) {
        if (i % 64 < 32) u[i] = at(i, OPC_LOAD, 5, 5, 0), load(&u[i], 0x40000000 + 4096 * (uint64_t)(i * 37 % 9000));
        else u[i] = at(i, i % 5 ? OPC_FP_MUL : OPC_FP_DIV, 40, 40, 41);
        u[i].pc = 0x10000 + 4 * (uint64_t)(i % 2048);
    }
    return u;
}

static void test_samples_without_views(void **state) {
    (void)state;
    enum { N = 6000 };
    uop *streams[2] = {mixed_stream(N), idle_stream(N)};
    static const uint64_t periods[][2] = {{1, 2}, {7, 1000}, {61, 97}};
    size_t compared = 0;
    for (int w = 0; w < 2; w++)
        for (int k = 0; k < 7; k++)
            for (int skip = 0; skip < 2; skip++)
                for (size_t p = 0; p < sizeof periods / sizeof periods[0]; p++) {
                    uarch_config c;
                    configs(&c, k);
                    c.skip_idle = skip;
                    collector alone = {.periods = {periods[p][0], periods[p][1]}};
                    collector beside = alone;
                    sample_run(&c, streams[w], N, false, &alone);
                    sample_run(&c, streams[w], N, true, &beside);
                    assert_true(alone.n_samples > 5);
                    assert_int_equal(alone.n_samples, beside.n_samples);
                    for (size_t i = 0; i < alone.n_samples; i++) {
                        const sample_view *a = &alone.samples[i], *b = &beside.samples[i];
                        if (a->cycle != b->cycle || a->seq != b->seq || a->pc != b->pc || a->op_class != b->op_class ||
                            a->state != b->state || a->level != b->level || a->cause_seq != b->cause_seq ||
                            !stage_view_equal(&a->issue, &b->issue))
                            fail_msg("stream %d config %d skip %d periods %zu: sample %zu at cycle %llu differs "
                                     "without views (seq %llu/%llu, stall %d/%d, cause kind %d/%d)",
                                     w, k, skip, p, i, (unsigned long long)a->cycle, (unsigned long long)a->seq,
                                     (unsigned long long)b->seq, a->issue.stall, b->issue.stall, a->issue.cause.kind,
                                     b->issue.cause.kind);
                    }
                    compared += alone.n_samples;
                    c_free(&alone);
                    c_free(&beside);
                }
    assert_true(compared > 10000);
    free(streams[0]);
    free(streams[1]);
}

static void test_intervals(void **state) {
    (void)state;
    enum { N = 10500 };
    uop *u = mixed_stream(N);
    for (int k = 0; k < 4; k++) {
        uarch_config c;
        configs(&c, k);
        collector col = {0};
        core_stats st = run(&c, u, N, &col);
        assert_int_equal(col.n_intervals, N / 1000);
        core_stats prev = {0};
        for (size_t i = 0; i < col.n_intervals; i++) {
            const core_stats *s = &col.intervals[i];
            assert_true(s->instructions >= 1000 * (i + 1));
            assert_true(s->instructions < 1000 * (i + 1) + c.commit_width + 4);
            core_stats d;
            core_stats_sub(&d, s, &prev);
            assert_true(d.cycles > 0 && d.instructions > 0);
            assert_true(d.l1d.accesses <= d.loads + d.stores + 64); /* counted in program order at fetch */
            prev = *s;
        }
        core_stats rest;
        core_stats_sub(&rest, &st, &prev);
        assert_true(rest.instructions < 1000);
        assert_true(prev.cycles <= st.cycles);
        c_free(&col);
    }
    free(u);
}

/* ---- the contract's own checks ---- */

static void noop_stages(void *ctx, const stage_span *s, size_t n) { (void)ctx, (void)s, (void)n; }

static void test_observer_checks(void **state) {
    (void)state;
    probe_set set;
    memset(&set, 0, sizeof set);
    cs_error err;
    probe_observer missing = {.needs = PROBE_STAGES | PROBE_RETIRE, .stages = noop_stages};
    assert_false(probe_set_add(&set, &missing, &err));
    assert_non_null(strstr(err.msg, "retire records"));
    probe_observer no_period = {.needs = PROBE_SAMPLES, .sample = c_sample};
    assert_false(probe_set_add(&set, &no_period, &err));
    probe_observer prod_only = {.needs = PROBE_PRODUCERS};
    assert_false(probe_set_add(&set, &prod_only, &err));
    probe_observer ok = {.needs = PROBE_STAGES, .stages = noop_stages};
    for (int i = 0; i < PROBE_MAX_OBSERVERS; i++) assert_true(probe_set_add(&set, &ok, &err));
    assert_false(probe_set_add(&set, &ok, &err));
    assert_non_null(strstr(err.msg, "too many"));
    assert_int_equal(set.needs, PROBE_STAGES);
    assert_int_equal(set.stage_mask, PROBE_STAGES_ALL); /* no mask: the three stages */
    probe_set_free(&set);
    probe_set one;
    memset(&one, 0, sizeof one);
    probe_observer fetch_by_mask = {
        .needs = PROBE_STAGES, .stage_mask = PROBE_STAGE_BIT(STAGE_FETCH), .stages = noop_stages};
    assert_false(probe_set_add(&one, &fetch_by_mask, &err)); /* fetch spans are PROBE_FETCH */
    assert_non_null(strstr(err.msg, "stage mask"));
    probe_observer issue_only = {
        .needs = PROBE_STAGES, .stage_mask = PROBE_STAGE_BIT(STAGE_ISSUE), .stages = noop_stages};
    assert_true(probe_set_add(&one, &issue_only, &err));
    assert_int_equal(one.stage_mask, PROBE_STAGE_BIT(STAGE_ISSUE));
    probe_set_free(&one);
    assert_string_equal(wait_state_name(WST_MEM_ORDER), "mem-order");
    assert_string_equal(probe_event_name(PEV_FLUSH), "flush");
    assert_string_equal(probe_unit_name(UNIT_MSHR_L1D), "mshr-l1d");
    assert_string_equal(probe_unit_name(UNIT_MSHR_L2), "mshr-l2");
    assert_string_equal(probe_unit_name(UNIT_MSHR_L3), "mshr-l3");
    assert_string_equal(probe_unit_name(UNIT_COUNT), "?");
    assert_int_equal(mispredict_kind_of(OPC_RETURN), MISP_RETURN);
    assert_int_equal(mispredict_kind_of(OPC_JUMP_INDIRECT), MISP_INDIRECT);
}

/* The units a record names exist, and independent adds on two ALUs use both. */
static void test_units(void **state) {
    (void)state;
    enum { N = 2000 };
    uop *u = calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) u[i] = at(i, OPC_INT_ALU, (uint8_t)(1 + i % 30), 0, 0);
    uarch_config c;
    configs(&c, 0);
    c.perfect_icache = true;
    c.pool[0].count = 2; /* "alu" */
    collector col = {0};
    run(&c, u, N, &col);
    size_t used[2] = {0, 0};
    for (size_t i = 0; i < N; i++) {
        assert_int_equal(col.recs[i].pool, 0);
        assert_true(col.recs[i].unit < 2);
        used[col.recs[i].unit]++;
    }
    assert_true(used[0] > N / 4 && used[1] > N / 4);
    assert_ptr_equal(col.info.cfg != NULL, true);
    assert_string_equal(col.info.model, "ooo");
    c_free(&col);
    free(u);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_skip_exact_everything),
        cmocka_unit_test(test_register_producers),
        cmocka_unit_test(test_memory_producer),
        cmocka_unit_test(test_miss_events),
        cmocka_unit_test(test_mispredict_events),
        cmocka_unit_test(test_structure_events),
        cmocka_unit_test(test_memory_system_events),
        cmocka_unit_test(test_store_write_events),
        cmocka_unit_test(test_store_join_events),
        cmocka_unit_test(test_fetch_on_request),
        cmocka_unit_test(test_stage_mask),
        cmocka_unit_test(test_wait_states),
        cmocka_unit_test(test_wait_chain),
        cmocka_unit_test(test_samples),
        cmocka_unit_test(test_samples_without_views),
        cmocka_unit_test(test_intervals),
        cmocka_unit_test(test_observer_checks),
        cmocka_unit_test(test_units),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
