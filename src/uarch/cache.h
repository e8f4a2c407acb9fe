/* One cache's tag array (internal to uarch), shared by the memory hierarchy
 * (memsys.h) and the TLBs. Both core models use it.
 *
 * Notes (what this model simplifies):
 *  - A cache is a tag array with LRU replacement; it answers hit or miss and
 *    installs the line on a miss at once. The caller keeps the counters.
 *  - Two flags per line: dirty (for write-backs) and prefetched (installed by
 *    a prefetch, not yet used by a demand access): cache_access_flags.
 */
#ifndef CYCLESCOPE_UARCH_CACHE_H
#define CYCLESCOPE_UARCH_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"

/* ---- one cache: tags and LRU -------------------------------------------------- */

typedef struct cache cache_t;

cache_t *cache_create(const cache_config *cfg);
void cache_destroy(cache_t *c);
/* Empty, as cache_create left it. Costs the lines filled since (a fully associative cache) or
 * nothing when no access was made since (a set-associative one, else its size). */
void cache_reset(cache_t *c);
/* Look up addr; on a miss install its line (evicting the LRU line). True on a hit. */
bool cache_access(cache_t *c, uint64_t addr);
enum { CACHE_DIRTY = 1, CACHE_PREFETCHED = 2 };
/* cache_access that keeps the line flags: on a hit *old gets the line's flags,
 * then `set` is added to them (and CACHE_PREFETCHED cleared unless set: a
 * demand access uses the prefetched line); on a miss the new line gets `set`,
 * and *victim the address of the line it evicted if that was dirty (else
 * UINT64_MAX). */
bool cache_access_flags(cache_t *c, uint64_t addr, uint8_t set, uint8_t *old, uint64_t *victim);
/* Look up without changing anything. */
bool cache_contains(const cache_t *c, uint64_t addr);
uint32_t cache_line_bits(const cache_t *c);

#endif
