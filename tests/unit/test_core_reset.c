/* core_reset: a core reset after a run times the next stream exactly as a new core does — the
 * statistics, every retired µop's timestamps, every event and every sample the probes deliver —
 * on both models, on the shipped machines and on variants with the structures a reset must
 * clear (store buffer, prefetchers, DRAM, limited miss registers, TLBs, a TAGE predictor, value
 * prediction). The first run leaves its state behind: the same stream on the core without the
 * reset must time differently, or the test would not see a reset that does nothing. The
 * streams are a bundled workload's µops ($CYCLESCOPE_BUILD/workloads/sort). */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "array_source.h"
#include "emu/emu.h"
#include "uarch/uarch.h"

enum { HALF = 40000 }; /* µops of each stream */

/* The first 2 × HALF µops of `sort 2000`, with their results (for value prediction). */
static uop *workload_uops(void) {
    const char *build = getenv("CYCLESCOPE_BUILD");
    char path[1024];
    snprintf(path, sizeof path, "%s/workloads/sort", build ? build : "build");
    emu_options eo;
    memset(&eo, 0, sizeof eo);
    const char *argv[] = {path, "2000", NULL};
    eo.argc = 2;
    eo.argv = argv;
    eo.record_values = true;
    eo.quiet = true;
    cs_error err;
    emu_t *e = emu_create(path, &eo, &err);
    if (!e) fail_msg("%s: %s (set CYCLESCOPE_BUILD to the build directory)", path, err.msg);
    uop_source *src = emu_source_create(e);
    uop *u = calloc(2 * HALF, sizeof *u);
    size_t n = 0;
    while (n < 2 * HALF) {
        long got = uop_source_read(src, u + n, 2 * HALF - n, &err);
        if (got <= 0) fail_msg("sort 2000 gave %zu µops, the test needs %d", n, 2 * HALF);
        n += (size_t)got;
    }
    uop_source_destroy(src);
    emu_destroy(e);
    return u;
}

/* ---- an observer that hashes what it is given ---- */

typedef struct seen {
    uint64_t retire, events, samples;
    uint64_t n_retire, n_events, n_samples;
} seen;

static inline void mix(uint64_t *h, uint64_t x) { *h = (*h ^ x) * 0x100000001b3ull; }

static void on_retire(void *ctx, const uop_record *r, size_t n) {
    seen *s = ctx;
    for (size_t i = 0; i < n; i++, s->n_retire++) {
        const uop_record *x = &r[i];
        uint64_t f[] = {x->seq,          x->u.pc,   x->fetch,      x->itlb_done,    x->icache_done,
                        x->decode,       x->rename, x->dispatch,   x->ready,        x->issue,
                        x->complete,     x->commit, x->addr_ready, x->dtlb_done,    x->mem_wait_seq,
                        x->exec_latency, x->pool,   x->unit,       x->icache_level, x->dcache_level};
        for (size_t k = 0; k < sizeof f / sizeof f[0]; k++) mix(&s->retire, f[k]);
    }
}

static void on_events(void *ctx, const probe_event *e, size_t n) {
    seen *s = ctx;
    for (size_t i = 0; i < n; i++, s->n_events++) {
        const probe_event *x = &e[i];
        uint64_t f[] = {x->cycle, x->end, x->seq, x->pc, x->addr, x->count, x->kind, x->unit, x->level, x->detail};
        for (size_t k = 0; k < sizeof f / sizeof f[0]; k++) mix(&s->events, f[k]);
    }
}

static uint64_t on_sample(void *ctx, const sample_view *v) {
    seen *s = ctx;
    s->n_samples++;
    uint64_t f[] = {v->cycle, v->seq, v->pc, v->state, v->level, v->cause_seq, v->issue.n, v->issue.stall};
    for (size_t k = 0; k < sizeof f / sizeof f[0]; k++) mix(&s->samples, f[k]);
    return 37; /* a sample every 37 cycles */
}

typedef struct timed {
    core_stats st;
    seen s;
} timed;

/* Time `n` µops on `core`, whose observer writes into *obs (cleared first). */
static timed run_on(core_t *core, seen *obs, const uop *u, size_t n) {
    memset(obs, 0, sizeof *obs);
    array_source src = array_source_borrow(u, n);
    core_run_options opt = {0, 0, NULL};
    timed t;
    cs_error err;
    if (!core_run(core, &src.base, &opt, &t.st, &err)) fail_msg("core_run: %s", err.msg);
    t.st.seconds = 0; /* the host's time */
    t.s = *obs;
    return t;
}

