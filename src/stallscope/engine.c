/* The Stallscope engine: stall sets, µop stall histories read as MultiStacks,
 * the completion stage's stall accumulator and the hierarchical tree.
 *
 * Notes (what this simplifies, and why):
 *  - An execution stall event is (µop, position in its stall history). A µop's
 *    history is its wait intervals (probes' wait transitions): each cycle in a
 *    stalling state is one event, so a stall of 200 cycles costs one interval,
 *    not 200 records. Which producer event an operand-wait event popped is
 *    computed when a chain is walked, from the two histories (§3.5 rule below).
 *  - The MultiStack rule, per reader (a consumer waiting for its producer P,
 *    or completion reading the ROB head): in each cycle it pops the most recent
 *    event of P it has not popped yet — the one P pushed the cycle before if P
 *    is still stalling, else the next older one. Nothing is removed from P.
 *    When P's history is exhausted the reader's event is a leaf: "too close"
 *    (P has not run longer than the characteristic minimum latency, the
 *    integer ALU's), or "long executing" (it has).
 *  - §6.1: the events of one consecutive wait on P are laid out in P's order
 *    (older P events first), the leaves on top: a later reader pops the event
 *    caused by P's most recent event first (Figure 6).
 *  - A chain is walked when completion accumulates it, with every history as
 *    it was at that commit cycle.
 *  - Completion (§3.7): ROB empty (1) takes the dispatch stage's empty-stall
 *    cause, which is fetch's (the probe views carry it); the head not finished
 *    (2a) pops the head's history under the unique-leaf rule (§6.2); exhausted,
 *    a head that has executed longer than the minimum latency is long
 *    executing (2c), else the ROB was nearly empty (2b): the most recent
 *    dispatch empty stall not yet taken. Neither model has completion
 *    interlocks (3).
 *  - One commit cycle's lost opportunities (width − committed) share one chain.
 */
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "stallscope.h"
#include "util/util.h"

/* ---- stall sets, one per component (§3.3) -------------------------------------------- */

enum { C_ROB_EMPTY, C_HEAD_NOT_DONE, C_NEARLY_EMPTY, C_TOO_CLOSE, C_START, C_COUNT };
static const ss_type_def completion_set[C_COUNT] = {
    {"rob-empty", 0},        /* 1: nothing to complete */
    {"head-not-done", 0},    /* 2a: the oldest µop's stall history */
    {"rob-nearly-empty", 0}, /* 2b: the empty-stall history */
    {"too-close", SS_LEAF},  /* 2b with no empty stall to blame */
    {"run-start", SS_LEAF},  /* the window empty before anything was fetched */
};

enum { D_FRONTEND_EMPTY, D_OTHER, D_COUNT };
static const ss_type_def dispatch_set[D_COUNT] = {
    {"frontend-empty", 0},
    {"other", SS_LEAF},
};

enum { F_ICACHE_L1, F_ICACHE_L2, F_ICACHE_L3, F_ICACHE_MEM, F_ITLB, F_REFILL, F_BANDWIDTH, F_TRACE_END, F_COUNT };
static const ss_type_def fetch_set[F_COUNT] = {
    {"icache-miss", SS_LEAF},     {"icache-miss-l2", SS_LEAF},
    {"icache-miss-l3", SS_LEAF},  {"icache-miss-mem", SS_LEAF},
    {"itlb-miss", SS_LEAF},       {"mispredict-refill", 0}, /* empty stalls after a flush (§3.6) */
    {"fetch-bandwidth", SS_LEAF},                           /* taken branches, line ends, decode latency */
    {"trace-end", SS_LEAF},
};

enum { FL_MISPREDICT, FL_COND_TAKEN, FL_COND_NOT_TAKEN, FL_DIRECT, FL_INDIRECT, FL_RETURN, FL_COUNT };
static const ss_type_def flush_set[FL_COUNT] = {
    {"branch-mispredict", SS_INFO}, /* the summary event in front of the kinds (§5) */
    {"cond-taken", SS_LEAF | SS_GLOBAL}, {"cond-not-taken", SS_LEAF | SS_GLOBAL}, {"direct", SS_LEAF | SS_GLOBAL},
    {"indirect", SS_LEAF | SS_GLOBAL},   {"return", SS_LEAF | SS_GLOBAL},
};

enum {
    E_OPERAND,
    E_QUEUED,
    E_MEM_ORDER,
    E_PIPE_BUSY,
    E_ISSUE_WIDTH,
    E_NO_UNIT,
    E_NO_MSHR,
    E_DMISS_L1,
    E_DMISS_L2,
    E_DMISS_L3,
    E_DMISS_MEM,
    E_TOO_CLOSE,
    E_EXPIRED,
    E_CHAIN,
    E_TRUNCATED,
    E_LONG_UNKNOWN,
    E_POOR_SCHED,
    E_LONG_EXEC, /* + op class */
    /* after the classes, so that the ids of the types above (and every digest) stay */
    E_STORE_BUFFER = E_LONG_EXEC + OPC_COUNT,
    E_SB_L1,
    E_SB_L2,
    E_SB_L3,
    E_SB_MEM,
    E_DTLB,
    E_COUNT
};
static ss_type_def exec_set[E_COUNT] = {
    {"operand-wait", 0},      /* §3.5: the producer's history */
    {"in-order-queue", 0},    /* behind an older µop that has not issued (up-queue, §3.4) */
    {"mem-order", 0},         /* a load behind an older store */
    {"pipe-busy", 0},         /* the unit or pipe held by a µop (an unpipelined divide, an in-order pipe) */
    {"issue-width", SS_LEAF}, /* ready, no issue slot */
    {"no-unit", SS_LEAF},
    {"mshrs-full", SS_LEAF},
    {"dcache-miss", SS_LEAF},
    {"dcache-miss-l2", SS_LEAF},
    {"dcache-miss-l3", SS_LEAF},
    {"dcache-miss-mem", SS_LEAF},
    {"too-close", SS_LEAF},       /* the producer's minimum latency had not elapsed */
    {"history-expired", SS_LEAF}, /* the chain reached a µop no longer kept (§6.3) */
    /* a chain of operand waits longer than the history kept: each link waited for the one
     * before it to run its minimum latency — the dependence chain itself (§6.3) */
    {"too-close-chain", SS_LEAF},
    {"truncated", 0}, /* marks the snipped middle of a long chain (§6.3) */
    {"long-executing", SS_LEAF},
    /* informational (§5, "poor scheduling"), in front of an issue-width leaf when a younger
     * µop issued in that cycle: an oldest-first choice would have issued this one */
    {"poor-scheduling", SS_INFO},
    /* issue 12: a done store cannot commit, the store buffer is full (a full structure, §3.4):
     * its cause is the buffer's oldest store, waiting for its line — the leaf names where the
     * line comes from by the store's program-order classification (memsys_classify): l1 when
     * an older store or a prefetch allocated it, whose fill may still be in flight */
    [E_STORE_BUFFER] = {"store-buffer", 0},
    [E_SB_L1] = {"store-line-l1", SS_LEAF},
    [E_SB_L2] = {"store-line-l2", SS_LEAF},
    [E_SB_L3] = {"store-line-l3", SS_LEAF},
    [E_SB_MEM] = {"store-line-mem", SS_LEAF},
    /* a memory µop translating its address after a DTLB miss (second-level TLB, page walk) */
    [E_DTLB] = {"dtlb-miss", SS_LEAF},
};

/* ---- the engine's state ---------------------------------------------------------------- */

enum {
    /* µops kept: the window plus what chains reach back to. 2048 (16 ooo4 ROBs, 10 bdw ROBs)
     * gives the same results as 32768 on the workloads of bench/stallscope_identity.sh (1 M
     * instructions) but dep_add, where a handful of the 4.1 M lost opportunities move (its
     * serial chain reaches past the ring and is cut, §6.3), at a sixteenth of the memory; the
     * ring and the leaf set stay in the host's caches */
    RING_BITS = 11,
    RING = 1 << RING_BITS,
    PATH_HEAD = 24, /* events kept at the beginning of a truncated chain (§6.3) */
    PATH_TAIL = 8,  /* and at its end */
    WALK_MAX = 2048,
    DHIST = 4096,      /* dispatch empty-stall spans kept for 2b */
    ISSUE_HIST = 4096, /* cycles whose youngest issued µop is kept (poor scheduling) */
    TWIG_MAX = 8,      /* levels of the inverted tree kept */
};

/* One interval of a µop's wait states (a seq fits in 48 bits). */
typedef struct ss_iv {
    uint64_t start;
    uint64_t cause : 48, state : 8, level : 8;
    /* stall events in the intervals before it: fixed once it exists (they are closed, and
     * what their counts read — their starts, states, the µop's issue — no longer changes),
     * so the chain walks find a position's interval and a stack size without recounting
     * every interval before it */
    uint64_t before;
} ss_iv;

enum { MEMO_WAYS = 4 };
typedef struct chain_end {
    bool expired;
    uint8_t ntail;
    uint32_t len;
    uint32_t q; /* the event (position) it is for (positions past 2^32 are never remembered) */
    uint16_t tail[8];
    uint64_t key; /* its leaf's key (seq << 20 | position; the leaf µop is key >> 20), 0: none */
} chain_end;

typedef struct rlayout {
    uint64_t S, D, M, E, longc, npa;
} rlayout;

/* What a chain walk found at one step (link k: the µop k links down from the head), kept for the
 * next walk at the same cycle: completion refuses candidate after candidate of one head under
 * §6.2, and a serial chain's neighbouring positions run down the same µops one position apart,
 * each step a search for the interval holding the position and its layout (a checksum loop's
 * heads refused ~35 candidates of 30-65 links each). The interval holding a position, its
 * layout and producer depend only on the histories and the cycle: valid while the cycle and the
 * input (s->in_gen) are the same (stamp). dead_from does not use it: filled by every search
 * level, it cost fp_chain 4 % more host instructions than it saved. */
enum { STEP_CACHE = 64 };
typedef struct step_cache {
    const struct ss_uop *u;
    uint64_t stamp;
    uint64_t base, end; /* positions [base, end) of u's history as of the cycle are interval i's */
    uint64_t q;         /* the position the last walk through this entry was at (wk_popped) */
    /* set by a walk through it: interval i reads producer pr (kept), the walk pushes `type` there */
    struct ss_uop *pr;
    uint32_t type;
    uint32_t i;
    bool closed;  /* interval i is closed by the cycle (the next one began): a chain end can be kept */
    bool has_lay; /* lay is interval i's reader layout */
    rlayout lay;
} step_cache;

enum { USED_BITS = 256 }; /* leaf positions of a kept µop answered from its own bitmap */
enum { IV_INLINE = 4 };   /* wait intervals kept in the slot itself (most µops have no more) */
enum { DF_WAYS = 4 };     /* dead_from's failures remembered per µop (8: 0.7 % fewer host instructions) */
typedef struct ss_uop {
    /* what a new µop resets comes first: two cache lines, not the whole slot */
    uint64_t seq; /* 0: empty slot */
    ss_iv *iv;    /* its wait intervals: iv_in, or iv_heap when there are more */
    uint64_t pc, issue, complete;
    /* completion's reader of its history while it is the ROB head */
    uint64_t cr_lo, cr_hi;
    /* the positions from the bottom of its history known to lead to leaves already
     * accumulated (§6.2), over intervals [0, up_iv) and up_off events of up_iv */
    uint64_t up_count, up_off;
    /* used_prefix found nothing new for it, at call depth up_stuck_depth, when the engine's
     * up_gen was up_stuck_gen: asked again at that depth or deeper before any prefix moves, the
     * answer is the same (see used_prefix) */
    uint64_t up_stuck_gen;
    /* hot-spot weight of its leaves accumulated before its pc was known */
    uint64_t hot_weight;
    uint32_t hot_type;
    uint32_t up_iv;
    uint32_t up_stuck_depth;
    uint32_t encoding;
    /* positions (low 20 bits) of its leaf keys put in the used set while it was kept,
     * [used_lo, used_hi): a key outside cannot be in the set (saves the set's cache miss) */
    uint32_t used_lo, used_hi, used_n; /* used_n: how many distinct positions were added */
    /* the range is full and its positions past USED_BITS are not in the set (used_add) */
    bool used_virtual;
    /* the layout of its last closed reader interval walked through (lay_iv + 1; 0: none) */
    uint32_t lay_iv;
    uint16_t n_iv, cap_iv;
    uint8_t op_class;
    bool retired; /* its record arrived: pc and class known */
    bool cr_init;
    uint8_t memo_valid;                 /* which ways of memo hold a chain end */
    uint8_t df_valid;                   /* which ways of df_fail_q hold a failure (in the padding) */
    uint64_t used_bits[USED_BITS / 64]; /* which of its first positions are in the used set */
    ss_iv iv_in[IV_INLINE];
    /* kept from µop to µop in this slot (not reset) */
    ss_iv *iv_heap;
    uint32_t heap_cap;
    rlayout lay;
    /* where the chains from a few of its events end (§6.3) */
    chain_end memo[MEMO_WAYS];
    /* dead_from's searches from its positions df_fail_q[k] failed for good at call depth
     * df_fail_depth[k] (way k = position % DF_WAYS, valid if bit k of df_valid): see dead_from */
    uint32_t df_fail_q[DF_WAYS];
    uint8_t df_fail_depth[DF_WAYS];
} ss_uop;

