/* The HTML report: the run summary (cards, statistics, configuration). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html_internal.h"

/* ---- the run ---- */

static double per_kilo(uint64_t n, uint64_t instructions) { return safe_div(1000.0 * (double)n, (double)instructions); }

static void card(strbuf *b, const char *key, const char *value) {
    sb_put(b, "<div class=\"card\"><div class=\"k\">");
    sb_escape(b, key);
    sb_put(b, "</div><div class=\"v\">");
    sb_escape(b, value);
    sb_put(b, "</div></div>\n");
}

static void run_cards(strbuf *b, const core_stats *s) {
    char v[48];
    sb_put(b, "<div class=\"cards\">\n");
    card(b, "IPC", fmt_num(v, sizeof v, safe_div((double)s->instructions, (double)s->cycles), 3));
    card(b, "CPI", fmt_num(v, sizeof v, safe_div((double)s->cycles, (double)s->instructions), 3));
    card(b, "cycles", fmt_count(v, sizeof v, s->cycles));
    card(b, "instructions", fmt_count(v, sizeof v, s->instructions));
    card(b, "branch MPKI", fmt_num(v, sizeof v, per_kilo(s->mispredicts, s->instructions), 2));
    card(b, "L1D MPKI", fmt_num(v, sizeof v, per_kilo(s->l1d.misses, s->instructions), 2));
    sb_put(b, "</div>\n");
}

/* Opens a key/value row; the caller writes the value and closes it with kv_end. */
static void kv_begin(strbuf *b, const char *key) {
    sb_put(b, "<tr><th>");
    sb_escape(b, key);
    sb_put(b, "</th><td>");
}

static void kv_end(strbuf *b) { sb_put(b, "</td></tr>\n"); }

static void kv_text(strbuf *b, const char *key, const char *value) {
    kv_begin(b, key);
    sb_escape(b, value);
    kv_end(b);
}

static void kv_cache_stats(strbuf *b, const char *name, const cache_stats *c, uint64_t instructions) {
    kv_begin(b, name);
    put_count(b, c->accesses);
    sb_put(b, " accesses, ");
    put_count(b, c->misses);
    sb_printf(b, " misses (%.2f%% miss rate, ", 100 * safe_div((double)c->misses, (double)c->accesses));
    put_num(b, per_kilo(c->misses, instructions), 2);
    sb_put(b, " MPKI)");
    kv_end(b);
}

static void run_stats_table(strbuf *b, const run_summary *r) {
    const core_stats *s = r->stats;
    const uarch_config *c = r->cfg;
    sb_put(b, "<table class=\"kv\"><caption>Measured</caption>\n");
    kv_begin(b, "cycles");
    put_count(b, s->cycles);
    kv_end(b);
    kv_begin(b, "instructions");
    put_count(b, s->instructions);
    if (s->uops != s->instructions) {
        sb_put(b, " (");
        put_count(b, s->uops);
        sb_put(b, " µops)");
    }
    kv_end(b);
    if (r->warmup) {
        kv_begin(b, "warm-up");
        put_count(b, r->warmup);
        sb_put(b, " µops");
        kv_end(b);
    }
    kv_begin(b, "branches");
    put_count(b, s->branches);
    sb_put(b, ", ");
    put_count(b, s->mispredicts);
    if (uarch_no_branch_prediction(c))
        sb_put(b, " stopping fetch (no predictor: fetch stops at every branch until it resolves)");
    else
        sb_printf(b, " mispredicted (%.2f%% accuracy; conditional %.2f%%)",
                  s->branches ? 100.0 * (1 - safe_div((double)s->mispredicts, (double)s->branches)) : 100.0,
                  s->cond_branches ? 100.0 * (1 - safe_div((double)s->cond_mispredicts, (double)s->cond_branches))
                                   : 100.0);
    kv_end(b);
    if (c->model == MODEL_OOO) {
        kv_cache_stats(b, "L1I", &s->l1i, s->instructions);
        kv_cache_stats(b, "L1D", &s->l1d, s->instructions);
        if (c->l2.enabled) kv_cache_stats(b, "L2", &s->l2, s->instructions);
        if (c->l3.enabled) kv_cache_stats(b, "L3", &s->l3, s->instructions);
        kv_begin(b, "average occupancy");
        sb_printf(b, "ROB %.1f / %u, IQ %.1f / %u", safe_div((double)s->rob_occupancy, (double)s->cycles), c->rob_size,
                  safe_div((double)s->iq_occupancy, (double)s->cycles), c->iq_size);
        kv_end(b);
    }
    if (c->itlb_entries) kv_cache_stats(b, "ITLB", &s->itlb, s->instructions); /* both models */
    if (c->dtlb_entries) kv_cache_stats(b, "DTLB", &s->dtlb, s->instructions);
    if (c->l2tlb_entries) kv_cache_stats(b, "L2 TLB", &s->l2tlb, s->instructions);
    kv_begin(b, "loads / stores / FP operations");
    put_count(b, s->loads);
    sb_put(b, " / ");
    put_count(b, s->stores);
    sb_put(b, " / ");
    put_count(b, s->flops);
    kv_end(b);
    if (s->seconds > 0) {
        kv_begin(b, "simulation speed");
        sb_printf(b, "%.2f M instructions/s (%.2f s)", s->instructions / s->seconds / 1e6, s->seconds);
        kv_end(b);
    }
    sb_put(b, "</table>\n");
}

