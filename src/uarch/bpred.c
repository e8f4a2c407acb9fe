/* Branch prediction: direction predictors (none, static BTFN, bimodal, gshare,
 * a TAGE-class predictor, perfect), a BTB for indirect targets and a return
 * address stack.
 *
 * Notes:
 *  - Trace-driven: each control transfer is predicted at fetch and the
 *    predictor is trained with its outcome at once (no delayed update, no
 *    wrong-path pollution of the history).
 *  - Direct jumps and calls are always predicted right: their target is in
 *    the instruction. Conditional branches need the direction only (the
 *    target of a taken direct branch is computed at fetch).
 *  - Indirect jumps and calls use the BTB (last target); returns use the RAS,
 *    or the BTB when there is no RAS.
 */
#include <stdlib.h>
#include <string.h>

#include "bpred.h"

enum { TAGE_TABLES = 4 };

typedef struct tage_entry {
    uint16_t tag;
    int8_t ctr;     /* 3-bit signed counter, taken when >= 0 */
    uint8_t useful; /* 2 bits */
} tage_entry;

/* The last `length` outcomes xor-folded into `width` bits (outcome i branches ago at bit
 * i % width), kept up to date one outcome at a time as Seznec's TAGE keeps its compressed
 * histories: folding the whole history again for every branch cost more than the rest of
 * the core model on branchy code. */
typedef struct folded_history {
    uint32_t value;
    uint32_t length, width;
} folded_history;

typedef struct tage_table {
    tage_entry *e;
    uint32_t bits;    /* log2 entries */
    uint32_t history; /* global history length this table uses */
    folded_history index_fold, tag_fold, tag_fold2;
} tage_table;

struct bpred {
    bpred_kind kind;
    bool perfect;
    uint8_t *counters; /* 2-bit counters: bimodal, gshare, TAGE base */
    uint32_t table_bits;
    uint32_t history_bits;
    uint64_t history;    /* gshare global history */
    uint8_t ghist[1024]; /* TAGE global history, bit i = outcome i branches ago (circular) */
    uint32_t ghist_pos;
    tage_table tage[TAGE_TABLES];
    uint32_t tage_tick;
    int8_t use_alt_on_new; /* 4-bit signed: a weak, newly allocated provider defers to alt */
    uint64_t *btb_pc, *btb_target;
    uint32_t btb_mask;
    uint64_t *ras;
    uint32_t ras_size, ras_top, ras_count;
};

/* A table for bpred_init: on a reset the one kept, else a new one (cleared either way). */
static void *zeroed(void *kept, size_t n, size_t size) {
    if (!kept) return cs_calloc(n, size);
    memset(kept, 0, n * size);
    return kept;
}

/* The predictor as bpred_create makes it; `kept` (a reset): the struct as a run left it, whose
 * tables are reused (one configuration: the same sizes). */
static void bpred_init(bpred_t *b, const uarch_config *cfg, const bpred_t *kept) {
    b->kind = cfg->bpred;
    b->perfect = cfg->perfect_bpred || cfg->bpred == BPRED_PERFECT;
    b->table_bits = cfg->bpred_table_bits;
    b->history_bits = cfg->bpred_history;
    b->counters = kept ? kept->counters : cs_malloc(1u << b->table_bits);
    memset(b->counters, 1, 1u << b->table_bits); /* weakly not taken */
    if (b->kind == BPRED_TAGE) {
        /* geometric history lengths up to bpred.history (Seznec's TAGE, 4 tagged tables) */
        uint32_t longest = cfg->bpred_history ? cfg->bpred_history : 64;
        if (longest > 1000) longest = 1000;
        uint32_t lengths[TAGE_TABLES] = {4, 12, 32, longest};
        for (int t = 0; t < TAGE_TABLES; t++) {
            tage_table *tt = &b->tage[t];
            tt->bits = b->table_bits > 2 ? b->table_bits - 2 : 1;
            tt->history = lengths[t] < longest ? lengths[t] : longest;
            tt->index_fold = (folded_history){0, tt->history, tt->bits};
            tt->tag_fold = (folded_history){0, tt->history, 8};
            tt->tag_fold2 = (folded_history){0, tt->history, 7};
            tt->e = zeroed(kept ? kept->tage[t].e : NULL, 1u << tt->bits, sizeof(tage_entry));
        }
    }
    if (cfg->btb_entries) {
        uint32_t n = 1;
        while (n < cfg->btb_entries) n <<= 1;
        b->btb_pc = zeroed(kept ? kept->btb_pc : NULL, n, sizeof *b->btb_pc);
        b->btb_target = zeroed(kept ? kept->btb_target : NULL, n, sizeof *b->btb_target);
        b->btb_mask = n - 1;
    }
    b->ras_size = cfg->ras_entries;
    if (b->ras_size) b->ras = zeroed(kept ? kept->ras : NULL, b->ras_size, sizeof *b->ras);
}