typedef struct dspan {
    uint64_t cycle, cycles, pos; /* pos: empty-stall instances before this span */
    uint64_t floor;              /* the first instance since the last flush before it (§3.7) */
    stall_cause cause;
} dspan;

typedef struct type_info {
    char *name;
    uint8_t flags;
} type_info;

typedef struct tree {
    ss_node *node;
    uint32_t count, cap;
    uint32_t *hash; /* open addressing: (parent, type) -> node id; 0 empty */
    uint32_t hash_cap;
} tree;

typedef struct chain_rec {
    uint64_t hash, weight;
    uint64_t first; /* its types: chain_type[first, first + n) */
    uint32_t n;
    uint32_t violations; /* §3.3: leaf types not at its end, or a non-leaf type at its end */
} chain_rec;

typedef struct hot {
    uint64_t pc, weight;
    uint32_t encoding, type;
    uint64_t by_type_w; /* weight of `type` at this pc */
} hot;

typedef struct leafkey_set {
    uint64_t *key; /* 0 empty */
    uint64_t cap, count;
} leafkey_set;

struct stallscope {
    ss_options opt;
    ss_machine m;
    type_info *types;
    uint32_t n_types, cap_types;
    uint32_t base_completion, base_dispatch, base_fetch, base_flush, base_exec;

    ss_uop *ring;
    uint64_t newest_seq;

    /* commit spans waiting to be accounted, in order */
    stage_span *cq;
    uint64_t cq_head, cq_count, cq_cap;
    uint64_t commit_done; /* cycles accounted */
    uint64_t dispatch_cov;

    /* dispatch empty-stall history (2b) and its reader */
    dspan dh[DHIST];
    uint64_t dh_count, dh_pos; /* spans seen; instances seen */
    /* nearly_empty_cause's last answer: the newest span starting before cycle ne_t is ne_k
     * (ne_t 0: none yet) */
    uint64_t ne_t;
    int64_t ne_k;
    uint64_t nr_lo, nr_hi;
    uint64_t flush_seq, flush_floor; /* the last flush's branch and its refill's first instance */

    /* per recent cycle, the youngest µop that issued in it (poor scheduling) */
    uint64_t issue_cycle[ISSUE_HIST], issue_youngest[ISSUE_HIST];

    /* mispredicts: seq -> kind, taken */
    uint64_t misp_seq[1024];
    uint8_t misp_kind[1024];

    tree t, inv;
    /* the unique chains accumulated (§3.8), each with its weight: a commit cycle's chain is
     * looked up once (a hash of its types) and the trees and node totals are built from the
     * unique chains when the run ends, not node by node every cycle */
    chain_rec *chain;
    uint32_t n_chain, cap_chain;
    uint32_t *chain_hash; /* open addressing: chain id + 1; 0 empty */
    uint32_t chain_hash_cap;
    uint32_t *chain_type; /* the types of every unique chain, one after another */
    uint64_t n_chain_type, cap_chain_type;
    uint64_t *node_total;
    uint32_t *stamp;
    uint32_t stamp_now;
    uint64_t *leaf_total;

    hot *hot;
    uint64_t hot_cap, hot_count;
    ss_hotspot *hot_sorted;
    uint32_t hot_sorted_count;

    leafkey_set used;
    /* used_prefix's memo: up_gen counts the changes of any µop's used prefix, up_impure the
     * answers that depended on something else (a leaf's use, an interval still open) */
    uint64_t up_gen, up_impure;

    ss_partial *part;
    uint32_t n_part, cap_part;
    uint64_t part_next, part_cycle0, part_lost0, part_uops0;
    uint64_t *part_leaf0;

    ss_summary sum;
    uint64_t committed_uops;

    /* completion at issue (ss_options.at_issue): (cycle, seq) of each µop issued that is
     * younger than every one before it, in order — the head in cycle t is the one after the
     * last issued by t (in-order issue, consecutive seqs) */
    uint64_t *il_cycle, *il_seq;
    uint64_t il_head, il_count, il_cap;
    uint64_t issued_seq; /* the youngest µop seen issued; 0: none yet */
    uint64_t first_seq;  /* the oldest µop seen (the head before anything issued) */
    bool df_fixed;       /* dead_from's last answer was a failure for good (see dead_from) */

    /* the walks' step cache (step_cache): its entries are valid while their stamp is sc_stamp,
     * which moves when the cycle asked about (sc_t) or the input (in_gen: every wait transition
     * and record) moves */
    step_cache sc[STEP_CACHE];
    uint64_t sc_t, sc_gen, sc_stamp, in_gen;
    /* the last walk, at stamp wk_stamp, popped its position from the producer (the reader layout's
     * D and M) in its first wk_popped steps, each step k through entry k (at position sc[k].q) */
    uint64_t wk_stamp;
    uint32_t wk_popped;
    bool wk_long; /* the last walk ran 8 steps or more */
};

/* ---- type registry ------------------------------------------------------------------------ */

uint32_t ss_register_set(stallscope *s, const char *set, const ss_type_def *defs, uint32_t n) {
    uint32_t base = s->n_types;
    if (s->n_types + n > s->cap_types) {
        uint32_t cap = (s->n_types + n) * 2;
        s->types = cs_realloc(s->types, cap * sizeof *s->types);
        s->node_total = cs_realloc(s->node_total, cap * sizeof *s->node_total);
        s->stamp = cs_realloc(s->stamp, cap * sizeof *s->stamp);
        s->leaf_total = cs_realloc(s->leaf_total, cap * sizeof *s->leaf_total);
        s->part_leaf0 = cs_realloc(s->part_leaf0, cap * sizeof *s->part_leaf0);
        memset(s->node_total + s->cap_types, 0, (cap - s->cap_types) * sizeof *s->node_total);
        memset(s->stamp + s->cap_types, 0, (cap - s->cap_types) * sizeof *s->stamp);
        memset(s->leaf_total + s->cap_types, 0, (cap - s->cap_types) * sizeof *s->leaf_total);
        memset(s->part_leaf0 + s->cap_types, 0, (cap - s->cap_types) * sizeof *s->part_leaf0);
        s->cap_types = cap;
    }
    for (uint32_t i = 0; i < n; i++) {
        size_t len = strlen(set) + strlen(defs[i].name) + 2;
        char *name = cs_malloc(len);
        snprintf(name, len, "%s/%s", set, defs[i].name);
        s->types[s->n_types++] = (type_info){name, defs[i].flags};
    }
    return base;
}

uint32_t ss_type_count(const stallscope *s) { return s->n_types; }
const char *ss_type_name(const stallscope *s, uint32_t type) { return type < s->n_types ? s->types[type].name : "?"; }
uint8_t ss_type_flags(const stallscope *s, uint32_t type) { return type < s->n_types ? s->types[type].flags : 0; }

/* ---- options -------------------------------------------------------------------------------- */

void ss_options_default(ss_options *o) { *o = (ss_options){4, 0.5, 0, false, false, false}; }

bool ss_option_set(ss_options *o, const char *key, const char *value, cs_error *err) {
    if (!strcmp(key, "depth")) {
        uint64_t v;
        if (!cs_parse_count(value, &v) || v == 0 || v > 64) {
            cs_error_set(err, "depth %s: not a number of levels from 1 to 64", value);
            return false;
        }
        o->depth = (uint32_t)v;
    } else if (!strcmp(key, "threshold")) {
        char *end;
        double v = strtod(value, &end);
        if (end == value || *end || !(v >= 0 && v <= 100)) {
            cs_error_set(err, "threshold %s: not a percentage from 0 to 100", value);
            return false;
        }
        o->threshold = v;
    } else if (!strcmp(key, "interval")) {
        uint64_t v;
        if (!cs_parse_count(value, &v) || v == 0) {
            cs_error_set(err, "interval %s: not a positive number of µops", value);
            return false;
        }
        o->interval = v;
    } else if (!strcmp(key, "tooclose")) {
        /* "paper" (the verb's name for it) and "leaf" are the same rule */
        if (strcmp(value, "paper") && strcmp(value, "leaf") && strcmp(value, "window")) {
            cs_error_set(err, "tooclose %s: not 'paper' (or 'leaf', the paper's rule) or 'window'", value);
            return false;
        }
        o->too_close_window = !strcmp(value, "window");
    } else if (!strcmp(key, "completion")) {
        if (strcmp(value, "commit") && strcmp(value, "issue")) {
            cs_error_set(err, "completion %s: not 'commit' (the paper's) or 'issue' (in-order machines)", value);
            return false;
        }
        o->at_issue = !strcmp(value, "issue");
        o->completion_given = true;
    } else {
        cs_error_set(err, "unknown option '%s' (stallscope takes depth, threshold, interval, tooclose, completion)",
                     key);
        return false;
    }
    return true;
}

/* ---- create / destroy ----------------------------------------------------------------------- */

static void tree_init(tree *t) {
    t->cap = 1024;
    t->node = cs_calloc(t->cap, sizeof *t->node);
    t->count = 1; /* the root */
    t->hash_cap = 4096;
    t->hash = cs_calloc(t->hash_cap, sizeof *t->hash);
}

stallscope *ss_create(const ss_options *opt, const ss_machine *m) {
    stallscope *s = cs_calloc(1, sizeof *s);
    s->opt = *opt;
    s->m = *m;
    if (!s->m.commit_width) s->m.commit_width = 1;
    if (!s->m.base_latency) s->m.base_latency = 1;
    /* the execution set names one long-executing type per op class */
    static const char *class_names[] = {
#define CLASS_NAME(id, name) "long-executing-" name,
        ISA_OP_CLASS_LIST(CLASS_NAME)
#undef CLASS_NAME
    };
    for (int c = 0; c < OPC_COUNT; c++) exec_set[E_LONG_EXEC + c] = (ss_type_def){class_names[c], SS_LEAF};
    s->base_completion = ss_register_set(s, "completion", completion_set, C_COUNT);
    s->base_dispatch = ss_register_set(s, "dispatch", dispatch_set, D_COUNT);
    s->base_fetch = ss_register_set(s, "fetch", fetch_set, F_COUNT);
    s->base_flush = ss_register_set(s, "flush", flush_set, FL_COUNT);
    s->base_exec = ss_register_set(s, "exec", exec_set, E_COUNT);
    s->ring = cs_calloc(RING, sizeof *s->ring);
    s->cq_cap = 1024;
    s->cq = cs_calloc(s->cq_cap, sizeof *s->cq);
    tree_init(&s->t);
    tree_init(&s->inv);
    s->chain_hash_cap = 1024;
    s->chain_hash = cs_calloc(s->chain_hash_cap, sizeof *s->chain_hash);
    s->hot_cap = 1024;
    s->hot = cs_calloc(s->hot_cap, sizeof *s->hot);
    s->used.cap = 1 << 12;
    s->used.key = cs_calloc(s->used.cap, sizeof *s->used.key);
    s->part_next = opt->interval;
    return s;
}

void ss_destroy(stallscope *s) {
    if (!s) return;
    for (uint32_t i = 0; i < s->n_types; i++) free(s->types[i].name);
    free(s->types);
    free(s->node_total);
    free(s->stamp);
    free(s->leaf_total);
    free(s->part_leaf0);
    for (size_t i = 0; i < RING; i++) free(s->ring[i].iv_heap);
    free(s->ring);
    free(s->cq);
    free(s->il_cycle);
    free(s->il_seq);
    free(s->t.node);
    free(s->t.hash);
    free(s->inv.node);
    free(s->inv.hash);
    free(s->chain);
    free(s->chain_hash);
    free(s->chain_type);
    free(s->hot);
    free(s->hot_sorted);
    free(s->used.key);
    free(s->part);
    free(s);
}

/* ---- the µop histories ------------------------------------------------------------------------ */

static ss_uop *uop_get(stallscope *s, uint64_t seq) {
    if (!seq) return NULL;
    ss_uop *u = &s->ring[seq & (RING - 1)];
    return u->seq == seq ? u : NULL;
}

static bool is_stall(uint8_t st) {
    return st == WST_QUEUED || st == WST_OPERANDS || st == WST_READY || st == WST_NO_UNIT || st == WST_MEM_ORDER ||
        st == WST_NO_MSHR || st == WST_FILL || st == WST_STORE_BUFFER || st == WST_TRANSLATING;
}

/* The store buffer's leaf: where its oldest store's line comes from. */
static uint32_t store_buffer_leaf(uint8_t level) {
    return level >= LEVEL_MEM ? E_SB_MEM : level == LEVEL_L3 ? E_SB_L3 : level == LEVEL_L2 ? E_SB_L2 : E_SB_L1;
}

/* A state whose events have a cause in another µop's history. */
static bool is_reader(const ss_iv *iv) {
    return (iv->state == WST_OPERANDS || iv->state == WST_QUEUED || iv->state == WST_MEM_ORDER ||
            (iv->state == WST_NO_UNIT && iv->cause)) &&
        iv->cause;
}

/* The first cycle of interval i of u that can hold a stall event: its start, but not the
 * cycle the µop entered the window when it could not have issued in it. */
static uint64_t iv_first(const stallscope *s, const ss_uop *u, uint32_t i) {
    return i == 0 && s->m.dispatch_cycle_free ? u->iv[0].start + 1 : u->iv[i].start;
}

