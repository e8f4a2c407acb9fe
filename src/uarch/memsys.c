/* The memory hierarchy and the store buffer. See memsys.h for what is simplified. */
#include "memsys.h"

#include <stdlib.h>
#include <string.h>

/* Lines an L1 has been told about but whose data is not there yet: either a
 * fill in flight (ready > 0) or a miss decided in program order whose fill no
 * access has started yet (ready == 0). Open addressing on the line number. */
typedef struct line_state {
    uint64_t line;  /* line + 1; 0 = empty slot */
    uint64_t ready; /* cycle the fill arrives; 0 = not requested yet */
    uint32_t lat;   /* the fill's latency (requested at ready - lat), for the probes */
    uint8_t level;  /* level that serves the miss */
    bool prefetch;  /* brought in by a prefetch no demand access has waited for yet */
    bool pf_fill;   /* its fill was started by a prefetch (for the probes) */
} line_state;

struct fill {
    uint64_t line, ready;
};

/* A prefetch decided in program order, issued when its trigger access reaches the memory system. */
typedef struct pf_request {
    uint64_t line, trigger;
    bool armed; /* the trigger has reached the memory system: issue when a miss register is free */
} pf_request;

enum { PF_QUEUE = 32 };

/* The per-PC stride prefetcher's table (direct-mapped on the pc). */
typedef struct stride_entry {
    uint64_t pc, last_line;
    int64_t stride; /* in lines */
    uint8_t confirmed;
} stride_entry;

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
    bool write_allocate; /* a store that misses fetches its line (else it goes to the level below) */
    bool flags;          /* keep line flags (write-backs or prefetching) */
    /* prefetchers */
    bool next_line; /* tagged next-line: on a miss, and on the first use of a prefetched line */
    stride_entry *stride;
    uint32_t stride_entries, degree;
    pf_request pfq[PF_QUEUE];
    uint32_t pfq_count;
    cache_stats stats;
} l1;

/* Committed stores, oldest first (a ring): [head, head + requested) have asked for their lines. */
enum { WB_OWED = 64 };
typedef struct dram_channel dram_channel;

typedef struct store_buffer {
    sb_entry *e;
    uint32_t cap, head, count, requested;
    sb_entry written; /* the store the last tick wrote (seq 0: none), for the probes */
} store_buffer;

struct memsys {
    l1 inst, data;
    cache_t *l2, *l3;
    uint32_t l2_latency, l3_latency, mem_latency;
    uint32_t transfer_cycles; /* per line on the memory channel; 0 = unlimited bandwidth */
    uint64_t channel_free;    /* first cycle the memory channel is idle */
    bool writebacks;          /* dirty lines are written back on eviction */
    bool warming;             /* functional warming: write-backs change tags, owe no channel time */
    uint64_t writebacks_owed; /* memory write-backs not yet charged to the channel */
    cache_stats l2_stats, l3_stats;
    uint64_t mem_writebacks;
    store_buffer sb;
    /* Below the L1s: the links L1s-L2 [0] and L2-L3 [1] (a line in `transfer` cycles, 0:
     * unlimited; write-backs owed to the link go after the next fill), and the L2's and the
     * L3's miss registers (the arrival cycles of the fills holding one; cap 0: unlimited). */
    struct {
        uint32_t transfer, owed;
        uint64_t free;
    } link[2];
    struct {
        uint32_t cap, count;
        uint64_t *ready;
    } lower_mshr[2];
    dram_channel *dram; /* the DRAM model's channels (NULL: flat memory) */
    uint32_t d_channels, d_banks, d_row_lines, d_cas, d_rcd, d_rp, d_burst, d_turn;
    uint64_t wb_lines[WB_OWED]; /* memory write-backs waiting for the DRAM (their lines) */
    uint32_t wb_count;
    uint64_t dram_stats[5];  /* reads, writes, row hits, empty rows, row conflicts */
    cache_t *tlb[2], *l2tlb; /* [0] data, [1] instructions */
    uint32_t walk[2], l2tlb_latency;
    cache_stats tlb_stats[2], l2tlb_stats;
    uint8_t tlb_level; /* the last first-level TLB miss: served by the L2 TLB or walked */
    /* notes for the probes (memsys_keep_notes) */
    bool keep_notes;
    mem_note *notes;
    uint32_t n_notes, notes_cap;
};

/* A DRAM bank keeps one row open; a channel has one data bus. */
typedef struct dram_bank {
    uint64_t row;  /* open row + 1 (0: closed) */
    uint64_t free; /* first cycle it takes another column command (one per burst) */
    uint64_t done; /* its last transfer ends: a row change (precharge) waits for it */
} dram_bank;
struct dram_channel {
    uint64_t bus_free;
    bool last_write, used;
    dram_bank *bank;
};

static cache_t *tlb_create(uint32_t entries) {
    cache_config t = {true, entries * 4096, 0, 4096, 0, 0}; /* fully associative, 4 KB pages */
    return cache_create(&t);
}

