/* The memory system against closed-form answers (issue 12): the store buffer
 * and its fills through the miss registers, the memory channel's bandwidth,
 * dirty write-backs; the store buffer's stall as its own cause in the views
 * and wait states; exact idle skipping and monotonicity with every new knob. */
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "array_source.h"
#include "stacks/stacks.h"
#include "uarch/uarch.h"

enum { N = 20000, LOOP = 256, LINE = 64 };

/* No incidental stalls: perfect I-cache, no ITLB, separate deep load and store queues. */
static void base_config(uarch_config *c) {
    uarch_config_default(c);
    c->perfect_icache = true;
    c->itlb_entries = 0;
    c->lsq_size = 0;
    c->lq_size = c->sq_size = 128;
}

static core_stats run_observed(const uarch_config *cfg, const uop *uops, size_t n, probe_observer *obs) {
    cs_error err;
    core_t *core = core_create(cfg, &err);
    if (!core) fail_msg("core_create: %s", err.msg);
    if (obs && !core_observe(core, obs, &err)) fail_msg("core_observe: %s", err.msg);
    array_source src = array_source_borrow(uops, n);
    core_stats st;
    core_run_options opt = {0, 0, NULL};
    if (!core_run(core, &src.base, &opt, &st, &err)) fail_msg("core_run: %s", err.msg);
    core_destroy(core);
    assert_int_equal(st.instructions, n);
    st.seconds = 0;
    return st;
}

static core_stats run(const uarch_config *cfg, const uop *uops, size_t n) { return run_observed(cfg, uops, n, NULL); }

/* One store (or load) per line, each line new: every access misses to memory. */
static uop *line_stream(bool store) {
    uop *u = calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) {
        u[i] = make_uop(i % LOOP, store ? OPC_STORE : OPC_LOAD, store ? 0 : (uint8_t)(1 + i % 31), 0, 0);
        u[i].flags = store ? UOP_MEM_WRITE : UOP_MEM_READ;
        u[i].mem_size = 8;
        u[i].mem_addr = 0x40000000ull + (uint64_t)i * LINE;
    }
    return u;
}

static void assert_near(double got, double want, double tolerance, const char *what) {
    if (fabs(got - want) > tolerance) fail_msg("%s: got %.5f, want %.5f ± %.5f", what, got, want, tolerance);
}

/* A stream of stores missing to memory: each holds a miss register for the
 * whole fill (L = L1 + L2 + memory latency), so with M registers it sustains
 * at most M/L lines per cycle; a store buffer of S < M entries, each held from
 * its commit to its line's arrival, bounds it by about S/L instead. Without a
 * store buffer stores never wait: the two store ports set the pace. */
static void test_store_stream(void **state) {
    (void)state;
    static const struct {
        unsigned sb, mshrs, mem;
    } rows[] = {
        {64, 4, 133}, {64, 8, 133}, {64, 16, 133}, {64, 16, 300}, {8, 16, 133}, {4, 32, 200},
    };
    uop *u = line_stream(true);
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        uarch_config c;
        base_config(&c);
        c.store_buffer = rows[k].sb;
        c.l1d.mshrs = rows[k].mshrs;
        c.mem_latency = rows[k].mem;
        core_stats s = run(&c, u, N);
        double L = c.l1d.latency + c.l2.latency + c.mem_latency;
        double rate = (double)N / (double)s.cycles; /* lines per cycle */
        double bound = rows[k].mshrs / L;
        char what[96];
        snprintf(what, sizeof what, "store stream, SB %u, MSHRs %u, memory %u", rows[k].sb, rows[k].mshrs, rows[k].mem);
        if (rate > bound * 1.0001) fail_msg("%s: %.5f lines/cycle beats M/L = %.5f", what, rate, bound);
        /* and reaches it: an entry asks for its line the cycle after it enters and leaves when
         * the line arrives (the fill minus the L1 lookup), so S entries sustain S/(L - L1 + 1) */
        double sb_bound = rows[k].sb / (L - c.l1d.latency + 1);
        double want = sb_bound < bound ? sb_bound : bound;
        assert_near(rate, want, 0.01 * want, what);
        assert_int_equal(s.l1d.fills, N);
        assert_true(s.sb_full_cycles > s.cycles / 2);
    }
    uarch_config c;
    base_config(&c);
    core_stats s = run(&c, u, N);
    assert_near((double)s.cycles / N, 0.5, 0.02, "store stream, no store buffer"); /* two store ports */
    free(u);
}

/* A read stream limited by memory bandwidth B bytes/cycle runs at B/line lines
 * per cycle (when latency and the window would allow more). */
static void test_read_bandwidth(void **state) {
    (void)state;
    uop *u = line_stream(false);
    static const unsigned bw[] = {1, 2, 4, 8, 16};
    for (size_t k = 0; k < sizeof bw / sizeof bw[0]; k++) {
        uarch_config c;
        base_config(&c);
        c.l1d.mshrs = c.l2.mshrs = 0; /* the bandwidth alone sets the pace */
        c.rob_size = 512;
        c.lq_size = 512;
        c.mem_bandwidth = bw[k];
        core_stats s = run(&c, u, N);
        char what[64];
        snprintf(what, sizeof what, "read stream at %u bytes/cycle", bw[k]);
        double want = (double)LINE / bw[k]; /* cycles per line */
        assert_near((double)s.cycles / N, want, 0.02 * want, what);
    }
    free(u);
}

/* Bandwidth between the caches (l2.bandwidth: the L1s-L2 link; l3.bandwidth:
 * the L2-L3 link): a read stream missing to memory crosses both, so with
 * unlimited miss registers and memory bandwidth it runs at one line per
 * 64/B cycles of the narrower link. */
static void test_cache_link_bandwidth(void **state) {
    (void)state;
    uop *u = line_stream(false);
    static const struct { unsigned l2, l3; } rows[] = {{4, 0}, {8, 0}, {16, 0}, {0, 4}, {0, 16}, {8, 4}, {4, 16}};
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        uarch_config c;
        base_config(&c);
        c.l1d.mshrs = c.l2.mshrs = c.l3.mshrs = 0;
        c.rob_size = c.lq_size = 512;
        c.l3.enabled = true;
        c.l2_bandwidth = rows[k].l2;
        c.l3_bandwidth = rows[k].l3;
        core_stats s = run(&c, u, N);
        unsigned narrow = !rows[k].l2 ? rows[k].l3 : !rows[k].l3 || rows[k].l2 < rows[k].l3 ? rows[k].l2 : rows[k].l3;
        double want = (double)LINE / narrow; /* cycles per line */
        char what[80];
        snprintf(what, sizeof what, "read stream, L1-L2 %u B/cycle, L2-L3 %u B/cycle (0: unlimited)", rows[k].l2,
                 rows[k].l3);
        assert_near((double)s.cycles / N, want, 0.02 * want, what);
    }
    /* unset (the default): the same stream is bound by the miss latency over the window only */
    uarch_config c;
    base_config(&c);
    c.l1d.mshrs = c.l2.mshrs = 0;
    c.rob_size = c.lq_size = 512;
    core_stats s = run(&c, u, N);
    assert_true((double)s.cycles / N < 1.0);
    free(u);
}

