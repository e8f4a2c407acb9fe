/* probes — how analyses see a timing run without reaching into the core
 * (contract v2; docs/probes.md).
 *
 * An observer declares what it needs, as a mask of PROBE_* bits, and the core
 * computes only what some observer asked for: with no observer it builds
 * nothing for them, and idle-cycle skipping is decided from the core's own
 * state. What an observer can ask for:
 *
 *   PROBE_STAGES     stage spans: for dispatch, issue and commit, how many
 *                    µops the stage processed out of its width and, when fewer,
 *                    its stall type and cause — delivered when it changes, with
 *                    the number of cycles it lasted, in batches
 *   PROBE_FETCH      the same for the fetch stage (contract 3: on request only;
 *                    the stacks do not need it), in batches of their own
 *   PROBE_FP         the same for the issue stage's floating-point view (FLOPS stacks)
 *   PROBE_RETIRE     one record per committed µop, in program order, in batches:
 *                    stage timestamps, functional unit, miss levels, mispredict
 *   PROBE_PRODUCERS  (with PROBE_RETIRE) the records also carry the µop's register
 *                    and memory producers and, for memory µops, the address-ready time
 *   PROBE_EVENTS     sparse events when they happen: misses (per level, with the
 *                    cycle the fill arrives), mispredicts detected / resolved,
 *                    flushes, fetch redirected, structures becoming full or empty,
 *                    prefetches
 *   PROBE_WAITS      per-µop wait-state transitions while a µop is in the window
 *                    (waiting for producer X, ready but no unit, behind store Y, no
 *                    miss register, executing, waiting for a fill, done): one
 *                    record per transition, never one per cycle
 *   PROBE_SAMPLES    a timer: the observer sets the period, and picks the next one
 *                    at each sample (so it can randomise); at a sample cycle the core
 *                    hands it a sample view (the µop at the head of issue and its
 *                    true stall state). Idle-cycle skipping never skips a sample.
 *                    Between samples it costs nothing: with samples alone the
 *                    core builds views only in the few cycles before each sample
 *                    that the sample view's causes look back on.
 *   PROBE_INTERVALS  every N committed instructions, a snapshot of the statistics
 *
 * Delivery. Records are collected into per-kind batches and handed over when a
 * batch fills, before every sample and interval callback, and at the end of the
 * run — so an observer called back at cycle T has already seen every record of
 * every kind it asked for that ended before T. Within a kind, records are in
 * the order they were produced: stage spans in the order they end (each
 * stage's spans are consecutive and cover [0, cycles) exactly), retire records
 * in program order, events and wait transitions in the order of the cycles
 * they happened in. Every record carries its cycle. The arrays are valid only
 * during the call.
 *
 * Both timing models (out-of-order and in-order) fill the same structures, so
 * every analysis runs on either. Cycles are counted from the start of the
 * measured part of the run (after warm-up).
 */
#ifndef CYCLESCOPE_PROBES_H
#define CYCLESCOPE_PROBES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "trace/trace.h"
#include "uarch/config.h"
#include "util/util.h"

/* The contract's version. 2: as docs/probes.md first described it. 3: the
 * memory system's events (PEV_FILL, PEV_PREFETCH, miss registers and store
 * buffer as PEV_STRUCT, TLB misses with the level that served them and
 * UNIT_L2TLB), the record's DTLB fields filled; fetch spans only for observers
 * that ask for them (PROBE_FETCH; PROBE_STAGES alone no longer brings them).
 * 4: the L2's and L3's miss registers full / empty (UNIT_MSHR_L2, UNIT_MSHR_L3).
 * 5: the sample view's commit slots (ooo): the commit view, the µops committed in the sample's
 * cycle and the ROB head with what it waits for.
 * 6: the store buffer's writes to the L1D (PEV_STORE_WRITE).
 * 7: the fill a store's request joined (PEV_STORE_JOIN: when it started, whether a prefetch's). */
#define PROBE_CONTRACT_VERSION 7

/* ---- what an observer can ask for ---------------------------------------------- */

