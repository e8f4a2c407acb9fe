/* The in-order machines of Noonburg's thesis against its worked examples,
 * reproduced cycle by cycle (Table 3.2: the one-pipe linked-list loop, IPC
 * 11/20; Table 4.1: the same loop on the three-pipe machine, IPC 11/19; §5.3:
 * the FP-pipe aliasing example, seven cycles per iteration), and against
 * closed-form answers on synthetic µop streams.
 *
 * The machine's state at each cycle is rebuilt from the per-µop timing records
 * the model hands its observers (uop_record): a µop is in the fetch buffer in
 * the states after the cycle it was fetched up to the cycle it moved on
 * (icache_done < t <= dispatch), in the issue buffer while dispatch < t <=
 * issue, and in stage t - issue - 1 of its pipe while issue < t <= complete. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "array_source.h"
#include "trace/trace.h"
#include "uarch/uarch.h"

/* ---- an observer that keeps every retire record and checks the cycle views ---- */

typedef struct recorder {
    uop_record *t;
    size_t n, cap;
    probe_run_info info;
    uint64_t next_cycle[STAGE_COUNT]; /* each stage's spans must cover every cycle exactly once */
    uint64_t stage_n[STAGE_COUNT];    /* µops each stage processed */
    uint64_t end_cycles, end_insns;
    char problem[256]; /* first inconsistency seen */
} recorder;

static void rec_begin(void *ctx, const probe_run_info *info) { ((recorder *)ctx)->info = *info; }

static void rec_stages(void *ctx, const stage_span *sp, size_t n) {
    recorder *r = ctx;
    for (size_t i = 0; i < n && !r->problem[0]; i++) {
        const stage_span *v = &sp[i];
        int s = v->stage;
        if (s >= STAGE_COUNT || v->cycle != r->next_cycle[s] || v->cycles < 1) {
            snprintf(r->problem, sizeof r->problem, "stage %d: span at cycle %llu (%llu cycles), expected cycle %llu",
                     s, (unsigned long long)v->cycle, (unsigned long long)v->cycles,
                     (unsigned long long)(s < STAGE_COUNT ? r->next_cycle[s] : 0));
            return;
        }
        r->next_cycle[s] += v->cycles;
        const stage_view *sv = &v->v;
        if (sv->width != r->info.width[s] || sv->n > sv->width || (sv->n == sv->width) != (sv->stall == STALL_NONE)) {
            snprintf(r->problem, sizeof r->problem, "cycle %llu stage %d: n %u width %u stall %s",
                     (unsigned long long)v->cycle, s, sv->n, sv->width, probe_stall_name((probe_stall)sv->stall));
            return;
        }
        r->stage_n[s] += (uint64_t)sv->n * v->cycles;
    }
}

static void rec_retire(void *ctx, const uop_record *t, size_t n) {
    recorder *r = ctx;
    for (size_t i = 0; i < n; i++) {
        if (r->n == r->cap) {
            r->cap = r->cap ? 2 * r->cap : 1024;
            r->t = realloc(r->t, r->cap * sizeof *r->t);
        }
        r->t[r->n++] = t[i];
    }
}

static void rec_end(void *ctx, const core_stats *st) {
    recorder *r = ctx;
    r->end_cycles = st->cycles;
    r->end_insns = st->instructions;
}

static void rec_free(recorder *r) {
    free(r->t);
    memset(r, 0, sizeof *r);
}

/* Everything the probes promise, on one run. */
static void check_probes(const recorder *r, const core_stats *s, size_t n) {
    if (r->problem[0]) fail_msg("cycle views: %s", r->problem);
    for (int st = 0; st < STAGE_COUNT; st++) assert_int_equal(r->next_cycle[st], s->cycles); /* every cycle once */
    assert_int_equal(r->end_cycles, s->cycles);
    assert_int_equal(r->end_insns, s->instructions);
    for (int st = 0; st < STAGE_COUNT; st++) assert_int_equal(r->stage_n[st], n);
    assert_int_equal(r->n, n);
    for (size_t i = 0; i < r->n; i++) {
        const uop_record *t = &r->t[i];
        assert_int_equal(t->seq, i + 1); /* program order */
        if (!(t->fetch <= t->icache_done && t->icache_done < t->dispatch && t->dispatch < t->issue &&
              t->ready <= t->issue && t->issue < t->complete && t->complete <= t->commit && t->commit < s->cycles))
            fail_msg("µop %zu: fetch %llu icache %llu dispatch %llu ready %llu issue %llu complete %llu commit %llu",
                     i + 1, (unsigned long long)t->fetch, (unsigned long long)t->icache_done,
                     (unsigned long long)t->dispatch, (unsigned long long)t->ready, (unsigned long long)t->issue,
                     (unsigned long long)t->complete, (unsigned long long)t->commit);
        if (i && t->commit < r->t[i - 1].commit) fail_msg("µop %zu commits before µop %zu", i + 1, i);
    }
}

/* ---- running ---- */

static void load(uarch_config *c, const char *name) {
    cs_error err;
    uarch_config_default(c);
    if (!uarch_config_load(c, name, &err)) fail_msg("%s", err.msg);
}

static void set(uarch_config *c, const char *assignment) {
    cs_error err;
    if (!uarch_config_set(c, assignment, &err)) fail_msg("%s", err.msg);
}

static core_stats run(const uarch_config *cfg, const uop *u, size_t n, recorder *rec) {
    cs_error err;
    core_t *core = core_create(cfg, &err);
    if (!core) fail_msg("core_create: %s", err.msg);
    if (rec) {
        memset(rec, 0, sizeof *rec);
        probe_observer o = {.ctx = rec,
                            .needs = PROBE_STAGES | PROBE_FETCH | PROBE_RETIRE,
                            .begin = rec_begin,
                            .stages = rec_stages,
                            .retire = rec_retire,
                            .end = rec_end};
        assert_true(core_observe(core, &o, &err));
    }
    array_source src = array_source_borrow(u, n);
    core_stats st;
    core_run_options opt = {0, 0, NULL};
    if (!core_run(core, &src.base, &opt, &st, &err)) fail_msg("core_run: %s", err.msg);
    core_destroy(core);
    assert_int_equal(st.instructions, n);
    if (rec) check_probes(rec, &st, n);
    return st;
}