/* Stall events of interval i of u in [from, to) (cycles). */
static inline uint64_t iv_stalls(const stallscope *s, const ss_uop *u, uint32_t i, uint64_t from, uint64_t to) {
    const ss_iv *iv = &u->iv[i];
    if (!is_stall(iv->state)) return 0;
    uint64_t a = iv_first(s, u, i), b = i + 1 < u->n_iv ? u->iv[i + 1].start : UINT64_MAX;
    if (iv->state == WST_FILL && u->issue != UINT64_MAX) {
        uint64_t hit = u->issue + s->m.load_latency; /* the hit latency is execution, not a stall */
        if (i && u->iv[i - 1].state == WST_TRANSLATING) hit += iv->start - u->iv[i - 1].start; /* after a walk */
        if (hit > a) a = hit;
    }
    if (from > a) a = from;
    if (to < b) b = to;
    return b > a ? b - a : 0;
}

static void hot_add(stallscope *s, uint64_t pc, uint32_t encoding, uint32_t type, uint64_t w, uint64_t reps);

/* Slot u taken over for µop seq from the µop it held before (once per µop: kept out of
 * uop_slot, whose every other call only finds the µop in its slot). */
static void uop_take_slot(stallscope *s, ss_uop *u, uint64_t seq) {
    if (u->seq && u->hot_weight) hot_add(s, 0, 0, u->hot_type, u->hot_weight, 1); /* never retired */
    /* field by field: the slot is large (the chain-end memo) and this is per µop */
    u->seq = seq;
    u->pc = 0;
    u->issue = u->complete = UINT64_MAX;
    u->encoding = 0;
    u->op_class = 0;
    u->retired = false;
    u->n_iv = 0;
    u->cr_init = false;
    u->cr_lo = u->cr_hi = 0;
    u->up_count = u->up_off = 0;
    u->up_iv = 0;
    u->up_stuck_depth = UINT32_MAX;
    u->df_valid = 0;
    u->lay_iv = 0;
    u->used_lo = u->used_hi = u->used_n = 0;
    u->used_virtual = false;
    memset(u->used_bits, 0, sizeof u->used_bits);
    u->hot_weight = 0;
    u->hot_type = 0;
    u->memo_valid = 0;
    u->iv = u->iv_in;
    u->cap_iv = IV_INLINE;
    if (seq > s->newest_seq) s->newest_seq = seq;
}

/* The slot of µop seq, taken over from the µop it held before. */
static ss_uop *uop_slot(stallscope *s, uint64_t seq) {
    ss_uop *u = &s->ring[seq & (RING - 1)];
    if (u->seq != seq) uop_take_slot(s, u, seq);
    return u;
}

/* A state a µop reaches only once it has issued. */
static bool post_issue(uint8_t st) {
    return st == WST_EXECUTING || st == WST_FILL || st == WST_DONE || st == WST_COMMITTED || st == WST_STORE_BUFFER ||
        st == WST_TRANSLATING || st == WST_NO_MSHR;
}

static void issue_log(stallscope *s, uint64_t cycle, uint64_t seq) {
    if (s->il_count == s->il_cap) {
        uint64_t cap = s->il_cap ? 2 * s->il_cap : 1024;
        uint64_t *nc = cs_calloc(cap, sizeof *nc), *ns = cs_calloc(cap, sizeof *ns);
        for (uint64_t i = 0; i < s->il_count; i++) {
            nc[i] = s->il_cycle[(s->il_head + i) % s->il_cap];
            ns[i] = s->il_seq[(s->il_head + i) % s->il_cap];
        }
        free(s->il_cycle);
        free(s->il_seq);
        s->il_cycle = nc, s->il_seq = ns, s->il_head = 0, s->il_cap = cap;
    }
    s->il_cycle[(s->il_head + s->il_count) % s->il_cap] = cycle;
    s->il_seq[(s->il_head + s->il_count) % s->il_cap] = seq;
    s->il_count++;
}

/* Completion at issue: the oldest µop not issued by the end of cycle t (t only grows). */
static uint64_t issue_head(stallscope *s, uint64_t t) {
    while (s->il_count && s->il_cycle[s->il_head] <= t) {
        s->issued_seq = s->il_seq[s->il_head];
        s->il_head = (s->il_head + 1) % s->il_cap;
        s->il_count--;
    }
    return s->issued_seq ? s->issued_seq + 1 : s->first_seq;
}

void ss_wait(stallscope *s, const wait_transition *w) {
    s->in_gen++;
    if (s->opt.at_issue) {
        if (!s->first_seq || w->seq < s->first_seq) s->first_seq = w->seq;
        uint64_t last = s->il_count ? s->il_seq[(s->il_head + s->il_count - 1) % s->il_cap] : s->issued_seq;
        if (post_issue(w->state) && w->seq > last) issue_log(s, w->cycle, w->seq);
    }
    ss_uop *u = uop_slot(s, w->seq);
    if ((w->state == WST_EXECUTING || w->state == WST_FILL) && u->issue == UINT64_MAX) {
        u->issue = w->cycle;
        uint32_t slot = w->cycle % ISSUE_HIST;
        if (s->issue_cycle[slot] != w->cycle + 1) s->issue_cycle[slot] = w->cycle + 1, s->issue_youngest[slot] = 0;
        if (w->seq > s->issue_youngest[slot]) s->issue_youngest[slot] = w->seq;
    }
    if ((w->state == WST_DONE || w->state == WST_COMMITTED) && u->complete == UINT64_MAX) u->complete = w->cycle;
    if (u->n_iv) {
        ss_iv *last = &u->iv[u->n_iv - 1];
        if (last->start == w->cycle) { /* replaced in the same cycle */
            *last = (ss_iv){w->cycle, w->cause_seq, w->state, w->level, last->before};
            if (!is_stall(w->state) && u->n_iv > 1 && !is_stall(u->iv[u->n_iv - 2].state)) u->n_iv--;
            return;
        }
        /* states that are not stalls (executing, done, committed) hold no events and are never
         * read for their kind: one interval of them is enough to end the stall before */
        if (!is_stall(w->state) && !is_stall(last->state)) return;
    }
    if (u->n_iv == u->cap_iv) {
        if (u->cap_iv >= 4096) return; /* a pathological history: keep what we have (bounded) */
        uint32_t cap = u->cap_iv * 2;
        if (u->heap_cap < cap) {
            u->iv_heap = cs_realloc(u->iv_heap, cap * sizeof *u->iv_heap);
            u->heap_cap = cap;
        }
        if (u->iv == u->iv_in) memcpy(u->iv_heap, u->iv_in, sizeof u->iv_in);
        u->iv = u->iv_heap;
        u->cap_iv = (uint16_t)cap;
    }
    uint64_t before = u->n_iv ? u->iv[u->n_iv - 1].before : 0;
    u->iv[u->n_iv++] = (ss_iv){w->cycle, w->cause_seq, w->state, w->level, before};
    /* the interval before is closed now: its count is final (iv_stalls reads no further) */
    if (u->n_iv > 1) u->iv[u->n_iv - 1].before += iv_stalls(s, u, u->n_iv - 2, 0, UINT64_MAX);
}

/* The characteristic minimum latency of u (§3.5): running longer, it is long executing.
 * The integer ALU's for every class but loads; a load's is its L1 hit latency, which the
 * engine already counts as execution, not a stall (iv_stalls) — a load that hits is not
 * "long executing", it is as fast as a load gets (the paper's example of long executing is an
 * integer divide). In-order models report only a miss's extra cycles as fill (load_latency 0);
 * there a load's minimum latency is its memory pipe's depth (load_min_latency). */
static uint64_t min_latency(const stallscope *s, const ss_uop *u) {
    uint64_t load = s->m.load_min_latency ? s->m.load_min_latency : s->m.load_latency;
    if (u->retired && u->op_class == OPC_LOAD && load > s->m.base_latency) return load;
    return s->m.base_latency;
}

/* Events in u's history before cycle v (its stack size as of v). */
static uint64_t stalls_before(const stallscope *s, const ss_uop *u, uint64_t v) {
    uint32_t n = u->n_iv;
    while (n && u->iv[n - 1].start >= v) n--;
    return n ? u->iv[n - 1].before + iv_stalls(s, u, n - 1, 0, v) : 0;
}

/* The interval of u holding position q as of cycle t, with the positions before it in *base;
 * when q is past u's stack as of t: the first interval not begun by t (or n_iv), *base the
 * whole stack. (Intervals before the last begun by t are closed by t: their counts are the
 * differences of `before`; only the last is counted up to t.) */
static uint32_t iv_holding(const stallscope *s, const ss_uop *u, uint64_t q, uint64_t t, uint64_t *base) {
    for (uint32_t i = 0; i < u->n_iv && u->iv[i].start < t; i++) {
        if (i + 1 < u->n_iv && u->iv[i + 1].start < t) { /* closed, and not the last begun */
            if (q < u->iv[i + 1].before) {
                *base = u->iv[i].before;
                return i;
            }
            continue;
        }
        uint64_t cnt = iv_stalls(s, u, i, 0, t);
        *base = u->iv[i].before;
        if (q < *base + cnt) return i;
        *base += cnt;
        return i + 1;
    }
    *base = 0;
    return 0;
}

/* iv_holding through the step cache's entry k (k: the link of the chain), with that entry in
 * *e when it now holds u's interval i (else NULL). */
static uint32_t iv_holding_at(stallscope *s, const ss_uop *u, uint64_t q, uint64_t t, uint32_t k, uint64_t *base,
                              step_cache **e) {
    *e = NULL;
    if (k >= STEP_CACHE) return iv_holding(s, u, q, t, base);
    if (s->sc_t != t || s->sc_gen != s->in_gen) s->sc_t = t, s->sc_gen = s->in_gen, s->sc_stamp++;
    step_cache *c = &s->sc[k];
    if (c->stamp == s->sc_stamp && c->u == u && q >= c->base && q < c->end) {
        *base = c->base;
        *e = c;
        return c->i;
    }
    uint32_t i = iv_holding(s, u, q, t, base);
    if (i == u->n_iv || u->iv[i].start >= t) return i;
    /* the positions of interval i as iv_holding counts them: to the next interval's when that
     * one began before t, else up to t */
    uint64_t end = i + 1 < u->n_iv && u->iv[i + 1].start < t ? u->iv[i + 1].before : *base + iv_stalls(s, u, i, 0, t);
    if (q >= end) return i;
    /* field by field: a compound literal would clear the layout too (every walk step) */
    c->u = u;
    c->stamp = s->sc_stamp;
    c->base = *base;
    c->end = end;
    c->i = i;
    c->pr = NULL;
    c->has_lay = false;
    *e = c;
    return i;
}

/* ---- chains ----------------------------------------------------------------------------------- */

/* The leaf of a chain cut short (§6.3) after it ran back through more than WALK_MAX
 * operand waits, or past the µops kept after more than 64: the root of a long serial
 * dependence chain, reached by every cycle's chain along it. §6.2 lets completion accumulate
 * each of the root's few leaf events once, so such a leaf counts as already accumulated:
 * completion pops on, and a head whose history has nothing else is long executing (2c) or
 * was reached too soon (2b). (It was exempt from the rule, like a flush, which charged every
 * cycle of a dependent divide chain to "too-close-chain" rather than to the divides.) Never a
 * µop's key: seqs start at 1. */
#define KEY_CHAIN ((uint64_t)1)

typedef struct path {
    uint32_t head[PATH_HEAD];
    uint32_t tail[PATH_TAIL];
    uint32_t n_head, n_tail_total; /* events after the head part (ring of PATH_TAIL) */
    uint64_t leaf_key;             /* µop leaf (seq << 20 | pos), 0: not a µop leaf */
    uint64_t leaf_seq;             /* the µop whose event is the leaf (hot spots) */
    uint64_t leaf_pc;              /* when not a µop leaf */
    bool expired;
    bool snipped;     /* events were skipped in the middle (a remembered chain end) */
    uint32_t extra;   /* events skipped */
    uint32_t snip_at; /* where (path position) */
} path;

static void path_push(stallscope *s, path *p, uint32_t type) {
    if (p->n_head < PATH_HEAD) p->head[p->n_head++] = type;
    else p->tail[p->n_tail_total++ % PATH_TAIL] = type;
    (void)s;
}

static uint32_t path_len(const path *p) { return p->n_head + p->n_tail_total; }

/* A path holding the one type `first`. Only the counts and the leaf fields are set: the type
 * arrays are read only up to the counts (clearing them was a tenth of completion's own time). */
static void path_start(path *p, uint32_t first) {
    p->n_head = 1;
    p->head[0] = first;
    p->n_tail_total = 0;
    p->leaf_key = p->leaf_seq = p->leaf_pc = 0;
    p->expired = p->snipped = false;
    p->extra = p->snip_at = 0;
}

/* The events of u's consecutive wait [a, b) on producer pr (interval i, as of
 * t), in history order (§3.5, §6.1): S leaves from before pr had anything to
 * give, D drained from pr's older events, M mirrored while pr stalled (both in
 * pr's order), E leaves after pr's history ran out (the last longc of them
 * while pr ran longer than the minimum latency). */