enum {
    PROBE_STAGES = 1u << 0,
    PROBE_FP = 1u << 1,
    PROBE_RETIRE = 1u << 2,
    PROBE_PRODUCERS = 1u << 3,
    PROBE_EVENTS = 1u << 4,
    PROBE_WAITS = 1u << 5,
    PROBE_SAMPLES = 1u << 6,
    PROBE_INTERVALS = 1u << 7,
    PROBE_FETCH = 1u << 8, /* the fetch stage's spans, through `stages` (contract 3) */
};

/* ---- stage views --------------------------------------------------------------- */

/* The stages a stage view reports. */
typedef enum probe_stage { STAGE_FETCH, STAGE_DISPATCH, STAGE_ISSUE, STAGE_COMMIT, STAGE_COUNT } probe_stage;
const char *probe_stage_name(probe_stage s);

/* Memory-hierarchy levels, for "which level served the miss" (0: none / L1 hit). */
typedef enum mem_level { LEVEL_NONE = 0, LEVEL_L1 = 1, LEVEL_L2 = 2, LEVEL_L3 = 3, LEVEL_MEM = 4 } mem_level;

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
    /* issue */                                                                             \
    X(STALL_IQ_EMPTY, "iq-empty")                                                           \
    X(STALL_NOT_READY, "not-ready") /* oldest waiting µop lacks operands */                \
    X(STALL_NO_UNIT, "no-unit")     /* ready µops, no free functional unit or port */      \
    X(STALL_MEM_ORDER, "mem-order") /* a ready load waits for an older store (the cause) */ \
    X(STALL_NO_MSHR, "no-mshr")     /* a ready load cannot get a miss register */           \
    /* commit */                                                                            \
    X(STALL_ROB_EMPTY, "rob-empty")                                                         \
    X(STALL_HEAD_NOT_DONE, "head-not-done")                                                 \
    X(STALL_SB_FULL, "sb-full") /* the head is a done store; the store buffer is full */

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
    CAUSE_ICACHE,      /* an I-cache miss is outstanding; `level` served it */
    CAUSE_ITLB,        /* an ITLB miss is outstanding */
    CAUSE_BPRED,       /* a mispredicted branch (`seq`) is unresolved, or fetch is being redirected
                        after it: the refill that follows is the model's flush */
    CAUSE_FRONTEND,    /* frontend latency or bandwidth with no miss (refill, fetch breaks) */
    CAUSE_UOP,         /* a µop: the ROB head, or the producer of the first non-ready µop */
    CAUSE_STRUCTURE,   /* a full structure or busy unit with no µop to blame */
    CAUSE_TRACE_END,   /* the µop source is exhausted: the pipeline drains */
    CAUSE_STORE_BUFFER /* the store buffer is full: `seq`, `pc` = its oldest store, `level` =
                          the level its line comes from (L1: written at one a cycle) */
} cause_kind;

/* The state of a blamed µop. */
typedef enum uop_state {
    UOPST_WAIT_OPERANDS, /* dispatched, some producer not complete */
    UOPST_READY,         /* operands ready, not issued (structural) */
    UOPST_EXECUTING,     /* issued, not complete */
    UOPST_DONE,          /* complete, waiting to commit */
    UOPST_TRANSLATING    /* issued memory µop whose data address is being translated (a DTLB
                            miss: the second-level TLB and/or the page walk) */
} uop_state;

/* The views have no padding (every byte is a field), so that two views are
 * equal exactly when their bytes are: the core compares them every cycle. */
typedef struct stall_cause {
    uint8_t kind;     /* cause_kind */
    uint8_t level;    /* CAUSE_ICACHE: level serving the miss; CAUSE_UOP: level that
                           served its data access if it missed L1 (0 otherwise) */
    uint8_t state;    /* CAUSE_UOP: uop_state */
    uint8_t op_class; /* CAUSE_UOP/BPRED: the µop's class */
    uint32_t latency; /* CAUSE_UOP: execution latency of its class (>1: long latency) */
    uint64_t seq;     /* CAUSE_UOP/BPRED: the µop's sequence number */
    uint64_t pc;
} stall_cause;