static double cpi(const core_stats *s) { return (double)s->cycles / (double)s->instructions; }

static void assert_near(double got, double want, double tolerance, const char *what) {
    if (fabs(got - want) > tolerance) fail_msg("%s: got %.4f, want %.4f ± %.4f", what, got, want, tolerance);
}

/* ---- the linked-list loop of Figure 3.3 and its trace (Figures 3.4, 4.1) ----
 *
 * The loop walks a list of consecutive integers and adds each to one of two
 * sums, even or odd; the trace alternates the two paths. Static instructions,
 * numbered as in the figure:
 *    0: ld   x12, 0(x10)    node value                      (memory)
 *    1: bev  x12 -> 4       branch if even                  (branch)
 *    2: add  x14, x14, x12  odd sum                         (integer)
 *    3: j    5                                              (branch)
 *    4: add  x13, x13, x12  even sum                        (integer)
 *    5: ld   x10, 8(x10)    next node                       (memory)
 *    6: bnz  x10 -> 0                                       (branch)
 * Trace: 0 1 4 5 6 0 1 2 3 5 6, repeated. */

enum { LOOP_ITERS = 60, TRACE_LEN = 11 };
static const int trace_ids[TRACE_LEN] = {0, 1, 4, 5, 6, 0, 1, 2, 3, 5, 6};

static uop loop_insn(int id, uint64_t node, bool even) {
    uop u;
    memset(&u, 0, sizeof u);
    u.pc = 0x10000 + 4 * (uint64_t)id;
    u.next_pc = u.pc + 4;
    u.encoding = 0x00000013;
    switch (id) {
    case 0: u.op_class = OPC_LOAD, u.dst = 12, u.src[0] = 10, u.flags = UOP_MEM_READ, u.mem_addr = node; break;
    case 1:
        u.op_class = OPC_BRANCH, u.src[0] = 12;
        if (even) u.flags = UOP_TAKEN, u.next_pc = 0x10000 + 4 * 4;
        break;
    case 2: u.op_class = OPC_INT_ALU, u.dst = 14, u.src[0] = 14, u.src[1] = 12; break;
    case 3: u.op_class = OPC_JUMP, u.flags = UOP_TAKEN, u.next_pc = 0x10000 + 4 * 5; break;
    case 4: u.op_class = OPC_INT_ALU, u.dst = 13, u.src[0] = 13, u.src[1] = 12; break;
    case 5: u.op_class = OPC_LOAD, u.dst = 10, u.src[0] = 10, u.flags = UOP_MEM_READ, u.mem_addr = node + 8; break;
    case 6: u.op_class = OPC_BRANCH, u.src[0] = 10, u.flags = UOP_TAKEN, u.next_pc = 0x10000; break;
    }
    if (u.flags & UOP_MEM_READ) u.mem_size = 8;
    return u;
}

/* The trace, and each µop's static instruction number. */
static uop *loop_trace(int **ids, size_t *n) {
    *n = (size_t)LOOP_ITERS * TRACE_LEN;
    uop *u = calloc(*n, sizeof *u);
    *ids = calloc(*n, sizeof **ids);
    for (size_t i = 0; i < *n; i++) {
        size_t k = i % TRACE_LEN, node = 2 * (i / TRACE_LEN) + (k >= 5);
        (*ids)[i] = trace_ids[k];
        u[i] = loop_insn(trace_ids[k], 0x800000 + 64 * node, k < 5);
    }
    return u;
}

/* Dependent instruction distance (§3.2): intervening instructions between a
 * µop and its most recent source, capped at s_max = 5 (5 also when there is
 * none). With `typed`, only instructions of type `type` count (integer and
 * branch together, §3.2) and only sources of that type. */
enum { S_MAX = 5 };
static int type3(const uop *u) { /* the thesis' types in Figure 4.1: 0 int, 1 fp, 2 mem, 3 branch */
    if (uop_is_control(u)) return 3;
    if (u->flags & (UOP_MEM_READ | UOP_MEM_WRITE)) return 2;
    return u->op_class >= OPC_FP_ADD && u->op_class <= OPC_FP_MISC ? 1 : 0;
}
static int dep_group(int type) { return type == 3 ? 0 : type; }

static int distance(const uop *u, size_t i, int group) {
    int best = S_MAX;
    for (int k = 0; k < 3 && u[i].src[k]; k++) {
        int between = 0;
        for (size_t j = i; j-- > 0;) {
            if (u[j].dst == u[i].src[k]) {
                if (group < 0 || dep_group(type3(&u[j])) == group) {
                    if (between < best) best = between;
                }
                break;
            }
            if (group < 0 || dep_group(type3(&u[j])) == group) between++;
        }
    }
    return best;
}

/* ---- rebuilding the state at a cycle from the retire records ---- */

static bool in_fetch(const uop_record *t, uint64_t c) { return t->icache_done < c && c <= t->dispatch; }
static bool in_issue(const uop_record *t, uint64_t c) { return t->dispatch < c && c <= t->issue; }
static bool in_pipe(const uop_record *t, uint64_t c) { return t->issue < c && c <= t->complete; }

/* The static numbers of the µops in a buffer, oldest first, padded with 'x' to
 * `cap` characters (the notation of Table 4.1). */
static void buffer_string(const recorder *r, const int *ids, uint64_t c, bool fetch, int cap, char *out) {
    int k = 0;
    for (size_t i = 0; i < r->n; i++)
        if (fetch ? in_fetch(&r->t[i], c) : in_issue(&r->t[i], c)) out[k++] = (char)('0' + ids[i]);
    while (k < cap) out[k++] = 'x';
    out[k] = 0;
}