/* The L2's and L3's miss registers (l2.mshrs, l3.mshrs): an L1 miss that also
 * misses the L2 holds one of the L2's from its request to its data's arrival
 * (L = L1 + L2 [+ L3] + memory latency), so with M of them a read stream
 * missing to memory sustains M/L lines per cycle; likewise the L3's. */
static void test_lower_mshrs(void **state) {
    (void)state;
    uop *u = line_stream(false);
    static const struct {
        unsigned l2, l3;
        bool has_l3;
    } rows[] = {{4, 0, false}, {8, 0, false}, {24, 0, false}, {0, 6, true}, {0, 12, true}, {6, 12, true}};
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        uarch_config c;
        base_config(&c);
        c.l1d.mshrs = 0;
        c.rob_size = c.lq_size = 512;
        c.l3.enabled = rows[k].has_l3;
        c.l2.mshrs = rows[k].l2;
        c.l3.mshrs = rows[k].l3;
        core_stats s = run(&c, u, N);
        double L = c.l1d.latency + c.l2.latency + (rows[k].has_l3 ? c.l3.latency : 0) + c.mem_latency;
        unsigned m = !rows[k].l2 ? rows[k].l3 : !rows[k].l3 || rows[k].l2 < rows[k].l3 ? rows[k].l2 : rows[k].l3;
        double want = m / L; /* lines per cycle */
        char what[80];
        snprintf(what, sizeof what, "read stream, L2 MSHRs %u, L3 MSHRs %u (0: unlimited)", rows[k].l2, rows[k].l3);
        assert_near((double)N / (double)s.cycles, want, 0.01 * want, what);
    }
    free(u);
}

/* Write-backs: a store stream over a footprint far larger than every cache
 * evicts a dirty line from the last level for (nearly) every line it brings
 * in, so on a bandwidth-limited channel it moves two lines per store. */
static void test_writeback_bandwidth(void **state) {
    (void)state;
    uop *u = line_stream(true);
    for (int wb = 0; wb < 2; wb++) {
        uarch_config c;
        base_config(&c);
        c.l2.size = 256 * 1024; /* 4096 lines: most of the 20000 are evicted dirty */
        c.store_buffer = 64;
        c.l1d.mshrs = 64;
        c.mem_bandwidth = 8;
        c.writebacks = wb;
        core_stats s = run(&c, u, N);
        uint64_t l1_lines = c.l1d.size / LINE, l2_lines = c.l2.size / LINE;
        if (wb) {
            assert_int_equal(s.l1d.writebacks, N - l1_lines);
            assert_int_equal(s.mem_writebacks, N - l2_lines); /* every L1 victim is in the L2 */
            assert_int_equal(s.l2.writebacks, N - l2_lines);
        } else {
            assert_int_equal(s.mem_writebacks, 0);
            assert_int_equal(s.l1d.writebacks, 0);
        }
        double want = (double)LINE / c.mem_bandwidth * (N + (double)s.mem_writebacks) / N;
        assert_near((double)s.cycles / N, want, 0.03 * want, wb ? "store stream with write-backs" : "without");
    }
    free(u);
}

/* The same stream after a functional warm-up of 15 000 stores: the warm-up's
 * dirty evictions change tags but owe the channel nothing, so the 5 000 timed
 * stores run at the steady rate of two lines each (a fill and a write-back).
 * (They used to be charged to the first timed fill: ~11 000 write-backs x 8
 * cycles, which deadlocked bdw and knl on any warm-up that evicts dirty lines.) */
static void test_warmup_owes_nothing(void **state) {
    (void)state;
    enum { WARM = 15000 };
    uop *u = line_stream(true);
    for (int link = 0; link < 2; link++) {
        uarch_config c;
        base_config(&c);
        c.l2.size = 256 * 1024;
        c.store_buffer = 64;
        c.l1d.mshrs = 64;
        c.writebacks = true;
        if (link) c.l2_bandwidth = 8; /* the L1-L2 link: L1 write-backs cross it too */
        else c.mem_bandwidth = 8;
        cs_error err;
        core_t *core = core_create(&c, &err);
        if (!core) fail_msg("core_create: %s", err.msg);
        array_source src = array_source_borrow(u, N);
        core_stats s;
        core_run_options opt = {WARM, 0, NULL};
        if (!core_run(core, &src.base, &opt, &s, &err)) fail_msg("core_run: %s", err.msg);
        core_destroy(core);
        assert_int_equal(s.instructions, N - WARM);
        double want = 2.0 * LINE / 8; /* cycles per store: its line in, a dirty line out */
        assert_near((double)s.cycles / (N - WARM), want, 0.05 * want,
                    link ? "timed stores after a warm-up, L1-L2 link 8 B/cycle" : "timed stores after a warm-up");
    }
    free(u);
}

/* Write-no-allocate: a store that misses takes no miss register and fetches
 * nothing; it is handed to the L2 (its latency), so the store buffer, not the
 * miss registers, sets the pace. */
static void test_write_no_allocate(void **state) {
    (void)state;
    uop *u = line_stream(true);
    uarch_config c;
    base_config(&c);
    c.l1d.mshrs = 2;
    c.write_allocate = false;
    for (unsigned sb = 4; sb <= 32; sb *= 2) {
        c.store_buffer = sb;
        core_stats s = run(&c, u, N);
        assert_int_equal(s.l1d.misses, N);
        assert_int_equal(s.l1d.fills, 0);
        /* cycles per store: S entries each held L2 + 1 cycles, and one store leaves per cycle */
        double want = (c.l2.latency + 1.0) / sb > 1 ? (c.l2.latency + 1.0) / sb : 1;
        char what[64];
        snprintf(what, sizeof what, "write-no-allocate store stream, SB %u", sb);
        assert_near((double)s.cycles / N, want, 0.01 * want, what);
    }
    free(u);
}

/* ---- the in-order model's store buffer ---- */

static void load_config(uarch_config *c, const char *name) {
    cs_error err;
    uarch_config_default(c);
    if (!uarch_config_load(c, name, &err)) fail_msg("%s", err.msg);
}

/* The same store stream on inorder3 (one memory pipe, blocking caches, no L2)
 * with a store buffer of S entries and M L1D miss registers: a store enters
 * the buffer in the memory stage, asks for its line the next cycle, and
 * leaves when the line arrives, so S entries sustain S/(L - L1 + 1) lines per
 * cycle and M registers, each held for a fill of L cycles, M/L. The rate never
 * beats M/L and reaches the smaller bound to 1%. A full buffer freezes the
 * memory pipe: the commit and dispatch stacks charge those cycles to
 * `store-buffer`. Without the knob every store is a blocking miss (L + 1 cycles). */
