/* Caches (LRU tag arrays) and the memory hierarchy. See cache.h for what is simplified. */
#include "cache.h"

#include <stdlib.h>
#include <string.h>

/* ---- one cache -------------------------------------------------------------------------- */

/* Set-associative caches scan their few ways with LRU stamps. A fully
 * associative cache with many lines keeps a hash table from line to slot and
 * a doubly linked recency list, so an access stays O(1). */
struct cache {
    uint32_t line_bits, ways;
    uint64_t sets;    /* any count: 48 KB 4-way with 64-byte lines has 192 */
    uint64_t *tags;   /* sets * ways; line address + 1, 0 = empty */
    uint64_t *stamps; /* LRU stamps (set-associative) */
    uint8_t *flags;   /* per line: CACHE_DIRTY, CACHE_PREFETCHED (cache_access_flags) */
    uint64_t clock;
    /* fully associative */
    bool full;
    uint32_t *hash; /* slot + 1 per bucket, 0 = empty; open addressing */
    uint32_t hash_mask;
    uint32_t *prev, *next; /* recency list over slots; head = most recent */
    uint32_t head, tail, used;
};

enum { NIL = UINT32_MAX };

static uint32_t log2u(uint64_t x) {
    uint32_t b = 0;
    while ((1ull << b) < x) b++;
    return b;
}

cache_t *cache_create(const cache_config *cfg) {
    cache_t *c = cs_calloc(1, sizeof *c);
    uint64_t lines = cfg->size / cfg->line;
    c->line_bits = log2u(cfg->line);
    c->full = cfg->assoc == 0 || cfg->assoc >= lines;
    c->ways = c->full ? (uint32_t)lines : cfg->assoc;
    c->sets = c->full ? 1 : lines / cfg->assoc;
    c->tags = cs_calloc(lines, sizeof *c->tags);
    c->flags = cs_calloc(lines, sizeof *c->flags);
    if (c->full && c->ways > 16) {
        uint32_t buckets = 1;
        while (buckets < 2 * c->ways) buckets <<= 1;
        c->hash = cs_calloc(buckets, sizeof *c->hash);
        c->hash_mask = buckets - 1;
        c->prev = cs_malloc(lines * sizeof *c->prev);
        c->next = cs_malloc(lines * sizeof *c->next);
        c->head = c->tail = NIL;
    } else {
        c->full = false; /* a small fully associative cache is one set, scanned */
        c->stamps = cs_calloc(lines, sizeof *c->stamps);
    }
    return c;
}

void cache_destroy(cache_t *c) {
    if (!c) return;
    free(c->tags);
    free(c->flags);
    free(c->stamps);
    free(c->hash);
    free(c->prev);
    free(c->next);
    free(c);
}

uint32_t cache_line_bits(const cache_t *c) { return c->line_bits; }

static uint32_t hash_find(const cache_t *c, uint64_t line);

void cache_reset(cache_t *c) {
    if (c->full) {
        /* the lines held are slots [0, used) (a slot, once filled, always holds a line), each in
         * one bucket: find every bucket before clearing any (a cleared bucket would cut the probe
         * chains through it), noting it in the slot's `prev` (rewritten before it is read) */
        for (uint32_t s = 0; s < c->used; s++) c->prev[s] = hash_find(c, c->tags[s] - 1);
        for (uint32_t s = 0; s < c->used; s++) c->hash[c->prev[s]] = 0;
        memset(c->tags, 0, c->used * sizeof *c->tags);
        memset(c->flags, 0, c->used * sizeof *c->flags);
        c->head = c->tail = NIL;
        c->used = 0;
    } else if (c->clock) { /* every access counts a tick: none, nothing to clear */
        uint64_t lines = c->sets * c->ways;
        memset(c->tags, 0, lines * sizeof *c->tags);
        memset(c->stamps, 0, lines * sizeof *c->stamps);
        memset(c->flags, 0, lines * sizeof *c->flags);
        c->clock = 0;
    }
}

static uint32_t hash_of(const cache_t *c, uint64_t line) {
    return (uint32_t)((line * 0x9e3779b97f4a7c15ull) >> 32) & c->hash_mask;
}

/* Bucket holding `line`, or the empty bucket where it would go. */
static uint32_t hash_find(const cache_t *c, uint64_t line) {
    uint32_t b = hash_of(c, line);
    while (c->hash[b] && c->tags[c->hash[b] - 1] != line + 1) b = (b + 1) & c->hash_mask;
    return b;
}

