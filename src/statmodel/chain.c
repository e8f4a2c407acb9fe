/* A sparse Markov chain over opaque state keys, and its stationary
 * distribution by Gauss-Seidel (thesis §3.1; Stewart, "Introduction to the
 * Numerical Solution of Markov Chains").
 *
 * Convergence test: a sweep updates every d_j = sum_{i!=j} d_i P_ij / (1 - P_jj)
 * in place (sweeps alternate between forward and backward order: symmetric
 * Gauss-Seidel), then normalises. Every 8 sweeps an aggregation step (see
 * aggregate()) balances the blocks (the caller's, or from sweep 128 on the
 * chain's nearly closed parts), then the residual |d P - d|_1 is computed (also
 * whenever no d_j moved by more than 1e-12) and the solve stops when it is below
 * the tolerance (SM_RESIDUAL, 1e-11, unless the caller asks for less). Testing
 * right after an aggregation step matters: a nearly uncoupled chain can have a
 * small residual and still a wrong split between its parts. A chain that has
 * not converged after 20000 sweeps is an error, never a number. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

/* Sweeps after which a chain Gauss-Seidel still reduces slowly is solved
 * exactly (GTH) instead: well past the 128 sweeps after which its nearly
 * closed parts are tried as blocks. */
#define SM_EXACT_AFTER 1024

typedef struct gth_plan gth_plan;
static void gth_plan_free(gth_plan *pl);

typedef struct sm_edge {
    uint32_t to;
    uint8_t label;
    double p;
} sm_edge;

typedef struct sm_out {
    size_t start; /* the state's transitions: edge[start .. start + n) */
    uint32_t n;
} sm_out;

struct sm_chain {
    size_t key_size;
    uint8_t *keys; /* count * key_size */
    uint32_t count, cap;
    uint64_t *hash; /* open addressing: index + 1 (0 empty), the key's hash's top 32 bits above */
    uint32_t hash_cap;
    uint32_t *dense; /* sm_chain_set_dense: index + 1 (0 absent) by the key's place in its space */
    uint32_t dense_nodes;
    uint8_t dense_radix[4];
    sm_out *out;
    /* every state's transitions in one pool, each state's together: the
     * builders add a state's transitions in a row, so they grow at the end
     * (sm_chain_add moves a state's there when they do not) */
    sm_edge *edge;
    size_t nedge, edge_cap;
    uint32_t edge_tail; /* the state whose transitions end the pool, + 1 */
    double *dist;
    double *guess;   /* the starting distribution of the next solve (sm_chain_guess) */
    gth_plan *plan;  /* the last solve's plan between blocks, for the next round's chain */
    uint32_t last;   /* index + 1 of the last state asked for: builders ask for the same one in a row */
    uint32_t *block; /* aggregation blocks (sm_chain_set_blocks), or NULL */
    uint32_t nblocks;
    bool blocks_tried;
    /* sm_chain_add's index of one state's transitions by (to, label): a
     * slot is in use when its stamp is the current one */
    uint32_t *add_edge, *add_stamp;
    uint32_t add_cap, add_src, add_now; /* add_src: the state indexed + 1 (0: none) */
    /* scratch for sm_chain_out */
    uint32_t *tmp_to;
    double *tmp_p;
    uint8_t *tmp_label;
    uint32_t tmp_cap;
};

static uint64_t key_hash(const uint8_t *k, size_t n) {
    if (n == 8) { /* the three-pipe components' keys */
        uint64_t v;
        memcpy(&v, k, 8);
        v ^= v >> 33;
        v *= 0xff51afd7ed558ccdull;
        v ^= v >> 33;
        v *= 0xc4ceb9fe1a85ec53ull;
        return v ^ (v >> 33);
    }
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ k[i]) * 1099511628211ull;
    return h ^ (h >> 29);
}

static inline bool key_eq(const sm_chain *c, const uint8_t *a, const void *b) {
    if (c->key_size == 8) {
        uint64_t x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        return x == y;
    }
    return !memcmp(a, b, c->key_size);
}

sm_chain *sm_chain_create(size_t key_size) {
    sm_chain *c = cs_calloc(1, sizeof *c);
    c->key_size = key_size;
    c->hash_cap = 1024;
    c->hash = cs_calloc(c->hash_cap, sizeof *c->hash);
    return c;
}

void sm_chain_free(sm_chain *c) {
    if (!c) return;
    free(c->edge);
    free(c->out);
    free(c->keys);
    free(c->hash);
    free(c->dense);
    free(c->dist);
    free(c->guess);
    gth_plan_free(c->plan);
    free(c->block);
    free(c->add_edge);
    free(c->add_stamp);
    free(c->tmp_to);
    free(c->tmp_p);
    free(c->tmp_label);
    free(c);
}

static inline const sm_edge *out_edges(const sm_chain *c, uint32_t i) { return c->edge + c->out[i].start; }

/* A slot holds the top of the key's hash beside the index, so a probe past
 * other keys does not read their keys (the lookups of a chain's builder are
 * a good part of building it). */
