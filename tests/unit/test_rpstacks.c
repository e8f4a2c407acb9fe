/* RpStacks: the similarity and the reduction on hand-made stacks (§IV-E), the
 * .rps file, the what-if keys, and the dependence graph against re-simulation
 * on streams whose timing follows from the configuration. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "array_source.h"
#include "rpstacks/rpstacks.h"
#include "rpstacks/rpstacks_internal.h"
#include "runner/runner.h"

/* ---- similarity and reduction ---- */

static void test_similarity(void **state) {
    (void)state;
    double a[2] = {10, 0}, b[2] = {5, 5}, c[2] = {0, 3};
    /* normalised by the larger of each dimension: (1, 0) and (0.5, 1): cos = 0.5 / sqrt(1.25) */
    assert_true(fabs(rps_similarity_masked(a, b, 3) - 0.5 / sqrt(1.25)) < 1e-12);
    assert_true(fabs(rps_similarity_masked(a, a, 3) - 1) < 1e-12);
    assert_true(fabs(rps_similarity_masked(a, c, 3)) < 1e-12);
    /* symmetric, and not the plain cosine (which is 0.707 here): a small event counts as much as a large one */
    assert_true(fabs(rps_similarity_masked(b, a, 3) - rps_similarity_masked(a, b, 3)) < 1e-12);
    double a2[2] = {20, 0}; /* (1, 0) and (0.25, 1) */
    assert_true(fabs(rps_similarity_masked(a2, b, 3) - 0.25 / sqrt(1.0625)) < 1e-12);
}

static void test_reduce(void **state) {
    (void)state;
    rps_options o;
    rps_options_default(&o);
    /* A; B dominated by A; C similar to A (0.98); E unique (only it has event 2) and similar to A (0.79) */
    double cand[4][3] = {{10, 5, 0}, {9, 5, 0}, {8, 6, 0}, {9, 4.5, 0.5}};
    double out[4 * 3];
    uint32_t m = rps_reduce_vectors(&o, 3, &cand[0][0], 4, out);
    assert_int_equal(m, 2);
    assert_true(out[0] == 10 && out[1] == 5 && out[2] == 0);
    assert_true(out[3] == 9 && out[4] == 4.5 && out[5] == 0.5);
    /* by combination E keeps its own combination too */
    o.unique = RPS_UNIQUE_COMBINATION;
    assert_int_equal(rps_reduce_vectors(&o, 3, &cand[0][0], 4, out), 2);
    /* without uniqueness E merges into A */
    o.unique = RPS_UNIQUE_OFF;
    m = rps_reduce_vectors(&o, 3, &cand[0][0], 4, out);
    assert_int_equal(m, 1);
    /* threshold 1: only identical directions merge, so C stays (B is still dominated) */
    o.similarity = 1.0;
    m = rps_reduce_vectors(&o, 3, &cand[0][0], 4, out);
    assert_int_equal(m, 3);
}

/* The per-node cap (max_stacks) keeps, in turn, the longest path not yet kept at the
 * baseline, with every event at 0 and with every event at max_scale (4). Four paths none of
 * which dominates another in that design space and none merging (similarity 1), largest
 * first at the baseline: A (100, 10, 0) 110, B (105, 0, 0) 105, D (90, 2, 10) 102, C (60, 0,
 * 25) 85. With every event at 0 B is the longest (105), with every event at 4× C (160; A
 * 140, D 138). A cap of 3 keeps A, B and C (the three largest at the baseline would be A, B,
 * D: C, the path of a machine whose events got slower, would be lost). */
static void test_reduce_cap_keeps_each_corner(void **state) {
    (void)state;
    rps_options o;
    rps_options_default(&o);
    o.similarity = 1.0;
    o.unique = RPS_UNIQUE_OFF;
    assert_true(o.max_scale == 4);
    double cand[4][3] = {{60, 0, 25}, {100, 10, 0}, {90, 2, 10}, {105, 0, 0}}; /* C, A, D, B */
    double out[4 * 3];
    const double a[3] = {100, 10, 0}, b[3] = {105, 0, 0}, c[3] = {60, 0, 25}, d[3] = {90, 2, 10};
    o.max_stacks = 4; /* no cap reached: all four, largest first */
    assert_int_equal(rps_reduce_vectors(&o, 3, &cand[0][0], 4, out), 4);
    assert_memory_equal(out, a, sizeof a);
    assert_memory_equal(out + 3, b, sizeof b);
    assert_memory_equal(out + 6, d, sizeof d);
    assert_memory_equal(out + 9, c, sizeof c);
    o.max_stacks = 3;
    assert_int_equal(rps_reduce_vectors(&o, 3, &cand[0][0], 4, out), 3);
    assert_memory_equal(out, a, sizeof a);
    assert_memory_equal(out + 3, b, sizeof b);
    assert_memory_equal(out + 6, c, sizeof c);
    o.max_stacks = 2;
    assert_int_equal(rps_reduce_vectors(&o, 3, &cand[0][0], 4, out), 2);
    assert_memory_equal(out, a, sizeof a);
    assert_memory_equal(out + 3, b, sizeof b);
    o.max_stacks = 1; /* the baseline's longest alone: CP1 at this node */
    assert_int_equal(rps_reduce_vectors(&o, 3, &cand[0][0], 4, out), 1);
    assert_memory_equal(out, a, sizeof a);
    /* without a design space (max-scale 0) every turn is the baseline's: A, B, D */
    o.max_scale = 0;
    o.max_stacks = 3;
    assert_int_equal(rps_reduce_vectors(&o, 3, &cand[0][0], 4, out), 3);
    assert_memory_equal(out + 6, d, sizeof d);
}

/* Uniqueness by combination (§III-C: "keep every path with unique event combinations").
 * A has events 1 and 2, B and B2 only event 1, D events 1 and 2 with a large event 2 (0.44
 * similar to A): no path has an event of its own. B is not dominated (6 > 5 in event 1:
 * longer than A once event 2 is cheap) and is 0.785 similar to A. B2 has B's combination and
 * merges into it; B stays, the representative of its combination. Uniqueness by event
 * (§IV-E, the default) keeps no path here as unique and merges B and B2 into A. */
