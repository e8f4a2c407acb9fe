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

#include "statmodel.h"

typedef struct sm_edge {
    uint32_t to;
    uint8_t label;
    double p;
} sm_edge;

typedef struct sm_out {
    sm_edge *e;
    uint32_t n, cap;
} sm_out;

struct sm_chain {
    size_t key_size;
    uint8_t *keys; /* count * key_size */
    uint32_t count, cap;
    uint32_t *hash; /* index + 1; 0 empty */
    uint32_t hash_cap;
    sm_out *out;
    double *dist;
    double *guess;   /* the starting distribution of the next solve (sm_chain_guess) */
    uint32_t last;   /* index + 1 of the last state asked for: builders ask for the same one in a row */
    uint32_t *block; /* aggregation blocks (sm_chain_set_blocks), or NULL */
    uint32_t nblocks;
    bool blocks_tried;
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
    for (uint32_t i = 0; i < c->count; i++) free(c->out[i].e);
    free(c->out);
    free(c->keys);
    free(c->hash);
    free(c->dist);
    free(c->guess);
    free(c->block);
    free(c->tmp_to);
    free(c->tmp_p);
    free(c->tmp_label);
    free(c);
}

static void rehash(sm_chain *c) {
    free(c->hash);
    c->hash_cap *= 2;
    c->hash = cs_calloc(c->hash_cap, sizeof *c->hash);
    for (uint32_t i = 0; i < c->count; i++) {
        uint64_t h = key_hash(c->keys + (size_t)i * c->key_size, c->key_size) & (c->hash_cap - 1);
        while (c->hash[h]) h = (h + 1) & (c->hash_cap - 1);
        c->hash[h] = i + 1;
    }
}

long sm_chain_find(const sm_chain *c, const void *key) {
    uint64_t h = key_hash(key, c->key_size) & (c->hash_cap - 1);
    while (c->hash[h]) {
        uint32_t i = c->hash[h] - 1;
        if (key_eq(c, c->keys + (size_t)i * c->key_size, key)) return i;
        h = (h + 1) & (c->hash_cap - 1);
    }
    return -1;
}

uint32_t sm_chain_state(sm_chain *c, const void *key) {
    if (c->last && key_eq(c, c->keys + (size_t)(c->last - 1) * c->key_size, key)) return c->last - 1;
    long f = sm_chain_find(c, key);
    if (f >= 0) c->last = (uint32_t)f + 1;
    if (f >= 0) return (uint32_t)f;
    if (c->count == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 256;
        c->keys = cs_realloc(c->keys, cs_array_size(c->cap, c->key_size));
        c->out = cs_realloc(c->out, cs_array_size(c->cap, sizeof *c->out));
    }
    uint32_t i = c->count++;
    memcpy(c->keys + (size_t)i * c->key_size, key, c->key_size);
    c->last = i + 1;
    c->out[i] = (sm_out){0};
    if ((uint64_t)c->count * 2 > c->hash_cap) {
        rehash(c);
    } else {
        uint64_t h = key_hash(key, c->key_size) & (c->hash_cap - 1);
        while (c->hash[h]) h = (h + 1) & (c->hash_cap - 1);
        c->hash[h] = i + 1;
    }
    return i;
}

const void *sm_chain_key(const sm_chain *c, uint32_t i) { return c->keys + (size_t)i * c->key_size; }
uint32_t sm_chain_count(const sm_chain *c) { return c->count; }

void sm_chain_add(sm_chain *c, uint32_t i, uint32_t j, double p, uint8_t label) {
    sm_out *o = &c->out[i];
    for (uint32_t k = 0; k < o->n; k++)
        if (o->e[k].to == j && o->e[k].label == label) {
            o->e[k].p += p;
            return;
        }
    if (o->n == o->cap) {
        o->cap = o->cap ? o->cap * 2 : 4;
        o->e = cs_realloc(o->e, cs_array_size(o->cap, sizeof *o->e));
    }
    o->e[o->n++] = (sm_edge){j, label, p};
}

