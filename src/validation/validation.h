/* validation — the CPI stacks checked against idealised machines (Eyerman et
 * al. §IV, §V-A): the baseline and the idealised machines are timed in
 * parallel by the runner's pool, and the actual CPI reduction of each
 * idealisation is compared with the range the dispatch, issue and commit
 * stacks give. Apart from the stacks observer (stacks.h), which needs no core.
 */
#ifndef CYCLESCOPE_VALIDATION_H
#define CYCLESCOPE_VALIDATION_H

#include <stdbool.h>
#include <stdint.h>

#include "runner/runner.h"
#include "stacks/stacks.h"
#include "uarch/uarch.h"

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
    int guest_status; /* the baseline's run_source.guest_status, 0 without one */
} validation_result;

const char *ideal_kind_name(ideal_kind k);

/* Turn on the idealisation knobs of `k` (§IV): perfect L1 I-cache, perfect L1
 * D-cache, perfect branch prediction, 1-cycle arithmetic, or a Table I pair. */
void validation_ideal_config(uarch_config *cfg, ideal_kind k);

/* The component(s) of one stack that an idealisation removes, in cycles:
 * I-cache levels; D-cache levels; bpred; integer + FP long latency; sums for pairs. */
double validation_ideal_component(const cpi_stack *s, ideal_kind k);

/* Fill v->base_cpi and v->cases from the baseline stacks and the CPI each
 * idealised machine measured (ideal_cpi[k] for ideal_kind k). Pure. */
void validation_evaluate(validation_result *v, const stacks_result *base, const double ideal_cpi[IDEAL_COUNT]);

typedef struct validation_options {
    uarch_config cfg;     /* the baseline ("all real") machine */
    core_run_options run; /* warm-up and limit, the same for every machine; progress_label unused */
    int jobs;             /* machines timed at once; <= 0: the online processors */
    bool show_output;     /* copy the baseline run's program output to our stdout/stderr
                             when it is done (the idealised runs' output is discarded) */
    run_source source;
} validation_options;

/* Time the baseline and the IDEAL_COUNT idealised machines, in parallel (one
 * runner_pool), and evaluate (§V-A). *out gets everything but `program`.
 * base_stats (optional) gets the baseline's statistics; ideal (optional,
 * IDEAL_COUNT entries) the idealised machines' stacks. All machines must time
 * the same instructions; a run that times a different count is an error. */
bool validation_run(const validation_options *opt, validation_result *out, core_stats *base_stats, stacks_result *ideal,
                    cs_error *err);

#endif
