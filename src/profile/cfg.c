/* Procedures, basic blocks, control-flow edges and frequency equivalence
 * classes (DCPI §6.1.1–6.1.2). Equivalence classes are the cycle-equivalence
 * classes of Johnson, Pearson and Pingali: in the CFG with an edge from exit
 * back to entry, each block split into an in-node and an out-node joined by
 * a "block edge", and the graph taken undirected, two edges are cycle
 * equivalent exactly when removing both disconnects it (JPP94, Theorem 1 and
 * §3). We compute that directly — for each edge a, the bridges of the graph
 * without a — which is O(E·(V+E)) rather than JPP's O(E), and simple enough
 * to check by hand; procedures are small. The paper's extension for infinite
 * loops: a sink component that cannot reach the exit gets a pseudo edge to it. */
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "profile_internal.h"

const char *profile_confidence_name(profile_confidence c) {
    static const char *const n[] = {"none", "low", "medium", "high"};
    return c <= CONF_HIGH ? n[c] : "?";
}

/* ---- undirected multigraph and its bridges ------------------------------------ */

typedef struct ugraph {
    int nv, ne;
    int *eu, *ev;   /* endpoints of each edge */
    int *adj_start; /* CSR adjacency: for node v, [adj_start[v], adj_start[v+1]) */
    int *adj_node, *adj_edge;
    /* scratch */
    int *disc, *low, *stack_v, *stack_pe, *stack_it;
} ugraph;

static void ugraph_build(ugraph *g) {
    g->adj_start = cs_calloc((size_t)g->nv + 1, sizeof(int));
    for (int e = 0; e < g->ne; e++) {
        g->adj_start[g->eu[e] + 1]++;
        g->adj_start[g->ev[e] + 1]++;
    }
    for (int v = 0; v < g->nv; v++) g->adj_start[v + 1] += g->adj_start[v];
    int *fill = cs_calloc((size_t)g->nv, sizeof(int));
    g->adj_node = cs_calloc((size_t)g->ne * 2 + 1, sizeof(int));
    g->adj_edge = cs_calloc((size_t)g->ne * 2 + 1, sizeof(int));
    for (int e = 0; e < g->ne; e++) {
        int u = g->eu[e], v = g->ev[e];
        int a = g->adj_start[u] + fill[u]++;
        g->adj_node[a] = v;
        g->adj_edge[a] = e;
        int b = g->adj_start[v] + fill[v]++;
        g->adj_node[b] = u;
        g->adj_edge[b] = e;
    }
    free(fill);
    size_t nv = (size_t)g->nv + 1;
    g->disc = cs_calloc(nv, sizeof(int));
    g->low = cs_calloc(nv, sizeof(int));
    g->stack_v = cs_calloc(nv, sizeof(int));
    g->stack_pe = cs_calloc(nv, sizeof(int));
    g->stack_it = cs_calloc(nv, sizeof(int));
}

static void ugraph_free(ugraph *g) {
    free(g->eu);
    free(g->ev);
    free(g->adj_start);
    free(g->adj_node);
    free(g->adj_edge);
    free(g->disc);
    free(g->low);
    free(g->stack_v);
    free(g->stack_pe);
    free(g->stack_it);
}

/* is_bridge[e] = 1 for the bridges of g without edge `skip` (-1: none). */
static void bridges(ugraph *g, int skip, uint8_t *is_bridge) {
    memset(is_bridge, 0, (size_t)g->ne);
    memset(g->disc, 0, (size_t)g->nv * sizeof(int));
    int t = 0;
    for (int root = 0; root < g->nv; root++) {
        if (g->disc[root]) continue;
        int sp = 0;
        g->stack_v[0] = root;
        g->stack_pe[0] = -1;
        g->stack_it[0] = g->adj_start[root];
        g->disc[root] = g->low[root] = ++t;
        while (sp >= 0) {
            int v = g->stack_v[sp];
            if (g->stack_it[sp] < g->adj_start[v + 1]) {
                int a = g->stack_it[sp]++;
                int w = g->adj_node[a], e = g->adj_edge[a];
                if (e == skip || e == g->stack_pe[sp]) continue;
                if (!g->disc[w]) {
                    g->disc[w] = g->low[w] = ++t;
                    sp++;
                    g->stack_v[sp] = w;
                    g->stack_pe[sp] = e;
                    g->stack_it[sp] = g->adj_start[w];
                } else if (g->disc[w] < g->low[v]) {
                    g->low[v] = g->disc[w];
                }
            } else {
                int pe = g->stack_pe[sp];
                sp--;
                if (sp >= 0) {
                    int p = g->stack_v[sp];
                    if (g->low[v] < g->low[p]) g->low[p] = g->low[v];
                    if (g->low[v] > g->disc[p]) is_bridge[pe] = 1;
                }
            }
        }
    }
}