typedef struct stage_view {
    uint16_t n;        /* µops processed in each cycle of the span */
    uint16_t width;    /* the stage's width */
    uint32_t stall;    /* probe_stall; STALL_NONE when n == width */
    stall_cause cause; /* when stall != STALL_NONE */
} stage_view;

/* Floating-point view of the issue stage (FLOPS stacks, Eyerman et al. Table III). */
typedef struct fp_view {
    uint8_t units;          /* k: FP arithmetic units */
    uint8_t issued;         /* n: FP arithmetic µops issued in each cycle */
    uint8_t flops;          /* FP operations issued in each cycle (an FMA counts 2) */
    uint8_t nonflop_on_fpu; /* FP-unit slots used by µops that are not FP arithmetic */
    uint8_t waiting;        /* 1: FP arithmetic µops are in the issue queue */
    uint8_t flops_outside;  /* FP operations issued to a unit outside the k (bdw's and knl's divider) */
    uint16_t reserved;      /* 0 */
    stall_cause cause;      /* producer of the oldest waiting FP µop (CAUSE_UOP) */
} fp_view;
_Static_assert(sizeof(stall_cause) == 24 && sizeof(stage_view) == 32 && sizeof(fp_view) == 32, "views without padding");

/* PROBE_STAGES: stage `stage` showed view `v` in every cycle of
 * [cycle, cycle + cycles), and something else in the cycles around. */
typedef struct stage_span {
    uint64_t cycle;  /* first cycle */
    uint64_t cycles; /* >= 1 */
    uint8_t stage;   /* probe_stage */
    stage_view v;
} stage_span;

/* PROBE_FP: the same for the FP view. */
typedef struct fp_span {
    uint64_t cycle, cycles;
    fp_view v;
} fp_span;

/* ---- the per-µop record (PROBE_RETIRE) ------------------------------------------- */

/* Which kind of control transfer was predicted wrong. */
typedef enum mispredict_kind {
    MISP_NONE,     /* predicted right (or not a control transfer) */
    MISP_COND,     /* conditional branch: direction (or target) */
    MISP_DIRECT,   /* direct jump or call: target not known in time */
    MISP_INDIRECT, /* indirect jump or call: target */
    MISP_RETURN    /* return: target */
} mispredict_kind;
const char *mispredict_kind_name(mispredict_kind k);
/* The kind a wrong prediction of a µop of class `cls` (op_class) is. */
mispredict_kind mispredict_kind_of(uint8_t cls);

enum {
    UREC_FORWARDED = 1 << 0,       /* a load served by store-to-load forwarding */
    UREC_ITLB_MISS = 1 << 1,       /* its fetch waited for an ITLB miss */
    UREC_DTLB_MISS = 1 << 2,       /* its data access missed the DTLB */
    UREC_FIRST_IN_GROUP = 1 << 3,  /* the first µop of its fetch group (cycle) */
    UREC_FIRST_IN_LINE = 1 << 4,   /* the first µop fetched from its I-cache line */
    UREC_VALUE_PREDICTED = 1 << 5, /* in-order value prediction: its result was predicted right */
};

/* A committed µop with its history. Timestamps are cycles from the start of
 * measurement; a stage the model does not have repeats the previous stamp. The
 * letters are RpStacks' Table I nodes. */