static void test_reduce_keeps_each_combination(void **state) {
    (void)state;
    rps_options o;
    rps_options_default(&o);
    double cand[4][3] = {{10, 5, 1}, {9, 6, 0}, {8.5, 6.5, 0}, {2, 1, 4}};
    double out[4 * 3];
    assert_true(fabs(rps_similarity_masked(cand[0], cand[1], 7) - 0.785) < 0.001);
    assert_true(rps_similarity_masked(cand[1], cand[2], 3) >= o.similarity);
    assert_true(rps_similarity_masked(cand[0], cand[3], 7) < o.similarity);
    o.unique = RPS_UNIQUE_COMBINATION;
    uint32_t m = rps_reduce_vectors(&o, 3, &cand[0][0], 4, out);
    assert_int_equal(m, 3);
    assert_true(out[0] == 10 && out[1] == 5 && out[2] == 1);
    assert_true(out[3] == 9 && out[4] == 6 && out[5] == 0);
    assert_true(out[6] == 2 && out[7] == 1 && out[8] == 4);
    /* by event (the default) B and B2 merge into A: A and D remain */
    o.unique = RPS_UNIQUE_EVENT;
    m = rps_reduce_vectors(&o, 3, &cand[0][0], 4, out);
    assert_int_equal(m, 2);
    assert_true(out[0] == 10 && out[1] == 5 && out[2] == 1);
    assert_true(out[3] == 2 && out[4] == 1 && out[5] == 4);
    /* without uniqueness likewise */
    o.unique = RPS_UNIQUE_OFF;
    assert_int_equal(rps_reduce_vectors(&o, 3, &cand[0][0], 4, out), 2);
}

/* The reduction as §III-C / §IV-E state it, written plainly (no precomputed
 * norms, no bit masks): the optimised reduce() in graph.c must make the same
 * decisions, to the bit. Sort by total, largest first (ties in input order);
 * drop a path when a kept one is never smaller within the design space (every
 * event scaled by 0 … max_scale; max_scale 0: anywhere, i.e. it has every event
 * the path has and is no smaller in any dimension); uniqueness by event: a path
 * alone in having an event is kept and is no merge target; by combination: a path
 * merges only into a kept path of its event combination; every other path merges
 * into the first kept target at least `similarity` similar; max_stacks survive,
 * one in turn from each point of the design space's diagonal (below). */
static uint32_t reference_reduce(const rps_options *o, int D, const double *cand, const uint16_t *src, uint32_t n,
                                 double *out) {
    uint32_t order[256], kept = 0, m = 0;
    bool unique[256] = {0}, target_unique[256] = {0};
    double total[256], hi[256], best_lo = -INFINITY;
    for (uint32_t k = 0; k < n; k++) { /* with sources: the length each can reach, each is sure to reach */
        double lo = cand[k * D];
        hi[k] = cand[k * D];
        for (int d = 1; d < D; d++) {
            lo += cand[k * D + d] > 0 ? 0 : o->max_scale * cand[k * D + d];
            hi[k] += cand[k * D + d] > 0 ? o->max_scale * cand[k * D + d] : 0;
        }
        best_lo = lo > best_lo ? lo : best_lo;
    }
    for (uint32_t k = 0; k < n; k++) {
        total[k] = 0;
        for (int d = 0; d < D; d++) total[k] += cand[k * D + d];
        uint32_t at = k;
        while (at > 0 && total[order[at - 1]] < total[k]) order[at] = order[at - 1], at--;
        order[at] = k;
    }
    for (uint32_t k = 0; k < n; k++) {
        const double *c = &cand[order[k] * D];
        /* with sources, a path that cannot reach the length another is sure to have is dropped
         * even when that one is of its own source (without, a dominating path drops it) */
        if (src && o->max_scale > 0 && hi[order[k]] < best_lo - 1e-6) continue;
        bool dominated = false;
        for (uint32_t q = 0; q < kept && !dominated; q++) {
            if (src && src[order[q]] == src[order[k]]) continue; /* one source: not compared */
            const double *p = &cand[order[q] * D];
            bool all = true;
            if (o->max_scale > 0) {
                /* never below c with every event scaled by 0 … max_scale: at the worst
                 * corner, p0 - c0 + max_scale · Σ min(0, p_d - c_d) >= 0 (summed in order) */
                double margin = p[0] - c[0] + 1e-9;
                for (int d = 1; d < D; d++)
                    if (p[d] < c[d]) margin += o->max_scale * (p[d] - c[d]);
                all = margin >= 0;
            } else {
                for (int d = 0; d < D; d++) {
                    if (c[d] > 1e-9 && !(p[d] > 1e-9)) all = false; /* c has an event p lacks */
                    if (p[d] < c[d] - 1e-9) all = false;
                }
            }
            dominated = all;
        }
        if (!dominated) order[kept++] = order[k];
    }
    for (int d = 0; d < D && o->unique == RPS_UNIQUE_EVENT && kept > 1; d++) {
        uint32_t holders = 0, who = 0;
        for (uint32_t q = 0; q < kept; q++)
            if (fabs(cand[order[q] * D + d]) > 1e-9) holders++, who = q;
        if (holders == 1) unique[who] = true;
    }
    for (uint32_t q = 0; q < kept; q++) {
        const double *c = &cand[order[q] * D];
        bool merged = false;
        for (uint32_t r = 0; r < m && !merged && !unique[q]; r++) {
            if (target_unique[r]) continue;
            const double *p = &cand[order[r] * D];
            uint32_t mask = 0;
            bool same = true;
            for (int d = 0; d < D; d++) {
                mask |= (uint32_t)(fabs(p[d]) > 1e-9 || fabs(c[d]) > 1e-9) << d;
                if ((fabs(p[d]) > 1e-9) != (fabs(c[d]) > 1e-9)) same = false;
            }
            if (o->unique == RPS_UNIQUE_COMBINATION && !same) continue;
            merged = rps_similarity_masked(p, c, mask) >= o->similarity;
        }
        if (merged) continue;
        order[m] = order[q];
        target_unique[m] = unique[q];
        m++;
    }
    if (m > o->max_stacks) { /* the cap: in turn the longest not yet taken at the baseline, with
                                 * every event at 0 and with every event at max_scale (0: the
                                 * baseline each turn); the first of equals; kept in their order */
        bool taken[256] = {0};
        for (uint32_t k = 0; k < o->max_stacks; k++) {
            int turn = o->max_scale > 0 ? (int)(k % 3) : 0;
            uint32_t pick = UINT32_MAX;
            double best = -INFINITY;
            for (uint32_t r = 0; r < m; r++) {
                const double *c = &cand[order[r] * D];
                double sum = c[0];
                for (int d = 1; d < D; d++) sum += c[d];
                double at = turn == 0 ? -(double)r /* the first not taken */
                    : turn == 1       ? c[0]
                                      : c[0] + o->max_scale * (sum - c[0]);
                if (!taken[r] && (pick == UINT32_MAX || at > best)) pick = r, best = at;
            }
            taken[pick] = true;
        }
        uint32_t w = 0;
        for (uint32_t r = 0; r < m; r++)
            if (taken[r]) order[w++] = order[r];
        m = w;
    }
    for (uint32_t r = 0; r < m; r++) memcpy(&out[r * D], &cand[order[r] * D], D * sizeof *out);
    return m;
}