static inline void hash_insert(sm_chain *c, uint64_t h, uint32_t i) {
    uint64_t at = h & (c->hash_cap - 1);
    while (c->hash[at]) at = (at + 1) & (c->hash_cap - 1);
    c->hash[at] = (h >> 32 << 32) | ((uint64_t)i + 1);
}

static void rehash(sm_chain *c) {
    free(c->hash);
    c->hash_cap *= 2;
    c->hash = cs_calloc(c->hash_cap, sizeof *c->hash);
    for (uint32_t i = 0; i < c->count; i++) hash_insert(c, key_hash(c->keys + (size_t)i * c->key_size, c->key_size), i);
}

static inline long find_hashed(const sm_chain *c, const void *key, uint64_t h) {
    uint64_t at = h & (c->hash_cap - 1), top = h >> 32;
    for (uint64_t slot; (slot = c->hash[at]) != 0; at = (at + 1) & (c->hash_cap - 1)) {
        uint32_t i = (uint32_t)slot - 1;
        if (slot >> 32 == top && key_eq(c, c->keys + (size_t)i * c->key_size, key)) return i;
    }
    return -1;
}

void sm_chain_set_dense(sm_chain *c, uint32_t nodes, const uint8_t radix[4]) {
    if (c->count || c->key_size != 8) return;
    uint64_t space = nodes;
    for (int b = 0; b < 4; b++) space *= radix[b];
    if (space == 0 || space > (1u << 24)) return;
    free(c->dense);
    c->dense = cs_calloc(space, sizeof *c->dense);
    c->dense_nodes = nodes;
    memcpy(c->dense_radix, radix, 4);
}

/* The key's place in the dense space, or SIZE_MAX outside it. */
static inline size_t dense_at(const sm_chain *c, const uint8_t *key) {
    uint32_t node;
    memcpy(&node, key, 4);
    if (node >= c->dense_nodes) return SIZE_MAX;
    size_t x = node;
    for (int b = 0; b < 4; b++) {
        if (key[4 + b] >= c->dense_radix[b]) return SIZE_MAX;
        x = x * c->dense_radix[b] + key[4 + b];
    }
    return x;
}

long sm_chain_find(const sm_chain *c, const void *key) {
    if (c->dense) {
        size_t x = dense_at(c, key);
        return x == SIZE_MAX ? -1 : (long)c->dense[x] - 1;
    }
    return find_hashed(c, key, key_hash(key, c->key_size));
}

uint32_t sm_chain_state(sm_chain *c, const void *key) {
    if (c->last && key_eq(c, c->keys + (size_t)(c->last - 1) * c->key_size, key)) return c->last - 1;
    uint64_t h = 0;
    uint32_t *slot = NULL;
    if (c->dense) {
        size_t x = dense_at(c, key);
        if (x == SIZE_MAX) abort(); /* a programming error: sm_chain_set_dense's space is the caller's */
        slot = &c->dense[x];
        if (*slot) return (c->last = *slot) - 1;
    } else {
        h = key_hash(key, c->key_size);
        long f = find_hashed(c, key, h);
        if (f >= 0) c->last = (uint32_t)f + 1;
        if (f >= 0) return (uint32_t)f;
    }
    if (c->count == c->cap) { /* keys and out share the capacity */
        c->cap = (uint32_t)sm_grow_cap(c->cap, (size_t)c->count + 1, 256);
        c->keys = cs_realloc(c->keys, cs_array_size(c->cap, c->key_size));
        c->out = cs_realloc(c->out, cs_array_size(c->cap, sizeof *c->out));
    }
    uint32_t i = c->count++;
    memcpy(c->keys + (size_t)i * c->key_size, key, c->key_size);
    c->last = i + 1;
    c->out[i] = (sm_out){0};
    if (slot) *slot = i + 1;
    else if ((uint64_t)c->count * 2 > c->hash_cap) rehash(c);
    else hash_insert(c, h, i);
    return i;
}

const void *sm_chain_key(const sm_chain *c, uint32_t i) { return c->keys + (size_t)i * c->key_size; }
uint32_t sm_chain_count(const sm_chain *c) { return c->count; }

static inline uint32_t add_slot(uint32_t j, uint8_t label, uint32_t mask) {
    uint32_t h = j * 0x9e3779b1u ^ label * 0x85ebca77u;
    return (h ^ h >> 15) & mask;
}

/* Indexes state i's transitions afresh, in a table of at least 4 slots per
 * transition (the builders add a state's transitions in a row, so one state is
 * indexed at a time; a state with many successors, as the fetch chains' that
 * look two flow-graph nodes ahead, is no longer a quadratic scan). */
static void add_index(sm_chain *c, uint32_t i) {
    const sm_out *o = &c->out[i];
    const sm_edge *e = out_edges(c, i);
    if ((size_t)o->n * 4 + 4 > c->add_cap) {
        uint32_t cap = c->add_cap ? c->add_cap : 64;
        while (cap < (size_t)o->n * 4 + 4) cap *= 2;
        free(c->add_edge);
        free(c->add_stamp);
        c->add_edge = cs_malloc(cs_array_size(cap, sizeof *c->add_edge));
        c->add_stamp = cs_calloc(cap, sizeof *c->add_stamp);
        c->add_cap = cap;
        c->add_now = 0;
    }
    if (++c->add_now == 0) { /* the stamps wrapped: clear them */
        memset(c->add_stamp, 0, c->add_cap * sizeof *c->add_stamp);
        c->add_now = 1;
    }
    c->add_src = i + 1;
    uint32_t mask = c->add_cap - 1;
    for (uint32_t k = 0; k < o->n; k++) {
        uint32_t h = add_slot(e[k].to, e[k].label, mask);
        while (c->add_stamp[h] == c->add_now) h = (h + 1) & mask;
        c->add_stamp[h] = c->add_now;
        c->add_edge[h] = k;
    }
}

