/* The memory hierarchy (internal to uarch): L1I + L1D, L2, optional L3,
 * memory, and the out-of-order core's store buffer. Both core models use it.
 *
 * Notes (what this model simplifies):
 *  - Tags are updated in program order (see memsys_classify); the data of a
 *    miss arrives `latency` cycles after the first access to it reaches the
 *    memory system, and later accesses to that line wait for the same fill.
 *  - The hierarchy is looked up serially: a miss costs the hit latencies of
 *    every level it passes plus the memory latency.
 *  - The L1s' miss registers (MSHRs) limit outstanding misses; the L2's and
 *    L3's limit those that miss there too, each held until the data reaches
 *    the L1 (a little long: the level's own part of the trip is included).
 *  - Memory bandwidth is one channel moving a line in line/bandwidth cycles;
 *    with write-backs on, each dirty line the last level evicts holds the
 *    channel for one more line, after the fill whose miss evicted it (reads
 *    first, as memory controllers schedule them). The links L1s-L2 and
 *    L2-L3 (l2.bandwidth, l3.bandwidth) are channels of their own, crossed
 *    by every fill from below them after the memory channel, and by the
 *    write-backs into the level below them. Functional warming owes none.
 *  - Prefetchers (prefetch.*) decide in program order, like the tags: a
 *    prefetched line is installed (flagged) when its trigger is classified,
 *    and its fill is issued when the trigger reaches the memory system, if a
 *    miss register is free (else dropped: the demand access starts the fill).
 *    Next-line is tagged (on a miss and on the first use of a prefetched
 *    line); the stride prefetcher (data, per pc) needs a stride seen twice.
 *    Prefetch fills take the channel like demand fills; they are not counted
 *    in `fills` / the average miss latency.
 *  - Store buffer off (0 entries, the papers' machines): a store allocates
 *    its line and is never waited for. On: committed stores wait in a FIFO;
 *    each requests its line's fill through the L1D's miss registers as it
 *    enters (a read-for-ownership), and the oldest writes the L1D, one per
 *    cycle, once its line is there. With write-no-allocate, a store that
 *    misses is handed to the L2 instead (the L2's latency, no miss register).
 */
#ifndef CYCLESCOPE_UARCH_MEMSYS_H
#define CYCLESCOPE_UARCH_MEMSYS_H

#include <stdbool.h>
#include <stdint.h>

#include "cache.h"
#include "uarch.h"

typedef struct memsys memsys_t;

typedef struct mem_result {
    uint32_t latency; /* cycles until the data is available */
    uint8_t level;    /* mem_level that served it (LEVEL_L1 on a hit) */
    bool merged;      /* joined a fill already in flight */
    /* merged: the fill joined was a prefetch's, and its whole latency (requested at the
     * arrival less it); for the probes (PEV_STORE_JOIN) */
    bool prefetch_fill;
    uint32_t fill_latency;
} mem_result;

/* What a data access does to its line. An atomic read-modify-write (AMO) reads
 * like a load (it allocates its line and is waited for) and writes like a store
 * (the line becomes dirty); a successful sc is a store, a failed one no access. */
typedef enum mem_access { MEM_READ, MEM_WRITE, MEM_RMW } mem_access;
static inline mem_access mem_access_of(const uop *u) {
    if (!(u->flags & UOP_MEM_WRITE)) return MEM_READ;
    return (u->flags & UOP_MEM_READ) ? MEM_RMW : MEM_WRITE;
}

memsys_t *memsys_create(const uarch_config *cfg);
/* Back to the state memsys_create(cfg) gives (cfg: the one it was created with), without
 * reallocating: empty caches and TLBs, nothing in flight or buffered, no counts, no notes kept.
 * The cost is the lines a run used, not the caches' sizes (cache_reset). */
void memsys_reset(memsys_t *m, const uarch_config *cfg);
void memsys_destroy(memsys_t *m);

/* Cache state follows program order: an access is classified (hit or miss,
 * which level serves it, LRU updated, counted) once, in program order; timing
 * only decides when its fill starts and arrives. Miss events therefore do not
 * change when latencies change, and a core that reorders accesses sees the
 * same hits and misses as one that does not. */
uint8_t memsys_classify(memsys_t *m, uint64_t addr, uint64_t pc, bool instruction, mem_access access);
/* When does the data of a classified access arrive, asked at cycle `now`? A
 * miss nobody has requested yet starts its fill here; a fill in flight is
 * joined. False when the L1 has no free miss register: nothing changed, ask
 * again later. */
bool memsys_request(memsys_t *m, uint64_t addr, bool instruction, uint64_t now, mem_result *out);
/* classify + request, for cores that access in program order (fetch, in-order
 * loads); a refused access is not classified again when it retries. */
bool memsys_fetch(memsys_t *m, uint64_t addr, uint64_t now, mem_result *out);
bool memsys_load(memsys_t *m, uint64_t addr, uint64_t now, mem_result *out);
/* A blocking data access in program order (the in-order model's loads and
 * atomics, and its stores without a store buffer), from the µop at `pc` (the
 * stride prefetcher's key). A write marks its line dirty (write-backs) and,
 * write-allocate, waits for the line like a load; write-no-allocate, a miss is
 * handed to the level below and not waited for. An RMW always allocates. */