/* Candidates as the traversal makes them: a few reduced source sets, each
 * shifted by an edge's weight, with duplicates, zeros, tiny values and ties;
 * negative: some events below 0 too (the bounds and the dominance test treat
 * the two signs apart). */
static uint32_t synthetic_candidates(unsigned *seed, int D, double *cand, uint16_t *from, bool negative) {
    uint32_t n = 0;
    int sources = 1 + rand_r(seed) % 4;
    for (int src = 0; src < sources; src++) {
        double w[32];
        for (int d = 0; d < D; d++) w[d] = rand_r(seed) % 3 ? 0 : (double)(rand_r(seed) % 40) / 4;
        int size = 1 + rand_r(seed) % 20;
        for (int k = 0; k < size && n < 200; k++, n++) {
            double *c = &cand[n * D];
            from[n] = (uint16_t)src;
            if (k > 0 && rand_r(seed) % 8 == 0) { /* a duplicate of the previous path */
                memcpy(c, c - D, D * sizeof *c);
                continue;
            }
            for (int d = 0; d < D; d++) {
                int kind = rand_r(seed) % 10;
                double x = kind < 4 ? 0 : kind == 4 ? 1e-10 : (double)(rand_r(seed) % 1000) / 8;
                if (k > 0 && kind == 5) x = c[(int)d - D] + 5e-9 * (rand_r(seed) % 3); /* near the tolerance */
                c[d] = x + w[d];
                if (negative && d > 0 && rand_r(seed) % 6 == 0) c[d] = -c[d];
            }
        }
    }
    return n;
}

/* 3000 cases for one uniqueness rule (every third without uniqueness); with sources: the
 * candidates of one synthetic source set are not compared for dominance, as in the traversal
 * (reduce() files the kept paths per source) */
static void reduce_matches_reference(rps_unique rule, bool with_sources, bool negative) {
    static double cand[200 * 32], got[200 * 32], want[200 * 32];
    uint16_t from[200];
    unsigned seed = 14;
    const double thresholds[] = {0.0, 0.5, 0.7, 0.9, 1.0};
    uint32_t total_kept = 0, total_cand = 0;
    for (int trial = 0; trial < 3000; trial++) {
        rps_options o;
        rps_options_default(&o);
        o.similarity = thresholds[trial % 5];
        o.unique = trial % 3 != 0 ? rule : RPS_UNIQUE_OFF;
        o.max_stacks = trial % 7 == 0 ? 1 + (uint32_t)(trial / 7 % 6) : 64; /* caps of 1 … 6 */
        const double scales[] = {0, 1, 2, 4, 10};
        o.max_scale = scales[trial % 11 % 5];
        int D = 1 + rand_r(&seed) % 16;
        uint32_t n = synthetic_candidates(&seed, D, cand, from, negative);
        uint32_t m =
            with_sources ? rps_reduce_sources(&o, D, cand, from, n, got) : rps_reduce_vectors(&o, D, cand, n, got);
        uint32_t m_ref = reference_reduce(&o, D, cand, with_sources ? from : NULL, n, want);
        assert_int_equal(m, m_ref);
        assert_memory_equal(got, want, (size_t)m * D * sizeof *got);
        total_kept += m, total_cand += n;
    }
    /* the cases are not trivial: the reduction removed some and kept some */
    assert_true(total_kept > total_cand / 20 && total_kept < total_cand / 2);
}

static void test_reduce_matches_reference_by_event(void **state) {
    (void)state;
    reduce_matches_reference(RPS_UNIQUE_EVENT, false, false);
    reduce_matches_reference(RPS_UNIQUE_EVENT, true, false);
}

static void test_reduce_matches_reference_by_combination(void **state) {
    (void)state;
    reduce_matches_reference(RPS_UNIQUE_COMBINATION, false, false);
    reduce_matches_reference(RPS_UNIQUE_COMBINATION, true, false);
}

/* events below 0 (issue 14: the bounds and the pair test skip the terms a floor of 0 zeroes,
 * which depends on each difference's sign) */
static void test_reduce_matches_reference_negative(void **state) {
    (void)state;
    reduce_matches_reference(RPS_UNIQUE_EVENT, true, true);
    reduce_matches_reference(RPS_UNIQUE_COMBINATION, true, true);
}

/* ---- the file ---- */

static void fill_result(rps_result *r) {
    memset(r, 0, sizeof *r);
    rps_options_default(&r->opt);
    uarch_config cfg;
    uarch_config_default(&cfg);
    for (int d = 0; d < RPS_DIMS; d++) r->base_latency[d] = rps_dim_latency(&cfg, d);
    r->instructions = r->uops = 1000;
    r->cycles = 1500;
    r->graph_cycles = 1500;
    snprintf(r->origin.config, sizeof r->origin.config, "ooo4");
    r->origin.argc = 2;
    r->origin.argv[0] = cs_strdup("/bin/prog");
    r->origin.argv[1] = cs_strdup("42");
    r->origin.seed = 5; /* the guest options (version 4) */
    r->origin.guest_memory = 64ull << 20;
    r->origin.strict_syscalls = true;
    snprintf(r->origin.allow_write, sizeof r->origin.allow_write, "/tmp/out");
    r->origin.stdin_known = true; /* what it read of a file stdin (version 5) */
    r->origin.stdin_bytes = 1251;
    for (int k = 0; k < CS_SHA256_BYTES; k++) r->origin.stdin_sha256[k] = (uint8_t)(3 * k + 1);
    r->segments = 2;
    r->seg_first = cs_calloc(3, sizeof *r->seg_first);
    r->seg_first[1] = 2;
    r->seg_first[2] = 3;
    r->stack_count = 3;
    r->stacks = cs_calloc(3 * RPS_DIMS, sizeof(double));
    /* segment 0: 400 base + 300 memory-data, or 300 base + 450 fp-add; segment 1: 750 base */
    r->stacks[0 * RPS_DIMS + RPS_BASE] = 400;
    r->stacks[0 * RPS_DIMS + RPS_MEM_DATA] = 300;
    r->stacks[1 * RPS_DIMS + RPS_BASE] = 300;
    r->stacks[1 * RPS_DIMS + RPS_CLASS0 + OPC_FP_ADD] = 450;
    r->stacks[2 * RPS_DIMS + RPS_BASE] = 750;
    r->cp1[RPS_BASE] = 1050;
    r->cp1[RPS_CLASS0 + OPC_FP_ADD] = 450;
    r->fmt[RPS_BASE] = 1200;
    r->fmt[RPS_MEM_DATA] = 300;
}