void sm_chain_add(sm_chain *c, uint32_t i, uint32_t j, double p, uint8_t label) {
    sm_out *o = &c->out[i];
    if (c->edge_tail != i + 1) { /* the state's transitions to the end of the pool */
        SM_GROW(c->edge, c->edge_cap, c->nedge + o->n + 1, 1024);
        memcpy(c->edge + c->nedge, c->edge + o->start, o->n * sizeof *c->edge);
        o->start = c->nedge;
        c->nedge += o->n;
        c->edge_tail = i + 1;
    }
    if (c->add_src != i + 1 || (size_t)o->n * 4 + 4 > c->add_cap) add_index(c, i);
    uint32_t mask = c->add_cap - 1, h = add_slot(j, label, mask);
    for (; c->add_stamp[h] == c->add_now; h = (h + 1) & mask) {
        sm_edge *e = &c->edge[o->start + c->add_edge[h]];
        if (e->to == j && e->label == label) {
            e->p += p;
            return;
        }
    }
    SM_GROW(c->edge, c->edge_cap, c->nedge + 1, 1024);
    c->add_stamp[h] = c->add_now;
    c->add_edge[h] = o->n;
    c->edge[c->nedge++] = (sm_edge){j, label, p};
    o->n++;
}

uint32_t sm_chain_out(const sm_chain *c, uint32_t i, const uint32_t **to, const double **p, const uint8_t **label) {
    sm_chain *m = (sm_chain *)c; /* scratch only */
    const sm_out *o = &c->out[i];
    const sm_edge *e = out_edges(c, i);
    if (o->n > m->tmp_cap) { /* the three arrays share the capacity */
        m->tmp_cap = (uint32_t)sm_grow_cap(m->tmp_cap, o->n, 16);
        m->tmp_to = cs_realloc(m->tmp_to, cs_array_size(m->tmp_cap, sizeof *m->tmp_to));
        m->tmp_p = cs_realloc(m->tmp_p, cs_array_size(m->tmp_cap, sizeof *m->tmp_p));
        m->tmp_label = cs_realloc(m->tmp_label, m->tmp_cap);
    }
    for (uint32_t k = 0; k < o->n; k++) {
        m->tmp_to[k] = e[k].to;
        m->tmp_p[k] = e[k].p;
        m->tmp_label[k] = e[k].label;
    }
    *to = m->tmp_to;
    *p = m->tmp_p;
    if (label) *label = m->tmp_label;
    return o->n;
}

const double *sm_chain_dist(const sm_chain *c) { return c->dist; }

void sm_chain_set_blocks(sm_chain *c, const uint32_t *block, uint32_t nblocks) {
    free(c->block);
    c->block = NULL;
    c->nblocks = 0;
    if (nblocks < 2 || nblocks > c->count) return;
    c->block = cs_malloc(cs_array_size(c->count ? c->count : 1, sizeof *c->block));
    memcpy(c->block, block, c->count * sizeof *block);
    c->nblocks = nblocks;
}

/* ---- GTH state reduction (Grassmann, Taksar and Heyman 1985; Stewart §2.7) ----
 * The stationary distribution of a small sparse chain, exactly: states are
 * eliminated one at a time (fewest in x out transitions first, so flow-graph
 * chains, mostly paths, fill in little), each predecessor i of the eliminated
 * k gaining p_ik p_kj / S_k towards each successor j, S_k the sum of k's
 * transitions to other states (no subtraction: the method is stable). Then
 * pi_k = sum over the states left at k's elimination of pi_i p_ik / S_k. Used
 * for the chain between aggregation blocks. */

typedef struct gth_entry {
    uint32_t j;
    double p;
} gth_entry;

typedef struct gth_list {
    gth_entry *e;
    uint32_t n, cap;
} gth_list;

typedef struct gth_ilist {
    uint32_t *v;
    uint32_t n, cap;
} gth_ilist;

static void gth_push(gth_list *l, uint32_t j, double p) {
    SM_GROW(l->e, l->cap, l->n + 1, 4);
    l->e[l->n++] = (gth_entry){j, p};
}

static void gth_ipush(gth_ilist *l, uint32_t v) {
    SM_GROW(l->v, l->cap, l->n + 1, 4);
    l->v[l->n++] = v;
}

typedef struct gth_heap_item {
    uint64_t key;
    uint32_t state;
} gth_heap_item;

typedef struct gth_heap {
    gth_heap_item *v;
    size_t n, cap;
} gth_heap;

static void heap_push(gth_heap *h, uint64_t key, uint32_t state) {
    SM_GROW(h->v, h->cap, h->n + 1, 256);
    size_t i = h->n++;
    while (i > 0 && h->v[(i - 1) / 2].key > key) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = (gth_heap_item){key, state};
}