bool memsys_data_access(memsys_t *m, uint64_t addr, uint64_t pc, mem_access access, uint64_t now, mem_result *out);
/* A store's access (write-allocate): classified, never waited for. */
void memsys_store(memsys_t *m, uint64_t addr, uint64_t now);
/* Functional warming: install lines, no timing, no statistics. */
void memsys_warm(memsys_t *m, uint64_t addr, bool instruction, mem_access access);
/* Counters since creation (or the last reset). */
void memsys_stats(const memsys_t *m, core_stats *out);
void memsys_reset_stats(memsys_t *m);
uint32_t memsys_line_bits(const memsys_t *m, bool instruction);
/* The first cycle after `now` at which anything in the memory system changes
 * by itself (a fill arrives and frees a miss register, the store buffer's
 * oldest store can write), or UINT64_MAX. Lets a core skip idle cycles exactly. */
uint64_t memsys_next_event(const memsys_t *m, uint64_t now);

/* ---- for the probes (PROBE_EVENTS): what the memory system did ---- */

/* With notes kept (memsys_keep_notes), the memory system remembers each fill
 * it starts (demand or prefetch) and each prefetch it decides, until the core
 * takes them. Off (the default), keeping them costs one test per fill. */
typedef enum mem_note_kind { MNOTE_FILL, MNOTE_PREFETCH } mem_note_kind;
typedef struct mem_note {
    uint64_t addr;         /* the line's address */
    uint64_t start, ready; /* MNOTE_FILL: the cycle it was requested, the cycle its data arrives */
    uint8_t kind;          /* mem_note_kind */
    uint8_t level;         /* the level that serves the line */
    bool instruction;      /* the L1I's (else the L1D's) */
    bool prefetch;         /* MNOTE_FILL: a prefetch's fill (not counted in cache_stats.fills) */
} mem_note;
void memsys_keep_notes(memsys_t *m, bool on);
/* Hand over and forget, in the order they were noted, the prefetches decided
 * since the last call and the fills whose data arrived by `now` (with `all`,
 * the fills still in flight too). */
void memsys_take_notes(memsys_t *m, uint64_t now, bool all, void (*fn)(void *ctx, const mem_note *n), void *ctx);
/* An L1's miss registers: in use at the end of cycle `now` (fills in flight),
 * and how many there are (0: unlimited). */
uint32_t memsys_mshr_count(const memsys_t *m, bool instruction, uint64_t now);
uint32_t memsys_mshr_size(const memsys_t *m, bool instruction);
/* The L2's (lower 0) or the L3's (lower 1) miss registers: L1 fills in flight at
 * the end of cycle `now` that miss that level too, and how many there are (0:
 * unlimited, or no such level; then none are tracked). */
uint32_t memsys_lower_mshr_count(const memsys_t *m, int lower, uint64_t now);
uint32_t memsys_lower_mshr_size(const memsys_t *m, int lower);

/* ---- address translation (4 KB pages, fully associative LRU TLBs) ---- */

/* Translate addr for an instruction fetch or a data access, in program order
 * (TLB state follows program order, like the caches'). True on a hit in the
 * first-level TLB (or when none is modelled); else *extra = the cycles the
 * translation takes: the second-level TLB's latency, plus the page walk
 * (the first-level TLB's miss_latency) when that misses too. */
bool memsys_translate(memsys_t *m, uint64_t addr, bool instruction, uint32_t *extra);
/* After a translation that missed the first-level TLB: LEVEL_L2 when the
 * second-level TLB served it, LEVEL_MEM when the page was walked. */
uint8_t memsys_tlb_level(const memsys_t *m);
/* Is a TLB modelled for this side? */
bool memsys_has_tlb(const memsys_t *m, bool instruction);
/* Functional warming of the TLBs. */
void memsys_warm_tlb(memsys_t *m, uint64_t addr, bool instruction);

/* ---- the store buffer (core.store_buffer entries; 0: none) ---- */

typedef struct sb_entry {
    uint64_t addr, seq, pc;
    uint64_t ready;        /* the cycle its line is writable (UINT64_MAX: not requested yet) */
    uint64_t requested_at; /* the cycle it asked for its line (for the probes) */
    uint8_t size, level;
    uint8_t served;      /* the level that served its line's request (LEVEL_L1: a hit) */
    bool merged;         /* its request joined a fill already in flight */
    bool join_prefetch;  /* merged: that fill was a prefetch's */
    uint32_t join_lat;   /* merged: that fill's latency (from join_start to its arrival) */
    uint64_t join_start; /* merged: the cycle that fill was requested */
} sb_entry;

/* Entries, 0 when there is no store buffer. */
uint32_t memsys_sb_size(const memsys_t *m);
uint32_t memsys_sb_count(const memsys_t *m);
/* The oldest store waiting to write (NULL when empty). */
const sb_entry *memsys_sb_oldest(const memsys_t *m);
/* A committing store enters (false: full, nothing changed). `level` is its
 * program-order classification (memsys_classify). */
bool memsys_sb_push(memsys_t *m, uint64_t addr, uint8_t size, uint64_t seq, uint64_t pc, uint8_t level, uint64_t now);
/* One cycle: stores request their lines' fills in order while miss registers
 * are free, and the oldest writes the L1D if its line is there. True when
 * anything changed. */
bool memsys_sb_tick(memsys_t *m, uint64_t now);
/* The store the last memsys_sb_tick wrote to the L1D (NULL: none wrote), for the probes. */
const sb_entry *memsys_sb_written(const memsys_t *m);
/* Does a buffered store overlap [lo, hi)? (a load then takes its data from it) */
bool memsys_sb_overlaps(const memsys_t *m, uint64_t lo, uint64_t hi);

#endif
