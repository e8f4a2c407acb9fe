/* The three-pipe machine as partitioned Markov chains (thesis Ch. 4 and 5,
 * Appendix B): one chain for the fetch buffer, one for the issue buffer and
 * one per pipe. They share the flow-graph node of the next instruction to
 * leave fetch (seq_F) or to issue (seq_I), and exchange push and pull
 * distributions conditional on it:
 *   fetch  -> issue: push out of fetch        P[k | seq_F, b_I]
 *   issue  -> fetch: pull into issue          P[k | seq_F, b_I]
 *   issue  -> pipes: push out of issue        P[type bits | seq_I]
 *   pipe t -> all:   pull by pipe t           P[type bits | seq_I]
 * Each round builds every chain from the others' last distributions, solves
 * it (Gauss-Seidel) and recomputes its own; rounds repeat until the IPC
 * changes by less than 1e-10 and every push/pull probability by less than
 * 1e-6 between rounds (iterative relaxation, §4.2.2).
 *
 * Conventions that differ in notation only from Appendix B: pipe bit k is
 * stage k (0 = first); "k" counts the instructions whose result is not yet
 * forwardable (not in the last stage, or held by a D-cache miss). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

typedef struct fetch_key {
    uint32_t node;
    uint8_t bf, bi, xf, stall;
} fetch_key;

typedef struct issue_key {
    uint32_t node;
    uint8_t bi, xi, pad[2];
} issue_key;

typedef struct pipe_key {
    uint32_t node;
    uint8_t xp, stall, pad[2];
} pipe_key;

typedef struct ctx {
    const sm_graph *g;
    const sm_machine *m;
    uint32_t nn;
    /* distributions, indexed by node */
    double *f_push; /* [node][bi][3] push out of fetch */
    double *i_pull; /* [node][bi][3] pull into issue */
    double *i_push; /* [node][8] push out of issue (type bits) */
    double *p_pull; /* [pipe][node][8] pull by pipe */
    double *acc, *wsum;
    uint64_t max_states;
    double *succ_p;      /* per edge probability */
    double *ihit, *dhit; /* per instruction number */
} ctx;

static inline uint32_t instr_at(const sm_graph *g, uint32_t node, int k) {
    return g->node_instr[(size_t)node * g->window + g->offset + (uint32_t)k];
}
static inline int dclass(uint8_t y) { return y == SM_BR ? SM_INT : y; }
static inline uint8_t scap(int t) { return t == SM_INT ? SM_SMAX_INT : SM_SMAX; }

/* The four instructions from `node` on, along successors n1 (node's) and n2 (n1's). */
static void infos(const ctx *c, uint32_t node, uint32_t n2, const sm_instr *info[4]) {
    info[0] = &c->g->instr[instr_at(c->g, node, 0)];
    info[1] = &c->g->instr[instr_at(c->g, node, 1)];
    info[2] = &c->g->instr[instr_at(c->g, n2, 0)];
    info[3] = &c->g->instr[instr_at(c->g, n2, 1)];
}

static bool check_size(const sm_chain *ch, const ctx *c, const char *name, uint64_t space, cs_error *err) {
    if (sm_chain_count(ch) <= c->max_states) return true;
    cs_error_set(err, "component %s: more than %llu states (--max-states) reached, of a state space of %llu", name,
                 (unsigned long long)c->max_states, (unsigned long long)space);
    return false;
}

/* The solver's aggregation blocks: the states of one flow-graph node (every
 * component's key starts with it). The chain between nodes is the flow
 * graph's walk slowed by the machine; Gauss-Seidel alone balances its loops
 * at the rate they are left (chain.c, aggregate()). */
static void set_node_blocks(sm_chain *ch, const ctx *c) {
    uint32_t n = sm_chain_count(ch), nb = 0;
    uint32_t *map = cs_malloc(cs_array_size(c->nn, sizeof *map));
    uint32_t *block = cs_malloc(cs_array_size(n ? n : 1, sizeof *block));
    for (uint32_t i = 0; i < c->nn; i++) map[i] = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t node;
        memcpy(&node, sm_chain_key(ch, i), sizeof node);
        if (map[node] == UINT32_MAX) map[node] = nb++;
        block[i] = map[node];
    }
    sm_chain_set_blocks(ch, block, nb);
    free(map);
    free(block);
}