static void reader_layout_compute(const stallscope *s, const ss_uop *u, uint32_t i, uint64_t t, const ss_uop *pr,
                                  rlayout *l) {
    const ss_iv *iv = &u->iv[i];
    uint64_t a = iv_first(s, u, i), b = i + 1 < u->n_iv ? u->iv[i + 1].start : UINT64_MAX;
    if (b > t) b = t;
    uint64_t len = b > a ? b - a : 0;
    memset(l, 0, sizeof *l);
    if (iv->state == WST_NO_UNIT && !s->m.inorder) {
        /* out of order, a unit is held only by an unpipelined operation executing in it: the
         * hazard's cause (§3.4) is that occupation — the holder is not stalling while it holds
         * the unit, and the stalls of its own past (§3.5's history, for data dependences)
         * delayed when it took the unit, not how long it keeps it. Every event is a leaf:
         * the holder too close, or long executing */
        l->E = len;
    } else {
        l->npa = stalls_before(s, pr, a);
        l->M = b - 1 > a ? stalls_before(s, pr, b - 1) - l->npa : 0;
    }
    if (l->M > len) l->M = len;
    uint64_t rest = len - l->M;
    l->D = rest < l->npa ? rest : l->npa;
    uint64_t leaves = rest - l->D;
    /* (the held-unit case above: npa = M = D = 0, so every event is a leaf, E = len) */
    if (!l->npa && l->M) {
        /* nothing to drain: the cycles before pr's first stall are leaves at the bottom */
        uint64_t first = a;
        for (uint32_t k = 0; k < pr->n_iv; k++)
            if (iv_stalls(s, pr, k, a, b)) {
                first = pr->iv[k].start > a ? pr->iv[k].start : a;
                while (!iv_stalls(s, pr, k, first, first + 1)) first++;
                break;
            }
        l->S = first + 1 - a < leaves ? first + 1 - a : leaves;
    }
    l->E = leaves - l->S;
    if (pr->issue != UINT64_MAX && pr->issue < b) {
        uint64_t from = pr->issue + min_latency(s, pr), to = pr->complete < b ? pr->complete : b;
        if (from < a) from = a;
        if (to > from) {
            /* the cycles of [from, to) in which pr was not stalling: its stall events in that
             * window are the difference of its stack sizes at the two ends */
            uint64_t st = stalls_before(s, pr, to) - stalls_before(s, pr, from);
            l->longc = st < to - from ? to - from - st : 0;
        }
    }
    if (l->longc > l->E) l->longc = l->E;
}

/* The layout of a closed interval (the next one started by t) depends on nothing that is
 * still to come: the reader's end and the producer's history before it are fixed, so it is
 * computed once per interval, not once per chain step through it (the walks' largest cost). */
static const rlayout *reader_layout(const stallscope *s, ss_uop *u, uint32_t i, uint64_t t, const ss_uop *pr,
                                    rlayout *scratch) {
    bool closed = i + 1 < u->n_iv && u->iv[i + 1].start <= t;
    if (closed && u->lay_iv == i + 1) return &u->lay; /* read in place, not copied */
    if (!closed) {
        reader_layout_compute(s, u, i, t, pr, scratch);
        return scratch;
    }
    reader_layout_compute(s, u, i, t, pr, &u->lay);
    u->lay_iv = i + 1;
    return &u->lay;
}

/* reader_layout through a step cache entry holding u's interval i (e NULL: none). */
static const rlayout *reader_layout_at(const stallscope *s, step_cache *e, ss_uop *u, uint32_t i, uint64_t t,
                                       const ss_uop *pr, rlayout *scratch) {
    if (e && e->has_lay) return &e->lay;
    const rlayout *l = reader_layout(s, u, i, t, pr, scratch);
    if (!e) return l;
    e->lay = *l;
    e->has_lay = true;
    return &e->lay;
}

static void path_last(const path *p, uint32_t k, uint32_t *out) {
    uint32_t len = path_len(p);
    for (uint32_t i = 0; i < k; i++) {
        uint32_t at = len - k + i; /* position in the whole path */
        out[i] = at < p->n_head ? p->head[at] : p->tail[(at - p->n_head) % PATH_TAIL];
    }
}

/* Walk u's event at position q (as of cycle t) to its leaf, pushing the types.
 * §6.3: a chain through a long run of dependent µops reaches back to the
 * start of the run; each µop remembers where the chains from a few of its
 * events end (the last PATH_TAIL types and the leaf), so a later walk stops
 * there with the middle snipped and the end kept. With the step cache (cached) or without it:
 * inlined into its two forms (walk_uop_cached, walk_uop_plain), so that the one without the
 * cache has none of its tests and stores, which cost runs without long chains (where the cache
 * is off at nearly every walk) +1 % to +2 % host instructions (docs/stallscope.md, round
 * hpolish). */
static inline __attribute__((always_inline)) void walk_uop_as(stallscope *s, path *p, ss_uop *u, uint64_t q, uint64_t t,
                                                              const bool cached) {
    enum { MEMO_MAX = 256 };
    ss_uop *memo_at[MEMO_MAX];
    uint32_t memo_len[MEMO_MAX], n_memo = 0;
    uint32_t memo_q[MEMO_MAX];
    uint32_t popped = 0; /* steps popped from the producer through the step cache, from the first */
    uint64_t steps = 0;
    for (;; steps++) {
        const chain_end *ce = &u->memo[q % MEMO_WAYS];
        if (steps && (u->memo_valid >> (q % MEMO_WAYS) & 1) && ce->q == q) { /* the rest of the chain is known */
            if (ce->len > ce->ntail && !p->snipped) {
                p->snipped = true;
                p->snip_at = path_len(p);
            }
            if (p->n_head + ce->ntail <= PATH_HEAD) { /* all in the head part: no test per type */
                for (uint32_t k = 0; k < ce->ntail; k++) p->head[p->n_head + k] = ce->tail[k];
                p->n_head += ce->ntail;
            } else {
                for (uint32_t k = 0; k < ce->ntail; k++) path_push(s, p, ce->tail[k]);
            }
            p->leaf_key = ce->key;
            p->leaf_seq = ce->key >> 20;
            p->expired = ce->expired;
            p->extra += ce->len - ce->ntail;
            break;
        }
        if (steps == WALK_MAX) {
            path_push(s, p, s->base_exec + E_CHAIN);
            p->leaf_key = KEY_CHAIN;
            p->expired = true;
            break;
        }
        if (cached && steps < STEP_CACHE) {
            /* the step as a walk through this entry found it (the same µop and interval, a
             * producer still kept, the same layout): only the position moves */
            step_cache *c = &s->sc[steps];
            if (c->stamp == s->sc_stamp && c->u == u && c->pr && q >= c->base && q < c->end) {
                uint64_t j = q - c->base;
                if (j >= c->lay.S && j < c->lay.S + c->lay.D + c->lay.M) {
                    if (steps && n_memo < MEMO_MAX && q <= UINT32_MAX && c->closed) {
                        memo_at[n_memo] = u;
                        memo_q[n_memo] = (uint32_t)q;
                        memo_len[n_memo++] = path_len(p) + p->extra;
                    }
                    if (popped == steps) {
                        c->q = q;
                        popped++;
                    }
                    path_push(s, p, c->type);
                    q = c->lay.npa - c->lay.D + (j - c->lay.S);
                    u = c->pr;
                    s->sum.walk_steps_cached++;
                    continue;
                }
            }
        }
        /* the interval holding position q */
        uint64_t base;
        step_cache *e = NULL;
        uint32_t i = cached && steps < STEP_CACHE ? iv_holding_at(s, u, q, t, (uint32_t)steps, &base, &e)
                                                  : iv_holding(s, u, q, t, &base);
        if (i == u->n_iv || u->iv[i].start >= t) { /* cannot happen: positions come from counts */
            path_push(s, p, s->base_exec + E_EXPIRED);
            p->expired = true;
            break;
        }
        if (steps && n_memo < MEMO_MAX && q <= UINT32_MAX && i + 1 < u->n_iv && u->iv[i + 1].start <= t) {
            memo_at[n_memo] = u;
            memo_q[n_memo] = (uint32_t)q;
            memo_len[n_memo++] = path_len(p) + p->extra;
        }
        const ss_iv *iv = &u->iv[i];
        uint64_t j = q - base;
        if (!is_reader(iv)) {
            uint32_t type;
            switch (iv->state) {
            case WST_READY: {
                type = E_ISSUE_WIDTH;
                uint64_t c =
                    iv_first(s, u, i) + j; /* the cycle of this event: ready intervals count from their first */
                uint32_t slot = c % ISSUE_HIST;
                if (s->issue_cycle[slot] == c + 1 && s->issue_youngest[slot] > u->seq)
                    path_push(s, p, s->base_exec + E_POOR_SCHED);
                break;
            }
            case WST_NO_UNIT: type = E_NO_UNIT; break;
            case WST_NO_MSHR: type = E_NO_MSHR; break;
            case WST_TRANSLATING: type = E_DTLB; break;
            case WST_STORE_BUFFER: /* in order: a store held in its pipe by the full buffer */
                path_push(s, p, s->base_exec + E_STORE_BUFFER);
                type = store_buffer_leaf(iv->level);
                break;
            case WST_FILL:
                type = iv->level >= LEVEL_MEM ? E_DMISS_MEM
                    : iv->level == LEVEL_L3   ? E_DMISS_L3
                    : iv->level == LEVEL_L2   ? E_DMISS_L2
                                              : E_DMISS_L1;
                break;
            default: type = E_TOO_CLOSE; break; /* a reader with no producer named */
            }
            path_push(s, p, s->base_exec + type);
            p->leaf_key = u->seq << 20 | (q & 0xfffff);
            p->leaf_seq = u->seq;
            break;
        }
        uint32_t type = iv->state == WST_OPERANDS ? E_OPERAND
            : iv->state == WST_QUEUED             ? E_QUEUED
            : iv->state == WST_MEM_ORDER          ? E_MEM_ORDER
                                                  : E_PIPE_BUSY;
        path_push(s, p, s->base_exec + type);
        ss_uop *pr = uop_get(s, iv->cause);
        if (!pr) { /* the producer is no longer kept: the chain's end is lost (§6.3) */
            path_push(s, p, s->base_exec + (steps > 64 ? E_CHAIN : E_EXPIRED));
            if (steps > 64) p->leaf_key = KEY_CHAIN;
            p->expired = true;
            break;
        }
        rlayout scratch;
        const rlayout *l = reader_layout_at(s, e, u, i, t, pr, &scratch);
        if (e) {
            e->pr = pr;
            e->type = s->base_exec + type;
            e->closed = i + 1 < u->n_iv && u->iv[i + 1].start <= t;
        }
        if (j >= l->S && j < l->S + l->D + l->M) {
            if (e && popped == steps) {
                e->q = q;
                popped++;
            }
            /* D: drained from pr's older events; M: mirrored (both the same affine map) */
            q = l->npa - l->D + (j - l->S);
        } else {
            /* exhausted: the producer had not run its minimum latency, or runs long */
            bool too_close = j < l->S || j - (l->S + l->D + l->M) < l->E - l->longc;
            uint32_t lt = too_close ? E_TOO_CLOSE : pr->retired ? E_LONG_EXEC + pr->op_class : E_LONG_UNKNOWN;
            path_push(s, p, s->base_exec + lt);
            p->leaf_key = u->seq << 20 | (q & 0xfffff);
            p->leaf_seq = u->seq;
            break;
        }
        u = pr;
    }
    if (cached) s->wk_stamp = s->sc_stamp; /* without the cache nothing was popped through it */
    s->wk_popped = popped;
    s->wk_long = steps >= 7;
    s->sum.walk_steps += steps + 1;
    uint32_t total = path_len(p) + p->extra;
    /* every remembered end's tail is a suffix of the path's last PATH_TAIL types */
    uint32_t last_n = path_len(p) < PATH_TAIL ? path_len(p) : PATH_TAIL;
    /* the last last_n types end at pad[PATH_TAIL]: an end's tail of ntail <= last_n types is
     * the PATH_TAIL entries from pad + PATH_TAIL - ntail (one fixed-size copy; the entries past
     * ntail are never read) */
    uint16_t pad[2 * PATH_TAIL] = {0};
    if (n_memo) {
        uint32_t last[PATH_TAIL];
        path_last(p, last_n, last);
        for (uint32_t x = 0; x < last_n; x++) pad[PATH_TAIL - last_n + x] = (uint16_t)last[x];
    }
    for (uint32_t k = 0; k < n_memo; k++) {
        chain_end *m = &memo_at[k]->memo[memo_q[k] % MEMO_WAYS];
        uint32_t n = total - memo_len[k];
        memo_at[k]->memo_valid |= (uint8_t)(1u << (memo_q[k] % MEMO_WAYS));
        m->q = memo_q[k];
        m->len = n;
        m->ntail = n < PATH_TAIL ? n : PATH_TAIL;
        if (m->ntail > path_len(p)) m->ntail = path_len(p);
        memcpy(m->tail, pad + PATH_TAIL - m->ntail, sizeof m->tail);
        m->key = p->leaf_key;
        m->expired = p->expired;
    }
}

/* walk_uop_as's two forms, apart: one function holding both kept the form without the cache
 * dearer than before the cache (more registers saved, dep_add 300 k +0.45 % host instructions) */
static __attribute__((noinline)) void walk_uop_cached(stallscope *s, path *p, ss_uop *u, uint64_t q, uint64_t t) {
    walk_uop_as(s, p, u, q, t, true);
}
static __attribute__((noinline)) void walk_uop_plain(stallscope *s, path *p, ss_uop *u, uint64_t q, uint64_t t) {
    walk_uop_as(s, p, u, q, t, false);
}

/* Walk u's event at position q (as of cycle t) to its leaf (walk_uop_as), through the step cache
 * when a long walk ran at this cycle before. */