/* A pipe's contents stage by stage ('x' empty) and its occupancy bit vector. */
static void pipe_string(const recorder *r, const int *ids, uint64_t c, bool (*mine)(const uop *), int stages,
                        char *contents, char *bits) {
    for (int s = 0; s < stages; s++) contents[s] = 'x', bits[s] = '0';
    contents[stages] = bits[stages] = 0;
    for (size_t i = 0; i < r->n; i++) {
        const uop_record *t = &r->t[i];
        if (!mine(&t->u) || !in_pipe(t, c)) continue;
        int s = (int)(c - t->issue - 1);
        assert_true(s < stages && contents[s] == 'x');
        contents[s] = ids ? (char)('0' + ids[i]) : '?';
        bits[s] = '1';
    }
}

static bool any_uop(const uop *u) {
    (void)u;
    return true;
}
static bool int_pipe(const uop *u) { return !(u->flags & (UOP_MEM_READ | UOP_MEM_WRITE)); }
static bool mem_pipe(const uop *u) { return (u->flags & (UOP_MEM_READ | UOP_MEM_WRITE)) != 0; }
static bool fp_pipe(const uop *u) { return u->op_class >= OPC_FP_ADD && u->op_class <= OPC_FP_MISC; }

/* The k-th next µop to issue at cycle c (index into the records), or -1. */
static long next_to_issue(const recorder *r, uint64_t c, int k) {
    for (size_t i = 0; i < r->n; i++)
        if (r->t[i].issue >= c) return i + (size_t)k < r->n ? (long)(i + (size_t)k) : -1;
    return -1;
}

/* ---- Table 3.2: the one-pipe processor, no branch prediction ---- */

/* Table 3.2 (Noonburg §3.4.2), transcribed: the instruction in the fetch
 * buffer, the issue buffer and the two pipe stages (-1: empty), x_P, and the
 * type/distance of the next two instructions to issue. x_F and x_I are 1
 * exactly where fetch and issue hold an instruction. */
static const struct {
    int fetch, issue, pipe0, pipe1;
    const char *xp;
    int y0, s0, y1, s1;
} table_3_2[20] = {
    {1, 0, -1, 6, "01", 0, 1, 1, 0},  /* 0 */
    {-1, 1, 0, -1, "10", 1, 0, 0, 1}, /* 1 */
    {-1, 1, -1, 0, "01", 1, 0, 0, 1}, /* 2 */
    {4, -1, 1, -1, "10", 0, 1, 0, 4}, /* 3 */
    {5, 4, -1, 1, "01", 0, 1, 0, 4},  /* 4 */
    {6, 5, 4, -1, "10", 0, 4, 1, 0},  /* 5 */
    {-1, 6, 5, 4, "11", 1, 0, 0, 1},  /* 6 */
    {-1, 6, -1, 5, "01", 1, 0, 0, 1}, /* 7 */
    {0, -1, 6, -1, "10", 0, 1, 1, 0}, /* 8 */
    {1, 0, -1, 6, "01", 0, 1, 1, 0},  /* 9 */
    {-1, 1, 0, -1, "10", 1, 0, 0, 1}, /* 10 */
    {-1, 1, -1, 0, "01", 1, 0, 0, 1}, /* 11 */
    {2, -1, 1, -1, "10", 0, 1, 1, 5}, /* 12 */
    {3, 2, -1, 1, "01", 0, 1, 1, 5},  /* 13 */
    {-1, 3, 2, -1, "10", 1, 5, 0, 5}, /* 14 */
    {5, -1, 3, 2, "11", 0, 5, 1, 0},  /* 15 */
    {6, 5, -1, 3, "01", 0, 5, 1, 0},  /* 16 */
    {-1, 6, 5, -1, "10", 1, 0, 0, 1}, /* 17 */
    {-1, 6, -1, 5, "01", 1, 0, 0, 1}, /* 18 */
    {0, -1, 6, -1, "10", 0, 1, 1, 0}, /* 19 */
};

/* Figure 3.4: types (1 = branch) and distances of the trace 0 1 4 5 6 0 1 2 3 5 6. */
static const int fig_3_4_y[TRACE_LEN] = {0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1};
static const int fig_3_4_s[TRACE_LEN] = {1, 0, 1, 4, 0, 1, 0, 1, 5, 5, 0};

static int one_pipe_type(const uop *u) { return uop_is_control(u) ? 1 : 0; }

