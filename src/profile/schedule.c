/* The static schedule of a basic block: Mi, the cycles instruction i spends
 * at the head of issue with no dynamic stall (DCPI §6.1.3). Rather than a
 * second model of the issue logic, the block is timed on the machine's own
 * timing model — the configuration recorded in the profile, with perfect
 * caches, and a perfect predictor unless the machine has none (then every
 * control transfer stalls fetch, a static stall) — and sampled at every cycle
 * by the same rule as the profile's samples. So for inorder1/inorder3 Mi
 * follows their exact issue rules; for out-of-order machines it is the
 * block's isolated schedule (docs/profile.md says what that misses).
 *
 * The paper ignores preceding blocks; here the block is timed after the last
 * instructions of each predecessor (analysis.c), or after generic stand-ins
 * when one is unknown (sched_generic_contexts: a call for a procedure's
 * entry, nothing, a no-op, a store). Eight independent no-ops follow it so
 * that the block's last instructions see the next instructions arrive as
 * they would. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "probes/probes.h"
#include "profile_internal.h"
#include "uarch/uarch.h"

enum { TRAIL_NOPS = 8 };
#define NOP_BASE 0x7ff000000000ull /* no-ops' pcs: far from any program's */

typedef struct block_source {
    uop_source base;
    const uop *uops;
    size_t n, pos;
} block_source;

static long bs_read(uop_source *s, uop *buf, size_t max, cs_error *err) {
    (void)err;
    block_source *b = (block_source *)s;
    size_t k = b->n - b->pos < max ? b->n - b->pos : max;
    memcpy(buf, b->uops + b->pos, k * sizeof *buf);
    b->pos += k;
    return (long)k;
}
static long long bs_skip(uop_source *s, uint64_t n, cs_error *err) {
    (void)err;
    block_source *b = (block_source *)s;
    size_t k = b->n - b->pos < n ? b->n - b->pos : (size_t)n;
    b->pos += k;
    return (long long)k;
}
static void bs_destroy(uop_source *s) { (void)s; }
static const uop_source_ops block_ops = {"block", bs_read, bs_skip, bs_destroy};

struct sched_model {
    uarch_config cfg;
    /* the block being scheduled */
    const profile_insn *insns;
    size_t n;
    uint32_t *m;
    uint32_t reason_cycles[512][SR_OTHER + 1];
    uint64_t culprit_pc[512];
    uint32_t pending; /* in-order: bubble cycles waiting for the next instruction to issue */
    sched_machine machine;
    /* the schedule's machine, made once and reset before each run (a block after one context):
     * a machine with large structures (a TLB of 2^20 entries) costs its allocation once, not
     * once a block (core_reset) */
    core_t *core;
    bool core_used; /* a run was made on it since it was created */
};

static long find_pc(const sched_model *s, uint64_t pc) {
    size_t i = pc_lower_bound(s->insns, s->n, sizeof *s->insns, pc);
    return i < s->n && s->insns[i].pc == pc ? (long)i : -1;
}

static uint64_t sched_sample(void *ctx, const sample_view *sv) {
    sched_model *s = ctx;
    if (!s->insns) return 1;
    /* in-order, a bubble cycle is the next waiting instruction's (as the sampler) */
    if (s->machine.inorder && profile_frontend_bubble(sv)) {
        s->pending++;
        return 1;
    }
    uint32_t bubble = s->pending;
    s->pending = 0;
    if (!sv->seq) return 1;
    long i = find_pc(s, sv->pc);
    if (i < 0) return 1;
    s->m[i] += 1 + bubble;
    if (i >= 512) return 1;
    s->reason_cycles[i][SR_FETCH] += bubble;
    static_reason r = SR_NONE;
    const stall_cause *c = &sv->issue.cause;
    switch (sv->state) {
    case WST_QUEUED:
    case WST_READY: r = SR_NONE; break;
    case WST_OPERANDS: r = SR_DEPENDENCY; break;
    case WST_NO_UNIT: r = SR_UNIT; break;
    case WST_EXECUTING:
    case WST_DONE: r = SR_FETCH; break;
    default: r = SR_OTHER; break;
    }
    s->reason_cycles[i][r]++;
    if (r != SR_NONE && c->kind == CAUSE_UOP && c->pc && find_pc(s, c->pc) >= 0) s->culprit_pc[i] = c->pc;
    return 1;
}