static inline void walk_uop(stallscope *s, path *p, ss_uop *u, uint64_t q, uint64_t t) {
    bool cache = false;
    /* the cache only when a walk of at least 8 steps ran at this cycle before: most cycles walk
     * one short chain, which would pay for the cache and never read it (list: +4 % host
     * instructions with the cache on every walk, interp +2.4 % on every walk but a cycle's first;
     * from 26 steps instead of 8: list and dep_add 300 k the same within 0.0001 %) */
    if (s->sc_t == t && s->sc_gen == s->in_gen) {
        if (s->wk_long) cache = true;
    } else {
        s->sc_t = t, s->sc_gen = s->in_gen, s->sc_stamp++;
    }
    if (cache) walk_uop_cached(s, p, u, q, t);
    else walk_uop_plain(s, p, u, q, t);
}

/* The chain of the fetch stall behind an empty dispatch stage, from its view cause. */
static void walk_frontend(stallscope *s, path *p, const stall_cause *c) {
    path_push(s, p, s->base_dispatch + D_FRONTEND_EMPTY);
    switch (c->kind) {
    case CAUSE_ICACHE:
        path_push(s, p,
                  s->base_fetch +
                      (c->level >= LEVEL_MEM      ? F_ICACHE_MEM
                           : c->level == LEVEL_L3 ? F_ICACHE_L3
                           : c->level == LEVEL_L2 ? F_ICACHE_L2
                                                  : F_ICACHE_L1));
        p->leaf_pc = c->pc;
        break;
    case CAUSE_ITLB:
        path_push(s, p, s->base_fetch + F_ITLB);
        p->leaf_pc = c->pc;
        break;
    case CAUSE_BPRED: {
        /* §3.6: the refill's empty stalls carry the flush's cause, a global event */
        path_push(s, p, s->base_fetch + F_REFILL);
        path_push(s, p, s->base_flush + FL_MISPREDICT);
        uint32_t slot = c->seq % 1024;
        uint8_t kind = s->misp_seq[slot] == c->seq ? s->misp_kind[slot] : 0;
        uint32_t leaf = FL_DIRECT;
        switch (kind & 0x7f) {
        case MISP_COND: leaf = kind & 0x80 ? FL_COND_TAKEN : FL_COND_NOT_TAKEN; break;
        case MISP_INDIRECT: leaf = FL_INDIRECT; break;
        case MISP_RETURN: leaf = FL_RETURN; break;
        case MISP_DIRECT: leaf = FL_DIRECT; break;
        default: /* unknown kind: by the class the view gives */
            leaf = c->op_class == OPC_BRANCH       ? FL_COND_TAKEN
                : c->op_class == OPC_RETURN        ? FL_RETURN
                : c->op_class == OPC_JUMP_INDIRECT ? FL_INDIRECT
                                                   : FL_DIRECT;
        }
        path_push(s, p, s->base_flush + leaf);
        p->leaf_pc = c->pc;
        break;
    }
    case CAUSE_TRACE_END: path_push(s, p, s->base_fetch + F_TRACE_END); break;
    case CAUSE_NONE: path_push(s, p, s->base_completion + C_START); break;
    case CAUSE_FRONTEND: path_push(s, p, s->base_fetch + F_BANDWIDTH); break;
    default: path_push(s, p, s->base_dispatch + D_OTHER); break;
    }
}

/* ---- the accumulator (§3.8) ------------------------------------------------------------------------ */

static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

static uint32_t tree_child(tree *t, uint32_t parent, uint32_t type) {
    uint64_t h = mix((uint64_t)parent << 32 | type);
    for (uint64_t i = h & (t->hash_cap - 1);; i = (i + 1) & (t->hash_cap - 1)) {
        uint32_t id = t->hash[i];
        if (!id) {
            if (t->count == t->cap) {
                t->cap *= 2;
                t->node = cs_realloc(t->node, t->cap * sizeof *t->node);
            }
            id = t->count++;
            ss_node *n = &t->node[id];
            *n = (ss_node){type, parent, 0, t->node[parent].first_child, 0};
            t->node[parent].first_child = id;
            t->hash[i] = id;
            if (t->count * 2 > t->hash_cap) { /* rehash */
                uint32_t cap = t->hash_cap * 2;
                uint32_t *nh = cs_calloc(cap, sizeof *nh);
                for (uint32_t k = 1; k < t->count; k++) {
                    uint64_t hh = mix((uint64_t)t->node[k].parent << 32 | t->node[k].type);
                    uint64_t j = hh & (cap - 1);
                    while (nh[j]) j = (j + 1) & (cap - 1);
                    nh[j] = k;
                }
                free(t->hash);
                t->hash = nh;
                t->hash_cap = cap;
            }
            return id;
        }
        if (t->node[id].parent == parent && t->node[id].type == type) return id;
    }
}

/* The home slot of a leaf key (seq << 20 | position): eight consecutive positions of one µop
 * share one 64-byte line, so the runs of neighbouring positions completion and used_prefix
 * look up one after another cost one cache miss, not eight (the set was most of the time). */
static uint64_t leaf_slot(uint64_t key, uint64_t cap) { return ((mix(key >> 3) << 3) | (key & 7)) & (cap - 1); }

static bool used_has(const leafkey_set *u, uint64_t key) {
    for (uint64_t i = leaf_slot(key, u->cap); u->key[i]; i = (i + 1) & (u->cap - 1))
        if (u->key[i] == key) return true;
    return false;
}

/* Whether leaf key (seq << 20 | position) was accumulated. A kept µop's first USED_BITS
 * positions live in a bitmap on the µop and only there (the set, which was a cache miss per
 * key, holds the positions beyond and the keys of µops no longer kept); the µop also records
 * the range of its positions added, so one outside it is answered without the set, and so is
 * one inside when the range is full. The bitmap goes with the µop's slot: a leaf of a µop no
 * longer kept counts as not accumulated if it was among its first USED_BITS positions — only a
 * remembered chain end (§6.3) can still name such a leaf, and on every workload of
 * bench/stallscope_identity.sh the results are the same as with every key in the set. When the
 * set drops a kept µop's keys (used_add's pruning) its record is cleared too. An evicted µop
 * never comes back (seqs grow), so keys added for its seq after eviction are never asked about
 * through a kept µop. */
static bool leaf_used(stallscope *s, uint64_t key) {
    if (key == KEY_CHAIN) return true;
    const ss_uop *lu = uop_get(s, key >> 20);
    uint32_t pos = (uint32_t)(key & 0xfffff);
    if (lu && pos < USED_BITS) return lu->used_bits[pos / 64] >> (pos % 64) & 1;
    if (lu && (pos < lu->used_lo || pos >= lu->used_hi)) return false;
    if (lu && lu->used_n == lu->used_hi - lu->used_lo) return true; /* every position in the range */
    return used_has(&s->used, key);
}

/* Put key in the set (not its µop's record); false when it was in already. */
static bool set_insert(stallscope *s, uint64_t key) {
    leafkey_set *u = &s->used;
    if ((u->count + 1) * 2 > u->cap) {
        /* grow, dropping the leaves of µops no longer kept (bounded memory) */
        uint64_t oldest = s->newest_seq > RING ? s->newest_seq - RING : 0, live = 0;
        for (uint64_t i = 0; i < u->cap; i++) live += u->key[i] && (u->key[i] >> 20) > oldest;
        uint64_t cap = u->cap;
        while ((live + 1) * 3 > cap) cap *= 2;
        uint64_t *nk = cs_calloc(cap, sizeof *nk);
        for (uint64_t i = 0; i < u->cap; i++) {
            uint64_t k = u->key[i];
            if (!k || (k >> 20) <= oldest) continue;
            uint64_t j = leaf_slot(k, cap);
            while (nk[j]) j = (j + 1) & (cap - 1);
            nk[j] = k;
        }
        free(u->key);
        u->key = nk;
        u->cap = cap;
        u->count = live;
        /* a µop still in its slot past the horizon (a seq never followed) loses its record too,
         * so leaf_used answers exactly what the set holds */
        for (size_t r = 0; r < RING; r++) {
            ss_uop *x = &s->ring[r];
            if (!x->seq || x->seq > oldest) continue;
            x->used_lo = x->used_hi = x->used_n = 0;
            x->used_virtual = false;
            memset(x->used_bits, 0, sizeof x->used_bits);
        }
    }
    uint64_t i = leaf_slot(key, u->cap);
    while (u->key[i]) {
        if (u->key[i] == key) return false;
        i = (i + 1) & (u->cap - 1);
    }
    u->key[i] = key;
    u->count++;
    return true;
}

/* A kept µop's used positions past USED_BITS that form one full range with its others are
 * only in its record (used_virtual): completion accumulating the head's own leaves — a fill
 * of hundreds of cycles, one new position a cycle — added each to the set, which was a third
 * of a long pointer chase's run (the set's probes and its pruning). They go into the set
 * when a position that does not extend the range comes. (A µop's slot taken over drops them
 * with it, as it drops its bitmap; the set dropped them at its next pruning.) */
static void used_materialise(stallscope *s, ss_uop *lu) {
    lu->used_virtual = false;
    for (uint32_t p = lu->used_lo > USED_BITS ? lu->used_lo : USED_BITS; p < lu->used_hi; p++)
        set_insert(s, lu->seq << 20 | p);
}

static void used_range_add(ss_uop *lu, uint32_t pos) {
    if (lu->used_lo >= lu->used_hi) lu->used_lo = pos, lu->used_hi = pos + 1;
    else if (pos < lu->used_lo) lu->used_lo = pos;
    else if (pos >= lu->used_hi) lu->used_hi = pos + 1;
    lu->used_n++;
}

static void used_add(stallscope *s, uint64_t key) {
    ss_uop *lu = uop_get(s, key >> 20);
    uint32_t pos = (uint32_t)(key & 0xfffff);
    if (lu) {
        bool empty = lu->used_lo >= lu->used_hi, full = !empty && lu->used_n == lu->used_hi - lu->used_lo;
        bool adjacent = full && (pos == lu->used_hi || pos + 1 == lu->used_lo);
        if (pos < USED_BITS) { /* answered from the µop's bitmap while it is kept: not in the set */
            uint64_t bit = 1ull << (pos % 64);
            if (lu->used_bits[pos / 64] & bit) return;
            if (lu->used_virtual && !adjacent) used_materialise(s, lu);
            lu->used_bits[pos / 64] |= bit;
            used_range_add(lu, pos);
            return;
        }
        if (full && pos >= lu->used_lo && pos < lu->used_hi) return; /* in already */
        if (empty || (adjacent && (lu->used_virtual || lu->used_hi <= USED_BITS))) {
            used_range_add(lu, pos);
            lu->used_virtual = true;
            return;
        }
        if (lu->used_virtual) used_materialise(s, lu);
    }
    if (set_insert(s, key) && lu) used_range_add(lu, pos);
}

/* Add weight w `reps` times (what reps calls with w would do, in one). */
static void hot_add(stallscope *s, uint64_t pc, uint32_t encoding, uint32_t type, uint64_t w, uint64_t reps) {
    if ((s->hot_count + 1) * 2 > s->hot_cap) {
        uint64_t cap = s->hot_cap * 2;
        hot *nh = cs_calloc(cap, sizeof *nh);
        for (uint64_t i = 0; i < s->hot_cap; i++) {
            if (!s->hot[i].weight) continue;
            uint64_t j = mix(s->hot[i].pc) & (cap - 1);
            while (nh[j].weight) j = (j + 1) & (cap - 1);
            nh[j] = s->hot[i];
        }
        free(s->hot);
        s->hot = nh;
        s->hot_cap = cap;
    }
    uint64_t i = mix(pc) & (s->hot_cap - 1);
    while (s->hot[i].weight && s->hot[i].pc != pc) i = (i + 1) & (s->hot_cap - 1);
    hot *h = &s->hot[i];
    if (!h->weight) {
        *h = (hot){pc, 0, encoding, type, 0};
        s->hot_count++;
    }
    h->weight += w * reps;
    if (encoding) h->encoding = encoding;
    if (type == h->type) h->by_type_w += w * reps;
    else if (w > h->by_type_w) h->type = type, h->by_type_w = w * reps; /* roughly: the costliest type */
}

/* The id of the unique chain types[0, n), added with weight 0 when new. */
static bool types_equal(const uint32_t *a, const uint32_t *b, uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        if (a[i] != b[i]) return false;
    return true;
}