static void note(memsys_t *m, const mem_note *n) {
    if (m->n_notes == m->notes_cap) {
        m->notes_cap = m->notes_cap ? 2 * m->notes_cap : 64;
        m->notes = cs_realloc(m->notes, m->notes_cap * sizeof *m->notes);
    }
    m->notes[m->n_notes++] = *n;
}

/* A buffer of n items for the init functions below: on a reset the one kept, cleared (one
 * configuration, the same sizes), else a new one. */
static void *zeroed(void *kept, size_t n, size_t size) {
    if (!kept) return cs_calloc(n, size);
    memset(kept, 0, n * size);
    return kept;
}

/* A cache for the init functions: on a reset the one kept, emptied, else a new one. */
static cache_t *emptied(cache_t *kept, const cache_config *cfg) {
    if (!kept) return cache_create(cfg);
    cache_reset(kept);
    return kept;
}

static cache_t *tlb_emptied(cache_t *kept, uint32_t entries) {
    if (!kept) return tlb_create(entries);
    cache_reset(kept);
    return kept;
}

/* `kept`: on a reset, the L1 as the run left it, whose buffers are reused. A table that grew
 * (fills in flight, lines on their way) keeps its size: both are looked up by line, so their
 * size changes no result. */
static void l1_init(l1 *x, const cache_config *cfg, bool perfect, const l1 *kept) {
    x->cache = emptied(kept ? kept->cache : NULL, cfg);
    x->mshr_cap = cfg->mshrs;
    x->in_flight_alloc = kept ? kept->in_flight_alloc : cfg->mshrs ? cfg->mshrs : 64;
    x->in_flight = zeroed(kept ? kept->in_flight : NULL, x->in_flight_alloc, sizeof *x->in_flight);
    x->lines_mask = kept ? kept->lines_mask : 1023;
    x->lines = zeroed(kept ? kept->lines : NULL, x->lines_mask + 1, sizeof *x->lines);
    x->latency = cfg->latency;
    x->line_bits = cache_line_bits(x->cache);
    x->perfect = perfect;
    x->write_allocate = true;
}

/* The memory system as memsys_create makes it; `kept` (a reset): the struct as a run left it,
 * whose buffers and caches are reused, cleared. One function for both, so that a reset
 * memory system is a new one but for where its memory lives. */
static void memsys_init(memsys_t *m, const uarch_config *cfg, const memsys_t *kept) {
    l1_init(&m->inst, &cfg->l1i, cfg->perfect_icache, kept ? &kept->inst : NULL);
    l1_init(&m->data, &cfg->l1d, cfg->perfect_dcache, kept ? &kept->data : NULL);
    if (cfg->l2.enabled) {
        m->l2 = emptied(kept ? kept->l2 : NULL, &cfg->l2);
        m->l2_latency = cfg->l2.latency;
    }
    if (cfg->l3.enabled) {
        m->l3 = emptied(kept ? kept->l3 : NULL, &cfg->l3);
        m->l3_latency = cfg->l3.latency;
    }
    m->data.write_allocate = cfg->write_allocate;
    m->inst.next_line = cfg->prefetch_icache_next_line;
    m->data.next_line = cfg->prefetch_dcache_next_line;
    if (cfg->prefetch_dcache_stride) {
        m->data.stride_entries = cfg->prefetch_dcache_stride;
        m->data.stride = zeroed(kept ? kept->data.stride : NULL, cfg->prefetch_dcache_stride, sizeof *m->data.stride);
        m->data.degree = cfg->prefetch_degree ? cfg->prefetch_degree : 1;
    }
    m->inst.flags = m->inst.next_line || cfg->writebacks;
    m->data.flags = m->data.next_line || m->data.stride || cfg->writebacks;
    m->writebacks = cfg->writebacks;
    if (cfg->store_buffer) {
        m->sb.cap = cfg->store_buffer;
        m->sb.e = zeroed(kept ? kept->sb.e : NULL, cfg->store_buffer, sizeof *m->sb.e);
    }
    m->mem_latency = cfg->mem_latency;
    const cache_config *lower[2] = {&cfg->l2, &cfg->l3};
    const uint32_t link_bandwidth[2] = {cfg->l2_bandwidth, cfg->l3_bandwidth};
    for (int k = 0; k < 2; k++) {
        if (!lower[k]->enabled) continue;
        if (link_bandwidth[k]) m->link[k].transfer = (cfg->l1d.line + link_bandwidth[k] - 1) / link_bandwidth[k];
        if (lower[k]->mshrs) {
            m->lower_mshr[k].cap = lower[k]->mshrs;
            m->lower_mshr[k].ready =
                zeroed(kept ? kept->lower_mshr[k].ready : NULL, lower[k]->mshrs, sizeof *m->lower_mshr[k].ready);
        }
    }
    if (cfg->dram) {
        m->d_channels = cfg->dram_channels;
        m->d_banks = cfg->dram_banks;
        m->d_row_lines = cfg->dram_row >> m->data.line_bits ? cfg->dram_row >> m->data.line_bits : 1;
        m->d_cas = cfg->dram_cas, m->d_rcd = cfg->dram_rcd, m->d_rp = cfg->dram_rp;
        m->d_burst = cfg->dram_burst, m->d_turn = cfg->dram_turn;
        m->dram = kept ? kept->dram : cs_calloc(m->d_channels, sizeof *m->dram);
        for (uint32_t c = 0; c < m->d_channels; c++) {
            dram_bank *banks = m->dram[c].bank; /* NULL when new */
            m->dram[c] = (dram_channel){0};
            m->dram[c].bank = zeroed(banks, m->d_banks, sizeof(dram_bank));
        }
    }
    if (cfg->itlb_entries) m->tlb[1] = tlb_emptied(kept ? kept->tlb[1] : NULL, cfg->itlb_entries);
    if (cfg->dtlb_entries) m->tlb[0] = tlb_emptied(kept ? kept->tlb[0] : NULL, cfg->dtlb_entries);
    if (cfg->l2tlb_entries) m->l2tlb = tlb_emptied(kept ? kept->l2tlb : NULL, cfg->l2tlb_entries);
    m->walk[1] = cfg->itlb_miss_latency;
    m->walk[0] = cfg->dtlb_miss_latency;
    m->l2tlb_latency = cfg->l2tlb_latency;
    if (cfg->mem_bandwidth) {
        uint32_t line = 1u << m->data.line_bits;
        m->transfer_cycles = (line + cfg->mem_bandwidth - 1) / cfg->mem_bandwidth;
    }
    if (kept) { /* the notes' buffer (empty: notes are kept from memsys_keep_notes on) */
        m->notes = kept->notes;
        m->notes_cap = kept->notes_cap;
    }
}