sched_model *sched_create(const char *config_text, cs_error *err) {
    sched_model *s = cs_calloc(1, sizeof *s);
    uarch_config_default(&s->cfg);
    /* read from memory: an error names the profile's configuration and its line (the caller
     * prefixes the profile), never a temporary file */
    if (!uarch_config_load_text(&s->cfg, config_text, "the profile's configuration", err)) {
        free(s);
        return NULL;
    }
    sched_machine *mc = &s->machine;
    mc->inorder = s->cfg.model == MODEL_INORDER;
    mc->bpred_none = s->cfg.bpred == BPRED_NONE && !s->cfg.perfect_bpred;
    mc->bpred_perfect = s->cfg.bpred == BPRED_PERFECT || s->cfg.perfect_bpred;
    mc->icache_perfect = s->cfg.perfect_icache;
    mc->dcache_perfect = s->cfg.perfect_dcache;
    /* both models may have them (in-order: a full store buffer or a DTLB miss holds the memory pipe) */
    mc->store_buffer = s->cfg.store_buffer > 0;
    mc->dtlb = s->cfg.dtlb_entries > 0;
    mc->icache_line = s->cfg.l1i.line ? s->cfg.l1i.line : 64;
    mc->miss_cost = s->cfg.mem_latency + s->cfg.l1i.latency + (s->cfg.l2.enabled ? s->cfg.l2.latency : 0) +
        (s->cfg.l3.enabled ? s->cfg.l3.latency : 0);
    if (mc->inorder) {
        mc->depth = s->cfg.inorder.fetch_buffer + s->cfg.inorder.issue_buffer;
        for (uint32_t p = 0; p < s->cfg.inorder.pipe_count; p++)
            for (int c = 0; c < OPC_COUNT && c < 32; c++)
                if (s->cfg.inorder.pipe[p].classes & (1u << c)) {
                    mc->long_latency[c] = s->cfg.inorder.pipe[p].stages > 1;
                    mc->shared_unit[c] = true;
                }
    } else {
        mc->depth = s->cfg.fetch_buffer + s->cfg.fetch_width * s->cfg.decode_depth;
        mc->commit_width = s->cfg.commit_width;
        for (int c = 0; c < OPC_COUNT && c < 32; c++) {
            mc->long_latency[c] = s->cfg.latency[c] > 1 || c == OPC_LOAD;
            mc->shared_unit[c] = true;
        }
    }
    /* the schedule's machine: no dynamic stalls */
    s->cfg.perfect_icache = s->cfg.perfect_dcache = true;
    if (!mc->bpred_none) s->cfg.perfect_bpred = true;
    s->cfg.inorder.value_prediction = false;
    /* What is never looked at is kept small, for the core's reset clears it before each block:
     * perfect caches (the levels below and the prefetchers are reached only through an L1's
     * miss), and the predictor's tables — perfect, its every prediction is right; none, every
     * taken transfer redirects fetch (bpred_predict): either way what its tables hold is not
     * asked. The TLBs are looked at (a block's pages miss once), a reset clears the few
     * entries a block fills. */
    cache_config *caches[] = {&s->cfg.l1i, &s->cfg.l1d, &s->cfg.l2, &s->cfg.l3};
    for (int k = 0; k < 4; k++)
        if (caches[k]->size > caches[k]->line * (caches[k]->assoc ? caches[k]->assoc : 16))
            caches[k]->size = caches[k]->line * (caches[k]->assoc ? caches[k]->assoc : 16);
    s->cfg.prefetch_dcache_stride = 0;
    s->cfg.bpred_table_bits = 1;
    s->cfg.bpred_history = 0;
    s->cfg.btb_entries = 0;
    s->cfg.ras_entries = 0;
    if (!uarch_config_validate(&s->cfg, err)) {
        cs_error_prefix(err, "the schedule's machine");
        free(s);
        return NULL;
    }
    probe_observer o = {.ctx = s, .needs = PROBE_SAMPLES, .sample_period = 1, .sample = sched_sample};
    s->core = core_create(&s->cfg, err);
    if (!s->core || !core_observe(s->core, &o, err)) {
        core_destroy(s->core);
        free(s);
        return NULL;
    }
    return s;
}

void sched_machine_of(const sched_model *s, sched_machine *out) { *out = s->machine; }

static void block_uop(uop *x, const profile_insn *in, uint64_t pc, size_t i) {
    isa_insn d;
    isa_decode(in->raw, &d);
    uop_from_insn(x, &d);
    x->pc = pc;
    x->next_pc = pc + in->length;
    x->flags &= (uint8_t)~UOP_TAKEN;
    /* distinct lines: no false memory dependences */
    if (x->flags & (UOP_MEM_READ | UOP_MEM_WRITE)) x->mem_addr = 0x10000000ull + i * 256;
}