static void test_predict(void **state) {
    (void)state;
    rps_result r;
    fill_result(&r);
    uint32_t lat[RPS_DIMS];
    double scale[RPS_DIMS];
    cs_error err;
    memcpy(lat, r.base_latency, sizeof lat);
    assert_true(rps_scales(&r, lat, scale, &err));
    assert_true(fabs(rps_predict(&r, scale) - 1500) < 1e-9);
    /* fp-add 6 → 2: the memory path becomes the longest in segment 0 (700 > 450) */
    assert_true(rps_set_latency(&r, lat, "latency.fp-add=2", &err));
    assert_true(rps_scales(&r, lat, scale, &err));
    assert_true(fabs(rps_predict(&r, scale) - (700 + 750)) < 1e-9);
    assert_true(fabs(rps_predict_cp1(&r, scale) - (1050 + 150)) < 1e-9); /* CP1 misses the hidden path */
    assert_true(fabs(rps_predict_fmt(&r, scale) - 1500) < 1e-9);
    /* structures and unknown keys are refused, naming them */
    assert_false(rps_set_latency(&r, lat, "core.rob_size=64", &err));
    assert_non_null(strstr(err.msg, "core.rob_size is a structure"));
    assert_false(rps_set_latency(&r, lat, "latency.nope=3", &err));
    assert_non_null(strstr(err.msg, "latency.nope: not an event the stacks carry"));
    assert_false(rps_set_latency(&r, lat, "l1d.latency=x", &err));
    rps_result_free(&r);
}

static void test_file(void **state) {
    (void)state;
    rps_result r, back;
    fill_result(&r);
    /* a directory of its own: a pid is not unique across PID namespaces sharing /tmp */
    char dir[] = "/tmp/test_rpstacks_XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/file.rps", dir);
    cs_error err;
    assert_true(rps_write(path, &r, &err));
    assert_true(rps_read(path, &back, &err));
    assert_int_equal(back.segments, 2);
    assert_int_equal(back.stack_count, 3);
    assert_memory_equal(back.stacks, r.stacks, 3 * RPS_DIMS * sizeof(double));
    assert_memory_equal(back.cp1, r.cp1, sizeof r.cp1);
    assert_string_equal(back.origin.argv[1], "42");
    assert_int_equal(back.cycles, 1500);
    /* the guest options come back, so that whatif --verify runs the same program */
    assert_int_equal(back.origin.seed, 5);
    assert_int_equal(back.origin.guest_memory, 64ull << 20);
    assert_true(back.origin.strict_syscalls);
    assert_false(back.origin.host_time);
    assert_string_equal(back.origin.allow_write, "/tmp/out");
    /* and what the program read of its stdin, which whatif --verify checks the caller's against */
    assert_true(back.origin.stdin_known);
    assert_int_equal(back.origin.stdin_bytes, 1251);
    assert_memory_equal(back.origin.stdin_sha256, r.origin.stdin_sha256, CS_SHA256_BYTES);
    rps_result_free(&back);
    uint8_t *data;
    size_t size;
    assert_true(cs_read_file(path, &data, &size, &err));
    /* a flipped byte anywhere: the checksum */
    data[size / 2] ^= 1;
    assert_false(rps_parse(data, size, &back, &err));
    assert_non_null(strstr(err.msg, "checksum"));
    data[size / 2] ^= 1;
    /* truncated */
    assert_false(rps_parse(data, size - 9, &back, &err));
    /* another version */
    uint8_t version = data[8];
    data[8] = 9;
    assert_false(rps_parse(data, size, &back, &err));
    assert_non_null(strstr(err.msg, "version 9"));
    data[8] = version;
    assert_true(rps_parse(data, size, &back, &err));
    rps_result_free(&back);
    free(data);
    /* a trace reads no stdin: one recorded with one is refused */
    r.origin.is_trace = true;
    assert_true(rps_write(path, &r, &err));
    assert_false(rps_read(path, &back, &err));
    assert_non_null(strstr(err.msg, "malformed"));
    r.origin.is_trace = false;
    unlink(path);
    rmdir(dir);
    rps_result_free(&r);
}

/* The uniqueness rule in the file's byte: 0 off, 1 by event, 2 by combination; another value
 * (with a valid checksum: written so) is refused, the error naming the file. */
static void test_file_uniqueness(void **state) {
    (void)state;
    rps_result r, back;
    fill_result(&r);
    /* a directory of its own: a pid is not unique across PID namespaces sharing /tmp */
    char dir[] = "/tmp/test_rpstacks_XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/unique.rps", dir);
    cs_error err;
    const rps_unique rules[] = {RPS_UNIQUE_OFF, RPS_UNIQUE_EVENT, RPS_UNIQUE_COMBINATION};
    for (int k = 0; k < 3; k++) {
        r.opt.unique = rules[k];
        assert_true(rps_write(path, &r, &err));
        assert_true(rps_read(path, &back, &err));
        assert_int_equal(back.opt.unique, rules[k]);
        rps_result_free(&back);
    }
    r.opt.unique = (rps_unique)3;
    assert_true(rps_write(path, &r, &err));
    assert_false(rps_read(path, &back, &err));
    assert_non_null(strstr(err.msg, path));
    assert_non_null(strstr(err.msg, "uniqueness byte 3"));
    unlink(path);
    rmdir(dir);
    rps_result_free(&r);
}

/* ---- the graph against re-simulation ---- */

enum { N = 6000 };

/* A chain of dependent fp-adds, with independent integer work and loads beside it. */
static uop *fp_chain_stream(void) {
    uop *u = cs_calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) {
        switch (i % 4) {
        case 0: u[i] = make_uop(i % 512, OPC_FP_ADD, 40, 40, 41); break;
        case 1: u[i] = make_uop(i % 512, OPC_INT_ALU, 5, 6, 0); break;
        case 2:
            u[i] = make_uop(i % 512, OPC_LOAD, 7, 8, 0);
            u[i].flags |= UOP_MEM_READ;
            u[i].mem_addr = 0x100000 + 8 * (i % 64);
            u[i].mem_size = 8;
            break;
        default: u[i] = make_uop(i % 512, OPC_INT_ALU, 9, 5, 7); break;
        }
    }
    return u;
}

