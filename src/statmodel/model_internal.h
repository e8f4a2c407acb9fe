/* Internal to statmodel: what the models share. */
#ifndef CYCLESCOPE_STATMODEL_MODEL_INTERNAL_H
#define CYCLESCOPE_STATMODEL_MODEL_INTERNAL_H

#include <stdio.h>

#include "statmodel.h"

/* Probability that an instance of `in` is a mispredicted control transfer. */
double sm_mispred_prob(const sm_instr *in, bool branch, int pred);
static inline void sm_normalize_rows(sm_chain *c) { sm_chain_normalize(c); }

#endif
