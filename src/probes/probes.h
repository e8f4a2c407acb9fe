/* probes — how analyses see a timing run without reaching into the core.
 *
 * Two streams, both optional:
 *  - a cycle view per simulated cycle: for fetch, dispatch, issue and commit,
 *    how many µops the stage processed out of its width and, when fewer, its
 *    local stall type and the cause the stage can see (the adjacent stage, the
 *    producer of the first non-ready µop, the ROB head and its state, a pending
 *    I-cache miss, a mispredicted branch in flight, a flush);
 *  - a timing record per committed µop, in program order: its stage
 *    timestamps and its miss and mispredict events.
 * Observers register callbacks; a core with none registered skips building
 * the views (one predictable branch per cycle).
 *
 * Both timing models (out-of-order and in-order) fill the same structures, so
 * every analysis runs on either.
 */
#ifndef CYCLESCOPE_PROBES_H
#define CYCLESCOPE_PROBES_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/trace.h"
#include "util/util.h"

/* The stages a cycle view reports. */
typedef enum probe_stage { STAGE_FETCH, STAGE_DISPATCH, STAGE_ISSUE, STAGE_COMMIT, STAGE_COUNT } probe_stage;

/* Memory-hierarchy levels, for "which level served the miss". */
typedef enum mem_level { LEVEL_L1 = 1, LEVEL_L2 = 2, LEVEL_L3 = 3, LEVEL_MEM = 4 } mem_level;

/* Why a stage processed fewer µops than its width: the stage's local view. */
#define PROBE_STALL_LIST(X)                                                                 \
    X(STALL_NONE, "none") /* full width used */                                             \
    /* fetch */                                                                             \
    X(STALL_ICACHE, "icache-miss")      /* waiting for an I-cache fill */                   \
    X(STALL_ITLB, "itlb-miss")          /* waiting for an ITLB fill */                      \
    X(STALL_MISPREDICT, "mispredict")   /* a mispredicted branch is unresolved */           \
    X(STALL_REDIRECT, "redirect")       /* resolved; paying the redirect penalty */         \
    X(STALL_FETCH_BREAK, "fetch-break") /* stopped at a taken branch or line end */         \
    X(STALL_BUFFER_FULL, "buffer-full") /* the next stage is not taking µops */            \
    X(STALL_TRACE_END, "trace-end")     /* no more µops in the source */                   \
    /* dispatch */                                                                          \
    X(STALL_FRONTEND_EMPTY, "frontend-empty") /* nothing decoded to dispatch */             \
    X(STALL_ROB_FULL, "rob-full")                                                           \
    X(STALL_IQ_FULL, "iq-full")                                                             \
    X(STALL_LQ_FULL, "lq-full")                                                             \
    X(STALL_SQ_FULL, "sq-full")                                                             \
    X(STALL_REGS_FULL, "regs-full") /* no free rename register */                           \
    X(STALL_SERIALIZE, "serialize") /* waits for older µops to drain (system ops) */       \
    /* issue */                                                                             \
    X(STALL_IQ_EMPTY, "iq-empty")                                                           \
    X(STALL_NOT_READY, "not-ready") /* oldest waiting µop lacks operands */                \
    X(STALL_NO_UNIT, "no-unit")     /* ready µops, no free functional unit or port */      \
    X(STALL_MEM_ORDER, "mem-order") /* a ready load waits for an older store (the cause) */ \
    X(STALL_NO_MSHR, "no-mshr")     /* a ready load cannot get a miss register */           \
    /* commit */                                                                            \
    X(STALL_ROB_EMPTY, "rob-empty")                                                         \
    X(STALL_HEAD_NOT_DONE, "head-not-done")

typedef enum probe_stall {
#define PROBE_STALL_ENUM(id, name) id,
    PROBE_STALL_LIST(PROBE_STALL_ENUM)
#undef PROBE_STALL_ENUM
        STALL_COUNT
} probe_stall;

const char *probe_stall_name(probe_stall s);

/* What caused a stall, as far as the stage can tell. */
typedef enum cause_kind {
    CAUSE_NONE,
    CAUSE_ICACHE,    /* an I-cache miss is outstanding; `level` served it */
    CAUSE_ITLB,      /* an ITLB miss is outstanding */
    CAUSE_BPRED,     /* a mispredicted branch (`uop`) is unresolved or being redirected */
    CAUSE_FRONTEND,  /* frontend latency or bandwidth with no miss (refill, fetch breaks) */
    CAUSE_UOP,       /* a µop: the ROB head, or the producer of the first non-ready µop */
    CAUSE_STRUCTURE, /* a full structure or busy unit with no µop to blame */
    CAUSE_TRACE_END  /* the µop source is exhausted: the pipeline drains */
} cause_kind;

/* The state of a blamed µop. */
typedef enum uop_state {
    UOPST_WAIT_OPERANDS, /* dispatched, some producer not complete */
    UOPST_READY,         /* operands ready, not issued (structural) */
    UOPST_EXECUTING,     /* issued, not complete */
    UOPST_DONE           /* complete, waiting to commit */
} uop_state;