static double mispred(const ctx *c, const sm_instr *in) { return sm_mispred_prob(in, in->y == SM_BR, c->m->pred); }

/* ---- the buffers' common step (Appendix B.2 fetch, B.3 issue) ----
 *
 * Both buffers hold x instructions from their node on (the last one possibly
 * a mispredicted branch, after which nothing useful follows, Ch. 6), let some
 * leave and up to e enter behind the rest, the first mispredicted branch
 * among the entering ones the last. buffer_moves enumerates that once for
 * both: the successor nodes as far as the transition looks past its node
 * ("level": 0 nothing, 1 the next node, 2 the one after, which holds the
 * third and fourth instructions; so equal transitions are not built once per
 * successor pair, as Appendix B's pairs would), and the misprediction split of
 * the entering instructions. */

typedef struct buffer_move {
    uint32_t n1, n2;         /* the next node and the one after (the node itself where not looked at) */
    const sm_instr *info[4]; /* the four instructions from the node on, along n1, n2 */
    uint8_t mispredicted[4]; /* which of them is a mispredicted branch the buffer holds */
    int enter;               /* how many may enter (the last one the first mispredicted) */
    double p;                /* the probability so far */
} buffer_move;

typedef void (*buffer_move_fn)(ctx *c, const buffer_move *mv, void *arg);

static void buffer_moves(ctx *c, uint32_t node, int x, bool last_mispredicted, int e, int look, double p1,
                         buffer_move_fn fn, void *arg) {
    const sm_graph *g = c->g;
    int level = x + e - 1 >= 2 ? 2 : look; /* an entering instruction is the third or fourth */
    uint32_t e1b = level ? g->edge_start[node] : 0, e1e = level ? g->edge_start[node + 1] : 1;
    for (uint32_t e1 = e1b; e1 < e1e; e1++) {
        uint32_t n1 = level ? g->edge_to[e1] : node;
        uint32_t e2b = level == 2 ? g->edge_start[n1] : 0, e2e = level == 2 ? g->edge_start[n1 + 1] : 1;
        for (uint32_t e2 = e2b; e2 < e2e; e2++) {
            buffer_move mv;
            mv.n1 = n1;
            mv.n2 = level == 2 ? g->edge_to[e2] : n1;
            double p2 = (level ? c->succ_p[e1] : 1) * (level == 2 ? c->succ_p[e2] : 1);
            if (p1 * p2 < SM_PRUNE) continue;
            infos(c, node, mv.n2, mv.info);
            memset(mv.mispredicted, 0, sizeof mv.mispredicted);
            if (last_mispredicted && x > 0) mv.mispredicted[x - 1] = 1;
            double p3a = 1; /* no mispredicted branch among the entering ones so far */
            for (int mis = x; mis <= x + e; mis++) {
                double p3;
                if (mis == x + e) {
                    p3 = p3a;
                    mv.enter = e;
                } else {
                    double pm = mispred(c, mv.info[mis]);
                    p3 = p3a * pm;
                    p3a *= 1 - pm;
                    mv.enter = mis - x + 1;
                    mv.mispredicted[mis] = 1;
                }
                mv.p = p1 * p2 * p3;
                if (mv.p >= SM_PRUNE) fn(c, &mv, arg);
                if (mis < x + e) mv.mispredicted[mis] = 0;
            }
        }
    }
}

/* ---- fetch buffer (Appendix B.2) ---- */

typedef struct fetch_step {
    sm_chain *ch;
    uint32_t s;
    fetch_key k;
    int fout, bi2;
} fetch_step;

/* The instructions that may enter fetch do, unless the I-cache misses on one
 * (its hit probability per instruction number, Ch. 7). */