bpred_t *bpred_create(const uarch_config *cfg) {
    bpred_t *b = cs_calloc(1, sizeof *b);
    bpred_init(b, cfg, NULL);
    return b;
}

void bpred_reset(bpred_t *b, const uarch_config *cfg) {
    bpred_t kept = *b;
    memset(b, 0, sizeof *b);
    bpred_init(b, cfg, &kept);
}

void bpred_destroy(bpred_t *b) {
    if (!b) return;
    free(b->counters);
    for (int t = 0; t < TAGE_TABLES; t++) free(b->tage[t].e);
    free(b->btb_pc);
    free(b->btb_target);
    free(b->ras);
    free(b);
}

static bool counter_taken(uint8_t c) { return c >= 2; }
static void counter_train(uint8_t *c, bool taken) {
    if (taken && *c < 3) (*c)++;
    if (!taken && *c > 0) (*c)--;
}

/* ---- TAGE ---- */

/* A new outcome enters the fold: every bit moves up one place (the top one wrapping to bit
 * 0), the new outcome goes in at bit 0 and the one leaving the window, `length` outcomes ago
 * after the insertion, comes out from where it sat, bit length % width. */
static void fold_push(folded_history *f, uint32_t in, uint32_t out) {
    uint32_t mask = (1u << f->width) - 1;
    uint32_t v = f->value << 1;
    v |= (v >> f->width) & 1;
    v ^= in ^ (out << (f->length % f->width));
    f->value = v & mask;
}

static void tage_push_outcome(bpred_t *b, bool taken) {
    for (int t = 0; t < TAGE_TABLES; t++) {
        tage_table *tt = &b->tage[t];
        /* the outcome `history` branches before the new one: it leaves this table's window */
        uint32_t out = b->ghist[(b->ghist_pos - tt->history) & 1023];
        fold_push(&tt->index_fold, taken, out);
        fold_push(&tt->tag_fold, taken, out);
        fold_push(&tt->tag_fold2, taken, out);
    }
    b->ghist[b->ghist_pos++ & 1023] = taken;
}

static uint32_t tage_index(const bpred_t *b, int t, uint64_t pc) {
    const tage_table *tt = &b->tage[t];
    return ((uint32_t)(pc >> 1) ^ (uint32_t)(pc >> (tt->bits + 1)) ^ tt->index_fold.value) & ((1u << tt->bits) - 1);
}

static uint16_t tage_tag(const bpred_t *b, int t, uint64_t pc) {
    /* two foldings of different widths, as Seznec's tags: two histories that fold alike
     * in one width rarely fold alike in both */
    const tage_table *tt = &b->tage[t];
    return (uint16_t)(((pc >> 1) ^ tt->tag_fold.value ^ (tt->tag_fold2.value << 1)) & 0xff) | 0x100;
}

static bool tage_predict_train(bpred_t *b, uint64_t pc, bool taken) {
    uint32_t base = (uint32_t)(pc >> 1) & ((1u << b->table_bits) - 1);
    uint32_t idx[TAGE_TABLES];
    uint16_t tag[TAGE_TABLES];
    int provider = -1, alt = -1;
    for (int t = 0; t < TAGE_TABLES; t++) {
        idx[t] = tage_index(b, t, pc);
        tag[t] = tage_tag(b, t, pc);
    }
    for (int t = TAGE_TABLES - 1; t >= 0; t--) {
        if (b->tage[t].e[idx[t]].tag != tag[t]) continue;
        if (provider < 0) provider = t;
        else if (alt < 0) alt = t;
    }
    bool base_pred = counter_taken(b->counters[base]);
    bool alt_pred = alt >= 0 ? b->tage[alt].e[idx[alt]].ctr >= 0 : base_pred;
    bool provider_pred = provider >= 0 ? b->tage[provider].e[idx[provider]].ctr >= 0 : base_pred;
    /* Seznec's USE_ALT_ON_NA: a provider whose counter is weak and which has not yet proved
     * useful was most likely allocated just now; whether to trust it or the alternate is
     * learnt by one counter over all such cases */
    bool newly = false;
    if (provider >= 0) {
        const tage_entry *pe = &b->tage[provider].e[idx[provider]];
        newly = (pe->ctr == 0 || pe->ctr == -1) && pe->useful == 0;
    }
    bool pred = newly && b->use_alt_on_new >= 0 ? alt_pred : provider_pred;
    if (newly && provider_pred != alt_pred) {
        if (alt_pred == taken && b->use_alt_on_new < 7) b->use_alt_on_new++;
        if (alt_pred != taken && b->use_alt_on_new > -8) b->use_alt_on_new--;
    }

    /* train the provider (or the base), its usefulness, and allocate on a misprediction */
    if (provider >= 0) {
        tage_entry *e = &b->tage[provider].e[idx[provider]];
        if (taken && e->ctr < 3) e->ctr++;
        if (!taken && e->ctr > -4) e->ctr--;
        if (provider_pred != alt_pred) {
            if (provider_pred == taken && e->useful < 3) e->useful++;
            if (provider_pred != taken && e->useful > 0) e->useful--;
        }
    } else {
        counter_train(&b->counters[base], taken);
    }
    if (provider_pred != taken) { /* the longest match was wrong: try a longer history */
        for (int t = provider + 1; t < TAGE_TABLES; t++) {
            tage_entry *e = &b->tage[t].e[idx[t]];
            if (e->useful == 0) {
                *e = (tage_entry){tag[t], taken ? 0 : -1, 0};
                break;
            }
            e->useful--; /* age the entries that refused us */
        }
    }
    if (++b->tage_tick % (1u << 18) == 0) /* periodic reset of usefulness */
        for (int t = 0; t < TAGE_TABLES; t++)
            for (uint32_t i = 0; i < (1u << b->tage[t].bits); i++) b->tage[t].e[i].useful >>= 1;
    tage_push_outcome(b, taken);
    return pred == taken;
}

