/* The statistical models against the thesis' worked examples, transcribed
 * from ../shared/papers/statistical-modeling-thesis.md:
 *  - one-pipe (§3.4): Table 3.1's sequencing probabilities, Table 3.2's state
 *    sequence, Figure 3.6's transition matrix, Table 3.3's stationary
 *    distribution, the issue distribution 0.45/0.55 and IPC 0.55;
 *  - three-pipe (§4.2): Table 4.1's issue-buffer states as a path of the
 *    issue chain, Table 4.2's states with their stationary probabilities and
 *    the 0.5/0.5 transitions, the issue distribution 9/19, 9/19, 1/19 and IPC
 *    11/19;
 *  - the FP aliasing loop of §4.3/§5.3 with the flow graph: 7 cycles per
 *    6 instructions;
 *  - the matrix-multiplication model (§2.4): Figure 2.3's Y x x example,
 *    P_C's 1/i rescaling on a loop with a closed form, known answers (a fully
 *    dependent chain, an independent stream over two pipes: IPC 1 and 2);
 * and the solver, the flow graph, the profile file and the machine checks. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "statmodel/model_internal.h"
#include "statmodel/statmodel.h"

#define NEAR(a, b, tol)                                                                \
    do {                                                                               \
        double a_ = (a), b_ = (b);                                                     \
        if (fabs(a_ - b_) > (tol)) fail_msg("%s = %.12g, expected %.12g", #a, a_, b_); \
    } while (0)

/* ---- one-pipe, §3.4 ---- */

/* Figure 3.4: instructions 0 1 4 5 6 0 1 2 3 5 6 with their (y, s). The
 * distinct (y, s) pairs are the instruction numbers. */
static const sm_instr ONE_INSTR[] = {
    {.y = 0, .s = {1, 0, 0}, .count = 1}, /* A = 0/1 */
    {.y = 1, .s = {0, 0, 0}, .count = 1}, /* B = 1/0 */
    {.y = 0, .s = {4, 0, 0}, .count = 1}, /* C = 0/4 */
    {.y = 1, .s = {5, 0, 0}, .count = 1}, /* D = 1/5 */
    {.y = 0, .s = {5, 0, 0}, .count = 1}, /* E = 0/5 */
};
/*                                  0  1  4  5  6  0  1  2  3  5  6 */
static const uint32_t ONE_TRACE[] = {0, 1, 0, 2, 1, 0, 1, 0, 3, 4, 1};

static void one_graph(sm_graph *g) {
    cs_error err = {{0}};
    if (!sm_graph_from_stream(g, ONE_INSTR, 5, ONE_TRACE, 11, 2, 0, &err)) fail_msg("%s", err.msg);
}

static sm_machine one_machine(void) {
    sm_machine m = {0};
    m.depth[0] = 2; /* §3.4: "a latency of two cycles" */
    m.pred = SM_PRED_NONE_MODEL;
    m.icache_blocks = m.dcache_blocks = -1;
    return m;
}

/* The three-pipe machine of Ch. 4 with the given pipe depths (int, FP, memory), no caches */
static sm_machine three_machine(uint32_t int_depth, uint32_t fp_depth, uint32_t mem_depth, int pred) {
    sm_machine m = {0};
    m.three = true;
    m.depth[SM_INT] = int_depth, m.depth[SM_FP] = fp_depth, m.depth[SM_MEM] = mem_depth;
    m.pred = pred;
    m.icache_blocks = m.dcache_blocks = -1;
    return m;
}

/* Table 3.1: after 1/0, 0/1 come 0/4 (1/4), 1/0 (2/4), 1/5 (1/4). */
static void test_table_3_1(void **state) {
    (void)state;
    sm_graph g;
    one_graph(&g);
    assert_int_equal(g.ninstr, 5);
    int found = 0;
    for (uint32_t n = 0; n < g.nnode; n++) {
        const uint32_t *w = g.node_instr + n * 2;
        if (!(w[0] == 1 && w[1] == 0)) continue;
        found = 1;
        uint64_t total = 0;
        for (uint32_t e = g.edge_start[n]; e < g.edge_start[n + 1]; e++) total += g.edge_count[e];
        assert_int_equal(total, 4);
        assert_int_equal(g.edge_start[n + 1] - g.edge_start[n], 3);
        for (uint32_t e = g.edge_start[n]; e < g.edge_start[n + 1]; e++) {
            uint32_t next = g.node_instr[g.edge_to[e] * 2 + 1];
            uint64_t want = next == 2 ? 1 : next == 1 ? 2 : next == 3 ? 1 : 99;
            assert_int_equal(g.edge_count[e], want);
        }
    }
    assert_true(found);
    sm_graph_free(&g);
}