static void test_inorder_store_stream(void **state) {
    (void)state;
    static const struct {
        unsigned sb, mshrs, mem;
    } rows[] = {{64, 4, 100}, {64, 8, 100}, {8, 16, 100}, {16, 16, 200}, {4, 32, 60}};
    uop *u = line_stream(true);
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        uarch_config c;
        load_config(&c, "inorder3");
        c.perfect_icache = true; /* the loop's first pass would miss the I-cache line by line */
        c.store_buffer = rows[k].sb;
        c.l1d.mshrs = rows[k].mshrs;
        c.mem_latency = rows[k].mem;
        stacks_observer *obs = stacks_observer_create();
        probe_observer p = stacks_observer_probe(obs);
        core_stats s = run_observed(&c, u, N, &p);
        const stacks_result *r = stacks_observer_result(obs);
        double L = c.l1d.latency + c.mem_latency; /* no L2 */
        double rate = (double)N / (double)s.cycles;
        double bound = rows[k].mshrs / L, sb_bound = rows[k].sb / (L - c.l1d.latency + 1);
        double want = sb_bound < bound ? sb_bound : bound;
        char what[96];
        snprintf(what, sizeof what, "in-order store stream, SB %u, MSHRs %u, memory %u", rows[k].sb, rows[k].mshrs,
                 rows[k].mem);
        if (rate > bound * 1.0001) fail_msg("%s: %.5f lines/cycle beats M/L = %.5f", what, rate, bound);
        assert_near(rate, want, 0.01 * want, what);
        assert_int_equal(s.l1d.fills, N);
        assert_true(s.sb_full_cycles > s.cycles / 2);
        double lost = (double)s.cycles - (double)N / r->width;
        static const stack_stage stages[] = {STACK_COMMIT, STACK_DISPATCH};
        for (int i = 0; i < 2; i++) {
            double sbc = r->stage[stages[i]].cycles[COMP_STORE_BUFFER];
            /* every cycle the pipe waits for an entry, less at most one cycle per store (its own
             * pass through the pipe's second stage, which no store buffer removes) */
            if (sbc < lost - N || sbc > (double)s.sb_full_cycles + 1e-6)
                fail_msg("%s: %s stack: store-buffer %.1f, lost %.1f, store buffer full %" PRIu64 " cycles", what,
                         stack_stage_name(stages[i]), sbc, lost, s.sb_full_cycles);
        }
        stacks_observer_destroy(obs);
    }
    /* the knob unset: the thesis' machine, every store a blocking miss of L cycles */
    uarch_config c;
    load_config(&c, "inorder3");
    c.perfect_icache = true;
    c.mem_latency = 100;
    core_stats s = run(&c, u, N);
    assert_int_equal(s.sb_full_cycles, 0);
    assert_near((double)s.cycles / N, 101, 0.01 * 101, "in-order store stream, no store buffer");
    free(u);
}

/* The in-order store buffer on a mixed stream (loads that may find every miss
 * register held by the buffer's fills, loads forwarded from buffered stores):
 * runs repeat exactly, and more entries or more miss registers never make it
 * slower. */
static uop *mixed_stream(void);
static void test_inorder_store_buffer_monotone(void **state) {
    (void)state;
    uop *u = mixed_stream();
    for (size_t i = 0; i + 1 < N; i += 97) { /* now and then a load of the bytes just stored */
        if (u[i].op_class != OPC_STORE) continue;
        u[i + 1] = make_uop((i + 1) % LOOP, OPC_LOAD, 7, 0, 0);
        u[i + 1].flags = UOP_MEM_READ;
        u[i + 1].mem_size = 8;
        u[i + 1].mem_addr = u[i].mem_addr;
    }
    uint64_t last = UINT64_MAX;
    for (unsigned sb = 1; sb <= 32; sb *= 2) {
        uint64_t last_m = UINT64_MAX;
        for (unsigned mshrs = 1; mshrs <= 16; mshrs *= 4) {
            uarch_config c;
            load_config(&c, "inorder3");
            c.mem_latency = 50;
            c.store_buffer = sb;
            c.l1d.mshrs = mshrs;
            core_stats a = run(&c, u, N), b = run(&c, u, N);
            assert_memory_equal(&a, &b, sizeof a);
            if (a.cycles > last_m)
                fail_msg("SB %u: %u miss registers slower (%" PRIu64 " > %" PRIu64 ")", sb, mshrs, a.cycles, last_m);
            last_m = a.cycles;
            if (mshrs == 16) {
                if (a.cycles > last) fail_msg("SB %u slower than SB %u", sb, sb / 2);
                last = a.cycles;
            }
        }
    }
    free(u);
}

/* ---- TLBs ---- */

/* A page-strided walk over P pages, R rounds: a fully associative LRU TLB of E
 * entries misses P times when P <= E (the first round), else on every access.
 * Each load's address depends on the previous load, so with a perfect D-cache
 * the chain costs agen + L1 + the translation's extra cycles per load. */
static void test_tlb_reach(void **state) {
    (void)state;
    enum { ROUNDS = 20 };
    static const struct {
        unsigned pages, dtlb, l2tlb;
    } rows[] = {
        {32, 64, 0}, {64, 64, 0}, {65, 64, 0}, {200, 64, 0}, {200, 64, 256}, {256, 64, 256}, {300, 64, 256},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        size_t n = (size_t)rows[k].pages * ROUNDS;
        uop *u = calloc(n, sizeof *u);
        for (size_t i = 0; i < n; i++) {
            u[i] = make_uop(i % LOOP, OPC_LOAD, 5, 5, 0); /* x5 = load(x5): a chain */
            u[i].flags = UOP_MEM_READ;
            u[i].mem_size = 8;
            u[i].mem_addr = 0x40000000ull + (uint64_t)(i % rows[k].pages) * 4096 + 8 * (i % 64);
        }
        uarch_config c;
        base_config(&c);
        c.perfect_dcache = true;
        c.dtlb_entries = rows[k].dtlb;
        c.dtlb_miss_latency = 30;
        c.l2tlb_entries = rows[k].l2tlb;
        c.l2tlb_latency = 7;
        core_stats s = run(&c, u, n);
        bool fits = rows[k].pages <= rows[k].dtlb, fits2 = rows[k].l2tlb && rows[k].pages <= rows[k].l2tlb;
        uint64_t misses = fits ? rows[k].pages : n;
        assert_int_equal(s.dtlb.accesses, n);
        assert_int_equal(s.dtlb.misses, misses);
        uint64_t walks = misses;
        if (rows[k].l2tlb) {
            assert_int_equal(s.l2tlb.accesses, misses);
            walks = fits || fits2 ? rows[k].pages : n;
            assert_int_equal(s.l2tlb.misses, walks);
        }
        double per_load = c.latency[OPC_LOAD] + c.l1d.latency;
        double extra = (double)walks * c.dtlb_miss_latency + (rows[k].l2tlb ? (double)misses * c.l2tlb_latency : 0);
        char what[80];
        snprintf(what, sizeof what, "page walk over %u pages, DTLB %u, L2 TLB %u", rows[k].pages, rows[k].dtlb,
                 rows[k].l2tlb);
        double want = per_load + extra / (double)n;
        assert_near((double)s.cycles / (double)n, want, 0.01 * want, what);
        free(u);
    }
}

/* The same page-strided chain, seen by the multi-stage stacks: every cycle a
 * load spends translating (the L2 TLB's latency and the page walk after
 * address generation) stalls all three stages behind it, so each stack's
 * `dtlb` component is walks x miss_latency + L2 TLB lookups x its latency,
 * and none of it lands in the D-cache or dependence components. With a real
 * D-cache the first round's lines also miss to memory, after the walk: that
 * part stays `dcache-*`. Both with idle skipping on and off (the end of a walk
 * is an event of its own when views are asked for). */