/* ---- direction ---- */

/* Does a conditional branch jump backward? A taken one's next_pc is its
 * target. A not-taken one's next_pc is the fall-through, so the direction
 * comes from the sign of the encoded offset (B-type: bit 31; c.beqz/c.bnez:
 * bit 12); without an encoding (imported traces) it counts as forward. */
static bool branch_backward(const uop *u) {
    if (u->flags & UOP_TAKEN) return u->next_pc < u->pc;
    if (!u->encoding) return false;
    return isa_length((uint16_t)u->encoding) == 2 ? (u->encoding >> 12) & 1 : (u->encoding >> 31) & 1;
}

static bool predict_direction(bpred_t *b, const uop *u) {
    bool taken = (u->flags & UOP_TAKEN) != 0;
    uint32_t mask = (1u << b->table_bits) - 1;
    switch (b->kind) {
    case BPRED_NONE: return !taken;
    case BPRED_STATIC: return taken == branch_backward(u); /* backward taken, forward not */
    case BPRED_BIMODAL: {
        uint8_t *c = &b->counters[(u->pc >> 1) & mask];
        bool right = counter_taken(*c) == taken;
        counter_train(c, taken);
        return right;
    }
    case BPRED_GSHARE: {
        uint64_t hmask = b->history_bits >= 64 ? ~0ull : (1ull << b->history_bits) - 1;
        uint8_t *c = &b->counters[((u->pc >> 1) ^ (b->history & hmask)) & mask];
        bool right = counter_taken(*c) == taken;
        counter_train(c, taken);
        b->history = (b->history << 1) | taken;
        return right;
    }
    case BPRED_TAGE: return tage_predict_train(b, u->pc, taken);
    case BPRED_PERFECT: return true;
    }
    return true;
}

/* ---- targets ---- */

static bool btb_predict(bpred_t *b, uint64_t pc, uint64_t target) {
    if (!b->btb_pc) return false;
    uint32_t i = (uint32_t)(pc >> 1) & b->btb_mask;
    bool right = b->btb_pc[i] == pc && b->btb_target[i] == target;
    b->btb_pc[i] = pc;
    b->btb_target[i] = target;
    return right;
}

static void ras_push(bpred_t *b, uint64_t ret) {
    if (!b->ras_size) return;
    b->ras[b->ras_top] = ret;
    b->ras_top = (b->ras_top + 1) % b->ras_size;
    if (b->ras_count < b->ras_size) b->ras_count++;
}

static bool ras_pop(bpred_t *b, uint64_t target) {
    if (!b->ras_count) return false;
    b->ras_top = (b->ras_top + b->ras_size - 1) % b->ras_size;
    b->ras_count--;
    return b->ras[b->ras_top] == target;
}

static uint64_t fallthrough(const uop *u) {
    return u->pc + (u->encoding && isa_length((uint16_t)u->encoding) == 2 ? 2 : 4);
}

bool bpred_predict(bpred_t *b, const uop *u) {
    bool right = true;
    switch (u->op_class) {
    case OPC_BRANCH: right = predict_direction(b, u); break;
    case OPC_JUMP: break;
    case OPC_CALL:
        ras_push(b, fallthrough(u));
        if (u->src[0]) right = btb_predict(b, u->pc, u->next_pc); /* jalr: an indirect call */
        break;
    case OPC_JUMP_INDIRECT: right = btb_predict(b, u->pc, u->next_pc); break;
    case OPC_RETURN: {
        bool by_btb = btb_predict(b, u->pc, u->next_pc);
        right = b->ras_size ? ras_pop(b, u->next_pc) : by_btb;
        break;
    }
    default: return true;
    }
    if (b->kind == BPRED_NONE) /* no predictor at all: every taken transfer redirects fetch */
        right = !(u->flags & UOP_TAKEN);
    return b->perfect || right;
}
