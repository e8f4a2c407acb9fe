/* One cache's tag array (internal to uarch), shared by the memory hierarchy
 * (memsys.h) and the TLBs. Both core models use it.
 *
 * Notes (what this model simplifies):
 *  - A cache is a tag array with LRU replacement; it answers hit or miss and
 *    installs the line on a miss at once. The caller keeps the counters.
 *  - A dirty bit per line is kept for write-backs (cache_access_dirty).
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
/* Look up addr; on a miss install its line (evicting the LRU line). True on a hit. */
bool cache_access(cache_t *c, uint64_t addr);
/* cache_access that keeps dirty bits: `write` marks the line dirty; a miss
 * that evicts a dirty line sets *victim to its address (else UINT64_MAX). */
bool cache_access_dirty(cache_t *c, uint64_t addr, bool write, uint64_t *victim);
/* Look up without changing anything. */
bool cache_contains(const cache_t *c, uint64_t addr);
uint32_t cache_line_bits(const cache_t *c);

#endif