static void test_tlb_stack(void **state) {
    (void)state;
    enum { PAGES = 200, ROUNDS = 20, WALK = 30, L2TLB_LAT = 7 };
    static const struct {
        unsigned l2tlb;
        bool perfect;
    } rows[] = {{0, true}, {256, true}, {0, false}, {64, false}};
    size_t n = (size_t)PAGES * ROUNDS;
    uop *u = calloc(n, sizeof *u);
    for (size_t i = 0; i < n; i++) {
        u[i] = make_uop(i % LOOP, OPC_LOAD, 5, 5, 0); /* x5 = load(x5): a chain */
        u[i].flags = UOP_MEM_READ;
        u[i].mem_size = 8;
        /* one line per page, in different sets: after the first round they all hit the L1D */
        u[i].mem_addr = 0x40000000ull + (uint64_t)(i % PAGES) * (4096 + LINE);
    }
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        double dtlb[2][STACK_STAGES];
        for (int skip = 0; skip < 2; skip++) {
            uarch_config c;
            base_config(&c);
            c.rob_size = c.iq_size = 16; /* a short drain: the trace's end holds few walks */
            c.perfect_dcache = rows[k].perfect;
            c.dtlb_entries = 64;
            c.dtlb_miss_latency = WALK;
            c.l2tlb_entries = rows[k].l2tlb;
            c.l2tlb_latency = L2TLB_LAT;
            c.skip_idle = skip;
            stacks_observer *obs = stacks_observer_create();
            probe_observer p = stacks_observer_probe(obs);
            core_stats s = run_observed(&c, u, n, &p);
            const stacks_result *r = stacks_observer_result(obs);
            assert_int_equal(s.dtlb.misses, n); /* 200 pages > 64 entries, LRU: every access */
            uint64_t walks = rows[k].l2tlb >= PAGES ? PAGES : n;
            double want = (double)walks * WALK + (rows[k].l2tlb ? (double)n * L2TLB_LAT : 0);
            for (int st = 0; st < STACK_STAGES; st++) {
                const double *cy = r->stage[st].cycles;
                double sum = 0;
                for (int x = 0; x < COMP_COUNT; x++) sum += cy[x];
                assert_near(sum, (double)s.cycles, 1e-6 * (double)s.cycles, "the stack sums to the cycles");
                char what[96];
                snprintf(what, sizeof what, "dtlb component, %s stack, L2 TLB %u, %s D-cache",
                         stack_stage_name((stack_stage)st), rows[k].l2tlb, rows[k].perfect ? "perfect" : "real");
                assert_near(cy[COMP_DTLB], want, 0.01 * want, what);
                dtlb[skip][st] = cy[COMP_DTLB];
                double dcache = cy[COMP_DCACHE_L2] + cy[COMP_DCACHE_L3] + cy[COMP_DCACHE_MEM];
                if (rows[k].perfect) assert_true(dcache == 0);
                else { /* the first round's misses: PAGES x (L1 + L2 + memory latency), to 2% */
                    double first = PAGES * (double)(c.l1d.latency + c.l2.latency + c.mem_latency);
                    assert_near(dcache, first, 0.02 * first, "dcache component, first round");
                }
            }
            stacks_observer_destroy(obs);
        }
        assert_memory_equal(dtlb[0], dtlb[1], sizeof dtlb[0]); /* skipping is exact */
    }
    free(u);
}

/* A store stream against an 8-entry store buffer (the store-buffer-full stall,
 * issue item 1): the commit and dispatch stacks put nearly every cycle the
 * stream loses into `store-buffer`, never into the D-cache or `other`. */
static void test_store_buffer_stack(void **state) {
    (void)state;
    uop *u = line_stream(true);
    uarch_config c;
    base_config(&c);
    c.store_buffer = 8;
    stacks_observer *obs = stacks_observer_create();
    probe_observer p = stacks_observer_probe(obs);
    core_stats s = run_observed(&c, u, N, &p);
    const stacks_result *r = stacks_observer_result(obs);
    double lost = (double)s.cycles - (double)N / r->width;
    static const stack_stage stages[] = {STACK_COMMIT, STACK_DISPATCH};
    for (int i = 0; i < 2; i++) {
        const double *cy = r->stage[stages[i]].cycles;
        if (cy[COMP_STORE_BUFFER] < 0.98 * lost || cy[COMP_STORE_BUFFER] > lost + 1e-6)
            fail_msg("%s stack: store-buffer %.1f of %.1f lost cycles", stack_stage_name(stages[i]),
                     cy[COMP_STORE_BUFFER], lost);
        assert_true(cy[COMP_DCACHE_L2] + cy[COMP_DCACHE_L3] + cy[COMP_DCACHE_MEM] + cy[COMP_DTLB] == 0);
    }
    assert_true(r->stage[STACK_COMMIT].cycles[COMP_STORE_BUFFER] <= (double)s.sb_full_cycles + 1e-6);
    stacks_observer_destroy(obs);
    free(u);
}

/* ---- the DRAM model ---- */

/* Independent loads, one per line, in three patterns against one channel's
 * timing: lines in order hit the open row and the bus sets the pace (one line
 * per burst, per channel); every line in another row of one bank waits for the
 * last transfer, then pays precharge + activate + CAS + burst; spread over B
 * banks, B of those overlap (down to one burst per line). */
static void test_dram(void **state) {
    (void)state;
    static const struct {
        const char *what;
        unsigned channels, banks, stride_rows;
    } rows[] = {
        {"row hits, 1 channel", 1, 8, 0}, {"row hits, 2 channels", 2, 8, 0},
        {"conflicts, one bank", 1, 8, 8}, /* every line: the next row of the same bank */
        {"conflicts, 4 banks", 1, 4, 1},  /* consecutive rows: banks in turn, each a new row */
        {"conflicts, 8 banks", 1, 8, 1},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        uarch_config c;
        base_config(&c);
        c.dram = true;
        c.dram_channels = rows[k].channels;
        c.dram_banks = rows[k].banks;
        c.dram_row = 2048; /* 32 lines */
        c.dram_cas = c.dram_rcd = c.dram_rp = 30;
        c.dram_burst = 8;
        c.l1d.mshrs = c.l2.mshrs = 0;
        c.rob_size = c.lq_size = 512;
        uop *u = line_stream(false);
        uint64_t row_lines = c.dram_row / LINE;
        for (size_t i = 0; rows[k].stride_rows && i < N; i++)
            u[i].mem_addr = 0x40000000ull + (uint64_t)i * rows[k].stride_rows * row_lines * LINE;
        core_stats s = run(&c, u, N);
        double want;
        if (!rows[k].stride_rows) {
            want = (double)c.dram_burst / rows[k].channels;
            assert_int_equal(s.dram_row_hits, N - N / row_lines);
        } else {
            double t = c.dram_rp + c.dram_rcd + c.dram_cas + c.dram_burst; /* a conflict */
            unsigned banks = rows[k].stride_rows == 1 ? rows[k].banks : 1;
            want = t / banks > c.dram_burst ? t / banks : c.dram_burst;
            assert_true(s.dram_row_conflicts >= N - rows[k].banks);
        }
        assert_int_equal(s.dram_reads, N);
        assert_near((double)s.cycles / N, want, 0.03 * want, rows[k].what);
        free(u);
    }
}

/* ---- prefetchers ---- */