typedef struct uop_record {
    uop u;
    uint64_t seq;         /* 1, 2, 3… in program order */
    uint64_t fetch;       /* [F] fetch started (I-cache and ITLB accessed) */
    uint64_t itlb_done;   /* [ITLB] translation done (== fetch without an ITLB miss) */
    uint64_t icache_done; /* [I$] bytes delivered by the I-cache (== fetch + hit latency on a hit) */
    uint64_t decode;      /* decoded: the first cycle it could rename */
    uint64_t rename;      /* [N] renamed, ROB entry allocated */
    uint64_t dispatch;    /* [D] issue-queue entry allocated */
    uint64_t ready;       /* [R] all operands available */
    uint64_t issue;       /* [E] began execution */
    uint64_t complete;    /* [P] result available */
    uint64_t commit;      /* [C] retired */
    /* PROBE_PRODUCERS (0 otherwise) */
    uint64_t addr_ready;   /* [AR] memory µops: the address operand available (loads: == ready) */
    uint64_t dtlb_done;    /* [DTLB] memory µops: translation done (addr_ready + the DTLB miss's
                              cycles: L2 TLB, page walk; == addr_ready on a hit or with no DTLB) */
    uint64_t prod_seq[3];  /* per source slot u.src[k]: the youngest older µop of the measured run
                             that writes that register (0: none, or written before measurement) */
    uint64_t mem_prod_seq; /* loads: the older store it forwarded from, else the last one it waited
                              for (0: none) */
    /* always */
    uint64_t mem_wait_seq; /* the older store a load waited for (0: none) */
    uint16_t exec_latency; /* complete - issue as the functional unit set it */
    uint8_t pool;          /* functional-unit pool (index into cfg->pool); in-order: the pipe */
    uint8_t unit;          /* the unit within the pool (0 in-order) */
    uint8_t icache_level;  /* level that served its fetch (0: L1 hit or not the first of its line) */
    /* dcache_level: the level that served its data access (0: L1 hit or no access); a store's
     * through a store buffer (ooo: always; in-order: core.store_buffer > 0), the level its line
     * was found at, in program order */
    uint8_t dcache_level;
    uint8_t mispredict; /* mispredict_kind */
    uint8_t flags;      /* UREC_* */
} uop_record;

/* ---- events (PROBE_EVENTS) ------------------------------------------------------- */

/* The units events name: caches and TLBs, and the structures that fill up. */
typedef enum probe_unit {
    UNIT_NONE,
    UNIT_L1I,
    UNIT_L1D,
    UNIT_L2,
    UNIT_L3,
    UNIT_ITLB,
    UNIT_DTLB,
    UNIT_ROB,
    UNIT_IQ, /* in-order: the issue buffer */
    UNIT_LQ,
    UNIT_SQ,
    UNIT_FETCH_BUFFER,
    UNIT_MSHR_L1I,
    UNIT_MSHR_L1D,
    UNIT_STORE_BUFFER,
    UNIT_L2TLB,   /* the second-level TLB (contract 3) */
    UNIT_MSHR_L2, /* the L2's miss registers: L1 fills that miss the L2 too (contract 4) */
    UNIT_MSHR_L3, /* the L3's: L1 fills that miss the L3 too (contract 4) */
    UNIT_COUNT
} probe_unit;
const char *probe_unit_name(probe_unit u);

