/* The in-order machines of Noonburg's thesis (chapters 3–8) as a cycle-level
 * timing model, built from its components and connections (§3.3): a fetch
 * buffer, an issue buffer and pipes, linked by connections whose flow each
 * cycle is f = min(push, pull, bandwidth).
 *
 *   µop source ─► fetch buffer ─► issue buffer ─┬─► pipe 0: stage 1 … D0 ─┐
 *                                               ├─► pipe 1: stage 1 … D1 ─┼─► (virtual in-order commit)
 *                                               └─► …                     ─┘
 *
 * Every cycle the components tick back to front — pipes, commit, issue,
 * dispatch (fetch buffer → issue buffer), fetch — so the contents at the
 * start of cycle t are the thesis' state "at cycle t" (Tables 3.2 and 4.1),
 * and an instruction crosses at most one connection per cycle.
 *
 * The connections (push p, pull q, bandwidth m):
 *  - into fetch: p = fetch_buffer (the thesis' "push into fetch is always
 *    two"); q = the entries left free after this cycle's flow out, or 0 while
 *    a mispredicted branch sits in fetch or issue (fetch stops after it until
 *    it issues, §3.4, §6.1) or while an I-cache miss is served (§7.1).
 *  - fetch → issue: p = fetch buffer occupancy; q = issue-buffer entries
 *    left free after this cycle's issue; m = min(fetch_buffer, issue_buffer).
 *  - issue → pipe k: one instruction per pipe per cycle, in program order:
 *    an instruction that cannot go stops the ones behind it. Pull is 0 when
 *    the instruction reads (RAW) or writes (WAW: no renaming, §3.5) a register
 *    whose last writer is still in a pipe and not yet in its last stage (the
 *    last stage forwards, §3.4), when the pipe already took an instruction
 *    this cycle, or while the pipe is stalled on a D-cache miss (§7.2).
 *  - out of a pipe: every cycle the instruction in the last stage leaves and
 *    the others move one stage on; the pipes never stall except on a D-cache
 *    miss.
 *
 * Configuration ↔ thesis: [inorder] fetch_buffer, issue_buffer; [pipe.NAME]
 * stages (depth = latency) and classes (the instruction type → pipe map);
 * bpred.type none = the thesis' "none" (every control transfer stops fetch
 * until it issues), static = "loop" (backward taken, forward not taken),
 * bimodal = "bimodal" (2^bpred.table_bits counters), perfect = "perfect";
 * [l1i]/[l1d] with assoc = 0 and line = 16 are the fully associative LRU
 * caches of §7.1–7.2, the miss cost is what the hierarchy adds to an L1 hit
 * (with [l2] disabled: memory.latency); inorder.mem_stall_stage is the memory
 * pipe stage that waits for a D-cache miss; inorder.value_prediction,
 * vpt_entries and ct_entries are §8.1. See docs/inorder.md.
 *
 * Probes: FETCH = entering the fetch buffer, DISPATCH = entering the issue
 * buffer, ISSUE = entering a pipe, COMMIT = in-order retirement of µops that
 * have left their pipe (see the last note). Records: decode = rename =
 * dispatch = entering the issue buffer; after an ITLB miss fetch is where the
 * translation started and itlb_done the I-cache access (else equal); the
 * pool is the pipe; a mispredict resolves (PEV_RESOLVE, PEV_FLUSH) when the
 * transfer issues and fetch is redirected when it resumes. Wait states start
 * at dispatch: µops behind the oldest unissued one are WST_QUEUED. No cycle
 * is skipped: every cycle is simulated.
 *
 * Notes (what this model simplifies):
 *  - Trace-driven, correct path only: after a mispredicted control transfer
 *    fetch fetches nothing until that transfer issues (plus
 *    inorder.resolve_delay cycles, 0 in the thesis); no wrong path is fetched.
 *    Predictors are looked up and trained in program order at fetch.
 *  - A pipe's depth is the latency of everything it executes: [latency] and
 *    [pipelined] are not used. ideal.alu lets arithmetic µops (integer
 *    multiply and divide, FP) leave their pipe after its first stage.
 *  - Fetch brings up to fetch_buffer instructions a cycle whatever their
 *    addresses: a taken branch does not end a fetch group (the thesis' push
 *    into fetch is constant). An instruction is looked up in the I-cache by
 *    the line of its first byte; consecutive instructions in one line look it
 *    up once.
 *  - Caches are blocking. An I-cache miss stops fetch for the miss cost;
 *    instructions already in the fetch buffer move on. A D-cache miss (loads
 *    and stores alike, as in §7.2) holds the memory µop in stage
 *    mem_stall_stage for the miss cost: µops in later stages move on, µops in
 *    earlier stages wait with it, and nothing enters the pipe meanwhile.
 *    Miss-register limits do not apply: a blocking cache has one miss at a time.
 *    A store (without a store buffer), a successful sc and an AMO are writes:
 *    their line becomes dirty (an AMO waits for its line like a load).
 *  - TLBs (itlb.*, dtlb.*, l2tlb.*; none in the thesis) are looked up in
 *    program order at fetch, as on the out-of-order core: an ITLB miss stops
 *    fetch for the translation before the I-cache access; a DTLB miss holds
 *    the memory µop in the stall stage for the translation, like a D-cache
 *    miss, and its access is made in the last of those cycles.
 *  - Memory µops keep program order in the memory pipe; there is no other
 *    memory ordering and no store-to-load forwarding.
 *  - The thesis' machines have no reorder buffer: a µop completes when it
 *    leaves its pipe's last stage, out of program order across pipes. For the
 *    probes, µops retire in program order once they and all older µops have
 *    completed, at most issue-width a cycle. Nothing waits on this retirement.
 *  - Value prediction (§8.1): the VPT and CT are indexed by pc/2 modulo their
 *    sizes; every µop that writes a register is looked up and trained in
 *    program order at fetch. A reader of a correctly predicted result may
 *    issue the cycle after its writer issued; of a mispredicted one, one cycle
 *    after the result is computed; WAW hazards always wait for the computed
 *    result. The results are the µops' own (uop.value, UOP_HAS_VALUE: the
 *    emulator fills them when asked, .cst traces recorded with --values keep
 *    them); a µop that writes a register without one stops the run.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core_internal.h"

enum { MAX_STAGES = 64 };
enum { VP_NONE, VP_RIGHT, VP_WRONG }; /* the value prediction of a µop's own result */
/* Why a memory µop frozen in the stall stage tries again: a store found the store buffer full, a
 * load found every L1D miss register held by the buffer's fills (both core.store_buffer > 0 only),
 * or its address is being translated (a DTLB miss: the access follows the walk). */
enum { RETRY_NONE, RETRY_SB, RETRY_MSHR, RETRY_TLB };

/* One instruction (µop) from fetch to commit. */
typedef struct entry {
    uop u;
    uint64_t seq;
    uint64_t fetch, itlb_done, icache_done, dispatch, ready, issue, complete;
    uint64_t prod_seq[3]; /* PROBE_PRODUCERS: the last writer of each source at issue */
    uint64_t wait_cause;  /* PROBE_WAITS: the state last reported and its cause */
    uint8_t wait;
    uint8_t pipe, stage, exit_stage; /* stage: 0-based, while in the pipe */
    uint8_t icache_level, dcache_level;
    uint8_t store_level; /* a store entering the store buffer: its program-order classification */
    uint32_t dtlb_extra; /* cycles its DTLB miss adds before the D-cache access (0: a hit, no DTLB) */
    uint64_t walk_at;    /* with dtlb_extra: the cycle it reached the stall stage and began translating */
    uint8_t vp, flags;   /* flags: UREC_FIRST_IN_* */
    bool mispredicted, done;
} entry;