/* Figure 3.6's states in its order, its matrix, and Table 3.3. */
static const char *FIG36_STATE[13] = {
    "1, 1, 01, 0/1, 1/0", "0, 1, 10, 1/0, 0/1", "0, 1, 01, 1/0, 0/1", "1, 0, 10, 0/1, 0/4", "1, 1, 01, 0/1, 0/4",
    "1, 1, 10, 0/4, 1/0", "0, 1, 11, 1/0, 0/1", "1, 0, 10, 0/1, 1/0", "1, 0, 10, 0/1, 1/5", "1, 1, 01, 0/1, 1/5",
    "0, 1, 10, 1/5, 0/5", "1, 0, 11, 0/5, 1/0", "1, 1, 01, 0/5, 1/0"};
static const struct {
    int from, to;
    double p;
} FIG36_ENTRY[] = {{0, 1, 1}, {1, 2, 1}, {2, 3, 0.25}, {2, 7, 0.5}, {2, 8, 0.25}, {3, 4, 1},   {4, 5, 1}, {5, 6, 1},
                   {6, 2, 1}, {7, 0, 1}, {8, 9, 1},    {9, 10, 1},  {10, 11, 1},  {11, 12, 1}, {12, 1, 1}};
static const double TABLE33[13] = {0.10, 0.15, 0.20, 0.05, 0.05, 0.05, 0.05, 0.10, 0.05, 0.05, 0.05, 0.05, 0.05};
/* Table 3.2, cycles 0..19, in Figure 3.6's notation. */
static const char *TABLE32[20] = {
    "1, 1, 01, 0/1, 1/0", "0, 1, 10, 1/0, 0/1", "0, 1, 01, 1/0, 0/1", "1, 0, 10, 0/1, 0/4", "1, 1, 01, 0/1, 0/4",
    "1, 1, 10, 0/4, 1/0", "0, 1, 11, 1/0, 0/1", "0, 1, 01, 1/0, 0/1", "1, 0, 10, 0/1, 1/0", "1, 1, 01, 0/1, 1/0",
    "0, 1, 10, 1/0, 0/1", "0, 1, 01, 1/0, 0/1", "1, 0, 10, 0/1, 1/5", "1, 1, 01, 0/1, 1/5", "0, 1, 10, 1/5, 0/5",
    "1, 0, 11, 0/5, 1/0", "1, 1, 01, 0/5, 1/0", "0, 1, 10, 1/0, 0/1", "0, 1, 01, 1/0, 0/1", "1, 0, 10, 0/1, 1/0"};

static long find_state(const sm_graph *g, const sm_chain *c, const char *name) {
    char buf[64];
    long hit = -1;
    for (uint32_t i = 0; i < sm_chain_count(c); i++) {
        sm_onepipe_describe(g, c, i, buf, sizeof buf);
        if (!strcmp(buf, name)) {
            if (hit >= 0) fail_msg("two states print as %s", name);
            hit = i;
        }
    }
    return hit;
}

static double transition(const sm_chain *c, uint32_t i, uint32_t j) {
    const uint32_t *to;
    const double *p;
    double s = 0;
    uint32_t n = sm_chain_out(c, i, &to, &p, NULL);
    for (uint32_t e = 0; e < n; e++)
        if (to[e] == j) s += p[e];
    return s;
}

static void test_one_pipe(void **state) {
    (void)state;
    sm_graph g;
    one_graph(&g);
    sm_machine m = one_machine();
    sm_result r;
    sm_chain *c = NULL;
    cs_error err = {{0}};
    if (!sm_solve_onepipe_keep(&g, &m, &r, &c, &err)) fail_msg("%s", err.msg);
    const double *d = sm_chain_dist(c);
    long idx[13];
    for (int k = 0; k < 13; k++) {
        idx[k] = find_state(&g, c, FIG36_STATE[k]);
        if (idx[k] < 0) fail_msg("state %s of Figure 3.6 missing", FIG36_STATE[k]);
        NEAR(d[idx[k]], TABLE33[k], 1e-9); /* Table 3.3 */
    }
    /* No other state is recurrent (the rest are the empty machine's start-up). */
    double sum = 0;
    for (int k = 0; k < 13; k++) sum += d[idx[k]];
    NEAR(sum, 1, 1e-9);
    /* Figure 3.6: every entry, and nothing else among these states. */
    for (int a = 0; a < 13; a++)
        for (int b = 0; b < 13; b++) {
            double want = 0;
            for (size_t e = 0; e < sizeof FIG36_ENTRY / sizeof FIG36_ENTRY[0]; e++)
                if (FIG36_ENTRY[e].from == a && FIG36_ENTRY[e].to == b) want = FIG36_ENTRY[e].p;
            NEAR(transition(c, (uint32_t)idx[a], (uint32_t)idx[b]), want, 1e-12);
        }
    /* Table 3.2: the 20 cycles are a path through the chain, and the loop closes. */
    for (int t = 0; t < 20; t++) {
        long a = find_state(&g, c, TABLE32[t]), b = find_state(&g, c, TABLE32[(t + 1) % 20]);
        if (a < 0 || b < 0) fail_msg("cycle %d: state missing", t);
        if (!(transition(c, (uint32_t)a, (uint32_t)b) > 0)) fail_msg("no transition cycle %d -> %d", t, t + 1);
    }
    /* §3.4.2: IPC = [0.45, 0.55], average 0.55 = 11/20. */
    NEAR(r.issue_dist[0], 0.45, 1e-9);
    NEAR(r.issue_dist[1], 0.55, 1e-9);
    NEAR(r.ipc, 0.55, 1e-9);
    sm_chain_free(c);
    sm_graph_free(&g);
}

