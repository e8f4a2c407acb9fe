/* The stacks observer: Table II at dispatch, issue and commit, Table III for
 * FLOPS, fed only by the probe interface's stage spans and FP spans.
 *
 * Notes (how the accounting is kept exact and cheap):
 *  - Every counter is an integer number of slots. A CPI-stack slot is 1/W of a
 *    cycle (W = the narrowest of the dispatch, issue and commit widths, §III-A),
 *    so each cycle adds exactly W slots per stack: n to base, W - n to the one
 *    component blamed. A FLOPS-stack slot is 1/(2k) of a cycle (k FP units,
 *    v = 1), so each cycle adds exactly 2k slots. The stacks therefore sum to
 *    the cycle count exactly; the only rounding is the final slots/W division.
 *  - Carry-over (§III-A): a stage wider than W that processes n > W µops
 *    counts a full cycle and carries n - W into the next cycle's n.
 *  - A span of r cycles stands for r identical cycles; they are accounted in
 *    one step once the carry is used up. Each stage's accounting depends only
 *    on that stage's spans, in order, so spans of different stages may arrive
 *    in any interleaving.
 *  - Which component a lost slot goes to is decided from the view alone: the
 *    stage's stall type and the cause the core attached (see classify() and
 *    docs/stacks.md).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "stacks.h"

/* ---- names ---- */

static const char *const comp_names[COMP_COUNT] = {
#define COMP_NAME(id, name, doc) name,
    STACK_COMPONENT_LIST(COMP_NAME)
#undef COMP_NAME
};
static const char *const comp_docs[COMP_COUNT] = {
#define COMP_DOC(id, name, doc) doc,
    STACK_COMPONENT_LIST(COMP_DOC)
#undef COMP_DOC
};
static const char *const flops_names[FLOPS_COUNT] = {
#define FLOPS_NAME(id, name, doc) name,
    FLOPS_COMPONENT_LIST(FLOPS_NAME)
#undef FLOPS_NAME
};
static const char *const flops_docs[FLOPS_COUNT] = {
#define FLOPS_DOC(id, name, doc) doc,
    FLOPS_COMPONENT_LIST(FLOPS_DOC)
#undef FLOPS_DOC
};

const char *stack_component_name(stack_component c) { return (unsigned)c < COMP_COUNT ? comp_names[c] : "?"; }
const char *stack_component_doc(stack_component c) { return (unsigned)c < COMP_COUNT ? comp_docs[c] : "?"; }
const char *flops_component_name(flops_component c) { return (unsigned)c < FLOPS_COUNT ? flops_names[c] : "?"; }
const char *flops_component_doc(flops_component c) { return (unsigned)c < FLOPS_COUNT ? flops_docs[c] : "?"; }

const char *stack_stage_name(stack_stage s) {
    static const char *const names[STACK_STAGES] = {"dispatch", "issue", "commit"};
    return (unsigned)s < STACK_STAGES ? names[s] : "?";
}

/* ---- classification: which component a lost slot goes to ---- */

static bool is_fp_class(uint8_t cls) { return cls >= OPC_FP_ADD && cls <= OPC_FP_MISC; }
static bool is_mem_class(uint8_t cls) { return cls == OPC_LOAD || cls == OPC_STORE || cls == OPC_ATOMIC; }

/* A level (L2, L3, memory) as the offset from the L2 component: the L2, L3
 * and memory components of a cache are consecutive in the list. */
_Static_assert(COMP_ICACHE_L3 == COMP_ICACHE_L2 + 1 && COMP_ICACHE_MEM == COMP_ICACHE_L2 + 2, "I-cache levels");
_Static_assert(COMP_DCACHE_L3 == COMP_DCACHE_L2 + 1 && COMP_DCACHE_MEM == COMP_DCACHE_L2 + 2, "D-cache levels");
static inline unsigned level_offset(uint8_t level) {
    return level <= LEVEL_L2 ? 0 : level >= LEVEL_MEM ? 2 : level - LEVEL_L2;
}

/* A blamed µop (the ROB head, or the producer of the first non-ready µop),
 * Table II lines 11-16: a D-cache miss (its access was served below the L1),
 * else a long latency (> 1 cycle), else dependence. A memory µop that hit
 * the L1 (or has not accessed yet) counts as dependence: the L1 hit latency
 * is part of the base pipeline latency, as in Sniper, and neither a perfect
 * D-cache nor 1-cycle arithmetic removes it.
 * `literal` (the commit stack) follows Table II to the letter: any blamed µop
 * with a latency above one cycle is long latency. Otherwise (dispatch, issue)
 * only while it executes: a long-latency µop still waiting for its operands
 * or for issue holds things up because of its producers (dependence); and
 * only for its latency beyond one cycle, see account_lost(). */