memsys_t *memsys_create(const uarch_config *cfg) {
    memsys_t *m = cs_calloc(1, sizeof *m);
    memsys_init(m, cfg, NULL);
    return m;
}

void memsys_reset(memsys_t *m, const uarch_config *cfg) {
    memsys_t kept = *m;
    memset(m, 0, sizeof *m);
    memsys_init(m, cfg, &kept);
}

static void l1_free(l1 *x) {
    cache_destroy(x->cache);
    free(x->stride);
    free(x->lines);
    free(x->in_flight);
}

void memsys_destroy(memsys_t *m) {
    if (!m) return;
    l1_free(&m->inst);
    l1_free(&m->data);
    cache_destroy(m->l2);
    cache_destroy(m->l3);
    free(m->sb.e);
    free(m->lower_mshr[0].ready);
    free(m->lower_mshr[1].ready);
    for (uint32_t c = 0; m->dram && c < m->d_channels; c++) free(m->dram[c].bank);
    free(m->dram);
    cache_destroy(m->tlb[0]);
    cache_destroy(m->tlb[1]);
    cache_destroy(m->l2tlb);
    free(m->notes);
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
    x->lines[b] = (line_state){line + 1, 0, 0, level, false, false};
}

/* ---- program order: which level holds the line ---- */

/* A dirty line leaves a level (0: an L1, 1: the L2, 2: the L3): it is
 * written into the next level below (allocating there, dirty), or to memory. */
static void write_back(memsys_t *m, int from, uint64_t addr) {
    cache_t *below[2] = {m->l2, m->l3};
    for (int k = from; k < 2; k++) {
        if (!below[k]) continue;
        if (m->link[k].transfer && !m->warming) m->link[k].owed++; /* the line crosses the link into level k */
        uint64_t victim;
        uint8_t old;
        cache_access_flags(below[k], addr, CACHE_DIRTY, &old, &victim);
        if (victim != UINT64_MAX) {
            (k == 0 ? &m->l2_stats : &m->l3_stats)->writebacks++;
            write_back(m, k + 1, victim);
        }
        return;
    }
    m->mem_writebacks++;
    if (m->warming) return; /* no timing: nothing is owed to the channel (it would all land on the first fill) */
    m->writebacks_owed++;
    if (m->dram) { /* the DRAM needs the line (its bank and row); the oldest owed one goes when full */
        if (m->wb_count == WB_OWED) memmove(&m->wb_lines[0], &m->wb_lines[1], (WB_OWED - 1) * sizeof m->wb_lines[0]);
        else m->wb_count++;
        m->wb_lines[m->wb_count - 1] = addr >> m->data.line_bits;
    }
}

/* One line read or written in the DRAM, its command reaching the controller at
 * `at`. A row hit issues its column command when the bank takes one (one per
 * burst); another row first waits for the bank's last transfer, then precharges
 * (if a row was open: a conflict) and activates. The data follows t_cas after
 * the column command, on the channel's bus for one burst (a turnaround between
 * reads and writes). Open-page mapping: a row's lines are consecutive, then
 * channels, then banks. The cycle the transfer ends. */
