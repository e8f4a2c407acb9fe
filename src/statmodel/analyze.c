/* Trace analysis, once per trace (thesis §3.2, Ch. 5, 6, 7.3).
 *
 * For every µop: its type (§3.2: integer, FP, memory, branch; the classes of
 * configs/inorder3.ini's pipes), its dependent instruction distances per
 * dependence class (RAW on a source and WAW on the destination, since the
 * machines do not rename, §3.5), and for the one-pipe graph the distance to
 * the nearest producer of any type. Branches are looked up in the same
 * predictors the simulator uses (uarch/bpred.h, trained in program order at
 * fetch, as the in-order model does), so mispredictions per instruction number
 * are exact. Stack distances (Appendix B's "distinct blocks since the last
 * reference") are measured with a Fenwick tree over reference times, for the
 * I-side once per line run (the in-order fetch looks a line up once while it
 * fetches from it) and for every load and store on the D-side. */
#include <stdlib.h>
#include <string.h>

#include "graph_internal.h"
#include "model_internal.h"
#include "uarch/bpred.h"

/* ---- stack distances ---- */

typedef struct stackdist {
    sm_chain *map;  /* block -> index */
    uint64_t *last; /* per block: time of its last reference + 1 (0: none) */
    uint32_t nblocks, cap_blocks;
    uint32_t *tree; /* Fenwick tree over times 1..size */
    uint64_t size, now;
} stackdist;

static void sd_init(stackdist *s) {
    memset(s, 0, sizeof *s);
    s->map = sm_chain_create(sizeof(uint64_t));
    s->size = 1u << 20;
    s->tree = cs_calloc(s->size + 1, sizeof *s->tree);
}

static void sd_free(stackdist *s) {
    sm_chain_free(s->map);
    free(s->last);
    free(s->tree);
}

static void fen_add(stackdist *s, uint64_t i, int v) {
    for (; i <= s->size; i += i & (~i + 1)) s->tree[i] = (uint32_t)((int64_t)s->tree[i] + v);
}

static uint64_t fen_sum(const stackdist *s, uint64_t i) {
    uint64_t r = 0;
    for (; i > 0; i -= i & (~i + 1)) r += s->tree[i];
    return r;
}

typedef struct timed {
    uint64_t time;
    uint32_t id;
} timed;

static int cmp_time(const void *a, const void *b) {
    uint64_t x = ((const timed *)a)->time, y = ((const timed *)b)->time;
    return x < y ? -1 : x > y;
}

/* Renumber the live references 1..nblocks in time order when the tree is full. */
static void sd_compact(stackdist *s) {
    timed *order = cs_malloc(cs_array_size(s->nblocks ? s->nblocks : 1, sizeof *order));
    for (uint32_t i = 0; i < s->nblocks; i++) order[i] = (timed){s->last[i], i};
    qsort(order, s->nblocks, sizeof *order, cmp_time);
    uint64_t need = (uint64_t)s->nblocks * 2 + (1u << 20);
    if (need > s->size) s->size = need;
    free(s->tree);
    s->tree = cs_calloc(s->size + 1, sizeof *s->tree);
    for (uint32_t i = 0; i < s->nblocks; i++) {
        s->last[order[i].id] = i + 1;
        fen_add(s, i + 1, 1);
    }
    s->now = s->nblocks;
    free(order);
}

/* The stack-distance bin of a reference to `block`. */
static int sd_ref(stackdist *s, uint64_t block) {
    if (s->now + 1 > s->size) sd_compact(s);
    uint32_t n = sm_chain_count(s->map);
    uint32_t id = sm_chain_state(s->map, &block);
    int bin = SM_SD_BINS - 1; /* first reference: a miss in every cache */
    if (id == n) {
        SM_GROW(s->last, s->cap_blocks, (size_t)id + 1, 4096);
        s->last[id] = 0;
        s->nblocks = id + 1;
    } else {
        uint64_t t = s->last[id];
        uint64_t dist = fen_sum(s, s->now) - fen_sum(s, t); /* distinct blocks since */
        if (dist < (1u << SM_SD_FIRST_LOG2)) {
            bin = 0;
        } else {
            int lg = 63 - __builtin_clzll(dist);
            bin = lg - SM_SD_FIRST_LOG2 + 1;
            if (bin > SM_SD_BINS - 1) bin = SM_SD_BINS - 1;
        }
        fen_add(s, t, -1);
    }
    s->now++;
    s->last[id] = s->now;
    fen_add(s, s->now, 1);
    return bin;
}