/* Time the block after the context `ctx` and count its samples into s->m. */
static bool run_context(sched_model *s, const sched_context *ctx, const profile_insn *insns, size_t n, cs_error *err) {
    size_t np = ctx->n;
    uop *u = cs_calloc(np + n + TRAIL_NOPS, sizeof *u);
    isa_insn nop;
    isa_decode(0x00000013, &nop); /* addi x0, x0, 0 */
    /* the context's instructions at pcs of their own (a block may follow itself) */
    for (size_t i = 0; i < np; i++) block_uop(&u[i], &ctx->insns[i], NOP_BASE - 0x100000 + 4 * i, 64 + i);
    for (size_t i = 0; i < n; i++) block_uop(&u[np + i], &insns[i], insns[i].pc, i);
    for (size_t k = 0; k < TRAIL_NOPS; k++) {
        uop *x = &u[np + n + k];
        uop_from_insn(x, &nop);
        x->pc = NOP_BASE + 4 * k;
        x->next_pc = x->pc + 4;
    }
    memset(s->m, 0, n * sizeof *s->m);
    memset(s->reason_cycles, 0, sizeof s->reason_cycles);
    memset(s->culprit_pc, 0, sizeof s->culprit_pc);
    s->pending = 0;
    s->insns = insns;
    s->n = n;
    block_source src = {{&block_ops}, u, np + n + TRAIL_NOPS, 0};
    core_run_options opt = {0};
    core_stats st;
    /* every run on the machine as new: a run leaves its state (caches, TLBs, the clock) behind */
    if (s->core_used) core_reset(s->core);
    s->core_used = true;
    bool ok = core_run(s->core, &src.base, &opt, &st, err);
    free(u);
    return ok;
}

bool sched_block(sched_model *s, const profile_insn *insns, size_t n, const sched_context *ctx, size_t nctx,
                 uint32_t *m, uint8_t *reason, int *culprit, uint8_t *varies, uint32_t *m_each, cs_error *err) {
    /* the block after each context (paper §6.1.3, third challenge: Mi may
     * depend on the preceding block): an instruction whose Mi differs after
     * another context varies. The first context's run last, so that its Mi,
     * reasons and culprits are the ones kept. */
    uint32_t *alt = cs_calloc((nctx ? nctx : 1) * n + 1, sizeof *alt);
    memset(varies, 0, n);
    bool ok = true;
    for (size_t c = 1; c < nctx && ok; c++) {
        s->m = alt + c * n;
        ok = run_context(s, &ctx[c], insns, n, err);
    }
    if (ok) {
        s->m = m;
        ok = run_context(s, &ctx[0], insns, n, err);
    }
    for (size_t c = 1; ok && c < nctx; c++)
        for (size_t i = 0; i < n; i++)
            if (alt[c * n + i] != m[i]) varies[i] = 1;
    if (ok && m_each) {
        memcpy(m_each, m, n * sizeof *m);
        if (nctx > 1) memcpy(m_each + n, alt + n, (nctx - 1) * n * sizeof *alt);
    }
    free(alt);
    if (!ok) {
        s->insns = NULL;
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        reason[i] = SR_NONE;
        culprit[i] = -1;
        if (i >= 512 || m[i] <= 1) continue;
        uint32_t best = 0;
        for (int r = SR_DEPENDENCY; r <= SR_OTHER; r++)
            if (s->reason_cycles[i][r] > best) {
                best = s->reason_cycles[i][r];
                reason[i] = (uint8_t)r;
            }
        if (s->culprit_pc[i]) culprit[i] = (int)find_pc(s, s->culprit_pc[i]);
    }
    s->insns = NULL;
    return true;
}

/* The generic contexts for a block whose predecessors are not known: a call
 * (first: it stands for the procedure's entry edge, which a call or a tail
 * jump always takes — on a machine without a predictor its fetch bubble is
 * the entry's first instruction's), nothing before it, an integer no-op, a
 * store with no registers. */
size_t sched_generic_contexts(sched_context out[4], profile_insn storage[3]) {
    memset(storage, 0, 3 * sizeof *storage);
    storage[0].raw = 0x008000ef; /* jal ra, 8 */
    storage[0].length = 4;
    storage[1].raw = 0x00000013; /* addi x0, x0, 0 */
    storage[1].length = 4;
    storage[2].raw = 0x00003023; /* sd x0, 0(x0) */
    storage[2].length = 4;
    out[0] = (sched_context){&storage[0], 1};
    out[1] = (sched_context){NULL, 0};
    out[2] = (sched_context){&storage[1], 1};
    out[3] = (sched_context){&storage[2], 1};
    return 4;
}

void sched_destroy(sched_model *s) {
    if (!s) return;
    core_destroy(s->core);
    free(s);
}