typedef enum probe_event_kind {
    PEV_MISS,       /* `unit` missed for µop `seq` (pc, addr); `level` served it; the data
                       arrives at `end`; detail 1: it joined a fill already in flight.
                       One event per level missed: an L1D miss served by memory is an
                       L1D miss and an L2 miss (and an L3 miss when there is one).
                       TLBs (contract 3): an ITLB or DTLB miss has `level` LEVEL_L2 when
                       the L2 TLB served it, LEVEL_MEM when the page was walked, and an
                       L2 TLB miss is a second event (unit UNIT_L2TLB) */
    PEV_MISPREDICT, /* fetch found that control transfer `seq` (pc) was predicted wrong;
                       detail: mispredict_kind. Fetch stops (correct-path model) */
    PEV_RESOLVE,    /* mispredicted transfer `seq` resolved (ooo: it completed; in-order:
                       it issued); fetch resumes at `end` */
    PEV_FLUSH,      /* the pipeline behind `seq` is flushed (detail: flush_cause). The models
                       fetch no wrong path, so nothing is squashed: the refill until
                       PEV_REDIRECT is the flush's cost */
    PEV_REDIRECT,   /* fetch resumes on the right path after transfer `seq` */
    PEV_STRUCT,     /* structure `unit` changed state: detail = STRUCT_FULL, STRUCT_EMPTY or
                       0 (neither); count = its occupancy. Also (contract 3) the L1s'
                       miss registers (UNIT_MSHR_L1I/L1D: fills in flight at the end of
                       the cycle; never full when unlimited) and the store buffer.
                       Contract 4: the L2's and the L3's miss registers
                       (UNIT_MSHR_L2/L3: the L1 fills in flight that miss that level
                       too), when limited (l2.mshrs, l3.mshrs > 0) */
    PEV_PREFETCH,   /* a prefetcher decided to bring line `addr` into `unit` (L1I, L1D),
                       from `level`; in program order, when its trigger access is
                       classified (one per cache_stats.prefetches). Its fill, if issued,
                       is a PEV_FILL with detail 1 */
    PEV_FILL,       /* (contract 3) the data of line `addr` arrived in `unit` (L1I, L1D)
                       from `level`; `count` = cycles since it was requested; detail 1: a
                       prefetch's fill (else a demand fill: one per cache_stats.fills).
                       Fills still in flight when the run ends come last, at their cycle */
    /* (contract 6) committed store `seq` (pc, addr) left the store buffer: it wrote the L1D at
     * `cycle`, its line there from `end` (<= cycle); `count` = cycles since it asked for its line
     * (the request at cycle - count); `level` served that request (LEVEL_L1: a hit); detail 1:
     * the request joined a fill already in flight. One per store through the buffer
     * (core.store_buffer > 0), in program order */
    PEV_STORE_WRITE,
    /* (contract 7) the request of store `seq` (pc, addr) had joined a fill of its line already in
     * flight: emitted just before that store's PEV_STORE_WRITE, at the same `cycle`; `end` = the
     * cycle that fill was requested, `count` = its latency (requested to the data arriving, as
     * PEV_FILL's), `level` serves it; detail 1: the fill was a prefetch's (else a demand access
     * started it). Lets an analysis tie the store's wait to the access that started the fill */
    PEV_STORE_JOIN,
    PEV_COUNT
} probe_event_kind;
const char *probe_event_name(probe_event_kind k);

typedef enum flush_cause { FLUSH_NONE, FLUSH_MISPREDICT } flush_cause;
enum { STRUCT_FULL = 1, STRUCT_EMPTY = 2 };

typedef struct probe_event {
    uint64_t cycle; /* when it happened */
    uint64_t end;   /* PEV_MISS: the data arrives; PEV_RESOLVE: fetch resumes; else 0 */
    uint64_t seq;   /* the µop concerned (0: none) */
    uint64_t pc;
    uint64_t addr;  /* PEV_MISS, PEV_PREFETCH, PEV_FILL: the address (I-side: the pc; prefetch and
                       fill: the line's) */
    uint32_t count; /* PEV_STRUCT: occupancy; PEV_FILL: the fill's latency */
    uint8_t kind;   /* probe_event_kind */
    uint8_t unit;   /* probe_unit */
    uint8_t level;  /* PEV_MISS: mem_level that served it */
    uint8_t detail; /* see probe_event_kind */
} probe_event;

/* ---- wait states (PROBE_WAITS) ---------------------------------------------------- */