/* With perfect prediction the same loop has no bubbles: only its four s = 0
 * dependences stall, a cycle each: 11 instructions in 15 cycles. */
static void test_one_pipe_perfect(void **state) {
    (void)state;
    sm_graph g;
    one_graph(&g);
    sm_machine m = one_machine();
    m.pred = SM_PRED_PERFECT_MODEL;
    sm_result r;
    cs_error err = {{0}};
    if (!sm_solve_onepipe(&g, &m, &r, &err)) fail_msg("%s", err.msg);
    NEAR(r.ipc, 11.0 / 15.0, 1e-9);
    sm_graph_free(&g);
}

/* ---- three-pipe, §4.2 ---- */

/* Figure 4.1: types and typed distances (integer distances kept up to 1,
 * §5.2; the instruction numbers are the distinct (y, s_int, s_fp, s_mem)). */
static const sm_instr THREE_INSTR[] = {
    {.y = 2, .s = {1, 5, 0}, .count = 1}, /* P: instruction 0 */
    {.y = 3, .s = {1, 5, 0}, .count = 1}, /* Q: 1 and 6 */
    {.y = 0, .s = {1, 5, 0}, .count = 1}, /* R: 4 and 2 */
    {.y = 2, .s = {1, 5, 1}, .count = 1}, /* S: 5 */
    {.y = 3, .s = {1, 5, 5}, .count = 1}, /* T: 3 */
};
/*                                    0  1  4  5  6  0  1  2  3  5  6 */
static const uint32_t THREE_TRACE[] = {0, 1, 2, 3, 1, 0, 1, 2, 4, 3, 1};

/* Table 4.2 (y^I, y_p^I, x_I: stationary probability; cycles of Table 4.1). */
static const struct {
    const char *state;
    int cycles;
} TABLE42[] = {{"2302,23,0", 1}, {"2302,23,2", 1}, {"3023,32,1", 2}, {"0232,23,0", 1}, {"0232,23,2", 1},
               {"3230,02,1", 2}, {"2303,23,0", 1}, {"2303,23,2", 1}, {"3032,32,1", 2}, {"0323,23,0", 1},
               {"0323,23,2", 1}, {"3232,30,1", 1}, {"2323,03,0", 1}, {"2323,03,2", 1}, {"3230,32,1", 2}};
/* Table 4.1's issue state per cycle 0..18. */
static const char *TABLE41_ISSUE[19] = {"2302,23,0", "2302,23,2", "3023,32,1", "3023,32,1", "0232,23,0",
                                        "0232,23,2", "3230,02,1", "3230,02,1", "2303,23,0", "2303,23,2",
                                        "3032,32,1", "3032,32,1", "0323,23,0", "0323,23,2", "3232,30,1",
                                        "2323,03,0", "2323,03,2", "3230,32,1", "3230,32,1"};

static long find_issue(const sm_graph *g, const sm_chain *c, const char *name) {
    char buf[64];
    long hit = -1;
    for (uint32_t i = 0; i < sm_chain_count(c); i++) {
        sm_issue_describe(g, c, i, buf, sizeof buf);
        if (!strcmp(buf, name) && (hit < 0 || sm_chain_dist(c)[i] > sm_chain_dist(c)[hit])) hit = i;
    }
    return hit;
}