static uint32_t chain_intern(stallscope *s, const uint32_t *types, uint32_t n) {
    uint64_t h = n;
    for (uint32_t i = 0; i < n; i++) h = mix(h ^ ((uint64_t)types[i] << 32 | i));
    uint32_t mask = s->chain_hash_cap - 1;
    for (uint32_t i = (uint32_t)h & mask;; i = (i + 1) & mask) {
        uint32_t id = s->chain_hash[i];
        if (!id) break;
        const chain_rec *c = &s->chain[id - 1];
        /* (a loop, not memcmp: chains are a few types long and the call cost more) */
        if (c->hash == h && c->n == n && types_equal(s->chain_type + c->first, types, n)) return id - 1;
    }
    if (s->n_chain == s->cap_chain) {
        s->cap_chain = s->cap_chain ? s->cap_chain * 2 : 256;
        s->chain = cs_realloc(s->chain, s->cap_chain * sizeof *s->chain);
    }
    while (s->n_chain_type + n > s->cap_chain_type) {
        s->cap_chain_type = s->cap_chain_type ? s->cap_chain_type * 2 : 4096;
        s->chain_type = cs_realloc(s->chain_type, s->cap_chain_type * sizeof *s->chain_type);
    }
    uint32_t id = s->n_chain++;
    /* §3.3: a leaf type ends its chain; a non-leaf type never does (checked once per chain) */
    uint32_t violations = 0;
    for (uint32_t i = 0; i < n; i++) {
        bool leaf = s->types[types[i]].flags & SS_LEAF;
        if (leaf != (i + 1 == n) && types[i] != s->base_exec + E_TRUNCATED) violations++;
    }
    s->chain[id] = (chain_rec){h, 0, s->n_chain_type, n, violations};
    memcpy(s->chain_type + s->n_chain_type, types, n * sizeof *types);
    s->n_chain_type += n;
    if (s->n_chain * 2 > s->chain_hash_cap) { /* rehash */
        uint32_t cap = s->chain_hash_cap * 2;
        uint32_t *nh = cs_calloc(cap, sizeof *nh);
        for (uint32_t k = 0; k < s->n_chain; k++) {
            uint32_t j = (uint32_t)s->chain[k].hash & (cap - 1);
            while (nh[j]) j = (j + 1) & (cap - 1);
            nh[j] = k + 1;
        }
        free(s->chain_hash);
        s->chain_hash = nh;
        s->chain_hash_cap = cap;
    } else {
        uint32_t i = (uint32_t)h & mask;
        while (s->chain_hash[i]) i = (i + 1) & mask;
        s->chain_hash[i] = id + 1;
    }
    return id;
}

/* The trees (inclusive node weights) and node totals from the unique chains' weights, the
 * chains taken in the order they first occurred, so every node is created in the order a
 * cycle-by-cycle accumulation would have created it. Weights added are taken off the chains:
 * calling it again adds only what came since. */
static void chains_to_trees(stallscope *s) {
    for (uint32_t c = 0; c < s->n_chain; c++) {
        chain_rec *r = &s->chain[c];
        const uint32_t *types = s->chain_type + r->first;
        uint32_t n = r->n;
        uint64_t w = r->weight;
        uint32_t node = 0;
        for (uint32_t i = 0; i < n; i++) {
            node = tree_child(&s->t, node, types[i]);
            s->t.node[node].weight += w;
        }
        node = 0;
        for (uint32_t i = 0; i < n && i < TWIG_MAX; i++) {
            node = tree_child(&s->inv, node, types[n - 1 - i]);
            s->inv.node[node].weight += w;
        }
        s->stamp_now++;
        for (uint32_t i = 0; i < n; i++) {
            if (s->stamp[types[i]] == s->stamp_now) continue;
            s->stamp[types[i]] = s->stamp_now;
            s->node_total[types[i]] += w;
        }
        r->weight = 0;
    }
}

/* Accumulate path p with weight w, `reps` times over (reps cycles with the same chain). */
static void accumulate_n(stallscope *s, const path *p, uint64_t w, uint64_t reps) {
    if (!w || !reps) return;
    uint64_t wr = w * reps;
    uint32_t len = path_len(p);
    uint32_t types[PATH_HEAD + 2 + PATH_TAIL];
    uint32_t n = 0;
    bool marked = false;
    for (uint32_t i = 0; i < p->n_head; i++) {
        if (p->snipped && i == p->snip_at) {
            types[n++] = s->base_exec + E_TRUNCATED; /* §6.3: the middle snipped */
            marked = true;
        }
        types[n++] = p->head[i];
    }
    if (p->n_tail_total) {
        uint32_t keep = p->n_tail_total < PATH_TAIL ? p->n_tail_total : PATH_TAIL;
        if (!marked && (p->n_tail_total > PATH_TAIL || p->snipped)) {
            types[n++] = s->base_exec + E_TRUNCATED;
            marked = true;
        }
        for (uint32_t k = p->n_tail_total - keep; k < p->n_tail_total; k++) types[n++] = p->tail[k % PATH_TAIL];
    }
    if (marked) s->sum.truncated += wr;
    s->sum.chains += reps;
    if (len + p->extra > s->sum.longest_chain) s->sum.longest_chain = len + p->extra;
    if (p->expired) s->sum.expired += wr;
    uint32_t chain = chain_intern(s, types, n); /* before s->chain is read: interning may move it */
    s->chain[chain].weight += wr;
    s->sum.type_violations += (uint64_t)s->chain[chain].violations * reps;
    uint32_t leaf = types[n - 1];
    s->leaf_total[leaf] += wr;
    s->sum.accumulated += wr;
    ss_uop *lu = uop_get(s, p->leaf_seq);
    if (p->leaf_seq && lu) {
        if (lu->retired) {
            hot_add(s, lu->pc, lu->encoding, leaf, w, reps);
        } else {
            lu->hot_weight += wr;
            lu->hot_type = leaf;
        }
    } else if (p->leaf_pc) {
        hot_add(s, p->leaf_pc, 0, leaf, w, reps);
    }
}

static void accumulate(stallscope *s, const path *p, uint64_t w) { accumulate_n(s, p, w, 1); }

/* How many events from the bottom of u's history (as of t) are known to lead
 * only to leaves already accumulated. Leaves once accumulated stay so, so the
 * answer only grows and is kept on the µop: completion then skips a history
 * that has nothing left to give in one step instead of walking every event
 * (§6.2 made affordable). Only intervals closed before t are counted. */
static uint64_t used_prefix(stallscope *s, ss_uop *u, uint64_t t, int depth) {
    /* The memo. A call that moves no prefix (up_gen unchanged) and stops at a position popped
     * from a producer whose own answer was the same kind of stop, down to the recursion's
     * depth limit (up_impure unchanged), read only: closed intervals and their layouts, which
     * no later input changes; the prefixes kept on the µops, none of which moved; and whether
     * a producer is still kept, which can only turn a stop into the same stop. Asked again
     * before any prefix moves, at the same depth or deeper (the limit cuts the walk sooner:
     * the level it now stops at returns its kept prefix, which the deeper walk found stuck
     * too), it returns the same. On a serial chain (dep_add) nearly every call is such a
     * walk of 9 levels finding nothing new; now the next head's call stops after one. */
    if (u->up_stuck_gen == s->up_gen && (uint32_t)depth >= u->up_stuck_depth) return u->up_count + u->up_off;
    uint64_t gen0 = s->up_gen, impure0 = s->up_impure;
    while (u->up_iv + 1 < u->n_iv && u->iv[u->up_iv + 1].start <= t) {
        uint32_t i = u->up_iv;
        const ss_iv *iv = &u->iv[i];
        uint64_t cnt = u->iv[i + 1].before - iv->before; /* closed by t */
        uint64_t proven = 0;                             /* events of this interval known used, from its bottom */
        bool producer_stop = false;
        if (is_reader(iv)) {
            ss_uop *pr = uop_get(s, iv->cause);
            if (!pr || depth > 8) return u->up_count + u->up_off;
            /* a copy: the search below may lay out another interval of a µop in the chain */
            rlayout scratch, lv = *reader_layout(s, u, i, t, pr, &scratch);
            const rlayout *l = &lv;
            uint64_t pp = UINT64_MAX;
            for (proven = u->up_off; proven < cnt; proven++) {
                if (proven >= l->S && proven < l->S + l->D + l->M) { /* popped from pr: used if pr's is */
                    if (pp == UINT64_MAX) pp = used_prefix(s, pr, t, depth + 1);
                    /* position proven pops pr's npa - D + (proven - S), one more per position:
                     * the run of them below pr's used prefix pp in one step (these histories are
                     * hundreds of events long on serial chains) */
                    uint64_t at = l->npa - l->D + (proven - l->S);
                    if (at >= pp) {
                        producer_stop = true;
                        break;
                    }
                    uint64_t end = l->S + l->D + l->M, stop = proven + (pp - at);
                    proven = (stop < end ? stop : end) - 1;
                } else if (!leaf_used(s, u->seq << 20 | ((u->up_count + proven) & 0xfffff))) {
                    break;
                }
            }
        } else {
            for (proven = u->up_off; proven < cnt; proven++)
                if (!leaf_used(s, u->seq << 20 | ((u->up_count + proven) & 0xfffff))) break;
        }
        if (proven < cnt) {
            if (proven != u->up_off) s->up_gen++;
            u->up_off = proven;
            if (!producer_stop) s->up_impure++;
            else if (s->up_gen == gen0 && s->up_impure == impure0) {
                u->up_stuck_gen = gen0;
                u->up_stuck_depth = (uint32_t)depth;
            }
            return u->up_count + proven;
        }
        u->up_count += cnt;
        u->up_off = 0;
        u->up_iv++;
        s->up_gen++;
    }
    s->up_impure++; /* the interval it stops in is still open: a later t can close it */
    return u->up_count + u->up_off;
}

/* The lowest position p <= q of u's history (as of t) such that the walk (walk_uop, at this
 * same t) from every event in [p, q] ends in a leaf already accumulated; q + 1 when q's own is
 * not known to. Completion uses it to skip, in one step, the run of candidates below one the
 * unique-leaf rule (§6.2) has just refused, instead of walking each of them to its leaf (most
 * of the time: an operand wait mirrors its producer's history, and the producer's leaves were
 * accumulated while it was the head). Only what a walk would find is proven: a position
 * The search stops at `floor` (nothing below it is wanted). A position
 * popped from a producer is dead if the producer's is, a leaf position if its key is used, a
 * remembered chain end (§6.3) — which a walk past its first step takes — by its key; anything
 * else (a µop no longer kept, a recursion deeper than DEAD_DEPTH) ends the run, and the
 * candidate is walked as before. */
enum { DEAD_DEPTH = 24 };
enum { LONG_REFUSED = 64 }; /* links of a refused chain past which completion stops searching */
static uint64_t dead_from(stallscope *s, ss_uop *u, uint64_t q, uint64_t floor, uint64_t t, int depth) {
    s->df_fixed = false;
    if (depth > DEAD_DEPTH) return q + 1;
    /* The memo. A search whose first position q is popped from the producer, in a closed
     * interval, and whose search there failed for good, fails (returns q + 1: nothing
     * proven, no chain end looked at) without reading a leaf or a chain end; what it read —
     * the positions before q, the interval's layout — is fixed once the interval is closed
     * (reader_layout), and so down the chain to the depth limit or a producer no longer kept.
     * Asked again at a later t, at the same depth or deeper (the limit comes sooner), it
     * fails the same. On a serial FP chain every search ran the 24 levels to the limit; the
     * next head's search now stops where it meets the previous head's. */
    uint32_t way = (uint32_t)(q % DF_WAYS);
    if ((u->df_valid >> way & 1) && u->df_fail_q[way] == q && depth >= u->df_fail_depth[way]) {
        s->df_fixed = true;
        return q + 1;
    }
    /* the interval holding q, and the positions before it */
    uint64_t base, cnt;
    uint32_t i = iv_holding(s, u, q, t, &base);
    if (i == u->n_iv || u->iv[i].start >= t) return q + 1;
    uint64_t lo = q + 1; /* [lo, q] proven so far */
    for (;;) {
        const ss_iv *iv = &u->iv[i];
        bool stop = false;
        if (!is_reader(iv)) {
            while (lo > base && lo > floor && leaf_used(s, u->seq << 20 | ((lo - 1) & 0xfffff))) lo--;
            stop = lo > base;
        } else {
            ss_uop *pr = uop_get(s, iv->cause);
            if (!pr) break;
            /* a copy: the search below may lay out another interval of a µop in the chain */
            rlayout scratch, lv = *reader_layout(s, u, i, t, pr, &scratch);
            const rlayout *l = &lv;
            while (lo > base && lo > floor) {
                uint64_t j = lo - 1 - base;
                if (j >= l->S && j < l->S + l->D + l->M) { /* popped from pr */
                    uint64_t qp = l->npa - l->D + (j - l->S);
                    /* positions of u still wanted from this region, hence of pr */
                    uint64_t bottom = base + l->S > floor ? base + l->S : floor;
                    uint64_t want = lo - bottom;
                    /* at the depth limit the search below proves nothing: not called */
                    uint64_t pp = depth < DEAD_DEPTH ? dead_from(s, pr, qp, qp + 1 - want, t, depth + 1) : qp + 1;
                    bool below_fixed = depth < DEAD_DEPTH ? s->df_fixed : true;
                    s->df_fixed = false;
                    if (pp > qp) {
                        if (lo == q + 1 && below_fixed && i + 1 < u->n_iv && u->iv[i + 1].start <= t &&
                            q <= UINT32_MAX) {
                            u->df_fail_q[way] = (uint32_t)q;
                            u->df_fail_depth[way] = (uint8_t)depth;
                            u->df_valid |= (uint8_t)(1u << way);
                            s->df_fixed = true;
                            return q + 1;
                        }
                        break;
                    }
                    uint64_t run = qp - pp + 1, room = j + 1 - l->S;
                    lo -= run < room ? run : room;
                    /* stopped above its floor, the search found pr's position pp - 1 not dead;
                     * the next position down here pops exactly that one, and asking again (a
                     * search as deep as this one) would return pp - 1 + 1: whether a position
                     * is dead does not depend on the floor, which only ends the search below it */
                    if (run < room && pp > qp + 1 - want) break;
                } else if (leaf_used(s, u->seq << 20 | ((lo - 1) & 0xfffff))) { /* S or E: a leaf */
                    lo--;
                } else {
                    break;
                }
            }
            stop = lo > base;
        }
        if (stop || lo <= floor) break;
        /* the next older interval with events */
        do {
            i--;
            cnt = iv_stalls(s, u, i, 0, t);
        } while (!cnt && i > 0);
        if (!cnt) break;
        base -= cnt;
    }
    /* a walk past its first step ends at a remembered chain end (none in an empty run: most
     * searches prove nothing) */
    if (depth > 0 && lo <= q)
        for (int k = 0; k < MEMO_WAYS; k++) {
            const chain_end *ce = &u->memo[k];
            if ((u->memo_valid >> k & 1) && ce->q >= lo && ce->q <= q && !(ce->key && leaf_used(s, ce->key)))
                lo = ce->q + 1;
        }
    return lo;
}