typedef struct pipe_state {
    uint32_t stages;
    uint32_t count;
    uint64_t seq[MAX_STAGES]; /* the µops in the pipe, furthest along first */
    uint64_t blocked_until;   /* D-cache miss: the stalled µop moves on in this cycle */
    uint64_t stalled_seq;
    uint8_t retry; /* the stalled µop tries again in its last frozen cycle (RETRY_*) */
    bool mem;      /* serves memory classes: has a D-cache stall stage */
    bool fp;       /* serves FP arithmetic (counts as an FP unit) */
} pipe_state;

/* The last issued writer of a register. */
typedef struct reg_state {
    uint64_t seq;   /* 0: none since the run began */
    uint64_t ready; /* first cycle a reader may issue with the computed result */
    uint64_t issue;
    uint64_t pc;
    uint16_t latency;
    uint8_t op_class, level, vp;
} reg_state;

typedef enum bp_mode {
    BP_STALL_ALL, /* the thesis' "none": every control transfer is unpredicted */
    BP_PREDICT,   /* the shared predictor (static = the thesis' "loop", bimodal, …) */
    BP_PERFECT
} bp_mode;

typedef struct inorder {
    uarch_config cfg;
    memsys_t *mem;
    bpred_t *bp;
    bp_mode bpmode;
    uint32_t fb_cap, ib_cap;
    uint32_t width[STAGE_COUNT];
    uint32_t npipes, fp_units, stall_stage; /* stall_stage: 0-based */
    pipe_state pipe[INORDER_MAX_PIPES];
    uint8_t pipe_of[OPC_COUNT];
    bool one_stage[OPC_COUNT]; /* ideal.alu: arithmetic leaves after the first stage */
    uint32_t iline_bits, l1i_hit, l1d_hit;
    bool use_sb;     /* core.store_buffer > 0: stores write into a store buffer at the stall stage */
    bool itlb, dtlb; /* TLBs modelled (in the memory system) */

    /* every µop from fetch to commit, by sequence number: [commit_seq, issue_seq)
     * issued, [issue_seq, dispatch_seq) the issue buffer, [dispatch_seq,
     * fetch_seq) the fetch buffer */
    entry *win;
    uint64_t win_mask;
    uint64_t commit_seq, issue_seq, dispatch_seq, fetch_seq;

    reg_state reg[UOP_REG_COUNT];

    /* fetch */
    uint64_t line;
    bool line_valid;
    bool miss_pending; /* an I-cache miss is being served */
    uint64_t fetch_resume, miss_start;
    uint8_t miss_level;
    bool branch_wait; /* a mispredicted control transfer has not issued */
    uint64_t branch_seq, branch_pc, branch_resume;
    uint8_t branch_class;
    bool trace_end;
    uint64_t warm_line;
    bool warm_line_valid;
    /* the ITLB: the page fetch translated last; a miss stops fetch until itlb_until */
    uint64_t itlb_page, itlb_start, itlb_until;
    bool itlb_valid, itlb_pending, itlb_missed;

    /* value prediction */
    bool vp_on;
    uint64_t vp_missing_seq; /* a µop that writes a register came without its result */
    uint64_t vp_missing_pc;
    uint32_t *vpt;
    uint8_t *ct;

    uint64_t now, last_commit;
    uint64_t broken_seq; /* a µop left its pipe in another cycle than its `complete` said (a model bug) */
    stage_view prev_fetch, prev_dispatch;
    core_stats st;

    /* probes: what is asked for in this run */
    probe_set *probes;
    bool probed;         /* something per cycle or per µop is asked for now (samples alone: near a sample) */
    bool probed_always;  /* some observer asks for something per cycle or per µop (samples alone do not) */
    bool views_always;   /* some observer asks for stage or FP views, or wait states */
    bool want_fp;        /* the FP view is asked for (else the issue buffer is not searched for its cause) */
    uint64_t views_from; /* views are built from this cycle on (samples alone: the one before the next) */
    bool want_views, want_retire, want_prod, want_events, want_waits, want_samples, want_intervals;
    bool redirect_pending;            /* PROBE_EVENTS: fetch has not resumed after a resolved mispredict */
    bool line_first;                  /* the next µop fetched is the first of its I-cache line */
    uint8_t head_stall;               /* why the oldest unissued µop did not issue this cycle */
    uint64_t head_block;              /* and the µop it waits for (0: none known) */
    uint8_t struct_state[UNIT_COUNT]; /* PROBE_EVENTS: full / empty of each structure */
} inorder;

static inline entry *at_seq(const inorder *m, uint64_t seq) { return &m->win[seq & m->win_mask]; }

static inline bool is_mem(const uop *u) { return (u->flags & (UOP_MEM_READ | UOP_MEM_WRITE)) != 0; }

/* ---- creation ---- */

/* A table for inorder_init: on a reset the one kept, cleared (one configuration, the same
 * sizes), else a new one. */
static void *zeroed(void *kept, size_t n, size_t size) {
    if (!kept) return cs_calloc(n, size);
    memset(kept, 0, n * size);
    return kept;
}

/* The model as inorder_create makes it; `kept` (a reset): the struct as a run left it, whose
 * window, tables, memory system and predictor are reused, cleared. One function for both, so
 * that a reset core is a new one but for where its memory lives. */
static void inorder_init(inorder *m, const uarch_config *cfg, const inorder *kept) {
    const inorder_config *io = &cfg->inorder;
    m->cfg = *cfg;
    uarch_config mc = *cfg;
    /* blocking caches: never more than one miss each; with a store buffer, the L1D's miss
     * registers bound its fills (a blocking load takes one too) */
    mc.l1i.mshrs = mc.l2.mshrs = mc.l3.mshrs = 0;
    if (!cfg->store_buffer) mc.l1d.mshrs = 0;
    if (kept) {
        m->mem = kept->mem;
        memsys_reset(m->mem, &mc);
        m->bp = kept->bp;
        bpred_reset(m->bp, cfg);
    } else {
        m->mem = memsys_create(&mc);
        m->bp = bpred_create(cfg);
    }
    m->use_sb = cfg->store_buffer != 0;
    m->itlb = memsys_has_tlb(m->mem, true);
    m->dtlb = memsys_has_tlb(m->mem, false);
    m->bpmode = cfg->perfect_bpred || cfg->bpred == BPRED_PERFECT ? BP_PERFECT
        : uarch_no_branch_prediction(cfg)                         ? BP_STALL_ALL
                                                                  : BP_PREDICT;
    m->fb_cap = io->fetch_buffer;
    m->ib_cap = io->issue_buffer;
    m->npipes = io->pipe_count;
    m->stall_stage = io->mem_stall_stage - 1;
    uint32_t in_pipes = 0;
    for (uint32_t p = 0; p < m->npipes; p++) {
        pipe_state *ps = &m->pipe[p];
        ps->stages = io->pipe[p].stages;
        in_pipes += ps->stages;
        for (int k = 0; k < OPC_COUNT; k++) {
            if (!(io->pipe[p].classes & (1u << k))) continue;
            m->pipe_of[k] = (uint8_t)p;
            if (k == OPC_LOAD || k == OPC_STORE || k == OPC_ATOMIC) ps->mem = true;
            if (is_fp_arith((uint8_t)k)) ps->fp = true;
        }
        m->fp_units += ps->fp;
    }
    for (int k = 0; k < OPC_COUNT; k++) m->one_stage[k] = uarch_ideal_alu_class(cfg, (op_class)k);
    uint32_t widths[4];
    uarch_config_widths(cfg, widths);
    m->width[STAGE_FETCH] = widths[0];
    m->width[STAGE_DISPATCH] = widths[1];
    m->width[STAGE_ISSUE] = widths[2];
    m->width[STAGE_COMMIT] = widths[3];
    m->iline_bits = memsys_line_bits(m->mem, true);
    m->l1i_hit = cfg->l1i.latency;
    m->l1d_hit = cfg->l1d.latency;
    uint64_t cap = 64;
    while (cap < (uint64_t)m->fb_cap + m->ib_cap + in_pipes + 64) cap <<= 1;
    /* a window that grew keeps its size: entries are found by sequence number, its size changes
     * no result */
    if (kept) cap = kept->win_mask + 1;
    m->win = zeroed(kept ? kept->win : NULL, cap, sizeof *m->win);
    m->win_mask = cap - 1;
    m->commit_seq = m->issue_seq = m->dispatch_seq = m->fetch_seq = 1;
    if (io->value_prediction) {
        m->vp_on = true;
        m->vpt = zeroed(kept ? kept->vpt : NULL, io->vpt_entries, sizeof *m->vpt);
        m->ct = zeroed(kept ? kept->ct : NULL, io->ct_entries, sizeof *m->ct);
    }
}