static void test_table_3_2_one_pipe(void **state) {
    (void)state;
    int *ids;
    size_t n;
    uop *u = loop_trace(&ids, &n);
    /* the µops carry the trace of Figure 3.4 (after its first iteration, whose
     * first instruction has no predecessor) */
    for (size_t i = TRACE_LEN; i < 2 * TRACE_LEN; i++) {
        assert_int_equal(one_pipe_type(&u[i]), fig_3_4_y[i % TRACE_LEN]);
        assert_int_equal(distance(u, i, -1), fig_3_4_s[i % TRACE_LEN]);
    }
    uarch_config c;
    load(&c, "inorder1"); /* bpred none, perfect caches */
    recorder r;
    core_stats s = run(&c, u, n, &r);

    /* align: table cycle 0 is when the "0" of an even path, in steady state, is in issue */
    const size_t k0 = 20 * TRACE_LEN; /* the 21st even path */
    uint64_t c0 = r.t[k0].issue;
    for (int cyc = 0; cyc < 20; cyc++) {
        uint64_t t = c0 + (uint64_t)cyc;
        char fetch[4], issue[4], pipe[4], xp[4];
        buffer_string(&r, ids, t, true, 1, fetch);
        buffer_string(&r, ids, t, false, 1, issue);
        pipe_string(&r, ids, t, any_uop, 2, pipe, xp);
        char want_fetch = table_3_2[cyc].fetch < 0 ? 'x' : (char)('0' + table_3_2[cyc].fetch);
        char want_issue = table_3_2[cyc].issue < 0 ? 'x' : (char)('0' + table_3_2[cyc].issue);
        char want_p0 = table_3_2[cyc].pipe0 < 0 ? 'x' : (char)('0' + table_3_2[cyc].pipe0);
        char want_p1 = table_3_2[cyc].pipe1 < 0 ? 'x' : (char)('0' + table_3_2[cyc].pipe1);
        if (fetch[0] != want_fetch || issue[0] != want_issue || pipe[0] != want_p0 || pipe[1] != want_p1 ||
            strcmp(xp, table_3_2[cyc].xp))
            fail_msg("Table 3.2 cycle %d: fetch %c issue %c pipe %c%c x_P %s; the thesis has %c %c %c%c %s", cyc,
                     fetch[0], issue[0], pipe[0], pipe[1], xp, want_fetch, want_issue, want_p0, want_p1,
                     table_3_2[cyc].xp);
        /* y0/s0, y1/s1: the next two instructions to be issued */
        for (int k = 0; k < 2; k++) {
            long i = next_to_issue(&r, t, k);
            assert_true(i >= 0);
            int y = one_pipe_type(&u[i]), sd = distance(u, (size_t)i, -1);
            int wy = k ? table_3_2[cyc].y1 : table_3_2[cyc].y0, ws = k ? table_3_2[cyc].s1 : table_3_2[cyc].s0;
            if (y != wy || sd != ws)
                fail_msg("Table 3.2 cycle %d: y%d/s%d = %d/%d, the thesis has %d/%d", cyc, k, k, y, sd, wy, ws);
        }
    }
    /* steady state: every pair of paths (11 instructions) takes 20 cycles: IPC 11/20 = 0.55 */
    for (size_t it = 2; it + 2 < LOOP_ITERS; it++)
        assert_int_equal(r.t[(it + 1) * TRACE_LEN].issue - r.t[it * TRACE_LEN].issue, 20);
    /* IPC distribution (§3.4.2): 0.45 of the cycles issue nothing, 0.55 one */
    uint64_t from = r.t[2 * TRACE_LEN].issue, to = r.t[(LOOP_ITERS - 2) * TRACE_LEN].issue;
    uint64_t issued = 0;
    for (size_t i = 0; i < r.n; i++) issued += r.t[i].issue >= from && r.t[i].issue < to;
    assert_near((double)issued / (double)(to - from), 11.0 / 20.0, 1e-12, "one-pipe IPC in steady state");
    assert_near((double)s.instructions / (double)s.cycles, 0.55, 0.01, "one-pipe IPC over the whole run");
    assert_int_equal(s.issue_hist[0] + s.issue_hist[1], s.cycles);
    assert_int_equal(s.mispredicts, s.branches); /* "none": every branch stops fetch */
    rec_free(&r);
    free(u);
    free(ids);
}

/* ---- Table 4.1: the three-pipe processor, no branch prediction ---- */

/* Table 4.1 (Noonburg §4.2.2), transcribed: contents of fetch, issue, the
 * integer pipe and the memory pipe (x: empty), x_F, b_I (a mispredicted, here
 * any, branch in issue), x_I, y^I (types of the next four instructions to
 * issue), y_p^I (types of the two last issued), x_Pint and x_Pmem. */
typedef struct row_4_1 {
    const char *fetch, *issue, *intp, *memp;
    int xf, bi, xi;
    const char *yi, *ypi, *xpint, *xpmem;
} row_4_1;
static const row_4_1 table_4_1[19] = {
    {"01", "xx", "6", "xx", 2, 0, 0, "2302", "23", "1", "00"}, /* 0 */
    {"xx", "01", "x", "xx", 0, 1, 2, "2302", "23", "0", "00"}, /* 1 */
    {"xx", "1x", "x", "0x", 0, 1, 1, "3023", "32", "0", "10"}, /* 2 */
    {"xx", "1x", "x", "x0", 0, 1, 1, "3023", "32", "0", "01"}, /* 3 */
    {"45", "xx", "1", "xx", 2, 0, 0, "0232", "23", "1", "00"}, /* 4 */
    {"6x", "45", "x", "xx", 1, 0, 2, "0232", "23", "0", "00"}, /* 5 */
    {"xx", "6x", "4", "5x", 0, 1, 1, "3230", "02", "1", "10"}, /* 6 */
    {"xx", "6x", "x", "x5", 0, 1, 1, "3230", "02", "0", "01"}, /* 7 */
    {"01", "xx", "6", "xx", 2, 0, 0, "2303", "23", "1", "00"}, /* 8 */
    {"xx", "01", "x", "xx", 0, 1, 2, "2303", "23", "0", "00"}, /* 9 */
    {"xx", "1x", "x", "0x", 0, 1, 1, "3032", "32", "0", "10"}, /* 10 */
    {"xx", "1x", "x", "x0", 0, 1, 1, "3032", "32", "0", "01"}, /* 11 */
    {"23", "xx", "1", "xx", 2, 0, 0, "0323", "23", "1", "00"}, /* 12 */
    {"xx", "23", "x", "xx", 0, 1, 2, "0323", "23", "0", "00"}, /* 13 */
    {"xx", "3x", "2", "xx", 0, 1, 1, "3232", "30", "1", "00"}, /* 14 */
    {"56", "xx", "3", "xx", 2, 0, 0, "2323", "03", "1", "00"}, /* 15 */
    {"xx", "56", "x", "xx", 0, 1, 2, "2323", "03", "0", "00"}, /* 16 */
    {"xx", "6x", "x", "5x", 0, 1, 1, "3230", "32", "0", "10"}, /* 17 */
    {"xx", "6x", "x", "x5", 0, 1, 1, "3230", "32", "0", "01"}, /* 18 */
};

/* Figure 4.1: types and typed distances of the trace 0 1 4 5 6 0 1 2 3 5 6. */
static const int fig_4_1_y[TRACE_LEN] = {2, 3, 0, 2, 3, 2, 3, 0, 3, 2, 3};
static const int fig_4_1_sint[TRACE_LEN] = {5, 5, 1, 5, 5, 5, 5, 1, 5, 5, 5};
static const int fig_4_1_sfp[TRACE_LEN] = {5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5};
static const int fig_4_1_smem[TRACE_LEN] = {0, 0, 0, 1, 0, 0, 0, 0, 5, 1, 0};