static void test_three_pipe(void **state) {
    (void)state;
    sm_graph g;
    cs_error err = {{0}};
    /* The Ch. 4 state: two previous and four next types (window 6, offset 2). */
    if (!sm_graph_from_stream(&g, THREE_INSTR, 5, THREE_TRACE, 11, 6, 2, &err)) fail_msg("%s", err.msg);
    sm_machine m = three_machine(1, 5, 2, SM_PRED_NONE_MODEL); /* §3.5 */
    sm_result r;
    sm_chain *ic = NULL;
    if (!sm_solve_threepipe_keep(&g, &m, &r, &ic, &err)) fail_msg("%s", err.msg);
    const double *d = sm_chain_dist(ic);
    double sum = 0;
    for (size_t k = 0; k < sizeof TABLE42 / sizeof TABLE42[0]; k++) {
        long i = find_issue(&g, ic, TABLE42[k].state);
        if (i < 0) fail_msg("issue state %s of Table 4.2 missing", TABLE42[k].state);
        NEAR(d[i], TABLE42[k].cycles / 19.0, 1e-9);
        sum += d[i];
    }
    NEAR(sum, 1, 1e-9);
    /* Table 4.2's two-way states: stay (issue 0) or move on (issue 1), 0.5 each. */
    static const char *split[4] = {"3023,32,1", "3230,02,1", "3032,32,1", "3230,32,1"};
    for (int k = 0; k < 4; k++) {
        long i = find_issue(&g, ic, split[k]);
        NEAR(transition(ic, (uint32_t)i, (uint32_t)i), 0.5, 1e-9);
    }
    /* Table 4.1: the issue states of the 19 cycles are a path of the chain.
     * (Table 4.2's "next state" column repeats some states by mistake, e.g.
     * 2302,23,2 -> 2302,23,2; Table 4.1 is the reference.) */
    for (int t = 0; t < 19; t++) {
        long a = find_issue(&g, ic, TABLE41_ISSUE[t]), b = find_issue(&g, ic, TABLE41_ISSUE[(t + 1) % 19]);
        if (!(transition(ic, (uint32_t)a, (uint32_t)b) > 0)) fail_msg("no transition cycle %d -> %d", t, t + 1);
    }
    /* §4.2.2: IPC = [0.474, 0.474, 0.053] = [9, 9, 1] / 19, average 11/19. */
    NEAR(r.issue_dist[0], 9.0 / 19, 1e-9);
    NEAR(r.issue_dist[1], 9.0 / 19, 1e-9);
    NEAR(r.issue_dist[2], 1.0 / 19, 1e-9);
    NEAR(r.ipc, 11.0 / 19, 1e-9);
    assert_int_equal(r.ncomp, 5);
    assert_true(r.relax_iterations > 1);
    sm_chain_free(ic);
    sm_graph_free(&g);
}

/* §4.3/§5.3: fadd, add, fadd (s_fp 0), add, fadd (s_fp 1), add, repeated.
 * With the flow graph the FP pipe cycles through seven states per iteration:
 * six instructions in seven cycles. */
static void test_fp_aliasing(void **state) {
    (void)state;
    static const sm_instr in[] = {
        {.y = 1, .s = {1, 5, 5}, .count = 1}, /* T100 */
        {.y = 0, .s = {1, 5, 5}, .count = 1}, /* T101, T103, T105 */
        {.y = 1, .s = {1, 0, 5}, .count = 1}, /* T102 */
        {.y = 1, .s = {1, 1, 5}, .count = 1}, /* T104 */
    };
    static const uint32_t trace[] = {0, 1, 2, 1, 3, 1};
    sm_graph g;
    cs_error err = {{0}};
    if (!sm_graph_from_stream(&g, in, 4, trace, 6, 2, 0, &err)) fail_msg("%s", err.msg);
    assert_int_equal(g.nnode, 6); /* Figure 5.2: six sequences */
    sm_machine m = three_machine(1, 5, 2, SM_PRED_PERFECT_MODEL);
    sm_result r;
    if (!sm_solve_threepipe(&g, &m, &r, &err)) fail_msg("%s", err.msg);
    NEAR(r.ipc, 6.0 / 7, 1e-9);
    sm_graph_free(&g);
}

/* §8.2: a chain of FP instructions each reading the previous one's result:
 * unpredicted, it waits for the result (5 cycles each, the pipe's depth);
 * correctly predicted, it issues the cycle after its source (1 each);
 * mispredicted, a cycle after the result (6 each). */
static void test_value_prediction_chain(void **state) {
    (void)state;
    static const struct {
        uint8_t flag;
        double ipc;
    } cases[] = {{SM_VP_NONE, 1.0 / 5}, {SM_VP_RIGHT, 1.0}, {SM_VP_WRONG, 1.0 / 6}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sm_instr in[1] = {{.y = SM_FP, .s = {1, 0, 5}, .v = {0, cases[c].flag, 0}, .count = 1}};
        uint32_t trace[4] = {0, 0, 0, 0};
        sm_graph g;
        cs_error err = {{0}};
        if (!sm_graph_from_stream(&g, in, 1, trace, 4, 2, 0, &err)) fail_msg("%s", err.msg);
        sm_machine m = three_machine(1, 5, 2, SM_PRED_PERFECT_MODEL);
        sm_result r;
        if (!sm_solve_threepipe(&g, &m, &r, &err)) fail_msg("%s", err.msg);
        NEAR(r.ipc, cases[c].ipc, 1e-9);
        sm_graph_free(&g);
    }
}

/* §7.2 with a closed form: a load that always misses and a dependent load
 * after it (a pointer chase): each waits for the other, so each costs the
 * memory pipe's two stages plus the miss latency L. */
