/* Branch predictors (internal to uarch): none, static backward-taken, bimodal,
 * gshare, a TAGE-class predictor, perfect. Both core models use them. */
#ifndef CYCLESCOPE_UARCH_BPRED_H
#define CYCLESCOPE_UARCH_BPRED_H

#include <stdbool.h>

#include "config.h"
#include "trace/trace.h"

typedef struct bpred bpred_t;

bpred_t *bpred_create(const uarch_config *cfg);
/* Back to the state bpred_create(cfg) gives (cfg: the one it was created with), without
 * reallocating. Costs the size of its tables. */
void bpred_reset(bpred_t *b, const uarch_config *cfg);
void bpred_destroy(bpred_t *b);
/* Predict the control-transfer µop `u` at fetch and train with its outcome
 * (trace-driven: the outcome is known). True if direction and target were
 * predicted correctly. */
bool bpred_predict(bpred_t *b, const uop *u);

#endif