/* Loads to far lines (memory), each address from the load before: a pointer chase, plus FP work. */
static uop *chase_stream(void) {
    uop *u = cs_calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) {
        if (i % 3 == 0) {
            u[i] = make_uop(i % 512, OPC_LOAD, 10, 10, 0);
            u[i].flags |= UOP_MEM_READ;
            u[i].mem_addr = 0x1000000 + 4096 * (uint64_t)i;
            u[i].mem_size = 8;
        } else {
            u[i] = make_uop(i % 512, OPC_FP_MUL, 41, 41, 42);
        }
    }
    return u;
}

/* Times the first n µops of u on the default machine changed by `sets` (NULL-terminated
 * `key=value` settings; NULL: none) under `analyses`; keeps the result in *keep if asked. */
static double simulate_sets_n(const uop *u, size_t n, const char *const *sets, const char *analyses, run_result *keep) {
    uarch_config cfg;
    uarch_config_default(&cfg);
    cs_error err;
    for (int k = 0; sets && sets[k]; k++)
        if (!uarch_config_set(&cfg, sets[k], &err)) fail_msg("%s: %s", sets[k], err.msg);
    analysis_list l;
    assert_true(analysis_list_parse(&l, analyses, &err));
    run_spec spec = {&cfg, {0, 0, NULL}, &l, "stream"};
    array_source src = array_source_borrow(u, n);
    run_result r;
    assert_true(runner_run(&spec, &src.base, &r, &err));
    assert_true(r.ok);
    double cycles = (double)r.stats.cycles;
    if (keep) *keep = r;
    else run_result_free(&r);
    analysis_list_free(&l);
    return cycles;
}

static double simulate_n(const uop *u, size_t n, const char *set, const char *analyses, run_result *keep) {
    const char *sets[2] = {set, NULL};
    return simulate_sets_n(u, n, sets, analyses, keep);
}

static double simulate(const uop *u, const char *set, const char *analyses, run_result *keep) {
    return simulate_n(u, N, set, analyses, keep);
}

static void check_stream(uop *u, const char *key, int dim, uint32_t new_latency) {
    run_result base;
    double cycles = simulate(u, NULL, "rpstacks:segment=1000:threads=2:keep=yes", &base);
    void *a = run_result_analysis(&base, "rpstacks");
    const rps_result *r = rps_analysis_result(a);
    assert_non_null(r);
    /* Figure 10 at the baseline: the graph reproduces the simulated cycles */
    print_message("simulated %.0f, graph %.0f, violations %llu\n", cycles, r->graph_cycles,
                  (unsigned long long)r->violations);
    assert_true(fabs(r->graph_cycles - cycles) < 0.5);
    assert_int_equal(r->violations, 0);
    /* the changed latency: graph and stacks against the model re-run */
    char set[64];
    snprintf(set, sizeof set, "%s=%u", key, new_latency);
    double truth = simulate(u, set, "none", NULL);
    double scale[RPS_DIMS];
    for (int d = 0; d < RPS_DIMS; d++) scale[d] = 1;
    scale[dim] = (double)new_latency / r->base_latency[dim];
    double graph = rps_graph_cycles(rps_analysis_trace(a), 1000, scale);
    double pred = rps_predict(r, scale);
    print_message("%s: simulated %.0f → %.0f; graph %.0f (%+.2f%%), RpStacks %.0f (%+.2f%%), CP1 %.0f, FMT %.0f\n", set,
                  cycles, truth, graph, 100 * (graph - truth) / truth, pred, 100 * (pred - truth) / truth,
                  rps_predict_cp1(r, scale), rps_predict_fmt(r, scale));
    assert_true(fabs(graph - truth) / truth < 0.02);
    assert_true(fabs(pred - truth) / truth < 0.03);
    assert_true(fabs(pred - cycles) > 0.1 * cycles); /* the change matters: the test is not vacuous */
    run_result_free(&base);
    free(u);
}

static void test_graph_fp_chain(void **state) {
    (void)state;
    check_stream(fp_chain_stream(), "latency.fp-add", RPS_CLASS0 + OPC_FP_ADD, 3);
}

static void test_graph_chase(void **state) {
    (void)state;
    check_stream(chase_stream(), "memory.latency", RPS_MEM_DATA, 40);
}

/* The store buffer's drain nodes (issue 14): stores to a new line each (misses to memory) among
 * independent work, with a store buffer of 8 and 4 miss registers: the buffer fills, commit
 * waits for its oldest store's write, whose request waits for a miss register. The drain's
 * edges (room, fill, order, its commit, the miss register that a fill's arrival frees) carry
 * memory's latency, so a memory what-if follows re-simulation; without them those stalls were
 * residual base: memory.latency 133 -> 33 was predicted +185% above re-simulation, now exact). */
static double simulate_sets(const uop *u, const char *const *sets, const char *analyses, run_result *keep) {
    return simulate_sets_n(u, N, sets, analyses, keep);
}

/* Every fourth µop a store to a new line (a miss to memory), the rest independent adds. */
static uop *store_stream(void) {
    uop *u = cs_calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) {
        if (i % 4 == 0) {
            u[i] = make_uop(i % 512, OPC_STORE, 0, 10, 11);
            u[i].flags |= UOP_MEM_WRITE;
            u[i].mem_addr = 0x1000000 + 4096 * (uint64_t)i;
            u[i].mem_size = 8;
        } else {
            u[i] = make_uop(i % 512, OPC_INT_ALU, (uint8_t)(1 + i % 8), 12, 0);
        }
    }
    return u;
}

/* The store-buffer tests' what-if: the run of `base_sets` (NULL-terminated, at most 4) again
 * with memory.latency = `latency` (the truth), against the graph's longest path and RpStacks'
 * prediction from the baseline's analysis `a` with memory scaled alike; printed. */
typedef struct memory_whatif {
    double truth, graph, pred;
} memory_whatif;

