/* stacks — multi-stage CPI stacks (dispatch, issue, commit), IPC stacks and
 * FLOPS stacks, after Eyerman, Heirman, Du Bois, Hur, "Extending the
 * Performance Analysis Tool Box: Multi-Stage CPI Stacks and FLOPS Stacks"
 * (Table II, Table III, §III, §V). An observer of the probe interface: it sees
 * only cycle views, never the core.
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
#include "uarch/uarch.h"

/* CPI-stack components (Table II, refined as §III-A allows: cache levels,
 * integer vs FP long latency, the structural stalls only issue can see). */
#define STACK_COMPONENT_LIST(X)                                                            \
    X(COMP_BASE, "base", "cycles doing useful work: n/W of each cycle")                    \
    X(COMP_ICACHE_L2, "icache-L2", "I-cache misses served by the L2")                      \
    X(COMP_ICACHE_L3, "icache-L3", "I-cache misses served by the L3")                      \
    X(COMP_ICACHE_MEM, "icache-mem", "I-cache misses served by memory")                    \
    X(COMP_ITLB, "itlb", "ITLB misses")                                                    \
    X(COMP_BPRED, "bpred", "branch mispredictions: resolution and redirect")               \
    X(COMP_DCACHE_L2, "dcache-L2", "D-cache misses served by the L2")                      \
    X(COMP_DCACHE_L3, "dcache-L3", "D-cache misses served by the L3")                      \
    X(COMP_DCACHE_MEM, "dcache-mem", "D-cache misses served by memory")                    \
    X(COMP_LONGLAT_INT, "long-lat-int", "multi-cycle integer operations (mul, div)")       \
    X(COMP_LONGLAT_FP, "long-lat-fp", "multi-cycle floating-point operations")             \
    X(COMP_DEPEND, "dependence", "waiting on short-latency producers (limited ILP)")       \
    X(COMP_NO_UNIT, "no-unit", "ready µops, no free functional unit or port (issue only)") \
    X(COMP_MEM_ORDER, "mem-order", "loads waiting for older stores (issue only)")          \
    X(COMP_FRONTEND, "frontend", "frontend bandwidth with no miss (fetch breaks, refill)") \
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

typedef struct flops_stack {
    double cycles[FLOPS_COUNT]; /* sums to the run's cycles */
    uint32_t units;             /* k */
    uint32_t vector;            /* v */
    double peak_per_cycle;      /* 2 k v */
    double freq_ghz;
} flops_stack;

/* Everything one run's stacks observer measured. */
typedef struct stacks_result {
    uint64_t cycles, instructions, flops;
    uint32_t width; /* W: the narrowest of the dispatch, issue and commit widths (§III-A) */
    cpi_stack stage[STACK_STAGES];
    flops_stack fp;
} stacks_result;

/* ---- the observer ---- */

typedef struct stacks_observer stacks_observer;
stacks_observer *stacks_observer_create(void);
probe_observer stacks_observer_probe(stacks_observer *s);
/* Valid after the run ended. */
const stacks_result *stacks_observer_result(const stacks_observer *s);
void stacks_observer_destroy(stacks_observer *s);

/* ---- validation (§IV, §V-A): the baseline against idealised machines ---- */

typedef enum ideal_kind {
    IDEAL_ICACHE,       /* perfect I-cache */
    IDEAL_DCACHE,       /* perfect D-cache */
    IDEAL_BPRED,        /* perfect branch prediction */
    IDEAL_ALU,          /* all arithmetic 1 cycle */
    IDEAL_DCACHE_ALU,   /* Table I pair: perfect D-cache + 1-cycle ALU */
    IDEAL_BPRED_DCACHE, /* Table I pair: perfect bpred + perfect D-cache */
    IDEAL_COUNT
} ideal_kind;

typedef struct validation_case {
    ideal_kind kind;
    double cpi;                     /* CPI of the idealised machine */
    double reduction;               /* baseline CPI - cpi: the actual CPI reduction */
    double predicted[STACK_STAGES]; /* the component(s) the stacks attribute to it, as CPI */
    double lo, hi;                  /* min and max of `predicted` */
    bool within;                    /* lo <= reduction <= hi */
    double error;                   /* §V-A: 0 within, else distance to the closest stack's value */
    bool relevant;                  /* component >= 10% of CPI in some stack (§V-A filter) */
    /* pairs only: the sum of the two single reductions, and which effect shows */
    double sum_of_singles;
    int interaction; /* +1 hidden stalls (pair > sum), -1 overlap (pair < sum), 0 neither */
} validation_case;

typedef struct validation_result {
    char program[512];
    char config[64];
    double base_cpi;
    stacks_result base;
    validation_case cases[IDEAL_COUNT];
} validation_result;

const char *ideal_kind_name(ideal_kind k);
const char *flops_component_doc(flops_component c);

/* ---- running machines with the observer ---- */

/* Time `src` on `cfg` with a stacks observer attached. *stats and *out hold
 * what was measured, also on failure. */
bool stacks_run(const uarch_config *cfg, uop_source *src, const core_run_options *opt, stacks_result *out,
                core_stats *stats, cs_error *err);

/* Turn on the idealisation knobs of `k` (§IV): perfect L1 I-cache, perfect L1
 * D-cache, perfect branch prediction, 1-cycle arithmetic, or a Table I pair. */
void stacks_ideal_config(uarch_config *cfg, ideal_kind k);

/* The component(s) of one stack that an idealisation removes, in cycles:
 * I-cache levels; D-cache levels; bpred; integer + FP long latency; sums for pairs. */
double stacks_ideal_component(const cpi_stack *s, ideal_kind k);

/* Fill v->base_cpi and v->cases from the baseline stacks and the CPI each
 * idealised machine measured (ideal_cpi[k] for ideal_kind k). Pure. */
void validation_evaluate(validation_result *v, const stacks_result *base, const double ideal_cpi[IDEAL_COUNT]);

/* The µop stream of one run. Validation runs every machine in its own
 * process (fork), so `open` is called once per run, in that process: each run
 * has its own emulator (or trace reader) and core, and nothing is shared. */
typedef struct stacks_source {
    void *ctx;
    uop_source *(*open)(void *ctx, cs_error *err);
    /* After the run: release the source; false with *err if it failed (e.g. a guest fault). */
    bool (*close)(void *ctx, uop_source *src, cs_error *err);
} stacks_source;

typedef struct validation_options {
    uarch_config cfg;     /* the baseline ("all real") machine */
    core_run_options run; /* warm-up and limit, the same for every machine; progress_label unused */
    int jobs;             /* machines timed at once; <= 0: the online processors */
    bool show_output;     /* copy the baseline run's program output to our stdout/stderr
                                when it is done (the idealised runs' output is discarded;
                                every run's stdin is /dev/null) */
    stacks_source source;
} validation_options;

/* Time the baseline and the IDEAL_COUNT idealised machines, in parallel, and
 * evaluate (§V-A). *out gets everything but `program`. base_stats (optional)
 * gets the baseline's statistics; ideal (optional, IDEAL_COUNT entries) the
 * idealised machines' stacks. */
bool stacks_validate(const validation_options *opt, validation_result *out, core_stats *base_stats,
                     stacks_result *ideal, cs_error *err);

#endif