static void fetch_move(ctx *c, const buffer_move *mv, void *arg) {
    const fetch_step *f = arg;
    const sm_machine *m = c->m;
    const fetch_key *k = &f->k;
    uint32_t seqf2 = f->fout == 0 ? k->node : f->fout == 1 ? mv->n1 : mv->n2;
    double p4a = 1;
    for (int qin = 0; qin <= mv->enter; qin++) {
        double p4 = 0;
        int stall2 = 0;
        if (m->icache_blocks < 0) {
            p4 = qin == mv->enter ? 1 : 0;
            stall2 = k->stall;
        } else if (k->stall > 1) {
            p4 = qin == 0 ? 1 : 0;
            stall2 = k->stall - 1;
        } else if (qin == mv->enter) {
            p4 = p4a;
            stall2 = 0;
        } else if (k->stall == 1 && qin == 0) {
            p4 = 0; /* the instruction that missed enters now */
        } else {
            double h = c->ihit[mv->info[k->xf + qin] - c->g->instr];
            p4 = p4a * (1 - h);
            p4a *= h;
            stall2 = (int)m->miss_latency;
        }
        double p = mv->p * p4;
        if (p < SM_PRUNE) continue;
        int xf2 = k->xf - f->fout + qin;
        fetch_key nk = {seqf2, 0, (uint8_t)f->bi2, (uint8_t)xf2, (uint8_t)stall2};
        nk.bf = (uint8_t)(xf2 > 0 ? mv->mispredicted[k->xf + qin - 1] : 0);
        sm_chain_add(f->ch, f->s, sm_chain_state(f->ch, &nk), p, 0);
    }
}

static bool build_fetch(ctx *c, sm_chain *ch, cs_error *err) {
    const sm_graph *g = c->g;
    const sm_machine *m = c->m;
    fetch_key init = {g->first, 0, 0, 0, 0};
    sm_chain_state(ch, &init);
    for (uint32_t s = 0; s < sm_chain_count(ch); s++) {
        fetch_step f = {ch, s, *(const fetch_key *)sm_chain_key(ch, s), 0, 0};
        const fetch_key *k = &f.k;
        for (int qout = 0; qout <= 2; qout++) {
            double p1 = c->i_pull[((size_t)k->node * 2 + k->bi) * 3 + (size_t)qout];
            if (p1 < SM_PRUNE) continue;
            f.fout = k->xf < qout ? k->xf : qout;
            f.bi2 = k->bi ? (qout > 0 ? 0 : 1) : (k->bf && f.fout == k->xf && k->xf > 0) ? 1 : 0;
            int ef = (k->bf || f.bi2) ? 0 : 2 - (k->xf - f.fout);
            buffer_moves(c, k->node, k->xf, k->bf, ef, f.fout, p1, fetch_move, &f);
        }
        if (!check_size(ch, c, "fetch", (uint64_t)c->nn * 12 * (m->icache_blocks < 0 ? 1 : m->miss_latency + 1), err))
            return false;
    }
    return true;
}

/* ---- issue buffer (Appendix B.3) ---- */

typedef struct side {
    uint32_t state, key;
    uint8_t q;
    double w;
} side;

typedef struct side_list {
    side *v;
    size_t n, cap;
} side_list;

static void side_add(side_list *l, uint32_t state, uint32_t key, uint8_t q, double w) {
    SM_GROW(l->v, l->cap, l->n + 1, 1024);
    l->v[l->n++] = (side){state, key, q, w};
}

static uint8_t push_bits(const sm_instr *info[4], int xi) {
    uint8_t b = 0;
    for (int i = 0; i < xi && i < 2; i++) b |= (uint8_t)(1u << dclass(info[i]->y));
    return b;
}

typedef struct issue_step {
    sm_chain *ch;
    side_list *pull;
    uint32_t s;
    issue_key k;
    int fsum;
} issue_step;

/* Records the pull into issue (by seq_F and b_I) and takes fetch's push. */
static void issue_move(ctx *c, const buffer_move *mv, void *arg) {
    const issue_step *st = arg;
    const issue_key *k = &st->k;
    uint32_t seqf = k->xi == 0 ? k->node : k->xi == 1 ? mv->n1 : mv->n2;
    uint32_t seqi2 = st->fsum == 0 ? k->node : st->fsum == 1 ? mv->n1 : mv->n2;
    side_add(st->pull, st->s, seqf * 2u + k->bi, (uint8_t)mv->enter, mv->p);
    const double *fp = c->f_push + ((size_t)seqf * 2 + k->bi) * 3;
    for (int pin = 0; pin <= 2; pin++) {
        double p = mv->p * fp[pin];
        if (p < SM_PRUNE) continue;
        int fin = pin < mv->enter ? pin : mv->enter;
        int xi2 = k->xi - st->fsum + fin;
        issue_key nk = {seqi2, 0, (uint8_t)xi2, {0, 0}};
        nk.bi = (uint8_t)(xi2 > 0 ? mv->mispredicted[k->xi + fin - 1] : 0);
        sm_chain_add(st->ch, st->s, sm_chain_state(st->ch, &nk), p, (uint8_t)st->fsum);
    }
}