/* N independent 8-byte loads of consecutive words (eight to a 64-byte line), in order */
static uop *sequential_loads(void) {
    uop *u = calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) {
        u[i] = make_uop(i % LOOP, OPC_LOAD, (uint8_t)(1 + i % 31), 0, 0);
        u[i].flags = UOP_MEM_READ;
        u[i].mem_size = 8;
        u[i].mem_addr = 0x40000000ull + 8 * (uint64_t)i;
    }
    return u;
}

/* A sequential stream (eight loads per line, lines in order): the tagged
 * next-line prefetcher turns every miss after the first line into a hit. */
static void test_next_line_data(void **state) {
    (void)state;
    uop *u = sequential_loads();
    uint64_t lines = N / 8;
    uarch_config c;
    base_config(&c);
    core_stats off = run(&c, u, N);
    assert_int_equal(off.l1d.misses, lines);
    c.prefetch_dcache_next_line = true;
    core_stats on = run(&c, u, N);
    assert_int_equal(on.l1d.misses, 1);
    assert_int_equal(on.l1d.prefetches, lines); /* lines 2 .. lines + 1 */
    assert_int_equal(on.l1d.prefetch_useful, lines - 1);
    assert_true(on.cycles < off.cycles);
    free(u);
}

/* Straight-line code over many I-cache lines: next-line instruction
 * prefetching leaves one miss, the first line. */
static void test_next_line_instructions(void **state) {
    (void)state;
    uop *u = calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) u[i] = make_uop(i, OPC_INT_ALU, (uint8_t)(1 + i % 31), 0, 0);
    uarch_config c;
    base_config(&c);
    c.perfect_icache = false;
    c.l1i.size = 1024 * 1024;
    c.l1i.assoc = 8;
    core_stats off = run(&c, u, N);
    c.prefetch_icache_next_line = true;
    core_stats on = run(&c, u, N);
    assert_true(off.l1i.misses > 100);
    assert_int_equal(on.l1i.misses, 1);
    assert_int_equal(on.l1i.prefetch_useful, off.l1i.misses - 1);
    assert_true(on.cycles < off.cycles);
    free(u);
}

/* Two pcs, each with its own stride (5 lines up, 3 lines down): the per-PC
 * stride prefetcher misses the three accesses that establish a stride twice,
 * then every line is prefetched; a next-line prefetcher would not help. */
static void test_stride(void **state) {
    (void)state;
    uop *u = calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) {
        bool up = i % 2 == 0;
        size_t k = i / 2;
        u[i] = make_uop(up ? 0 : 1, OPC_LOAD, (uint8_t)(1 + i % 31), 0, 0);
        u[i].flags = UOP_MEM_READ;
        u[i].mem_size = 8;
        u[i].mem_addr = up ? 0x40000000ull + (uint64_t)k * 5 * LINE : 0x80000000ull - (uint64_t)k * 3 * LINE;
    }
    for (unsigned degree = 1; degree <= 4; degree *= 2) {
        uarch_config c;
        base_config(&c);
        c.l1d.size = 1024 * 1024; /* no evictions: every miss is a first touch */
        c.prefetch_dcache_stride = 64;
        c.prefetch_degree = degree;
        core_stats s = run(&c, u, N);
        assert_int_equal(s.l1d.misses, 6);
        assert_int_equal(s.l1d.prefetch_useful, N - 6);
        /* the trained streams run `degree` lines ahead: the last ones are never used */
        assert_int_equal(s.l1d.prefetches, N - 6 + 2 * degree);
    }
    free(u);
}

/* ---- the store buffer's stall in the views and wait states ---- */

typedef struct sb_seen {
    uint64_t commit_sb, commit_sb_cause, dispatch_sb_cause, waits_sb, bad_cause;
    uint64_t processed[STAGE_COUNT]; /* µops each stage's views say it processed */
} sb_seen;

static void count_stages(void *ctx, const stage_span *sp, size_t n) {
    sb_seen *s = ctx;
    for (size_t i = 0; i < n; i++) {
        const stage_view *v = &sp[i].v;
        s->processed[sp[i].stage] += (uint64_t)v->n * sp[i].cycles;
        if (sp[i].stage == STAGE_COMMIT && v->stall == STALL_SB_FULL) {
            s->commit_sb += sp[i].cycles;
            if (v->cause.kind == CAUSE_STORE_BUFFER && v->cause.seq) s->commit_sb_cause += sp[i].cycles;
            else s->bad_cause++;
        }
        if (sp[i].stage == STAGE_DISPATCH && v->stall != STALL_NONE && v->cause.kind == CAUSE_STORE_BUFFER)
            s->dispatch_sb_cause += sp[i].cycles;
    }
}

static void count_waits(void *ctx, const wait_transition *w, size_t n) {
    sb_seen *s = ctx;
    for (size_t i = 0; i < n; i++)
        if (w[i].state == WST_STORE_BUFFER) {
            s->waits_sb++;
            if (!w[i].cause_seq || w[i].cause_seq >= w[i].seq) s->bad_cause++; /* an older store */
        }
}

static void test_store_buffer_cause(void **state) {
    (void)state;
    uop *u = line_stream(true);
    for (size_t i = 0; i < N; i++) /* two of three µops adds: they commit beside a blocked store */
        if (i % 3) u[i] = make_uop(i % LOOP, OPC_INT_ALU, (uint8_t)(1 + i % 13), 0, 0);
    uarch_config c;
    base_config(&c);
    c.store_buffer = 8;
    sb_seen seen = {0};
    probe_observer obs = {
        .ctx = &seen, .needs = PROBE_STAGES | PROBE_WAITS, .stages = count_stages, .waits = count_waits};
    core_stats s = run_observed(&c, u, N, &obs);
    assert_int_equal(seen.bad_cause, 0);
    assert_int_equal(seen.commit_sb, s.sb_full_cycles); /* every stalled commit cycle is seen as such */
    assert_int_equal(seen.commit_sb_cause, s.sb_full_cycles);
    assert_true(seen.dispatch_sb_cause > s.cycles / 2); /* the window fills behind the stalled commit */
    assert_true(seen.waits_sb > 0);
    /* the views, skipped cycles included, account for every µop exactly once */
    assert_int_equal(seen.processed[STAGE_COMMIT], N);
    assert_int_equal(seen.processed[STAGE_DISPATCH], N);
    free(u);
}

/* ---- exact skipping, determinism, monotonicity with the new knobs ---- */

/* A mixed stream: loads and stores over a footprint larger than the L1D, adds, multiplies. */
static uop *mixed_stream(void) {
    uop *u = calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) {
        int kind = (int)(i * 7 % 6);
        op_class cls = kind == 0 ? OPC_LOAD : kind == 1 ? OPC_STORE : kind == 2 ? OPC_INT_MUL : OPC_INT_ALU;
        u[i] = make_uop(i % LOOP, cls, cls == OPC_STORE ? 0 : (uint8_t)(1 + i % 13), (uint8_t)(1 + (i + 3) % 13), 0);
        if (kind <= 1) {
            u[i].flags = kind == 0 ? UOP_MEM_READ : UOP_MEM_WRITE;
            u[i].mem_size = 8;
            u[i].mem_addr = 0x40000000ull + (uint64_t)((i * 2654435761u) % 20000) * 64;
        }
    }
    return u;
}

