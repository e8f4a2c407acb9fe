/* The sampler: the analysis "profile" of the runner. CYCLES samples on the
 * probe contract's sample timer with a randomised period (DCPI §4: 60K–64K
 * cycles), optional event samples (every Nth I-cache miss, D-cache miss and
 * mispredict) from the event channel, and — only when a truth file is asked
 * for — exact per-pc execution counts and the true cause of each sample. The
 * timer costs nothing between samples: the core stops only at sample cycles. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "isa/isa.h"
#include "probes/probes.h"
#include "profile_internal.h"
#include "runner/runner.h"
#include "sweep/sweep.h"

typedef struct truth_acc {
    uint64_t pc, executions, cause[TC_COUNT];
} truth_acc;

/* commit-cycle: a pc's slot-samples in the sample cycle being handed out */
typedef struct cycle_share {
    uint64_t pc, slots;
} cycle_share;

/* the sample cycles whose lost slots wait for a frontend bubble's end, at most (more are
 * counted with the last: their spread is then overstated, never their counts) */
enum { MAX_PENDING_CYCLES = 16 };

typedef struct sampler {
    char *file, *exe, *truth_file;
    uint64_t period_min, period_max, seed, rng;
    uint64_t event_period, event_seen[PROF_EVENT_COUNT];
    /* per-pc counts */
    u64map map;
    profile_pc *pcs;
    size_t npcs, cap;
    uint64_t samples, idle;
    /* truth */
    u64map tmap, emap;
    truth_acc *tpcs;
    size_t ntpcs, tcap;
    truth_edge *edges;
    size_t nedges, ecap;
    /* DCPI's sample names the instruction at the head of the issue queue; with
     * none waiting there (a frontend bubble) the 21164 names the next one to
     * issue. In-order the sampler follows the bubble cycle by cycle to it:
     * `pending` samples (their true causes in pending_cause) wait for it,
     * `left` cycles before the next sample */
    bool defer;
    uint64_t pending, left, pending_cause[TC_COUNT];
    /* out of order: where a sample lands (profile_sample_point): commit-cycle unless point= says */
    uint8_t point, point_asked; /* point_asked: PROFILE_POINT_COMMIT_CYCLE when not given */
    /* commit-cycle: the sample cycle's shares per pc, and the lost slots of each sample cycle
     * still waiting for a bubble's end (`pending` is their sum) */
    cycle_share share[PROBE_MAX_COMMIT + 1];
    size_t nshare, npending_cycles;
    uint64_t pending_cycle[MAX_PENDING_CYCLES];
    /* the run */
    char *config_name, *model, *config_text;
    core_stats stats;
    bool ended;
    /* staged=1: finish leaves the files as temporaries beside them (cs_output) for
     * profile_sampler_keep; destroy removes what was not kept */
    bool staged;
    cs_output file_out, truth_out;
} sampler;