/* Where a µop in the window is, and what it waits for. */
typedef enum wait_state {
    WST_QUEUED,       /* in-order: behind an older µop that has not issued (cause: that µop) */
    WST_OPERANDS,     /* waiting for a producer: cause = the youngest producer not yet complete
                      (Stallscope §3.5: "the youngest instruction is accessed") */
    WST_READY,        /* operands ready; not issued for lack of an issue slot */
    WST_NO_UNIT,      /* operands ready; no free unit of its pool (in-order: its pipe busy;
                      cause: the µop holding it, when known; ooo: the unpipelined operation
                      holding the unit that frees first, 0 when the units took other µops) */
    WST_MEM_ORDER,    /* a ready load behind an older store (cause: the store) */
    WST_NO_MSHR,      /* a ready load; no L1D miss register free */
    WST_EXECUTING,    /* issued, executing */
    WST_FILL,         /* issued load waiting for its data from `level` */
    WST_DONE,         /* complete, waiting to commit */
    WST_COMMITTED,    /* left the window (the last transition of every µop) */
    WST_STORE_BUFFER, /* a done store at the ROB head; the store buffer is full (cause: its
                         oldest store; level: where that store's line comes from) */
    WST_TRANSLATING,  /* issued memory µop whose data address is being translated (a DTLB miss:
                         the second-level TLB and/or the page walk; reported in waits only,
                         samples keep WST_EXECUTING / WST_FILL) */
    WST_COUNT
} wait_state;
const char *wait_state_name(wait_state s);

typedef struct wait_transition {
    uint64_t cycle;     /* first cycle in the new state */
    uint64_t seq;       /* the µop */
    uint64_t cause_seq; /* the µop it waits for (0: none) */
    uint8_t state;      /* wait_state */
    uint8_t level;      /* WST_FILL: the level serving the data */
} wait_transition;

/* ---- samples (PROBE_SAMPLES) ------------------------------------------------------ */

/* At a sample cycle: the µop at the head of the issue stage and its true stall
 * state. ooo: the oldest µop in the issue queue, else the ROB head (then
 * executing or done), else none (seq 0, state WST_COUNT); in-order: the oldest
 * µop waiting to issue, else the oldest µop not yet committed. */
/* A µop committed in the sample's cycle. */
typedef struct sample_commit {
    uint64_t seq, pc;
    uint8_t op_class;
} sample_commit;

/* The most µops a cycle commits (core.commit_width's limit). */
enum { PROBE_MAX_COMMIT = 64 };

typedef struct sample_view {
    uint64_t cycle;
    uint64_t seq; /* 0: the window is empty */
    uint64_t pc;
    uint8_t op_class;
    uint8_t state; /* wait_state */
    uint8_t level; /* WST_FILL: the level */
    uint64_t cause_seq;
    stage_view issue; /* the issue stage's view in this cycle, cause included */
    /* The commit slots (contract 5; ooo only, zero in-order): for samplers that attribute each
     * cycle's commit slots (time-proportional sampling). `commit` is the commit stage's view in
     * this cycle, cause included (ROB empty: why dispatch left it so, the frontend's cause; head
     * not done: the ROB head; store buffer full: its oldest store). The ROB head is the oldest µop
     * not committed at the cycle's end (seq 0: the ROB is empty), with its wait state as
     * wait_state_of gives it; head_wait is what it waits for: when it waits for operands its
     * youngest producer not yet complete, else the head itself (a CAUSE_UOP cause). */
    stage_view commit;
    uint16_t committed;                      /* µops committed in this cycle (<= commit.width) */
    sample_commit commits[PROBE_MAX_COMMIT]; /* those µops, oldest first */
    uint64_t head_seq, head_pc, head_cause_seq;
    uint8_t head_class, head_state, head_level;
    stall_cause head_wait;
} sample_view;

/* ---- the run ------------------------------------------------------------------- */

/* What an observer learns before the first measured cycle. */
typedef struct probe_run_info {
    const char *model; /* "ooo", "inorder" */
    const char *config_name;
    const uarch_config *cfg; /* the whole configuration (valid for the run) */
    uint8_t width[STAGE_COUNT];
    uint8_t fp_units;  /* k */
    uint8_t fp_vector; /* v: 1 for scalar RISC-V F/D */
    double freq_ghz;
} probe_run_info;

/* An observer. `needs` says what it wants; the callback of each kind it asks
 * for must be set (probe_set_add checks). */