static void knobs(uarch_config *c, unsigned sb, bool wb, unsigned bw, bool alloc) {
    base_config(c);
    c->l2.size = 512 * 1024;
    c->store_buffer = sb;
    c->writebacks = wb;
    c->mem_bandwidth = bw;
    c->write_allocate = alloc;
}

static void test_skip_exact_and_deterministic(void **state) {
    (void)state;
    uop *u = mixed_stream();
    static const struct {
        unsigned sb;
        bool wb;
        unsigned bw;
        bool alloc;
    } rows[] = {{0, true, 4, true}, {8, false, 0, true}, {16, true, 4, true}, {16, true, 8, false}, {4, true, 2, true}};
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        core_stats out[3];
        for (int r = 0; r < 3; r++) {
            uarch_config c;
            knobs(&c, rows[k].sb, rows[k].wb, rows[k].bw, rows[k].alloc);
            /* and the TLBs, prefetchers, cache links and L2/L3 miss registers, in a few combinations */
            c.perfect_icache = k % 2;
            c.prefetch_icache_next_line = c.prefetch_dcache_next_line = k % 3 == 0;
            c.prefetch_dcache_stride = k % 2 ? 64 : 0;
            c.dtlb_entries = k ? 16 : 0;
            c.dtlb_miss_latency = 20;
            c.l2tlb_entries = k % 2 ? 0 : 64;
            c.l2tlb_latency = 5;
            c.dram = k >= 3;
            c.l3.enabled = k % 2;
            c.l2_bandwidth = k == 1 ? 8 : k == 2 ? 16 : 0;
            c.l3_bandwidth = k == 1 ? 4 : 0;
            c.l2.mshrs = k == 2 ? 4 : k == 4 ? 8 : 0;
            c.l3.mshrs = k == 1 ? 6 : 0;
            c.skip_idle = r != 0;
            out[r] = run(&c, u, N);
        }
        assert_memory_equal(&out[0], &out[1], sizeof out[0]); /* skipping changes nothing */
        assert_memory_equal(&out[1], &out[2], sizeof out[1]); /* and runs repeat exactly */
    }
    free(u);
}

static void test_monotone(void **state) {
    (void)state;
    uop *u = mixed_stream();
    uarch_config c;
    /* a larger store buffer, more bandwidth, no write-backs, more miss registers: never slower */
    uint64_t prev = UINT64_MAX;
    static const unsigned sbs[] = {2, 4, 8, 16, 32, 64};
    for (size_t k = 0; k < 6; k++) {
        knobs(&c, sbs[k], true, 4, true);
        uint64_t cyc = run(&c, u, N).cycles;
        if (cyc > prev) fail_msg("store buffer %u: %lu cycles > %lu with a smaller one", sbs[k], cyc, prev);
        prev = cyc;
    }
    prev = UINT64_MAX;
    static const unsigned bws[] = {1, 2, 4, 8, 32, 0};
    for (size_t k = 0; k < 6; k++) {
        knobs(&c, 16, true, bws[k], true);
        uint64_t cyc = run(&c, u, N).cycles;
        if (cyc > prev) fail_msg("bandwidth %u: %lu cycles > %lu with less", bws[k], cyc, prev);
        prev = cyc;
    }
    /* the links between the caches (write-backs crossing them too) and the L2's miss registers */
    for (int link = 0; link < 2; link++) {
        prev = UINT64_MAX;
        for (size_t k = 0; k < 6; k++) {
            knobs(&c, 16, true, 0, true);
            c.l3.enabled = true;
            *(link ? &c.l3_bandwidth : &c.l2_bandwidth) = bws[k];
            uint64_t cyc = run(&c, u, N).cycles;
            if (cyc > prev) fail_msg("link %d bandwidth %u: %lu cycles > %lu with less", link, bws[k], cyc, prev);
            prev = cyc;
        }
    }
    prev = UINT64_MAX;
    static const unsigned l2m[] = {1, 2, 4, 8, 16, 0};
    for (size_t k = 0; k < 6; k++) {
        knobs(&c, 16, true, 4, true);
        c.l2.mshrs = l2m[k];
        uint64_t cyc = run(&c, u, N).cycles;
        if (cyc > prev) fail_msg("L2 miss registers %u: %lu cycles > %lu with fewer", l2m[k], cyc, prev);
        prev = cyc;
    }
    knobs(&c, 16, true, 4, true);
    uint64_t with_wb = run(&c, u, N).cycles;
    knobs(&c, 16, false, 4, true);
    assert_true(run(&c, u, N).cycles <= with_wb);
    knobs(&c, 16, true, 4, true);
    c.perfect_dcache = true;
    assert_true(run(&c, u, N).cycles <= with_wb);
    free(u);
}

/* ---- the in-order model's TLBs and write-backs ---- */

/* A page-strided chain (x5 = load(x5)) over P pages, R rounds, on inorder1
 * and inorder3 with perfect caches: the DTLB (and the L2 TLB) miss exactly as
 * their sizes predict, and since every load waits for the one before, each
 * translation adds its cycles once: cycles = cycles without TLBs + walks x
 * miss_latency + L2 TLB lookups x its latency. Two runs are identical, and the
 * multi-stage stacks put exactly those cycles into `dtlb` at every stage. */
static void test_inorder_dtlb(void **state) {
    (void)state;
    enum { ROUNDS = 20, WALK = 30, L2TLB_LAT = 7 };
    static const struct {
        unsigned pages, dtlb, l2tlb;
    } rows[] = {{32, 64, 0}, {64, 64, 0}, {65, 64, 0}, {200, 64, 0}, {200, 64, 256}, {300, 64, 256}};
    static const char *const machines[] = {"inorder1", "inorder3"};
    for (int mc = 0; mc < 2; mc++) {
        for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
            size_t n = (size_t)rows[k].pages * ROUNDS;
            uop *u = calloc(n, sizeof *u);
            for (size_t i = 0; i < n; i++) {
                u[i] = make_uop(i % LOOP, OPC_LOAD, 5, 5, 0);
                u[i].flags = UOP_MEM_READ;
                u[i].mem_size = 8;
                u[i].mem_addr = 0x40000000ull + (uint64_t)(i % rows[k].pages) * 4096 + 8 * (i % 64);
            }
            uarch_config c;
            load_config(&c, machines[mc]);
            c.perfect_icache = c.perfect_dcache = true;
            core_stats none = run(&c, u, n);
            assert_int_equal(none.dtlb.accesses, 0);
            c.dtlb_entries = rows[k].dtlb;
            c.dtlb_miss_latency = WALK;
            c.l2tlb_entries = rows[k].l2tlb;
            c.l2tlb_latency = L2TLB_LAT;
            stacks_observer *obs = stacks_observer_create();
            probe_observer p = stacks_observer_probe(obs);
            core_stats s = run_observed(&c, u, n, &p), again = run(&c, u, n);
            assert_memory_equal(&s, &again, sizeof s);
            bool fits = rows[k].pages <= rows[k].dtlb, fits2 = rows[k].l2tlb && rows[k].pages <= rows[k].l2tlb;
            uint64_t misses = fits ? rows[k].pages : n, walks = misses;
            assert_int_equal(s.dtlb.accesses, n);
            assert_int_equal(s.dtlb.misses, misses);
            if (rows[k].l2tlb) {
                assert_int_equal(s.l2tlb.accesses, misses);
                walks = fits || fits2 ? rows[k].pages : n;
                assert_int_equal(s.l2tlb.misses, walks);
            }
            uint64_t extra = walks * WALK + (rows[k].l2tlb ? misses * L2TLB_LAT : 0);
            if (s.cycles != none.cycles + extra)
                fail_msg("%s, %u pages, DTLB %u, L2 TLB %u: %" PRIu64 " cycles, want %" PRIu64 " + %" PRIu64,
                         machines[mc], rows[k].pages, rows[k].dtlb, rows[k].l2tlb, s.cycles, none.cycles, extra);
            const stacks_result *r = stacks_observer_result(obs);
            for (int st = 0; st < STACK_STAGES; st++) {
                char what[96];
                snprintf(what, sizeof what, "%s dtlb component, %s stack, %u pages", machines[mc],
                         stack_stage_name((stack_stage)st), rows[k].pages);
                const double *cy = r->stage[st].cycles;
                if (st == STACK_COMMIT) {
                    assert_near(cy[COMP_DTLB], (double)extra, 1e-9, what);
                } else { /* the loads left in the buffers when the trace ends are its drain's (other) */
                    double drain = (double)(c.inorder.fetch_buffer + c.inorder.issue_buffer) * (WALK + L2TLB_LAT);
                    if (cy[COMP_DTLB] > (double)extra || cy[COMP_DTLB] < (double)extra - drain)
                        fail_msg("%s: %.1f, want %" PRIu64 " less at most %.0f", what, cy[COMP_DTLB], extra, drain);
                }
            }
            stacks_observer_destroy(obs);
            free(u);
        }
    }
}