static uint64_t next_random(sampler *s) { /* splitmix64 */
    uint64_t z = (s->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t next_period(sampler *s) { return s->period_min + next_random(s) % (s->period_max - s->period_min + 1); }

static profile_pc *pc_slot(sampler *s, uint64_t pc) {
    long i = u64map_get(&s->map, pc);
    if (i >= 0) return &s->pcs[i];
    if (s->npcs == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 256;
        s->pcs = cs_realloc(s->pcs, s->cap * sizeof *s->pcs);
    }
    profile_pc *e = &s->pcs[s->npcs];
    memset(e, 0, sizeof *e);
    e->pc = pc;
    u64map_put(&s->map, pc, (uint32_t)s->npcs++);
    return e;
}

static truth_acc *truth_slot(sampler *s, uint64_t pc) {
    long i = u64map_get(&s->tmap, pc);
    if (i >= 0) return &s->tpcs[i];
    if (s->ntpcs == s->tcap) {
        s->tcap = s->tcap ? s->tcap * 2 : 1024;
        s->tpcs = cs_realloc(s->tpcs, s->tcap * sizeof *s->tpcs);
    }
    truth_acc *e = &s->tpcs[s->ntpcs];
    memset(e, 0, sizeof *e);
    e->pc = pc;
    u64map_put(&s->tmap, pc, (uint32_t)s->ntpcs++);
    return e;
}

/* The true cause of a sample, from the simulator's own view of it. A wait on
 * a µop that is translating its address (a DTLB miss: the probe contract's
 * UOPST_TRANSLATING) is a DTLB miss. */
static profile_cause true_cause(const sample_view *sv) {
    const stall_cause *c = &sv->issue.cause;
    bool uop_cause = sv->issue.stall != STALL_NONE && c->kind == CAUSE_UOP;
    switch (sv->state) {
    case WST_QUEUED:
    case WST_READY: return TC_NONE;
    case WST_OPERANDS:
        if (uop_cause && c->state == UOPST_TRANSLATING) return TC_DTLB; /* before its data access */
        if (uop_cause && c->level > 0) return TC_DCACHE;
        if (uop_cause && c->latency > 1) return TC_LONG_LATENCY;
        return TC_DEPENDENCY;
    case WST_NO_UNIT: return uop_cause && c->level > 0 ? TC_DCACHE : TC_BUSY_UNIT;
    case WST_NO_MSHR:
    case WST_FILL: return TC_DCACHE;
    case WST_MEM_ORDER: return TC_OTHER;
    case WST_STORE_BUFFER: return TC_STORE_BUFFER;
    case WST_EXECUTING:
    case WST_DONE:
        /* nothing waits to issue: why the issue stage is empty */
        if (sv->issue.stall == STALL_NONE) return TC_NONE;
        switch (c->kind) {
        case CAUSE_ICACHE:
        case CAUSE_ITLB: return TC_ICACHE;
        case CAUSE_BPRED: return TC_MISPREDICT;
        case CAUSE_FRONTEND: return TC_FRONTEND;
        case CAUSE_STORE_BUFFER: return TC_STORE_BUFFER;
        case CAUSE_UOP:
            if (c->state == UOPST_TRANSLATING) return TC_DTLB;
            if (c->level > 0) return TC_DCACHE;
            return c->latency > 1 ? TC_LONG_LATENCY : TC_DEPENDENCY;
        default: return TC_OTHER;
        }
    default: return TC_OTHER;
    }
}

/* Commit slots: the true cause of a lost slot, from the commit stage's view and the ROB head's
 * wait (the sample view's commit fields). The ROB is empty: the frontend's cause; else what the
 * head waits for — its own D-cache miss or execution, or the producer it waits for. */
static profile_cause commit_slot_cause(const sample_view *sv) {
    if (!sv->head_seq) {
        switch (sv->commit.cause.kind) {
        case CAUSE_ICACHE:
        case CAUSE_ITLB: return TC_ICACHE;
        case CAUSE_BPRED: return TC_MISPREDICT;
        case CAUSE_FRONTEND: return TC_FRONTEND;
        case CAUSE_STORE_BUFFER: return TC_STORE_BUFFER;
        default: return TC_OTHER;
        }
    }
    const stall_cause *w = &sv->head_wait;
    switch (sv->head_state) {
    case WST_STORE_BUFFER: return TC_STORE_BUFFER;
    case WST_NO_MSHR:
    case WST_FILL: return TC_DCACHE;
    case WST_NO_UNIT: return TC_BUSY_UNIT;
    case WST_MEM_ORDER: return TC_OTHER;
    case WST_OPERANDS:
    case WST_READY:
    case WST_EXECUTING:
    case WST_DONE:
        if (w->state == UOPST_TRANSLATING) return TC_DTLB;
        if (w->level > 0) return TC_DCACHE;
        if (w->latency > 1) return TC_LONG_LATENCY;
        return TC_DEPENDENCY; /* a short operation between issue and commit */
    default: return TC_OTHER;
    }
}

static void credit(sampler *s, uint64_t pc, uint64_t samples, int cause) {
    pc_slot(s, pc)->count[PROF_CYCLES] += samples;
    if (!s->truth_file) return;
    truth_acc *t = truth_slot(s, pc);
    if (cause >= 0) t->cause[cause]++;
    for (int c = 0; c < TC_COUNT; c++) t->cause[c] += s->pending_cause[c];
}

/* Out of order, time-proportional (TIP, MICRO 2021): each sample draws one of the cycle's W
 * commit slots; a slot used by a committed µop is that µop's, a lost one the oldest µop not
 * committed — or, the ROB being empty (a frontend bubble), the next µop to commit, found by
 * looking again each cycle as the in-order sampler does. Every µop so gets 1/W cycle per
 * execution and stalls only add to it. */
static uint64_t on_commit_slot(sampler *s, const sample_view *sv) {
    bool sample = s->left == 0; /* else a look at the cycle after a bubble */
    int cause = -1;
    uint64_t pc = 0;
    if (sample) {
        s->samples++;
        s->left = next_period(s);
        uint64_t w = sv->commit.width ? sv->commit.width : 1, k = next_random(s) % w;
        if (k < sv->committed && k < PROBE_MAX_COMMIT) {
            pc = sv->commits[k].pc, cause = TC_NONE; /* retiring */
            pc_slot(s, pc)->count[PROF_RETIRING]++;
        } else if (sv->head_seq) {
            pc = sv->head_pc, cause = commit_slot_cause(sv);
        } else {
            s->pending++;
            if (s->truth_file) s->pending_cause[commit_slot_cause(sv)]++;
            s->left--; /* look again next cycle; at 0 that cycle is the next sample */
            return 1;
        }
    } else if (sv->head_seq || sv->committed) {
        pc = sv->head_seq ? sv->head_pc : sv->commits[0].pc;
    } else {
        s->left--;
        return 1;
    }
    credit(s, pc, (uint64_t)(cause >= 0) + s->pending, cause);
    s->pending = 0;
    memset(s->pending_cause, 0, sizeof s->pending_cause);
    uint64_t next = s->left;
    s->left = 0;
    return next;
}

/* Commit cycles: the slot-samples of one sample cycle, per pc, for the spread (cycles_sq). */
static void cycle_share_add(sampler *s, uint64_t pc, uint64_t slots) {
    for (size_t i = 0; i < s->nshare; i++)
        if (s->share[i].pc == pc) {
            s->share[i].slots += slots;
            return;
        }
    s->share[s->nshare++] = (cycle_share){pc, slots};
}

static void cycle_share_flush(sampler *s) {
    for (size_t i = 0; i < s->nshare; i++)
        pc_slot(s, s->share[i].pc)->cycles_sq += s->share[i].slots * s->share[i].slots;
    s->nshare = 0;
}

/* `slots` slot-samples of one sample cycle to pc, with their true cause. */
static void credit_slots(sampler *s, uint64_t pc, uint64_t slots, profile_cause cause) {
    pc_slot(s, pc)->count[PROF_CYCLES] += slots;
    if (s->truth_file) truth_slot(s, pc)->cause[cause] += slots;
    cycle_share_add(s, pc, slots);
}

/* The lost slots of sample cycles in a frontend bubble go to the next µop to commit, each
 * sample cycle's as one group. */
static void resolve_pending_cycles(sampler *s, uint64_t pc) {
    profile_pc *e = pc_slot(s, pc);
    e->count[PROF_CYCLES] += s->pending;
    for (size_t j = 0; j < s->npending_cycles; j++) e->cycles_sq += s->pending_cycle[j] * s->pending_cycle[j];
    if (s->truth_file) {
        truth_acc *t = truth_slot(s, pc);
        for (int c = 0; c < TC_COUNT; c++) t->cause[c] += s->pending_cause[c];
    }
    s->pending = 0;
    s->npending_cycles = 0;
    memset(s->pending_cause, 0, sizeof s->pending_cause);
}

/* Out of order, every commit slot of the sample cycle (commit-cycle): each µop committed in it
 * takes one slot (retiring), the W - k lost slots go together to the oldest µop not committed —
 * or, the ROB being empty, to the next µop to commit, found by looking again each cycle as
 * commit-slot does. W slot-samples a sample cycle: commit-slot's attribution without its draw,
 * which threw W - 1 slots' information away. The slots of one cycle are not independent (a
 * stalled head takes W - k at once, a block's µops commit together): the sampler records their
 * spread per pc (cycles_sq, retiring_width) for the analysis' variances. */
static uint64_t on_commit_cycle(sampler *s, const sample_view *sv) {
    if (s->pending && (sv->head_seq || sv->committed))
        resolve_pending_cycles(s, sv->head_seq ? sv->head_pc : sv->commits[0].pc);
    if (s->left != 0) { /* a look at a cycle after a bubble */
        if (s->pending) {
            s->left--; /* look again next cycle; at 0 that cycle is the next sample */
            return 1;
        }
        uint64_t next = s->left;
        s->left = 0;
        return next;
    }
    s->left = next_period(s);
    uint64_t w = sv->commit.width ? sv->commit.width : 1, k = sv->committed;
    if (k > PROBE_MAX_COMMIT) k = PROBE_MAX_COMMIT;
    if (k > w) k = w;
    s->samples += w;
    for (uint64_t i = 0; i < k; i++) {
        profile_pc *e = pc_slot(s, sv->commits[i].pc);
        e->count[PROF_RETIRING]++;
        e->retiring_width += k; /* the group its class' µops can share at most */
        credit_slots(s, sv->commits[i].pc, 1, TC_NONE);
    }
    uint64_t lost = w - k;
    if (lost && sv->head_seq) {
        credit_slots(s, sv->head_pc, lost, commit_slot_cause(sv));
    } else if (lost) {
        s->pending += lost;
        if (s->npending_cycles < MAX_PENDING_CYCLES) s->pending_cycle[s->npending_cycles++] = lost;
        else s->pending_cycle[MAX_PENDING_CYCLES - 1] += lost;
        if (s->truth_file) s->pending_cause[commit_slot_cause(sv)] += lost;
    }
    cycle_share_flush(s);
    if (s->pending) {
        s->left--;
        return 1;
    }
    uint64_t next = s->left;
    s->left = 0;
    return next;
}

/* In-order: no µop waits to issue (the window is empty, or its oldest µop
 * has issued): a frontend bubble. */
bool profile_frontend_bubble(const sample_view *sv) {
    return !sv->seq ||
        !(sv->state == WST_QUEUED || sv->state == WST_READY || sv->state == WST_OPERANDS || sv->state == WST_NO_UNIT);
}

static uint64_t on_sample(void *ctx, const sample_view *sv) {
    sampler *s = ctx;
    if (s->point == PROFILE_POINT_COMMIT_SLOT) return on_commit_slot(s, sv);
    if (s->point == PROFILE_POINT_COMMIT_CYCLE) return on_commit_cycle(s, sv);
    bool sample = s->left == 0; /* else a look at the cycle after a bubble */
    if (sample) {
        s->samples++;
        s->left = next_period(s);
    }
    if (s->defer && profile_frontend_bubble(sv)) {
        if (sample) {
            s->pending++;
            if (s->truth_file) s->pending_cause[true_cause(sv)]++;
        }
        s->left--; /* look again next cycle; at 0 that cycle is the next sample */
        return 1;
    }
    if (!sv->seq) {
        s->idle += sample + s->pending;
    } else {
        pc_slot(s, sv->pc)->count[PROF_CYCLES] += sample + s->pending;
        if (s->truth_file) {
            truth_acc *t = truth_slot(s, sv->pc);
            if (sample) t->cause[true_cause(sv)]++;
            for (int c = 0; c < TC_COUNT; c++) t->cause[c] += s->pending_cause[c];
        }
    }
    s->pending = 0;
    memset(s->pending_cause, 0, sizeof s->pending_cause);
    uint64_t next = s->left;
    s->left = 0;
    return next;
}

static void on_events(void *ctx, const probe_event *e, size_t n) {
    sampler *s = ctx;
    for (size_t i = 0; i < n; i++) {
        int k = -1;
        if (e[i].kind == PEV_MISS && e[i].unit == UNIT_L1I) k = PROF_IMISS;
        if (e[i].kind == PEV_MISS && e[i].unit == UNIT_L1D) k = PROF_DMISS;
        if (e[i].kind == PEV_MISPREDICT) k = PROF_MISPREDICT;
        if (k < 0) continue;
        if (++s->event_seen[k] % s->event_period == 0) pc_slot(s, e[i].pc)->count[k]++;
    }
}

static void on_retire(void *ctx, const uop_record *r, size_t n) {
    sampler *s = ctx;
    for (size_t i = 0; i < n; i++) {
        const uop *u = &r[i].u;
        if (u->flags & UOP_CONTINUES) continue;
        truth_slot(s, u->pc)->executions++;
        unsigned len = isa_length((uint16_t)u->encoding);
        if (u->next_pc == u->pc + len || !u->next_pc) continue;
        uint64_t key = u64map_hash(u->pc) ^ (u->next_pc * 0x9e3779b97f4a7c15ull);
        /* a collision of folded keys is resolved by probing the list */
        long at = u64map_get(&s->emap, key);
        while (at >= 0 && (s->edges[at].from != u->pc || s->edges[at].to != u->next_pc)) {
            key = key * 31 + 7;
            at = u64map_get(&s->emap, key);
        }
        if (at >= 0) {
            s->edges[at].count++;
            continue;
        }
        if (s->nedges == s->ecap) {
            s->ecap = s->ecap ? s->ecap * 2 : 1024;
            s->edges = cs_realloc(s->edges, s->ecap * sizeof *s->edges);
        }
        s->edges[s->nedges] = (truth_edge){u->pc, u->next_pc, 1};
        u64map_put(&s->emap, key, (uint32_t)s->nedges++);
    }
}

static void on_begin(void *ctx, const probe_run_info *info) {
    sampler *s = ctx;
    free(s->config_name);
    free(s->model);
    free(s->config_text);
    s->config_name = cs_strdup(info->config_name ? info->config_name : "?");
    s->model = cs_strdup(info->model ? info->model : "?");
    s->defer = !strcmp(s->model, "inorder");
    /* in-order machines are sampled at the head of issue */
    s->point = !strcmp(s->model, "ooo") ? s->point_asked : PROFILE_POINT_ISSUE_HEAD;
    s->config_text = info->cfg ? sweep_config_text(info->cfg) : cs_strdup("");
}

static void on_end(void *ctx, const core_stats *st) {
    sampler *s = ctx;
    s->idle += s->pending; /* a bubble the run ended in: no instruction came */
    s->pending = 0;
    s->npending_cycles = 0;
    s->stats = *st;
    s->ended = true;
}

static bool parse_period(const char *v, uint64_t *lo, uint64_t *hi) {
    const char *dash = strchr(v, '-');
    if (dash) {
        char a[32];
        size_t n = (size_t)(dash - v);
        if (n == 0 || n >= sizeof a) return false;
        memcpy(a, v, n);
        a[n] = '\0';
        if (!cs_parse_count(a, lo) || !cs_parse_count(dash + 1, hi)) return false;
    } else {
        uint64_t p;
        if (!cs_parse_count(v, &p)) return false;
        /* ± 1/32 around P: DCPI's 60K–64K is 62K ± 2K; at least ± 1 (from P = 2): a fixed
         * period aliases with loops of a fixed cycle count (SQLite at a fixed 20: classes 25%
         * low with over a thousand samples, docs/profile.md) */
        uint64_t spread = p / 32 ? p / 32 : p >= 2;
        *lo = p - spread;
        *hi = p + spread;
    }
    return *lo >= 1 && *hi >= *lo;
}

static void *sampler_create(const analysis_options *opt, cs_error *err) {
    sampler *s = cs_calloc(1, sizeof *s);
    s->period_min = PROFILE_DEFAULT_PERIOD_MIN;
    s->period_max = PROFILE_DEFAULT_PERIOD_MAX;
    s->seed = 1;
    s->point_asked = PROFILE_POINT_COMMIT_CYCLE;
    bool point_given = false;
    for (int i = 0; i < opt->count; i++) {
        const char *k = opt->key[i], *v = opt->value[i];
        bool good = true;
        if (!strcmp(k, "file")) {
            free(s->file);
            s->file = cs_strdup(v);
        } else if (!strcmp(k, "exe")) {
            free(s->exe);
            s->exe = cs_strdup(v);
        } else if (!strcmp(k, "truth")) {
            free(s->truth_file);
            s->truth_file = cs_strdup(v);
        } else if (!strcmp(k, "period")) {
            good = parse_period(v, &s->period_min, &s->period_max);
        } else if (!strcmp(k, "seed")) {
            good = cs_parse_count(v, &s->seed) || !strcmp(v, "0");
            if (!strcmp(v, "0")) s->seed = 0;
        } else if (!strcmp(k, "point")) {
            /* out of order only: in-order machines are sampled at the head of issue */
            good = false;
            point_given = true;
            for (int pt = PROFILE_POINT_ISSUE_HEAD; pt <= PROFILE_POINT_COMMIT_CYCLE; pt++)
                if (!strcmp(v, profile_sample_point_name((profile_sample_point)pt)))
                    s->point_asked = (uint8_t)pt, good = true;
        } else if (!strcmp(k, "staged")) {
            good = !strcmp(v, "0") || !strcmp(v, "1");
            s->staged = !strcmp(v, "1");
        } else if (!strcmp(k, "events")) {
            good = cs_parse_count(v, &s->event_period) || !strcmp(v, "0");
            if (!strcmp(v, "0")) s->event_period = 0;
        } else {
            cs_error_set(
                err, "unknown option '%s' (profile takes file, period, seed, point, events, exe, truth, staged)", k);
            goto fail;
        }
        if (!good) {
            cs_error_set(err, "profile: bad %s '%s'", k, v);
            goto fail;
        }
    }
    /* a commit point asked of an in-order machine: it has none (it is sampled at the head of issue) */
    if (point_given && opt->cfg && opt->cfg->model == MODEL_INORDER && s->point_asked != PROFILE_POINT_ISSUE_HEAD) {
        cs_error_set(err, "profile: sample point %s is an out-of-order machine's (%s is in-order: issue-head)",
                     profile_sample_point_name((profile_sample_point)s->point_asked),
                     opt->cfg->name[0] ? opt->cfg->name : "the configuration");
        goto fail;
    }
    if (!s->file || !*s->file) {
        cs_error_set(err, "give the profile file: profile:file=PATH");
        goto fail;
    }
    s->rng = s->seed;
    return s;
fail:
    free(s->file);
    free(s->exe);
    free(s->truth_file);
    free(s);
    return NULL;
}

static probe_observer sampler_observer(void *self) {
    sampler *s = self;
    probe_observer o = {.ctx = s, .needs = PROBE_SAMPLES, .begin = on_begin, .end = on_end, .sample = on_sample};
    o.sample_period = next_period(s);
    if (s->event_period) {
        o.needs |= PROBE_EVENTS;
        o.events = on_events;
    }
    if (s->truth_file) {
        o.needs |= PROBE_RETIRE;
        o.retire = on_retire;
    }
    return o;
}

static int cmp_pc(const void *a, const void *b) {
    uint64_t x = ((const profile_pc *)a)->pc, y = ((const profile_pc *)b)->pc;
    return x < y ? -1 : x > y;
}
static int cmp_truth(const void *a, const void *b) {
    uint64_t x = ((const truth_pc *)a)->pc, y = ((const truth_pc *)b)->pc;
    return x < y ? -1 : x > y;
}
static int cmp_range(const void *a, const void *b) {
    const uint64_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}
static int cmp_edge(const void *a, const void *b) {
    const truth_edge *x = a, *y = b;
    if (x->from != y->from) return x->from < y->from ? -1 : 1;
    return x->to < y->to ? -1 : x->to > y->to;
}

/* The executable: exe=PATH, else the first word of the program run. */
static char *exe_of(const sampler *s, const run_context *run) {
    if (s->exe) return cs_strdup(s->exe);
    const char *p = run && run->program ? run->program : "";
    size_t n = strcspn(p, " ");
    char *e = cs_malloc(n + 1);
    memcpy(e, p, n);
    e[n] = '\0';
    return e;
}

/* A pc as the files keep it: the executable's code at its link address, so that a PIE's
 * profile (every program Debian's cross GCC builds by default) is read against the ELF as
 * its disassembly shows it; any other pc (a dynamically linked program's loader and
 * libraries) as it ran. */
static uint64_t link_pc(const elf_image *img, uint64_t pc) {
    uint64_t link;
    return img && elf_code_link_address(img, pc, &link) ? link : pc;
}

static void pcs_to_link_addresses(sampler *s, const char *exe) {
    cs_error ignored;
    elf_image *img = elf_open(exe, &ignored); /* not an ELF the emulator loads: its pcs as they ran */
    if (!img || elf_load_bias(img) == 0) {
        if (img) elf_close(img);
        return;
    }
    for (size_t i = 0; i < s->npcs; i++) s->pcs[i].pc = link_pc(img, s->pcs[i].pc);
    for (size_t i = 0; i < s->ntpcs; i++) s->tpcs[i].pc = link_pc(img, s->tpcs[i].pc);
    for (size_t i = 0; i < s->nedges; i++) {
        s->edges[i].from = link_pc(img, s->edges[i].from);
        s->edges[i].to = link_pc(img, s->edges[i].to);
    }
    elf_close(img);
}

/* The code images the guest mapped besides the executable (the emulator's executable file
 * mappings, one image a file): the loadmap a library's samples are analysed with. The bias from
 * the file's program headers (a mapping's start less the link address of its offset); an image
 * that is no ELF or whose identity cannot be read is left out (its samples stay outside). */
static void collect_images(const run_context *run, profile_data *p) {
    emu_t *emu = run ? emu_source_emu(run->source) : NULL;
    size_t n = emu ? emu_code_map_count(emu) : 0;
    if (!n) return;
    p->images = cs_calloc(n, sizeof *p->images);
    for (size_t i = 0; i < n; i++) {
        const emu_code_map *c = emu_code_map_at(emu, i);
        profile_image *img = NULL;
        for (size_t k = 0; k < p->nimages && !img; k++)
            if (!strcmp(p->images[k].host_path, c->host_path)) img = &p->images[k];
        cs_error ignored;
        uint64_t link;
        if (!img) {
            elf_image *elf = elf_open(c->host_path, &ignored);
            bool known = elf && elf_file_offset_address(elf, c->offset, &link);
            if (elf) elf_close(elf);
            profile_image fresh = {0};
            if (!known || !profile_hash_file(c->host_path, &fresh.hash, &fresh.size, &ignored)) continue;
            fresh.path = cs_strdup(c->guest_path);
            fresh.host_path = cs_strdup(c->host_path);
            fresh.bias = c->start - link;
            img = &p->images[p->nimages++];
            *img = fresh;
        }
        img->ranges = cs_realloc(img->ranges, (img->nranges + 1) * sizeof *img->ranges);
        img->ranges[img->nranges][0] = c->start;
        img->ranges[img->nranges++][1] = c->end;
    }
    for (size_t k = 0; k < p->nimages; k++) /* by address, adjacent ones joined */
        if (p->images[k].nranges > 1) {
            profile_image *img = &p->images[k];
            qsort(img->ranges, img->nranges, sizeof *img->ranges, cmp_range);
            size_t m = 1;
            for (size_t j = 1; j < img->nranges; j++) {
                if (img->ranges[j][0] <= img->ranges[m - 1][1]) {
                    if (img->ranges[j][1] > img->ranges[m - 1][1]) img->ranges[m - 1][1] = img->ranges[j][1];
                } else {
                    memcpy(img->ranges[m++], img->ranges[j], sizeof *img->ranges);
                }
            }
            img->nranges = m;
        }
}

static void free_images(profile_data *p) {
    for (size_t i = 0; i < p->nimages; i++) {
        free(p->images[i].path);
        free(p->images[i].host_path);
        free(p->images[i].ranges);
    }
    free(p->images);
    p->images = NULL;
    p->nimages = 0;
}

static bool sampler_finish(void *self, const run_context *run, cs_error *err) {
    sampler *s = self;
    profile_data p = {0};
    char *exe = exe_of(s, run);
    if (!profile_hash_file(exe, &p.exe_hash, &p.exe_size, err)) {
        cs_error_prefix(err, "profile: the executable");
        free(exe);
        return false;
    }
    pcs_to_link_addresses(s, exe);
    /* recorded absolute, so that the profile reports from any directory */
    char *real = realpath(exe, NULL);
    p.program = real ? real : exe;
    p.config_name = s->config_name ? s->config_name : (char *)"?";
    /* the origin the runner was given (a caller that names none ran cfg->name unchanged) */
    p.config_source = run && run->origin.source ? (char *)run->origin.source : p.config_name;
    p.noverrides = run && run->origin.source && run->origin.override_count > 0 ? (size_t)run->origin.override_count : 0;
    p.overrides = p.noverrides ? (char **)run->origin.overrides : NULL;
    p.model = s->model ? s->model : (char *)"?";
    p.sample_point = s->point;
    if (s->point != PROFILE_POINT_COMMIT_CYCLE) /* one sample a sample cycle: the counts are their own spread */
        for (size_t i = 0; i < s->npcs; i++) {
            s->pcs[i].cycles_sq = s->pcs[i].count[PROF_CYCLES];
            s->pcs[i].retiring_width = s->pcs[i].count[PROF_RETIRING];
        }
    p.config_text = s->config_text ? s->config_text : (char *)"";
    p.period_min = s->period_min;
    p.period_max = s->period_max;
    p.seed = s->seed;
    p.event_period = s->event_period;
    p.cycles = run && run->stats ? run->stats->cycles : s->stats.cycles;
    p.instructions = run && run->stats ? run->stats->instructions : s->stats.instructions;
    p.samples = s->samples;
    p.idle_samples = s->idle;
    if (s->npcs)
        qsort(s->pcs, s->npcs, sizeof *s->pcs, cmp_pc); /* none (NULL) when the run was shorter than a period */
    u64map_free(&s->map);                               /* indices no longer valid */
    p.npcs = s->npcs;
    p.pcs = s->pcs;
    collect_images(run, &p);
    bool ok = profile_write_staged(s->file, &p, &s->file_out, err);
    free_images(&p);
    if (ok && s->truth_file) {
        profile_truth t = {.exe_hash = p.exe_hash, .npcs = s->ntpcs, .nedges = s->nedges, .edges = s->edges};
        t.pcs = cs_calloc(s->ntpcs ? s->ntpcs : 1, sizeof *t.pcs);
        for (size_t i = 0; i < s->ntpcs; i++) {
            t.pcs[i].pc = s->tpcs[i].pc;
            t.pcs[i].executions = s->tpcs[i].executions;
            memcpy(t.pcs[i].cause, s->tpcs[i].cause, sizeof t.pcs[i].cause);
        }
        qsort(t.pcs, t.npcs, sizeof *t.pcs, cmp_truth);
        if (t.nedges) qsort(t.edges, t.nedges, sizeof *t.edges, cmp_edge); /* NULL when none */
        ok = profile_truth_write_staged(s->truth_file, &t, &s->truth_out, err);
        free(t.pcs);
    }
    free(real);
    free(exe);
    if (!ok) { /* neither file of a profile that could not be written whole */
        cs_output_discard(&s->file_out);
        cs_output_discard(&s->truth_out);
        return false;
    }
    return s->staged || profile_sampler_keep(s, err);
}

bool profile_sampler_keep(void *self, cs_error *err) {
    sampler *s = self;
    if (!s->file_out.path) { /* finish did not write it (it failed, or it was kept already) */
        cs_error_set(err, "%s: no profile to keep", s->file);
        return false;
    }
    bool ok = cs_output_commit(&s->file_out, err);
    if (ok && s->truth_out.path) ok = cs_output_commit(&s->truth_out, err);
    cs_output_discard(&s->file_out);
    cs_output_discard(&s->truth_out);
    return ok;
}

static void sampler_text(void *self, FILE *out) {
    sampler *s = self;
    fprintf(out, "profile: %" PRIu64 " CYCLES samples (%" PRIu64 " with an empty window), %zu pcs -> %s\n", s->samples,
            s->idle, s->npcs, s->file);
}

static void sampler_destroy(void *self) {
    sampler *s = self;
    if (!s) return;
    cs_output_discard(&s->file_out); /* not kept: the run was not one to keep */
    cs_output_discard(&s->truth_out);
    u64map_free(&s->map);
    u64map_free(&s->tmap);
    u64map_free(&s->emap);
    free(s->pcs);
    free(s->tpcs);
    free(s->edges);
    free(s->file);
    free(s->exe);
    free(s->truth_file);
    free(s->config_name);
    free(s->model);
    free(s->config_text);
    free(s);
}

const analysis_ops profile_analysis_ops = {
    .name = "profile",
    .help = "DCPI-style CYCLES samples to a profile file (docs/profile.md): file=PATH, period=P|MIN-MAX "
            "(default 60000-64000), seed=N, point=commit-cycle|commit-slot|issue-head (out of order: where a "
            "sample lands, default commit-cycle), events=N (every Nth I-miss, D-miss, mispredict), truth=PATH, "
            "exe=PATH (the executable the profile names; default: the program run), staged=1 "
            "(the files are put in place only when the caller keeps them: a run cyclescope could not do leaves none)",
    .create = sampler_create,
    .observer = sampler_observer,
    .finish = sampler_finish,
    .text = sampler_text,
    .destroy = sampler_destroy,
    .keep = profile_sampler_keep,
};
