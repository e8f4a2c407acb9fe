/* Internal to statmodel: what the models share. */
#ifndef CYCLESCOPE_STATMODEL_MODEL_INTERNAL_H
#define CYCLESCOPE_STATMODEL_MODEL_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "statmodel.h"

/* Probability that an instance of `in` is a mispredicted control transfer. */
double sm_mispred_prob(const sm_instr *in, bool branch, int pred);
static inline void sm_normalize_rows(sm_chain *c) { sm_chain_normalize(c); }

/* The capacity of a growable array that must hold `need` elements: `cap`
 * doubled (from `first` when the array is still empty) until it does. */
static inline size_t sm_grow_cap(size_t cap, size_t need, size_t first) {
    size_t c = cap ? cap : first;
    while (c < need) c = c > SIZE_MAX / 2 ? need : c * 2;
    return c;
}

/* Makes room for `need` elements in the growable array `ptr` whose capacity is
 * the integer lvalue `cap` (sm_grow_cap; the element size is the pointer's, so
 * it cannot disagree with the array). cs_realloc never returns NULL. */
#define SM_GROW(ptr, cap, need, first)                                                 \
    do {                                                                               \
        if ((size_t)(need) > (size_t)(cap)) {                                          \
            size_t sm_grow_new_ = sm_grow_cap((size_t)(cap), (size_t)(need), (first)); \
            (ptr) = cs_realloc((ptr), cs_array_size(sm_grow_new_, sizeof *(ptr)));     \
            (cap) = sm_grow_new_;                                                      \
        }                                                                              \
    } while (0)

#endif
