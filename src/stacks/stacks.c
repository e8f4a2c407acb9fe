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
 *  - Cheap per span: a stage view's component depends on a few of its bytes
 *    only (not on the blamed µop's seq or pc), and consecutive spans of a stage
 *    mostly share them (they differ in n, or in which µop is blamed): each stage
 *    keeps its last classification. What a cycle of an FP view adds depends on
 *    its first 16 bytes, and the FP view mostly alternates between two of them
 *    (an FP µop issued this cycle or not): the last two are kept with what one
 *    cycle adds and the cycles seen since, and the slots get the product when
 *    one is replaced and at the end (integers: the same sums, in another order).
 */
#include <pthread.h>
#include <stddef.h>
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

/* The component of a stage's lost slots depends on the view's stall and on the
 * first 8 bytes of its cause only (kind, level, state, op_class, latency: not
 * the µop's seq or pc): each stage keeps the last one classified. */
_Static_assert(offsetof(stall_cause, latency) == 4 && offsetof(stall_cause, seq) == 8, "classified cause bytes");
typedef struct class_memo {
    uint32_t stall;
    uint64_t cause; /* kind, level, state, op_class, latency */
    stack_component comp;
} class_memo;

static inline uint64_t cause_key(const stall_cause *c) {
    uint64_t k;
    memcpy(&k, c, sizeof k);
    return k;
}

static inline stack_component classify_memo(class_memo *m, const stage_view *v, bool literal) {
    uint64_t key = cause_key(&v->cause);
    if (v->stall != m->stall || key != m->cause) {
        m->stall = v->stall;
        m->cause = key;
        m->comp = classify(v, literal);
    }
    return m->comp;
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

/* An FP view: what one cycle adds to the FLOPS stack (account_fp) depends on its
 * first 16 bytes (units, issued, flops, non-FP µops on FP units, waiting, FP operations
 * outside the units, and the cause's kind, level, state, op_class, latency). */
_Static_assert(offsetof(fp_view, cause) == 8, "FP view key bytes");
typedef struct fp_memo {
    uint64_t key[2];
    uint64_t cycles;
    uint32_t flops;         /* FP operations per cycle, on the k units and outside them */
    uint32_t flops_outside; /* of them, outside the k units (a separate divider) */
    uint32_t n;             /* pairs in comp, per */
    uint8_t comp[4];        /* flops_component */
    uint64_t per[4];        /* slots per cycle */
} fp_memo;

/* The D-cache miss a stage last blamed, and the cycles it blamed it in. */
typedef struct miss_track {
    uint64_t seq;
    uint64_t seen;
} miss_track;

struct stacks_observer {
    uint32_t W;                   /* slots per cycle in a CPI stack */
    long_track lt[STACK_STAGES];  /* the long-latency µop each stage last blamed */
    miss_track mt[STACK_STAGES];  /* the D-cache miss each stage last blamed */
    uint32_t hit[OPC_COUNT];      /* in-order: a memory class's latency on an L1 hit (0: no cap) */
    bool caps_misses;             /* some hit[] is known: out of order, the accounting skips the cap */
    uint32_t k;                   /* FP units (FLOPS slots per cycle: 2k) */
    uint64_t carry[STACK_STAGES]; /* §III-A: µops beyond W, for the next cycle */
    uint64_t slots[STACK_STAGES][COMP_COUNT];
    uint64_t fslots[FLOPS_COUNT];
    uint64_t flops, flops_outside;
    stacks_result res;
    class_memo cmemo[STACK_STAGES]; /* each stage's last classification */
    fp_memo fmemo[2];               /* the last two FP view keys */
    uint32_t fmemo_next;            /* the one to look at first: not the one used last (they alternate) */
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

static void fp_effect(const stacks_observer *s, const fp_view *fp, fp_memo *m);

static inline void view_key(uint64_t key[2], const void *view) { memcpy(key, view, 2 * sizeof *key); }

static inline void fp_memo_flush(stacks_observer *s, fp_memo *m) {
    s->flops += (uint64_t)m->flops * m->cycles;
    s->flops_outside += (uint64_t)m->flops_outside * m->cycles;
    for (uint32_t i = 0; i < m->n; i++) s->fslots[m->comp[i]] += m->per[i] * m->cycles;
    m->cycles = 0;
}

/* Every memo starts as the all-zero view's (a real view: always valid), with no cycles. */
static void init_memos(stacks_observer *s) {
    static const stage_view zero_view;
    static const fp_view zero_fp;
    uint64_t key[2];
    for (int st = 0; st < STACK_STAGES; st++) {
        s->cmemo[st].stall = zero_view.stall;
        s->cmemo[st].cause = cause_key(&zero_view.cause);
        s->cmemo[st].comp = classify(&zero_view, st == STACK_COMMIT);
    }
    view_key(key, &zero_fp);
    for (int i = 0; i < 2; i++) {
        memcpy(s->fmemo[i].key, key, sizeof key);
        s->fmemo[i].cycles = 0;
        fp_effect(s, &zero_fp, &s->fmemo[i]);
    }
}

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
    /* the in-order model: a memory µop's latency on an L1 hit is its pipe's depth (the D-cache
     * access and the stall stage are within it), see miss_cycles() */
    if (info->cfg && info->model && !strcmp(info->model, "inorder")) {
        const inorder_config *io = &info->cfg->inorder;
        for (uint32_t p = 0; p < io->pipe_count; p++)
            for (int k = 0; k < OPC_COUNT; k++)
                if (is_mem_class((uint8_t)k) && (io->pipe[p].classes & (1u << k))) {
                    s->hit[k] = io->pipe[p].stages;
                    s->caps_misses |= s->hit[k] != 0;
                }
    }
    s->res.width = s->W;
    s->res.fp.units = info->fp_units;
    s->res.fp.vector = info->fp_vector ? info->fp_vector : 1;
    s->res.fp.peak_per_cycle = 2.0 * s->res.fp.units * s->res.fp.vector;
    s->res.fp.freq_ghz = info->freq_ghz;
    init_memos(s);
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
HOT void track_long(stacks_observer *s, int st, const stage_view *v, stack_component c, uint64_t lost, uint64_t rep) {
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

/* D-cache. What the perfect D-cache machine (§V-A) removes from a missing memory µop is its
 * latency beyond an L1 hit: the miss's stall S = latency - hit. A stage that blames the µop in N
 * cycles would, with the miss gone, blame it in N - S of them (the load-use wait a hit keeps:
 * on inorder3 a reader right behind a load waits one cycle for a hit too), so a D-cache
 * component holds at most S of a µop's blamed cycles per stage, and the others go to dependence,
 * the base pipeline latency of an L1 hit (blame_uop). Of `rep` cycles blamed on the µop: those
 * still within S. Only where the hit latency is known (the in-order model, s->hit); out of order
 * a miss keeps all its blamed cycles. */
HOT uint64_t miss_cycles(stacks_observer *s, int st, const stage_view *v, uint64_t rep) {
    uint32_t hit = s->hit[v->cause.op_class < OPC_COUNT ? v->cause.op_class : 0];
    if (!hit) return rep;
    miss_track *t = &s->mt[st];
    if (v->cause.seq != t->seq) *t = (miss_track){v->cause.seq, 0};
    uint64_t S = v->cause.latency > hit ? v->cause.latency - hit : 0;
    uint64_t left = S > t->seen ? S - t->seen : 0, in = rep < left ? rep : left;
    t->seen += rep;
    return in;
}

static inline bool is_dcache_comp(stack_component c) { return c >= COMP_DCACHE_L2 && c <= COMP_DCACHE_MEM; }

/* LOST slots a cycle for REP cycles, to component c: a missing memory µop's only up to its
 * cycles beyond a hit (miss_cycles, in order), the rest dependence; a long-latency µop tracked. */
HOT void charge_lost(stacks_observer *s, int st, const stage_view *v, stack_component c, uint64_t lost, uint64_t rep) {
    uint64_t *slot = s->slots[st];
    if (s->caps_misses && is_dcache_comp(c) && v->cause.kind == CAUSE_UOP) {
        uint64_t in = miss_cycles(s, st, v, rep);
        slot[c] += lost * in;
        slot[COMP_DEPEND] += lost * (rep - in);
        return;
    }
    slot[c] += lost * rep;
    if (st != STACK_COMMIT && (c == COMP_LONGLAT_INT || c == COMP_LONGLAT_FP)) track_long(s, st, v, c, lost, rep);
}

HOT void account_lost(stacks_observer *s, int st, const stage_view *v, uint64_t lost, uint64_t rep) {
    charge_lost(s, st, v, classify(v, st == STACK_COMMIT), lost, rep);
}

/* One stage for `rep` identical cycles. */
HOT void account_stage(stacks_observer *s, int st, const stage_view *v, uint64_t rep) {
    uint64_t W = s->W, n = v->n, *slot = s->slots[st];
    if (n < W && !s->carry[st]) { /* the common case */
        slot[COMP_BASE] += n * rep;
        charge_lost(s, st, v, classify_memo(&s->cmemo[st], v, st == STACK_COMMIT), W - n, rep);
        return;
    }
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

/* fp_effect: the slots one cycle of `fp` adds (Table III), as at most four
 * (component, slots) pairs, and its FP operations. */
static void fp_effect(const stacks_observer *s, const fp_view *fp, fp_memo *m) {
    uint64_t k = s->k;
    m->n = 0;
    /* every FP operation counts in the run's FLOPS; those on a separate divider take none of
     * the k units' slots, so only the units' own (fp->flops) make the base below */
    m->flops = (uint32_t)fp->flops + fp->flops_outside;
    m->flops_outside = fp->flops_outside;
#define ADD(c, x) (m->comp[m->n] = (uint8_t)(c), m->per[m->n++] = (x))
    if (!fp->issued && !fp->waiting && k) { /* the common case in integer code */
        ADD(FLOPS_FRONTEND, 2 * k);
        return;
    }
    if (!k) { /* no FP unit: no FLOPS possible */
        ADD(FLOPS_OTHER, 1);
        return;
    }
    uint64_t n = fp->issued < k ? fp->issued : k;
    uint64_t fl = fp->flops < 2 * n ? fp->flops : 2 * n; /* a <= 2 */
    ADD(FLOPS_BASE, fl);                                 /* line 2: f = a n m / (2 k v), v = m = 1 */
    ADD(FLOPS_NON_FMA, 2 * n - fl);                      /* line 5: (2 - a) n m / (2 k v) */
    if (n == k) return;                                  /* mask (line 7) is 0: m = v = 1 */
    uint64_t lost = 2 * (k - n);                         /* lines 8-18: (k - n) / k */
    if (fp->waiting && fp->nonflop_on_fpu) {             /* line 11, split by the slots actually taken */
        uint64_t nf = fp->nonflop_on_fpu < k - n ? fp->nonflop_on_fpu : k - n;
        ADD(FLOPS_NON_FP, 2 * nf);
        lost -= 2 * nf;
    }
    if (lost) ADD(classify_fp(fp), lost);
#undef ADD
}

/* `rep` cycles of FP view fp: by its key (fp_memo). */
static inline void account_fp(stacks_observer *s, const fp_view *fp, uint64_t rep) {
    uint64_t key[2];
    view_key(key, fp);
    uint32_t e = s->fmemo_next;
    fp_memo *m = &s->fmemo[e];
    if (key[0] != m->key[0] || key[1] != m->key[1]) {
        fp_memo *other = &s->fmemo[e ^ 1];
        if (key[0] == other->key[0] && key[1] == other->key[1]) {
            m = other;
            e ^= 1;
        } else { /* a new key replaces the one used least recently */
            fp_memo_flush(s, m);
            memcpy(m->key, key, sizeof key);
            fp_effect(s, fp, m);
        }
    }
    s->fmemo_next = e ^ 1;
    m->cycles += rep;
}

/* Stack index of each probe stage (-1: fetch has no stack). */
static const int stack_of[STAGE_COUNT] = {-1, STACK_DISPATCH, STACK_ISSUE, STACK_COMMIT};

static void obs_stages(void *ctx, const stage_span *sp, size_t n) {
    stacks_observer *s = ctx;
    if (!s->n_ends) { /* no interval end yet (the common case): each span in one step */
        _Static_assert(STAGE_ISSUE - STAGE_DISPATCH == STACK_ISSUE && STAGE_COMMIT - STAGE_DISPATCH == STACK_COMMIT,
                       "the stacked stages in order");
        for (size_t i = 0; i < n; i++) {
            unsigned st = (unsigned)sp[i].stage - STAGE_DISPATCH; /* fetch wraps around: no stack */
            if (st < STACK_STAGES) account_stage(s, (int)st, &sp[i].v, sp[i].cycles);
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
    for (int i = 0; i < 2; i++) fp_memo_flush(s, &s->fmemo[i]);
    r->flops = s->flops;
    r->flops_outside = s->flops_outside;
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