typedef struct probe_observer {
    void *ctx;
    uint32_t needs; /* PROBE_* */
    /* PROBE_STAGES: which of dispatch, issue and commit it needs, as PROBE_STAGE_BIT(STAGE_…)
     * bits (0: all three). The core computes the causes of a stage no observer asked for only
     * where another needs them, and delivers its spans to nobody; an observer may still see
     * the spans of a stage another observer asked for (the batch is shared). */
    uint32_t stage_mask;
    void (*begin)(void *ctx, const probe_run_info *info);
    void (*stages)(void *ctx, const stage_span *s, size_t n);     /* PROBE_STAGES, PROBE_FETCH */
    void (*fp)(void *ctx, const fp_span *s, size_t n);            /* PROBE_FP */
    void (*retire)(void *ctx, const uop_record *r, size_t n);     /* PROBE_RETIRE */
    void (*events)(void *ctx, const probe_event *e, size_t n);    /* PROBE_EVENTS */
    void (*waits)(void *ctx, const wait_transition *w, size_t n); /* PROBE_WAITS */
    /* PROBE_SAMPLES: the first sample is at cycle sample_period; each call
     * returns the cycles to the next sample (0: no more samples). */
    uint64_t sample_period;
    uint64_t (*sample)(void *ctx, const sample_view *s);
    /* PROBE_INTERVALS: called in the cycle the committed instructions reach
     * each multiple of interval_insns (they may pass it by less than the
     * commit width), with the statistics so far (cycles: up to and including
     * this one). Subtract the previous snapshot for the interval's own. */
    uint64_t interval_insns;
    void (*interval)(void *ctx, const core_stats *so_far);
    /* The final statistics, after the last record was delivered. */
    void (*end)(void *ctx, const core_stats *stats);
} probe_observer;

enum { PROBE_MAX_OBSERVERS = 8, PROBE_BATCH = 256 };
#define PROBE_STAGE_BIT(stage) (1u << (stage))
/* the stages PROBE_STAGES covers (fetch is PROBE_FETCH) */
#define PROBE_STAGES_ALL \
    (PROBE_STAGE_BIT(STAGE_DISPATCH) | PROBE_STAGE_BIT(STAGE_ISSUE) | PROBE_STAGE_BIT(STAGE_COMMIT))

/* ---- for timing models: the observers of one run and their batches ---------------
 * Analyses never touch this; the core keeps one and the models fill it. */

typedef struct probe_set {
    probe_observer obs[PROBE_MAX_OBSERVERS];
    int count;
    uint32_t needs;      /* union of the observers' needs */
    uint32_t stage_mask; /* union of the stages asked for: PROBE_STAGE_BIT(STAGE_FETCH) with PROBE_FETCH,
                            the others with PROBE_STAGES (observer.stage_mask) */
    /* batches */
    stage_span *spans;  /* dispatch, issue, commit */
    stage_span *fspans; /* fetch (PROBE_FETCH) */
    fp_span *fps;
    uop_record *recs;
    probe_event *events;
    wait_transition *waits;
    uint32_t n_spans, n_fspans, n_fps, n_recs, n_events, n_waits;
    /* the open span of each stage and of the FP view (change-driven delivery) */
    stage_span open[STAGE_COUNT];
    fp_span open_fp;
    /* timers */
    uint64_t next_sample[PROBE_MAX_OBSERVERS];   /* cycle of each sampler's next sample */
    uint64_t sample_at;                          /* the earliest of them (UINT64_MAX: none) */
    uint64_t next_interval[PROBE_MAX_OBSERVERS]; /* instruction count of the next interval */
    uint64_t interval_at;                        /* the earliest (UINT64_MAX: none) */
} probe_set;

/* Add an observer; false with *err set when the set is full or the observer
 * asks for something without its callback. */
bool probe_set_add(probe_set *set, const probe_observer *obs, cs_error *err);
/* Release the batches (the observers are the caller's). */
void probe_set_free(probe_set *set);
static inline bool probe_wants(const probe_set *set, uint32_t what) { return (set->needs & what) != 0; }
/* Some observer asked for the spans of stage `st`. */
static inline bool probe_wants_stage(const probe_set *set, int st) {
    return (set->stage_mask & PROBE_STAGE_BIT(st)) != 0;
}