static memory_whatif memory_latency_whatif(const uop *u, const char *const *base_sets, void *a, double cycles,
                                           uint32_t latency) {
    const rps_result *r = rps_analysis_result(a);
    uint32_t mem = r->base_latency[RPS_MEM_DATA];
    char set[64];
    snprintf(set, sizeof set, "memory.latency=%u", latency);
    const char *sets[6];
    int n = 0;
    while (n < 4 && base_sets[n]) sets[n] = base_sets[n], n++;
    sets[n] = set, sets[n + 1] = NULL;
    memory_whatif w;
    w.truth = simulate_sets(u, sets, "none", NULL);
    double scale[RPS_DIMS];
    for (int d = 0; d < RPS_DIMS; d++) scale[d] = 1;
    scale[RPS_MEM_DATA] = scale[RPS_MEM_INSTR] = (double)latency / mem;
    w.graph = rps_graph_cycles(rps_analysis_trace(a), 1000, scale);
    w.pred = rps_predict(r, scale);
    print_message("%s: simulated %.0f -> %.0f; graph %.0f (%+.2f%%), RpStacks %.0f (%+.2f%%), CP1 %.0f\n", set, cycles,
                  w.truth, w.graph, 100 * (w.graph - w.truth) / w.truth, w.pred, 100 * (w.pred - w.truth) / w.truth,
                  rps_predict_cp1(r, scale));
    return w;
}

static void test_graph_store_drain(void **state) {
    (void)state;
    uop *u = store_stream();
    const char *base_sets[] = {"core.store_buffer=8", "l1d.mshrs=4", NULL};
    run_result base;
    double cycles = simulate_sets(u, base_sets, "rpstacks:segment=1000:threads=2:keep=yes", &base);
    void *a = run_result_analysis(&base, "rpstacks");
    const rps_result *r = rps_analysis_result(a);
    assert_non_null(r);
    print_message("simulated %.0f (store buffer full %llu cycles), graph %.0f, violations %llu\n", cycles,
                  (unsigned long long)base.stats.sb_full_cycles, r->graph_cycles, (unsigned long long)r->violations);
    assert_true(base.stats.sb_full_cycles > cycles / 2); /* the buffer is what the run waits for */
    assert_true(fabs(r->graph_cycles - cycles) < 0.5);
    assert_int_equal(r->violations, 0);
    uint32_t mem = r->base_latency[RPS_MEM_DATA];
    const uint32_t changed[] = {mem / 4, mem * 2};
    for (int k = 0; k < 2; k++) {
        memory_whatif w = memory_latency_whatif(u, base_sets, a, cycles, changed[k]);
        assert_true(fabs(w.graph - w.truth) / w.truth < 0.02);
        assert_true(fabs(w.pred - w.truth) / w.truth < 0.03);
        assert_true(fabs(w.truth - cycles) > 0.1 * cycles); /* the change matters */
    }
    run_result_free(&base);
    free(u);
}

/* The store buffer's fills queue for a narrow memory channel (a line every 64 cycles, the 4 miss
 * registers' fills every 34 at the baseline): the queue is the channel edge's, not the fill's.
 * With the queue as base on each store's own fill (before), that base stayed when the memory
 * latency grew and the miss registers, not the channel, held the stores back: the graph was
 * +20.9% at memory x4, now +2.9% (bdw's ptr_chase at memory 480: +30% -> +14%). The
 * representative stacks at the default threshold merge the miss registers' path into the
 * channel's (RpStacks -40% at x4; -1% at similarity 0.99): the reduction's approximation, printed,
 * not asserted here. */
static void test_graph_store_channel(void **state) {
    (void)state;
    uop *u = store_stream();
    const char *base_sets[] = {"core.store_buffer=8", "l1d.mshrs=4", "memory.bandwidth=1", NULL};
    run_result base;
    double cycles = simulate_sets(u, base_sets, "rpstacks:segment=1000:threads=2:keep=yes", &base);
    void *a = run_result_analysis(&base, "rpstacks");
    const rps_result *r = rps_analysis_result(a);
    assert_non_null(r);
    print_message("simulated %.0f (store buffer full %llu cycles), graph %.0f, violations %llu\n", cycles,
                  (unsigned long long)base.stats.sb_full_cycles, r->graph_cycles, (unsigned long long)r->violations);
    assert_true(base.stats.sb_full_cycles > cycles / 2);
    assert_true(fabs(r->graph_cycles - cycles) < 0.5);
    assert_int_equal(r->violations, 0);
    uint32_t mem = r->base_latency[RPS_MEM_DATA];
    const uint32_t changed[] = {mem / 2, mem * 4};
    for (int k = 0; k < 2; k++) {
        memory_whatif w = memory_latency_whatif(u, base_sets, a, cycles, changed[k]);
        assert_true(fabs(w.graph - w.truth) / w.truth < 0.05);
    }
    run_result_free(&base);
    free(u);
}

/* Straight-line code, every line new (a miss to memory), with the L1I's next-line prefetcher and
 * a channel of a line every 32 cycles: each line's miss arms its successor's prefetch, which the
 * fetch joins late (its line a transfer after the previous line's), as bdw ptr_chase's cold start.
 * Such a fetch's own F -> I$ edge is its hit part (the fill started with the older request,
 * which the fetch follows): weighed as the latencies less the part under way, a memory what-if
 * moved it by the whole change after the older fill's (before: graph and RpStacks +46.9% at memory
 * x2; now exact). Checked at the larger latency only: at memory / 4 the channel binds, which has no
 * edge on the fetch side (graph -23.3%, before -66.9%): printed, not asserted. */
static void test_graph_fetch_joined(void **state) {
    (void)state;
    uop *u = cs_calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) u[i] = make_uop(i, OPC_INT_ALU, (uint8_t)(1 + i % 8), 12, 0);
    const char *base_sets[] = {"prefetch.icache_next_line=yes", "memory.bandwidth=2", NULL};
    run_result base;
    double cycles = simulate_sets(u, base_sets, "rpstacks:segment=1000:threads=2:keep=yes", &base);
    void *a = run_result_analysis(&base, "rpstacks");
    const rps_result *r = rps_analysis_result(a);
    assert_non_null(r);
    print_message("simulated %.0f (L1I prefetches %llu, late %llu), graph %.0f, violations %llu\n", cycles,
                  (unsigned long long)base.stats.l1i.prefetches, (unsigned long long)base.stats.l1i.prefetch_late,
                  r->graph_cycles, (unsigned long long)r->violations);
    assert_true(base.stats.l1i.prefetch_late > N / 16 / 4); /* fetches join prefetches' fills */
    assert_true(fabs(r->graph_cycles - cycles) < 0.5);
    assert_int_equal(r->violations, 0);
    uint32_t mem = r->base_latency[RPS_MEM_INSTR];
    memory_whatif w = memory_latency_whatif(u, base_sets, a, cycles, mem * 2);
    assert_true(fabs(w.graph - w.truth) / w.truth < 0.02);
    assert_true(fabs(w.pred - w.truth) / w.truth < 0.03);
    assert_true(fabs(w.truth - cycles) > 0.1 * cycles); /* the change matters */
    memory_latency_whatif(u, base_sets, a, cycles, mem / 4);
    run_result_free(&base);
    free(u);
}