static inline stack_component blame_uop(const stall_cause *c, bool literal) {
    if (c->state == UOPST_TRANSLATING) return COMP_DTLB; /* the cycles of its DTLB miss, before the cache */
    if (c->level >= LEVEL_L2) return (stack_component)(COMP_DCACHE_L2 + level_offset(c->level));
    if (is_mem_class(c->op_class)) return COMP_DEPEND;
    if (c->latency > 1 && (literal || c->state == UOPST_EXECUTING))
        return is_fp_class(c->op_class) ? COMP_LONGLAT_FP : COMP_LONGLAT_INT;
    return COMP_DEPEND;
}

/* The rule for a stall and the kind of its cause; COMP_COUNT: judge the
 * blamed µop (blame_uop). Evaluated once per pair into a table. */
static stack_component rule(probe_stall stall, cause_kind kind) {
    /* the structural stalls only issue sees */
    switch (stall) {
    case STALL_MEM_ORDER: return COMP_MEM_ORDER; /* the cause is the older store the load waits for */
    case STALL_NO_MSHR: return COMP_DCACHE_MEM;  /* every L1D miss register is held by an outstanding miss */
    case STALL_NO_UNIT:
        /* a busy unit with a µop to blame (an in-order pipe frozen by the miss of the µop in it)
         * is that µop's, or the store buffer's (an in-order store waiting for an entry); with
         * none (CAUSE_STRUCTURE), a structural stall */
        if (kind != CAUSE_UOP && kind != CAUSE_STORE_BUFFER) return COMP_NO_UNIT;
        break;
    default: break;
    }
    switch (kind) {
    case CAUSE_ICACHE: return COMP_ICACHE_L2; /* + the level's offset */
    case CAUSE_ITLB: return COMP_ITLB;
    case CAUSE_BPRED: return COMP_BPRED;
    case CAUSE_FRONTEND: return COMP_FRONTEND;
    case CAUSE_STORE_BUFFER: return COMP_STORE_BUFFER;
    case CAUSE_UOP: return COMP_COUNT;
    default: return COMP_OTHER; /* CAUSE_NONE, CAUSE_STRUCTURE (a full fetch buffer), CAUSE_TRACE_END (the drain) */
    }
}

enum { KINDS = 16 };
static uint8_t rule_table[STALL_COUNT + 1][KINDS]; /* row STALL_COUNT: any out-of-range stall */
static pthread_once_t rule_once = PTHREAD_ONCE_INIT;

static void build_rules(void) {
    for (int st = 0; st <= STALL_COUNT; st++) {
        probe_stall stall = st < STALL_COUNT ? (probe_stall)st : STALL_NONE;
        for (int k = 0; k < KINDS; k++)
            rule_table[st][k] = (uint8_t)(k > CAUSE_STORE_BUFFER ? COMP_OTHER : rule(stall, (cause_kind)k));
    }
}

static inline stack_component classify(const stage_view *v, bool literal) {
    unsigned st = v->stall < STALL_COUNT ? v->stall : STALL_COUNT, k = v->cause.kind & (KINDS - 1);
    unsigned c = rule_table[st][k];
    if (c == COMP_COUNT) return blame_uop(&v->cause, literal);
    if (c == COMP_ICACHE_L2) c += level_offset(v->cause.level);
    return (stack_component)c;
}

static flops_component classify_fp(const fp_view *fp) {
    if (!fp->waiting) return FLOPS_FRONTEND; /* Table III line 9: no FP work in the issue queue */
    if (fp->cause.kind != CAUSE_UOP) return FLOPS_OTHER;
    if (fp->cause.op_class == OPC_LOAD || fp->cause.op_class == OPC_ATOMIC) return FLOPS_MEMORY; /* lines 14-16 */
    if (fp->cause.state == UOPST_READY) return FLOPS_OTHER; /* ready FP work left unissued: structural */
    return FLOPS_DEPEND;
}

/* ---- the observer ---- */

typedef struct long_track {
    uint64_t seq;   /* the µop */
    uint64_t seen;  /* cycles the stage blamed it in */
    uint64_t first; /* slots lost in the first of them */
    stack_component comp;
    bool settled; /* the first cycle has been moved to dependence */
} long_track;

