/* The matrix-multiplication model (thesis Ch. 2, §2.4): the IPC distribution
 * is M_I x P_D x M_F x P_C x m_B, five parallelism distribution functions
 * (docs/statmodel.md). Program parallelism (P_C, P_D and the instruction mix
 * behind M_I) comes from the profile's flow graph, walked from every node with
 * the node's frequency as the probability of starting a fetch there; machine
 * parallelism (m_B, M_F, M_I) from the machine. */
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

void sm_pdf_apply(const double Y[SM_MM_N][SM_MM_N], const double x[SM_MM_N], double y[SM_MM_N]) {
    for (int i = 0; i < SM_MM_N; i++) {
        double s = 0;
        for (int j = 0; j < SM_MM_N; j++) s += Y[i][j] * x[j];
        y[i] = s;
    }
}

typedef struct mm_walk {
    const sm_graph *g;
    bool three;
    uint32_t width;
    double *node_total; /* successor counts out of each node */
    double P_D[SM_MM_N][SM_MM_N], M_I[SM_MM_N][SM_MM_N];
    double col_mass[SM_MM_N];
} mm_walk;

static const sm_instr *node_instr(const sm_graph *g, uint32_t node, uint32_t pos) {
    return &g->instr[g->node_instr[(size_t)node * g->window + pos]];
}

static bool is_branch(const sm_instr *in, bool three) { return three ? in->y == SM_BR : in->y == 1; }

static int pipe_class(const sm_instr *in, bool three) {
    if (!three) return 0;
    return in->y == SM_BR ? SM_INT : in->y;
}

/* Does seq[k] depend on an earlier instruction of seq[0..k-1]? Distances
 * count the instructions of the writer's class in between (analyze.c), the
 * cap meaning "none within reach". */
static bool depends_in_group(const sm_instr *const *seq, uint32_t k, bool three) {
    int classes = three ? SM_PIPES : 1;
    for (int c = 0; c < classes; c++) {
        uint8_t cap = !three ? SM_SMAX : c == SM_INT ? SM_SMAX_INT : SM_SMAX;
        uint8_t s = seq[k]->s[c];
        if (s >= cap) continue;
        uint32_t before = 0;
        for (uint32_t q = 0; q < k; q++)
            if (pipe_class(seq[q], three) == c) before++;
        if (s < before) return true;
    }
    return false;
}

/* Column `len` of P_D (in-order data-ready prefix: one-cycle results, so only
 * a writer inside the group blocks) and of M_I (§2.4.1: at most one
 * instruction per pipe: the number of distinct pipes among the len). */
static void record_group(mm_walk *w, const sm_instr *const *seq, uint32_t len, double prob) {
    uint32_t ready = len;
    for (uint32_t k = 1; k < len; k++)
        if (depends_in_group(seq, k, w->three)) {
            ready = k;
            break;
        }
    bool seen[SM_PIPES] = {false, false, false};
    uint32_t distinct = 0;
    for (uint32_t k = 0; k < len; k++) {
        int c = pipe_class(seq[k], w->three);
        if (!seen[c]) seen[c] = true, distinct++;
    }
    w->P_D[ready][len] += prob;
    w->M_I[distinct][len] += prob;
    w->col_mass[len] += prob;
}

static void extend_group(mm_walk *w, uint32_t node, const sm_instr **seq, uint32_t len, double prob) {
    if (len >= w->width || prob < SM_PRUNE) return;
    const sm_graph *g = w->g;
    for (uint32_t e = g->edge_start[node]; e < g->edge_start[node + 1]; e++) {
        uint32_t to = g->edge_to[e];
        double p = prob * (double)g->edge_count[e] / w->node_total[node];
        seq[len] = node_instr(g, to, g->window - 1);
        record_group(w, seq, len + 1, p);
        extend_group(w, to, seq, len + 1, p);
    }
}

/* P_C (§2.4.1): (P_C^orig)_ij = probability that i instructions are visible up
 * to and including the j-th next branch, from every starting instruction;
 * then each column's element i divided by i and the column rescaled. */