uint32_t sm_chain_out(const sm_chain *c, uint32_t i, const uint32_t **to, const double **p, const uint8_t **label) {
    sm_chain *m = (sm_chain *)c; /* scratch only */
    const sm_out *o = &c->out[i];
    if (o->n > m->tmp_cap) {
        m->tmp_cap = o->n * 2;
        m->tmp_to = cs_realloc(m->tmp_to, cs_array_size(m->tmp_cap, sizeof *m->tmp_to));
        m->tmp_p = cs_realloc(m->tmp_p, cs_array_size(m->tmp_cap, sizeof *m->tmp_p));
        m->tmp_label = cs_realloc(m->tmp_label, m->tmp_cap);
    }
    for (uint32_t k = 0; k < o->n; k++) {
        m->tmp_to[k] = o->e[k].to;
        m->tmp_p[k] = o->e[k].p;
        m->tmp_label[k] = o->e[k].label;
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
    if (nblocks < 2 || nblocks >= c->count) return;
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
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 4;
        l->e = cs_realloc(l->e, cs_array_size(l->cap, sizeof *l->e));
    }
    l->e[l->n++] = (gth_entry){j, p};
}

static void gth_ipush(gth_ilist *l, uint32_t v) {
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 4;
        l->v = cs_realloc(l->v, cs_array_size(l->cap, sizeof *l->v));
    }
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
    if (h->n == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 256;
        h->v = cs_realloc(h->v, cs_array_size(h->cap, sizeof *h->v));
    }
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

/* pi of the chain with rows (CSR rs/col/val; the diagonal is ignored). False
 * when a state leads nowhere else (the chain is not irreducible) or the fill
 * passes fill_limit transitions. */
static bool gth_solve(uint32_t n, const uint32_t *rs, const uint32_t *col, const double *val, double *pi,
                      size_t fill_limit) {
    gth_list *out = cs_calloc(n, sizeof *out);
    gth_ilist *in = cs_calloc(n, sizeof *in);
    uint32_t *indeg = cs_calloc(n, sizeof *indeg);
    bool *dead = cs_calloc(n, sizeof *dead);
    uint32_t *order = cs_malloc(cs_array_size(n, sizeof *order));
    uint32_t *pos = cs_malloc(cs_array_size(n, sizeof *pos));
    for (uint32_t i = 0; i < n; i++) pos[i] = UINT32_MAX;
    /* the predecessors left at each elimination, with p_ik / S_k */
    gth_list *rec = cs_calloc(n, sizeof *rec);
    size_t fill = 0;
    bool ok = true;
    gth_heap h = {0};
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t e = rs[i]; e < rs[i + 1]; e++)
            if (col[e] != i && val[e] > 0) {
                gth_push(&out[i], col[e], val[e]);
                gth_ipush(&in[col[e]], i);
                indeg[col[e]]++;
                fill++;
            }
    for (uint32_t i = 0; i < n; i++) heap_push(&h, (uint64_t)indeg[i] * out[i].n, i);
    uint32_t nord = 0;
    while (nord + 1 < n) {
        gth_heap_item it = heap_pop(&h);
        uint32_t k = it.state;
        if (dead[k] || it.key != (uint64_t)indeg[k] * out[k].n) continue;
        double s = 0;
        for (uint32_t a = 0; a < out[k].n; a++) s += out[k].e[a].p;
        if (!(s > 0)) {
            ok = false;
            break;
        }
        dead[k] = true;
        order[nord++] = k;
        for (uint32_t b = 0; b < in[k].n; b++) {
            uint32_t i = in[k].v[b];
            if (dead[i]) continue;
            /* where each of i's successors is in its list, for the updates below */
            for (uint32_t a = 0; a < out[i].n; a++) pos[out[i].e[a].j] = a;
            uint32_t at = pos[k];
            double pik = out[i].e[at].p;
            out[i].e[at] = out[i].e[--out[i].n];
            pos[out[i].e[at].j] = at;
            pos[k] = UINT32_MAX;
            gth_push(&rec[k], i, pik / s);
            for (uint32_t a = 0; a < out[k].n; a++) {
                uint32_t j = out[k].e[a].j;
                if (j == i) continue; /* a self-loop of i: GTH's sums leave the diagonal out */
                double add = pik * out[k].e[a].p / s;
                if (pos[j] != UINT32_MAX) {
                    out[i].e[pos[j]].p += add;
                } else {
                    pos[j] = out[i].n;
                    gth_push(&out[i], j, add);
                    gth_ipush(&in[j], i);
                    indeg[j]++;
                    if (++fill > fill_limit) ok = false;
                }
            }
            for (uint32_t a = 0; a < out[i].n; a++) pos[out[i].e[a].j] = UINT32_MAX;
            heap_push(&h, (uint64_t)indeg[i] * out[i].n, i);
        }
        if (!ok) break;
        for (uint32_t a = 0; a < out[k].n; a++) {
            uint32_t j = out[k].e[a].j;
            indeg[j]--;
            heap_push(&h, (uint64_t)indeg[j] * out[j].n, j);
        }
    }
    if (ok) {
        uint32_t last = 0;
        while (last < n && dead[last]) last++;
        memset(pi, 0, n * sizeof *pi);
        pi[last] = 1;
        double z = 1;
        for (uint32_t t = nord; t-- > 0;) {
            uint32_t k = order[t];
            double v = 0;
            for (uint32_t a = 0; a < rec[k].n; a++) v += pi[rec[k].e[a].j] * rec[k].e[a].p;
            pi[k] = v;
            z += v;
        }
        for (uint32_t i = 0; i < n; i++) pi[i] /= z;
    }
    for (uint32_t i = 0; i < n; i++) {
        free(out[i].e);
        free(in[i].v);
        free(rec[i].e);
    }
    free(out);
    free(in);
    free(indeg);
    free(dead);
    free(order);
    free(pos);
    free(rec);
    free(h.v);
    return ok;
}