static void test_dcache_chase(void **state) {
    (void)state;
    sm_instr in[1] = {{.y = SM_MEM, .s = {1, 5, 0}, .count = 1, .dhist = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1}}};
    uint32_t trace[4] = {0, 0, 0, 0};
    sm_graph g;
    cs_error err = {{0}};
    if (!sm_graph_from_stream(&g, in, 1, trace, 4, 2, 0, &err)) fail_msg("%s", err.msg);
    for (uint32_t lat = 1; lat <= 16; lat *= 2) {
        sm_machine m = three_machine(1, 5, 2, SM_PRED_PERFECT_MODEL);
        m.dcache_blocks = 1024;
        m.miss_latency = lat;
        sm_result r;
        if (!sm_solve_threepipe(&g, &m, &r, &err)) fail_msg("%s", err.msg);
        NEAR(1 / r.ipc, 2.0 + lat, 1e-9);
    }
    sm_graph_free(&g);
}

/* ---- the solver ---- */

/* A birth-death chain with a known answer: d_i proportional to (p/q)^i. */
static void test_gauss_seidel(void **state) {
    (void)state;
    sm_chain *c = sm_chain_create(sizeof(uint32_t));
    const uint32_t n = 50;
    const double p = 0.3, q = 0.5;
    for (uint32_t i = 0; i < n; i++) sm_chain_state(c, &i);
    for (uint32_t i = 0; i < n; i++) {
        double up = i + 1 < n ? p : 0, down = i > 0 ? q : 0;
        if (up > 0) sm_chain_add(c, i, i + 1, up, 0);
        if (down > 0) sm_chain_add(c, i, i - 1, down, 0);
        sm_chain_add(c, i, i, 1 - up - down, 0);
    }
    uint32_t it;
    cs_error err = {{0}};
    if (!sm_chain_solve(c, &it, &err)) fail_msg("%s", err.msg);
    double z = 0;
    for (uint32_t i = 0; i < n; i++) z += pow(p / q, i);
    /* the solver stops at a residual of 1e-11; this chain's spectral gap makes that
     * an error of a few 1e-10 at most */
    for (uint32_t i = 0; i < n; i++) NEAR(sm_chain_dist(c)[i], pow(p / q, i) / z, 1e-9);
    sm_chain_free(c);
    /* Rows that do not sum to one are refused, not solved. */
    c = sm_chain_create(sizeof(uint32_t));
    uint32_t a = 0, b = 1;
    sm_chain_state(c, &a);
    sm_chain_state(c, &b);
    sm_chain_add(c, 0, 1, 0.5, 0);
    sm_chain_add(c, 1, 0, 1, 0);
    assert_false(sm_chain_solve(c, &it, &err));
    assert_non_null(strstr(err.msg, "sum to"));
    sm_chain_free(c);
}

/* sm_chain_add merges a repeated (successor, label) into one transition, keeps
 * the transitions in the order first added (the solver's sums follow it), and
 * does so when the additions to two states interleave (its index is rebuilt)
 * and for states with hundreds of successors (the index grows). */
static void test_chain_add_merge(void **state) {
    (void)state;
    sm_chain *c = sm_chain_create(sizeof(uint32_t));
    const uint32_t n = 300;
    for (uint32_t i = 0; i < n; i++) sm_chain_state(c, &i);
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t j = 0; j < n; j++) {
            sm_chain_add(c, 0, j, 0.25 / n, (uint8_t)(j % 2)); /* twice per pass: four quarters */
            sm_chain_add(c, 1, (j * 7) % n, 0.5 / n, 0);
            sm_chain_add(c, 0, j, 0.25 / n, (uint8_t)(j % 2));
        }
    sm_chain_add(c, 0, 5, 0.5, 0); /* (5, label 1) exists; (5, label 0) is new and last */
    const uint32_t *to;
    const double *p;
    const uint8_t *lab;
    assert_int_equal(sm_chain_out(c, 0, &to, &p, &lab), n + 1);
    for (uint32_t j = 0; j < n; j++) {
        assert_int_equal(to[j], j);
        assert_int_equal(lab[j], j % 2);
        NEAR(p[j], 1.0 / n, 1e-15);
    }
    assert_int_equal(to[n], 5);
    assert_int_equal(lab[n], 0);
    NEAR(p[n], 0.5, 1e-15);
    assert_int_equal(sm_chain_out(c, 1, &to, &p, &lab), n); /* 7 and 300 are coprime: every state once */
    for (uint32_t j = 0; j < n; j++) {
        assert_int_equal(to[j], (j * 7) % n);
        NEAR(p[j], 1.0 / n, 1e-15);
    }
    assert_int_equal(sm_chain_transitions(c), 2 * n + 1);
    sm_chain_free(c);
}

/* Directly indexed states (sm_chain_set_dense) are the same states, in the
 * same order, as hashed ones; a key outside the space is simply not found. */