static void control_parallelism(const sm_graph *g, bool three, const double *node_total, double total,
                                double P_C[SM_MM_N][SM_MM_N]) {
    enum { NB = SM_MM_N - 1 }; /* columns 1 … NB: the branch seen last */
    double orig[SM_MM_N][SM_MM_LENGTH + 1];
    memset(orig, 0, sizeof orig);
    double *cur = cs_calloc((size_t)g->nnode * NB, sizeof *cur);
    double *nxt = cs_calloc((size_t)g->nnode * NB, sizeof *nxt);
    uint32_t first = g->window - g->offset; /* instructions the start node already holds */
    for (uint32_t n = 0; n < g->nnode; n++) {
        double p = node_total[n] / total;
        uint32_t br = 0;
        bool done = false;
        for (uint32_t k = 1; k <= first && !done; k++) {
            if (!is_branch(node_instr(g, n, g->offset + k - 1), three)) continue;
            br++;
            orig[br][k] += p;
            done = br == NB;
        }
        if (!done) cur[(size_t)n * NB + br] += p;
    }
    for (uint32_t k = first + 1; k <= SM_MM_LENGTH; k++) {
        memset(nxt, 0, (size_t)g->nnode * NB * sizeof *nxt);
        for (uint32_t n = 0; n < g->nnode; n++)
            for (uint32_t br = 0; br < NB; br++) {
                double p = cur[(size_t)n * NB + br];
                if (p == 0) continue;
                for (uint32_t e = g->edge_start[n]; e < g->edge_start[n + 1]; e++) {
                    uint32_t to = g->edge_to[e];
                    double q = p * (double)g->edge_count[e] / node_total[n];
                    uint32_t b2 = br;
                    if (is_branch(node_instr(g, to, g->window - 1), three)) {
                        b2++;
                        orig[b2][k] += q;
                    }
                    if (b2 < NB) nxt[(size_t)to * NB + b2] += q;
                }
            }
        double *t = cur;
        cur = nxt;
        nxt = t;
    }
    free(cur);
    free(nxt);
    memset(P_C, 0, sizeof(double) * SM_MM_N * SM_MM_N);
    P_C[0][0] = 1; /* no branch visible (a misprediction): nothing useful */
    for (uint32_t j = 1; j <= NB; j++) {
        double seen = 0, norm = 0;
        for (uint32_t i = 1; i <= SM_MM_LENGTH; i++) seen += orig[j][i], norm += orig[j][i] / i;
        /* the j-th branch further than SM_MM_LENGTH instructions on: counted
         * as SM_MM_LENGTH + 1 (all of them map to the last element anyway) */
        double tail = seen < 1 ? 1 - seen : 0;
        norm += tail / (SM_MM_LENGTH + 1);
        for (uint32_t i = 1; i <= SM_MM_LENGTH; i++) {
            uint32_t bin = i < SM_MM_N - 1 ? i : SM_MM_N - 1;
            P_C[bin][j] += orig[j][i] / i / norm;
        }
        P_C[SM_MM_N - 1][j] += tail / (SM_MM_LENGTH + 1) / norm;
    }
}

static void run_chain(sm_matrix_model *mm) {
    sm_pdf_apply((const double(*)[SM_MM_N])mm->P_C, mm->m_B, mm->p_C);
    sm_pdf_apply((const double(*)[SM_MM_N])mm->M_F, mm->p_C, mm->m_F);
    sm_pdf_apply((const double(*)[SM_MM_N])mm->P_D, mm->m_F, mm->p_D);
    sm_pdf_apply((const double(*)[SM_MM_N])mm->M_I, mm->p_D, mm->m_I);
    mm->ipc = 0;
    for (int i = 0; i < SM_MM_N; i++) mm->ipc += i * mm->m_I[i];
}