/* Whether dead_from(x, q, floor, t, 0) returns q + 1 (proves nothing), known without the search
 * from the walk just made from q + 1 at this cycle: when that walk popped its position from the
 * producer in its first DEAD_DEPTH + 1 steps, and each step's position less one lies in the same
 * popped run of the same reader interval, the walk from q runs down the same µops one position
 * lower (the map from a reader's position to its producer's is a shift within the run), and so
 * does the search: at each of its levels the first position is popped from the producer, and at
 * DEAD_DEPTH it is not searched — the search fails level by level, down to the depth limit, as it
 * does at every refused candidate of a serial chain deeper than that (a checksum loop's: ~35
 * candidates per head). What the search would have left behind (its failures remembered, layouts
 * kept) only makes later searches faster, never different. */
static bool dead_from_fails_as_walked(const stallscope *s, const ss_uop *x, uint64_t q, uint64_t t) {
    if (s->wk_stamp != s->sc_stamp || s->sc_t != t || s->sc_gen != s->in_gen || s->wk_popped <= DEAD_DEPTH ||
        s->sc[0].u != x || s->sc[0].q != q + 1)
        return false;
    for (uint32_t k = 0; k <= DEAD_DEPTH; k++) {
        const step_cache *c = &s->sc[k];
        uint64_t from = c->base + c->lay.S, to = from + c->lay.D + c->lay.M;
        if (c->q <= from || c->q - 1 >= to) return false;
    }
    return true;
}

/* ---- completion (§3.7) ----------------------------------------------------------------------------- */

/* 2b: the most recent dispatch empty stall before cycle t (the head's dispatch) not yet taken
 * (a MultiStack reader), back to the last flush before t (§3.7: the history is kept "back to
 * the last flush"; an older empty stall was drained by it). */
static bool nearly_empty_cause(stallscope *s, uint64_t t, stall_cause *out) {
    /* instances before t */
    uint64_t n = 0;
    int64_t k = (int64_t)s->dh_count - 1, lim = s->dh_count > DHIST ? (int64_t)(s->dh_count - DHIST) : 0;
    /* the newest span starting before t: spans are kept in cycle order, and dispatch runs up to
     * a cadence of spans ahead of the commit cycle accounted, so a binary search (a scan from
     * the newest was a tenth of sort's run) */
    if (k < lim || s->dh[lim % DHIST].cycle >= t) return false;
    int64_t from = lim;
    if (s->ne_t && t >= s->ne_t && s->ne_k > lim) {
        /* asked for a cycle no earlier than the last call's: the answer is no older than its
         * (spans are only appended, in cycle order), and most of the time a few spans newer
         * (the next head's dispatch): a few steps forward before the binary search */
        from = s->ne_k;
        for (int step = 0; step < 8 && from < k && s->dh[(from + 1) % DHIST].cycle < t; step++) from++;
        /* stopped before a span starting at t or later: the answer, no search */
        if (from < k && s->dh[(from + 1) % DHIST].cycle >= t) k = from;
    }
    for (int64_t lo = from; lo < k;) {
        int64_t mid = lo + (k - lo + 1) / 2;
        if (s->dh[mid % DHIST].cycle < t) lo = mid;
        else k = mid - 1;
    }
    s->ne_t = t;
    s->ne_k = k;
    {
        const dspan *d = &s->dh[k % DHIST];
        uint64_t end = d->cycle + d->cycles < t ? d->cycle + d->cycles : t;
        n = d->pos + (end - d->cycle);
    }
    uint64_t q, floor = s->dh[k % DHIST].floor;
    if (n > s->nr_hi) {
        q = n - 1;
        if (q > s->nr_hi) s->nr_lo = q;
        s->nr_hi = n;
    } else if (s->nr_lo > floor) {
        q = --s->nr_lo;
    } else {
        return false;
    }
    /* the newest span in [lim, k] starting at or before instance q: positions grow with the
     * span index, so a binary search (the reader goes down into old spans one per cycle, and
     * a scan from the newest was most of the time of a long 2b run) */
    if (s->dh[lim % DHIST].pos > q) return false;
    int64_t lo = lim, hi = k;
    if (s->dh[k % DHIST].pos <= q) lo = k; /* the newest span itself, most of the time: no search */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (s->dh[mid % DHIST].pos <= q) lo = mid;
        else hi = mid - 1;
    }
    const dspan *d = &s->dh[lo % DHIST];
    *out = d->cause;
    return q < d->pos + d->cycles;
}

/* Where 2b reads the empty-stall history up to: the head's dispatch (its first wait state),
 * or t. */
static uint64_t head_dispatch(const ss_uop *x, uint64_t t) {
    return x->n_iv && x->iv[0].start < t ? x->iv[0].start : t;
}

/* Whether the chain ends in an operand wait's "too close" leaf. */
static bool path_ends_too_close(const stallscope *s, const path *p) {
    uint32_t last;
    path_last(p, 1, &last);
    return last == s->base_exec + E_TOO_CLOSE;
}

/* The first cycle at or after t in which u has a stall event (UINT64_MAX: none known yet). */
static uint64_t next_stall_event(const stallscope *s, const ss_uop *u, uint64_t t) {
    for (uint32_t k = 0; k < u->n_iv; k++) {
        uint64_t b = k + 1 < u->n_iv ? u->iv[k + 1].start : UINT64_MAX;
        if (b <= t || !iv_stalls(s, u, k, t, b)) continue;
        uint64_t e = u->iv[k].start > t ? u->iv[k].start : t;
        while (!iv_stalls(s, u, k, e, e + 1)) e++; /* a fill's events start after its hit latency */
        return e;
    }
    return UINT64_MAX;
}

/* Completion in commit cycle t, and in the cycles after it up to `to` that would find the
 * same: returns the cycles accounted (at least 1). */
static uint64_t completion_head(stallscope *s, uint64_t t, uint64_t to, uint64_t head_seq, uint64_t w) {
    path p;
    path_start(&p, s->base_completion + C_HEAD_NOT_DONE);
    ss_uop *x = uop_get(s, head_seq);
    if (!x) {
        path_push(s, &p, s->base_exec + E_EXPIRED);
        p.expired = true;
        accumulate(s, &p, w);
        return 1;
    }
    uint64_t n = stalls_before(s, x, t);
    if (!x->cr_init) {
        x->cr_init = true;
        x->cr_lo = x->cr_hi = n;
    }
    /* used_prefix gives the same answer until a leaf is added to the used set, which ends
     * this loop: asked once */
    uint64_t up = UINT64_MAX;
    for (;;) {
        uint64_t q;
        if (n > x->cr_hi) {
            q = n - 1;
            x->cr_hi = n;
        } else {
            if (up == UINT64_MAX) up = used_prefix(s, x, t, 0);
            if (x->cr_lo <= up) break; /* what is left leads only to leaves already accumulated */
            q = --x->cr_lo;
        }
        path tryp;
        path_start(&tryp, s->base_completion + C_HEAD_NOT_DONE); /* p as it is here */
        walk_uop(s, &tryp, x, q, t);
        if (tryp.leaf_key && leaf_used(s, tryp.leaf_key)) { /* §6.2: already accounted */
            s->sum.unique_rejections++;
            /* a chain cut short, or refused after more than LONG_REFUSED links (§6.3: the
             * statistical tail; on a serial FP chain each head refused ~20 walks of hundreds
             * of links, whose leaves its predecessors had accumulated): the head waits in a
             * serial dependence chain, and its older
             * events lead back into the same chain (searching them would cost a walk of
             * WALK_MAX links each): its history is taken as exhausted — for good, not for this
             * cycle only (the next cycle popped the next older event and walked the chain
             * again: a walk of up to WALK_MAX links per cycle, 500 times the run's time on a
             * serial FP chain whose walks found no remembered end). Events it pushes later are
             * still popped */
            if (tryp.leaf_key == KEY_CHAIN || path_len(&tryp) + tryp.extra > LONG_REFUSED) {
                x->cr_lo = 0;
                break;
            }
            /* and the run below it that would be refused too, in one step */
            if (up == UINT64_MAX) up = used_prefix(s, x, t, 0);
            if (x->cr_lo > up) {
                bool known = dead_from_fails_as_walked(s, x, x->cr_lo - 1, t);
                uint64_t lo = known ? x->cr_lo : dead_from(s, x, x->cr_lo - 1, up, t, 0);
                s->sum.searches++;
                s->sum.searches_known += known;
                if (lo < up) lo = up;
                if (lo < x->cr_lo) {
                    s->sum.unique_rejections += x->cr_lo - lo;
                    x->cr_lo = lo;
                }
            }
            continue;
        }
        if (s->opt.too_close_window && path_ends_too_close(s, &tryp)) {
            /* the extension (ss_options): a "too close" wait costs completion only when
             * nothing older is left to complete, the window drained — 2b's situation, whose
             * cause is the empty stalls ahead of the head; the popped event is left unused */
            stall_cause c;
            if (nearly_empty_cause(s, head_dispatch(x, t), &c)) {
                path_push(s, &p, s->base_completion + C_NEARLY_EMPTY);
                walk_frontend(s, &p, &c);
                accumulate(s, &p, w);
                return 1;
            }
        }
        if (tryp.leaf_key) used_add(s, tryp.leaf_key);
        accumulate(s, &tryp, w);
        return 1;
    }
    /* exhausted: 2c long executing, or 2b the ROB was nearly empty */
    if (s->opt.at_issue) {
        /* at issue the head has not run: 2c's analogue is the producer it waits for (in the
         * cycle accounted, t - 1), running longer than its minimum latency (§3.5) */
        uint64_t c = t - 1;
        for (uint32_t k = x->n_iv; k-- > 0;) {
            if (x->iv[k].start > c) continue;
            const ss_iv *iv = &x->iv[k];
            ss_uop *pr = iv->state == WST_OPERANDS && iv->cause ? uop_get(s, iv->cause) : NULL;
            if (pr && pr->issue != UINT64_MAX && pr->issue <= c) {
                bool long_exec = c >= pr->issue + min_latency(s, pr);
                path_push(s, &p, s->base_exec + E_OPERAND);
                path_push(s, &p,
                          s->base_exec +
                              (!long_exec        ? E_TOO_CLOSE
                                   : pr->retired ? E_LONG_EXEC + pr->op_class
                                                 : E_LONG_UNKNOWN));
                p.leaf_seq = long_exec ? pr->seq : x->seq;
                accumulate(s, &p, w);
                return 1;
            }
            break;
        }
    }
    if (x->issue != UINT64_MAX && x->issue <= t && t >= x->issue + min_latency(s, x)) {
        path_push(s, &p, s->base_exec + (x->retired ? E_LONG_EXEC + x->op_class : E_LONG_UNKNOWN));
        p.leaf_seq = x->seq;
        /* the cycles after t find the same until x has a new stall event to pop: its history,
         * popped down to its used prefix, stays exhausted (that prefix only grows) and it stays
         * long executing. A serial
         * chain of long operations (fp_chain) is mostly such runs: one step each */
        uint64_t e = next_stall_event(s, x, t);
        uint64_t end = e < to ? e + 1 : to;
        accumulate_n(s, &p, w, end - t);
        return end - t;
    }
    /* §3.7: the empty stalls that "have propagated downstream to completion" are those ahead of
     * the head: dispatched empty before it was. Empty dispatch cycles after its dispatch are
     * behind it in the window (a younger branch's refill, say) and cannot have brought it to
     * the bottom of the ROB too soon. (They were taken too, up to t; a younger branch's refill
     * was then blamed before the branch had even committed.) */
    stall_cause c;
    if (nearly_empty_cause(s, head_dispatch(x, t), &c)) {
        path_push(s, &p, s->base_completion + C_NEARLY_EMPTY);
        walk_frontend(s, &p, &c);
    } else {
        path_push(s, &p, s->base_completion + C_TOO_CLOSE);
        p.leaf_seq = x->seq;
    }
    accumulate(s, &p, w);
    return 1;
}

/* Completion over commit cycles [t, to) with the same head, in one step for the common run:
 * the head stalls in an interval whose events are leaves (a D-cache fill, no MSHR, no unit,
 * no issue slot), so each cycle completion pops the event the head pushed the cycle before
 * (§3.7 2a) — a leaf of its own, not yet accumulated — and accumulates the chain
 * head-not-done → that leaf. Returns the cycles so accounted (0: the caller goes cycle by
 * cycle); every cycle is checked for what completion_head would find in it, and the run
 * stops before the first that would differ (a used leaf, a poor-scheduling event, the
 * interval's end). */