/* ---- types ---- */

int sm_type_of_class(unsigned cls) {
    switch (cls) {
    case OPC_LOAD:
    case OPC_STORE:
    case OPC_ATOMIC: return SM_MEM;
    case OPC_FP_ADD:
    case OPC_FP_MUL:
    case OPC_FP_FMA:
    case OPC_FP_DIV:
    case OPC_FP_SQRT:
    case OPC_FP_MISC: return SM_FP;
    case OPC_BRANCH:
    case OPC_JUMP:
    case OPC_JUMP_INDIRECT:
    case OPC_CALL:
    case OPC_RETURN: return SM_BR;
    default: return SM_INT;
    }
}

typedef struct writer {
    bool valid;
    uint8_t cls;
    uint8_t vp[SM_VP_SIZES]; /* its own result's value prediction, per table size */
    uint64_t typeidx, idx;
} writer;

const uint32_t sm_vp_sizes[SM_VP_SIZES] = {128, 256, 512}; /* §8.3 */

/* How long a reader waits, by the flag of its source: a correctly predicted
 * value the cycle after its writer issued, an unpredicted one for the result,
 * a mispredicted one a cycle more (§8.1). Equal distances are the same writer
 * (read and written, or two sources): the longer wait decides. */
static int vp_severity(uint8_t v) { return v == SM_VP_RIGHT ? 0 : v == SM_VP_NONE ? 1 : 2; }

/* inorder.c's value prediction (§8.1): VPT and CT indexed by pc/2, trained in
 * program order with the result. */
typedef struct vp_tables {
    uint32_t size;
    uint32_t *vpt;
    uint8_t *ct;
} vp_tables;

static uint8_t vp_predict_train(vp_tables *t, const uop *u) {
    uint32_t *v = &t->vpt[(u->pc >> 1) % t->size];
    uint8_t *c = &t->ct[(u->pc >> 1) % t->size];
    bool predicted = *c >= 2, right = *v == u->value;
    if (right) {
        if (*c < 3) (*c)++;
    } else {
        if (*c < 3) *v = u->value; /* "only if the CT counter is at 0, 1, or 2" */
        if (*c > 0) (*c)--;
    }
    return !predicted ? SM_VP_NONE : right ? SM_VP_RIGHT : SM_VP_WRONG;
}