bool sm_matrix_model_build(const sm_graph *g, bool three, uint32_t width, int pred, double penalty, sm_matrix_model *mm,
                           cs_error *err) {
    memset(mm, 0, sizeof *mm);
    if (width < 1 || width >= SM_MM_N) {
        cs_error_set(err, "matrix model: a width of %u is not modelled (1 to %d)", width, SM_MM_N - 1);
        return false;
    }
    if (g->nnode == 0) {
        cs_error_set(err, "matrix model: the profile's flow graph is empty");
        return false;
    }
    mm->width = width;
    mm->penalty = penalty;
    mm_walk w;
    memset(&w, 0, sizeof w);
    w.g = g, w.three = three, w.width = width;
    w.node_total = cs_calloc(g->nnode, sizeof *w.node_total);
    double total = 0, branches = 0, mispred = 0;
    for (uint32_t n = 0; n < g->nnode; n++) {
        for (uint32_t e = g->edge_start[n]; e < g->edge_start[n + 1]; e++) w.node_total[n] += (double)g->edge_count[e];
        total += w.node_total[n];
        const sm_instr *in = node_instr(g, n, g->offset);
        bool br = is_branch(in, three);
        if (br) branches += w.node_total[n];
        mispred += w.node_total[n] * sm_mispred_prob(in, br, pred);
    }
    if (total <= 0) {
        free(w.node_total);
        cs_error_set(err, "matrix model: the profile's flow graph has no successors");
        return false;
    }
    mm->mispred_per_instr = mispred / total;
    mm->mispred_rate = branches > 0 ? mispred / branches : 0;

    /* P_D and M_I: groups of 1 … width instructions from every start. */
    const sm_instr *seq[SM_MM_N];
    uint32_t first = g->window - g->offset;
    for (uint32_t n = 0; n < g->nnode; n++) {
        double p = w.node_total[n] / total;
        uint32_t len = 0;
        for (; len < first && len < width; len++) {
            seq[len] = node_instr(g, n, g->offset + len);
            record_group(&w, seq, len + 1, p);
        }
        extend_group(&w, n, seq, len, p);
    }
    memcpy(mm->P_D, w.P_D, sizeof mm->P_D);
    memcpy(mm->M_I, w.M_I, sizeof mm->M_I);
    mm->P_D[0][0] = mm->M_I[0][0] = 1;
    for (uint32_t j = 1; j <= width; j++)
        if (w.col_mass[j] > 0)
            for (int i = 0; i < SM_MM_N; i++) mm->P_D[i][j] /= w.col_mass[j], mm->M_I[i][j] /= w.col_mass[j];
    /* never fed (M_F stops at width); identity keeps the matrices stochastic */
    for (uint32_t j = width + 1; j < SM_MM_N; j++) mm->P_D[j][j] = mm->M_I[j][j] = 1;
    control_parallelism(g, three, w.node_total, total, mm->P_C);
    free(w.node_total);
    for (uint32_t j = 0; j < SM_MM_N; j++) mm->M_F[j < width ? j : width][j] = 1;

    /* m_B (§2.4.1): the processor sees up to the first mispredicted branch
     * (none: always the next one; perfect: all). Each misprediction then
     * costs `penalty` cycles of branch parallelism 0: with CPI = 1/IPC' +
     * mispredictions per instruction x penalty, where IPC' is the chain's
     * IPC over the other cycles, a fraction z = 1 - IPC/IPC' of the cycles. */
    double q = mm->mispred_rate, stay = 1;
    for (int j = 1; j < SM_MM_N - 1; j++) {
        mm->m_B[j] = stay * q;
        stay *= 1 - q;
    }
    mm->m_B[SM_MM_N - 1] = stay;
    run_chain(mm);
    double ipc_busy = mm->ipc;
    if (ipc_busy > 0 && mm->mispred_per_instr > 0 && penalty > 0) {
        double ipc = ipc_busy / (1 + mm->mispred_per_instr * penalty * ipc_busy);
        double z = 1 - ipc / ipc_busy;
        for (int j = 1; j < SM_MM_N; j++) mm->m_B[j] *= 1 - z;
        mm->m_B[0] = z;
        run_chain(mm);
    }
    return true;
}

bool sm_matrix_expresses(const sm_machine *m, cs_error *err) {
    if (m->vp) {
        cs_error_set(err, "value prediction is not modelled by the matrix-multiplication model (thesis Ch. 2)");
        return false;
    }
    if (m->icache_blocks >= 0 || m->dcache_blocks >= 0) {
        cs_error_set(err,
                     "caches are not modelled by the matrix-multiplication model (thesis §2.4.1's machine has "
                     "none; set ideal.icache=yes ideal.dcache=yes)");
        return false;
    }
    static const char *pipe_name[SM_PIPES] = {"int", "fp", "mem"};
    for (int t = 0; t < (m->three ? SM_PIPES : 1); t++)
        if (m->depth[t] != 1) {
            cs_error_set(err,
                         "%s%s has %u stages: the matrix-multiplication model needs one-cycle pipes (thesis "
                         "§2.4.3: no reasonable way to model multi-cycle dependences)",
                         m->three ? "pipe." : "the pipe", m->three ? pipe_name[t] : "", m->depth[t]);
            return false;
        }
    return true;
}

bool sm_solve_matrix(const sm_profile *p, const sm_machine *m, sm_result *r, sm_matrix_model *mm, cs_error *err) {
    double t0 = cs_now();
    if (!sm_matrix_expresses(m, err)) return false;
    sm_matrix_model local;
    if (!mm) mm = &local;
    /* one bubble per misprediction: branches resolve at issue (inorder.resolve_delay = 0, §6.1) */
    if (!sm_matrix_model_build(m->three ? &p->three : &p->one, m->three, m->three ? 2 : 1, m->pred, 1.0, mm, err))
        return false;
    memset(r, 0, sizeof *r);
    r->ipc = mm->ipc;
    for (int k = 0; k <= SM_ISSUE_MAX; k++) r->issue_dist[k] = mm->m_I[k];
    r->seconds = cs_now() - t0;
    return true;
}