static void *inorder_create(const uarch_config *cfg, cs_error *err) {
    (void)err;
    inorder *m = cs_calloc(1, sizeof *m);
    inorder_init(m, cfg, NULL);
    return m;
}

static void inorder_reset(void *model) {
    inorder *m = model;
    inorder *kept = cs_malloc(sizeof *kept); /* the model is large (its pipes): not on the stack */
    *kept = *m;
    memset(m, 0, sizeof *m);
    inorder_init(m, &kept->cfg, kept);
    free(kept);
}

static void inorder_destroy(void *model) {
    inorder *m = model;
    if (!m) return;
    memsys_destroy(m->mem);
    bpred_destroy(m->bp);
    free(m->win);
    free(m->vpt);
    free(m->ct);
    free(m);
}

/* ---- value prediction (§8.1): look up, then train with the result ---- */

static uint8_t vp_predict_train(inorder *m, const uop *u, uint64_t seq) {
    if (!(u->flags & UOP_HAS_VALUE)) {
        if (!m->vp_missing_seq) m->vp_missing_seq = seq, m->vp_missing_pc = u->pc;
        return VP_NONE;
    }
    uint32_t value = u->value;
    uint32_t *v = &m->vpt[(u->pc >> 1) % m->cfg.inorder.vpt_entries];
    uint8_t *c = &m->ct[(u->pc >> 1) % m->cfg.inorder.ct_entries];
    bool predicted = *c >= 2, right = *v == value;
    if (right) {
        if (*c < 3) (*c)++;
    } else {
        if (*c < 3) *v = value; /* "only if the CT counter is at 0, 1, or 2" */
        if (*c > 0) (*c)--;
    }
    if (!predicted) return VP_NONE;
    m->st.value_predictions++;
    m->st.value_mispredictions += !right;
    return right ? VP_RIGHT : VP_WRONG;
}

static void inorder_warm(void *model, const uop *u) {
    inorder *m = model;
    uint64_t line = u->pc >> m->iline_bits;
    if (!m->warm_line_valid || line != m->warm_line) {
        memsys_warm(m->mem, u->pc, true, MEM_READ);
        if (m->itlb) memsys_warm_tlb(m->mem, u->pc, true); /* a new page is a new line */
        m->warm_line = line;
        m->warm_line_valid = true;
    }
    if (is_mem(u)) {
        memsys_warm(m->mem, u->mem_addr, false, mem_access_of(u));
        if (m->dtlb) memsys_warm_tlb(m->mem, u->mem_addr, false);
    }
    if (uop_is_control(u) && m->bpmode == BP_PREDICT) bpred_predict(m->bp, u);
    if (m->vp_on && u->dst) vp_predict_train(m, u, UINT64_MAX); /* warm-up */
}

/* ---- operands ---- */

/* The first cycle a reader of r may issue. */
static inline uint64_t source_at(const reg_state *r) {
    switch (r->vp) {
    case VP_RIGHT: return r->issue + 1;
    case VP_WRONG: return r->ready + 1;
    default: return r->ready;
    }
}

/* The first cycle u may issue as far as its registers go (RAW and WAW);
 * *blocker gets the register that decides it (0: none). */
static inline uint64_t operands_at(const inorder *m, const uop *u, uint8_t *blocker) {
    uint64_t at = 0;
    uint8_t who = 0;
    for (int k = 0; k < 3 && u->src[k]; k++) {
        uint64_t t = source_at(&m->reg[u->src[k]]);
        if (t > at) at = t, who = u->src[k];
    }
    if (u->dst && m->reg[u->dst].ready > at) at = m->reg[u->dst].ready, who = u->dst;
    if (blocker) *blocker = who;
    return at;
}

static uint16_t clamp16(uint64_t x) { return (uint16_t)(x > 65535 ? 65535 : x); }

/* Is issued µop e in the stall stage now while its data address is translated (a DTLB miss)?
 * The walk's cycles are the dtlb_extra cycles after its arrival there that it stays frozen for
 * (the access it would have made on arrival is made in the last of them). */
static inline bool translating(const inorder *m, const entry *e) {
    return e->dtlb_extra && m->now > e->walk_at && m->now - e->walk_at <= e->dtlb_extra;
}

/* What a stage blaming µop e can say about it. */
static stall_cause uop_cause(const inorder *m, const entry *e) {
    bool walking = false;
    if (e->seq < m->issue_seq && !e->done) {
        const pipe_state *ps = &m->pipe[e->pipe];
        walking = translating(m, e); /* (issued, not done) */
        if (ps->retry == RETRY_SB && ps->stalled_seq == e->seq && m->now < ps->blocked_until) {
            /* a store waiting for a store buffer entry: the buffer's oldest store holds it */
            const sb_entry *oldest = memsys_sb_oldest(m->mem);
            if (oldest)
                return (stall_cause){CAUSE_STORE_BUFFER, oldest->level, 0, OPC_STORE, 0, oldest->seq, oldest->pc};
        }
    }
    stall_cause c = {CAUSE_UOP, e->dcache_level, 0, e->u.op_class, 0, e->seq, e->u.pc};
    if (e->seq >= m->issue_seq) {
        c.state = operands_at(m, &e->u, NULL) <= m->now ? UOPST_READY : UOPST_WAIT_OPERANDS;
        c.latency = m->one_stage[e->u.op_class] ? 1 : (uint16_t)m->pipe[m->pipe_of[e->u.op_class]].stages;
    } else {
        c.state = e->done ? UOPST_DONE : walking ? UOPST_TRANSLATING : UOPST_EXECUTING;
        c.latency = clamp16(e->complete - e->issue);
    }
    return c;
}

/* The writer of register r, blamed by a reader that waits for it. */
static stall_cause writer_cause(const inorder *m, uint8_t r) {
    const reg_state *w = &m->reg[r];
    if (w->seq >= m->commit_seq && w->seq < m->fetch_seq) return uop_cause(m, at_seq(m, w->seq));
    return (stall_cause){CAUSE_UOP, w->level, UOPST_DONE, w->op_class, w->latency, w->seq, w->pc};
}

/* ---- events ---- */