static gth_heap_item heap_pop(gth_heap *h) {
    gth_heap_item top = h->v[0], last = h->v[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n) break;
        if (c + 1 < h->n && h->v[c + 1].key < h->v[c].key) c++;
        if (h->v[c].key >= last.key) break;
        h->v[i] = h->v[c];
        i = c;
    }
    if (h->n) h->v[i] = last;
    return top;
}

/* A GTH elimination planned once for a sparsity pattern, run for each set of
 * values of it (the aggregation steps of one solve share their pattern): per
 * step the slots of k's transitions (their sum is S_k), and per predecessor i
 * the slot of p_ik and the updates v[dst] += p_ik / S_k * v[src]: src runs
 * over k's transitions, so only dst is kept, one per transition of k
 * (GTH_SKIP for k's transition to i itself, which the diagonal leaves out).
 * A run streams the updates once: half the index data is half its time. */
#define GTH_SKIP UINT32_MAX
typedef struct u32_vec {
    uint32_t *v;
    size_t n, cap;
} u32_vec;

static void vpush(u32_vec *a, uint32_t x) {
    SM_GROW(a->v, a->cap, a->n + 1, 1024);
    a->v[a->n++] = x;
}

struct gth_plan {
    uint32_t n, nslot, nstep, last;
    uint32_t *prs, *pcol; /* the pattern planned for */
    uint32_t *orig_slot;  /* CSR entry -> slot (UINT32_MAX: the diagonal, left out) */
    u32_vec order, out_start, out_slot, pred_start, pred_state, pred_slot, upd_dst;
    double *v, *s;
};

static void gth_plan_free(gth_plan *pl) {
    if (!pl) return;
    free(pl->prs);
    free(pl->pcol);
    free(pl->orig_slot);
    u32_vec *vs[] = {&pl->order,      &pl->out_start, &pl->out_slot, &pl->pred_start,
                     &pl->pred_state, &pl->pred_slot, &pl->upd_dst};
    for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++) free(vs[i]->v);
    free(pl->v);
    free(pl->s);
    free(pl);
}

/* The elimination order (fewest in x out transitions first) and its steps for
 * the pattern rs/col; NULL when the fill passes fill_limit slots and updates. */
static gth_plan *gth_plan_build(uint32_t n, const uint32_t *rs, const uint32_t *col, size_t fill_limit) {
    gth_plan *pl = cs_calloc(1, sizeof *pl);
    pl->n = n;
    pl->orig_slot = cs_malloc(cs_array_size(rs[n] ? rs[n] : 1, sizeof *pl->orig_slot));
    gth_list *out = cs_calloc(n, sizeof *out); /* entry .p holds the slot */
    gth_ilist *in = cs_calloc(n, sizeof *in);
    uint32_t *indeg = cs_calloc(n, sizeof *indeg);
    bool *dead = cs_calloc(n, sizeof *dead);
    uint32_t *pos = cs_malloc(cs_array_size(n, sizeof *pos));
    for (uint32_t i = 0; i < n; i++) pos[i] = UINT32_MAX;
    bool ok = true;
    gth_heap h = {0};
    for (uint32_t i = 0; i < n; i++) {
        for (uint32_t a = 0; a < out[i].n; a++) pos[out[i].e[a].j] = a;
        for (uint32_t e = rs[i]; e < rs[i + 1]; e++) {
            uint32_t j = col[e];
            if (j == i) {
                pl->orig_slot[e] = UINT32_MAX;
            } else if (pos[j] != UINT32_MAX) {
                pl->orig_slot[e] = (uint32_t)out[i].e[pos[j]].p;
            } else {
                pos[j] = out[i].n;
                pl->orig_slot[e] = pl->nslot;
                gth_push(&out[i], j, pl->nslot++);
                gth_ipush(&in[j], i);
                indeg[j]++;
            }
        }
        for (uint32_t a = 0; a < out[i].n; a++) pos[out[i].e[a].j] = UINT32_MAX;
    }
    for (uint32_t i = 0; i < n; i++) heap_push(&h, (uint64_t)indeg[i] * out[i].n, i);
    while (ok && pl->nstep + 1 < n) {
        gth_heap_item it = heap_pop(&h);
        uint32_t k = it.state;
        if (dead[k] || it.key != (uint64_t)indeg[k] * out[k].n) continue;
        dead[k] = true;
        vpush(&pl->order, k);
        vpush(&pl->out_start, (uint32_t)pl->out_slot.n);
        for (uint32_t a = 0; a < out[k].n; a++) vpush(&pl->out_slot, (uint32_t)out[k].e[a].p);
        vpush(&pl->pred_start, (uint32_t)pl->pred_state.n);
        for (uint32_t b = 0; b < in[k].n; b++) {
            uint32_t i = in[k].v[b];
            if (dead[i]) continue;
            for (uint32_t a = 0; a < out[i].n; a++) pos[out[i].e[a].j] = a;
            uint32_t at = pos[k];
            vpush(&pl->pred_state, i);
            vpush(&pl->pred_slot, (uint32_t)out[i].e[at].p);
            out[i].e[at] = out[i].e[--out[i].n];
            if (at < out[i].n) pos[out[i].e[at].j] = at;
            pos[k] = UINT32_MAX;
            for (uint32_t a = 0; a < out[k].n; a++) {
                uint32_t j = out[k].e[a].j;
                if (j == i) { /* a self-loop of i: GTH's sums leave the diagonal out */
                    vpush(&pl->upd_dst, GTH_SKIP);
                    continue;
                }
                uint32_t dst;
                if (pos[j] != UINT32_MAX) {
                    dst = (uint32_t)out[i].e[pos[j]].p;
                } else {
                    dst = pl->nslot++;
                    pos[j] = out[i].n;
                    gth_push(&out[i], j, dst);
                    gth_ipush(&in[j], i);
                    indeg[j]++;
                }
                vpush(&pl->upd_dst, dst);
            }
            for (uint32_t a = 0; a < out[i].n; a++) pos[out[i].e[a].j] = UINT32_MAX;
            heap_push(&h, (uint64_t)indeg[i] * out[i].n, i);
        }
        for (uint32_t a = 0; a < out[k].n; a++) {
            uint32_t j = out[k].e[a].j;
            indeg[j]--;
            heap_push(&h, (uint64_t)indeg[j] * out[j].n, j);
        }
        pl->nstep++;
        if (pl->nslot + pl->upd_dst.n > fill_limit) ok = false;
    }
    vpush(&pl->out_start, (uint32_t)pl->out_slot.n);
    vpush(&pl->pred_start, (uint32_t)pl->pred_state.n);
    pl->last = 0;
    while (pl->last < n && dead[pl->last]) pl->last++;
    for (uint32_t i = 0; i < n; i++) {
        free(out[i].e);
        free(in[i].v);
    }
    free(out);
    free(in);
    free(indeg);
    free(dead);
    free(pos);
    free(h.v);
    if (!ok || pl->last >= n) {
        gth_plan_free(pl);
        return NULL;
    }
    pl->prs = cs_malloc(cs_array_size((size_t)n + 1, sizeof *pl->prs));
    memcpy(pl->prs, rs, ((size_t)n + 1) * sizeof *rs);
    pl->pcol = cs_malloc(cs_array_size(rs[n] ? rs[n] : 1, sizeof *pl->pcol));
    memcpy(pl->pcol, col, rs[n] * sizeof *col);
    pl->v = cs_malloc(cs_array_size(pl->nslot ? pl->nslot : 1, sizeof *pl->v));
    pl->s = cs_malloc(cs_array_size(pl->nstep ? pl->nstep : 1, sizeof *pl->s));
    return pl;
}