/* A configuration row; marked when one of its keys was overridden (--set). */
static void kv_begin_cfg(strbuf *b, const char *key, const report_provenance *p, const char *const *keys) {
    bool over = false;
    for (; *keys && !over; keys++) over = report_overridden(p, *keys);
    sb_put(b, over ? "<tr class=\"ovr\" title=\"overridden with --set\"><th>" : "<tr><th>");
    sb_escape(b, key);
    sb_put(b, over ? " <mark>set</mark></th><td>" : "</th><td>");
}
#define KEYS(...) ((const char *const[]){__VA_ARGS__, NULL})

static void kv_cache_config(strbuf *b, const char *name, const char *section, const cache_config *c,
                            const report_provenance *p) {
    if (!c->enabled) return;
    kv_begin_cfg(b, name, p, KEYS(section));
    if (c->size % 1024 == 0) sb_printf(b, "%u KiB", c->size / 1024);
    else sb_printf(b, "%u B", c->size);
    if (c->assoc) sb_printf(b, ", %u-way", c->assoc);
    else sb_put(b, ", fully associative");
    sb_printf(b, ", %u B lines, %u cycles", c->line, c->latency);
    if (c->mshrs) sb_printf(b, ", %u MSHRs", c->mshrs);
    kv_end(b);
}

static void run_config_table(strbuf *b, const uarch_config *c, const report_provenance *p) {
    sb_put(b, "<table class=\"kv\"><caption>Configuration</caption>\n");
    kv_text(b, "name", c->name);
    kv_begin_cfg(b, "model", p, KEYS("core.model"));
    sb_escape(b, c->model == MODEL_OOO ? "out-of-order" : "in-order");
    kv_end(b);
    if (c->freq_ghz > 0) {
        kv_begin_cfg(b, "frequency", p, KEYS("core.freq_ghz"));
        sb_printf(b, "%.2f GHz", c->freq_ghz);
        kv_end(b);
    }
    uint32_t w[4];
    uarch_config_widths(c, w);
    kv_begin_cfg(b, "width (fetch / dispatch / issue / commit)", p,
                 KEYS("core.fetch_width", "core.dispatch_width", "core.issue_width", "core.commit_width",
                      "inorder.fetch_buffer", "inorder.issue_buffer", "pipe."));
    sb_printf(b, "%u / %u / %u / %u", w[0], w[1], w[2], w[3]);
    kv_end(b);
    if (c->model == MODEL_INORDER) {
        kv_begin_cfg(b, "pipes", p, KEYS("pipe."));
        for (uint32_t i = 0; i < c->inorder.pipe_count; i++)
            sb_printf(b, "%s%s (%u stage%s)", i ? ", " : "", c->inorder.pipe[i].name, c->inorder.pipe[i].stages,
                      c->inorder.pipe[i].stages == 1 ? "" : "s");
        kv_end(b);
    }
    if (c->model == MODEL_OOO) {
        kv_begin_cfg(b, "ROB / IQ / load-store queue", p,
                     KEYS("core.rob_size", "core.iq_size", "core.lq_size", "core.sq_size", "core.lsq_size"));
        if (c->lsq_size) sb_printf(b, "%u / %u / %u shared", c->rob_size, c->iq_size, c->lsq_size);
        else sb_printf(b, "%u / %u / %u loads + %u stores", c->rob_size, c->iq_size, c->lq_size, c->sq_size);
        kv_end(b);
    }
    kv_begin_cfg(b, "branch predictor", p, KEYS("bpred.", "core.redirect_penalty", "inorder.resolve_delay"));
    sb_escape(b, bpred_kind_name(c->bpred));
    if (c->bpred != BPRED_NONE && c->bpred != BPRED_STATIC && c->bpred != BPRED_PERFECT)
        sb_printf(b, ", 2^%u counters, %u history bits", c->bpred_table_bits, c->bpred_history);
    if (c->model == MODEL_OOO) sb_printf(b, "; redirect %u cycles", c->redirect_penalty);
    else sb_printf(b, "; resolved at issue, fetch resumes %u cycles later", c->inorder.resolve_delay);
    kv_end(b);
    kv_cache_config(b, "L1I", "l1i.", &c->l1i, p);
    kv_cache_config(b, "L1D", "l1d.", &c->l1d, p);
    kv_cache_config(b, "L2", "l2.", &c->l2, p);
    kv_cache_config(b, "L3", "l3.", &c->l3, p);
    kv_begin_cfg(b, "memory", p, KEYS("memory."));
    sb_printf(b, "%u cycles", c->mem_latency);
    if (c->mem_bandwidth) sb_printf(b, ", %u B/cycle", c->mem_bandwidth);
    kv_end(b);
    const struct {
        bool on;
        const char *what;
    } ideal[] = {{c->perfect_icache, "perfect I-cache"},
                 {c->perfect_dcache, "perfect D-cache"},
                 {c->perfect_bpred, "perfect branch prediction"},
                 {c->ideal_alu, "1-cycle ALU"}};
    bool any = false;
    for (size_t i = 0; i < sizeof ideal / sizeof ideal[0]; i++) {
        if (!ideal[i].on) continue;
        if (!any) kv_begin_cfg(b, "idealised", p, KEYS("ideal."));
        sb_printf(b, "%s%s", any ? ", " : "", ideal[i].what);
        any = true;
    }
    if (any) kv_end(b);
    if (p && p->override_count) {
        kv_begin(b, "overridden (--set)");
        for (int i = 0; i < p->override_count; i++) {
            sb_put(b, i ? ", <mark>" : "<mark>");
            sb_escape(b, p->overrides[i]);
            sb_put(b, "</mark>");
        }
        kv_end(b);
    }
    sb_put(b, "</table>\n");
}

