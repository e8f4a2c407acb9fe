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

/* Lines an L1 has been told about but whose data is not there yet: either a
 * fill in flight (ready > 0) or a miss decided in program order whose fill no
 * access has started yet (ready == 0). Open addressing on the line number. */
typedef struct line_state {
    uint64_t line;  /* line + 1; 0 = empty slot */
    uint64_t ready; /* cycle the fill arrives; 0 = not requested yet */
    uint8_t level;  /* level that serves the miss */
} line_state;

struct fill {
    uint64_t line, ready;
};

typedef struct l1 {
    cache_t *cache;
    line_state *lines;
    uint32_t lines_mask, lines_used;
    uint32_t mshr_cap;      /* fills in flight at once; 0 = unlimited */
    struct fill *in_flight; /* the fills in flight (the miss registers) */
    uint32_t in_flight_count, in_flight_alloc;
    uint32_t latency, line_bits;
    bool perfect;
    uint64_t retry_line; /* line + 1 of an access refused for lack of a miss register */
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
    x->in_flight_alloc = cfg->mshrs ? cfg->mshrs : 64;
    x->in_flight = cs_calloc(x->in_flight_alloc, sizeof *x->in_flight);
    x->lines_mask = 1023;
    x->lines = cs_calloc(x->lines_mask + 1, sizeof *x->lines);
    x->latency = cfg->latency;
    x->line_bits = cache_line_bits(x->cache);
    x->perfect = perfect;
}

