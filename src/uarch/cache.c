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
    uint64_t sets; /* any count: 48 KB 4-way with 64-byte lines has 192 */
    uint64_t *tags;    /* sets * ways; line address + 1, 0 = empty */
    uint64_t *stamps;  /* LRU stamps (set-associative) */
    uint64_t clock;
    /* fully associative */
    bool full;
    uint32_t *hash;    /* slot + 1 per bucket, 0 = empty; open addressing */
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
    cache_t *c = calloc(1, sizeof *c);
    uint64_t lines = cfg->size / cfg->line;
    c->line_bits = log2u(cfg->line);
    c->full = cfg->assoc == 0 || cfg->assoc >= lines;
    c->ways = c->full ? (uint32_t)lines : cfg->assoc;
    c->sets = c->full ? 1 : lines / cfg->assoc;
    c->tags = calloc(lines, sizeof *c->tags);
    if (c->full && c->ways > 16) {
        uint32_t buckets = 1;
        while (buckets < 2 * c->ways) buckets <<= 1;
        c->hash = calloc(buckets, sizeof *c->hash);
        c->hash_mask = buckets - 1;
        c->prev = malloc(lines * sizeof *c->prev);
        c->next = malloc(lines * sizeof *c->next);
        c->head = c->tail = NIL;
    } else {
        c->full = false; /* a small fully associative cache is one set, scanned */
        c->stamps = calloc(lines, sizeof *c->stamps);
    }
    return c;
}

void cache_destroy(cache_t *c) {
    if (!c) return;
    free(c->tags);
    free(c->stamps);
    free(c->hash);
    free(c->prev);
    free(c->next);
    free(c);
}

uint32_t cache_line_bits(const cache_t *c) { return c->line_bits; }

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

static bool full_access(cache_t *c, uint64_t line) {
    uint32_t b = hash_find(c, line);
    if (c->hash[b]) {
        uint32_t s = c->hash[b] - 1;
        if (c->head != s) {
            list_unlink(c, s);
            list_push_front(c, s);
        }
        return true;
    }
    uint32_t s;
    if (c->used < c->ways) {
        s = c->used++;
    } else {
        s = c->tail;
        list_unlink(c, s);
        hash_remove(c, hash_find(c, c->tags[s] - 1));
        b = hash_find(c, line); /* deletion may have moved the empty bucket */
    }
    c->tags[s] = line + 1;
    c->hash[b] = s + 1;
    list_push_front(c, s);
    return false;
}