struct stacks_observer {
    uint32_t W;                   /* slots per cycle in a CPI stack */
    long_track lt[STACK_STAGES];  /* the long-latency µop each stage last blamed */
    uint32_t k;                   /* FP units (FLOPS slots per cycle: 2k) */
    uint64_t carry[STACK_STAGES]; /* §III-A: µops beyond W, for the next cycle */
    uint64_t slots[STACK_STAGES][COMP_COUNT];
    uint64_t fslots[FLOPS_COUNT];
    uint64_t flops;
    stacks_result res;
    /* --interval: interval ends (cycles), per stage the next one not yet
     * passed, the slots of each stage at each end, the statistics there */
    uint64_t every;
    size_t n_ends, cap, next_end[STACK_STAGES];
    uint64_t *end_cycle;
    uint64_t (*end_slots)[STACK_STAGES][COMP_COUNT];
    core_stats *end_stats;
    stacks_intervals iv;
};

static const probe_stage stage_of[STACK_STAGES] = {STAGE_DISPATCH, STAGE_ISSUE, STAGE_COMMIT};

stacks_observer *stacks_observer_create(void) {
    pthread_once(&rule_once, build_rules);
    stacks_observer *s = cs_calloc(1, sizeof *s);
    if (s) s->W = 1;
    return s;
}

static void free_intervals(stacks_observer *s) {
    free(s->end_cycle);
    free(s->end_slots);
    free(s->end_stats);
    free(s->iv.at);
    s->end_cycle = NULL, s->end_slots = NULL, s->end_stats = NULL, s->iv.at = NULL;
    s->n_ends = s->cap = 0;
    s->iv.count = 0;
}

void stacks_observer_destroy(stacks_observer *s) {
    if (!s) return;
    free_intervals(s);
    free(s);
}

void stacks_observer_set_interval(stacks_observer *s, uint64_t every) { s->every = every; }

const stacks_intervals *stacks_observer_intervals(const stacks_observer *s) { return &s->iv; }

static void obs_begin(void *ctx, const probe_run_info *info) {
    stacks_observer *s = ctx;
    uint64_t every = s->every;
    free_intervals(s);
    memset(s, 0, sizeof *s);
    s->every = every;
    s->iv.every = every;
    uint32_t w = 0;
    for (int st = 0; st < STACK_STAGES; st++) {
        uint32_t x = info->width[stage_of[st]];
        if (x && (!w || x < w)) w = x;
    }
    s->W = w ? w : 1;
    s->k = info->fp_units;
    s->res.width = s->W;
    s->res.fp.units = info->fp_units;
    s->res.fp.vector = info->fp_vector ? info->fp_vector : 1;
    s->res.fp.peak_per_cycle = 2.0 * s->res.fp.units * s->res.fp.vector;
    s->res.fp.freq_ghz = info->freq_ghz;
}

/* `lost` slots in each of `rep` identical stalled cycles of a stage.
 *
 * Long latency. What the 1-cycle-ALU machine (§IV) removes is a µop's latency
 * beyond one cycle. An operation of latency L executes in L cycles, the first
 * its issue cycle, and a 1-cycle operation would have held the stage in that
 * one too; so in the dispatch and issue stacks, when the stage blames one
 * executing µop in all L cycles of its execution, the first of them goes to
 * dependence and the others to long latency (when it blames it in fewer, all
 * to long latency). The first cycle is charged to long latency and moved once
 * the L-th is seen. The commit stack keeps Table II as written and charges
 * every blamed cycle. The two bracket the truth: counting beyond one cycle is
 * exact for a serial chain (nothing else could use the issue cycle) and low
 * when independent work would fill that cycle on the faster machine; counting
 * it all is 1.5x too high on a chain of 3-cycle multiplies. This is the
 * paper's dispatch-optimistic, commit-pessimistic split for backend stalls
 * (§III-A), made explicit for latency (docs/stacks.md, docs/validation.md). */
#define HOT static inline __attribute__((always_inline))
HOT void account_lost(stacks_observer *s, int st, const stage_view *v, uint64_t lost, uint64_t rep) {
    bool literal = st == STACK_COMMIT;
    stack_component c = classify(v, literal);
    s->slots[st][c] += lost * rep;
    if (literal || (c != COMP_LONGLAT_INT && c != COMP_LONGLAT_FP)) return;
    long_track *t = &s->lt[st];
    if (v->cause.seq != t->seq) *t = (long_track){v->cause.seq, 0, lost, c, false};
    if (t->settled) return;
    t->seen += rep;
    if (t->seen >= v->cause.latency) { /* the whole execution: its first cycle was the issue cycle */
        s->slots[st][t->comp] -= t->first;
        s->slots[st][COMP_DEPEND] += t->first;
        t->settled = true;
    }
}