static uint64_t dram_access(memsys_t *m, uint64_t line, bool write, uint64_t at) {
    uint64_t r = line / m->d_row_lines;
    dram_channel *ch = &m->dram[r % m->d_channels];
    dram_bank *b = &ch->bank[(r / m->d_channels) % m->d_banks];
    uint64_t row = r / m->d_channels / m->d_banks + 1;
    uint64_t column;
    int kind = 2; /* row hit */
    if (b->row == row) {
        column = at > b->free ? at : b->free;
    } else {
        kind = b->row ? 4 : 3;
        column = (at > b->done ? at : b->done) + m->d_rcd + (b->row ? m->d_rp : 0);
        b->row = row;
    }
    m->dram_stats[write]++;
    m->dram_stats[kind]++;
    uint64_t bus = column + m->d_cas, free = ch->bus_free + (ch->used && ch->last_write != write ? m->d_turn : 0);
    if (free > bus) bus = free;
    ch->bus_free = bus + m->d_burst;
    ch->last_write = write;
    ch->used = true;
    b->free = column + m->d_burst;
    b->done = bus + m->d_burst;
    return bus + m->d_burst;
}

/* One level below the L1s: look up (and install) addr; a dirty victim is written back. */
static inline bool lower_access(memsys_t *m, int k, uint64_t addr, bool write) {
    cache_t *c = k == 0 ? m->l2 : m->l3;
    if (!m->writebacks) return cache_access(c, addr);
    uint64_t victim;
    uint8_t old;
    bool hit = cache_access_flags(c, addr, write ? CACHE_DIRTY : 0, &old, &victim);
    if (victim != UINT64_MAX) {
        (k == 0 ? &m->l2_stats : &m->l3_stats)->writebacks++;
        write_back(m, k + 1, victim);
    }
    return hit;
}

/* Below the L1: update the L2/L3 tags and say which level served. */
static uint8_t classify_lower(memsys_t *m, uint64_t addr, bool count, bool write) {
    if (m->l2) {
        if (count) m->l2_stats.accesses++;
        if (lower_access(m, 0, addr, write)) return LEVEL_L2;
        if (count) m->l2_stats.misses++;
    }
    if (m->l3) {
        if (count) m->l3_stats.accesses++;
        if (lower_access(m, 1, addr, write)) return LEVEL_L3;
        if (count) m->l3_stats.misses++;
    }
    return LEVEL_MEM;
}

/* The L1's tags, keeping the line flags when write-backs or prefetchers need them
 * (*old: the line's flags before a hit). A dirty victim is written back. */
static inline bool l1_access(memsys_t *m, l1 *x, uint64_t addr, uint8_t set, uint8_t *old) {
    *old = 0;
    if (!x->flags) return cache_access(x->cache, addr);
    uint64_t victim;
    bool hit = cache_access_flags(x->cache, addr, m->writebacks ? set : (uint8_t)(set & ~CACHE_DIRTY), old, &victim);
    if (victim != UINT64_MAX && m->writebacks) {
        x->stats.writebacks++;
        write_back(m, 0, victim);
    }
    return hit;
}

/* Prefetch a line into the L1, in program order: installed now (flagged), its
 * fill issued when the trigger access reaches the memory system. */
static void prefetch(memsys_t *m, l1 *x, uint64_t line, uint64_t trigger) {
    uint64_t addr = line << x->line_bits;
    if (cache_contains(x->cache, addr)) return;
    uint8_t old;
    l1_access(m, x, addr, CACHE_PREFETCHED, &old);
    uint8_t level = classify_lower(m, addr, false, false);
    line_insert(x, line, level);
    x->lines[line_slot(x, line)].prefetch = true;
    if (x->pfq_count == PF_QUEUE) { /* the oldest request is dropped: a demand access will start its fill */
        memmove(&x->pfq[0], &x->pfq[1], (PF_QUEUE - 1) * sizeof x->pfq[0]);
        x->pfq_count--;
    }
    x->pfq[x->pfq_count++] = (pf_request){line, trigger, false};
    x->stats.prefetches++;
    if (m->keep_notes) note(m, &(mem_note){addr, 0, 0, MNOTE_PREFETCH, level, x == &m->inst, true});
}

/* The per-PC stride prefetcher: a stride seen twice in a row from one pc
 * prefetches the next `degree` lines along it. */
static void stride_prefetch(memsys_t *m, l1 *x, uint64_t line, uint64_t pc) {
    stride_entry *e = &x->stride[(pc >> 1) % x->stride_entries];
    if (e->pc != pc) {
        *e = (stride_entry){pc, line, 0, 0};
        return;
    }
    int64_t d = (int64_t)(line - e->last_line);
    if (d == 0) return; /* the same line again */
    if (d == e->stride) {
        if (e->confirmed < 3) e->confirmed++;
    } else {
        e->stride = d;
        e->confirmed = 0;
    }
    e->last_line = line;
    if (!e->confirmed) return;
    for (uint32_t k = 1; k <= x->degree; k++) prefetch(m, x, line + (uint64_t)((int64_t)k * d), line);
}

/* `pending`: the access will reach the memory system (memsys_request), so its
 * miss is remembered until then and it can trigger prefetches. */