static void test_chain_dense(void **state) {
    (void)state;
    sm_chain *hashed = sm_chain_create(8), *dense = sm_chain_create(8);
    sm_chain_set_dense(dense, 7, (const uint8_t[4]){2, 3, 1, 5});
    for (uint32_t r = 0; r < 500; r++) {
        uint32_t x = r * 2654435761u % 210; /* 7 * 2 * 3 * 5 places, visited out of order and repeatedly */
        uint8_t key[8];
        uint32_t node = x / 30;
        memcpy(key, &node, 4);
        key[4] = (uint8_t)(x / 15 % 2), key[5] = (uint8_t)(x / 5 % 3), key[6] = 0, key[7] = (uint8_t)(x % 5);
        assert_int_equal(sm_chain_state(dense, key), sm_chain_state(hashed, key));
        assert_int_equal(sm_chain_find(dense, key), sm_chain_find(hashed, key));
    }
    assert_int_equal(sm_chain_count(dense), sm_chain_count(hashed));
    uint8_t outside[8] = {0, 0, 0, 0, 0, 0, 1, 0}; /* byte 6's radix is 1 */
    assert_int_equal(sm_chain_find(dense, outside), -1);
    uint32_t far = 7;
    memcpy(outside, &far, 4);
    outside[6] = 0;
    assert_int_equal(sm_chain_find(dense, outside), -1);
    sm_chain_free(hashed);
    sm_chain_free(dense);
}

/* The growable arrays' helper: capacities double from the first size until
 * the need fits, and the contents survive the growth. */
static void test_grow(void **state) {
    (void)state;
    assert_int_equal(sm_grow_cap(0, 1, 4), 4);
    assert_int_equal(sm_grow_cap(0, 5, 4), 8);
    assert_int_equal(sm_grow_cap(4, 5, 4), 8);
    assert_int_equal(sm_grow_cap(8, 8, 4), 8);
    assert_int_equal(sm_grow_cap(4, 100, 4), 128);
    assert_int_equal(sm_grow_cap(3, 7, 256), 12);
    uint64_t *v = NULL;
    uint32_t cap = 0;
    for (uint32_t i = 0; i < 1000; i++) {
        SM_GROW(v, cap, i + 1, 16);
        assert_true(cap >= i + 1);
        v[i] = (uint64_t)i * i;
    }
    assert_int_equal(cap, 1024);
    for (uint32_t i = 0; i < 1000; i++) assert_int_equal(v[i], (uint64_t)i * i);
    free(v);
}

/* --max-states: a clear error naming the component and the limit. */
static void test_max_states(void **state) {
    (void)state;
    sm_graph g;
    cs_error err = {{0}};
    if (!sm_graph_from_stream(&g, THREE_INSTR, 5, THREE_TRACE, 11, 2, 0, &err)) fail_msg("%s", err.msg);
    sm_machine m = three_machine(1, 5, 2, SM_PRED_NONE_MODEL);
    m.max_states = 5;
    sm_result r;
    assert_false(sm_solve_threepipe(&g, &m, &r, &err));
    if (!strstr(err.msg, "component issue: more than 5 states")) fail_msg("%s", err.msg);
    m.depth[SM_FP] = 7;
    m.max_states = 0;
    assert_false(sm_solve_threepipe(&g, &m, &r, &err));
    if (!strstr(err.msg, "pipe.fp with 7 stages is not modelled")) fail_msg("%s", err.msg);
    sm_graph_free(&g);
}

/* ---- the matrix-multiplication model, Ch. 2 ---- */

/* §2.4.1's worked example: Y x [0.20 0.50 0.30] = [0.28 0.54 0.18]. */
static void test_matrix_fig_2_3(void **state) {
    (void)state;
    double Y[SM_MM_N][SM_MM_N] = {{0}}, x[SM_MM_N] = {0.20, 0.50, 0.30}, y[SM_MM_N];
    double rows[3][3] = {{1.00, 0.10, 0.10}, {0.00, 0.90, 0.30}, {0.00, 0.00, 0.60}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) Y[i][j] = rows[i][j];
    sm_pdf_apply((const double(*)[SM_MM_N])Y, x, y);
    NEAR(y[0], 0.28, 1e-12);
    NEAR(y[1], 0.54, 1e-12);
    NEAR(y[2], 0.18, 1e-12);
    for (int i = 3; i < SM_MM_N; i++) NEAR(y[i], 0, 0);
}

#define NO_DEP \
    { SM_SMAX_INT, SM_SMAX, SM_SMAX }

static void matrix_on(const sm_instr *in, uint32_t nin, const uint32_t *trace, size_t n, bool three, int pred,
                      sm_matrix_model *mm) {
    sm_graph g;
    cs_error err = {{0}};
    if (!sm_graph_from_stream(&g, in, nin, trace, n, 2, 0, &err)) fail_msg("%s", err.msg);
    if (!sm_matrix_model_build(&g, three, three ? 2 : 1, pred, 1.0, mm, &err)) fail_msg("%s", err.msg);
    sm_graph_free(&g);
}

/* Known answers on the three-pipe machine (width 2, one-cycle pipes, one
 * instruction per pipe and cycle), perfect prediction, no branches. */