/* One stage for `rep` identical cycles. */
HOT void account_stage(stacks_observer *s, int st, const stage_view *v, uint64_t rep) {
    uint64_t W = s->W, n = v->n, *slot = s->slots[st];
    if (n >= W) { /* a full cycle; the excess waits for the next one */
        slot[COMP_BASE] += W * rep;
        s->carry[st] += (n - W) * rep;
        return;
    }
    /* n < W: the carry shrinks by W - n a cycle; use it up one cycle at a time */
    while (s->carry[st] && rep) {
        uint64_t m = n + s->carry[st];
        if (m >= W) {
            slot[COMP_BASE] += W;
            s->carry[st] = m - W;
        } else {
            slot[COMP_BASE] += m;
            account_lost(s, st, v, W - m, 1);
            s->carry[st] = 0;
        }
        rep--;
    }
    if (!rep) return;
    slot[COMP_BASE] += n * rep;
    account_lost(s, st, v, W - n, rep);
}

static inline void account_fp(stacks_observer *s, const fp_view *fp, uint64_t rep) {
    uint64_t k = s->k;
    if (!fp->issued && !fp->waiting && k) { /* the common case in integer code */
        s->fslots[FLOPS_FRONTEND] += 2 * k * rep;
        return;
    }
    if (!k) { /* no FP unit: no FLOPS possible */
        s->fslots[FLOPS_OTHER] += rep;
        return;
    }
    uint64_t n = fp->issued < k ? fp->issued : k;
    uint64_t fl = fp->flops < 2 * n ? fp->flops : 2 * n; /* a <= 2 */
    s->flops += (uint64_t)fp->flops * rep;
    s->fslots[FLOPS_BASE] += fl * rep;              /* line 2: f = a n m / (2 k v), v = m = 1 */
    s->fslots[FLOPS_NON_FMA] += (2 * n - fl) * rep; /* line 5: (2 - a) n m / (2 k v) */
    if (n == k) return;                             /* mask (line 7) is 0: m = v = 1 */
    uint64_t lost = 2 * (k - n);                    /* lines 8-18: (k - n) / k */
    if (fp->waiting && fp->nonflop_on_fpu) {        /* line 11, split by the slots actually taken */
        uint64_t nf = fp->nonflop_on_fpu < k - n ? fp->nonflop_on_fpu : k - n;
        s->fslots[FLOPS_NON_FP] += 2 * nf * rep;
        lost -= 2 * nf;
    }
    if (lost) s->fslots[classify_fp(fp)] += lost * rep;
}

/* Stack index of each probe stage (-1: fetch has no stack). */
static const int stack_of[STAGE_COUNT] = {-1, STACK_DISPATCH, STACK_ISSUE, STACK_COMMIT};

static void obs_stages(void *ctx, const stage_span *sp, size_t n) {
    stacks_observer *s = ctx;
    if (!s->n_ends) { /* no interval end yet (the common case): each span in one step */
        for (size_t i = 0; i < n; i++) {
            int st = sp[i].stage < STAGE_COUNT ? stack_of[sp[i].stage] : -1;
            if (st >= 0) account_stage(s, st, &sp[i].v, sp[i].cycles);
        }
        return;
    }
    for (size_t i = 0; i < n; i++) {
        int st = sp[i].stage < STAGE_COUNT ? stack_of[sp[i].stage] : -1;
        if (st < 0) continue;
        uint64_t c = sp[i].cycle, r = sp[i].cycles;
        /* a span past an interval's end: its cycles up to the end belong to that interval */
        while (s->next_end[st] < s->n_ends && c + r > s->end_cycle[s->next_end[st]]) {
            uint64_t end = s->end_cycle[s->next_end[st]];
            if (c < end) {
                account_stage(s, st, &sp[i].v, end - c);
                r -= end - c;
                c = end;
            }
            memcpy(s->end_slots[s->next_end[st]++][st], s->slots[st], sizeof s->slots[st]);
        }
        account_stage(s, st, &sp[i].v, r);
    }
}