/* Start a run: allocate batches, call begin, arm the timers. */
void probe_begin(probe_set *set, const probe_run_info *info);
/* Deliver every batch now. */
void probe_flush(probe_set *set);
/* End a run at `cycles`: close the open spans, deliver everything, call end. */
void probe_end(probe_set *set, const core_stats *stats);

void probe_flush_spans_(probe_set *set);
void probe_flush_recs_(probe_set *set);
void probe_flush_events_(probe_set *set);
void probe_flush_waits_(probe_set *set);

static inline bool stage_view_equal(const stage_view *a, const stage_view *b) { return memcmp(a, b, sizeof *a) == 0; }
static inline bool fp_view_equal(const fp_view *a, const fp_view *b) { return memcmp(a, b, sizeof *a) == 0; }
/* Stage `st` shows view v at cycle `now`, and (when the core skips idle
 * cycles) in every cycle until the next call: extends the open span if v
 * equals it, else delivers the open span and opens one. Returns whether the
 * view changed. With samples alone the core tracks views this way only in the
 * few cycles before each sample (then nothing is delivered: spans == NULL). */
static inline bool probe_stage_view(probe_set *set, int st, uint64_t now, const stage_view *v) {
    stage_span *o = &set->open[st];
    if (stage_view_equal(&o->v, v)) return false;
    stage_span *batch = st == STAGE_FETCH ? set->fspans : set->spans; /* st is a constant where inlined */
    if (now > o->cycle && batch) {
        uint32_t *n = st == STAGE_FETCH ? &set->n_fspans : &set->n_spans;
        o->cycles = now - o->cycle;
        batch[(*n)++] = *o;
        if (*n == PROBE_BATCH) probe_flush_spans_(set);
    }
    o->cycle = now;
    o->v = *v;
    return true;
}
static inline bool probe_fp_view(probe_set *set, uint64_t now, const fp_view *v) {
    fp_span *o = &set->open_fp;
    if (fp_view_equal(&o->v, v)) return false;
    if (now > o->cycle && set->fps) {
        o->cycles = now - o->cycle;
        set->fps[set->n_fps++] = *o;
        if (set->n_fps == PROBE_BATCH) probe_flush_spans_(set);
    }
    o->cycle = now;
    o->v = *v;
    return true;
}
/* One simulated cycle's views of every stage and the FP view (probe_stage_view
 * for each, in one call: kept out of the models' cycle loops, where the views
 * are many live values). Returns whether the fetch view changed. `fetch` and
 * `fp` may be NULL: not asked for (a model that knows the fetch view did not
 * change, or that no observer wants it, passes NULL). The spans of a stage no
 * observer asked for (stage_mask) are neither compared nor delivered; the fetch
 * view is tracked whenever it is passed (the models keep its history). */
bool probe_cycle_views(probe_set *set, uint64_t now, const stage_view *fetch, const stage_view *dispatch,
                       const stage_view *issue, const stage_view *commit, const fp_view *fp);
/* A record slot to fill (the next in program order). */
static inline uop_record *probe_record(probe_set *set) {
    if (set->n_recs == PROBE_BATCH) probe_flush_recs_(set);
    return &set->recs[set->n_recs++];
}
static inline void probe_event_add(probe_set *set, const probe_event *e) {
    if (set->n_events == PROBE_BATCH) probe_flush_events_(set);
    set->events[set->n_events++] = *e;
}
static inline void probe_wait_add(probe_set *set, uint64_t cycle, uint64_t seq, uint8_t state, uint64_t cause,
                                  uint8_t level) {
    if (set->n_waits == PROBE_BATCH) probe_flush_waits_(set);
    set->waits[set->n_waits++] = (wait_transition){cycle, seq, cause, state, level};
}
/* The samplers whose sample is at `view->cycle` are called (batches flushed first). */
void probe_sample(probe_set *set, const sample_view *view);
/* `so_far->instructions` reached set->interval_at: flush, call the interval observers due. */
void probe_interval(probe_set *set, const core_stats *so_far);

#endif