static bool build_issue(ctx *c, sm_chain *ch, side_list *pull, cs_error *err) {
    const sm_graph *g = c->g;
    issue_key init = {g->first, 0, 0, {0, 0}};
    sm_chain_state(ch, &init);
    for (uint32_t s = 0; s < sm_chain_count(ch); s++) {
        issue_step st = {ch, pull, s, *(const issue_key *)sm_chain_key(ch, s), 0};
        const issue_key *k = &st.k;
        const sm_instr *i0[4];
        infos(c, k->node, k->node, i0);
        uint8_t pout = push_bits(i0, k->xi);
        const double *q0 = c->p_pull + ((size_t)0 * c->nn + k->node) * 8;
        const double *q1 = c->p_pull + ((size_t)1 * c->nn + k->node) * 8;
        const double *q2 = c->p_pull + ((size_t)2 * c->nn + k->node) * 8;
        /* the pulls matter only through the flow they allow: group them by it */
        double pflow[8] = {0};
        for (int a = 0; a < 8; a++) {
            if (q0[a] == 0) continue;
            for (int b = 0; b < 8; b++) {
                if (q1[b] == 0) continue;
                for (int d = 0; d < 8; d++)
                    if (q2[d] != 0) pflow[pout & a & b & d] += q0[a] * q1[b] * q2[d];
            }
        }
        for (int fout = 0; fout < 8; fout++) {
            double p1 = pflow[fout];
            if (p1 < SM_PRUNE) continue;
            st.fsum = __builtin_popcount((unsigned)fout);
            int ei = (k->bi && st.fsum < k->xi) ? 0 : 2 - (k->xi - st.fsum);
            /* seq_F (after the x_I instructions) and seq_I' look past the node */
            buffer_moves(c, k->node, k->xi, k->bi, ei, k->xi > st.fsum ? k->xi : st.fsum, p1, issue_move, &st);
        }
        if (!check_size(ch, c, "issue", (uint64_t)c->nn * 6, err)) return false;
    }
    return true;
}

/* ---- pipes (Appendix B.4) ---- */

