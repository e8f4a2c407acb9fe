/* SimPoint 3 clustering: random projection, weighted k-means from seeded
 * random-sample initialisations, BIC, binary search on k, one point per
 * cluster (Hamerly, Perelman, Lau, Calder, "SimPoint 3.0", MoBS 2005).
 *
 * Notes (where this differs from the reference tool, and why):
 *  - Our own random numbers (splitmix64), so the same seed gives the same
 *    points here on every machine, but not the reference tool's points.
 *  - The projection matrix is a function of (seed, block, dimension), not a
 *    stored D x 15 matrix, so a .bb with millions of blocks costs no memory.
 *  - Initial centres are k distinct intervals (the reference samples with
 *    replacement); a cluster that empties keeps its centre instead of moving
 *    to the origin.
 *  - The search for k stops at n - 1 for n intervals (n >= 2). k = n puts each
 *    interval alone in its cluster: no distortion, a variance of 0 and a BIC of
 *    +inf in the reference's formula (log 0), so the threshold picks it over
 *    every other k. The reference, its centres sampled with replacement, almost
 *    never reaches it (n!/n^n of its starts: 3e-6 for 15 intervals); with distinct
 *    centres every start would, and every run of up to --max-k intervals got
 *    k = n, no reduction at all.
 *  - Intervals are weighted by their instructions (the reference's
 *    -fixedLength off): the last, shorter interval counts for what it is.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sampling_internal.h"

void simpoint_options_default(simpoint_options *o) {
    memset(o, 0, sizeof *o);
    o->max_k = 30;          /* SimPoint 3.0 README: -maxK 30 in every example */
    o->dims = 15;           /* SimPoint 3.0 §2: projection to 15 dimensions */
    o->seeds = 5;           /* SimPoint 3.2 -numInitSeeds default */
    o->iterations = 100;    /* SimPoint 3.2 -iters default */
    o->bic_threshold = 0.9; /* SimPoint 3.2 -bicThreshold default */
    o->seed = 493575226;    /* SimPoint 3.2's -seedkm default, for want of a better number */
}

bool simpoint_options_check(const simpoint_options *o, cs_error *err) {
    if (o->max_k < 1 || o->max_k > SIMPOINT_MAX_K) {
        cs_error_set(err, "max k %u out of range (1..%d)", o->max_k, SIMPOINT_MAX_K);
        return false;
    }
    if (o->fixed_k > SIMPOINT_MAX_K) {
        cs_error_set(err, "k %u out of range (1..%d)", o->fixed_k, SIMPOINT_MAX_K);
        return false;
    }
    if (o->dims < 1 || o->dims > SIMPOINT_MAX_DIMS) {
        cs_error_set(err, "projection dimensions %u out of range (1..%d)", o->dims, SIMPOINT_MAX_DIMS);
        return false;
    }
    if (o->seeds < 1 || o->seeds > 100) {
        cs_error_set(err, "initialisations per k %u out of range (1..100)", o->seeds);
        return false;
    }
    if (o->iterations < 1 || o->iterations > 100000) {
        cs_error_set(err, "k-means iterations %u out of range (1..100000)", o->iterations);
        return false;
    }
    if (!(o->bic_threshold >= 0 && o->bic_threshold <= 1)) {
        cs_error_set(err, "BIC threshold %g out of range (0..1)", o->bic_threshold);
        return false;
    }
    return true;
}

/* ---- random numbers ---- */

static uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t next_random(uint64_t *state) { return mix64(*state += 0x9e3779b97f4a7c15ull); }

/* The projection matrix entry for (block, dimension): uniform in [-1, 1), as
 * SimPoint's randomProjectionMatrix. */