static void test_matrix_known_answers(void **state) {
    (void)state;
    sm_matrix_model mm;
    /* a fully dependent chain: every integer instruction reads the last one */
    const sm_instr chain[] = {{.y = SM_INT, .s = {0, SM_SMAX, SM_SMAX}, .count = 1}};
    const uint32_t chain_trace[] = {0, 0, 0, 0};
    matrix_on(chain, 1, chain_trace, 4, true, SM_PRED_PERFECT_MODEL, &mm);
    NEAR(mm.ipc, 1.0, 1e-12);
    NEAR(mm.p_D[1], 1.0, 1e-12);
    /* a fully independent stream over two pipes: two every cycle */
    const sm_instr indep[] = {{.y = SM_INT, .s = NO_DEP, .count = 1}, {.y = SM_MEM, .s = NO_DEP, .count = 1}};
    const uint32_t indep_trace[] = {0, 1, 0, 1};
    matrix_on(indep, 2, indep_trace, 4, true, SM_PRED_PERFECT_MODEL, &mm);
    NEAR(mm.ipc, 2.0, 1e-12);
    NEAR(mm.m_I[2], 1.0, 1e-12);
    /* independent, but one pipe: M_I issues one (the structural limit) */
    const uint32_t same_trace[] = {0, 0, 0, 0};
    matrix_on(indep, 2, same_trace, 4, true, SM_PRED_PERFECT_MODEL, &mm);
    NEAR(mm.p_D[2], 1.0, 1e-12);
    NEAR(mm.ipc, 1.0, 1e-12);
    /* an FP chain: the distance counts FP instructions (s = 0: the last one) */
    const sm_instr fp[] = {{.y = SM_FP, .s = {SM_SMAX_INT, 0, SM_SMAX}, .count = 1},
                           {.y = SM_MEM, .s = NO_DEP, .count = 1}};
    const uint32_t fp_trace[] = {0, 0, 0, 0};
    matrix_on(fp, 2, fp_trace, 4, true, SM_PRED_PERFECT_MODEL, &mm);
    NEAR(mm.ipc, 1.0, 1e-12);
    /* int, then a load reading it: from the int the pair is dependent (1),
     * from the load the pair is ready and in two pipes (2): IPC 1.5 */
    const sm_instr pair[] = {{.y = SM_INT, .s = NO_DEP, .count = 1},
                             {.y = SM_MEM, .s = {0, SM_SMAX, SM_SMAX}, .count = 1}};
    const uint32_t pair_trace[] = {0, 1, 0, 1};
    matrix_on(pair, 2, pair_trace, 4, true, SM_PRED_PERFECT_MODEL, &mm);
    NEAR(mm.p_D[1], 0.5, 1e-12);
    NEAR(mm.p_D[2], 0.5, 1e-12);
    NEAR(mm.ipc, 1.5, 1e-12);
}

/* Why the product errs on the buffered machine (docs/statmodel.md, the worst
 * case): a loop int, int, mem, nothing dependent, perfect prediction. The
 * product draws each cycle's pair from a uniformly chosen position: (int, int)
 * issues one, (int, mem) and (mem, int) two: IPC 5/3. The machine's issue
 * buffer keeps the int left behind, which pairs with the mem; the next cycle
 * starts at an int again: 1, 2, 1, 2: IPC 3/2, which the three-pipe Markov
 * chain (it keeps the buffer and seq_I) gives exactly. */
static void test_matrix_phase(void **state) {
    (void)state;
    const sm_instr in[] = {{.y = SM_INT, .s = NO_DEP, .count = 2}, {.y = SM_MEM, .s = NO_DEP, .count = 1}};
    const uint32_t trace[] = {0, 0, 1};
    sm_matrix_model mm;
    matrix_on(in, 2, trace, 3, true, SM_PRED_PERFECT_MODEL, &mm);
    NEAR(mm.m_I[1], 1.0 / 3, 1e-12);
    NEAR(mm.ipc, 5.0 / 3, 1e-12);
    sm_graph g;
    cs_error err = {{0}};
    if (!sm_graph_from_stream(&g, in, 2, trace, 3, 2, 0, &err)) fail_msg("%s", err.msg);
    sm_machine m = three_machine(1, 1, 1, SM_PRED_PERFECT_MODEL);
    sm_result r;
    if (!sm_solve_threepipe(&g, &m, &r, &err)) fail_msg("%s", err.msg);
    NEAR(r.ipc, 1.5, 1e-9);
    sm_graph_free(&g);
}

/* P_C with its 1/i rescaling (§2.4.1), M_F, m_B and the misprediction
 * bubbles on a loop of load, int, load, branch, nothing dependent. From a
 * random start the first branch is 1, 2, 3 or 4 instructions on (1/4 each);
 * divided by i and rescaled: 12/25, 6/25, 4/25, 3/25. */
