/* The one-pipe machine as one monolithic Markov chain (thesis §3.4, Figure 3.2).
 *
 * State: the flow-graph node whose two instructions are the next two to issue
 * (y0/s0, y1/s1 of §3.4.1), x_F, x_I, the pipe occupancy bits (bit k = stage
 * k), and whether the instruction in fetch / in issue is a mispredicted
 * branch (Ch. 6; with "none" every branch is, with "perfect" none is). The
 * transitions are §3.4.2's flows: f = min(push, pull, bandwidth) on each
 * connection, the pull into the pipe 0 when the next instruction depends on
 * one that is not yet in the last stage. */
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

typedef struct one_key {
    uint32_t node;
    uint8_t xf, xi, xp, mf, mi, pad[3];
} one_key;

double sm_mispred_prob(const sm_instr *in, bool branch, int pred) {
    if (!branch) return 0;
    if (pred == SM_PRED_NONE_MODEL) return 1;
    if (pred == SM_PRED_PERFECT_MODEL || in->count == 0) return 0;
    return (double)in->mispred[pred] / (double)in->count;
}

static const sm_instr *one_instr(const sm_graph *g, uint32_t node, int k) {
    return &g->instr[g->node_instr[(size_t)node * g->window + g->offset + (uint32_t)k]];
}

void sm_onepipe_describe(const sm_graph *g, const sm_chain *c, uint32_t i, char *buf, size_t n) {
    const one_key *k = sm_chain_key(c, i);
    const sm_instr *a = one_instr(g, k->node, 0), *b = one_instr(g, k->node, 1);
    snprintf(buf, n, "%u, %u, %u%u, %u/%u, %u/%u", k->xf, k->xi, k->xp & 1, (k->xp >> 1) & 1, a->y, a->s[0], b->y,
             b->s[0]);
}

bool sm_solve_onepipe(const sm_graph *g, const sm_machine *m, sm_result *r, cs_error *err) {
    return sm_solve_onepipe_keep(g, m, r, NULL, err);
}

bool sm_solve_onepipe_keep(const sm_graph *g, const sm_machine *m, sm_result *r, sm_chain **keep, cs_error *err) {
    double t0 = cs_now();
    memset(r, 0, sizeof *r);
    uint32_t depth = m->depth[0];
    if (!sm_machine_depths_modelled(m, err)) return false;
    uint64_t max_states = m->max_states ? m->max_states : SM_DEFAULT_MAX_STATES;
    uint8_t mask = (uint8_t)((1u << depth) - 1), notlast = (uint8_t)((1u << (depth - 1)) - 1);
    sm_chain *c = sm_chain_create(sizeof(one_key));
    one_key init = {0};
    init.node = g->first;
    sm_chain_state(c, &init);
    for (uint32_t i = 0; i < sm_chain_count(c); i++) {
        one_key k = *(const one_key *)sm_chain_key(c, i);
        const sm_instr *i0 = one_instr(g, k.node, 0);
        uint32_t ld = __builtin_popcount((unsigned)(k.xp & notlast));
        int q_ip = i0->s[0] < ld ? 0 : 1;
        int f_ip = k.xi < q_ip ? k.xi : q_ip;
        int q_fi = 1 - (k.xi - f_ip);
        int f_fi = k.xf < q_fi ? k.xf : q_fi;
        bool stop = k.mf || (k.mi && !f_ip);
        int f_f = stop ? 0 : 1 - (k.xf - f_fi);
        int pos = k.xi + k.xf; /* the fetched instruction's position from the node's first */
        one_key nk = k;
        nk.xp = (uint8_t)(((k.xp << 1) | f_ip) & mask);
        nk.xi = (uint8_t)(k.xi - f_ip + f_fi);
        nk.xf = (uint8_t)(k.xf - f_fi + f_f);
        nk.mi = (uint8_t)(f_fi ? k.mf : (f_ip ? 0 : k.mi));
        uint32_t e0 = f_ip ? g->edge_start[k.node] : 0, e1 = f_ip ? g->edge_start[k.node + 1] : 1;
        double total = 0;
        if (f_ip)
            for (uint32_t e = e0; e < e1; e++) total += (double)g->edge_count[e];
        for (uint32_t e = e0; e < e1; e++) {
            double ps = f_ip ? (double)g->edge_count[e] / total : 1;
            nk.node = f_ip ? g->edge_to[e] : k.node;
            double pm = 0;
            if (f_f) {
                const sm_instr *fi = pos == 0 ? one_instr(g, k.node, 0)
                    : pos == 1                ? one_instr(g, k.node, 1)
                                              : one_instr(g, nk.node, 1);
                pm = sm_mispred_prob(fi, fi->y == 1, m->pred);
            }
            for (int mis = 0; mis < 2; mis++) {
                double p = ps * (f_f ? (mis ? pm : 1 - pm) : (mis ? 0 : 1));
                if (p < SM_PRUNE) continue;
                nk.mf = (uint8_t)(f_f ? mis : (f_fi ? 0 : k.mf));
                uint32_t j = sm_chain_state(c, &nk);
                sm_chain_add(c, i, j, p, (uint8_t)f_ip);
            }
        }
        if (sm_chain_count(c) > max_states) {
            cs_error_set(err,
                         "component one-pipe: more than %llu states (--max-states) reached, of a state space of %llu",
                         (unsigned long long)max_states,
                         (unsigned long long)g->nnode * 4 * (1u << depth) * (m->pred == SM_PRED_PERFECT_MODEL ? 1 : 4));
            sm_chain_free(c);
            return false;
        }
    }
    sm_normalize_rows(c);
    uint32_t iters = 0;
    if (!sm_chain_solve(c, &iters, err)) {
        cs_error_prefix(err, "one-pipe chain");
        sm_chain_free(c);
        return false;
    }
    const double *d = sm_chain_dist(c);
    for (uint32_t i = 0; i < sm_chain_count(c); i++) {
        const one_key *k = sm_chain_key(c, i);
        const uint32_t *to;
        const double *p;
        const uint8_t *lab;
        uint32_t n = sm_chain_out(c, i, &to, &p, &lab);
        for (uint32_t e = 0; e < n; e++) {
            r->issue_dist[lab[e]] += d[i] * p[e];
            r->ipc += d[i] * p[e] * lab[e];
        }
        r->fetch_occ[k->xf] += d[i];
        r->issue_occ[k->xi] += d[i];
        r->pipe_occ[0][__builtin_popcount(k->xp)] += d[i];
    }
    r->ncomp = 1;
    sm_component *cp = &r->comp[0];
    snprintf(cp->name, sizeof cp->name, "one-pipe");
    cp->states_before = (uint64_t)g->nnode * 2 * 2 * (1u << depth) * (m->pred == SM_PRED_PERFECT_MODEL ? 1 : 4);
    cp->states = sm_chain_count(c);
    cp->transitions = sm_chain_transitions(c);
    cp->iterations = iters;
    r->relax_iterations = 1;
    r->seconds = cs_now() - t0;
    if (keep) *keep = c;
    else sm_chain_free(c);
    return true;
}