/* pi of the chain with the plan's pattern and these values (val per CSR
 * entry). False when a state leads nowhere else: the chain is not irreducible. */
static bool gth_plan_run(gth_plan *pl, const double *val, size_t nval, double *pi) {
    memset(pl->v, 0, pl->nslot * sizeof *pl->v);
    for (size_t e = 0; e < nval; e++)
        if (pl->orig_slot[e] != UINT32_MAX) pl->v[pl->orig_slot[e]] += val[e];
    double *v = pl->v;
    const uint32_t *dst = pl->upd_dst.v;
    for (uint32_t t = 0; t < pl->nstep; t++) {
        const uint32_t *src = pl->out_slot.v + pl->out_start.v[t];
        uint32_t nsrc = pl->out_start.v[t + 1] - pl->out_start.v[t];
        double s = 0;
        for (uint32_t a = 0; a < nsrc; a++) s += v[src[a]];
        if (!(s > 0)) return false;
        pl->s[t] = s;
        for (uint32_t b = pl->pred_start.v[t]; b < pl->pred_start.v[t + 1]; b++, dst += nsrc) {
            double f = v[pl->pred_slot.v[b]] / s;
            for (uint32_t a = 0; a < nsrc; a++)
                if (dst[a] != GTH_SKIP) v[dst[a]] += f * v[src[a]];
        }
    }
    memset(pi, 0, pl->n * sizeof *pi);
    pi[pl->last] = 1;
    double z = 1;
    for (uint32_t t = pl->nstep; t-- > 0;) {
        double x = 0;
        for (uint32_t b = pl->pred_start.v[t]; b < pl->pred_start.v[t + 1]; b++)
            x += pi[pl->pred_state.v[b]] * v[pl->pred_slot.v[b]];
        x /= pl->s[t];
        pi[pl->order.v[t]] = x;
        z += x;
    }
    for (uint32_t i = 0; i < pl->n; i++) pi[i] /= z;
    return true;
}

/* Scratch of the aggregation steps of one solve. */
typedef struct agg_ws {
    uint32_t *bstart, *bstate; /* the states of each block */
    uint32_t *mark, *rs, *col;
    double *val, *w, *pi;
    size_t cap;
    gth_plan *plan;    /* the chain between blocks keeps its pattern through a solve */
    size_t fill_limit; /* the most slots and updates a plan may have */
    bool failed;       /* the chain between blocks could not be solved: no more steps */
} agg_ws;