static double projection(uint64_t seed, uint32_t block, uint32_t dim) {
    uint64_t h = mix64(seed ^ mix64(((uint64_t)block << 8 | dim) + 0x6a09e667f3bcc909ull));
    return (double)(h >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

void simpoint_project(const bbv_profile *p, uint32_t dims, uint64_t seed, double *out, double *weights) {
    size_t n = p->interval_count;
    memset(out, 0, cs_array_size(n * dims, sizeof *out));
    /* The matrix rows, cached while they fit in 32 MiB; otherwise computed as used. */
    double *rows = NULL;
    if ((uint64_t)p->blocks * dims <= (4u << 20)) {
        rows = cs_malloc(cs_array_size((size_t)p->blocks * dims + 1, sizeof *rows));
        for (uint32_t b = 0; b < p->blocks; b++)
            for (uint32_t d = 0; d < dims; d++) rows[(size_t)b * dims + d] = projection(seed, b + 1, d);
    }
    double total = (double)p->instructions;
    for (size_t i = 0; i < n; i++) {
        const bbv_interval *iv = &p->intervals[i];
        double *x = out + i * dims;
        double norm = (double)iv->instructions;
        for (uint32_t j = 0; j < iv->n; j++) {
            const bbv_entry *e = &p->entries[iv->first + j];
            double v = (double)e->count / norm;
            if (rows) {
                const double *r = rows + (size_t)(e->block - 1) * dims;
                for (uint32_t d = 0; d < dims; d++) x[d] += v * r[d];
            } else {
                for (uint32_t d = 0; d < dims; d++) x[d] += v * projection(seed, e->block, d);
            }
        }
        weights[i] = (double)iv->instructions / total;
    }
    free(rows);
}

/* ---- k-means ---- */

static double dist2(const double *a, const double *b, uint32_t dims) {
    double s = 0;
    for (uint32_t d = 0; d < dims; d++) {
        double t = a[d] - b[d];
        s += t * t;
    }
    return s;
}

/* Nearest centre of each point (ties to the lower label); true if any label changed. */
static bool assign(const double *data, size_t n, uint32_t dims, const double *centres, uint32_t k, uint32_t *labels,
                   double *dists) {
    bool changed = false;
    for (size_t i = 0; i < n; i++) {
        const double *x = data + i * dims;
        uint32_t best = 0;
        double bd = dist2(x, centres, dims);
        for (uint32_t c = 1; c < k; c++) {
            double dd = dist2(x, centres + (size_t)c * dims, dims);
            if (dd < bd) bd = dd, best = c;
        }
        if (labels[i] != best) changed = true;
        labels[i] = best;
        if (dists) dists[i] = bd;
    }
    return changed;
}

/* Weighted Lloyd iterations until no label changes. Returns the iterations done.
 * cluster_weight[c] gets the weight of cluster c. */
static uint32_t kmeans(const double *data, const double *w, size_t n, uint32_t dims, double *centres, uint32_t k,
                       uint32_t *labels, double *cluster_weight, uint32_t max_iterations) {
    for (size_t i = 0; i < n; i++) labels[i] = UINT32_MAX;
    double *sum = cs_malloc(cs_array_size((size_t)k * dims, sizeof *sum));
    uint32_t it = 0;
    while (it < max_iterations) {
        bool changed = assign(data, n, dims, centres, k, labels, NULL);
        it++;
        if (!changed) break;
        memset(sum, 0, (size_t)k * dims * sizeof *sum);
        memset(cluster_weight, 0, k * sizeof *cluster_weight);
        for (size_t i = 0; i < n; i++) {
            uint32_t c = labels[i];
            for (uint32_t d = 0; d < dims; d++) sum[(size_t)c * dims + d] += w[i] * data[i * dims + d];
            cluster_weight[c] += w[i];
        }
        for (uint32_t c = 0; c < k; c++)
            if (cluster_weight[c] > 0)
                for (uint32_t d = 0; d < dims; d++)
                    centres[(size_t)c * dims + d] = sum[(size_t)c * dims + d] / cluster_weight[c];
    }
    /* the final assignment and weights */
    assign(data, n, dims, centres, k, labels, NULL);
    memset(cluster_weight, 0, k * sizeof *cluster_weight);
    for (size_t i = 0; i < n; i++) cluster_weight[labels[i]] += w[i];
    free(sum);
    return it;
}

double simpoint_bic(const double *data, const double *weights, size_t n, uint32_t dims, const double *centres,
                    uint32_t k, const uint32_t *labels) {
    /* Pelleg and Moore's BIC as SimPoint 3.2 computes it (KMeans::bicScore):
     * spherical Gaussians with one shared variance, data weighted. */
    double total = 0, distortion = 0;
    double *cw = cs_calloc(k, sizeof *cw);
    for (size_t i = 0; i < n; i++) {
        total += weights[i];
        cw[labels[i]] += weights[i];
        distortion += weights[i] * dist2(data + i * dims, centres + (size_t)labels[i] * dims, dims);
    }
    double avg = total / (double)n;
    distortion /= avg;
    double sigma2 = distortion / ((double)dims * (double)n);
    if (sigma2 < 1e-300) sigma2 = 1e-300; /* a perfect fit: a huge but finite score */
    double likelihood = -(double)dims * (log(2.0 * M_PI * sigma2) + 1.0) / 2.0 - log(total);
    for (size_t i = 0; i < n; i++) {
        double wt = cw[labels[i]] / total;
        if (wt > 0) likelihood += log(wt) * weights[i] / total;
    }
    likelihood *= (double)n;
    double params = (double)(k - 1) + (double)k * dims + 1.0;
    free(cw);
    return likelihood - params / 2.0 * log((double)n);
}

/* One k: the best (highest BIC) of o->seeds initialisations. */
typedef struct k_run {
    uint32_t k;
    double bic, distortion;
    uint32_t iterations;
    double *centres;
} k_run;

static void run_k(const double *data, const double *w, size_t n, uint32_t dims, uint32_t k, const simpoint_options *o,
                  k_run *out) {
    double *centres = cs_malloc(cs_array_size((size_t)k * dims, sizeof *centres));
    uint32_t *labels = cs_malloc(cs_array_size(n, sizeof *labels));
    size_t *order = cs_malloc(cs_array_size(n, sizeof *order));
    double *cw = cs_malloc(cs_array_size(k, sizeof *cw));
    out->k = k;
    out->centres = NULL;
    for (uint32_t trial = 0; trial < o->seeds; trial++) {
        uint64_t state = mix64(o->seed ^ mix64((uint64_t)k << 32 | trial));
        /* k distinct intervals: a partial Fisher-Yates shuffle */
        for (size_t i = 0; i < n; i++) order[i] = i;
        for (uint32_t c = 0; c < k; c++) {
            size_t j = c + (size_t)(next_random(&state) % (n - c));
            size_t t = order[c];
            order[c] = order[j];
            order[j] = t;
            memcpy(centres + (size_t)c * dims, data + order[c] * dims, dims * sizeof *centres);
        }
        uint32_t it = kmeans(data, w, n, dims, centres, k, labels, cw, o->iterations);
        double bic = simpoint_bic(data, w, n, dims, centres, k, labels);
        if (!out->centres || bic > out->bic) {
            if (!out->centres) out->centres = cs_malloc(cs_array_size((size_t)k * dims, sizeof *centres));
            memcpy(out->centres, centres, (size_t)k * dims * sizeof *centres);
            out->bic = bic;
            out->iterations = it;
            double d = 0;
            for (size_t i = 0; i < n; i++) d += w[i] * dist2(data + i * dims, centres + (size_t)labels[i] * dims, dims);
            out->distortion = d;
        }
    }
    free(centres);
    free(labels);
    free(order);
    free(cw);
}

bool simpoint_cluster(const bbv_profile *p, const simpoint_options *o, simpoint_result *out, cs_error *err) {
    memset(out, 0, sizeof *out);
    if (!simpoint_options_check(o, err)) return false;
    size_t n = p->interval_count;
    if (n == 0 || p->instructions == 0) {
        cs_error_set(err, "%s: no intervals to cluster", p->source);
        return false;
    }
    uint32_t dims = o->dims;
    double *data = cs_malloc(cs_array_size(n * dims, sizeof *data));
    double *w = cs_malloc(cs_array_size(n, sizeof *w));
    simpoint_project(p, dims, mix64(o->seed + 1), data, w);

    uint32_t max_k = o->fixed_k ? o->fixed_k : o->max_k;
    if (max_k > n) max_k = (uint32_t)n;
    if (!o->fixed_k && n >= 2 && max_k > n - 1) max_k = (uint32_t)(n - 1); /* k = n: BIC +inf (see the notes) */
    k_run runs[64];
    size_t run_count = 0;
    uint32_t queue[64];
    size_t queued = 0;
    if (o->fixed_k) {
        queue[queued++] = max_k;
    } else {
        /* SimPoint 3's binary search (Simpoint::doClustering): 1, max, the middle,
         * then halve the window on the side the BIC says */
        queue[queued++] = 1;
        if (max_k > 1) queue[queued++] = max_k;
        if (max_k > 2) queue[queued++] = (max_k + 1) / 2;
    }
    uint32_t lo = 1, hi = max_k;
    size_t min_i = 0, max_i = 0;
    for (size_t q = 0; q < queued && run_count < 64; q++) {
        k_run *r = &runs[run_count];
        run_k(data, w, n, dims, queue[q], o, r);
        if (r->bic > runs[max_i].bic) max_i = run_count;
        if (r->bic < runs[min_i].bic) min_i = run_count;
        run_count++;
        if (o->fixed_k || run_count < 3) continue;
        double threshold = runs[min_i].bic + (runs[max_i].bic - runs[min_i].bic) * o->bic_threshold;
        uint32_t k = r->k, next;
        bool upper = max_i > min_i ? r->bic < threshold : false;
        if (upper) {
            next = (k + hi) / 2;
            lo = k;
        } else {
            next = (k + lo) / 2;
            hi = k;
        }
        if (hi - lo > 1 && queued < 64) queue[queued++] = next;
    }

    /* the smallest k whose BIC reaches the threshold (Simpoint::findBestRun) */
    size_t best = 0;
    if (run_count > 1) {
        double mn = runs[0].bic, mx = runs[0].bic;
        for (size_t i = 1; i < run_count; i++) {
            if (runs[i].bic < mn) mn = runs[i].bic;
            if (runs[i].bic > mx) mx = runs[i].bic;
        }
        double threshold = mn + (mx - mn) * o->bic_threshold;
        bool found = false;
        for (size_t i = 0; i < run_count; i++)
            if (runs[i].bic >= threshold && (!found || runs[i].k < runs[best].k)) best = i, found = true;
    }
    uint32_t k = runs[best].k;
    const double *centres = runs[best].centres;

    out->k = k;
    out->interval_count = n;
    out->labels = cs_malloc(cs_array_size(n, sizeof *out->labels));
    double *dist = cs_malloc(cs_array_size(n, sizeof *dist));
    for (size_t i = 0; i < n; i++) out->labels[i] = UINT32_MAX;
    assign(data, n, dims, centres, k, out->labels, dist);
    double *cw = cs_calloc(k, sizeof *cw);
    size_t *closest = cs_malloc(cs_array_size(k, sizeof *closest));
    for (uint32_t c = 0; c < k; c++) closest[c] = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = out->labels[i];
        cw[c] += w[i];
        if (closest[c] == SIZE_MAX || dist[i] < dist[closest[c]]) closest[c] = i;
    }
    out->points = cs_calloc(k, sizeof *out->points);
    uint64_t *starts = cs_malloc(cs_array_size(n, sizeof *starts));
    uint64_t at = 0;
    for (size_t i = 0; i < n; i++) starts[i] = at, at += p->intervals[i].instructions;
    double wsum = 0;
    for (uint32_t c = 0; c < k; c++) wsum += closest[c] == SIZE_MAX ? 0 : cw[c];
    for (uint32_t c = 0; c < k; c++) {
        if (closest[c] == SIZE_MAX) continue;
        simpoint_point *pt = &out->points[out->point_count++];
        pt->interval = closest[c];
        pt->cluster = c;
        pt->weight = cw[c] / wsum;
        pt->start = starts[closest[c]];
        pt->length = p->intervals[closest[c]].instructions;
    }
    for (size_t i = 0; i < run_count; i++) {
        out->trials[i] = (simpoint_trial){runs[i].k, runs[i].bic, runs[i].distortion, runs[i].iterations};
        free(runs[i].centres);
    }
    out->trial_count = run_count;
    free(starts);
    free(cw);
    free(closest);
    free(dist);
    free(data);
    free(w);
    return true;
}

void simpoint_result_free(simpoint_result *r) {
    if (!r) return;
    free(r->points);
    free(r->labels);
    memset(r, 0, sizeof *r);
}