static bool build_pipe(ctx *c, int me, sm_chain *ch, side_list *pull, cs_error *err) {
    const sm_graph *g = c->g;
    const sm_machine *m = c->m;
    uint32_t depth = m->depth[me];
    uint8_t mask = (uint8_t)((1u << depth) - 1), notlast = (uint8_t)((1u << (depth - 1)) - 1);
    bool cached = me == SM_MEM && m->dcache_blocks >= 0;
    pipe_key init = {g->first, 0, 0, {0, 0}};
    sm_chain_state(ch, &init);
    int o1 = (me + 1) % 3, o2 = (me + 2) % 3;
    static const char *names[3] = {"pipe.int", "pipe.fp", "pipe.mem"};
    for (uint32_t s = 0; s < sm_chain_count(ch); s++) {
        pipe_key k = *(const pipe_key *)sm_chain_key(ch, s);
        const sm_instr *info[4];
        infos(c, k.node, k.node, info);
        int before[3];
        for (int t = 0; t < 3; t++) {
            before[t] = 0;
            for (int i = 0; i < 2; i++) {
                int t2 = dclass(info[i]->y);
                if (t2 == t) break;
                if (t2 == me) before[t]++;
            }
        }
        int held = k.stall > 0 && (k.xp & 1) ? 1 : 0; /* the stage-0 instruction waits for the D-cache */
        /* results not yet forwardable; with a mispredicted value also the last stage's (§8.2: a cycle more) */
        int kk = __builtin_popcount((unsigned)(k.xp & notlast)) + (held && depth == 1 ? 1 : 0);
        int kk_all = __builtin_popcount((unsigned)k.xp);
        const double *pin = c->i_push + (size_t)k.node * 8;
        const double *qa = c->p_pull + ((size_t)o1 * c->nn + k.node) * 8;
        const double *qb = c->p_pull + ((size_t)o2 * c->nn + k.node) * 8;
        /* the pull by this pipe */
        int qin = 0;
        for (int i = 0; i < 2; i++) {
            int t2 = dclass(info[i]->y);
            if (qin & (1 << t2)) break;
            uint8_t sd = info[i]->s[me], flag = info[i]->v[me];
            int ahead = t2 == me ? 0 : before[t2]; /* this pipe's instructions issuing ahead of it now */
            bool blocked = false;
            if (sd < scap(me)) {
                if (sd < ahead) blocked = true; /* its source issues this cycle */
                else if (flag == SM_VP_NONE) blocked = sd - ahead < kk;
                else if (flag == SM_VP_WRONG) blocked = sd - ahead < kk_all;
                /* SM_VP_RIGHT: the source issued a cycle ago or more: never blocks */
            }
            if ((t2 == me && k.stall > 0) || blocked) break;
            qin |= 1 << t2;
        }
        side_add(pull, s, k.node, (uint8_t)qin, 1);
        double pflow[8] = {0}; /* grouped by the flow into the pipes they allow */
        for (int pb = 0; pb < 8; pb++) {
            if (pin[pb] == 0) continue;
            for (int a = 0; a < 8; a++) {
                if (qa[a] == 0) continue;
                for (int b = 0; b < 8; b++)
                    if (qb[b] != 0) pflow[pb & qin & a & b] += pin[pb] * qa[a] * qb[b];
            }
        }
        {
            {
                for (int fin = 0; fin < 8; fin++) {
                    double p12 = pflow[fin];
                    if (p12 < SM_PRUNE) continue;
                    int fsum = __builtin_popcount((unsigned)fin);
                    uint8_t xp2;
                    if (k.stall > 0) xp2 = (uint8_t)(((k.xp & 1) | ((k.xp & ~1u) << 1)) & mask);
                    else xp2 = (uint8_t)(((k.xp << 1) | ((fin >> me) & 1)) & mask);
                    double p4 = 1;
                    int st_a = 0, st_b = 0;
                    if (k.stall > 0) {
                        st_a = k.stall - 1;
                    } else if (cached && (fin & (1 << SM_MEM))) {
                        int first = dclass(info[0]->y) == SM_MEM ? 0 : 1;
                        p4 = c->dhit[info[first] - g->instr];
                        st_b = (int)m->miss_latency;
                    }
                    int level = fsum; /* only seq_I' looks past the node */
                    uint32_t e1b = level ? g->edge_start[k.node] : 0, e1e = level ? g->edge_start[k.node + 1] : 1;
                    for (uint32_t e1 = e1b; e1 < e1e; e1++) {
                        uint32_t n1 = level ? g->edge_to[e1] : k.node;
                        uint32_t e2b = level == 2 ? g->edge_start[n1] : 0, e2e = level == 2 ? g->edge_start[n1 + 1] : 1;
                        for (uint32_t e2 = e2b; e2 < e2e; e2++) {
                            uint32_t n2 = level == 2 ? g->edge_to[e2] : n1;
                            double p3 = (level ? c->succ_p[e1] : 1) * (level == 2 ? c->succ_p[e2] : 1);
                            uint32_t seqi2 = fsum == 0 ? k.node : fsum == 1 ? n1 : n2;
                            for (int w = 0; w < 2; w++) {
                                double p = p12 * p3 * (w ? 1 - p4 : p4);
                                if (p < SM_PRUNE) continue;
                                pipe_key nk = {seqi2, xp2, (uint8_t)(w ? st_b : st_a), {0, 0}};
                                uint32_t j = sm_chain_state(ch, &nk);
                                sm_chain_add(ch, s, j, p, 0);
                            }
                        }
                    }
                }
            }
        }
        if (!check_size(ch, c, names[me], (uint64_t)c->nn * (1u << depth) * (cached ? m->miss_latency + 1 : 1), err))
            return false;
    }
    return true;
}

/* Turn per-state side records into distributions conditional on their key;
 * keys never seen keep their old distribution. Returns the largest change. */