/* FMT accounts for TLB misses like the other events (issue 12): on the
 * pointer chase whose every load is on a new page, a DTLB smaller than the
 * pages misses on every load and each walk is on the critical path, so the
 * commit-stall table charges about misses x walk latency to `dtlb` (and the L2
 * TLB's lookups to `l2tlb`), still sums to the cycles, and its what-if on the
 * walk latency follows re-simulation (before, it charged the walks to the
 * loads' cache levels and predicted no change at all). */
static void test_fmt_tlb(void **state) {
    (void)state;
    static const struct {
        const char *set, *key;
        int dim;
        uint32_t changed;
    } rows[] = {
        {"dtlb.entries=16,dtlb.miss_latency=30", "dtlb.miss_latency", RPS_DTLB, 90},
        {"dtlb.entries=16,dtlb.miss_latency=30,l2tlb.entries=64,l2tlb.latency=8", "dtlb.miss_latency", RPS_DTLB, 10},
        {"dtlb.entries=16,dtlb.miss_latency=30,l2tlb.entries=64,l2tlb.latency=8", "l2tlb.latency", RPS_L2TLB, 40},
    };
    uop *u = chase_stream();
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        char sets[6][96];
        int n_sets = 0;
        for (const char *p = rows[k].set; *p && n_sets < 6; n_sets++) {
            size_t n = strcspn(p, ",");
            snprintf(sets[n_sets], sizeof sets[n_sets], "%.*s", (int)n, p);
            p += n + (p[n] == ',');
        }
        uarch_config cfg;
        uarch_config_default(&cfg);
        cs_error err;
        for (int j = 0; j < n_sets; j++) assert_true(uarch_config_set(&cfg, sets[j], &err));
        analysis_list l;
        assert_true(analysis_list_parse(&l, "rpstacks:segment=1000:threads=2", &err));
        run_spec spec = {&cfg, {0, 0, NULL}, &l, "stream"};
        array_source src = array_source_borrow(u, N);
        run_result base;
        assert_true(runner_run(&spec, &src.base, &base, &err) && base.ok);
        const rps_result *r = rps_analysis_result(run_result_analysis(&base, "rpstacks"));
        assert_non_null(r);
        double cycles = (double)base.stats.cycles, sum = 0;
        for (int d = 0; d < RPS_DIMS; d++) sum += r->fmt[d];
        assert_true(fabs(sum - cycles) < 0.5);
        uint64_t misses = base.stats.dtlb.misses, lookups = base.stats.l2tlb.accesses,
                 walks = cfg.l2tlb_entries ? base.stats.l2tlb.misses : misses;
        assert_int_equal(misses, N / 3); /* every load */
        double walk_cycles = (double)walks * cfg.dtlb_miss_latency, lookup_cycles = (double)lookups * cfg.l2tlb_latency;
        print_message("%s: %.0f cycles; FMT dtlb %.0f (walks x latency %.0f), l2tlb %.0f (lookups x latency %.0f)\n",
                      rows[k].set, cycles, r->fmt[RPS_DTLB], walk_cycles, r->fmt[RPS_L2TLB], lookup_cycles);
        assert_true(fabs(r->fmt[RPS_DTLB] - walk_cycles) <= 0.05 * walk_cycles);
        if (cfg.l2tlb_entries) assert_true(fabs(r->fmt[RPS_L2TLB] - lookup_cycles) <= 0.05 * lookup_cycles);
        else assert_true(r->fmt[RPS_L2TLB] == 0);
        /* the what-if against the model re-run */
        char set[64];
        snprintf(set, sizeof set, "%s=%u", rows[k].key, rows[k].changed);
        assert_true(uarch_config_set(&cfg, set, &err));
        array_source src2 = array_source_borrow(u, N);
        core_t *core = core_create(&cfg, &err);
        assert_non_null(core);
        core_stats truth;
        core_run_options opt = {0, 0, NULL};
        assert_true(core_run(core, &src2.base, &opt, &truth, &err));
        core_destroy(core);
        double scale[RPS_DIMS];
        for (int d = 0; d < RPS_DIMS; d++) scale[d] = 1;
        scale[rows[k].dim] = (double)rows[k].changed / r->base_latency[rows[k].dim];
        double fmt = rps_predict_fmt(r, scale), t = (double)truth.cycles;
        print_message("  %s: simulated %.0f -> %.0f, FMT %.0f (%+.2f%%), RpStacks %.0f\n", set, cycles, t, fmt,
                      100 * (fmt - t) / t, rps_predict(r, scale));
        assert_true(fabs(t - cycles) > 0.1 * cycles); /* the change matters: the test is not vacuous */
        assert_true(fabs(fmt - t) < 0.03 * t);
        run_result_free(&base);
        analysis_list_free(&l);
    }
    free(u);
}

/* The analysis as the run goes (a ring of a few segments, reduced while the
 * run goes on) gives the stacks the whole run kept gives, to the bit: a run
 * long enough for the ring (2 chunks of 4096 µops here) to wrap twice, 3 threads. */
/* The fp-add chain of fp_chain_stream, a far line now and then. */
static uop *mixed_stream(size_t n) {
    uop *u = cs_calloc(n, sizeof *u);
    for (size_t i = 0; i < n; i++) {
        switch (i % 4) { /* the fp-add chain of fp_chain_stream, a far line now and then */
        case 0: u[i] = make_uop(i % 512, OPC_FP_ADD, 40, 40, 41); break;
        case 1: u[i] = make_uop(i % 512, OPC_INT_ALU, 5, 6, 0); break;
        case 2:
            u[i] = make_uop(i % 512, OPC_LOAD, 7, 8, 0);
            u[i].flags |= UOP_MEM_READ;
            u[i].mem_addr = i % 2002 == 2 ? 0x1000000 + 4096 * (uint64_t)i : 0x100000 + 8 * (i % 64);
            u[i].mem_size = 8;
            break;
        default: u[i] = make_uop(i % 512, OPC_INT_ALU, 9, 5, 7); break;
        }
    }
    return u;
}