static uint8_t l1_classify(memsys_t *m, l1 *x, uint64_t addr, uint64_t pc, mem_access access, bool pending) {
    x->stats.accesses++;
    if (x->perfect) return LEVEL_L1;
    uint8_t old;
    if (access == MEM_WRITE && !x->write_allocate) { /* write-no-allocate: a miss is written to the level below */
        if (cache_contains(x->cache, addr)) return l1_access(m, x, addr, CACHE_DIRTY, &old), LEVEL_L1;
        x->stats.misses++;
        return classify_lower(m, addr, true, true);
    }
    uint64_t line = addr >> x->line_bits;
    uint8_t level = LEVEL_L1;
    bool hit = l1_access(m, x, addr, access != MEM_READ ? CACHE_DIRTY : 0, &old);
    if (hit) {
        if (old & CACHE_PREFETCHED) x->stats.prefetch_useful++;
    } else {
        x->stats.misses++;
        level = classify_lower(m, addr, true, false);
        if (pending) line_insert(x, line, level);
    }
    if (pending) {
        if (x->next_line && (!hit || (old & CACHE_PREFETCHED))) prefetch(m, x, line + 1, line);
        if (x->stride && pc) stride_prefetch(m, x, line, pc);
    }
    return level;
}

uint8_t memsys_classify(memsys_t *m, uint64_t addr, uint64_t pc, bool instruction, mem_access access) {
    /* without a store buffer a store's write-allocate fill is not waited for: no pending line */
    return l1_classify(m, instruction ? &m->inst : &m->data, addr, pc, access, access != MEM_WRITE || m->sb.cap);
}

/* ---- timing: when the data arrives ---- */

static uint32_t level_latency(const memsys_t *m, const l1 *x, uint8_t level) {
    uint32_t lat = x->latency;
    if (level >= LEVEL_L2 && m->l2) lat += m->l2_latency;
    if (level >= LEVEL_L3 && m->l3) lat += m->l3_latency;
    if (level == LEVEL_MEM) lat += m->mem_latency;
    return lat;
}

static uint32_t start_fill(memsys_t *m, l1 *x, line_state *ls, uint64_t line, uint64_t now, bool demand);

/* Does a fill served by `level` miss the L2 (k = 0) or the L3 (k = 1)? */
static inline bool misses_below(const memsys_t *m, int k, uint8_t level) {
    return k ? m->l3 && level >= LEVEL_MEM : level >= LEVEL_L3;
}

/* Can a fill served by `level` start now, as far as the L2's and L3's miss registers go?
 * (Those whose fill has arrived are freed first.) */
static bool lower_mshr_free(memsys_t *m, uint8_t level, uint64_t now) {
    for (int k = 0; k < 2; k++) {
        if (!m->lower_mshr[k].cap || !misses_below(m, k, level)) continue;
        uint32_t live = 0;
        for (uint32_t i = 0; i < m->lower_mshr[k].count; i++)
            if (m->lower_mshr[k].ready[i] > now) m->lower_mshr[k].ready[live++] = m->lower_mshr[k].ready[i];
        m->lower_mshr[k].count = live;
        if (live >= m->lower_mshr[k].cap) return false;
    }
    return true;
}
static void issue_prefetches(memsys_t *m, l1 *x, uint64_t line, uint64_t now);
static bool l1_demand(memsys_t *m, l1 *x, uint64_t line, uint64_t now, mem_result *out);