static double condense(const side_list *l, const double *d, double *dist, size_t nkeys, int width, double *wsum) {
    double *acc = cs_calloc(nkeys * (size_t)width, sizeof *acc);
    memset(wsum, 0, nkeys * sizeof *wsum);
    for (size_t i = 0; i < l->n; i++) {
        double w = d[l->v[i].state] * l->v[i].w;
        acc[(size_t)l->v[i].key * (size_t)width + l->v[i].q] += w;
        wsum[l->v[i].key] += w;
    }
    double change = 0;
    for (size_t kx = 0; kx < nkeys; kx++) {
        if (!(wsum[kx] > 1e-300)) continue;
        for (int q = 0; q < width; q++) {
            double v = acc[kx * (size_t)width + (size_t)q] / wsum[kx];
            double ch = fabs(v - dist[kx * (size_t)width + (size_t)q]);
            if (ch > change) change = ch;
            dist[kx * (size_t)width + (size_t)q] = v;
        }
    }
    free(acc);
    return change;
}

static double hit_prob(const sm_instr *in, int blocks, bool icache) {
    if (blocks < 0) return 1;
    int top = 0;
    while ((1 << (top + SM_SD_FIRST_LOG2)) < blocks) top++;
    /* bins 0..top are distances < blocks */
    uint64_t hits = 0, total = icache ? in->ilookups : 0;
    const uint64_t *h = icache ? in->ihist : in->dhist;
    if (!icache)
        for (int b = 0; b < SM_SD_BINS; b++) total += h[b];
    for (int b = 0; b <= top && b < SM_SD_BINS; b++) hits += h[b];
    if (icache) { /* instructions that are not the first of a line run always hit */
        uint64_t n = in->count;
        return n ? (double)(n - total + hits) / (double)n : 1;
    }
    return total ? (double)hits / (double)total : 1;
}

void sm_issue_describe(const sm_graph *g, const sm_chain *c, uint32_t i, char *buf, size_t n) {
    const issue_key *k = sm_chain_key(c, i);
    if (g->window == 6 && g->offset == 2) {
        const uint32_t *w = g->node_instr + (size_t)k->node * 6;
        snprintf(buf, n, "%u%u%u%u,%u%u,%u", g->instr[w[2]].y, g->instr[w[3]].y, g->instr[w[4]].y, g->instr[w[5]].y,
                 g->instr[w[0]].y, g->instr[w[1]].y, k->xi);
    } else {
        snprintf(buf, n, "seq %u,%u", k->node, k->xi);
    }
}

bool sm_solve_threepipe(const sm_graph *g, const sm_machine *m, sm_result *r, cs_error *err) {
    return sm_solve_threepipe_keep(g, m, r, NULL, err);
}

