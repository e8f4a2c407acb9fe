/* Shared timing parts (internal to uarch): caches and the memory hierarchy
 * (the branch predictors are in bpred.h). Both core models use them.
 *
 * Notes (what these models simplify):
 *  - A cache is a tag array with LRU replacement; it answers hit or miss and
 *    installs the line on a miss at once. The caller keeps the counters.
 *  - The hierarchy is looked up serially: a miss costs the hit latencies of
 *    every level it passes plus the memory latency.
 *  - Tags are updated in program order (see memsys_classify); the data of a
 *    miss arrives `latency` cycles after the first access to it reaches the
 *    memory system, and later accesses to that line wait for the same fill.
 *  - Only the L1s' miss registers (MSHRs) limit outstanding misses.
 *  - Memory bandwidth is one channel moving a line in line/bandwidth cycles.
 *  - Stores allocate their line (write-allocate) and never wait for it.
 */
#ifndef CYCLESCOPE_UARCH_CACHE_H
#define CYCLESCOPE_UARCH_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "uarch.h"

/* ---- one cache: tags and LRU -------------------------------------------------- */

typedef struct cache cache_t;

cache_t *cache_create(const cache_config *cfg);
void cache_destroy(cache_t *c);
/* Look up addr; on a miss install its line (evicting the LRU line). True on a hit. */
bool cache_access(cache_t *c, uint64_t addr);
/* Look up without changing anything. */
bool cache_contains(const cache_t *c, uint64_t addr);
uint32_t cache_line_bits(const cache_t *c);

/* ---- the hierarchy: L1I + L1D, L2, optional L3, memory ------------------------------ */

typedef struct memsys memsys_t;

typedef struct mem_result {
    uint32_t latency; /* cycles until the data is available */
    uint8_t level;    /* mem_level that served it (LEVEL_L1 on a hit) */
    bool merged;      /* joined a fill already in flight */
} mem_result;

memsys_t *memsys_create(const uarch_config *cfg);
void memsys_destroy(memsys_t *m);

/* Cache state follows program order: an access is classified (hit or miss,
 * which level serves it, LRU updated, counted) once, in program order; timing
 * only decides when its fill starts and arrives. Miss events therefore do not
 * change when latencies change, and a core that reorders accesses sees the
 * same hits and misses as one that does not. */
uint8_t memsys_classify(memsys_t *m, uint64_t addr, bool instruction, bool write);
/* When does the data of a classified access arrive, asked at cycle `now`? A
 * miss nobody has requested yet starts its fill here; a fill in flight is
 * joined. False when the L1 has no free miss register: nothing changed, ask
 * again later. */
bool memsys_request(memsys_t *m, uint64_t addr, bool instruction, uint64_t now, mem_result *out);
/* classify + request, for cores that access in program order (fetch, in-order
 * loads); a refused access is not classified again when it retries. */
bool memsys_fetch(memsys_t *m, uint64_t addr, uint64_t now, mem_result *out);
bool memsys_load(memsys_t *m, uint64_t addr, uint64_t now, mem_result *out);
/* A store's access (write-allocate): classified, never waited for. */
void memsys_store(memsys_t *m, uint64_t addr, uint64_t now);
/* Functional warming: install lines, no timing, no statistics. */
void memsys_warm(memsys_t *m, uint64_t addr, bool instruction);
/* Counters since creation (or the last reset). */
void memsys_stats(const memsys_t *m, core_stats *out);
void memsys_reset_stats(memsys_t *m);
uint32_t memsys_line_bits(const memsys_t *m, bool instruction);
/* The first cycle after `now` at which a fill in flight arrives (a miss
 * register frees up), or UINT64_MAX. Lets a core skip idle cycles exactly. */
uint64_t memsys_next_event(const memsys_t *m, uint64_t now);

#endif