/* The largest elimination worth planning: one run of a plan costs about its
 * slots and updates, a Gauss-Seidel sweep the chain's transitions, and a chain
 * that needs aggregation would otherwise take thousands of sweeps (the fetch
 * chains of the value-prediction machines look two flow-graph nodes ahead, so
 * their chain between nodes fills in more: 2.6-2.9 M updates on `fma`). The
 * absolute cap bounds the plan's memory (about 12 bytes per entry). */
static size_t gth_fill_limit(size_t transitions) {
    size_t limit = 64 * transitions + 1000000;
    return limit < ((size_t)1 << 24) ? limit : (size_t)1 << 24;
}

static void agg_free(agg_ws *a) {
    gth_plan_free(a->plan);
    free(a->bstart);
    free(a->bstate);
    free(a->mark);
    free(a->rs);
    free(a->col);
    free(a->val);
    free(a->w);
    free(a->pi);
}

/* One aggregation-disaggregation step (Koury, McAllister and Stewart; Stewart
 * §6.3): the chain between blocks, weighted by d within each block, is solved
 * exactly (GTH, above), and d is rescaled block by block to it. It moves
 * probability between the parts of a chain that Gauss-Seidel alone couples
 * slowly: a program's phases (loops left once in a million instructions),
 * and, with the flow-graph node as the block (the three-pipe chains), a loop
 * left once in tens of iterations, whose share Gauss-Seidel otherwise corrects
 * by a factor of about (1 - exit probability) per sweep. */
static void aggregate(sm_chain *c, double *d, agg_ws *a) {
    uint32_t k = c->nblocks, n = c->count;
    if (!a->bstart) {
        a->bstart = cs_calloc((size_t)k + 1, sizeof *a->bstart);
        a->bstate = cs_malloc(cs_array_size(n, sizeof *a->bstate));
        for (uint32_t i = 0; i < n; i++) a->bstart[c->block[i] + 1]++;
        for (uint32_t b = 0; b < k; b++) a->bstart[b + 1] += a->bstart[b];
        uint32_t *fill = cs_malloc(cs_array_size(k, sizeof *fill));
        memcpy(fill, a->bstart, k * sizeof *fill);
        for (uint32_t i = 0; i < n; i++) a->bstate[fill[c->block[i]]++] = i;
        free(fill);
        a->mark = cs_malloc(cs_array_size(k, sizeof *a->mark));
        a->rs = cs_malloc(cs_array_size((size_t)k + 1, sizeof *a->rs));
        a->w = cs_malloc(cs_array_size(k, sizeof *a->w));
        a->pi = cs_malloc(cs_array_size(k, sizeof *a->pi));
    }
    for (uint32_t b = 0; b < k; b++) a->mark[b] = UINT32_MAX;
    size_t nz = 0;
    for (uint32_t b = 0; b < k; b++) {
        double w = 0;
        for (uint32_t x = a->bstart[b]; x < a->bstart[b + 1]; x++) w += d[a->bstate[x]];
        a->w[b] = w;
        a->rs[b] = (uint32_t)nz;
        for (uint32_t x = a->bstart[b]; x < a->bstart[b + 1]; x++) {
            uint32_t i = a->bstate[x];
            /* a block holding nothing yet is weighted uniformly */
            double wi = w > 0 ? d[i] / w : 1.0 / (a->bstart[b + 1] - a->bstart[b]);
            const sm_edge *out = out_edges(c, i);
            for (uint32_t e = 0; e < c->out[i].n; e++) {
                uint32_t to = c->block[out[e].to];
                if (to == b) continue;
                if (a->mark[to] == UINT32_MAX || a->mark[to] < a->rs[b]) {
                    if (nz == a->cap) { /* col and val share the capacity */
                        a->cap = sm_grow_cap(a->cap, nz + 1, 1024);
                        a->col = cs_realloc(a->col, cs_array_size(a->cap, sizeof *a->col));
                        a->val = cs_realloc(a->val, cs_array_size(a->cap, sizeof *a->val));
                    }
                    a->mark[to] = (uint32_t)nz;
                    a->col[nz] = to;
                    a->val[nz++] = 0;
                }
                a->val[a->mark[to]] += wi * out[e].p;
            }
        }
    }
    a->rs[k] = (uint32_t)nz;
    if (!a->plan && c->plan && c->plan->n == k && !memcmp(c->plan->prs, a->rs, ((size_t)k + 1) * sizeof *a->rs) &&
        !memcmp(c->plan->pcol, a->col, nz * sizeof *a->col)) { /* the last round's pattern */
        a->plan = c->plan;
        c->plan = NULL;
    }
    if (!a->plan) a->plan = gth_plan_build(k, a->rs, a->col, a->fill_limit);
    if (!a->plan || !gth_plan_run(a->plan, a->val, nz, a->pi)) {
        a->failed = true;
        return;
    }
    for (uint32_t b = 0; b < k; b++)
        for (uint32_t x = a->bstart[b]; x < a->bstart[b + 1]; x++) {
            uint32_t i = a->bstate[x];
            d[i] = a->w[b] > 0 ? d[i] * a->pi[b] / a->w[b] : a->pi[b] / (a->bstart[b + 1] - a->bstart[b]);
        }
}