memsys_t *memsys_create(const uarch_config *cfg) {
    memsys_t *m = cs_calloc(1, sizeof *m);
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

static void l1_free(l1 *x) {
    cache_destroy(x->cache);
    free(x->lines);
    free(x->in_flight);
}

void memsys_destroy(memsys_t *m) {
    if (!m) return;
    l1_free(&m->inst);
    l1_free(&m->data);
    cache_destroy(m->l2);
    cache_destroy(m->l3);
    free(m);
}

uint32_t memsys_line_bits(const memsys_t *m, bool instruction) {
    return instruction ? m->inst.line_bits : m->data.line_bits;
}

/* ---- the per-L1 table of lines on their way ---- */

static uint32_t line_slot(const l1 *x, uint64_t line) {
    uint32_t b = (uint32_t)((line * 0x9e3779b97f4a7c15ull) >> 40) & x->lines_mask;
    while (x->lines[b].line && x->lines[b].line != line + 1) b = (b + 1) & x->lines_mask;
    return b;
}

static void line_remove(l1 *x, uint32_t b) {
    x->lines[b].line = 0;
    x->lines_used--;
    for (uint32_t i = (b + 1) & x->lines_mask; x->lines[i].line; i = (i + 1) & x->lines_mask) {
        uint32_t want = (uint32_t)(((x->lines[i].line - 1) * 0x9e3779b97f4a7c15ull) >> 40) & x->lines_mask;
        bool move = (i > b) ? (want <= b || want > i) : (want <= b && want > i);
        if (move) {
            x->lines[b] = x->lines[i];
            x->lines[i].line = 0;
            b = i;
        }
    }
}

static void line_insert(l1 *x, uint64_t line, uint8_t level) {
    if (2 * (x->lines_used + 1) > x->lines_mask + 1) { /* grow at half full */
        line_state *old = x->lines;
        uint32_t old_size = x->lines_mask + 1;
        x->lines_mask = 2 * old_size - 1;
        x->lines = cs_calloc(2 * old_size, sizeof *x->lines);
        x->lines_used = 0;
        for (uint32_t i = 0; i < old_size; i++) {
            if (!old[i].line) continue;
            uint32_t b = line_slot(x, old[i].line - 1);
            x->lines[b] = old[i];
            x->lines_used++;
        }
        free(old);
    }
    uint32_t b = line_slot(x, line);
    if (!x->lines[b].line) x->lines_used++;
    x->lines[b] = (line_state){line + 1, 0, level};
}

/* ---- program order: which level holds the line ---- */

/* Below the L1: update the L2/L3 tags and say which level served. */
static uint8_t classify_lower(memsys_t *m, uint64_t addr, bool count) {
    if (m->l2) {
        if (count) m->l2_stats.accesses++;
        if (cache_access(m->l2, addr)) return LEVEL_L2;
        if (count) m->l2_stats.misses++;
    }
    if (m->l3) {
        if (count) m->l3_stats.accesses++;
        if (cache_access(m->l3, addr)) return LEVEL_L3;
        if (count) m->l3_stats.misses++;
    }
    return LEVEL_MEM;
}

static uint8_t l1_classify(memsys_t *m, l1 *x, uint64_t addr, bool pending) {
    x->stats.accesses++;
    if (x->perfect || cache_access(x->cache, addr)) return LEVEL_L1;
    x->stats.misses++;
    uint8_t level = classify_lower(m, addr, true);
    if (pending) line_insert(x, addr >> x->line_bits, level);
    return level;
}

uint8_t memsys_classify(memsys_t *m, uint64_t addr, bool instruction, bool write) {
    /* a store's write-allocate fill is not waited for: no pending line */
    return l1_classify(m, instruction ? &m->inst : &m->data, addr, !write);
}

/* ---- timing: when the data arrives ---- */

static uint32_t level_latency(const memsys_t *m, const l1 *x, uint8_t level) {
    uint32_t lat = x->latency;
    if (level >= LEVEL_L2 && m->l2) lat += m->l2_latency;
    if (level >= LEVEL_L3 && m->l3) lat += m->l3_latency;
    if (level == LEVEL_MEM) lat += m->mem_latency;
    return lat;
}

static bool l1_request(memsys_t *m, l1 *x, uint64_t addr, uint64_t now, mem_result *out) {
    if (x->perfect) {
        *out = (mem_result){x->latency, LEVEL_L1, false};
        return true;
    }
    /* retire the fills that have arrived, and their lines' entries */
    uint32_t live = 0;
    for (uint32_t i = 0; i < x->in_flight_count; i++) {
        if (x->in_flight[i].ready > now) {
            x->in_flight[live++] = x->in_flight[i];
            continue;
        }
        uint32_t slot = line_slot(x, x->in_flight[i].line);
        if (x->lines[slot].line && x->lines[slot].ready == x->in_flight[i].ready) line_remove(x, slot);
    }
    x->in_flight_count = live;
    uint64_t line = addr >> x->line_bits;
    uint32_t b = line_slot(x, line);
    line_state *ls = &x->lines[b];
    if (!ls->line) { /* in the cache, nothing pending */
        *out = (mem_result){x->latency, LEVEL_L1, false};
        return true;
    }
    if (ls->ready) {
        if (ls->ready <= now) { /* arrived: forget it */
            line_remove(x, b);
            *out = (mem_result){x->latency, LEVEL_L1, false};
        } else { /* on its way: wait for the same fill */
            *out = (mem_result){(uint32_t)(ls->ready - now), ls->level, true};
        }
        return true;
    }
    /* the first access to reach the memory system starts the fill */
    if (x->mshr_cap && x->in_flight_count >= x->mshr_cap) return false;
    uint32_t lat = level_latency(m, x, ls->level);
    if (ls->level == LEVEL_MEM && m->transfer_cycles) { /* queue for the channel, then hold it for one line */
        uint64_t arrive = now + lat - m->transfer_cycles;
        uint64_t start = arrive > m->channel_free ? arrive : m->channel_free;
        m->channel_free = start + m->transfer_cycles;
        lat = (uint32_t)(m->channel_free - now);
    }
    if (x->in_flight_count == x->in_flight_alloc) {
        x->in_flight_alloc *= 2;
        x->in_flight = cs_realloc(x->in_flight, x->in_flight_alloc * sizeof *x->in_flight);
    }
    x->in_flight[x->in_flight_count++] = (struct fill){line, now + lat};
    ls->ready = now + lat;
    *out = (mem_result){lat, ls->level, false};
    return true;
}

bool memsys_request(memsys_t *m, uint64_t addr, bool instruction, uint64_t now, mem_result *out) {
    return l1_request(m, instruction ? &m->inst : &m->data, addr, now, out);
}

/* Classify and request at once; an access refused for lack of a miss register
 * is not classified again when it retries. */
static bool classify_and_request(memsys_t *m, l1 *x, uint64_t addr, uint64_t now, mem_result *out) {
    uint64_t line = (addr >> x->line_bits) + 1;
    if (x->retry_line != line) l1_classify(m, x, addr, true);
    bool ok = l1_request(m, x, addr, now, out);
    x->retry_line = ok ? 0 : line;
    return ok;
}

bool memsys_fetch(memsys_t *m, uint64_t addr, uint64_t now, mem_result *out) {
    return classify_and_request(m, &m->inst, addr, now, out);
}

bool memsys_load(memsys_t *m, uint64_t addr, uint64_t now, mem_result *out) {
    return classify_and_request(m, &m->data, addr, now, out);
}

void memsys_store(memsys_t *m, uint64_t addr, uint64_t now) {
    (void)now;
    memsys_classify(m, addr, false, true);
}

void memsys_warm(memsys_t *m, uint64_t addr, bool instruction) {
    l1 *x = instruction ? &m->inst : &m->data;
    if (x->perfect || cache_access(x->cache, addr)) return;
    classify_lower(m, addr, false);
}

uint64_t memsys_next_event(const memsys_t *m, uint64_t now) {
    uint64_t next = UINT64_MAX;
    const l1 *xs[2] = {&m->inst, &m->data};
    for (int k = 0; k < 2; k++)
        for (uint32_t i = 0; i < xs[k]->in_flight_count; i++)
            if (xs[k]->in_flight[i].ready > now && xs[k]->in_flight[i].ready < next) next = xs[k]->in_flight[i].ready;
    return next;
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
