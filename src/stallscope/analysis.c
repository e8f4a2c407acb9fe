/* Stallscope as an analysis of the runner ("stallscope", options depth=N,
 * threshold=P, interval=N): the probe observer feeding the engine, and the
 * renderings. The engine accounts commit cycles only up to where every kind of
 * record has been delivered: at each interval callback (the probes flush every
 * batch first) and at the end. */
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "report/report.h"
#include "runner/runner.h"
#include "stallscope.h"

enum { SS_CADENCE = 1024 }; /* instructions between accounting steps (bounds the buffered spans) */

typedef struct ss_analysis {
    ss_options opt;
    stallscope *s;
    uint64_t commit_cov, dispatch_cov;
    bool not_inorder; /* completion=issue asked of a model whose issue is not in order */
    elf_image *elf;   /* for hot-spot function names, when the program is an ELF file */
} ss_analysis;

static void *ss_create_analysis(const analysis_options *opt, cs_error *err) {
    ss_options o;
    ss_options_default(&o);
    for (int i = 0; i < opt->count; i++)
        if (!ss_option_set(&o, opt->key[i], opt->value[i], err)) return NULL;
    /* completion's default: at issue on the in-order model, whose retirement is virtual (the
     * better measuring point there: docs/stallscope.md, "Where completion is measured on the
     * in-order machines"); at commit, the paper's §3.8, out of order */
    if (!o.completion_given && opt->cfg) o.at_issue = opt->cfg->model == MODEL_INORDER;
    /* refused before the run when the model is known (else when it begins: ob_begin) */
    if (o.at_issue && opt->cfg && opt->cfg->model != MODEL_INORDER) {
        cs_error_set(err,
                     "completion=issue needs the in-order model (its issue is in program order); %s is out of order",
                     opt->cfg->name);
        return NULL;
    }
    ss_analysis *a = cs_calloc(1, sizeof *a);
    a->opt = o;
    return a;
}

/* In order, a class's latency is the depth of the pipe that executes it ([latency] is not
 * read: src/uarch/inorder.c, "a pipe's depth is the latency of everything it executes"; the
 * last pipe listing the class takes it, as there). */
static uint32_t inorder_depth(const uarch_config *cfg, int cls) {
    uint32_t depth = 1;
    for (uint32_t p = 0; p < cfg->inorder.pipe_count; p++)
        if (cfg->inorder.pipe[p].classes & (1u << cls)) depth = cfg->inorder.pipe[p].stages;
    return depth ? depth : 1;
}

static void ob_begin(void *ctx, const probe_run_info *info) {
    ss_analysis *a = ctx;
    const uarch_config *cfg = info->cfg;
    ss_machine m = {info->width[STAGE_COMMIT], cfg->latency[OPC_INT_ALU], 0, cfg->model == MODEL_INORDER, false, 0};
    /* ooo: a load's fill wait counts from issue; its L1 hit latency is execution.
     * in-order: the fill state is only the cycles a miss holds the memory pipe; the minimum
     * latencies are the integer and memory pipes' depths (ideal.alu shortens neither class) */
    if (cfg->model == MODEL_OOO) m.load_latency = cfg->latency[OPC_LOAD] + cfg->l1d.latency;
    else m.base_latency = inorder_depth(cfg, OPC_INT_ALU), m.load_min_latency = inorder_depth(cfg, OPC_LOAD);
    /* Both models tick their stages back to front, issue before dispatch (src/uarch/ooo.c
     * issue_stage; src/uarch/inorder.c inorder_run: commit, issue, dispatch, fetch), so a µop's
     * first issue chance is the cycle after it entered the window (in order: the issue
     * buffer): its wait in that cycle is no stall (§3.3) */
    m.dispatch_cycle_free = true;
    a->not_inorder = a->opt.at_issue && cfg->model != MODEL_INORDER;
    ss_destroy(a->s);
    a->s = ss_create(&a->opt, &m);
    a->commit_cov = a->dispatch_cov = 0;
}

static void ob_stages(void *ctx, const stage_span *sp, size_t n) {
    ss_analysis *a = ctx;
    /* completion at issue: the issue spans take the commit spans' place */
    uint8_t completion = a->opt.at_issue ? STAGE_ISSUE : STAGE_COMMIT;
    for (size_t i = 0; i < n; i++) {
        stage_span x = sp[i];
        if (x.stage == completion) a->commit_cov = x.cycle + x.cycles, x.stage = STAGE_COMMIT;
        else if (x.stage == STAGE_DISPATCH) a->dispatch_cov = x.cycle + x.cycles;
        else continue;
        ss_span(a->s, &x);
    }
}

static void ob_retire(void *ctx, const uop_record *r, size_t n) {
    ss_analysis *a = ctx;
    for (size_t i = 0; i < n; i++) ss_record(a->s, &r[i]);
}