void html_report_provenance(html_report *h, const report_provenance *p) {
    if (h) h->prov = p;
}

/* The run's status and where it came from, under the cards. */
static void run_provenance(strbuf *b, const report_provenance *p) {
    if (p->partial)
        sb_printf(b,
                  "<p class=\"warn\"><b>Partial results</b>: the run was stopped (%s); every number covers only "
                  "what ran until then.</p>\n",
                  p->stopped_by ? p->stopped_by : "?");
    if (p->has_guest && !strcmp(p->guest_state, "exited") && p->guest_exit_code != 0)
        sb_printf(b, "<p class=\"warn\"><b>The program failed</b>: it exited with status %d.</p>\n",
                  p->guest_exit_code);
    if (p->has_guest && !strcmp(p->guest_state, "fault")) {
        sb_put(b, "<p class=\"warn\"><b>The program faulted</b>: ");
        sb_escape(b, p->guest_error ? p->guest_error : "?");
        sb_put(b, "</p>\n");
    }
    sb_put(b, "<p class=\"note\">");
    sb_escape(b, p->input_kind ? p->input_kind : "input");
    sb_put(b, " <code>");
    sb_escape(b, p->input_path ? p->input_path : "?");
    sb_put(b, "</code>");
    if (p->input_sha256[0]) {
        sb_printf(b, " (%" PRIu64 " bytes, SHA-256 <code>", p->input_bytes);
        sb_escape(b, p->input_sha256);
        sb_put(b, "</code>)");
    }
    sb_put(b, "; command <code>");
    for (int i = 0; i < p->argc; i++) {
        if (i) sb_put(b, " ");
        sb_escape(b, p->argv[i]);
    }
    sb_printf(b, "</code>; cyclescope %s (commit <code>", CYCLESCOPE_VERSION);
    sb_escape(b, cs_build_commit);
    sb_put(b, "</code>)</p>\n");
}

void html_report_run(html_report *h, const run_summary *r) {
    if (!h || !r || !r->cfg || !r->stats) return;
    strbuf *b = &h->body;
    section_open(b, "run", "Run");
    sb_put(b, "<p class=\"lead\"><code>");
    sb_escape(b, r->program ? r->program : "?");
    sb_put(b, "</code> on <b>");
    sb_escape(b, r->cfg->name);
    sb_printf(b, "</b> (%s model)</p>\n", r->cfg->model == MODEL_OOO ? "out-of-order" : "in-order");
    run_cards(b, r->stats);
    if (h->prov) run_provenance(b, h->prov);
    sb_put(b, "<div class=\"two-col\">\n");
    run_stats_table(b, r);
    run_config_table(b, r->cfg, h->prov);
    sb_put(b, "</div>\n");
    section_close(b);
}