static core_t *observed_core(const uarch_config *cfg, seen *obs) {
    cs_error err;
    core_t *core = core_create(cfg, &err);
    if (!core) fail_msg("core_create: %s", err.msg);
    probe_observer o = {.ctx = obs,
                        .needs = PROBE_RETIRE | PROBE_EVENTS | PROBE_SAMPLES,
                        .retire = on_retire,
                        .events = on_events,
                        .sample_period = 37,
                        .sample = on_sample};
    if (!core_observe(core, &o, &err)) fail_msg("core_observe: %s", err.msg);
    return core;
}

static void assert_same(const timed *a, const timed *b, const char *what) {
    if (a->st.cycles != b->st.cycles)
        fail_msg("%s: %llu cycles after a reset, %llu on a new core", what, (unsigned long long)a->st.cycles,
                 (unsigned long long)b->st.cycles);
    if (memcmp(&a->st, &b->st, sizeof a->st)) fail_msg("%s: the statistics differ from a new core's", what);
    if (a->s.n_retire != b->s.n_retire || a->s.retire != b->s.retire)
        fail_msg("%s: the retired µops' records differ from a new core's", what);
    if (a->s.n_events != b->s.n_events || a->s.events != b->s.events)
        fail_msg("%s: the events (%llu) differ from a new core's (%llu)", what, (unsigned long long)a->s.n_events,
                 (unsigned long long)b->s.n_events);
    if (a->s.n_samples != b->s.n_samples || a->s.samples != b->s.samples)
        fail_msg("%s: the samples differ from a new core's", what);
}

/* `keeps_state`: the machine keeps something from one run to the next (caches, TLBs, a
 * predictor); inorder1 as shipped (perfect caches, no predictor, no TLB) keeps nothing. */
static void check(const uop *u, const char *config, const char *const *sets, bool keeps_state) {
    uarch_config cfg;
    cs_error err;
    uarch_config_default(&cfg);
    if (!uarch_config_load(&cfg, config, &err)) fail_msg("%s", err.msg);
    for (int i = 0; sets && sets[i]; i++)
        if (!uarch_config_set(&cfg, sets[i], &err)) fail_msg("%s", err.msg);
    char what[512];
    size_t at = (size_t)snprintf(what, sizeof what, "%s", config);
    for (int i = 0; sets && sets[i] && at < sizeof what; i++)
        at += (size_t)snprintf(what + at, sizeof what - at, " %s", sets[i]);
    seen obs_new, obs_used;
    core_t *fresh = observed_core(&cfg, &obs_new);
    timed want = run_on(fresh, &obs_new, u + HALF, HALF);
    core_destroy(fresh);
    /* the first stream, then the second without a reset: the state left behind shows */
    core_t *used = observed_core(&cfg, &obs_used);
    run_on(used, &obs_used, u, HALF);
    timed carried = run_on(used, &obs_used, u + HALF, HALF);
    if (keeps_state && carried.st.cycles == want.st.cycles && carried.s.retire == want.s.retire)
        fail_msg("%s: a core that ran a stream before times the next as a new one: the test sees no state", what);
    /* the first stream, reset, the second; and again (a reset after a reset) */
    for (int round = 0; round < 2; round++) {
        core_reset(used);
        run_on(used, &obs_used, u, HALF);
        core_reset(used);
        timed got = run_on(used, &obs_used, u + HALF, HALF);
        assert_same(&got, &want, what);
    }
    core_destroy(used);
}

static void test_reset_ooo(void **state) {
    (void)state;
    uop *u = workload_uops();
    check(u, "ooo4", NULL, true);
    check(u, "bdw", NULL, true); /* TLBs, a store buffer, prefetchers */
    check(u, "knl", NULL, true);
    const char *const sb_dram[] = {"core.store_buffer=4",
                                   "dram.enabled=yes",
                                   "memory.writebacks=yes",
                                   "l1d.mshrs=2",
                                   "l2.mshrs=3",
                                   "prefetch.dcache_stride=64",
                                   "prefetch.dcache_next_line=yes",
                                   "bpred.type=tage",
                                   NULL};
    check(u, "ooo4", sb_dram, true);
    const char *const tlbs[] = {"itlb.entries=4", "dtlb.entries=8", "l2tlb.entries=4096", "core.skip_idle=no", NULL};
    check(u, "ooo4", tlbs, true);
    free(u);
}

static void test_reset_inorder(void **state) {
    (void)state;
    uop *u = workload_uops();
    check(u, "inorder1", NULL, false);
    const char *const cached[] = {"ideal.icache=no", "ideal.dcache=no", "bpred.type=bimodal", NULL};
    check(u, "inorder1", cached, true);
    check(u, "inorder3", NULL, true);
    const char *const more[] = {"core.store_buffer=2", "dtlb.entries=4",
                                "l2tlb.entries=64",    "itlb.entries=2",
                                "bpred.type=gshare",   "inorder.value_prediction=yes",
                                "dram.enabled=yes",    NULL};
    check(u, "inorder3", more, true);
    free(u);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reset_ooo),
        cmocka_unit_test(test_reset_inorder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