static void ob_waits(void *ctx, const wait_transition *w, size_t n) {
    ss_analysis *a = ctx;
    for (size_t i = 0; i < n; i++) ss_wait(a->s, &w[i]);
}

static void ob_interval(void *ctx, const core_stats *so_far) {
    (void)so_far;
    ss_analysis *a = ctx;
    /* every record before this cycle is in: account what both stages cover */
    uint64_t horizon = a->commit_cov < a->dispatch_cov ? a->commit_cov : a->dispatch_cov;
    /* at issue, the last cycle's wait transitions (which µops issued in it) may come with the
     * next batch: that cycle waits for the next step */
    if (a->opt.at_issue && horizon) horizon--;
    ss_advance(a->s, horizon);
}

static void ob_end(void *ctx, const core_stats *stats) {
    ss_analysis *a = ctx;
    ss_finish(a->s, stats);
}

/* No PROBE_EVENTS: the only events the engine reads are mispredicts (their kind), and the
 * branch's retire record carries the kind and the direction; it commits before any cycle
 * whose chain blames it is accounted (ROB empty behind it, or a younger head), so its record
 * is always in by then. Asking for events made the core note every fill, prefetch and
 * structure transition for nothing. */
static probe_observer ss_observer(void *self) {
    const ss_analysis *a = self;
    return (probe_observer){.ctx = self,
                            .needs = PROBE_STAGES | PROBE_RETIRE | PROBE_WAITS | PROBE_INTERVALS,
                            /* the commit spans (§3.8) and the dispatch spans' empty stalls (§3.7
                             * 1, 2b); never the issue stage's, whose causes cost the core */
                            .stage_mask = PROBE_STAGE_BIT(STAGE_DISPATCH) |
                                PROBE_STAGE_BIT(a->opt.at_issue ? STAGE_ISSUE : STAGE_COMMIT),
                            .begin = ob_begin,
                            .stages = ob_stages,
                            .retire = ob_retire,
                            .waits = ob_waits,
                            .interval_insns = SS_CADENCE,
                            .interval = ob_interval,
                            .end = ob_end};
}

static bool ss_finish_analysis(void *self, const run_context *run, cs_error *err) {
    ss_analysis *a = self;
    if (!a->s) {
        cs_error_set(err, "stallscope: the run delivered nothing");
        return false;
    }
    if (a->not_inorder) {
        cs_error_set(err, "stallscope: completion=issue needs the in-order model (its issue is in program order)");
        return false;
    }
    const ss_summary *sum = ss_summary_of(a->s);
    if (sum->accumulated != sum->lost) {
        cs_error_set(err, "stallscope: accounted %llu lost completion opportunities of %llu",
                     (unsigned long long)sum->accumulated, (unsigned long long)sum->lost);
        return false;
    }
    /* the program, when it is an ELF file, names the hot spots' functions */
    if (run->program) {
        char path[512];
        snprintf(path, sizeof path, "%s", run->program);
        char *sp = strchr(path, ' ');
        if (sp) *sp = 0;
        cs_error e2;
        a->elf = elf_open(path, &e2);
    }
    return true;
}

static const char *symbolize(void *ctx, uint64_t pc) {
    ss_analysis *a = ctx;
    /* only pcs in the program's own code (a PIE's at the base the emulator loaded it at): a
     * dynamically linked program's loader and libraries lie elsewhere, past its last
     * symbol, which would name them wrongly */
    uint64_t link;
    if (!a->elf || !elf_code_link_address(a->elf, pc, &link)) return NULL;
    const elf_symbol *sym = elf_symbol_for(a->elf, link);
    return sym ? sym->name : NULL;
}

static void ss_text_a(void *self, FILE *out) {
    ss_analysis *a = self;
    if (a->s) ss_text(a->s, out);
}
static cJSON *ss_json_a(void *self) {
    ss_analysis *a = self;
    return a->s ? ss_json(a->s, symbolize, a) : cJSON_CreateNull();
}
static void ss_html_a(void *self, struct html_report *h) {
    ss_analysis *a = self;
    if (a->s) ss_html(a->s, h, symbolize, a);
}
static void ss_destroy_a(void *self) {
    ss_analysis *a = self;
    ss_destroy(a->s);
    if (a->elf) elf_close(a->elf);
    free(a);
}

stallscope *ss_analysis_engine(void *self) { return ((ss_analysis *)self)->s; }

const analysis_ops stallscope_analysis = {
    .name = "stallscope",
    .help = "causal stall-event chains from every lost completion to its root cause; options depth=N, "
            "threshold=P, interval=N, tooclose=paper|window, completion=commit|issue (issue: the in-order default; "
            "docs/stallscope.md)",
    .create = ss_create_analysis,
    .observer = ss_observer,
    .finish = ss_finish_analysis,
    .text = ss_text_a,
    .json = ss_json_a,
    .html = ss_html_a,
    .destroy = ss_destroy_a,
};