static void test_table_4_1_three_pipe(void **state) {
    (void)state;
    int *ids;
    size_t n;
    uop *u = loop_trace(&ids, &n);
    for (size_t i = TRACE_LEN; i < 2 * TRACE_LEN; i++) {
        size_t k = i % TRACE_LEN;
        assert_int_equal(type3(&u[i]), fig_4_1_y[k]);
        assert_int_equal(distance(u, i, 1), fig_4_1_sfp[k]);
        assert_int_equal(distance(u, i, 2), fig_4_1_smem[k]);
        /* Figure 4.1 gives s_int = 1 for the two adds (4 and 2): a dependence on
         * the integer-type instruction two back, which is a branch here (and
         * branches write no register). With a one-stage integer pipe an integer
         * dependence never stalls, so the timing does not depend on it. */
        if (trace_ids[k] != 4 && trace_ids[k] != 2) assert_int_equal(distance(u, i, 0), fig_4_1_sint[k]);
    }
    uarch_config c;
    load(&c, "inorder3");
    set(&c, "bpred.type=none"); /* chapters 4-5: no prediction, perfect caches */
    set(&c, "ideal.icache=yes");
    set(&c, "ideal.dcache=yes");
    recorder r;
    core_stats s = run(&c, u, n, &r);

    /* align: table cycle 0 is when an even path's "0" and "1" are in fetch */
    const size_t k0 = 20 * TRACE_LEN;
    uint64_t c0 = r.t[k0].dispatch;
    for (int cyc = 0; cyc < 19; cyc++) {
        uint64_t t = c0 + (uint64_t)cyc;
        char fetch[4], issue[4], intp[4], memp[4], xint[4], xmem[4], yi[5], ypi[3];
        buffer_string(&r, ids, t, true, 2, fetch);
        buffer_string(&r, ids, t, false, 2, issue);
        pipe_string(&r, ids, t, int_pipe, 1, intp, xint);
        pipe_string(&r, ids, t, mem_pipe, 2, memp, xmem);
        int xf = 0, xi = 0, bi = 0;
        for (size_t i = 0; i < r.n; i++) {
            xf += in_fetch(&r.t[i], t);
            xi += in_issue(&r.t[i], t);
            bi |= in_issue(&r.t[i], t) && uop_is_control(&u[i]);
        }
        for (int k = 0; k < 4; k++) yi[k] = (char)('0' + type3(&u[next_to_issue(&r, t, k)]));
        yi[4] = 0;
        long next = next_to_issue(&r, t, 0);
        for (int k = 0; k < 2; k++) ypi[k] = (char)('0' + type3(&u[next - 2 + k]));
        ypi[2] = 0;
        const row_4_1 *w = &table_4_1[cyc];
        if (strcmp(fetch, w->fetch) || strcmp(issue, w->issue) || strcmp(intp, w->intp) || strcmp(memp, w->memp) ||
            xf != w->xf || bi != w->bi || xi != w->xi || strcmp(yi, w->yi) || strcmp(ypi, w->ypi) ||
            strcmp(xint, w->xpint) || strcmp(xmem, w->xpmem))
            fail_msg("Table 4.1 cycle %d: fetch %s issue %s int %s mem %s x_F %d b_I %d x_I %d y %s y_p %s x_Pint %s "
                     "x_Pmem %s; the thesis has %s %s %s %s %d %d %d %s %s %s %s",
                     cyc, fetch, issue, intp, memp, xf, bi, xi, yi, ypi, xint, xmem, w->fetch, w->issue, w->intp,
                     w->memp, w->xf, w->bi, w->xi, w->yi, w->ypi, w->xpint, w->xpmem);
    }
    /* steady state: 11 instructions every 19 cycles (IPC 11/19 = 0.579) */
    for (size_t it = 2; it + 2 < LOOP_ITERS; it++)
        assert_int_equal(r.t[(it + 1) * TRACE_LEN].dispatch - r.t[it * TRACE_LEN].dispatch, 19);
    /* the IPC distribution of Table 4.2: 9 cycles issue 0, 9 issue 1, 1 issues 2 */
    uint64_t from = r.t[2 * TRACE_LEN].dispatch, to = r.t[(LOOP_ITERS - 2) * TRACE_LEN].dispatch;
    uint64_t per_cycle[3] = {0, 0, 0};
    for (uint64_t t = from; t < to; t++) {
        int k = 0;
        for (size_t i = 0; i < r.n; i++) k += r.t[i].issue == t;
        per_cycle[k]++;
    }
    uint64_t periods = (to - from) / 19;
    assert_int_equal(per_cycle[0], 9 * periods);
    assert_int_equal(per_cycle[1], 9 * periods);
    assert_int_equal(per_cycle[2], 1 * periods);
    assert_near((double)s.instructions / (double)s.cycles, 11.0 / 19.0, 0.01, "three-pipe IPC over the whole run");
    rec_free(&r);
    free(u);
    free(ids);
}

/* ---- §5.3: the FP-pipe aliasing example ---- */