typedef struct stall_cause {
    uint8_t kind;     /* cause_kind */
    uint8_t level;    /* CAUSE_ICACHE: level serving the miss; CAUSE_UOP: level that
                           served its data access if it missed L1 (0 otherwise) */
    uint8_t state;    /* CAUSE_UOP: uop_state */
    uint8_t op_class; /* CAUSE_UOP/BPRED: the µop's class */
    uint16_t latency; /* CAUSE_UOP: execution latency of its class (>1: long latency) */
    uint64_t seq;     /* CAUSE_UOP/BPRED: the µop's sequence number */
    uint64_t pc;
} stall_cause;

typedef struct stage_view {
    uint8_t n;         /* µops processed this cycle */
    uint8_t width;     /* the stage's width */
    uint8_t stall;     /* probe_stall; STALL_NONE when n == width */
    stall_cause cause; /* when stall != STALL_NONE */
} stage_view;

/* Floating-point view of the issue stage (FLOPS stacks, Eyerman et al. Table III). */
typedef struct fp_view {
    uint8_t units;          /* k: FP arithmetic units */
    uint8_t issued;         /* n: FP arithmetic µops issued this cycle */
    uint8_t flops;          /* FP operations issued this cycle (an FMA counts 2) */
    uint8_t nonflop_on_fpu; /* FP-unit slots used by µops that are not FP arithmetic */
    bool waiting;           /* FP arithmetic µops are in the issue queue */
    stall_cause cause;      /* producer of the oldest waiting FP µop (CAUSE_UOP) */
} fp_view;

/* One cycle (or `repeat` identical cycles) of a run. */
typedef struct cycle_view {
    uint64_t cycle;  /* first cycle this view stands for, counted from the start of measurement */
    uint64_t repeat; /* how many consecutive identical cycles (>= 1) */
    stage_view stage[STAGE_COUNT];
    fp_view fp;
    uint16_t rob, iq, lq, sq; /* occupancies */
} cycle_view;

/* A committed µop with its history. Cycles are counted from the start of
 * measurement; a stage the model does not have repeats the previous stamp. */
typedef struct uop_timing {
    uop u;
    uint64_t seq;          /* 1, 2, 3… in program order */
    uint64_t fetch;        /* fetch started (I-cache access) */
    uint64_t icache_done;  /* bytes delivered by the I-cache (== fetch on a hit) */
    uint64_t rename;       /* renamed, ROB entry allocated */
    uint64_t dispatch;     /* issue queue entry allocated */
    uint64_t ready;        /* all operands available */
    uint64_t issue;        /* began execution */
    uint64_t complete;     /* result available */
    uint64_t commit;       /* retired */
    uint16_t exec_latency; /* complete - issue as the functional unit set it */
    uint8_t icache_level;  /* level that served its fetch (0: L1 hit or not the first of its line) */
    uint8_t dcache_level;  /* level that served its data access (0: L1 hit or no access) */
    bool mispredicted;     /* a control transfer the frontend predicted wrong */
    bool itlb_miss;
    bool forwarded;        /* a load served by store-to-load forwarding */
    uint64_t mem_wait_seq; /* the older store a load waited for (0: none) */
} uop_timing;

/* What an observer learns before the first measured cycle. */
typedef struct probe_run_info {
    const char *model; /* "ooo", "inorder" */
    const char *config_name;
    uint8_t width[STAGE_COUNT];
    uint8_t fp_units;  /* k */
    uint8_t fp_vector; /* v: 1 for scalar RISC-V F/D */
    double freq_ghz;
} probe_run_info;

/* An observer. Any callback may be NULL. */
typedef struct probe_observer {
    void *ctx;
    void (*begin)(void *ctx, const probe_run_info *info);
    void (*cycle)(void *ctx, const cycle_view *view);
    void (*retire)(void *ctx, const uop_timing *t);
    void (*end)(void *ctx, uint64_t cycles, uint64_t instructions);
} probe_observer;

enum { PROBE_MAX_OBSERVERS = 8 };

/* The observers of one run, kept by the core. */
typedef struct probe_set {
    probe_observer obs[PROBE_MAX_OBSERVERS];
    int count;
    bool want_cycles; /* some observer has a cycle callback */
    bool want_retire; /* some observer has a retire callback */
} probe_set;

/* False when the set is full. */
bool probe_set_add(probe_set *set, const probe_observer *obs);

static inline void probe_emit_cycle(const probe_set *set, const cycle_view *v) {
    for (int i = 0; i < set->count; i++)
        if (set->obs[i].cycle) set->obs[i].cycle(set->obs[i].ctx, v);
}
static inline void probe_emit_retire(const probe_set *set, const uop_timing *t) {
    for (int i = 0; i < set->count; i++)
        if (set->obs[i].retire) set->obs[i].retire(set->obs[i].ctx, t);
}
void probe_emit_begin(const probe_set *set, const probe_run_info *info);
void probe_emit_end(const probe_set *set, uint64_t cycles, uint64_t instructions);

/* ---- the first observer: a pipeline log in gem5's O3PipeView format, which
 * Konata and gem5's util/o3-pipeview.py display (1000 ticks per cycle). ---- */

typedef struct pipeview pipeview;
pipeview *pipeview_open(const char *path, cs_error *err);
probe_observer pipeview_observer(pipeview *pv);
/* Flush and close; false if writing failed. */
bool pipeview_close(pipeview *pv, cs_error *err);

#endif
