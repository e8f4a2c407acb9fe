/* stacks — multi-stage CPI stacks (dispatch, issue, commit), IPC stacks and
 * FLOPS stacks, after Eyerman, Heirman, Du Bois, Hur, "Extending the
 * Performance Analysis Tool Box: Multi-Stage CPI Stacks and FLOPS Stacks"
 * (Table II, Table III, §III, §V). An observer of the probe interface: it asks
 * for stage spans and FP spans (PROBE_STAGES | PROBE_FP) and never sees the
 * core. As an analysis of the runner it is "stacks" (stacks_analysis, in
 * analysis.c); its validation against idealised machines is the validation
 * module.
 *
 * Every stack is kept in cycles: its components sum to the run's cycle count
 * (to floating-point rounding). CPI = component / instructions; an IPC stack
 * is component / cycles x the maximum IPC; a FLOPS stack is component /
 * cycles x the peak FLOPS (Eq. 1).
 */
#ifndef CYCLESCOPE_STACKS_H
#define CYCLESCOPE_STACKS_H

#include <stdbool.h>
#include <stdint.h>

#include "probes/probes.h"

/* CPI-stack components (Table II, refined as §III-A allows: cache levels,
 * integer vs FP long latency, the structural stalls only issue can see). */
#define STACK_COMPONENT_LIST(X)                                                             \
    X(COMP_BASE, "base", "cycles doing useful work: n/W of each cycle")                     \
    X(COMP_ICACHE_L2, "icache-L2", "I-cache misses served by the L2")                       \
    X(COMP_ICACHE_L3, "icache-L3", "I-cache misses served by the L3")                       \
    X(COMP_ICACHE_MEM, "icache-mem", "I-cache misses served by memory")                     \
    X(COMP_ITLB, "itlb", "ITLB misses")                                                     \
    X(COMP_BPRED, "bpred", "branch mispredictions: resolution and redirect")                \
    X(COMP_DCACHE_L2, "dcache-L2", "D-cache misses served by the L2")                       \
    X(COMP_DCACHE_L3, "dcache-L3", "D-cache misses served by the L3")                       \
    X(COMP_DCACHE_MEM, "dcache-mem", "D-cache misses served by memory")                     \
    X(COMP_DTLB, "dtlb", "DTLB misses: second-level TLB and page walk")                     \
    X(COMP_LONGLAT_INT, "long-lat-int", "multi-cycle integer operations (mul, div)")        \
    X(COMP_LONGLAT_FP, "long-lat-fp", "multi-cycle floating-point operations")              \
    X(COMP_DEPEND, "dependence", "waiting on short-latency producers (limited ILP)")        \
    X(COMP_NO_UNIT, "no-unit", "ready µops, no free functional unit or port (issue only)")  \
    X(COMP_MEM_ORDER, "mem-order", "loads waiting for older stores (issue only)")           \
    X(COMP_STORE_BUFFER, "store-buffer", "commit waiting for a full store buffer to drain") \
    X(COMP_FRONTEND, "frontend", "frontend bandwidth with no miss (fetch breaks, refill)")  \
    X(COMP_OTHER, "other", "everything else; must stay small")

typedef enum stack_component {
#define STACK_COMPONENT_ENUM(id, name, doc) id,
    STACK_COMPONENT_LIST(STACK_COMPONENT_ENUM)
#undef STACK_COMPONENT_ENUM
        COMP_COUNT
} stack_component;

const char *stack_component_name(stack_component c);
const char *stack_component_doc(stack_component c);

/* The stages with a CPI stack. */
typedef enum stack_stage { STACK_DISPATCH, STACK_ISSUE, STACK_COMMIT, STACK_STAGES } stack_stage;
const char *stack_stage_name(stack_stage s);

typedef struct cpi_stack {
    double cycles[COMP_COUNT]; /* sums to the run's cycles */
} cpi_stack;

/* FLOPS-stack components (Table III). */
#define FLOPS_COMPONENT_LIST(X)                                                   \
    X(FLOPS_BASE, "base", "peak FLOPS actually achieved")                         \
    X(FLOPS_NON_FMA, "non-fma", "FP operations that are not fused multiply-adds") \
    X(FLOPS_MASK, "mask", "masked vector lanes (always 0 for scalar RISC-V F/D)") \
    X(FLOPS_FRONTEND, "frontend", "no FP work in the issue queue (mix, fetch)")   \
    X(FLOPS_NON_FP, "non-fp", "FP units used by µops that are not FP arithmetic") \
    X(FLOPS_MEMORY, "memory", "FP µops waiting on loads")                         \
    X(FLOPS_DEPEND, "dependence", "FP µops waiting on other producers")           \
    X(FLOPS_OTHER, "other", "everything else")

typedef enum flops_component {
#define FLOPS_COMPONENT_ENUM(id, name, doc) id,
    FLOPS_COMPONENT_LIST(FLOPS_COMPONENT_ENUM)
#undef FLOPS_COMPONENT_ENUM
        FLOPS_COUNT
} flops_component;

const char *flops_component_name(flops_component c);
const char *flops_component_doc(flops_component c);

typedef struct flops_stack {
    double cycles[FLOPS_COUNT]; /* sums to the run's cycles */
    uint32_t units;             /* k */
    uint32_t vector;            /* v */
    double peak_per_cycle;      /* 2 k v */
    double freq_ghz;
} flops_stack;

/* Everything one run's stacks observer measured. */
typedef struct stacks_result {
    uint64_t cycles, instructions;
    uint64_t flops;         /* every FP operation issued (an FMA counts 2) */
    uint64_t flops_outside; /* of them, those issued outside the k FP units (bdw's, knl's divider) */
    uint32_t width;         /* W: the narrowest of the dispatch, issue and commit widths (§III-A) */
    cpi_stack stage[STACK_STAGES];
    flops_stack fp;
} stacks_result;

/* ---- statistics over time (--interval N) ---- */

/* One interval of N committed instructions (the last may be shorter): its own
 * counters and its three CPI stacks, which sum to its cycles. */
typedef struct stacks_interval {
    uint64_t first_cycle, cycles, instructions;
    uint64_t mispredicts, l1i_misses, l1d_misses, l2_misses, l3_misses, flops;
    cpi_stack stage[STACK_STAGES];
} stacks_interval;

typedef struct stacks_intervals {
    uint64_t every; /* N: instructions per interval; 0: none recorded */
    size_t count;
    stacks_interval *at;
} stacks_intervals;

/* ---- the observer ---- */

typedef struct stacks_observer stacks_observer;
stacks_observer *stacks_observer_create(void);
/* Also record the statistics and the CPI stacks of every `every` committed
 * instructions (PROBE_INTERVALS); call before stacks_observer_probe. Spans
 * that cross an interval's end are split there (a span is identical cycles),
 * so each interval's stacks are exact and the intervals add up to the run. */
void stacks_observer_set_interval(stacks_observer *s, uint64_t every);
/* Valid after the run ended; count 0 unless set_interval was called. */
const stacks_intervals *stacks_observer_intervals(const stacks_observer *s);
/* needs = PROBE_STAGES | PROBE_FP */
probe_observer stacks_observer_probe(stacks_observer *s);
/* Valid after the run ended. */
const stacks_result *stacks_observer_result(const stacks_observer *s);
void stacks_observer_destroy(stacks_observer *s);

#endif