bool cache_access(cache_t *c, uint64_t addr) {
    uint64_t line = addr >> c->line_bits;
    if (c->full) return full_access(c, line);
    uint64_t set = line % c->sets;
    uint64_t *tags = &c->tags[set * c->ways], *stamps = &c->stamps[set * c->ways];
    uint32_t victim = 0;
    c->clock++;
    for (uint32_t w = 0; w < c->ways; w++) {
        if (tags[w] == line + 1) {
            stamps[w] = c->clock;
            return true;
        }
        if (stamps[w] < stamps[victim]) victim = w;
    }
    tags[victim] = line + 1;
    stamps[victim] = c->clock;
    return false;
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

/* ---- the hierarchy ---------------------------------------------------------------------- */

typedef struct mshr {
    uint64_t line;
    uint64_t ready; /* cycle the fill arrives */
    uint8_t level;
} mshr;

typedef struct l1 {
    cache_t *cache;
    mshr *mshrs;
    uint32_t mshr_cap, mshr_used; /* cap 0: unlimited (array grows) */
    uint32_t latency, line_bits;
    bool perfect;
    cache_stats stats;
} l1;

struct memsys {
    l1 inst, data;
    cache_t *l2, *l3;
    uint32_t l2_latency, l3_latency, mem_latency;
    uint32_t transfer_cycles; /* per line on the memory channel; 0 = unlimited bandwidth */
    uint64_t channel_free;    /* first cycle the memory channel is idle */
    cache_stats l2_stats, l3_stats;
};

static void l1_init(l1 *x, const cache_config *cfg, bool perfect) {
    x->cache = cache_create(cfg);
    x->mshr_cap = cfg->mshrs;
    x->mshrs = calloc(cfg->mshrs ? cfg->mshrs : 64, sizeof(mshr));
    if (!cfg->mshrs) x->mshr_cap = 0;
    x->latency = cfg->latency;
    x->line_bits = cache_line_bits(x->cache);
    x->perfect = perfect;
}

memsys_t *memsys_create(const uarch_config *cfg) {
    memsys_t *m = calloc(1, sizeof *m);
    l1_init(&m->inst, &cfg->l1i, cfg->perfect_icache);
    l1_init(&m->data, &cfg->l1d, cfg->perfect_dcache);
    if (cfg->l2.enabled) {
        m->l2 = cache_create(&cfg->l2);
        m->l2_latency = cfg->l2.latency;
    }
    if (cfg->l3.enabled) {
        m->l3 = cache_create(&cfg->l3);
        m->l3_latency = cfg->l3.latency;
    }
    m->mem_latency = cfg->mem_latency;
    if (cfg->mem_bandwidth) {
        uint32_t line = 1u << m->data.line_bits;
        m->transfer_cycles = (line + cfg->mem_bandwidth - 1) / cfg->mem_bandwidth;
    }
    return m;
}

void memsys_destroy(memsys_t *m) {
    if (!m) return;
    cache_destroy(m->inst.cache);
    cache_destroy(m->data.cache);
    free(m->inst.mshrs);
    free(m->data.mshrs);
    cache_destroy(m->l2);
    cache_destroy(m->l3);
    free(m);
}

uint32_t memsys_line_bits(const memsys_t *m, bool instruction) {
    return instruction ? m->inst.line_bits : m->data.line_bits;
}

/* Beyond the L1: latency added by the lower levels, and which one served. */
static uint32_t lower_levels(memsys_t *m, uint64_t addr, uint64_t now, uint8_t *level) {
    uint32_t lat = 0;
    if (m->l2) {
        lat += m->l2_latency;
        m->l2_stats.accesses++;
        if (cache_access(m->l2, addr)) {
            *level = LEVEL_L2;
            return lat;
        }
        m->l2_stats.misses++;
    }
    if (m->l3) {
        lat += m->l3_latency;
        m->l3_stats.accesses++;
        if (cache_access(m->l3, addr)) {
            *level = LEVEL_L3;
            return lat;
        }
        m->l3_stats.misses++;
    }
    *level = LEVEL_MEM;
    lat += m->mem_latency;
    if (m->transfer_cycles) { /* queue for the channel, then hold it for one line */
        uint64_t arrive = now + lat - m->transfer_cycles;
        uint64_t start = arrive > m->channel_free ? arrive : m->channel_free;
        m->channel_free = start + m->transfer_cycles;
        lat = (uint32_t)(m->channel_free - now);
    }
    return lat;
}

static bool l1_access(memsys_t *m, l1 *x, uint64_t addr, uint64_t now, mem_result *out) {
    if (x->perfect) {
        *out = (mem_result){x->latency, LEVEL_L1, false};
        x->stats.accesses++;
        return true;
    }
    uint64_t line = addr >> x->line_bits;
    /* retire fills that have arrived; look for this line in flight */
    uint32_t live = 0;
    mshr *hit = NULL;
    for (uint32_t i = 0; i < x->mshr_used; i++) {
        if (x->mshrs[i].ready <= now) continue;
        x->mshrs[live] = x->mshrs[i];
        if (x->mshrs[live].line == line) hit = &x->mshrs[live];
        live++;
    }
    x->mshr_used = live;
    if (hit) { /* the line is on its way: wait for the same fill */
        x->stats.accesses++;
        cache_access(x->cache, addr);
        *out = (mem_result){(uint32_t)(hit->ready - now), hit->level, true};
        return true;
    }
    if (cache_contains(x->cache, addr)) {
        x->stats.accesses++;
        cache_access(x->cache, addr);
        *out = (mem_result){x->latency, LEVEL_L1, false};
        return true;
    }
    if (x->mshr_cap && x->mshr_used >= x->mshr_cap) return false; /* retry: no miss register */
    if (!x->mshr_cap && (x->mshr_used & 63) == 0 && x->mshr_used)
        x->mshrs = realloc(x->mshrs, (x->mshr_used + 64) * sizeof(mshr));
    x->stats.accesses++;
    x->stats.misses++;
    cache_access(x->cache, addr);
    uint8_t level;
    uint32_t lat = x->latency + lower_levels(m, addr, now + x->latency, &level);
    x->mshrs[x->mshr_used++] = (mshr){line, now + lat, level};
    *out = (mem_result){lat, level, false};
    return true;
}

bool memsys_fetch(memsys_t *m, uint64_t addr, uint64_t now, mem_result *out) {
    return l1_access(m, &m->inst, addr, now, out);
}

bool memsys_load(memsys_t *m, uint64_t addr, uint64_t now, mem_result *out) {
    return l1_access(m, &m->data, addr, now, out);
}

void memsys_store(memsys_t *m, uint64_t addr, uint64_t now) {
    (void)now;
    l1 *x = &m->data;
    x->stats.accesses++;
    if (x->perfect || cache_access(x->cache, addr)) return;
    x->stats.misses++;
    uint8_t level;
    lower_levels(m, addr, now, &level); /* write-allocate: the line comes in, nobody waits */
}

void memsys_warm(memsys_t *m, uint64_t addr, bool instruction) {
    l1 *x = instruction ? &m->inst : &m->data;
    if (x->perfect || cache_access(x->cache, addr)) return;
    if (m->l2 && cache_access(m->l2, addr)) return;
    if (m->l3) cache_access(m->l3, addr);
}

static uint64_t l1_next_event(const l1 *x, uint64_t now) {
    uint64_t next = UINT64_MAX;
    for (uint32_t i = 0; i < x->mshr_used; i++)
        if (x->mshrs[i].ready > now && x->mshrs[i].ready < next) next = x->mshrs[i].ready;
    return next;
}

uint64_t memsys_next_event(const memsys_t *m, uint64_t now) {
    uint64_t a = l1_next_event(&m->inst, now), b = l1_next_event(&m->data, now);
    return a < b ? a : b;
}

void memsys_stats(const memsys_t *m, core_stats *out) {
    out->l1i = m->inst.stats;
    out->l1d = m->data.stats;
    out->l2 = m->l2_stats;
    out->l3 = m->l3_stats;
}

void memsys_reset_stats(memsys_t *m) {
    memset(&m->inst.stats, 0, sizeof m->inst.stats);
    memset(&m->data.stats, 0, sizeof m->data.stats);
    memset(&m->l2_stats, 0, sizeof m->l2_stats);
    memset(&m->l3_stats, 0, sizeof m->l3_stats);
}