/* The chain's own nearly closed parts: strongly connected components of its
 * transitions of probability >= SM_PHASE_STRONG (Tarjan, iteratively). */
static uint32_t chain_blocks(const sm_chain *c, uint32_t *block) {
    uint32_t n = c->count, count = 0, idx = 0, sp = 0, cs = 0;
    uint32_t *index = cs_malloc(cs_array_size(n, sizeof *index));
    uint32_t *low = cs_malloc(cs_array_size(n, sizeof *low));
    uint32_t *stack = cs_malloc(cs_array_size(n, sizeof *stack));
    uint32_t *call = cs_malloc(cs_array_size(n, sizeof *call));
    uint32_t *edge = cs_calloc(n, sizeof *edge);
    bool *on = cs_calloc(n, sizeof *on);
    for (uint32_t v = 0; v < n; v++) index[v] = UINT32_MAX;
    for (uint32_t root = 0; root < n; root++) {
        if (index[root] != UINT32_MAX) continue;
        call[cs++] = root;
        index[root] = low[root] = idx++;
        stack[sp++] = root;
        on[root] = true;
        while (cs) {
            uint32_t v = call[cs - 1];
            if (edge[v] < c->out[v].n) {
                const sm_edge *e = &out_edges(c, v)[edge[v]++];
                if (e->p < SM_PHASE_STRONG) continue;
                uint32_t w = e->to;
                if (index[w] == UINT32_MAX) {
                    index[w] = low[w] = idx++;
                    stack[sp++] = w;
                    on[w] = true;
                    call[cs++] = w;
                } else if (on[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            if (low[v] == index[v]) {
                uint32_t w;
                do {
                    w = stack[--sp];
                    on[w] = false;
                    block[w] = count;
                } while (w != v);
                count++;
            }
            cs--;
            if (cs) {
                uint32_t u = call[cs - 1];
                if (low[v] < low[u]) low[u] = low[v];
            }
        }
    }
    free(index);
    free(low);
    free(stack);
    free(call);
    free(edge);
    free(on);
    return count;
}

/* |d P - d|_1, P given by its incoming transitions and self-loops. */
static double residual(uint32_t n, const double *d, const double *self, const uint32_t *start, const uint32_t *from,
                       const double *pin) {
    double res = 0;
    for (uint32_t j = 0; j < n; j++) {
        double acc = d[j] * self[j];
        for (uint32_t k = start[j]; k < start[j + 1]; k++) acc += d[from[k]] * pin[k];
        res += fabs(acc - d[j]);
    }
    return res;
}

bool sm_chain_solve(sm_chain *c, uint32_t *iterations, cs_error *err) {
    return sm_chain_solve_tol(c, SM_RESIDUAL, iterations, err);
}

bool sm_chain_solve_tol(sm_chain *c, double tol, uint32_t *iterations, cs_error *err) {
    uint32_t n = c->count;
    if (n == 0) {
        cs_error_set(err, "empty chain");
        return false;
    }
    /* Incoming transitions (CSC), self-loops apart. */
    uint32_t *start = cs_calloc((size_t)n + 1, sizeof *start);
    double *self = cs_calloc(n, sizeof *self);
    size_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        double sum = 0;
        for (uint32_t k = 0; k < c->out[i].n; k++) {
            const sm_edge *e = &out_edges(c, i)[k];
            sum += e->p;
            if (e->to == i) self[i] += e->p;
            else start[e->to + 1]++, total++;
        }
        if (fabs(sum - 1) > 1e-6) {
            cs_error_set(err, "state %u: transition probabilities sum to %.9g, not 1", i, sum);
            free(start);
            free(self);
            return false;
        }
    }
    for (uint32_t j = 0; j < n; j++) start[j + 1] += start[j];
    uint32_t *from = cs_malloc(cs_array_size(total ? total : 1, sizeof *from));
    double *pin = cs_malloc(cs_array_size(total ? total : 1, sizeof *pin));
    uint32_t *fill = cs_malloc(cs_array_size(n, sizeof *fill));
    memcpy(fill, start, n * sizeof *fill);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < c->out[i].n; k++) {
            const sm_edge *e = &out_edges(c, i)[k];
            if (e->to == i) continue;
            from[fill[e->to]] = i;
            pin[fill[e->to]++] = e->p;
        }
    free(fill);
    free(c->dist);
    double *d = c->dist = cs_malloc(cs_array_size(n, sizeof *d));
    for (uint32_t i = 0; i < n; i++) d[i] = 1.0 / n;
    if (c->guess) { /* start from the last solution (relaxation rounds change little) */
        double z = 0;
        for (uint32_t i = 0; i < n; i++) z += c->guess[i];
        if (z > 0)
            for (uint32_t i = 0; i < n; i++) d[i] = c->guess[i] / z + 1e-9 / n;
        free(c->guess);
        c->guess = NULL;
    }
    bool ok = false;
    uint32_t it = 0;
    agg_ws aws = {0};
    aws.fill_limit = gth_fill_limit(total);
    double last_res = INFINITY;
    bool exact_tried = false;
    uint32_t *kept_blocks = NULL, kept_nblocks = 0; /* the blocks before the exact solve */
    for (it = 1; it <= 20000; it++) {
        double change = 0, sum = 0;
        for (uint32_t jj = 0; jj < n; jj++) {
            /* symmetric Gauss-Seidel: sweeps alternate direction, so mass moves
             * both ways along the long cycles that flow-graph chains have */
            uint32_t j = it % 2 ? jj : n - 1 - jj;
            double acc = 0;
            for (uint32_t k = start[j]; k < start[j + 1]; k++) acc += d[from[k]] * pin[k];
            double nv = self[j] < 1 ? acc / (1 - self[j]) : d[j];
            double ch = fabs(nv - d[j]);
            if (ch > change) change = ch;
            d[j] = nv;
            sum += nv;
        }
        if (!(sum > 0)) break;
        for (uint32_t j = 0; j < n; j++) d[j] /= sum;
        if (change / sum < 1e-12 || it % 8 == 0) {
            double res = residual(n, d, self, start, from, pin);
            bool slow = res > 0.1 * last_res; /* less than tenfold in 8 sweeps */
            last_res = res;
            if (slow && !c->block && !c->blocks_tried && it >= 128) {
                uint32_t *b = cs_malloc(cs_array_size(n, sizeof *b));
                uint32_t nb = chain_blocks(c, b);
                sm_chain_set_blocks(c, b, nb);
                c->blocks_tried = true;
                free(b);
            }
            if (slow && !exact_tried && it >= SM_EXACT_AFTER) {
                /* Gauss-Seidel stalls: a very hot tiny loop's one-pipe chain (a
                 * 5-instruction loop run 2 M times, 417 states) kept a residual
                 * of 0.02 through all 20000 sweeps, blocks or not. Every state
                 * its own block makes the aggregation step GTH on the whole
                 * chain: exact, if its elimination fits the fill limit. */
                exact_tried = true;
                kept_nblocks = c->nblocks;
                if (c->block) {
                    kept_blocks = cs_malloc(cs_array_size(n, sizeof *kept_blocks));
                    memcpy(kept_blocks, c->block, n * sizeof *kept_blocks);
                }
                uint32_t *b = cs_malloc(cs_array_size(n, sizeof *b));
                for (uint32_t i = 0; i < n; i++) b[i] = i;
                sm_chain_set_blocks(c, b, n);
                free(b);
                agg_free(&aws);
                aws = (agg_ws){0};
                aws.fill_limit = gth_fill_limit(total);
            }
            /* an aggregation step when Gauss-Seidel is slow, and always before
             * a solution is accepted: a nearly uncoupled chain can have a small
             * residual and still a wrong split between its parts */
            if (c->block && !aws.failed && (slow || res < tol)) {
                aggregate(c, d, &aws);
                res = residual(n, d, self, start, from, pin);
                if (aws.failed && exact_tried && c->nblocks == n) {
                    /* the whole chain's elimination is past the fill limit:
                     * back to the blocks it had, and their aggregation */
                    sm_chain_set_blocks(c, kept_blocks, kept_nblocks);
                    agg_free(&aws);
                    aws = (agg_ws){0};
                    aws.fill_limit = gth_fill_limit(total);
                }
            }
            if (res < tol) {
                ok = true;
                break;
            }
        }
    }
    if (aws.plan && !aws.failed) { /* kept for the next round's chain (sm_chain_guess) */
        gth_plan_free(c->plan);
        c->plan = aws.plan;
        aws.plan = NULL;
    }
    agg_free(&aws);
    free(kept_blocks);
    free(start);
    free(self);
    free(from);
    free(pin);
    if (iterations) *iterations = it;
    if (!ok) cs_error_set(err, "Gauss-Seidel did not converge in 20000 sweeps (%u states)", n);
    return ok;
}

void sm_chain_normalize(sm_chain *c) {
    for (uint32_t i = 0; i < c->count; i++) {
        sm_edge *e = c->edge + c->out[i].start;
        double s = 0;
        for (uint32_t k = 0; k < c->out[i].n; k++) s += e[k].p;
        if (s > 0)
            for (uint32_t k = 0; k < c->out[i].n; k++) e[k].p /= s;
    }
}

uint64_t sm_chain_transitions(const sm_chain *c) {
    uint64_t n = 0;
    for (uint32_t i = 0; i < c->count; i++) n += c->out[i].n;
    return n;
}

void sm_chain_guess(sm_chain *c, sm_chain *prev) {
    if (!prev || !prev->dist || prev->key_size != c->key_size) return;
    gth_plan_free(c->plan);
    c->plan = prev->plan;
    prev->plan = NULL;
    free(c->guess);
    c->guess = cs_malloc(cs_array_size(c->count ? c->count : 1, sizeof *c->guess));
    /* a round's chain is mostly the last one's states in the same order (both
     * explored from the same first state): then no state needs looking up */
    if (prev->count == c->count && !memcmp(prev->keys, c->keys, (size_t)c->count * c->key_size)) {
        memcpy(c->guess, prev->dist, (size_t)c->count * sizeof *c->guess);
        return;
    }
    for (uint32_t i = 0; i < c->count; i++) {
        long j = sm_chain_find(prev, c->keys + (size_t)i * c->key_size);
        c->guess[i] = j >= 0 ? prev->dist[j] : 0;
    }
}