static void event(inorder *m, uint8_t kind, uint8_t unit, uint64_t seq, uint64_t pc, uint64_t addr, uint64_t end,
                  uint8_t level, uint8_t detail) {
    probe_event e = {m->now, end, seq, pc, addr, 0, kind, unit, level, detail};
    probe_event_add(m->probes, &e);
}

/* One PEV_MISS per level an access missed: the L1 (`unit`), then L2 and L3 on the way to `level`. */
static void miss_events(inorder *m, uint8_t unit, uint64_t seq, uint64_t pc, uint64_t addr, uint64_t end,
                        uint8_t level) {
    event(m, PEV_MISS, unit, seq, pc, addr, end, level, 0);
    if (level >= LEVEL_L3 && m->cfg.l2.enabled) event(m, PEV_MISS, UNIT_L2, seq, pc, addr, end, level, 0);
    if (level >= LEVEL_MEM && m->cfg.l3.enabled) event(m, PEV_MISS, UNIT_L3, seq, pc, addr, end, level, 0);
}

/* A TLB miss (`unit`: ITLB or DTLB) of µop seq: the level that served it, and an L2 TLB miss when it walked. */
static void tlb_miss_events(inorder *m, uint8_t unit, uint64_t seq, uint64_t pc, uint64_t addr, uint64_t end) {
    uint8_t level = memsys_tlb_level(m->mem);
    event(m, PEV_MISS, unit, seq, pc, addr, end, level, 0);
    if (level == LEVEL_MEM && m->cfg.l2tlb_entries) event(m, PEV_MISS, UNIT_L2TLB, seq, pc, addr, end, level, 0);
}

static void structure_event(inorder *m, uint8_t unit, uint64_t count, uint64_t cap) {
    uint8_t state = (uint8_t)((count >= cap ? STRUCT_FULL : 0) | (count == 0 ? STRUCT_EMPTY : 0));
    if (state == m->struct_state[unit]) return;
    m->struct_state[unit] = state;
    probe_event e = {m->now, 0, 0, 0, 0, (uint32_t)count, PEV_STRUCT, unit, 0, state};
    probe_event_add(m->probes, &e);
}

/* ---- pipes: the memory stall (§7.2) ---- */

/* µop e (at index idx of its pipe) and every µop behind it in the pipe leave `cycles` later. */
static void hold(inorder *m, pipe_state *ps, uint32_t idx, uint32_t cycles, bool starts_now) {
    for (uint32_t i = idx; i < ps->count; i++) {
        entry *d = at_seq(m, ps->seq[i]);
        /* a stall that starts now freezes the pipe from the next cycle: a younger µop that
         * leaves in this one (ideal.alu's one-stage arithmetic behind a memory µop in a shared
         * pipe) is not held — it was, and left "out of time" (random_config.py seed 386) */
        if (starts_now && i > idx && d->stage == d->exit_stage) continue;
        d->complete += cycles;
        reg_state *w = &m->reg[d->u.dst];
        if (d->u.dst && w->seq == d->seq) { /* no younger writer can have issued (WAW stalls) */
            w->ready = d->complete;
            w->latency = clamp16(d->complete - d->issue);
            w->level = d->dcache_level;
        }
    }
}

static inline bool is_plain_store(const uop *u) { return (u->flags & (UOP_MEM_READ | UOP_MEM_WRITE)) == UOP_MEM_WRITE; }

/* The memory access of µop e now: the cycles its pipe stalls beyond an L1 hit,
 * or UINT32_MAX when it must try again next cycle (store buffer full, or no
 * miss register; only with a store buffer). */
static uint32_t mem_attempt(inorder *m, pipe_state *ps, entry *e) {
    if (m->use_sb) {
        if (is_plain_store(&e->u)) { /* into the store buffer; it never waits for its line */
            if (ps->retry != RETRY_SB)
                e->store_level = memsys_classify(m->mem, e->u.mem_addr, e->u.pc, false, MEM_WRITE);
            if (memsys_sb_push(m->mem, e->u.mem_addr, e->u.mem_size, e->seq, e->u.pc, e->store_level, m->now)) return 0;
            ps->retry = RETRY_SB;
            return UINT32_MAX;
        }
        uint64_t lo = e->u.mem_addr, hi = lo + (e->u.mem_size ? e->u.mem_size : 1);
        if (!(e->u.flags & UOP_MEM_WRITE) && memsys_sb_count(m->mem) && memsys_sb_overlaps(m->mem, lo, hi)) {
            /* its bytes are in the store buffer: forwarded at L1 speed (the tags still see it) */
            memsys_classify(m->mem, e->u.mem_addr, e->u.pc, false, MEM_READ);
            return 0;
        }
    }
    mem_result r; /* a blocking access: a store (without a store buffer) or an AMO dirties its line */
    if (!memsys_data_access(m->mem, e->u.mem_addr, e->u.pc, mem_access_of(&e->u), m->now, &r)) {
        if (!m->use_sb) r = (mem_result){m->l1d_hit, LEVEL_L1, false, false, 0}; /* unlimited miss registers: never */
        else {
            ps->retry = RETRY_MSHR;
            e->dcache_level = LEVEL_MEM; /* the miss registers are held by fills from below */
            return UINT32_MAX;
        }
    }
    uint32_t stall = r.latency > m->l1d_hit ? r.latency - m->l1d_hit : 0;
    if (stall) {
        e->dcache_level = r.level > LEVEL_L1 ? r.level : LEVEL_L2;
        if (m->want_events)
            miss_events(m, UNIT_L1D, e->seq, e->u.pc, e->u.mem_addr, m->now + 1 + stall, e->dcache_level);
    } else if (ps->retry == RETRY_MSHR) {
        e->dcache_level = 0;
    }
    return stall;
}

/* µop e (at index idx of its pipe) has just reached the stall stage: access
 * the D-cache; on a miss it and everything behind it wait for the fill. */
static void dcache_access(inorder *m, pipe_state *ps, uint32_t idx, entry *e) {
    ps->retry = RETRY_NONE;
    if (e->dtlb_extra) { /* a DTLB miss: frozen for the translation, the access in its last cycle */
        e->walk_at = m->now;
        ps->retry = RETRY_TLB;
        ps->blocked_until = m->now + 1 + e->dtlb_extra;
        ps->stalled_seq = e->seq;
        hold(m, ps, idx, e->dtlb_extra, true);
        return;
    }
    uint32_t stall = mem_attempt(m, ps, e);
    if (!stall) return;
    if (stall == UINT32_MAX) { /* try again in the next cycle, its last frozen one */
        stall = 1;
        if (ps->retry == RETRY_SB) m->st.sb_full_cycles++;
    } else {
        ps->retry = RETRY_NONE;
    }
    ps->blocked_until = m->now + 1 + stall;
    ps->stalled_seq = e->seq;
    hold(m, ps, idx, stall, true);
}

/* The frozen µop e tries its access again (or, after its translation, makes it)
 * in its last frozen cycle: refused, one more cycle; else the miss it starts now
 * (if any) holds the pipe from here. */
static void mem_retry(inorder *m, pipe_state *ps, uint32_t idx, entry *e) {
    uint32_t stall = mem_attempt(m, ps, e);
    if (stall == UINT32_MAX) {
        stall = 1;
        if (ps->retry == RETRY_SB) m->st.sb_full_cycles++;
    } else {
        ps->retry = RETRY_NONE;
    }
    ps->blocked_until += stall;
    hold(m, ps, idx, stall, false);
}