sm_profile *sm_analyze(uop_source *src, const sm_analyze_options *opt, cs_error *err) {
    uint32_t window = opt && opt->window ? opt->window : 2;
    if (window < 2 || window > 8) {
        cs_error_set(err, "flow-graph window %u: 2 to 8 instructions", window);
        return NULL;
    }
    uint32_t addr_bits = opt ? opt->addr_bits : 0;
    if (addr_bits > SM_ADDR_BITS_MAX) {
        cs_error_set(err, "%u address bits: 0 to %d", addr_bits, SM_ADDR_BITS_MAX);
        return NULL;
    }
    sm_profile *p = cs_calloc(1, sizeof *p);
    if (opt && opt->source) {
        if (strlen(opt->source) >= sizeof p->source) {
            cs_error_set(err, "the program and its arguments are longer than %zu bytes", sizeof p->source - 1);
            free(p);
            return NULL;
        }
        snprintf(p->source, sizeof p->source, "%s", opt->source);
        p->source_kind = opt->source_kind;
    }
    p->line = 16; /* §7.1: 16-byte blocks */
    p->addr_bits = addr_bits;
    p->btb_entries = 512; /* configs/inorder3.ini */
    p->ras_entries = 8;
    sm_builder one, three, vpb[SM_VP_SIZES];
    sm_builder_init(&one, 2, 0);
    sm_builder_init(&three, window, 0);
    vp_tables vpt[SM_VP_SIZES];
    for (int k = 0; k < SM_VP_SIZES; k++) {
        sm_builder_init(&vpb[k], window, 0);
        vpt[k].size = sm_vp_sizes[k];
        vpt[k].vpt = cs_calloc(vpt[k].size, sizeof *vpt[k].vpt);
        vpt[k].ct = cs_calloc(vpt[k].size, sizeof *vpt[k].ct);
    }
    bool values = true; /* every result carried (UOP_HAS_VALUE) */
    bpred_t *bp[SM_PREDS];
    for (int k = 0; k < SM_PREDS; k++) {
        uarch_config cfg;
        uarch_config_default(&cfg);
        cfg.bpred = k == SM_PRED_STATIC ? BPRED_STATIC : BPRED_BIMODAL;
        cfg.bpred_table_bits = (uint32_t)(k == SM_PRED_STATIC ? 9 : SM_BIMODAL_MIN_BITS + k - 1);
        cfg.bpred_history = 0;
        cfg.btb_entries = p->btb_entries;
        cfg.ras_entries = p->ras_entries;
        bp[k] = bpred_create(&cfg);
    }
    stackdist isd, dsd;
    sd_init(&isd);
    sd_init(&dsd);
    writer *reg = cs_calloc(UOP_REG_COUNT, sizeof *reg);
    uint64_t cnt[SM_PIPES] = {0, 0, 0}, n = 0;
    uint64_t last_line = UINT64_MAX;
    uop buf[4096];
    bool ok = true;
    uint64_t max = opt ? opt->max : 0, insns = 0;
    cs_progress bar;
    const char *label = opt ? opt->progress_label : NULL;
    if (label) progress_start(&bar, label, max ? max : opt->expected);
    for (;;) {
        /* at most one instruction starts per µop, so `want` never passes --max;
         * at the limit, one µop at a time finishes the last instruction */
        size_t want = sizeof buf / sizeof buf[0];
        if (max && max - insns < want) want = max - insns ? (size_t)(max - insns) : 1;
        long got = uop_source_read(src, buf, want, err);
        if (got < 0) {
            ok = false;
            break;
        }
        if (got == 0) break;
        if (max && insns == max && !(buf[0].flags & UOP_CONTINUES)) break;
        /* Ctrl-C: stop at an instruction's first µop, so the profile holds whole instructions */
        if (cs_stop_requested() && !(buf[0].flags & UOP_CONTINUES)) {
            p->partial = true;
            break;
        }
        if (label) progress_update(&bar, insns);
        for (long u = 0; u < got; u++) {
            const uop *x = &buf[u];
            int y = sm_type_of_class(x->op_class);
            int cl = y == SM_BR ? SM_INT : y;
            uint8_t s3[SM_PIPES] = {SM_SMAX_INT, SM_SMAX, SM_SMAX};
            uint8_t s1[SM_PIPES] = {SM_SMAX, 0, 0}, zero[SM_PIPES] = {0, 0, 0};
            uint8_t v3[SM_VP_SIZES][SM_PIPES];
            memset(v3, SM_VP_NONE, sizeof v3);
            uint8_t regs[4] = {x->src[0], x->src[1], x->src[2], x->dst};
            for (int r = 0; r < 4; r++) {
                const writer *w = &reg[regs[r]];
                if (!regs[r] || !w->valid) continue;
                uint64_t d3 = cnt[w->cls] - 1 - w->typeidx;
                uint8_t cap = w->cls == SM_INT ? SM_SMAX_INT : SM_SMAX;
                if (d3 < cap && d3 <= s3[w->cls]) {
                    for (int k = 0; k < SM_VP_SIZES; k++) {
                        uint8_t f = r < 3 ? w->vp[k] : SM_VP_NONE; /* WAW waits for the result */
                        if (d3 < s3[w->cls] || vp_severity(f) > vp_severity(v3[k][w->cls])) v3[k][w->cls] = f;
                    }
                }
                if (d3 < s3[w->cls]) s3[w->cls] = (uint8_t)(d3 < cap ? d3 : cap);
                uint64_t d1 = n - 1 - w->idx;
                if (d1 < s1[0]) s1[0] = (uint8_t)d1;
            }
            uint8_t own[SM_VP_SIZES] = {SM_VP_NONE, SM_VP_NONE, SM_VP_NONE};
            if (x->dst) {
                if (!(x->flags & UOP_HAS_VALUE)) values = false;
                for (int k = 0; k < SM_VP_SIZES && values; k++) own[k] = vp_predict_train(&vpt[k], x);
            }
            bool control = uop_is_control(x);
            /* §5.5: the low-order bits of the static address, counted in 2-byte
             * granules (rv64gc); the one-pipe chain is exact without them */
            uint16_t addr = (uint16_t)((x->pc >> 1) & ((1u << addr_bits) - 1));
            uint32_t id1 = sm_builder_instr(&one, control ? 1 : 0, s1, zero, 0);
            uint32_t id3 = sm_builder_instr(&three, (uint8_t)y, s3, zero, addr);
            sm_instr *a = &one.instr[id1], *b = &three.instr[id3];
            sm_instr *vi[SM_VP_SIZES] = {NULL, NULL, NULL};
            if (values)
                for (int k = 0; k < SM_VP_SIZES; k++) {
                    uint32_t idv = sm_builder_instr(&vpb[k], (uint8_t)y, s3, v3[k], addr);
                    vi[k] = &vpb[k].instr[idv];
                    vi[k]->count++;
                    sm_builder_push(&vpb[k], idv);
                }
            a->count++;
            b->count++;
            p->type_count[y]++;
            p->dist_hist[s1[0]]++;
            if (control) {
                p->branches++;
                for (int k = 0; k < SM_PREDS; k++) {
                    bool right = bpred_predict(bp[k], x);
                    if (!right) {
                        a->mispred[k]++, b->mispred[k]++, p->mispred[k]++;
                        for (int v = 0; v < SM_VP_SIZES; v++)
                            if (vi[v]) vi[v]->mispred[k]++;
                    }
                }
            }
            uint64_t line = x->pc / p->line;
            if (line != last_line) {
                int bin = sd_ref(&isd, line);
                a->ilookups++, b->ilookups++, p->ilookups++;
                a->ihist[bin]++, b->ihist[bin]++, p->ihist[bin]++;
                for (int v = 0; v < SM_VP_SIZES; v++)
                    if (vi[v]) vi[v]->ilookups++, vi[v]->ihist[bin]++;
                last_line = line;
            }
            if (x->flags & (UOP_MEM_READ | UOP_MEM_WRITE)) {
                int bin = sd_ref(&dsd, x->mem_addr / p->line);
                a->dhist[bin]++, b->dhist[bin]++, p->dhist[bin]++;
                for (int v = 0; v < SM_VP_SIZES; v++)
                    if (vi[v]) vi[v]->dhist[bin]++;
                p->dacc++;
            }
            sm_builder_push(&one, id1);
            sm_builder_push(&three, id3);
            if (x->dst) reg[x->dst] = (writer){true, (uint8_t)cl, {own[0], own[1], own[2]}, cnt[cl], n};
            cnt[cl]++;
            n++;
            if (!(x->flags & UOP_CONTINUES)) insns++;
        }
    }
    if (label) progress_finish(&bar);
    p->instructions = n;
    p->source_instructions = insns;
    if (ok && !(sm_builder_finish(&one, &p->one, err) && sm_builder_finish(&three, &p->three, err))) {
        cs_error_prefix(err, "%s", opt->source && *opt->source ? opt->source : "the stream"); /* which input */
        ok = false;
    }
    for (int k = 0; k < SM_VP_SIZES; k++) {
        if (ok && values) ok = sm_builder_finish(&vpb[k], &p->vp[k], err);
        sm_builder_free(&vpb[k]);
        free(vpt[k].vpt);
        free(vpt[k].ct);
    }
    sm_builder_free(&one);
    sm_builder_free(&three);
    for (int k = 0; k < SM_PREDS; k++) bpred_destroy(bp[k]);
    sd_free(&isd);
    sd_free(&dsd);
    free(reg);
    if (!ok) {
        sm_profile_free(p);
        return NULL;
    }
    return p;
}

void sm_profile_free(sm_profile *p) {
    if (!p) return;
    sm_graph_free(&p->one);
    sm_graph_free(&p->three);
    for (int k = 0; k < SM_VP_SIZES; k++) sm_graph_free(&p->vp[k]);
    free(p);
}