static int uf_find(int *parent, int x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* ---- reachability in the directed CFG (for the infinite-loop extension) -------- */

typedef struct dgraph {
    int n;                  /* blocks */
    int *succ_start, *succ; /* successors among blocks (EXIT excluded) */
    bool *to_exit;          /* block has an edge to EXIT */
} dgraph;

/* blocks reaching EXIT: reverse search */
static void reach_exit(const dgraph *d, bool *reaches) {
    memset(reaches, 0, (size_t)d->n);
    bool changed = true;
    for (int b = 0; b < d->n; b++) reaches[b] = d->to_exit[b];
    while (changed) { /* simple fixpoint: procedures are small */
        changed = false;
        for (int b = d->n - 1; b >= 0; b--) {
            if (reaches[b]) continue;
            for (int k = d->succ_start[b]; k < d->succ_start[b + 1]; k++)
                if (reaches[d->succ[k]]) {
                    reaches[b] = true;
                    changed = true;
                    break;
                }
        }
    }
}

static void forward(const dgraph *d, int from, bool *seen, int *queue) {
    memset(seen, 0, (size_t)d->n);
    int qh = 0, qt = 0;
    queue[qt++] = from;
    seen[from] = true;
    while (qh < qt) {
        int b = queue[qh++];
        for (int k = d->succ_start[b]; k < d->succ_start[b + 1]; k++)
            if (!seen[d->succ[k]]) {
                seen[d->succ[k]] = true;
                queue[qt++] = d->succ[k];
            }
    }
}

/* The blocks that get a pseudo edge to the exit: one of each sink component that never
 * reaches it (the extension for infinite loops; a procedure that never returns, such as _exit);
 * *out holds them (the caller frees it). Not with missing edges. */
size_t profile_sink_blocks(const profile_proc *p, int **out) {
    int nb = (int)p->nblocks, ne = (int)p->nedges;
    dgraph d = {nb, NULL, NULL, NULL};
    d.succ_start = cs_calloc((size_t)nb + 1, sizeof(int));
    d.to_exit = cs_calloc((size_t)nb + 1, sizeof(bool));
    for (int e = 0; e < ne; e++) {
        const profile_edge *x = &p->edges[e];
        if (x->from >= (uint32_t)nb) continue;
        if (x->to == PROFILE_EXIT) d.to_exit[x->from] = true;
        else d.succ_start[x->from + 1]++;
    }
    for (int b = 0; b < nb; b++) d.succ_start[b + 1] += d.succ_start[b];
    d.succ = cs_calloc((size_t)d.succ_start[nb] + 1, sizeof(int));
    int *fill = cs_calloc((size_t)nb + 1, sizeof(int));
    for (int e = 0; e < ne; e++) {
        const profile_edge *x = &p->edges[e];
        if (x->from >= (uint32_t)nb || x->to >= (uint32_t)nb) continue;
        d.succ[d.succ_start[x->from] + fill[x->from]++] = (int)x->to;
    }
    free(fill);
    bool *reaches = cs_calloc((size_t)nb + 1, sizeof(bool));
    bool *seen = cs_calloc((size_t)nb + 1, sizeof(bool));
    bool *seen2 = cs_calloc((size_t)nb + 1, sizeof(bool));
    int *queue = cs_calloc((size_t)nb + 1, sizeof(int));
    int *pseudo = cs_calloc((size_t)nb + 1, sizeof(int));
    int npseudo = 0;
    for (;;) {
        reach_exit(&d, reaches);
        int b = -1;
        for (int k = 0; k < nb; k++)
            if (!reaches[k]) {
                b = k;
                break;
            }
        if (b < 0) break;
        /* walk down to a sink component: a block every block it reaches reaches back */
        for (bool moved = true; moved;) {
            moved = false;
            forward(&d, b, seen, queue);
            for (int c = 0; c < nb && !moved; c++) {
                if (!seen[c] || c == b) continue;
                forward(&d, c, seen2, queue);
                if (!seen2[b]) {
                    b = c;
                    moved = true;
                }
            }
        }
        d.to_exit[b] = true;
        pseudo[npseudo++] = b;
    }
    free(reaches);
    free(seen);
    free(seen2);
    free(queue);
    free(d.succ_start);
    free(d.succ);
    free(d.to_exit);
    *out = pseudo;
    return (size_t)npseudo;
}

void profile_classes(profile_proc *p) {
    int nb = (int)p->nblocks, ne = (int)p->nedges;
    if (p->missing_edges) { /* §6.1.2: each block and each edge its own class */
        for (int b = 0; b < nb; b++) p->blocks[b].eclass = (uint32_t)b;
        for (int e = 0; e < ne; e++) p->edges[e].eclass = (uint32_t)(nb + e);
        p->nclasses = (uint32_t)(nb + ne);
        return;
    }
    /* pseudo edges for sink components that never reach the exit */
    int *pseudo = NULL;
    int npseudo = (int)profile_sink_blocks(p, &pseudo);

    /* the undirected graph: nodes ENTRY 0, EXIT 1, block b: in 2+2b, out 3+2b;
     * edges: block edges 0..nb-1, CFG edges nb.., EXIT-ENTRY, pseudo edges */
    ugraph g = {0};
    g.nv = 2 + 2 * nb;
    g.ne = nb + ne + 1 + npseudo;
    g.eu = cs_calloc((size_t)g.ne, sizeof(int));
    g.ev = cs_calloc((size_t)g.ne, sizeof(int));
    for (int b = 0; b < nb; b++) {
        g.eu[b] = 2 + 2 * b;
        g.ev[b] = 3 + 2 * b;
    }
    for (int e = 0; e < ne; e++) {
        const profile_edge *x = &p->edges[e];
        g.eu[nb + e] = x->from == PROFILE_ENTRY ? 0 : 3 + 2 * (int)x->from;
        g.ev[nb + e] = x->to == PROFILE_EXIT ? 1 : 2 + 2 * (int)x->to;
    }
    g.eu[nb + ne] = 1;
    g.ev[nb + ne] = 0;
    for (int k = 0; k < npseudo; k++) {
        g.eu[nb + ne + 1 + k] = 3 + 2 * pseudo[k];
        g.ev[nb + ne + 1 + k] = 1;
    }
    free(pseudo);
    ugraph_build(&g);
    uint8_t *base = cs_calloc((size_t)g.ne + 1, 1);
    uint8_t *cut = cs_calloc((size_t)g.ne + 1, 1);
    int *parent = cs_calloc((size_t)g.ne + 1, sizeof(int));
    for (int e = 0; e < g.ne; e++) parent[e] = e;
    bridges(&g, -1, base);
    for (int a = 0; a < g.ne; a++) {
        if (base[a] || uf_find(parent, a) != a) continue;
        bridges(&g, a, cut);
        for (int b = a + 1; b < g.ne; b++)
            if (cut[b] && !base[b]) {
                int ra = uf_find(parent, a), rb = uf_find(parent, b);
                if (ra != rb) parent[rb] = ra;
            }
    }
    /* compact the class ids of block and CFG edges */
    int *id = cs_calloc((size_t)g.ne + 1, sizeof(int));
    for (int e = 0; e < g.ne; e++) id[e] = -1;
    uint32_t next = 0;
    for (int e = 0; e < nb + ne; e++) {
        int r = uf_find(parent, e);
        if (id[r] < 0) id[r] = (int)next++;
        if (e < nb) p->blocks[e].eclass = (uint32_t)id[r];
        else p->edges[e - nb].eclass = (uint32_t)id[r];
    }
    p->nclasses = next;
    free(id);
    free(parent);
    free(base);
    free(cut);
    ugraph_free(&g);
}