/* The instruction in each pipe's last stage leaves; the others move on one stage. */
static void advance_pipes(inorder *m) {
    for (uint32_t p = 0; p < m->npipes; p++) {
        pipe_state *ps = &m->pipe[p];
        uint32_t keep = 0;
        bool frozen = false; /* behind a µop waiting for the D-cache */
        for (uint32_t i = 0; i < ps->count; i++) {
            uint64_t s = ps->seq[i];
            entry *e = at_seq(m, s);
            if (!frozen) {
                if (s == ps->stalled_seq && m->now < ps->blocked_until) {
                    frozen = true;
                    if (ps->retry && m->now + 1 == ps->blocked_until) mem_retry(m, ps, i, e);
                } else if (e->stage == e->exit_stage) {
                    if (e->complete != m->now && !m->broken_seq) m->broken_seq = s; /* see inorder_run */
                    e->done = true;
                    continue;
                } else {
                    e->stage++;
                    if (ps->mem && e->stage == m->stall_stage && is_mem(&e->u)) dcache_access(m, ps, i, e);
                }
            }
            ps->seq[keep++] = s;
        }
        ps->count = keep;
    }
}

/* ---- commit (virtual, in program order) ---- */

static void emit_retire(inorder *m, const entry *e) {
    uop_record *t = probe_record(m->probes);
    *t = (uop_record){.u = e->u,
                      .seq = e->seq,
                      .fetch = e->fetch,
                      .itlb_done = e->itlb_done,
                      .icache_done = e->icache_done,
                      .decode = e->dispatch,
                      .rename = e->dispatch,
                      .dispatch = e->dispatch,
                      .ready = e->ready,
                      .issue = e->issue,
                      .complete = e->complete,
                      .commit = m->now,
                      .exec_latency = clamp16(e->complete - e->issue),
                      .pool = e->pipe,
                      .icache_level = e->icache_level,
                      .dcache_level = e->dcache_level,
                      .mispredict = e->mispredicted ? (uint8_t)mispredict_kind_of(e->u.op_class) : MISP_NONE,
                      .flags = (uint8_t)(e->flags | (e->vp == VP_RIGHT ? UREC_VALUE_PREDICTED : 0))};
    /* a store through the buffer never waits for its line, so it has no miss of its own: its
     * level is where its line was found, in program order — what its write waits for (the
     * PEV_STORE_WRITE's level), as out of order */
    if (m->use_sb && is_plain_store(&e->u) && e->store_level > LEVEL_L1) t->dcache_level = e->store_level;
    if (m->want_prod) {
        memcpy(t->prod_seq, e->prod_seq, sizeof t->prod_seq);
        if (is_mem(&e->u)) t->addr_ready = e->ready, t->dtlb_done = e->ready + e->dtlb_extra;
    }
}

static stage_view commit_stage(inorder *m) {
    stage_view v = {0, (uint8_t)m->width[STAGE_COMMIT], STALL_NONE, {0}};
    while (v.n < v.width && m->commit_seq < m->issue_seq) {
        entry *e = at_seq(m, m->commit_seq);
        if (!e->done) break;
        m->st.uops++;
        if (!(e->u.flags & UOP_CONTINUES)) m->st.instructions++;
        m->st.loads += (e->u.flags & UOP_MEM_READ) != 0;
        m->st.stores += (e->u.flags & UOP_MEM_WRITE) != 0;
        m->st.flops += e->u.fp_ops;
        if (m->probed) {
            if (m->want_retire) emit_retire(m, e);
            if (m->want_waits) probe_wait_add(m->probes, m->now, e->seq, WST_COMMITTED, 0, 0);
        }
        m->commit_seq++;
        v.n++;
    }
    if (v.n) m->last_commit = m->now;
    if (v.n < v.width) {
        if (m->commit_seq == m->dispatch_seq) {
            v.stall = STALL_ROB_EMPTY;
            v.cause = m->prev_dispatch.cause; /* why dispatch left nothing behind the fetch buffer */
        } else {
            v.stall = STALL_HEAD_NOT_DONE;
            if (m->want_views) v.cause = uop_cause(m, at_seq(m, m->commit_seq));
        }
    }
    return v;
}

/* ---- issue: issue buffer → pipes ---- */

static stage_view issue_stage(inorder *m, fp_view *fp) {
    stage_view v = {0, (uint8_t)m->width[STAGE_ISSUE], STALL_NONE, {0}};
    memset(fp, 0, sizeof *fp);
    fp->units = (uint8_t)m->fp_units;
    uint32_t used = 0;
    uint8_t blocker = 0;
    const pipe_state *busy = NULL;
    while (v.n < v.width && m->issue_seq < m->dispatch_seq) {
        entry *e = at_seq(m, m->issue_seq);
        uint8_t cls = e->u.op_class, p = m->pipe_of[cls];
        pipe_state *ps = &m->pipe[p];
        uint64_t at = operands_at(m, &e->u, &blocker);
        if (at > m->now) {
            v.stall = STALL_NOT_READY;
            break;
        }
        if (used & (1u << p)) { /* one instruction per pipe per cycle */
            v.stall = STALL_NO_UNIT;
            break;
        }
        if (m->now < ps->blocked_until || (ps->count && at_seq(m, ps->seq[ps->count - 1])->stage == 0)) {
            v.stall = STALL_NO_UNIT; /* the pipe waits for the D-cache */
            busy = ps;
            break;
        }
        e->ready = at > e->dispatch ? at : e->dispatch;
        e->issue = m->now;
        if (m->want_prod)
            for (int k = 0; k < 3; k++) e->prod_seq[k] = e->u.src[k] ? m->reg[e->u.src[k]].seq : 0;
        e->pipe = p;
        e->stage = 0;
        e->exit_stage = m->one_stage[cls] ? 0 : (uint8_t)(ps->stages - 1);
        e->complete = m->now + e->exit_stage + 1;
        ps->seq[ps->count++] = e->seq;
        if (e->u.dst)
            m->reg[e->u.dst] =
                (reg_state){e->seq, e->complete, m->now, e->u.pc, clamp16(e->exit_stage + 1), cls, 0, e->vp};
        if (ps->mem && m->stall_stage == 0 && is_mem(&e->u)) dcache_access(m, ps, ps->count - 1, e);
        if (e->mispredicted) { /* resolved at issue (§6.1) */
            m->branch_wait = false;
            m->branch_resume = m->now + m->cfg.inorder.resolve_delay;
            if (m->want_events) {
                event(m, PEV_RESOLVE, UNIT_NONE, e->seq, e->u.pc, 0, m->branch_resume, 0, 0);
                event(m, PEV_FLUSH, UNIT_NONE, e->seq, e->u.pc, 0, 0, 0, FLUSH_MISPREDICT);
                m->redirect_pending = true;
            }
        }
        if (ps->fp) {
            if (is_fp_arith(cls)) fp->issued++, fp->flops += e->u.fp_ops;
            else fp->nonflop_on_fpu++;
        } else if (is_fp_arith(cls)) {
            fp->flops_outside += e->u.fp_ops;
        }
        m->st.pipe_issued[p]++;
        used |= 1u << p;
        m->issue_seq++;
        v.n++;
    }
    m->st.issue_hist[v.n <= ISSUE_HIST_MAX ? v.n : ISSUE_HIST_MAX]++;
    if (v.n == v.width) {
        v.stall = STALL_NONE;
    } else if (m->issue_seq == m->dispatch_seq) {
        v.stall = STALL_IQ_EMPTY;
        v.cause = m->prev_dispatch.cause; /* why dispatch left it empty */
    }
    if (!m->want_views) return v; /* (wait states, and samples near a sample, ask for views too) */
    m->head_block = 0;
    m->head_stall = v.stall;
    if (v.stall == STALL_NOT_READY) m->head_block = m->reg[blocker].seq;
    else if (v.stall == STALL_NO_UNIT && busy) m->head_block = busy->stalled_seq;
    if (v.stall == STALL_NOT_READY) {
        v.cause = writer_cause(m, blocker);
    } else if (v.stall == STALL_NO_UNIT) {
        entry *e = at_seq(m, m->issue_seq);
        if (busy && busy->stalled_seq >= m->commit_seq && busy->stalled_seq < m->issue_seq) {
            v.cause = uop_cause(m, at_seq(m, busy->stalled_seq));
        } else {
            v.cause = uop_cause(m, e);
            v.cause.kind = CAUSE_STRUCTURE;
        }
    }
    /* the FP view: the oldest FP arithmetic µop left in the issue buffer */
    if (!m->want_fp) return v;
    for (uint64_t s = m->issue_seq; s < m->dispatch_seq; s++) {
        entry *f = at_seq(m, s);
        if (!is_fp_arith(f->u.op_class)) continue;
        fp->waiting = true;
        uint8_t r;
        fp->cause = operands_at(m, &f->u, &r) > m->now ? writer_cause(m, r) : uop_cause(m, f);
        break;
    }
    return v;
}

