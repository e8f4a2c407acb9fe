/* The in-order model's seam for value prediction (internal to uarch and its tests).
 *
 * Value prediction (Noonburg §8.1) compares each instruction's result with
 * the value table's prediction. The µop record carries no result values, so
 * the in-order model takes them from a value oracle: a function called once
 * per µop that writes a register (dst != 0), in program order, warm-up µops
 * included. Without an oracle, `inorder.value_prediction = yes` is refused at
 * core_create with an error that says why. Tests install an oracle that knows
 * the values of the streams they build.
 */
#ifndef CYCLESCOPE_UARCH_INORDER_INTERNAL_H
#define CYCLESCOPE_UARCH_INORDER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/trace.h"

/* Writes the result of `u` to *value; false if it is not known (then the
 * instruction is treated as not predicted). */
typedef bool (*inorder_value_fn)(void *ctx, const uop *u, uint64_t *value);

/* Process-wide: in-order cores created afterwards use this oracle (NULL: none). */
void inorder_set_value_oracle(inorder_value_fn fn, void *ctx);

#endif