static void test_aliasing_seven_cycles(void **state) {
    (void)state;
    /* Figure 5.2 / §4.3, repeated:
     *   T100 fadd f1, f2 -> f3      T101 add x10, x11 -> x12
     *   T102 fadd f3, f4 -> f5      T103 add x13, x14 -> x15
     *   T104 fadd f3, f6 -> f7      T105 add x16, x17 -> x18 */
    enum { ITERS = 200, F = 32 };
    static const uint8_t fp[3][3] = {{F + 3, F + 1, F + 2}, {F + 5, F + 3, F + 4}, {F + 7, F + 3, F + 6}};
    size_t n = 6 * ITERS;
    uop *u = calloc(n, sizeof *u);
    for (size_t i = 0; i < n; i++) {
        size_t k = i % 6;
        u[i].pc = 0x20000 + 4 * k;
        u[i].next_pc = k == 5 ? 0x20000 : u[i].pc + 4;
        u[i].encoding = 0x13;
        if (k % 2 == 0) {
            u[i].op_class = OPC_FP_ADD, u[i].fp_ops = 1;
            u[i].dst = fp[k / 2][0], u[i].src[0] = fp[k / 2][1], u[i].src[1] = fp[k / 2][2];
        } else {
            u[i].op_class = OPC_INT_ALU;
            u[i].dst = (uint8_t)(12 + 3 * (k / 2)), u[i].src[0] = (uint8_t)(10 + 3 * (k / 2)),
            u[i].src[1] = (uint8_t)(11 + 3 * (k / 2));
        }
    }
    /* the distances of Figure 5.2: T102 s_fp = 0, T104 s_fp = 1, the rest none */
    assert_int_equal(distance(u, 6 + 2, 1), 0);
    assert_int_equal(distance(u, 6 + 4, 1), 1);
    assert_int_equal(distance(u, 6 + 0, 1), S_MAX);
    uarch_config c;
    load(&c, "inorder3");
    set(&c, "bpred.type=perfect");
    set(&c, "ideal.icache=yes");
    set(&c, "ideal.dcache=yes");
    recorder r;
    core_stats s = run(&c, u, n, &r);
    /* the FP pipe's states through one iteration, from the cycle after T102 issues (§5.3, states 1–8) */
    static const char *const states[8] = {"10000", "11000", "11100", "01110", "00111", "00011", "00001", "10000"};
    const size_t t102 = 6 * 50 + 2;
    for (int k = 0; k < 8; k++) {
        char contents[8], bits[8];
        pipe_string(&r, NULL, r.t[t102].issue + 1 + (uint64_t)k, fp_pipe, 5, contents, bits);
        if (strcmp(bits, states[k]))
            fail_msg("§5.3 state %d: x_Pfp = <%s>, the thesis has <%s>", k + 1, bits, states[k]);
    }
    for (size_t it = 2; it + 2 < ITERS; it++) /* seven cycles per iteration */
        assert_int_equal(r.t[6 * (it + 1) + 2].issue - r.t[6 * it + 2].issue, 7);
    assert_near(cpi(&s), 7.0 / 6.0, 0.01, "aliasing example CPI");
    rec_free(&r);
    free(u);
}

/* ---- closed forms ---- */

enum { N = 12000 };

static uop mk(size_t i, op_class cls, uint8_t dst, uint8_t s0, uint8_t s1) {
    uop u;
    memset(&u, 0, sizeof u);
    u.pc = 0x10000 + 4 * (uint64_t)(i % 64);
    u.next_pc = u.pc + 4;
    u.encoding = 0x13;
    u.op_class = (uint8_t)cls;
    u.dst = dst;
    u.src[0] = s0;
    u.src[1] = s1;
    if (cls >= OPC_FP_ADD && cls <= OPC_FP_SQRT) u.fp_ops = 1;
    if (cls == OPC_LOAD) u.flags = UOP_MEM_READ, u.mem_size = 8, u.mem_addr = 0x400000 + 8 * (i % 16);
    return u;
}

/* inorder3 with nothing but the pipes in the way. */
static void ideal3(uarch_config *c) {
    load(c, "inorder3");
    set(c, "bpred.type=perfect");
    set(c, "ideal.icache=yes");
    set(c, "ideal.dcache=yes");
}

/* A dependence chain through one pipe has CPI = its depth: the last stage forwards. */
static void test_chains_per_pipe(void **state) {
    (void)state;
    uop *u = calloc(N, sizeof *u);
    static const struct {
        op_class cls;
        uint8_t reg;
        double cpi;
    } rows[] = {
        {OPC_INT_ALU, 5, 1}, {OPC_INT_MUL, 5, 1}, {OPC_FP_ADD, 33, 5}, {OPC_FP_FMA, 33, 5}, {OPC_LOAD, 5, 2},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        uarch_config c;
        ideal3(&c);
        for (size_t i = 0; i < N; i++) u[i] = mk(i, rows[k].cls, rows[k].reg, rows[k].reg, 0);
        recorder r;
        core_stats s = run(&c, u, N, &r);
        rec_free(&r);
        char what[64];
        snprintf(what, sizeof what, "%s chain on inorder3", isa_class_name(rows[k].cls));
        assert_near(cpi(&s), rows[k].cpi, 0.01, what);
    }
    /* the one-pipe machine: every chain has CPI 2 */
    for (size_t i = 0; i < N; i++) u[i] = mk(i, OPC_FP_ADD, 33, 33, 0);
    uarch_config c;
    load(&c, "inorder1");
    set(&c, "bpred.type=perfect");
    core_stats s = run(&c, u, N, NULL);
    assert_near(cpi(&s), 2, 0.01, "chain on inorder1");
    free(u);
}

/* Figure 5.7's sweep is a configuration change: an FP chain's CPI follows the FP pipe depth. */
static void test_fp_depth_sweep(void **state) {
    (void)state;
    uop *u = calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) u[i] = mk(i, OPC_FP_MUL, 34, 34, 35);
    double prev = 0;
    for (int depth = 5; depth >= 1; depth--) {
        uarch_config c;
        ideal3(&c);
        char a[64];
        snprintf(a, sizeof a, "pipe.fp.stages=%d", depth);
        set(&c, a);
        core_stats s = run(&c, u, N, NULL);
        assert_near(cpi(&s), depth, 0.01, a);
        if (prev) assert_true(cpi(&s) < prev);
        prev = cpi(&s);
    }
    /* ideal.alu: arithmetic leaves the FP pipe after one stage */
    uarch_config c;
    ideal3(&c);
    set(&c, "ideal.alu=yes");
    core_stats s = run(&c, u, N, NULL);
    assert_near(cpi(&s), 1, 0.01, "FP chain with ideal.alu");
    free(u);
}