/* Straight-line code, one fetch group (inorder1: 1 instruction, inorder3: 2,
 * so that fetch, not the pipes, sets the pace) on each of P pages, R rounds,
 * perfect caches: the ITLB misses as its size
 * predicts, fetch waits for each walk, and the cycles grow by exactly misses x
 * miss_latency. The dispatch and issue stacks put all of it into `itlb`; the
 * commit stack sees the walk from behind the pipe (the µops still in it drain,
 * then the ones fetched after it refill it): up to the deepest pipe's depth a
 * walk (inorder1's 2 stages, inorder3's FP pipe of 5) goes to the µop at its
 * head instead. */
static void test_inorder_itlb(void **state) {
    (void)state;
    enum { ROUNDS = 20, WALK = 25 };
    static const struct { unsigned pages, itlb; } rows[] = {{16, 16}, {17, 16}, {100, 48}};
    static const char *const machines[] = {"inorder1", "inorder3"};
    for (int mc = 0; mc < 2; mc++) {
        for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
            uarch_config c;
            load_config(&c, machines[mc]);
            size_t group = c.inorder.fetch_buffer, n = (size_t)rows[k].pages * ROUNDS * group;
            uop *u = calloc(n, sizeof *u);
            for (size_t i = 0; i < n; i++) {
                /* independent; inorder3's group is an integer and an FP µop (a pipe each) */
                u[i] = i % group ? make_uop(0, OPC_FP_ADD, (uint8_t)(32 + i / group % 32), 0, 0)
                                 : make_uop(0, OPC_INT_ALU, (uint8_t)(1 + i / group % 30), 0, 0);
                u[i].pc = 0x10000 + (uint64_t)(i / group % rows[k].pages) * 4096 + 4 * (i % group);
                u[i].next_pc = u[i].pc + 4;
            }
            c.perfect_icache = c.perfect_dcache = true;
            core_stats none = run(&c, u, n);
            c.itlb_entries = rows[k].itlb;
            c.itlb_miss_latency = WALK;
            stacks_observer *obs = stacks_observer_create();
            probe_observer p = stacks_observer_probe(obs);
            core_stats s = run_observed(&c, u, n, &p);
            uint64_t misses = rows[k].pages <= rows[k].itlb ? rows[k].pages : n / group;
            assert_int_equal(s.itlb.accesses, n / group);
            assert_int_equal(s.itlb.misses, misses);
            if (s.cycles != none.cycles + misses * WALK)
                fail_msg("%s, %u pages, ITLB %u: %" PRIu64 " cycles, want %" PRIu64 " + %" PRIu64, machines[mc],
                         rows[k].pages, rows[k].itlb, s.cycles, none.cycles, misses * WALK);
            const stacks_result *r = stacks_observer_result(obs);
            for (int st = 0; st < STACK_STAGES; st++) {
                char what[96];
                snprintf(what, sizeof what, "%s itlb component, %s stack, %u pages", machines[mc],
                         stack_stage_name((stack_stage)st), rows[k].pages);
                const double *cy = r->stage[st].cycles;
                double want = (double)(misses * WALK);
                if (st != STACK_COMMIT) {
                    assert_near(cy[COMP_ITLB], want, 1e-9, what);
                } else {
                    /* seen from behind the pipe: the drain and the refill go to the µop at its head */
                    double depth = 0; /* the deepest pipe's */
                    for (uint32_t q = 0; q < c.inorder.pipe_count; q++)
                        if (c.inorder.pipe[q].stages > depth) depth = c.inorder.pipe[q].stages;
                    if (cy[COMP_ITLB] > want || cy[COMP_ITLB] < want - (double)misses * depth)
                        fail_msg("%s: %.1f, want %.1f less at most %.0f per miss", what, cy[COMP_ITLB], want, depth);
                }
            }
            stacks_observer_destroy(obs);
            free(u);
        }
    }
}

/* Without a store buffer an in-order store is a blocking access; it now dirties
 * its line as on the out-of-order core. A store stream over many more lines
 * than the L1D holds (no L2) writes back one dirty line per store once the
 * cache is full, and on a bandwidth-limited channel each write-back follows
 * its fill: with a short memory latency the channel, busy for two lines a
 * store, sets the pace (2 x line / bandwidth cycles per store, against one line
 * without write-backs). With write-no-allocate a missing store is handed to
 * memory: no fill, no wait. */
static void test_inorder_writebacks(void **state) {
    (void)state;
    uop *u = line_stream(true);
    for (int wb = 0; wb < 2; wb++) {
        uarch_config c;
        load_config(&c, "inorder3");
        c.perfect_icache = true;
        for (size_t i = 0; i < N; i++) u[i].mem_addr = 0x40000000ull + (uint64_t)i * c.l1d.line;
        c.mem_bandwidth = 1; /* a 16-byte line in 16 cycles */
        c.writebacks = wb;
        core_stats s = run(&c, u, N);
        uint64_t l1_lines = c.l1d.size / c.l1d.line;
        assert_int_equal(s.l1d.misses, N);
        assert_int_equal(s.l1d.fills, N);
        assert_int_equal(s.l1d.writebacks, wb ? N - l1_lines : 0);
        assert_int_equal(s.mem_writebacks, wb ? N - l1_lines : 0);
        double transfer = (double)c.l1d.line / c.mem_bandwidth;
        double want = transfer * (N + (double)s.mem_writebacks) / N;
        assert_near((double)s.cycles / N, want, 0.03 * want,
                    wb ? "in-order blocking stores with write-backs" : "without write-backs");
        c.write_allocate = false;
        s = run(&c, u, N);
        assert_int_equal(s.l1d.misses, N);
        assert_int_equal(s.l1d.fills, 0);
        assert_int_equal(s.l1d.writebacks, 0);   /* nothing is allocated dirty in the L1D */
        assert_true((double)s.cycles / N < 1.5); /* one memory pipe, no wait */
    }
    free(u);
}