static bool l1_request(memsys_t *m, l1 *x, uint64_t addr, uint64_t now, mem_result *out) {
    if (x->perfect) {
        *out = (mem_result){x->latency, LEVEL_L1, false, false, 0};
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
    bool ok = l1_demand(m, x, line, now, out);
    /* the prefetches this access triggers go after it (a demand access comes first) */
    if (ok && x->pfq_count) issue_prefetches(m, x, line, now);
    return ok;
}

/* A demand access to `line` (its fills retired up to now): where its data comes from. */
static bool l1_demand(memsys_t *m, l1 *x, uint64_t line, uint64_t now, mem_result *out) {
    uint32_t b = line_slot(x, line);
    line_state *ls = &x->lines[b];
    if (!ls->line) { /* in the cache, nothing pending */
        *out = (mem_result){x->latency, LEVEL_L1, false, false, 0};
        return true;
    }
    if (ls->ready) {
        if (ls->ready <= now) { /* arrived: forget it */
            line_remove(x, b);
            *out = (mem_result){x->latency, LEVEL_L1, false, false, 0};
        } else { /* on its way: wait for the same fill (an MSHR hit) */
            *out = (mem_result){(uint32_t)(ls->ready - now), ls->level, true, ls->pf_fill, ls->lat};
            x->stats.merged++;
            if (ls->prefetch) x->stats.prefetch_late++;
            ls->prefetch = false;
        }
        return true;
    }
    /* the first access to reach the memory system starts the fill */
    if (x->mshr_cap && x->in_flight_count >= x->mshr_cap) return false;
    if (!lower_mshr_free(m, ls->level, now)) return false;
    if (ls->prefetch) { /* a prefetch not issued yet: too late */
        ls->prefetch = false;
        x->stats.prefetch_late++;
    }
    *out = (mem_result){start_fill(m, x, ls, line, now, true), ls->level, false, false, 0};
    return true;
}

/* Start the fill of a line whose miss was decided in program order: queue on
 * the memory channel, take a miss register. Its latency. */
static uint32_t start_fill(memsys_t *m, l1 *x, line_state *ls, uint64_t line, uint64_t now, bool demand) {
    uint32_t lat = level_latency(m, x, ls->level);
    if (ls->level == LEVEL_MEM && m->dram) { /* half of memory.latency to the controller, half back */
        uint64_t at = now + lat - m->mem_latency + m->mem_latency / 2;
        uint64_t done = dram_access(m, line, false, at);
        lat = (uint32_t)(done + (m->mem_latency - m->mem_latency / 2) - now);
        for (uint32_t k = 0; k < m->wb_count; k++) dram_access(m, m->wb_lines[k], true, done); /* after the read */
        m->wb_count = 0;
        m->writebacks_owed = 0;
    } else if (ls->level == LEVEL_MEM && m->transfer_cycles) { /* queue for the channel, then hold it for one line */
        /* the data arrives at the later of the latencies and one transfer after the channel
         * frees (the transfer is the fill's last stretch). As now + lat - transfer, unsigned,
         * this wrapped around when one transfer was longer than the run so far and the
         * latencies (a 4 KB line at 4 bytes a cycle): such fills never held the channel */
        uint64_t ready = now + lat, after = m->channel_free ? m->channel_free + m->transfer_cycles : 0;
        m->channel_free = ready > after ? ready : after;
        lat = (uint32_t)(m->channel_free - now);
        /* the write-backs this fill's misses caused follow it on the channel */
        m->channel_free += m->writebacks_owed * m->transfer_cycles;
        m->writebacks_owed = 0;
    }
    /* then up through the L2-L3 link and the L1s-L2 link: each moves a line in `transfer`
     * cycles, the last stretch before the data reaches the level above; write-backs owed to
     * a link follow the fill on it */
    for (int k = 1; k >= 0; k--) {
        bool crosses = k ? m->l3 && ls->level >= LEVEL_L3 : ls->level >= LEVEL_L2;
        if (!m->link[k].transfer || !crosses) continue;
        uint64_t ready = now + lat, t = m->link[k].transfer;
        uint64_t start = ready > t ? ready - t : 0;
        if (start < m->link[k].free) start = m->link[k].free;
        m->link[k].free = start + t;
        lat = (uint32_t)(m->link[k].free - now);
        m->link[k].free += (uint64_t)m->link[k].owed * t;
        m->link[k].owed = 0;
    }
    /* the L2's (L3's) miss registers: held by a fill it misses too, until the data arrives */
    for (int k = 0; k < 2; k++)
        if (m->lower_mshr[k].cap && misses_below(m, k, ls->level))
            m->lower_mshr[k].ready[m->lower_mshr[k].count++] = now + lat;
    if (!demand) goto timed;
    x->stats.fills++;
    x->stats.fill_cycles += lat - x->latency;
    if (ls->level >= LEVEL_L3 && m->l2) {
        m->l2_stats.fills++;
        m->l2_stats.fill_cycles += lat - x->latency - m->l2_latency;
    }
    if (ls->level >= LEVEL_MEM && m->l3) {
        m->l3_stats.fills++;
        m->l3_stats.fill_cycles += lat - x->latency - m->l2_latency - m->l3_latency;
    }
timed:
    /* grown for prefetch fills too (they jumped here past it: with unlimited miss registers a
     * run of prefetches wrote past the array, random_config.py seed 163) */
    if (x->in_flight_count == x->in_flight_alloc) {
        x->in_flight_alloc *= 2;
        x->in_flight = cs_realloc(x->in_flight, x->in_flight_alloc * sizeof *x->in_flight);
    }
    x->in_flight[x->in_flight_count++] = (struct fill){line, now + lat};
    ls->ready = now + lat;
    ls->lat = lat;
    ls->pf_fill = !demand;
    if (m->keep_notes)
        note(m, &(mem_note){line << x->line_bits, now, now + lat, MNOTE_FILL, ls->level, x == &m->inst, !demand});
    return lat;
}

/* The access to `line` reached the memory system: the prefetches it triggered
 * are armed, and armed prefetches are issued, oldest first, while miss
 * registers are free (the others wait for a later access; a full queue drops
 * its oldest, and a demand access then starts that fill). */
static void issue_prefetches(memsys_t *m, l1 *x, uint64_t line, uint64_t now) {
    uint32_t kept = 0;
    for (uint32_t i = 0; i < x->pfq_count; i++) {
        pf_request r = x->pfq[i];
        if (r.trigger == line) r.armed = true;
        line_state *ls = &x->lines[line_slot(x, r.line)];
        if (!ls->line || ls->ready) continue; /* a demand access got there first, or it left */
        if (!r.armed || (x->mshr_cap && x->in_flight_count >= x->mshr_cap) || !lower_mshr_free(m, ls->level, now)) {
            x->pfq[kept++] = r;
            continue;
        }
        start_fill(m, x, ls, r.line, now, false);
    }
    x->pfq_count = kept;
}

bool memsys_request(memsys_t *m, uint64_t addr, bool instruction, uint64_t now, mem_result *out) {
    return l1_request(m, instruction ? &m->inst : &m->data, addr, now, out);
}

/* Classify and request at once; an access refused for lack of a miss register
 * is not classified again when it retries. */
static bool classify_and_request(memsys_t *m, l1 *x, uint64_t addr, uint64_t pc, mem_access access, uint64_t now,
                                 mem_result *out) {
    uint64_t line = (addr >> x->line_bits) + 1;
    if (x->retry_line != line) l1_classify(m, x, addr, pc, access, true);
    bool ok = l1_request(m, x, addr, now, out);
    x->retry_line = ok ? 0 : line;
    return ok;
}

bool memsys_fetch(memsys_t *m, uint64_t addr, uint64_t now, mem_result *out) {
    return classify_and_request(m, &m->inst, addr, addr, MEM_READ, now, out);
}

bool memsys_load(memsys_t *m, uint64_t addr, uint64_t now, mem_result *out) {
    return classify_and_request(m, &m->data, addr, 0, MEM_READ, now, out);
}

bool memsys_data_access(memsys_t *m, uint64_t addr, uint64_t pc, mem_access access, uint64_t now, mem_result *out) {
    return classify_and_request(m, &m->data, addr, pc, access, now, out);
}

void memsys_store(memsys_t *m, uint64_t addr, uint64_t now) {
    (void)now;
    memsys_classify(m, addr, 0, false, MEM_WRITE);
}

void memsys_warm(memsys_t *m, uint64_t addr, bool instruction, mem_access access) {
    l1 *x = instruction ? &m->inst : &m->data;
    if (x->perfect) return;
    m->warming = true;
    uint8_t old;
    if (access == MEM_WRITE && !x->write_allocate && !cache_contains(x->cache, addr))
        classify_lower(m, addr, false, true);
    else if (!l1_access(m, x, addr, access != MEM_READ ? CACHE_DIRTY : 0, &old)) classify_lower(m, addr, false, false);
    m->warming = false;
}

uint64_t memsys_next_event(const memsys_t *m, uint64_t now) {
    uint64_t next = UINT64_MAX;
    const l1 *xs[2] = {&m->inst, &m->data};
    for (int k = 0; k < 2; k++)
        for (uint32_t i = 0; i < xs[k]->in_flight_count; i++)
            if (xs[k]->in_flight[i].ready > now && xs[k]->in_flight[i].ready < next) next = xs[k]->in_flight[i].ready;
    const sb_entry *oldest = memsys_sb_oldest(m);
    if (oldest && oldest->ready > now && oldest->ready < next) next = oldest->ready;
    return next;
}

void memsys_stats(const memsys_t *m, core_stats *out) {
    out->l1i = m->inst.stats;
    out->l1d = m->data.stats;
    out->l2 = m->l2_stats;
    out->l3 = m->l3_stats;
    out->mem_writebacks = m->mem_writebacks;
    out->dram_reads = m->dram_stats[0];
    out->dram_writes = m->dram_stats[1];
    out->dram_row_hits = m->dram_stats[2];
    out->dram_row_empty = m->dram_stats[3];
    out->dram_row_conflicts = m->dram_stats[4];
    out->itlb = m->tlb_stats[1];
    out->dtlb = m->tlb_stats[0];
    out->l2tlb = m->l2tlb_stats;
}

void memsys_reset_stats(memsys_t *m) {
    memset(&m->inst.stats, 0, sizeof m->inst.stats);
    memset(&m->data.stats, 0, sizeof m->data.stats);
    memset(&m->l2_stats, 0, sizeof m->l2_stats);
    memset(&m->l3_stats, 0, sizeof m->l3_stats);
    m->mem_writebacks = 0;
    memset(m->dram_stats, 0, sizeof m->dram_stats);
    memset(m->tlb_stats, 0, sizeof m->tlb_stats);
    memset(&m->l2tlb_stats, 0, sizeof m->l2tlb_stats);
}

/* ---- address translation ---- */

bool memsys_has_tlb(const memsys_t *m, bool instruction) { return m->tlb[instruction] != NULL; }

bool memsys_translate(memsys_t *m, uint64_t addr, bool instruction, uint32_t *extra) {
    *extra = 0;
    cache_t *tlb = m->tlb[instruction];
    if (!tlb) return true;
    m->tlb_stats[instruction].accesses++;
    if (cache_access(tlb, addr)) return true;
    m->tlb_stats[instruction].misses++;
    *extra = m->walk[instruction];
    m->tlb_level = LEVEL_MEM;
    if (m->l2tlb) {
        m->l2tlb_stats.accesses++;
        *extra = m->l2tlb_latency;
        m->tlb_level = LEVEL_L2;
        if (!cache_access(m->l2tlb, addr)) {
            m->l2tlb_stats.misses++;
            *extra += m->walk[instruction];
            m->tlb_level = LEVEL_MEM;
        }
    }
    return false;
}

uint8_t memsys_tlb_level(const memsys_t *m) { return m->tlb_level; }

void memsys_warm_tlb(memsys_t *m, uint64_t addr, bool instruction) {
    cache_t *tlb = m->tlb[instruction];
    if (tlb && !cache_access(tlb, addr) && m->l2tlb) cache_access(m->l2tlb, addr);
}

/* ---- the store buffer ---- */

uint32_t memsys_sb_size(const memsys_t *m) { return m->sb.cap; }
uint32_t memsys_sb_count(const memsys_t *m) { return m->sb.count; }

static inline sb_entry *sb_at(const memsys_t *m, uint32_t k) {
    uint32_t i = m->sb.head + k;
    return &m->sb.e[i >= m->sb.cap ? i - m->sb.cap : i];
}

const sb_entry *memsys_sb_oldest(const memsys_t *m) { return m->sb.count ? sb_at(m, 0) : NULL; }

bool memsys_sb_push(memsys_t *m, uint64_t addr, uint8_t size, uint64_t seq, uint64_t pc, uint8_t level, uint64_t now) {
    (void)now;
    store_buffer *b = &m->sb;
    if (b->count == b->cap) return false;
    b->count++;
    *sb_at(m, b->count - 1) = (sb_entry){addr, seq, pc, UINT64_MAX, 0, size, level, 0, false, false, 0, 0};
    return true;
}

bool memsys_sb_tick(memsys_t *m, uint64_t now) {
    store_buffer *b = &m->sb;
    l1 *x = &m->data;
    bool changed = false;
    b->written.seq = 0;
    /* read-for-ownership: each store asks for its line, in order, while miss registers are free */
    while (b->requested < b->count) {
        sb_entry *e = sb_at(m, b->requested);
        if (!x->write_allocate && e->level > LEVEL_L1) {
            e->ready = now + (m->l2 ? m->l2_latency : m->mem_latency); /* handed to the level below */
            e->served = m->l2 ? LEVEL_L2 : LEVEL_MEM;
        } else {
            mem_result r;
            if (!l1_request(m, x, e->addr, now, &r)) break;
            e->ready = now + (r.latency > x->latency ? r.latency - x->latency : 0);
            e->served = r.level, e->merged = r.merged;
            e->join_prefetch = r.prefetch_fill, e->join_lat = r.fill_latency;
            e->join_start = r.merged ? now + r.latency - r.fill_latency : 0;
        }
        e->requested_at = now;
        b->requested++;
        changed = true;
    }
    /* the oldest store writes the L1D once its line is there */
    if (b->requested && b->e[b->head].ready <= now) {
        b->written = b->e[b->head];
        b->head = b->head + 1 == b->cap ? 0 : b->head + 1;
        b->count--;
        b->requested--;
        changed = true;
    }
    return changed;
}

const sb_entry *memsys_sb_written(const memsys_t *m) { return m->sb.written.seq ? &m->sb.written : NULL; }

bool memsys_sb_overlaps(const memsys_t *m, uint64_t lo, uint64_t hi) {
    for (uint32_t k = 0; k < m->sb.count; k++) {
        const sb_entry *e = sb_at(m, k);
        if (e->addr < hi && lo < e->addr + (e->size ? e->size : 1)) return true;
    }
    return false;
}

/* ---- notes for the probes ---- */

void memsys_keep_notes(memsys_t *m, bool on) {
    m->keep_notes = on;
    m->n_notes = 0;
}

void memsys_take_notes(memsys_t *m, uint64_t now, bool all, void (*fn)(void *ctx, const mem_note *n), void *ctx) {
    uint32_t kept = 0;
    for (uint32_t i = 0; i < m->n_notes; i++) {
        const mem_note *n = &m->notes[i];
        if (n->kind == MNOTE_FILL && n->ready > now && !all) m->notes[kept++] = *n;
        else fn(ctx, n);
    }
    m->n_notes = kept;
}

uint32_t memsys_mshr_count(const memsys_t *m, bool instruction, uint64_t now) {
    const l1 *x = instruction ? &m->inst : &m->data;
    uint32_t n = 0;
    for (uint32_t i = 0; i < x->in_flight_count; i++) n += x->in_flight[i].ready > now;
    return n;
}

uint32_t memsys_mshr_size(const memsys_t *m, bool instruction) {
    return instruction ? m->inst.mshr_cap : m->data.mshr_cap;
}

uint32_t memsys_lower_mshr_count(const memsys_t *m, int lower, uint64_t now) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->lower_mshr[lower].count; i++) n += m->lower_mshr[lower].ready[i] > now;
    return n;
}

uint32_t memsys_lower_mshr_size(const memsys_t *m, int lower) { return m->lower_mshr[lower].cap; }