/* ---- dispatch: fetch buffer → issue buffer ---- */

static stage_view dispatch_stage(inorder *m, const stage_view *issue) {
    stage_view v = {0, (uint8_t)m->width[STAGE_DISPATCH], STALL_NONE, {0}};
    uint64_t in_fetch = m->fetch_seq - m->dispatch_seq;
    uint64_t room = m->ib_cap - (m->dispatch_seq - m->issue_seq);
    uint64_t flow = in_fetch < room ? in_fetch : room;
    if (flow > v.width) flow = v.width;
    for (uint64_t i = 0; i < flow; i++) at_seq(m, m->dispatch_seq++)->dispatch = m->now;
    v.n = (uint8_t)flow;
    if (v.n == v.width) return v;
    if (m->dispatch_seq == m->fetch_seq) {
        v.stall = STALL_FRONTEND_EMPTY;
        /* what was fetched last cycle is what could have moved now */
        v.cause = m->prev_fetch.cause;
        if (m->prev_fetch.stall == STALL_NONE || v.cause.kind == CAUSE_NONE)
            v.cause = (stall_cause){CAUSE_FRONTEND, 0, 0, 0, 0, 0, 0};
    } else {
        v.stall = STALL_IQ_FULL;
        /* the issue buffer is full because its head could not issue: blame what it waits for
         * (a producer, or the load/store holding its pipe), else the head itself */
        if (m->want_views)
            v.cause = issue->cause.kind == CAUSE_UOP || issue->cause.kind == CAUSE_STORE_BUFFER
                ? issue->cause
                : uop_cause(m, at_seq(m, m->issue_seq));
    }
    return v;
}

/* ---- fetch ---- */

static void window_grow(inorder *m) {
    uint64_t cap = 2 * (m->win_mask + 1);
    entry *w = cs_malloc(cap * sizeof *w);
    for (uint64_t s = m->commit_seq; s < m->fetch_seq; s++) w[s & (cap - 1)] = *at_seq(m, s);
    free(m->win);
    m->win = w;
    m->win_mask = cap - 1;
}

static stage_view fetch_stage(inorder *m, uop_feeder *feed) {
    stage_view v = {0, (uint8_t)m->width[STAGE_FETCH], STALL_NONE, {0}};
    if (m->trace_end) {
        v.stall = STALL_TRACE_END;
        v.cause = (stall_cause){CAUSE_TRACE_END, 0, 0, 0, 0, 0, 0};
        return v;
    }
    if (m->branch_wait || m->now < m->branch_resume) {
        v.stall = m->branch_wait ? STALL_MISPREDICT : STALL_REDIRECT;
        v.cause = (stall_cause){CAUSE_BPRED, 0, 0, m->branch_class, 0, m->branch_seq, m->branch_pc};
        return v;
    }
    if (m->redirect_pending) {
        m->redirect_pending = false;
        event(m, PEV_REDIRECT, UNIT_NONE, m->branch_seq, m->branch_pc, 0, 0, 0, 0);
    }
    if (m->itlb_pending) { /* an ITLB miss: the I-cache access follows the translation */
        if (m->now < m->itlb_until) {
            v.stall = STALL_ITLB;
            v.cause = (stall_cause){CAUSE_ITLB, 0, 0, 0, 0, 0, m->itlb_page << 12};
            return v;
        }
        m->itlb_pending = false;
    }
    if (m->miss_pending && m->now < m->fetch_resume) {
        v.stall = STALL_ICACHE;
        v.cause = (stall_cause){CAUSE_ICACHE, m->miss_level, 0, 0, 0, 0, m->line << m->iline_bits};
        return v;
    }
    uint64_t room = m->fb_cap - (m->fetch_seq - m->dispatch_seq);
    while (v.n < room) {
        const uop *u = feeder_peek(feed);
        if (!u) {
            m->trace_end = true;
            v.stall = STALL_TRACE_END;
            v.cause = (stall_cause){CAUSE_TRACE_END, 0, 0, 0, 0, 0, 0};
            break;
        }
        if (m->itlb && (!m->itlb_valid || u->pc >> 12 != m->itlb_page)) { /* a new page (4 KB) */
            m->itlb_page = u->pc >> 12;
            m->itlb_valid = true;
            uint32_t walk;
            if (!memsys_translate(m->mem, u->pc, true, &walk) && walk) {
                m->itlb_pending = m->itlb_missed = true;
                m->itlb_start = m->now;
                m->itlb_until = m->now + walk;
                if (m->want_events) tlb_miss_events(m, UNIT_ITLB, m->fetch_seq, u->pc, u->pc, m->itlb_until);
                v.stall = STALL_ITLB;
                v.cause = (stall_cause){CAUSE_ITLB, 0, 0, 0, 0, 0, u->pc};
                break;
            }
        }
        uint64_t line = u->pc >> m->iline_bits;
        if (!m->line_valid || line != m->line) {
            m->line = line;
            m->line_valid = true;
            m->line_first = true;
            mem_result r;
            if (!memsys_fetch(m->mem, u->pc, m->now, &r)) r = (mem_result){m->l1i_hit, LEVEL_L1, false, false, 0};
            if (r.latency > m->l1i_hit) { /* §7.1: fetch stalls for the miss cost */
                m->miss_pending = true;
                m->miss_start = m->now;
                m->fetch_resume = m->now + (r.latency - m->l1i_hit);
                m->miss_level = r.level > LEVEL_L1 ? r.level : LEVEL_L2;
                if (m->want_events)
                    miss_events(m, UNIT_L1I, m->fetch_seq, u->pc, u->pc, m->fetch_resume, m->miss_level);
                v.stall = STALL_ICACHE;
                v.cause = (stall_cause){CAUSE_ICACHE, m->miss_level, 0, 0, 0, 0, u->pc};
                break;
            }
        }
        if (m->fetch_seq - m->commit_seq > m->win_mask) window_grow(m);
        entry *e = at_seq(m, m->fetch_seq); /* fields not set here are set when they are reached */
        e->u = *u;
        e->seq = m->fetch_seq;
        e->fetch = e->icache_done = m->now;
        e->icache_level = e->dcache_level = 0;
        e->vp = VP_NONE;
        e->mispredicted = e->done = false;
        e->flags = 0;
        if (m->probed) {
            e->flags = (uint8_t)((v.n == 0 ? UREC_FIRST_IN_GROUP : 0) | (m->line_first ? UREC_FIRST_IN_LINE : 0));
            e->wait = WST_COUNT;
            e->wait_cause = 0;
            m->line_first = false;
        }
        if (m->miss_pending) { /* the first instruction of the line that missed */
            e->fetch = m->miss_start;
            e->icache_level = m->miss_level;
            m->miss_pending = false;
        }
        e->itlb_done = e->fetch; /* the I-cache access; after an ITLB miss, fetch is where it started */
        if (m->itlb_missed) {
            e->fetch = m->itlb_start;
            e->flags |= UREC_ITLB_MISS;
            m->itlb_missed = false;
        }
        /* the DTLB is looked up in program order, like the caches; the walk happens in the stall stage */
        e->dtlb_extra = 0;
        e->walk_at = UINT64_MAX; /* not yet in the stall stage */
        if (m->dtlb && is_mem(u) && !memsys_translate(m->mem, u->mem_addr, false, &e->dtlb_extra)) {
            e->flags |= UREC_DTLB_MISS;
            if (m->want_events) tlb_miss_events(m, UNIT_DTLB, e->seq, u->pc, u->mem_addr, 0);
        }
        if (uop_is_control(u)) {
            bool right = m->bpmode == BP_PERFECT ? true : m->bpmode == BP_STALL_ALL ? false : bpred_predict(m->bp, u);
            bool cond = u->op_class == OPC_BRANCH;
            m->st.branches++;
            m->st.cond_branches += cond;
            if (!right) {
                e->mispredicted = true;
                m->st.mispredicts++;
                m->st.cond_mispredicts += cond;
            }
        }
        if (m->vp_on && u->dst) e->vp = vp_predict_train(m, u, e->seq);
        feeder_next(feed);
        m->fetch_seq++;
        v.n++;
        if (e->mispredicted) { /* fetch stops until it issues */
            if (m->want_events)
                event(m, PEV_MISPREDICT, UNIT_NONE, e->seq, e->u.pc, 0, 0, 0,
                      (uint8_t)mispredict_kind_of(e->u.op_class));
            m->branch_wait = true;
            m->branch_seq = e->seq;
            m->branch_pc = e->u.pc;
            m->branch_class = e->u.op_class;
            v.stall = STALL_MISPREDICT;
            v.cause = (stall_cause){CAUSE_BPRED, 0, 0, e->u.op_class, 0, e->seq, e->u.pc};
            break;
        }
    }
    if (v.n == v.width) {
        v.stall = STALL_NONE;
        v.cause.kind = CAUSE_NONE;
    } else if (v.stall == STALL_NONE) {
        v.stall = STALL_BUFFER_FULL;
        v.cause = (stall_cause){CAUSE_STRUCTURE, 0, 0, 0, 0, 0, 0};
    }
    return v;
}