/* The prefetchers and the DRAM model are the shared memory system's: in-order
 * loads reach them with their pc. inorder1 with a real D-cache (blocking, 16-byte lines, memory 4
 * cycles after a 0-cycle L1) reading 8-byte words in order misses once a line
 * without a prefetcher (a 4-cycle stall every other load); the tagged next-line
 * prefetcher leaves one miss, the first line, and every prefetch but the last
 * is used. Line k's prefetch starts when line k-1's first load reaches the
 * memory system (t[k-1]) and arrives L = 4 cycles later; that load itself
 * waited for line k-1, whose prefetch started at t[k-2], and line k's first
 * load comes P = 2 loads after line k-1's data: t[k] = t[k-2] + L + P while
 * L > (L + P) / 2, i.e. (L + P) / 2 = 3 cycles a line, against L + P = 6 without. */
static void test_inorder_next_line(void **state) {
    (void)state;
    uop *u = sequential_loads();
    uarch_config c;
    load_config(&c, "inorder1");
    c.perfect_dcache = false; /* inorder1's are perfect */
    uint64_t lines = N * 8 / c.l1d.line;
    core_stats off = run(&c, u, N);
    assert_int_equal(off.l1d.misses, lines);
    assert_int_equal(off.l1d.prefetches, 0);
    c.prefetch_dcache_next_line = true;
    core_stats on = run(&c, u, N);
    assert_int_equal(on.l1d.misses, 1);
    assert_int_equal(on.l1d.prefetches, lines); /* lines 2 .. lines + 1 */
    assert_int_equal(on.l1d.prefetch_useful, lines - 1);
    double per_load = (double)c.l1d.line / 8;
    assert_near((double)off.cycles / lines, per_load + c.mem_latency, 0.03 * (per_load + c.mem_latency),
                "inorder1 cycles a line, no prefetcher");
    assert_true(c.mem_latency > per_load); /* the recurrence's regime */
    double want = (c.mem_latency + per_load) / 2;
    assert_near((double)on.cycles / lines, want, 0.03 * want, "inorder1 cycles a line, next-line prefetcher");
    free(u);
}

/* The DRAM model under inorder1's blocking loads, one per line, lines in
 * order: every line of a row after its first hits the open row. A blocking
 * load waits the whole access: the fixed path (memory.latency), then on a row
 * hit CAS + burst, on a row's first line an activate first (t_rcd), and a
 * precharge too (t_rp) when the bank had another row open. */
static void test_inorder_dram(void **state) {
    (void)state;
    uarch_config c;
    load_config(&c, "inorder1");
    c.perfect_dcache = false; /* inorder1's are perfect */
    c.dram = true;
    c.dram_row = 1024;
    c.dram_cas = c.dram_rcd = c.dram_rp = 30;
    c.dram_burst = 8;
    uop *u = line_stream(false);
    for (size_t i = 0; i < N; i++) u[i].mem_addr = 0x40000000ull + (uint64_t)i * c.l1d.line;
    core_stats s = run(&c, u, N);
    uint64_t row_lines = c.dram_row / c.l1d.line, rows = (N + row_lines - 1) / row_lines; /* the last one part used */
    assert_int_equal(s.dram_reads, N);
    assert_int_equal(s.dram_row_hits, N - rows);
    assert_int_equal(s.dram_row_empty + s.dram_row_conflicts, rows);
    double want = (double)N * (1 + c.mem_latency + c.dram_cas + c.dram_burst) + (double)rows * c.dram_rcd +
        (double)s.dram_row_conflicts * c.dram_rp;
    assert_near((double)s.cycles, want, 0.03 * want, "inorder1 with DRAM, lines in order");
    free(u);
}

/* Atomics write memory: an AMO and a successful sc dirty their line like a
 * store, on both models (they used to be classified as reads: never a
 * write-back). A stream of them over new lines, many more than the L1D holds,
 * writes back one line per access once the L1D is full; the same stream of
 * loads writes back nothing. */
static void test_atomic_writebacks(void **state) {
    (void)state;
    static const char *const machines[] = {"default", "inorder3"};
    static const uint8_t kinds[] = {UOP_MEM_READ | UOP_MEM_WRITE, UOP_MEM_WRITE, UOP_MEM_READ}; /* amo, sc, load */
    for (int mc = 0; mc < 2; mc++) {
        for (int k = 0; k < 3; k++) {
            uarch_config c;
            if (mc == 0) base_config(&c);
            else load_config(&c, machines[mc]);
            c.perfect_icache = true;
            c.writebacks = true;
            uop *u = calloc(N, sizeof *u);
            for (size_t i = 0; i < N; i++) {
                u[i] = make_uop(i % LOOP, OPC_ATOMIC, kinds[k] & UOP_MEM_READ ? (uint8_t)(1 + i % 31) : 0, 0, 0);
                u[i].flags = kinds[k];
                u[i].mem_size = 8;
                u[i].mem_addr = 0x40000000ull + (uint64_t)i * c.l1d.line;
            }
            core_stats s = run(&c, u, N);
            uint64_t l1_lines = c.l1d.size / c.l1d.line;
            char what[64];
            snprintf(what, sizeof what, "%s, %s", machines[mc], k == 0 ? "amo" : k == 1 ? "sc" : "load");
            if (s.l1d.misses != N || s.l1d.writebacks != (k < 2 ? N - l1_lines : 0))
                fail_msg("%s: %" PRIu64 " misses, %" PRIu64 " write-backs, want %d and %" PRIu64, what, s.l1d.misses,
                         s.l1d.writebacks, N, k < 2 ? N - l1_lines : 0);
            free(u);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_store_stream),
        cmocka_unit_test(test_read_bandwidth),
        cmocka_unit_test(test_writeback_bandwidth),
        cmocka_unit_test(test_write_no_allocate),
        cmocka_unit_test(test_cache_link_bandwidth),
        cmocka_unit_test(test_lower_mshrs),
        cmocka_unit_test(test_warmup_owes_nothing),
        cmocka_unit_test(test_store_buffer_cause),
        cmocka_unit_test(test_inorder_store_stream),
        cmocka_unit_test(test_inorder_store_buffer_monotone),
        cmocka_unit_test(test_skip_exact_and_deterministic),
        cmocka_unit_test(test_monotone),
        cmocka_unit_test(test_tlb_reach),
        cmocka_unit_test(test_tlb_stack),
        cmocka_unit_test(test_store_buffer_stack),
        cmocka_unit_test(test_next_line_data),
        cmocka_unit_test(test_next_line_instructions),
        cmocka_unit_test(test_stride),
        cmocka_unit_test(test_dram),
        cmocka_unit_test(test_inorder_dtlb),
        cmocka_unit_test(test_inorder_itlb),
        cmocka_unit_test(test_inorder_writebacks),
        cmocka_unit_test(test_inorder_next_line),
        cmocka_unit_test(test_inorder_dram),
        cmocka_unit_test(test_atomic_writebacks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