bool sm_solve_threepipe_keep(const sm_graph *g, const sm_machine *m, sm_result *r, sm_chain **issue_keep,
                             cs_error *err) {
    double t0 = cs_now();
    memset(r, 0, sizeof *r);
    if (!sm_machine_depths_modelled(m, err)) return false;
    if (m->miss_latency > 64) {
        cs_error_set(err, "a miss latency of %u cycles is not modelled (at most 64)", m->miss_latency);
        return false;
    }
    ctx c = {0};
    c.g = g;
    c.m = m;
    c.nn = g->nnode;
    c.max_states = m->max_states ? m->max_states : SM_DEFAULT_MAX_STATES;
    size_t nn = g->nnode;
    c.f_push = cs_calloc(nn * 6, sizeof(double));
    c.i_pull = cs_calloc(nn * 6, sizeof(double));
    c.i_push = cs_calloc(nn * 8, sizeof(double));
    c.p_pull = cs_calloc(nn * 24, sizeof(double));
    c.wsum = cs_calloc(nn * 2, sizeof(double));
    c.succ_p = cs_calloc(g->edge_start[nn] ? g->edge_start[nn] : 1, sizeof(double));
    c.ihit = cs_calloc(g->ninstr, sizeof(double));
    c.dhit = cs_calloc(g->ninstr, sizeof(double));
    for (uint32_t i = 0; i < g->ninstr; i++) {
        c.ihit[i] = hit_prob(&g->instr[i], m->icache_blocks, true);
        c.dhit[i] = hit_prob(&g->instr[i], m->dcache_blocks, false);
    }
    for (uint32_t n = 0; n < nn; n++) {
        double tot = 0;
        for (uint32_t e = g->edge_start[n]; e < g->edge_start[n + 1]; e++) tot += (double)g->edge_count[e];
        for (uint32_t e = g->edge_start[n]; e < g->edge_start[n + 1]; e++) c.succ_p[e] = (double)g->edge_count[e] / tot;
        /* first guesses: fetch pushes 2, issue pulls 2, every pipe pulls everything */
        for (int b = 0; b < 2; b++) {
            c.f_push[(n * 2 + (size_t)b) * 3 + 2] = 1;
            c.i_pull[(n * 2 + (size_t)b) * 3 + 2] = 1;
        }
        for (int t = 0; t < 3; t++) c.p_pull[((size_t)t * nn + n) * 8 + 7] = 1;
    }
    for (uint32_t n = 0; n < nn; n++) { /* and issue pushes both of its instructions */
        const sm_instr *info[4];
        infos(&c, n, n, info);
        c.i_push[(size_t)n * 8 + push_bits(info, 2)] = 1;
    }
    bool ok = false;
    sm_chain *fc = NULL, *ic = NULL, *pc[3] = {NULL, NULL, NULL};
    double last_ipc = -1;
    /* Gauss-Seidel's residual per round: loose while the neighbours'
     * distributions still move (the square of the last round's largest
     * change), SM_RESIDUAL in the rounds that may end the relaxation */
    double tol = 1e-5;
    uint32_t round;
    for (round = 1; round <= 1000; round++) {
        sm_chain *old = ic;
        ic = sm_chain_create(sizeof(issue_key));
        sm_chain_set_dense(ic, c.nn, (const uint8_t[4]){2, 3, 1, 1}); /* b_I, x_I */
        side_list ipull = {0};
        if (!build_issue(&c, ic, &ipull, err)) {
            sm_chain_free(old);
            free(ipull.v);
            goto out;
        }
        sm_chain_normalize(ic);
        set_node_blocks(ic, &c);
        sm_chain_guess(ic, old);
        sm_chain_free(old);
        uint32_t it_i = 0;
        if (!sm_chain_solve_tol(ic, tol, &it_i, err)) {
            cs_error_prefix(err, "issue chain");
            free(ipull.v);
            goto out;
        }
        const double *di = sm_chain_dist(ic);
        double change = condense(&ipull, di, c.i_pull, nn * 2, 3, c.wsum);
        free(ipull.v);
        /* push out of issue, by seq_I */
        {
            side_list ipush = {0};
            for (uint32_t s = 0; s < sm_chain_count(ic); s++) {
                const issue_key *k = sm_chain_key(ic, s);
                const sm_instr *info[4];
                infos(&c, k->node, k->node, info);
                side_add(&ipush, s, k->node, push_bits(info, k->xi), 1);
            }
            double ch = condense(&ipush, di, c.i_push, nn, 8, c.wsum);
            if (ch > change) change = ch;
            free(ipush.v);
        }
        double ipc = 0;
        for (uint32_t s = 0; s < sm_chain_count(ic); s++) {
            const uint32_t *to;
            const double *p;
            const uint8_t *lab;
            uint32_t n = sm_chain_out(ic, s, &to, &p, &lab);
            for (uint32_t e = 0; e < n; e++) ipc += di[s] * p[e] * lab[e];
        }
        uint32_t it_p[3] = {0, 0, 0};
        for (int t = 0; t < 3; t++) {
            sm_chain *oldp = pc[t];
            pc[t] = sm_chain_create(sizeof(pipe_key));
            uint8_t stalls = (uint8_t)(t == SM_MEM && m->dcache_blocks >= 0 ? m->miss_latency + 1 : 1);
            sm_chain_set_dense(pc[t], c.nn, (const uint8_t[4]){(uint8_t)(1u << m->depth[t]), stalls, 1, 1});
            side_list pp = {0};
            if (!build_pipe(&c, t, pc[t], &pp, err)) {
                sm_chain_free(oldp);
                free(pp.v);
                goto out;
            }
            sm_chain_normalize(pc[t]);
            set_node_blocks(pc[t], &c);
            sm_chain_guess(pc[t], oldp);
            sm_chain_free(oldp);
            if (!sm_chain_solve_tol(pc[t], tol, &it_p[t], err)) {
                cs_error_prefix(err, "pipe chain %d", t);
                free(pp.v);
                goto out;
            }
            double ch = condense(&pp, sm_chain_dist(pc[t]), c.p_pull + (size_t)t * nn * 8, nn, 8, c.wsum);
            if (ch > change) change = ch;
            free(pp.v);
        }
        sm_chain *oldf = fc;
        fc = sm_chain_create(sizeof(fetch_key));
        uint8_t fstalls = (uint8_t)(m->icache_blocks >= 0 ? m->miss_latency + 1 : 1);
        sm_chain_set_dense(fc, c.nn, (const uint8_t[4]){2, 2, 3, fstalls}); /* b_F, b_I, x_F, stall */
        bool built = build_fetch(&c, fc, err);
        if (built) {
            sm_chain_normalize(fc);
            set_node_blocks(fc, &c);
            sm_chain_guess(fc, oldf);
        }
        sm_chain_free(oldf);
        if (!built) goto out;
        uint32_t it_f = 0;
        if (!sm_chain_solve_tol(fc, tol, &it_f, err)) {
            cs_error_prefix(err, "fetch chain");
            goto out;
        }
        {
            side_list fpush = {0};
            for (uint32_t s = 0; s < sm_chain_count(fc); s++) {
                const fetch_key *k = sm_chain_key(fc, s);
                side_add(&fpush, s, k->node * 2u + k->bi, k->xf, 1);
            }
            double ch = condense(&fpush, sm_chain_dist(fc), c.f_push, nn * 2, 3, c.wsum);
            if (ch > change) change = ch;
            free(fpush.v);
        }
        r->ipc = ipc;
        r->comp[0] = (sm_component){"fetch", nn * 2 * 2 * 3 * (m->icache_blocks < 0 ? 1 : m->miss_latency + 1),
                                    sm_chain_count(fc), sm_chain_transitions(fc), it_f};
        r->comp[1] = (sm_component){"issue", nn * 2 * 3, sm_chain_count(ic), sm_chain_transitions(ic), it_i};
        for (int t = 0; t < 3; t++) {
            static const char *nm[3] = {"pipe.int", "pipe.fp", "pipe.mem"};
            sm_component *cp = &r->comp[2 + t];
            snprintf(cp->name, sizeof cp->name, "%s", nm[t]);
            cp->states_before =
                nn * (1u << m->depth[t]) * (t == SM_MEM && m->dcache_blocks >= 0 ? m->miss_latency + 1 : 1);
            cp->states = sm_chain_count(pc[t]);
            cp->transitions = sm_chain_transitions(pc[t]);
            cp->iterations = it_p[t];
        }
        r->ncomp = 5;
        if (round > 2 && tol <= SM_RESIDUAL && fabs(ipc - last_ipc) < 1e-10 && change < 1e-6) {
            ok = true;
            break;
        }
        last_ipc = ipc;
        tol = fmax(SM_RESIDUAL, fmin(1e-5, change * change));
    }
    if (!ok) cs_error_set(err, "the relaxation did not converge in 1000 rounds (IPC %.6f)", r->ipc);
out:
    if (ok) {
        r->relax_iterations = round;
        const double *di = sm_chain_dist(ic);
        for (uint32_t s = 0; s < sm_chain_count(ic); s++) {
            const issue_key *k = sm_chain_key(ic, s);
            const uint32_t *to;
            const double *p;
            const uint8_t *lab;
            uint32_t n = sm_chain_out(ic, s, &to, &p, &lab);
            for (uint32_t e = 0; e < n; e++) r->issue_dist[lab[e]] += di[s] * p[e];
            r->issue_occ[k->xi] += di[s];
        }
        const double *df = sm_chain_dist(fc);
        for (uint32_t s = 0; s < sm_chain_count(fc); s++)
            r->fetch_occ[((const fetch_key *)sm_chain_key(fc, s))->xf] += df[s];
        for (int t = 0; t < 3; t++) {
            const double *dp = sm_chain_dist(pc[t]);
            for (uint32_t s = 0; s < sm_chain_count(pc[t]); s++)
                r->pipe_occ[t][__builtin_popcount(((const pipe_key *)sm_chain_key(pc[t], s))->xp)] += dp[s];
        }
    }
    if (ok && issue_keep) {
        *issue_keep = ic;
        ic = NULL;
    }
    sm_chain_free(fc);
    sm_chain_free(ic);
    for (int t = 0; t < 3; t++) sm_chain_free(pc[t]);
    free(c.f_push);
    free(c.i_pull);
    free(c.i_push);
    free(c.p_pull);
    free(c.wsum);
    free(c.succ_p);
    free(c.ihit);
    free(c.dhit);
    r->seconds = cs_now() - t0;
    return ok;
}