/* Independent instructions: one per pipe per cycle, two a cycle through the issue buffer. */
static void test_independent_throughput(void **state) {
    (void)state;
    uop *u = calloc(N, sizeof *u);
    static const struct {
        const char *what;
        op_class cls[3];
        int kinds;
        double ipc;
    } rows[] = {
        {"integer only", {OPC_INT_ALU}, 1, 1},
        {"integer and FP", {OPC_INT_ALU, OPC_FP_ADD}, 2, 2},
        {"integer, FP, memory", {OPC_INT_ALU, OPC_FP_ADD, OPC_LOAD}, 3, 2},
        {"FP and memory", {OPC_FP_ADD, OPC_LOAD}, 2, 2},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        for (size_t i = 0; i < N; i++) {
            op_class cls = rows[k].cls[i % (size_t)rows[k].kinds];
            uint8_t dst = (uint8_t)((cls >= OPC_FP_ADD ? 33 : 5) + (i / (size_t)rows[k].kinds) % 8);
            u[i] = mk(i, cls, dst, 0, 0);
        }
        uarch_config c;
        ideal3(&c);
        recorder r;
        core_stats s = run(&c, u, N, &r);
        rec_free(&r);
        assert_near((double)s.instructions / (double)s.cycles, rows[k].ipc, 0.01, rows[k].what);
    }
    /* the one-pipe machine issues one a cycle */
    for (size_t i = 0; i < N; i++) u[i] = mk(i, OPC_INT_ALU, (uint8_t)(5 + i % 8), 0, 0);
    uarch_config c;
    load(&c, "inorder1");
    set(&c, "bpred.type=perfect");
    core_stats s = run(&c, u, N, NULL);
    assert_near(cpi(&s), 1, 0.01, "independent on inorder1");
    free(u);
}

/* No renaming (§3.5): writes to one register wait for the previous write to forward. */
static void test_waw_stalls(void **state) {
    (void)state;
    uop *u = calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) u[i] = mk(i, OPC_FP_ADD, 33, 34, 35);
    uarch_config c;
    ideal3(&c);
    core_stats s = run(&c, u, N, NULL);
    assert_near(cpi(&s), 5, 0.01, "FP writes to one register");
    for (size_t i = 0; i < N; i++) u[i].dst = (uint8_t)(40 + i % 8);
    s = run(&c, u, N, NULL);
    assert_near(cpi(&s), 1, 0.01, "FP writes to eight registers");
    free(u);
}

/* Branches: with no prediction, fetch stops after a branch until it issues —
 * one bubble per branch. [add, add, add, branch] costs 5 cycles on both
 * machines; prediction that gets it right costs 4. */
static void test_branch_bubble(void **state) {
    (void)state;
    uop *u = calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) {
        u[i] = mk(i, i % 4 == 3 ? OPC_BRANCH : OPC_INT_ALU, i % 4 == 3 ? 0 : (uint8_t)(5 + i % 4), 0, 0);
        if (i % 4 == 3) { /* a forward branch, taken: static predicts it wrong, bimodal learns it */
            u[i].flags = UOP_TAKEN;
            u[i].next_pc = u[i].pc + 8;
        }
    }
    static const struct {
        const char *cfg, *bp;
        double cpi;
    } rows[] = {
        {"inorder1", "none", 1.25},   {"inorder1", "perfect", 1}, {"inorder3", "none", 1.25},
        {"inorder3", "static", 1.25}, {"inorder3", "bimodal", 1}, {"inorder3", "perfect", 1},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        uarch_config c;
        load(&c, rows[k].cfg);
        set(&c, "ideal.icache=yes");
        set(&c, "ideal.dcache=yes");
        char a[64];
        snprintf(a, sizeof a, "bpred.type=%s", rows[k].bp);
        set(&c, a);
        recorder r;
        core_stats s = run(&c, u, N, &r);
        rec_free(&r);
        char what[96];
        snprintf(what, sizeof what, "%s, %s, forward taken branch every 4", rows[k].cfg, rows[k].bp);
        assert_near(cpi(&s), rows[k].cpi, 0.01, what);
    }
    /* a backward taken branch is what the loop predictor gets right */
    for (size_t i = 3; i < N; i += 4) u[i].next_pc = u[i].pc - 12;
    uarch_config c;
    load(&c, "inorder3");
    set(&c, "ideal.icache=yes");
    set(&c, "bpred.type=static");
    core_stats s = run(&c, u, N, NULL);
    assert_near(cpi(&s), 1, 0.01, "inorder3, static, backward taken branch every 4");
    assert_int_equal(s.mispredicts, 0);
    free(u);
}

/* An I-cache miss stops fetch for the miss latency (§7.1): straight-line
 * independent code, one new 16-byte line every 4 instructions, costs L + 2
 * cycles per line (the miss, then two fetch cycles). */
static void test_icache_miss_cost(void **state) {
    (void)state;
    uop *u = calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) {
        u[i] = mk(i, OPC_INT_ALU, (uint8_t)(5 + i % 8), 0, 0);
        u[i].pc = 0x100000 + 4 * (uint64_t)i; /* 48 KB of code: every line misses a 16 KB cache */
        u[i].next_pc = u[i].pc + 4;
    }
    for (int lat = 4; lat <= 8; lat += 4) {
        uarch_config c;
        load(&c, "inorder3");
        set(&c, "ideal.dcache=yes");
        char a[64];
        snprintf(a, sizeof a, "memory.latency=%d", lat);
        set(&c, a);
        recorder r;
        core_stats s = run(&c, u, N, &r);
        rec_free(&r);
        assert_near(cpi(&s), (lat + 2) / 4.0, 0.01, a);
        assert_int_equal(s.l1i.misses, N / 4);
    }
    free(u);
}

/* A D-cache miss holds the memory pipe (§7.2): a pointer chase that always
 * misses has CPI = pipe depth + miss latency, whichever stage waits. */
static void test_dcache_miss_cost(void **state) {
    (void)state;
    uop *u = calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) {
        u[i] = mk(i, OPC_LOAD, 5, 5, 0);
        u[i].mem_addr = 0x4000000 + 64 * (uint64_t)i; /* a new line every time */
    }
    static const struct {
        const char *stage;
        int lat;
    } rows[] = {{"1", 4}, {"1", 9}, {"2", 4}};
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        uarch_config c;
        load(&c, "inorder3");
        set(&c, "ideal.icache=yes");
        char a[64], b[64];
        snprintf(a, sizeof a, "memory.latency=%d", rows[k].lat);
        snprintf(b, sizeof b, "inorder.mem_stall_stage=%s", rows[k].stage);
        set(&c, a);
        set(&c, b);
        recorder r;
        core_stats s = run(&c, u, N, &r);
        for (size_t i = 0; i < r.n; i++) assert_int_equal(r.t[i].dcache_level, LEVEL_MEM);
        rec_free(&r);
        assert_near(cpi(&s), 2 + rows[k].lat, 0.01, b);
        assert_int_equal(s.l1d.misses, N);
    }
    /* a stall stage beyond the memory pipe is refused */
    uarch_config c;
    load(&c, "inorder3");
    set(&c, "inorder.mem_stall_stage=3");
    cs_error err;
    assert_false(uarch_config_validate(&c, &err));
    assert_non_null(strstr(err.msg, "mem_stall_stage"));
    free(u);
}