static void hash_remove(cache_t *c, uint32_t b) {
    /* backward-shift deletion keeps probe chains intact */
    c->hash[b] = 0;
    for (uint32_t i = (b + 1) & c->hash_mask; c->hash[i]; i = (i + 1) & c->hash_mask) {
        uint32_t slot = c->hash[i] - 1, want = hash_of(c, c->tags[slot] - 1);
        bool move = (i > b) ? (want <= b || want > i) : (want <= b && want > i);
        if (move) {
            c->hash[b] = c->hash[i];
            c->hash[i] = 0;
            b = i;
        }
    }
}

static void list_unlink(cache_t *c, uint32_t s) {
    if (c->prev[s] != NIL) c->next[c->prev[s]] = c->next[s];
    else c->head = c->next[s];
    if (c->next[s] != NIL) c->prev[c->next[s]] = c->prev[s];
    else c->tail = c->prev[s];
}

static void list_push_front(cache_t *c, uint32_t s) {
    c->prev[s] = NIL;
    c->next[s] = c->head;
    if (c->head != NIL) c->prev[c->head] = s;
    c->head = s;
    if (c->tail == NIL) c->tail = s;
}

/* The flags of a line: `set` on a hit are added (a hit by demand clears CACHE_PREFETCHED,
 * after *old has reported it); on a miss they are the new line's. */
static bool full_access(cache_t *c, uint64_t line, uint8_t set, uint8_t *old, uint64_t *victim) {
    uint32_t b = hash_find(c, line);
    if (c->hash[b]) {
        uint32_t s = c->hash[b] - 1;
        if (c->head != s) {
            list_unlink(c, s);
            list_push_front(c, s);
        }
        *old = c->flags[s];
        c->flags[s] = (uint8_t)((c->flags[s] & ~CACHE_PREFETCHED) | set);
        return true;
    }
    uint32_t s;
    if (c->used < c->ways) {
        s = c->used++;
    } else {
        s = c->tail;
        if (c->flags[s] & CACHE_DIRTY) *victim = c->tags[s]; /* line + 1 */
        list_unlink(c, s);
        hash_remove(c, hash_find(c, c->tags[s] - 1));
        b = hash_find(c, line); /* deletion may have moved the empty bucket */
    }
    c->tags[s] = line + 1;
    c->flags[s] = set;
    c->hash[b] = s + 1;
    list_push_front(c, s);
    return false;
}

/* `flags`: keep the line flags (a constant at each call: the plain access does not touch them). */
static inline __attribute__((always_inline)) bool access_line(cache_t *c, uint64_t line, bool keep, uint8_t set,
                                                              uint8_t *old, uint64_t *dirty_victim) {
    if (c->full) return full_access(c, line, set, old, dirty_victim);
    uint64_t index = line % c->sets;
    uint64_t *tags = &c->tags[index * c->ways], *stamps = &c->stamps[index * c->ways];
    uint8_t *flags = &c->flags[index * c->ways];
    uint32_t victim = 0;
    c->clock++;
    for (uint32_t w = 0; w < c->ways; w++) {
        if (tags[w] == line + 1) {
            stamps[w] = c->clock;
            if (keep) {
                *old = flags[w];
                flags[w] = (uint8_t)((flags[w] & ~CACHE_PREFETCHED) | set);
            }
            return true;
        }
        if (stamps[w] < stamps[victim]) victim = w;
    }
    if (keep && (flags[victim] & CACHE_DIRTY)) *dirty_victim = tags[victim]; /* line + 1 */
    tags[victim] = line + 1;
    stamps[victim] = c->clock;
    if (keep) flags[victim] = set;
    return false;
}

bool cache_access(cache_t *c, uint64_t addr) {
    uint8_t old;
    uint64_t victim;
    return access_line(c, addr >> c->line_bits, false, 0, &old, &victim);
}

bool cache_access_flags(cache_t *c, uint64_t addr, uint8_t set, uint8_t *old, uint64_t *victim) {
    uint64_t v = 0;
    *old = 0;
    bool hit = access_line(c, addr >> c->line_bits, true, set, old, &v);
    *victim = v ? (v - 1) << c->line_bits : UINT64_MAX;
    return hit;
}

bool cache_contains(const cache_t *c, uint64_t addr) {
    uint64_t line = addr >> c->line_bits;
    if (c->full) return c->hash[hash_find(c, line)] != 0;
    uint64_t set = line % c->sets;
    const uint64_t *tags = &c->tags[set * c->ways];
    for (uint32_t w = 0; w < c->ways; w++)
        if (tags[w] == line + 1) return true;
    return false;
}