static uint64_t completion_head_run(stallscope *s, uint64_t t, uint64_t to, uint64_t head_seq, uint64_t w) {
    ss_uop *x = uop_get(s, head_seq);
    if (!x || !x->cr_init || to - t < 2) return 0;
    /* the last interval begun before t, and x's stack size as of t */
    uint32_t last = x->n_iv;
    while (last && x->iv[last - 1].start >= t) last--;
    if (!last) return 0;
    last--;
    uint64_t base = x->iv[last].before, cnt = iv_stalls(s, x, last, 0, t);
    if (!cnt || base + cnt <= x->cr_hi) return 0;
    const ss_iv *iv = &x->iv[last];
    if (is_reader(iv)) return 0;
    uint32_t type;
    switch (iv->state) {
    case WST_READY: type = E_ISSUE_WIDTH; break;
    case WST_NO_UNIT: type = E_NO_UNIT; break;
    case WST_NO_MSHR: type = E_NO_MSHR; break;
    case WST_TRANSLATING: type = E_DTLB; break;
    case WST_FILL:
        type = iv->level >= LEVEL_MEM ? E_DMISS_MEM
            : iv->level == LEVEL_L3   ? E_DMISS_L3
            : iv->level == LEVEL_L2   ? E_DMISS_L2
                                      : E_DMISS_L1;
        break;
    default: return 0;
    }
    /* cycle t' pops position n + (t' - t) - 1 while the interval is the last begun before t' */
    uint64_t end = last + 1 < x->n_iv && x->iv[last + 1].start + 1 < to ? x->iv[last + 1].start + 1 : to;
    uint64_t n = base + cnt, k = 0;
    for (uint64_t tt = t; tt < end; tt++, k++) {
        uint64_t q = n + k - 1; /* cycle tt = t + k pops the event x pushed in tt - 1 */
        uint64_t key = x->seq << 20 | (q & 0xfffff);
        if (leaf_used(s, key)) break;
        if (iv->state == WST_READY) { /* walk_uop's poor-scheduling test for that event */
            uint64_t c = iv_first(s, x, last) + (q - base);
            uint32_t slot = c % ISSUE_HIST;
            if (s->issue_cycle[slot] == c + 1 && s->issue_youngest[slot] > x->seq) break;
        }
        used_add(s, key);
    }
    if (!k) return 0;
    x->cr_hi = n + k - 1; /* cycle t + i saw n + i events */
    path p;
    path_start(&p, s->base_completion + C_HEAD_NOT_DONE);
    path_push(s, &p, s->base_exec + type);
    p.leaf_key = x->seq << 20 | ((n + k - 2) & 0xfffff); /* the last cycle's */
    p.leaf_seq = x->seq;
    accumulate_n(s, &p, w, k);
    return k;
}

static void partial_check(stallscope *s, uint64_t cycle_end) {
    while (s->opt.interval && s->committed_uops >= s->part_next) {
        if (s->n_part == s->cap_part) {
            s->cap_part = s->cap_part ? s->cap_part * 2 : 64;
            s->part = cs_realloc(s->part, s->cap_part * sizeof *s->part);
        }
        ss_partial *pt = &s->part[s->n_part++];
        memset(pt, 0, sizeof *pt);
        pt->uops_end = s->committed_uops;
        pt->cycles = cycle_end - s->part_cycle0;
        pt->lost = s->sum.accumulated - s->part_lost0;
        for (uint32_t ty = 0; ty < s->n_types; ty++) {
            uint64_t d = s->leaf_total[ty] - s->part_leaf0[ty];
            for (int k = 0; k < 3; k++) {
                if (d > pt->top_weight[k]) {
                    for (int m = 2; m > k; m--)
                        pt->top_weight[m] = pt->top_weight[m - 1], pt->top_type[m] = pt->top_type[m - 1];
                    pt->top_weight[k] = d;
                    pt->top_type[k] = ty;
                    break;
                }
            }
            s->part_leaf0[ty] = s->leaf_total[ty];
        }
        s->part_cycle0 = cycle_end;
        s->part_lost0 = s->sum.accumulated;
        s->part_next += s->opt.interval;
    }
}

/* Account commit cycles [from, to) of span sp. */
static void commit_cycles(stallscope *s, const stage_span *sp, uint64_t from, uint64_t to) {
    const stage_view *v = &sp->v;
    uint64_t cycles = to - from;
    uint32_t width = v->width ? v->width : s->m.commit_width;
    uint64_t lost = v->n < width ? width - v->n : 0;
    s->sum.cycles += cycles;
    s->sum.opportunities += cycles * width;
    s->sum.committed += cycles * v->n;
    s->sum.lost += cycles * lost;
    if (lost && s->opt.at_issue && (v->stall == STALL_NOT_READY || v->stall == STALL_NO_UNIT)) {
        /* completion at in-order issue: the head is the oldest µop not issued, its history
         * what kept it from issuing (an operand wait, the pipe a miss holds: §3.4, §3.5).
         * Commit in cycle t pops the event the head pushed in t - 1; here the stall is the
         * head's own in cycle t (it failed to issue in t), so its history is read as of t + 1 */
        for (uint64_t t = from; t < to;) {
            uint64_t head = issue_head(s, t), k = 1;
            if (t + 1 < to && s->il_count && s->il_cycle[s->il_head] < to) { /* the head changes inside */
                k = completion_head(s, t + 1, t + 2, head, lost);
            } else {
                k = completion_head_run(s, t + 1, to + 1, head, lost);
                if (!k) k = completion_head(s, t + 1, to + 1, head, lost);
            }
            t += k;
        }
    } else if (lost) {
        if (v->stall == STALL_HEAD_NOT_DONE && v->cause.kind == CAUSE_UOP) {
            for (uint64_t t = from; t < to;) {
                uint64_t k = completion_head_run(s, t, to, v->cause.seq, lost);
                if (k) t += k;
                else t += completion_head(s, t, to, v->cause.seq, lost);
            }
        } else if (v->cause.kind == CAUSE_STORE_BUFFER) {
            /* the head is a done store (ooo: STALL_SB_FULL) or a store held by the full buffer
             * (in order: head not done): the structure's cause is its oldest store, waiting
             * for its line. No µop event of the head's is popped: the leaf is the buffer's,
             * one per cycle it stays full */
            path p;
            path_start(&p, s->base_completion + C_HEAD_NOT_DONE);
            path_push(s, &p, s->base_exec + E_STORE_BUFFER);
            path_push(s, &p, s->base_exec + store_buffer_leaf(v->cause.level));
            p.leaf_pc = v->cause.pc;
            accumulate(s, &p, lost * cycles);
        } else {
            path p;
            path_start(&p, s->base_completion + C_ROB_EMPTY);
            if (v->stall == STALL_ROB_EMPTY || v->stall == STALL_IQ_EMPTY) walk_frontend(s, &p, &v->cause);
            else path_push(s, &p, s->base_dispatch + D_OTHER);
            accumulate(s, &p, lost * cycles);
        }
    }
    /* partial summaries at µop-count boundaries (§7.4): cycle by cycle only when one falls inside */
    if (s->opt.interval && v->n && s->committed_uops + cycles * v->n >= s->part_next) {
        for (uint64_t t = from; t < to; t++) {
            s->committed_uops += v->n;
            partial_check(s, t + 1);
        }
    } else {
        s->committed_uops += cycles * v->n;
    }
}

/* ---- input ------------------------------------------------------------------------------------------ */

void ss_record(stallscope *s, const uop_record *r) {
    s->in_gen++;
    /* a record may come before the µop's wait transitions when both were in the batches of one flush */
    ss_uop *u = uop_slot(s, r->seq);
    u->pc = r->u.pc;
    u->encoding = r->u.encoding;
    u->op_class = r->u.op_class;
    u->retired = true;
    if (u->hot_weight) {
        hot_add(s, u->pc, u->encoding, u->hot_type, u->hot_weight, 1);
        u->hot_weight = 0;
    }
    if (r->mispredict) {
        uint32_t slot = r->seq % 1024;
        s->misp_seq[slot] = r->seq;
        s->misp_kind[slot] = (uint8_t)(r->mispredict | ((r->u.flags & UOP_TAKEN) ? 0x80 : 0));
    }
}

void ss_event(stallscope *s, const probe_event *e) {
    if (e->kind == PEV_MISPREDICT) {
        uint32_t slot = e->seq % 1024;
        if (s->misp_seq[slot] != e->seq) s->misp_kind[slot] = e->detail;
        s->misp_seq[slot] = e->seq;
    }
}

void ss_span(stallscope *s, const stage_span *sp) {
    if (sp->stage == STAGE_COMMIT) {
        if (s->cq_count == s->cq_cap) {
            stage_span *nq = cs_calloc(s->cq_cap * 2, sizeof *nq);
            for (uint64_t i = 0; i < s->cq_count; i++) nq[i] = s->cq[(s->cq_head + i) % s->cq_cap];
            free(s->cq);
            s->cq = nq;
            s->cq_head = 0;
            s->cq_cap *= 2;
        }
        s->cq[(s->cq_head + s->cq_count++) % s->cq_cap] = *sp;
    } else if (sp->stage == STAGE_DISPATCH) {
        s->dispatch_cov = sp->cycle + sp->cycles;
        if (sp->v.stall == STALL_FRONTEND_EMPTY && sp->v.n < sp->v.width) {
            /* §3.7: the empty-stall history goes back to the last flush; a flush's refill starts
             * a new one (the models fetch no wrong path: the refill is the first empty stall that
             * carries the flush) */
            if (sp->v.cause.kind == CAUSE_BPRED && sp->v.cause.seq != s->flush_seq)
                s->flush_seq = sp->v.cause.seq, s->flush_floor = s->dh_pos;
            dspan *d = &s->dh[s->dh_count++ % DHIST];
            *d = (dspan){sp->cycle, sp->cycles, s->dh_pos, s->flush_floor, sp->v.cause};
            s->dh_pos += sp->cycles;
        }
    }
}

void ss_advance(stallscope *s, uint64_t horizon) {
    while (s->cq_count) {
        stage_span *sp = &s->cq[s->cq_head];
        uint64_t from = s->commit_done > sp->cycle ? s->commit_done : sp->cycle;
        uint64_t end = sp->cycle + sp->cycles;
        uint64_t to = end < horizon ? end : horizon;
        if (to > from) {
            commit_cycles(s, sp, from, to);
            s->commit_done = to;
        }
        if (to < end) break;
        s->cq_head = (s->cq_head + 1) % s->cq_cap;
        s->cq_count--;
    }
}

static int hot_cmp(const void *a, const void *b) {
    const ss_hotspot *x = a, *y = b;
    return x->weight < y->weight ? 1 : x->weight > y->weight ? -1 : (x->pc > y->pc) - (x->pc < y->pc);
}

void ss_finish(stallscope *s, const core_stats *stats) {
    (void)stats;
    ss_advance(s, UINT64_MAX);
    chains_to_trees(s);
    if (s->opt.interval && s->committed_uops > s->part_next - s->opt.interval) { /* the last, partial interval */
        s->part_next = s->committed_uops;
        partial_check(s, s->commit_done);
    }
    /* µops whose record never came: their weight to an unknown pc */
    for (size_t i = 0; i < RING; i++)
        if (s->ring[i].seq && s->ring[i].hot_weight) {
            hot_add(s, 0, 0, s->ring[i].hot_type, s->ring[i].hot_weight, 1);
            s->ring[i].hot_weight = 0;
        }
    free(s->hot_sorted);
    s->hot_sorted = cs_calloc(s->hot_count + 1, sizeof *s->hot_sorted);
    s->hot_sorted_count = 0;
    for (uint64_t i = 0; i < s->hot_cap; i++)
        if (s->hot[i].weight)
            s->hot_sorted[s->hot_sorted_count++] =
                (ss_hotspot){s->hot[i].pc, s->hot[i].weight, s->hot[i].type, s->hot[i].encoding};
    qsort(s->hot_sorted, s->hot_sorted_count, sizeof *s->hot_sorted, hot_cmp);
    uint64_t bytes = sizeof *s + RING * sizeof *s->ring + s->cq_cap * sizeof *s->cq +
        (s->t.cap + s->inv.cap) * sizeof(ss_node) + (s->t.hash_cap + s->inv.hash_cap) * 4 + s->hot_cap * sizeof(hot) +
        s->cap_chain * sizeof(chain_rec) + s->chain_hash_cap * 4 + s->cap_chain_type * 4 + s->used.cap * 8;
    for (size_t i = 0; i < RING; i++) bytes += s->ring[i].heap_cap * sizeof(ss_iv);
    s->sum.peak_bytes = bytes;
}

/* ---- result access --------------------------------------------------------------------------------- */

const ss_summary *ss_summary_of(const stallscope *s) { return &s->sum; }
const ss_node *ss_tree(const stallscope *s, uint32_t *count) {
    *count = s->t.count;
    return s->t.node;
}
const ss_node *ss_inverted(const stallscope *s, uint32_t *count) {
    *count = s->inv.count;
    return s->inv.node;
}
const uint64_t *ss_node_totals(const stallscope *s) { return s->node_total; }
const ss_hotspot *ss_hotspots(const stallscope *s, uint32_t *count) {
    *count = s->hot_sorted_count;
    return s->hot_sorted;
}
const ss_partial *ss_partials(const stallscope *s, uint32_t *count) {
    *count = s->n_part;
    return s->part;
}
const ss_options *ss_options_of(const stallscope *s) { return &s->opt; }
const ss_machine *ss_machine_of(const stallscope *s) { return &s->m; }
