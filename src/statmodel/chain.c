/* A sparse Markov chain over opaque state keys, and its stationary
 * distribution by Gauss-Seidel (thesis §3.1; Stewart, "Introduction to the
 * Numerical Solution of Markov Chains").
 *
 * Convergence test: a sweep updates every d_j = sum_{i!=j} d_i P_ij / (1 - P_jj)
 * in place (sweeps alternate between forward and backward order: symmetric
 * Gauss-Seidel), then normalises. Every 128 sweeps an aggregation step (see aggregate()) moves probability between the
 * chain's nearly closed parts. Every 16 sweeps, and whenever no d_j moved
 * by more than 1e-12, it computes the residual |d P - d|_1 and stops when it is
 * below 1e-11; a chain that has not converged after 20000 sweeps is an error,
 * never a number. */
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
    if (nblocks < 2 || nblocks > SM_MAX_BLOCKS) return;
    c->block = cs_malloc(cs_array_size(c->count ? c->count : 1, sizeof *c->block));
    memcpy(c->block, block, c->count * sizeof *block);
    c->nblocks = nblocks;
}

/* One aggregation-disaggregation step (Koury, McAllister and Stewart; Stewart
 * §6.3): the chain between blocks, weighted by d within each block, is solved
 * exactly (Gaussian elimination), and d is rescaled block by block to it. It
 * moves probability between nearly uncoupled parts of a chain (a program's
 * phases: loops left once in a million instructions), which Gauss-Seidel
 * alone does at the rate of the rare transitions between them. */
static void aggregate(sm_chain *c, double *d, double *a, double *w) {
    uint32_t k = c->nblocks, n = c->count;
    memset(w, 0, k * sizeof *w);
    memset(a, 0, (size_t)k * k * sizeof *a);
    for (uint32_t i = 0; i < n; i++) w[c->block[i]] += d[i];
    for (uint32_t i = 0; i < n; i++) {
        uint32_t bi = c->block[i];
        for (uint32_t e = 0; e < c->out[i].n; e++)
            a[(size_t)c->block[c->out[i].e[e].to] * k + bi] += d[i] * c->out[i].e[e].p;
    }
    /* a[J][I] = sum over I's states of d_i P_ij into J, / w_I: the transposed
     * coupling matrix; solve (A - I) pi = 0 with sum(pi) = 1 */
    for (uint32_t bi = 0; bi < k; bi++)
        for (uint32_t bj = 0; bj < k; bj++) {
            double *x = &a[(size_t)bj * k + bi];
            *x = w[bi] > 0 ? *x / w[bi] : (bi == bj ? 1 : 0);
            if (bi == bj) *x -= 1;
        }
    double *rhs = w + k; /* scratch: w has 2k entries */
    for (uint32_t bi = 0; bi < k; bi++) {
        a[(size_t)(k - 1) * k + bi] = 1;
        rhs[bi] = bi == k - 1 ? 1 : 0;
    }
    for (uint32_t col = 0; col < k; col++) { /* Gaussian elimination, partial pivoting */
        uint32_t piv = col;
        for (uint32_t r = col + 1; r < k; r++)
            if (fabs(a[(size_t)r * k + col]) > fabs(a[(size_t)piv * k + col])) piv = r;
        if (fabs(a[(size_t)piv * k + col]) < 1e-300) return; /* singular: leave d as it is */
        if (piv != col) {
            for (uint32_t x = 0; x < k; x++) {
                double t = a[(size_t)col * k + x];
                a[(size_t)col * k + x] = a[(size_t)piv * k + x];
                a[(size_t)piv * k + x] = t;
            }
            double t = rhs[col];
            rhs[col] = rhs[piv];
            rhs[piv] = t;
        }
        for (uint32_t r = col + 1; r < k; r++) {
            double f = a[(size_t)r * k + col] / a[(size_t)col * k + col];
            if (f == 0) continue;
            for (uint32_t x = col; x < k; x++) a[(size_t)r * k + x] -= f * a[(size_t)col * k + x];
            rhs[r] -= f * rhs[col];
        }
    }
    for (uint32_t r = k; r-- > 0;) {
        double v = rhs[r];
        for (uint32_t x = r + 1; x < k; x++) v -= a[(size_t)r * k + x] * rhs[x];
        rhs[r] = v / a[(size_t)r * k + r];
    }
    double z = 0;
    for (uint32_t b = 0; b < k; b++) z += rhs[b] > 0 ? rhs[b] : 0;
    if (!(z > 0)) return;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = c->block[i];
        double pi = rhs[b] > 0 ? rhs[b] / z : 0;
        if (w[b] > 0) d[i] *= pi / w[b];
    }
}

/* The chain's own nearly closed parts: strongly connected components of its
 * transitions of probability >= SM_PHASE_STRONG (Tarjan, iteratively); in
 * reverse topological order, neighbours merged when there are more than
 * SM_MAX_BLOCKS (the exact solve between blocks costs SM_MAX_BLOCKS^3 / 3). */
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
    if (count > SM_MAX_BLOCKS) { /* neighbours in (reverse topological) order merged */
        for (uint32_t v = 0; v < n; v++) block[v] = (uint32_t)((uint64_t)block[v] * SM_MAX_BLOCKS / count);
        count = SM_MAX_BLOCKS;
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
    uint32_t it;
    double *prod = cs_malloc(cs_array_size(n, sizeof *prod));
    double *agg = NULL, *aggw = NULL;
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
        /* slow convergence: aggregate over the chain's nearly closed parts,
         * found when first needed, every 128 sweeps */
        if (it % 128 == 0) {
            if (!c->block && !c->blocks_tried) {
                uint32_t *b = cs_malloc(cs_array_size(n, sizeof *b));
                uint32_t nb = chain_blocks(c, b);
                sm_chain_set_blocks(c, b, nb);
                c->blocks_tried = true;
                free(b);
            }
            if (c->nblocks && !agg) {
                agg = cs_malloc(cs_array_size((size_t)c->nblocks * c->nblocks, sizeof *agg));
                aggw = cs_malloc(cs_array_size(2 * (size_t)c->nblocks, sizeof *aggw));
            }
            if (c->nblocks) aggregate(c, d, agg, aggw);
        }
        if (change / sum < 1e-12 || it % 16 == 0) {
            double res = 0;
            for (uint32_t j = 0; j < n; j++) {
                double acc = d[j] * self[j];
                for (uint32_t k = start[j]; k < start[j + 1]; k++) acc += d[from[k]] * pin[k];
                prod[j] = acc;
                res += fabs(acc - d[j]);
            }
            if (res < 1e-11) {
                ok = true;
                break;
            }
        }
    }
    free(prod);
    free(agg);
    free(aggw);
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