/* ---- the cycle loop ---- */

/* Is anything on its way that lets the machine move on by itself: a µop in a pipe (it moves on
 * every cycle, or a D-cache miss or DTLB walk holds it until a known cycle), an I-cache miss,
 * an ITLB walk or a branch's resolution delay holding fetch, a fill or a store-buffer write?
 * The deadlock detector fires only when nothing is: a wait longer than core.deadlock_cycles is
 * not a deadlock (as on the out-of-order model, ooo.c). */
static bool waits_for_event(const inorder *m) {
    if (memsys_next_event(m->mem, m->now) != UINT64_MAX) return true;
    for (uint32_t p = 0; p < m->npipes; p++) /* a pipe moves every cycle unless a miss holds it */
        if (m->pipe[p].count || m->pipe[p].blocked_until > m->now) return true;
    return (m->miss_pending && m->fetch_resume > m->now) || m->itlb_until > m->now || m->branch_resume > m->now;
}

static void deadlock_error(const inorder *m, cs_error *err) {
    const entry *h = at_seq(m, m->commit_seq);
    cs_error_set(err,
                 "timing model deadlock: no µop committed for %u cycles (cycle %" PRIu64 "; fetch buffer %" PRIu64
                 ", issue buffer %" PRIu64 "; oldest µop seq %" PRIu64 " pc 0x%" PRIx64 " %s %s)",
                 m->cfg.deadlock_cycles, m->now, m->fetch_seq - m->dispatch_seq, m->dispatch_seq - m->issue_seq, h->seq,
                 h->u.pc, isa_class_name((op_class)h->u.op_class),
                 m->commit_seq < m->issue_seq ? "issued" : "not issued");
}

/* The thesis' state at the start of the cycle: buffer and pipe occupancy. */
static void count_state(inorder *m) {
    core_stats *st = &m->st;
    uint64_t in_fetch = m->fetch_seq - m->dispatch_seq, in_issue = m->dispatch_seq - m->issue_seq;
    st->fetch_buffer_hist[in_fetch]++;
    st->issue_buffer_hist[in_issue]++;
    st->iq_occupancy += in_issue;
    st->rob_occupancy += m->dispatch_seq - m->commit_seq;
    for (uint32_t p = 0; p < m->npipes; p++) {
        st->pipe_occupancy[p] += m->pipe[p].count;
        st->pipe_occupancy_hist[p][m->pipe[p].count]++;
    }
}

static void reset_timing(inorder *m) {
    /* A core may be run more than once; only caches and predictors carry over. */
    memset(m->reg, 0, sizeof m->reg);
    for (uint32_t p = 0; p < m->npipes; p++) {
        m->pipe[p].count = 0;
        m->pipe[p].blocked_until = m->pipe[p].stalled_seq = 0;
        m->pipe[p].retry = RETRY_NONE;
    }
    m->commit_seq = m->issue_seq = m->dispatch_seq = m->fetch_seq = 1;
    m->line_valid = m->miss_pending = m->branch_wait = m->trace_end = false;
    m->itlb_valid = m->itlb_pending = m->itlb_missed = false;
    m->redirect_pending = m->line_first = false;
    memset(m->struct_state, 0, sizeof m->struct_state);
    m->fetch_resume = m->branch_resume = 0;
    m->last_commit = m->broken_seq = 0;
    memset(&m->prev_fetch, 0, sizeof m->prev_fetch);
    memset(&m->prev_dispatch, 0, sizeof m->prev_dispatch);
    memsys_reset_stats(m->mem);
    memset(&m->st, 0, sizeof m->st);
}

/* The wait state of µop e in the window now (PROBE_WAITS, samples). */
static uint8_t wait_state_of(const inorder *m, const entry *e, uint64_t *cause, uint8_t *level) {
    *cause = 0;
    *level = 0;
    if (e->seq >= m->issue_seq) { /* in the issue buffer */
        if (e->seq != m->issue_seq) {
            *cause = m->issue_seq; /* in-order issue: behind the oldest */
            return WST_QUEUED;
        }
        uint8_t blocker;
        if (operands_at(m, &e->u, &blocker) > m->now) { /* also when the issue width ran out first */
            *cause = m->reg[blocker].seq;
            return WST_OPERANDS;
        }
        if (m->head_stall == STALL_NO_UNIT) {
            *cause = m->head_block;
            return WST_NO_UNIT;
        }
        return WST_READY;
    }
    if (e->done) return WST_DONE;
    const pipe_state *ps = &m->pipe[e->pipe];
    if (ps->stalled_seq == e->seq && m->now < ps->blocked_until) {
        if (ps->retry == RETRY_SB && memsys_sb_oldest(m->mem)) {
            *cause = memsys_sb_oldest(m->mem)->seq;
            *level = memsys_sb_oldest(m->mem)->level;
            return WST_STORE_BUFFER;
        }
        if (ps->retry == RETRY_MSHR) return WST_NO_MSHR;
        if (translating(m, e)) return WST_EXECUTING; /* report_waits says translating */
        *level = e->dcache_level;
        return WST_FILL;
    }
    return WST_EXECUTING;
}