static void test_matrix_control(void **state) {
    (void)state;
    const sm_instr in[] = {{.y = SM_MEM, .s = NO_DEP, .count = 2},
                           {.y = SM_INT, .s = NO_DEP, .count = 1},
                           {.y = SM_BR, .s = NO_DEP, .count = 1}};
    const uint32_t trace[] = {0, 1, 0, 2};
    sm_matrix_model mm;
    matrix_on(in, 3, trace, 4, true, SM_PRED_NONE_MODEL, &mm);
    NEAR(mm.P_C[0][1], 0, 1e-12);
    NEAR(mm.P_C[1][1], 12.0 / 25, 1e-12);
    NEAR(mm.P_C[2][1], 6.0 / 25, 1e-12);
    NEAR(mm.P_C[3][1], 4.0 / 25, 1e-12);
    NEAR(mm.P_C[4][1], 3.0 / 25, 1e-12);
    /* M_F: the thesis' two-wide fetch limit */
    for (int i = 0; i < SM_MM_N; i++)
        for (int j = 0; j < SM_MM_N; j++) NEAR(mm.M_F[i][j], i == (j < 2 ? j : 2) ? 1 : 0, 0);
    for (int j = 0; j < SM_MM_N; j++) {
        double col = 0;
        for (int i = 0; i < SM_MM_N; i++) col += mm.P_C[i][j];
        NEAR(col, 1, 1e-12);
    }
    /* no prediction: the next branch only, busy IPC 12/25 + 2 * 13/25 =
     * 38/25, one bubble per branch (1/4 per instruction) */
    NEAR(mm.mispred_rate, 1, 1e-12);
    NEAR(mm.mispred_per_instr, 0.25, 1e-12);
    double busy = 38.0 / 25;
    NEAR(mm.ipc, busy / (1 + 0.25 * busy), 1e-12);
    NEAR(mm.m_B[0], 1 - 1 / (1 + 0.25 * busy), 1e-12);
    /* perfect prediction: every branch visible, two fetched every cycle */
    matrix_on(in, 3, trace, 4, true, SM_PRED_PERFECT_MODEL, &mm);
    NEAR(mm.m_F[2], 1, 1e-12);
    NEAR(mm.ipc, 2, 1e-12);
    /* one-pipe machine (width 1): 1 / (1 + branches per instruction) */
    const sm_instr one[] = {{.y = 0, .s = {SM_SMAX, 0, 0}, .count = 3}, {.y = 1, .s = {SM_SMAX, 0, 0}, .count = 1}};
    const uint32_t one_trace[] = {0, 0, 0, 1};
    matrix_on(one, 2, one_trace, 4, false, SM_PRED_NONE_MODEL, &mm);
    NEAR(mm.ipc, 0.8, 1e-12);
}

/* What the matrix model cannot express is refused, saying what. */
static void test_matrix_refusals(void **state) {
    (void)state;
    sm_profile *p = cs_calloc(1, sizeof *p);
    cs_error err = {{0}};
    if (!sm_graph_from_stream(&p->three, THREE_INSTR, 5, THREE_TRACE, 11, 2, 0, &err)) fail_msg("%s", err.msg);
    sm_machine m = three_machine(1, 1, 1, SM_PRED_PERFECT_MODEL);
    sm_result r;
    assert_true(sm_solve_matrix(p, &m, &r, NULL, &err));
    assert_true(r.ipc > 0 && r.ipc <= 2);
    m.depth[SM_FP] = 5;
    assert_false(sm_solve_matrix(p, &m, &r, NULL, &err));
    assert_non_null(strstr(err.msg, "pipe.fp has 5 stages"));
    m.depth[SM_FP] = 1;
    m.dcache_blocks = 256;
    assert_false(sm_solve_matrix(p, &m, &r, NULL, &err));
    assert_non_null(strstr(err.msg, "caches are not modelled"));
    m.dcache_blocks = -1;
    m.vp = 1;
    assert_false(sm_solve_matrix(p, &m, &r, NULL, &err));
    assert_non_null(strstr(err.msg, "value prediction"));
    sm_graph_free(&p->three);
    free(p);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_3_1),
        cmocka_unit_test(test_one_pipe),
        cmocka_unit_test(test_one_pipe_perfect),
        cmocka_unit_test(test_three_pipe),
        cmocka_unit_test(test_fp_aliasing),
        cmocka_unit_test(test_gauss_seidel),
        cmocka_unit_test(test_max_states),
        cmocka_unit_test(test_value_prediction_chain),
        cmocka_unit_test(test_dcache_chase),
        cmocka_unit_test(test_matrix_fig_2_3),
        cmocka_unit_test(test_matrix_known_answers),
        cmocka_unit_test(test_matrix_control),
        cmocka_unit_test(test_matrix_phase),
        cmocka_unit_test(test_matrix_refusals),
        cmocka_unit_test(test_chain_add_merge),
        cmocka_unit_test(test_grow),
        cmocka_unit_test(test_chain_dense),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