/* ---- value prediction (§8.1): results carried by the µops ---- */

/* An FP chain through eight registers (no WAW stalls), one static instruction. */
static uop *vp_chain(void) {
    uop *u = calloc(N, sizeof *u);
    for (size_t i = 0; i < N; i++) {
        u[i] = mk(0, OPC_FP_ADD, (uint8_t)(40 + (i + 1) % 8), (uint8_t)(40 + i % 8), 33);
    }
    return u;
}

/* Results: 42 every time, except 7 every period-th (period 0: never). */
static void vp_values(uop *u, uint64_t period) {
    for (size_t i = 0; i < N; i++) {
        u[i].flags |= UOP_HAS_VALUE;
        u[i].value = period && i % period == period - 1 ? 7 : 42;
    }
}

static void test_value_prediction(void **state) {
    (void)state;
    uop *u = vp_chain();
    uarch_config c;
    ideal3(&c);
    cs_error err;
    set(&c, "inorder.value_prediction=yes");
    /* µops without results: the run stops and says why, naming the µop */
    core_t *core = core_create(&c, &err);
    assert_non_null(core);
    array_source src = array_source_borrow(u, N);
    core_stats st;
    core_run_options opt = {0, 0, NULL};
    assert_false(core_run(core, &src.base, &opt, &st, &err));
    assert_non_null(strstr(err.msg, "pc 0x10000 writes a register but carries no result value"));
    core_destroy(core);

    static const struct {
        bool vp;
        uint64_t period;
        double cpi;
        uint64_t mispredicted_per;
    } rows[] = {
        /* no value prediction: the chain runs at the FP pipe's depth */
        {false, 0, 5, 0},
        /* always the same value: every result predicted right; a reader issues the cycle after its writer */
        {true, 0, 1, 0},
        /* 7 every 8th: the CT stays at 2 or 3, the VPT keeps 42; per 8: 7 right (1 cycle) and 1
         * wrong (the computed result + 1 = 6 cycles): 13/8 */
        {true, 8, 13.0 / 8, 8},
        /* 7 every 4th: the CT never reaches 3; per 4: 3 not predicted (5 cycles each) and 1
         * mispredicted (6): 21/4 — value prediction makes it slower */
        {true, 4, 21.0 / 4, 4},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        vp_values(u, rows[k].period);
        uarch_config plain;
        ideal3(&plain);
        recorder r;
        core_stats s = run(rows[k].vp ? &c : &plain, u, N, &r);
        rec_free(&r);
        char what[64];
        snprintf(what, sizeof what, "value prediction, 7 every %llu", (unsigned long long)rows[k].period);
        assert_near(cpi(&s), rows[k].cpi, 0.01, what);
        if (rows[k].mispredicted_per)
            assert_true(llabs((long long)s.value_mispredictions - (long long)(N / rows[k].mispredicted_per)) <= 2);
        else assert_int_equal(s.value_mispredictions, 0);
    }
    free(u);
}

/* The distributions of Figure 5.8 add up, and the same run twice gives the same numbers. */
static void test_distributions(void **state) {
    (void)state;
    int *ids;
    size_t n;
    uop *u = loop_trace(&ids, &n);
    uarch_config c;
    load(&c, "inorder3");
    core_stats a = run(&c, u, n, NULL), b = run(&c, u, n, NULL);
    a.seconds = b.seconds = 0;
    assert_memory_equal(&a, &b, sizeof a);
    uint64_t issue = 0, fb = 0, ib = 0, issued = 0;
    for (int k = 0; k <= ISSUE_HIST_MAX; k++) issue += a.issue_hist[k], issued += (uint64_t)k * a.issue_hist[k];
    for (int k = 0; k < 17; k++) fb += a.fetch_buffer_hist[k], ib += a.issue_buffer_hist[k];
    assert_int_equal(issue, a.cycles);
    assert_int_equal(issued, n);
    assert_int_equal(fb, a.cycles);
    assert_int_equal(ib, a.cycles);
    assert_int_equal(a.fetch_buffer_hist[3], 0); /* two entries at most */
    uint64_t piped = 0;
    for (uint32_t p = 0; p < c.inorder.pipe_count; p++) {
        uint64_t cycles = 0, occ = 0;
        for (int k = 0; k <= 64; k++) {
            cycles += a.pipe_occupancy_hist[p][k];
            occ += (uint64_t)k * a.pipe_occupancy_hist[p][k];
        }
        assert_int_equal(cycles, a.cycles);
        assert_int_equal(occ, a.pipe_occupancy[p]);
        assert_true(a.pipe_occupancy_hist[p][c.inorder.pipe[p].stages + 1] == 0);
        piped += a.pipe_issued[p];
    }
    assert_int_equal(piped, n);
    free(u);
    free(ids);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_3_2_one_pipe),
        cmocka_unit_test(test_table_4_1_three_pipe),
        cmocka_unit_test(test_aliasing_seven_cycles),
        cmocka_unit_test(test_chains_per_pipe),
        cmocka_unit_test(test_fp_depth_sweep),
        cmocka_unit_test(test_independent_throughput),
        cmocka_unit_test(test_waw_stalls),
        cmocka_unit_test(test_branch_bubble),
        cmocka_unit_test(test_icache_miss_cost),
        cmocka_unit_test(test_dcache_miss_cost),
        cmocka_unit_test(test_value_prediction),
        cmocka_unit_test(test_distributions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