/* The dominance within the design space (every latency from 0 to max-scale ×
 * the baseline's) drops only paths that are never the longest there:
 * with merging off (similarity 1: only parallel paths, of which the larger
 * dominates), the stacks predict exactly the graph's longest path, re-walked with
 * the scaled latencies, at any point of the design space (its corners included) —
 * as the plain dominance (max-scale 0) does everywhere. */
static void test_design_space_exact(void **state) {
    (void)state;
    enum { LEN = 4000 };
    uop *u = mixed_stream(LEN);
    /* no cap (4096): the dominance alone is exact; the cap is an approximation of its own */
    const char *specs[] = {"rpstacks:segment=20:similarity=1:max-scale=4:max-stacks=4096:keep=yes",
                           "rpstacks:segment=20:similarity=1:max-scale=0:max-stacks=4096:keep=yes"};
    uint32_t stacks[2];
    for (int v = 0; v < 2; v++) {
        run_result run;
        simulate_n(u, LEN, NULL, specs[v], &run);
        void *a = run_result_analysis(&run, "rpstacks");
        const rps_result *r = rps_analysis_result(a);
        assert_non_null(r);
        print_message("%s: %llu capped\n", specs[v], (unsigned long long)r->capped_nodes);
        assert_int_equal(r->capped_nodes, 0);
        stacks[v] = r->stack_count;
        unsigned seed = 7;
        double worst = 0;
        for (int trial = 0; trial < 40; trial++) {
            double scale[RPS_DIMS];
            scale[RPS_BASE] = 1;
            for (int d = 1; d < RPS_DIMS; d++) {
                double lmin = 0, x = (rand_r(&seed) % 1001) / 1000.0;
                scale[d] = trial == 0 ? 4
                    : trial == 1      ? lmin
                    : trial < 6       ? (rand_r(&seed) % 2 ? lmin : 4)
                                      : lmin + (4 - lmin) * x;
            }
            double graph = rps_graph_cycles(rps_analysis_trace(a), 20, scale);
            double pred = rps_predict(r, scale);
            worst = fmax(worst, fabs(pred - graph) / graph);
        }
        print_message("%s: %u stacks, worst |stacks - graph| %.2e\n", specs[v], r->stack_count, worst);
        assert_true(worst < 1e-9);
        run_result_free(&run);
    }
    assert_true(stacks[0] < stacks[1]); /* the bound dropped paths: the test is not vacuous */
    free(u);
}

static void stream_matches_kept(const char *set) {
    enum { LONG = 20000 };
    uop *u = mixed_stream(LONG);
    for (size_t i = 1; set && i < LONG; i += 8) { /* with a store buffer: stores, to a far line each */
        u[i] = make_uop(i % 512, OPC_STORE, 0, 5, 6);
        u[i].flags |= UOP_MEM_WRITE;
        u[i].mem_addr = 0x2000000 + 4096 * (uint64_t)i;
        u[i].mem_size = 8;
    }
    run_result kept;
    simulate_n(u, LONG, set, "rpstacks:segment=400:threads=2:keep=yes", &kept);
    if (set) assert_true(kept.stats.sb_full_cycles > 0); /* the drain nodes matter */
    const rps_result *k = rps_analysis_result(run_result_analysis(&kept, "rpstacks"));
    assert_non_null(k);
    assert_int_equal(rps_trace_uops(rps_analysis_trace(run_result_analysis(&kept, "rpstacks"))), LONG);
    const char *streamed[] = {"rpstacks:segment=400:threads=3"};
    for (int v = 0; v < 1; v++) {
        run_result run;
        simulate_n(u, LONG, set, streamed[v], &run);
        void *a = run_result_analysis(&run, "rpstacks");
        const rps_result *r = rps_analysis_result(a);
        assert_non_null(r);
        /* the ring held a few segments, not the run: the graph of the whole run is not there */
        double ones[RPS_DIMS];
        for (int d = 0; d < RPS_DIMS; d++) ones[d] = 1;
        assert_true(isnan(rps_graph_cycles(rps_analysis_trace(a), 400, ones)));
        print_message("%s %s: %u segments, %u stacks (kept: %u), graph %.0f (kept %.0f), dropped %llu\n",
                      set ? set : "", streamed[v], r->segments, r->stack_count, k->stack_count, r->graph_cycles,
                      k->graph_cycles, (unsigned long long)r->dropped_edges);
        assert_int_equal(r->segments, LONG / 400);
        assert_int_equal(r->uops, k->uops);
        assert_int_equal(r->cycles, k->cycles);
        assert_int_equal(r->violations, k->violations);
        assert_int_equal(r->dropped_edges, k->dropped_edges);
        assert_true(r->graph_cycles == k->graph_cycles);
        assert_int_equal(r->stack_count, k->stack_count);
        assert_memory_equal(r->seg_first, k->seg_first, (r->segments + 1) * sizeof *r->seg_first);
        assert_memory_equal(r->stacks, k->stacks, (size_t)r->stack_count * RPS_DIMS * sizeof(double));
        assert_memory_equal(r->cp1, k->cp1, sizeof r->cp1);
        assert_memory_equal(r->fmt, k->fmt, sizeof r->fmt);
        run_result_free(&run);
    }
    run_result_free(&kept);
    free(u);
}

static void test_stream_matches_kept(void **state) {
    (void)state;
    stream_matches_kept(NULL);
    /* with a store buffer: the writes come as events while the records wait in the stream, and
     * a segment is queued only when its stores' writes are in */
    stream_matches_kept("core.store_buffer=4");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_similarity),
        cmocka_unit_test(test_reduce),
        cmocka_unit_test(test_reduce_keeps_each_combination),
        cmocka_unit_test(test_reduce_cap_keeps_each_corner),
        cmocka_unit_test(test_reduce_matches_reference_by_event),
        cmocka_unit_test(test_reduce_matches_reference_by_combination),
        cmocka_unit_test(test_reduce_matches_reference_negative),
        cmocka_unit_test(test_predict),
        cmocka_unit_test(test_file),
        cmocka_unit_test(test_file_uniqueness),
        cmocka_unit_test(test_graph_fp_chain),
        cmocka_unit_test(test_graph_chase),
        cmocka_unit_test(test_graph_store_drain),
        cmocka_unit_test(test_graph_store_channel),
        cmocka_unit_test(test_graph_fetch_joined),
        cmocka_unit_test(test_fmt_tlb),
        cmocka_unit_test(test_stream_matches_kept),
        cmocka_unit_test(test_design_space_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