static void report_waits(inorder *m) {
    for (uint64_t s = m->commit_seq; s < m->dispatch_seq; s++) {
        entry *e = at_seq(m, s);
        uint64_t cause;
        uint8_t level;
        uint8_t w = wait_state_of(m, e, &cause, &level);
        if (w == WST_EXECUTING && e->seq < m->issue_seq && translating(m, e)) w = WST_TRANSLATING; /* as on ooo */
        if (w == e->wait && cause == e->wait_cause) continue;
        e->wait = w;
        e->wait_cause = cause;
        probe_wait_add(m->probes, m->now, e->seq, w, cause, level);
    }
}

static void take_sample(inorder *m, const stage_view *issue) {
    sample_view sv = {.cycle = m->now, .issue = *issue, .state = WST_COUNT};
    uint64_t s = m->issue_seq < m->dispatch_seq ? m->issue_seq : m->commit_seq < m->issue_seq ? m->commit_seq : 0;
    if (s) {
        const entry *e = at_seq(m, s);
        sv.seq = e->seq;
        sv.pc = e->u.pc;
        sv.op_class = e->u.op_class;
        sv.state = wait_state_of(m, e, &sv.cause_seq, &sv.level);
    }
    probe_sample(m->probes, &sv);
}

static bool inorder_run(void *model, uop_feeder *feed, const core_run_options *opt, probe_set *probes,
                        core_stats *stats, cs_error *err) {
    inorder *m = model;
    reset_timing(m);
    m->probes = probes;
    m->views_always = probe_wants(probes, PROBE_STAGES | PROBE_FETCH | PROBE_FP | PROBE_WAITS);
    m->want_views = m->views_always;
    m->want_fp = probe_wants(probes, PROBE_FP);
    m->want_retire = probe_wants(probes, PROBE_RETIRE);
    m->want_prod = probe_wants(probes, PROBE_PRODUCERS);
    m->want_events = probe_wants(probes, PROBE_EVENTS);
    memsys_keep_notes(m->mem, m->want_events);
    m->want_waits = probe_wants(probes, PROBE_WAITS);
    m->want_samples = probe_wants(probes, PROBE_SAMPLES);
    m->want_intervals = probe_wants(probes, PROBE_INTERVALS);
    m->probed = m->probed_always = (probes->needs & ~(uint32_t)PROBE_SAMPLES) != 0;
    probe_run_info info = {"inorder",
                           m->cfg.name,
                           &m->cfg,
                           {(uint8_t)m->width[STAGE_FETCH], (uint8_t)m->width[STAGE_DISPATCH],
                            (uint8_t)m->width[STAGE_ISSUE], (uint8_t)m->width[STAGE_COMMIT]},
                           (uint8_t)m->fp_units,
                           1,
                           m->cfg.freq_ghz};
    probe_begin(probes, &info);
    m->views_from = m->views_always ? 0 : m->want_samples ? probes->sample_at - 1 : UINT64_MAX;
    cs_progress bar;
    if (opt->progress_label)
        progress_start(&bar, opt->progress_label, feed->limit ? feed->limit - feed->delivered_instructions : 0);
    bar.cycles = &m->now; /* the running IPC */
    bool ok = true;
    for (m->now = 0;; m->now++) {
        /* Samples alone build views only in the cycle before a sample and in its cycle: an empty
         * issue stage takes the previous cycle's dispatch cause, which may take its issue cause. */
        if (m->now >= m->views_from) m->want_views = m->probed = true;
        count_state(m);
        /* the store buffer drains first: an entry freed now takes a store in this cycle */
        if (m->use_sb) {
            if (memsys_sb_count(m->mem) && memsys_sb_tick(m->mem, m->now) && m->want_events)
                memsys_probe_store_write(m->mem, m->probes, m->now);
            m->st.sb_occupancy += memsys_sb_count(m->mem);
        }
        advance_pipes(m);
        fp_view fp;
        stage_view commit = commit_stage(m);
        stage_view issue = issue_stage(m, &fp);
        stage_view dispatch = dispatch_stage(m, &issue);
        stage_view fetch = fetch_stage(m, feed);
        m->prev_fetch = fetch;
        m->prev_dispatch = dispatch;
        if (m->probed) {
            if (m->want_views) {
                probe_cycle_views(probes, m->now, &fetch, &dispatch, &issue, &commit, m->want_fp ? &fp : NULL);
            }
            if (m->want_waits) report_waits(m);
            if (m->want_events) {
                structure_event(m, UNIT_FETCH_BUFFER, m->fetch_seq - m->dispatch_seq, m->fb_cap);
                structure_event(m, UNIT_IQ, m->dispatch_seq - m->issue_seq, m->ib_cap);
                structure_event(m, UNIT_ROB, m->dispatch_seq - m->commit_seq, UINT64_MAX); /* never full */
                memsys_probe_events(m->mem, probes, m->now, m->struct_state, false);
            }
            if (m->want_intervals && m->st.instructions >= probes->interval_at) {
                core_stats snap = m->st;
                snap.cycles = m->now + 1;
                memsys_stats(m->mem, &snap);
                probe_interval(probes, &snap);
            }
            if (m->want_samples && m->now == probes->sample_at) {
                take_sample(m, &issue);
                if (!m->views_always) {
                    m->want_views = false;
                    m->probed = m->probed_always;
                    m->views_from = probes->sample_at - 1;
                }
            }
        }
        if (m->trace_end && m->commit_seq == m->fetch_seq && !memsys_sb_count(m->mem)) {
            m->now++;
            break;
        }
        bool moved = fetch.n || dispatch.n || issue.n || commit.n; /* fetch may have resumed just now */
        if (m->now - m->last_commit > m->cfg.deadlock_cycles && !moved && !waits_for_event(m)) {
            deadlock_error(m, err);
            ok = false;
            m->now++;
            break;
        }
        if (m->vp_missing_seq) {
            cs_error_set(err,
                         "inorder.value_prediction = yes: %s µop at pc 0x%" PRIx64 " writes a register but "
                         "carries no result value; value prediction needs a stream with results (the live "
                         "emulator, or a .cst recorded with `trace record --values`)",
                         m->vp_missing_seq == UINT64_MAX ? "a warm-up" : "a", m->vp_missing_pc);
            ok = false;
            m->now++;
            break;
        }
        if (m->broken_seq) {
            cs_error_set(
                err, "in-order model: internal error at cycle %" PRIu64 ": µop %" PRIu64 " left its pipe out of time",
                m->now, m->broken_seq);
            ok = false;
            m->now++;
            break;
        }
        if (opt->progress_label) progress_update(&bar, m->st.instructions);
    }
    if (opt->progress_label) progress_finish(&bar);
    m->st.cycles = m->now;
    memsys_stats(m->mem, &m->st);
    *stats = m->st;
    if (m->want_events) memsys_probe_events(m->mem, probes, m->now, m->struct_state, true);
    probe_end(probes, &m->st);
    m->probes = NULL;
    return ok && !feed->failed;
}

const core_model_ops inorder_model = {"inorder",    inorder_create, inorder_run,
                                      inorder_warm, inorder_reset,  inorder_destroy};