/* Scratch of the aggregation steps of one solve. */
typedef struct agg_ws {
    uint32_t *bstart, *bstate; /* the states of each block */
    uint32_t *mark, *rs, *col;
    double *val, *w, *pi;
    size_t cap;
    bool failed; /* the chain between blocks could not be solved: no more steps */
} agg_ws;

static void agg_free(agg_ws *a) {
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
            for (uint32_t e = 0; e < c->out[i].n; e++) {
                uint32_t to = c->block[c->out[i].e[e].to];
                if (to == b) continue;
                if (a->mark[to] == UINT32_MAX || a->mark[to] < a->rs[b]) {
                    if (nz == a->cap) {
                        a->cap = a->cap ? a->cap * 2 : 1024;
                        a->col = cs_realloc(a->col, cs_array_size(a->cap, sizeof *a->col));
                        a->val = cs_realloc(a->val, cs_array_size(a->cap, sizeof *a->val));
                    }
                    a->mark[to] = (uint32_t)nz;
                    a->col[nz] = to;
                    a->val[nz++] = 0;
                }
                a->val[a->mark[to]] += wi * c->out[i].e[e].p;
            }
        }
    }
    a->rs[k] = (uint32_t)nz;
    if (!gth_solve(k, a->rs, a->col, a->val, a->pi, 16 * nz + 100000)) {
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
                const sm_edge *e = &c->out[v].e[edge[v]++];
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
            const sm_edge *e = &c->out[i].e[k];
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
            const sm_edge *e = &c->out[i].e[k];
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
        /* an aggregation step every 8 sweeps over the blocks: the caller's or,
         * from sweep 128 on, the chain's own nearly closed parts */
        if (it % 8 == 0 && !aws.failed) {
            if (!c->block && !c->blocks_tried && it >= 128) {
                uint32_t *b = cs_malloc(cs_array_size(n, sizeof *b));
                uint32_t nb = chain_blocks(c, b);
                sm_chain_set_blocks(c, b, nb);
                c->blocks_tried = true;
                free(b);
            }
            if (c->block) aggregate(c, d, &aws);
        }
        if (change / sum < 1e-12 || it % 8 == 0) {
            double res = 0;
            for (uint32_t j = 0; j < n; j++) {
                double acc = d[j] * self[j];
                for (uint32_t k = start[j]; k < start[j + 1]; k++) acc += d[from[k]] * pin[k];
                res += fabs(acc - d[j]);
            }
            if (res < tol) {
                ok = true;
                break;
            }
        }
    }
    agg_free(&aws);
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
        double s = 0;
        for (uint32_t k = 0; k < c->out[i].n; k++) s += c->out[i].e[k].p;
        if (s > 0)
            for (uint32_t k = 0; k < c->out[i].n; k++) c->out[i].e[k].p /= s;
    }
}

uint64_t sm_chain_transitions(const sm_chain *c) {
    uint64_t n = 0;
    for (uint32_t i = 0; i < c->count; i++) n += c->out[i].n;
    return n;
}

void sm_chain_guess(sm_chain *c, const sm_chain *prev) {
    if (!prev || !prev->dist || prev->key_size != c->key_size) return;
    free(c->guess);
    c->guess = cs_malloc(cs_array_size(c->count ? c->count : 1, sizeof *c->guess));
    for (uint32_t i = 0; i < c->count; i++) {
        long j = sm_chain_find(prev, c->keys + (size_t)i * c->key_size);
        c->guess[i] = j >= 0 ? prev->dist[j] : 0;
    }
}