/* PROBE_INTERVALS: an interval ends after cycle so_far->cycles - 1. */
static void obs_interval(void *ctx, const core_stats *so_far) {
    stacks_observer *s = ctx;
    if (s->n_ends == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->end_cycle = cs_realloc(s->end_cycle, cs_array_size(s->cap, sizeof *s->end_cycle));
        s->end_slots = cs_realloc(s->end_slots, cs_array_size(s->cap, sizeof *s->end_slots));
        s->end_stats = cs_realloc(s->end_stats, cs_array_size(s->cap, sizeof *s->end_stats));
    }
    s->end_cycle[s->n_ends] = so_far->cycles;
    s->end_stats[s->n_ends] = *so_far;
    s->n_ends++;
}

/* The intervals from the ends and the final state. */
static void finish_intervals(stacks_observer *s, const core_stats *stats) {
    for (int st = 0; st < STACK_STAGES; st++) /* ends no span reached past: the stage ended there */
        while (s->next_end[st] < s->n_ends)
            memcpy(s->end_slots[s->next_end[st]++][st], s->slots[st], sizeof s->slots[st]);
    size_t n = s->n_ends + (stats->cycles > (s->n_ends ? s->end_cycle[s->n_ends - 1] : 0));
    s->iv.at = cs_calloc(n ? n : 1, sizeof *s->iv.at);
    core_stats zero;
    memset(&zero, 0, sizeof zero);
    static const uint64_t no_slots[STACK_STAGES][COMP_COUNT];
    for (size_t k = 0; k < n; k++) {
        const core_stats *a = k < s->n_ends ? &s->end_stats[k] : stats, *b = k ? &s->end_stats[k - 1] : &zero;
        /* both arms const-qualified: clang rejects a conditional between differently qualified arrays */
        const uint64_t(*sa)[COMP_COUNT] =
            k < s->n_ends ? (const uint64_t(*)[COMP_COUNT])s->end_slots[k] : (const uint64_t(*)[COMP_COUNT])s->slots;
        const uint64_t(*sb)[COMP_COUNT] = k ? (const uint64_t(*)[COMP_COUNT])s->end_slots[k - 1] : no_slots;
        stacks_interval *x = &s->iv.at[k];
        x->first_cycle = b->cycles;
        x->cycles = a->cycles - b->cycles;
        x->instructions = a->instructions - b->instructions;
        x->mispredicts = a->mispredicts - b->mispredicts;
        x->l1i_misses = a->l1i.misses - b->l1i.misses;
        x->l1d_misses = a->l1d.misses - b->l1d.misses;
        x->l2_misses = a->l2.misses - b->l2.misses;
        x->l3_misses = a->l3.misses - b->l3.misses;
        x->flops = a->flops - b->flops;
        for (int st = 0; st < STACK_STAGES; st++)
            for (int c = 0; c < COMP_COUNT; c++)
                x->stage[st].cycles[c] = ((double)sa[st][c] - (double)sb[st][c]) / s->W;
    }
    s->iv.count = n;
}

static void obs_fp(void *ctx, const fp_span *sp, size_t n) {
    stacks_observer *s = ctx;
    for (size_t i = 0; i < n; i++) account_fp(s, &sp[i].v, sp[i].cycles);
}

static void obs_end(void *ctx, const core_stats *stats) {
    stacks_observer *s = ctx;
    stacks_result *r = &s->res;
    r->cycles = stats->cycles;
    r->instructions = stats->instructions;
    r->flops = s->flops;
    for (int st = 0; st < STACK_STAGES; st++)
        for (int c = 0; c < COMP_COUNT; c++) r->stage[st].cycles[c] = (double)s->slots[st][c] / s->W;
    double per = s->k ? 2.0 * s->k : 1.0;
    for (int c = 0; c < FLOPS_COUNT; c++) r->fp.cycles[c] = (double)s->fslots[c] / per;
    if (s->every) finish_intervals(s, stats);
}

probe_observer stacks_observer_probe(stacks_observer *s) {
    probe_observer o = {.ctx = s,
                        .needs = PROBE_STAGES | PROBE_FP,
                        .begin = obs_begin,
                        .stages = obs_stages,
                        .fp = obs_fp,
                        .end = obs_end};
    if (s->every) {
        o.needs |= PROBE_INTERVALS;
        o.interval_insns = s->every;
        o.interval = obs_interval;
    }
    return o;
}

const stacks_result *stacks_observer_result(const stacks_observer *s) { return &s->res; }
