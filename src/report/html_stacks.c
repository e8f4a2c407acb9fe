/* The HTML report: the CPI stacks (the paper's Figure 1), the IPC and FLOPS
 * stacks (Figure 5) and the validation against idealised machines.
 *
 * Colours: one fixed colour per component, the same in every chart, from Paul
 * Tol's colour-blind-safe palettes, with related components in one hue family
 * (I-cache levels blue, D-cache levels orange to red). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html_internal.h"

static const char *const comp_color[COMP_COUNT] = {
    [COMP_BASE] = "#117733",         [COMP_ICACHE_L2] = "#99DDFF",  [COMP_ICACHE_L3] = "#77AADD",
    [COMP_ICACHE_MEM] = "#4477AA",   [COMP_ITLB] = "#332288",       [COMP_BPRED] = "#AA4499",
    [COMP_DCACHE_L2] = "#EE8866",    [COMP_DCACHE_L3] = "#EE6677",  [COMP_DCACHE_MEM] = "#CC3311",
    [COMP_LONGLAT_INT] = "#DDCC77",  [COMP_LONGLAT_FP] = "#999933", [COMP_DEPEND] = "#44AA99",
    [COMP_NO_UNIT] = "#882255",      [COMP_MEM_ORDER] = "#FFAABB",  [COMP_FRONTEND] = "#BBCC33",
    [COMP_STORE_BUFFER] = "#882200", [COMP_DTLB] = "#661100",       [COMP_OTHER] = "#BBBBBB",
};

/* Components a FLOPS stack shares with CPI stacks keep their CPI colour. */
static const char *const flops_color[FLOPS_COUNT] = {
    [FLOPS_BASE] = "#117733",   [FLOPS_NON_FMA] = "#EEDD88", [FLOPS_MASK] = "#DDDDDD",   [FLOPS_FRONTEND] = "#BBCC33",
    [FLOPS_NON_FP] = "#EE3377", [FLOPS_MEMORY] = "#EE6677",  [FLOPS_DEPEND] = "#44AA99", [FLOPS_OTHER] = "#BBBBBB",
};

/* ---- CPI stacks (Figure 1) ---- */

/* A chart of CPI-stack components: names, docs and colours; no bars yet. */
static void component_chart(stacked_chart *c, const char *unit) {
    memset(c, 0, sizeof *c);
    c->unit = unit;
    c->decimals = 3;
    c->nseries = COMP_COUNT;
    for (int i = 0; i < COMP_COUNT; i++)
        c->series[i] = (chart_series){stack_component_name((stack_component)i), stack_component_doc((stack_component)i),
                                      color_or_grey(comp_color[i])};
}

static void cpi_chart(stacked_chart *c, const stacks_result *s) {
    component_chart(c, "CPI");
    c->nbars = STACK_STAGES;
    for (int k = 0; k < STACK_STAGES; k++) {
        c->bar_label[k] = stack_stage_name((stack_stage)k);
        for (int i = 0; i < COMP_COUNT; i++) c->value[k][i] = safe_div(s->stage[k].cycles[i], (double)s->instructions);
    }
}

static void cpi_figure(strbuf *b, const stacked_chart *c) {
    int used = 0;
    for (int i = 0; i < c->nseries; i++) used += chart_series_used(c, i);
    double plot_h = 360, h = plot_h + 70;
    if (used * 22 + 30 > h) h = used * 22 + 30;
    sb_put(b, "<figure>\n");
    svg_begin(b, FIG_W, h, "CPI stacks at dispatch, issue and commit, stacked bars");
    svg_stacked_bars(b, c, 0, 24, 540, plot_h);
    svg_legend(b, c, 580, 24, 1);
    svg_end(b);
    sb_put(b,
           "<figcaption>CPI stacks at dispatch, issue and commit (after Eyerman et al., Figure 1). "
           "Hover over a segment for its value.</figcaption>\n</figure>\n");
}

/* The smallest and largest of one component over the three stacks. */
static void stage_range(const stacked_chart *c, int i, double *lo, double *hi) {
    *lo = *hi = c->value[0][i];
    for (int k = 1; k < c->nbars; k++) {
        if (c->value[k][i] < *lo) *lo = c->value[k][i];
        if (c->value[k][i] > *hi) *hi = c->value[k][i];
    }
}

static void cpi_table(strbuf *b, const stacked_chart *c, double cpi) {
    static const char *const head[] = {"component", "what it counts",    "#dispatch", "#%", "#issue", "#%", "#commit",
                                       "#%",        "#range (min – max)"};
    sb_put(b, "<table class=\"data\">\n");
    th_row(b, head, 9);
    sb_put(b, "<tbody>\n");
    for (int i = 0; i < c->nseries; i++) {
        if (!chart_series_used(c, i)) continue;
        sb_put(b, "<tr>");
        swatch_cell(b, c->series[i].color, c->series[i].name, c->series[i].doc);
        for (int k = 0; k < c->nbars; k++) {
            td_num(b, c->value[k][i], 3);
            td_pct(b, c->value[k][i], cpi);
        }
        double lo, hi;
        stage_range(c, i, &lo, &hi);
        bool wide = i != COMP_BASE && hi - lo > REPORT_UNCERTAIN_SHARE * cpi;
        sb_put(b, "<td class=\"num\">");
        put_num(b, lo, 3);
        sb_put(b, " – ");
        put_num(b, hi, 3);
        if (wide)
            sb_printf(b,
                      " <span class=\"uncertain\" title=\"the stacks differ by more than %.0f%% of the cycles on "
                      "this component: cyclescope stacks --validate measures what idealising it gains\">uncertain"
                      "</span>",
                      100 * REPORT_UNCERTAIN_SHARE);
        sb_put(b, "</td></tr>\n");
    }
    sb_put(b, "</tbody>\n<tfoot><tr><th>total</th><td></td>");
    for (int k = 0; k < c->nbars; k++) {
        double t = 0;
        for (int i = 0; i < c->nseries; i++) t += c->value[k][i];
        td_num(b, t, 3);
        td_pct(b, t, cpi);
    }
    sb_put(b, "<td></td></tr></tfoot>\n</table>\n");
    sb_printf(b,
              "<p class=\"note\">Range: each stack sees a stall from its own stage; what removing a component "
              "gains usually lies between its smallest and largest value (§I). <span class=\"uncertain\">uncertain"
              "</span>: the three stacks differ by more than %.0f%% of the cycles on that component; "
              "<code>cyclescope stacks --validate</code> measures the gain of idealising it.</p>\n",
              100 * REPORT_UNCERTAIN_SHARE);
}

/* ---- IPC and FLOPS stacks (Figure 5, Eq. 1) ---- */

/* The issue-stage stack as IPC: component / cycles x max IPC (§V-B). */
static void ipc_chart(stacked_chart *c, const stacks_result *s) {
    component_chart(c, "IPC");
    c->nbars = 1;
    c->bar_label[0] = "IPC stack (issue)";
    for (int i = 0; i < COMP_COUNT; i++)
        c->value[0][i] = safe_div(s->stage[STACK_ISSUE].cycles[i], (double)s->cycles) * s->width;
}

/* Eq. 1: component / cycles x freq x M, in GFLOPS (FLOP per cycle without a frequency). */
static void flops_chart(stacked_chart *c, const stacks_result *s) {
    const flops_stack *f = &s->fp;
    double scale = f->peak_per_cycle * (f->freq_ghz > 0 ? f->freq_ghz : 1);
    memset(c, 0, sizeof *c);
    c->unit = f->freq_ghz > 0 ? "GFLOPS" : "FLOP/cycle";
    c->decimals = scale >= 10 ? 2 : 3;
    c->nseries = FLOPS_COUNT;
    c->nbars = 1;
    c->bar_label[0] = "FLOPS stack";
    for (int i = 0; i < FLOPS_COUNT; i++) {
        c->series[i] = (chart_series){report_flops_label((flops_component)i), flops_component_doc((flops_component)i),
                                      color_or_grey(flops_color[i])};
        c->value[0][i] = safe_div(f->cycles[i], (double)s->cycles) * scale;
    }
}

/* One chart of the pair: title, the bar, and its legend. */
static void small_panel(strbuf *b, const stacked_chart *c, double x, const char *title, const char *note) {
    svg_text(b, x, 18, "start", "panel-title", title);
    svg_text(b, x, 36, "start", "panel-note", note);
    svg_stacked_bars(b, c, x, 64, 250, 320);
    svg_legend(b, c, x + 280, 64, 0);
}

/* The IPC stack, and the FLOPS stack beside it when there is one (`fl` may be NULL). */
static void ipc_flops_figure(strbuf *b, const stacks_result *s, const stacked_chart *fl) {
    stacked_chart ipc;
    ipc_chart(&ipc, s);
    char note[160], a[32], m[32];
    snprintf(note, sizeof note, "top: max IPC %u (W); base: achieved IPC %s", s->width,
             fmt_num(a, sizeof a, ipc.value[0][COMP_BASE], 3));
    sb_put(b, "<figure>\n");
    svg_begin(b, FIG_W, 420, fl ? "IPC stack and FLOPS stack, stacked bars" : "IPC stack, stacked bar");
    small_panel(b, &ipc, 0, "IPC stack (issue stage)", note);
    if (fl) {
        double peak = 0;
        for (int i = 0; i < FLOPS_COUNT; i++) peak += fl->value[0][i];
        snprintf(note, sizeof note, "top: peak %s %s; base: achieved %s", fmt_num(m, sizeof m, peak, fl->decimals),
                 fl->unit, fmt_num(a, sizeof a, fl->value[0][FLOPS_BASE], fl->decimals));
        small_panel(b, fl, FIG_W / 2 + 20, "FLOPS stack", note);
    }
    svg_end(b);
    if (fl)
        sb_put(b,
               "<figcaption>IPC stack and FLOPS stack in the same kind of unit, work per time "
               "(after Eyerman et al., Figure 5 and Eq. 1).</figcaption>\n");
    else
        sb_put(b,
               "<figcaption>The issue-stage stack as IPC: top the maximum IPC, base the IPC achieved "
               "(after Eyerman et al., Figure 5).</figcaption>\n");
    sb_put(b, "</figure>\n");
}

static void flops_table(strbuf *b, const stacks_result *s, const stacked_chart *c) {
    char unit_col[32];
    snprintf(unit_col, sizeof unit_col, "#%s", c->unit);
    const char *const head[] = {"FLOPS component", "what it counts", "#% of peak", unit_col};
    sb_put(b, "<table class=\"data\">\n");
    th_row(b, head, 4);
    sb_put(b, "<tbody>\n");
    for (int i = 0; i < FLOPS_COUNT; i++) {
        if (!chart_series_used(c, i)) continue;
        sb_put(b, "<tr>");
        swatch_cell(b, c->series[i].color, c->series[i].name, c->series[i].doc);
        td_pct(b, s->fp.cycles[i], (double)s->cycles);
        td_num(b, c->value[0][i], c->decimals);
        sb_put(b, "</tr>\n");
    }
    sb_put(b, "</tbody>\n</table>\n");
}

static void stacks_intro(strbuf *b, const stacks_result *s) {
    sb_put(b, "<p>");
    put_count(b, s->instructions);
    sb_put(b, " instructions in ");
    put_count(b, s->cycles);
    sb_put(b, " cycles: CPI <b>");
    put_num(b, safe_div((double)s->cycles, (double)s->instructions), 3);
    sb_printf(b,
              "</b>. Each stack accounts every cycle at one pipeline stage (Table II of the paper) and sums to the "
              "CPI; the narrowest stage, W = %u, sets the base at ",
              s->width);
    put_num(b, safe_div(1, s->width), 3);
    sb_put(b,
           " CPI for the work done. Where the stacks disagree, what removing a component gains usually "
           "lies between its smallest and largest value (§I).</p>\n");
}

void html_report_stacks(html_report *h, const stacks_result *s) {
    if (!h || !s) return;
    strbuf *b = &h->body;
    section_open(b, "stacks", "CPI stacks");
    if (!s->instructions || !s->cycles) {
        para(b, "note", "No instructions were timed: there are no stacks to show.");
        section_close(b);
        return;
    }
    stacks_intro(b, s);
    stacked_chart c;
    cpi_chart(&c, s);
    cpi_figure(b, &c);
    cpi_table(b, &c, safe_div((double)s->cycles, (double)s->instructions));
    section_close(b);

    bool with_flops = s->fp.peak_per_cycle > 0 && s->flops > 0;
    section_open(b, "ipc-flops", with_flops ? "IPC and FLOPS stacks" : "IPC stack");
    if (with_flops) {
        sb_printf(b, "<p>The FLOPS stack accounts the %u FP unit%s at issue (Table III): peak ", s->fp.units,
                  s->fp.units == 1 ? "" : "s");
        put_num(b, s->fp.peak_per_cycle, 0);
        sb_put(b, " FLOP per cycle (2 k v: fused multiply-adds on every unit, every cycle)");
        if (s->fp.freq_ghz > 0) sb_printf(b, " at %.2f GHz", s->fp.freq_ghz);
        sb_put(b, ". The run did ");
        put_count(b, s->flops);
        sb_put(b, " FP operations");
        if (s->flops_outside) {
            sb_put(b, ", ");
            put_count(b, s->flops_outside);
            sb_put(b, " of them on the separate divider (outside the units' slots, so not in the stack's base)");
        }
        sb_put(b, ".</p>\n");
    } else if (s->fp.peak_per_cycle > 0) {
        para(b, "note",
             "No FP work: the run did no floating-point operations, so there is no FLOPS stack to break down.");
    } else {
        para(b, "note", "No FP units in this configuration: no FLOPS stack.");
    }
    stacked_chart fl;
    if (with_flops) flops_chart(&fl, s);
    ipc_flops_figure(b, s, with_flops ? &fl : NULL);
    if (with_flops) flops_table(b, s, &fl);
    section_close(b);
}

/* ---- validation (§IV, §V-A) ---- */

static bool is_pair(ideal_kind k) { return k == IDEAL_DCACHE_ALU || k == IDEAL_BPRED_DCACHE; }

static const char *interaction_text(int interaction) {
    return interaction > 0 ? "hidden stalls" : interaction < 0 ? "overlap" : "additive";
}

static const char *within_text(const validation_case *c) {
    if (c->within) return "within";
    return c->reduction < c->lo ? "below" : "above";
}

static void validation_intro(strbuf *b, const validation_result *v) {
    int relevant = 0, within = 0;
    double err = 0;
    for (int i = 0; i < IDEAL_COUNT; i++) {
        if (!v->cases[i].relevant) continue;
        relevant++;
        within += v->cases[i].within;
        err += v->cases[i].error;
    }
    sb_put(b, "<p class=\"lead\"><code>");
    sb_escape(b, v->program);
    sb_put(b, "</code> on <b>");
    sb_escape(b, v->config);
    sb_put(b, "</b>: baseline CPI <b>");
    put_num(b, v->base_cpi, 3);
    sb_put(b,
           "</b>.</p>\n<p>Each case times the program again on an idealised machine. The actual CPI reduction "
           "should fall between the smallest and largest of the components the three stacks attribute to what was "
           "idealised (§V-A). ");
    if (relevant) {
        sb_printf(b, "<b>%d of %d</b> relevant case%s within the range; mean §V-A error ", within, relevant,
                  relevant == 1 ? " falls" : "s fall");
        put_num(b, err / relevant, 3);
        sb_put(b, " CPI. ");
    }
    sb_put(b,
           "Cases whose component is below 10% of the CPI in every stack are shown dimmed (the paper leaves them "
           "out). The error is 0 within the range, else the distance to the closest stack. For the pairs, the "
           "combined reduction is compared with the sum of the two single ones: more shows stalls one idealisation "
           "hid behind the other, less shows penalties that overlapped (Table I).</p>\n");
}

/* The three stage values as thin ticks, lettered where there is room. */
static void stage_ticks(strbuf *b, const svg_scale *sc, const validation_case *c, double cy) {
    static const char letter[STACK_STAGES][2] = {"D", "I", "C"};
    double placed[STACK_STAGES];
    int nplaced = 0;
    char tip[128], num[32];
    for (int k = 0; k < STACK_STAGES; k++) {
        double x = scale_px(sc, c->predicted[k]);
        snprintf(tip, sizeof tip, "%s stack: %s CPI", stack_stage_name((stack_stage)k),
                 fmt_num(num, sizeof num, c->predicted[k], 3));
        svg_rect(b, x - 1, cy - 11, 2, 22, NULL, "stage-tick", tip);
        bool room = true;
        for (int j = 0; j < nplaced; j++)
            if (fabs(placed[j] - x) < 11) room = false;
        if (room) {
            svg_text(b, x, cy - 14, "middle", "stage-letter", letter[k]);
            placed[nplaced++] = x;
        }
    }
}

static void validation_row(strbuf *b, const svg_scale *sc, const validation_case *c, double y) {
    char tip[256], a[32], lo[32], hi[32], line[160];
    double cy = y + 24;
    fmt_num(a, sizeof a, c->reduction, 3);
    fmt_num(lo, sizeof lo, c->lo, 3);
    fmt_num(hi, sizeof hi, c->hi, 3);
    sb_printf(b, "<g class=\"case%s\">\n", c->relevant ? "" : " dim");
    svg_text(b, 0, cy - 3, "start", "case-name", ideal_kind_name(c->kind));
    snprintf(line, sizeof line, "actual %s; stacks %s – %s%s", a, lo, hi, c->relevant ? "" : "; below 10%");
    svg_text(b, 0, cy + 13, "start", "case-note", line);

    double x_lo = scale_px(sc, c->lo), x_hi = scale_px(sc, c->hi);
    snprintf(tip, sizeof tip, "%s: the three stacks give %s to %s CPI", ideal_kind_name(c->kind), lo, hi);
    svg_rect(b, x_lo, cy - 6, x_hi - x_lo > 1 ? x_hi - x_lo : 1, 12, NULL, "range", tip);
    svg_line(b, x_lo, cy - 9, x_lo, cy + 9, "cap");
    svg_line(b, x_hi, cy - 9, x_hi, cy + 9, "cap");
    stage_ticks(b, sc, c, cy);
    if (is_pair(c->kind)) {
        char sum[32];
        snprintf(tip, sizeof tip, "sum of the two single reductions: %s CPI (%s)",
                 fmt_num(sum, sizeof sum, c->sum_of_singles, 3), interaction_text(c->interaction));
        svg_circle(b, scale_px(sc, c->sum_of_singles), cy, 6, "sum", tip);
    }
    snprintf(tip, sizeof tip, "actual CPI reduction: %s (%s the stacks' range; §V-A error %s)", a, within_text(c),
             fmt_num(lo, sizeof lo, c->error, 3));
    svg_diamond(b, scale_px(sc, c->reduction), cy, 8, c->within ? "actual in" : "actual out", tip);
    sb_put(b, "</g>\n");
}

static void validation_legend(strbuf *b, double x, double y) {
    svg_rect(b, x, y - 6, 26, 12, NULL, "range", NULL);
    svg_line(b, x, y - 9, x, y + 9, "cap");
    svg_line(b, x + 26, y - 9, x + 26, y + 9, "cap");
    svg_text(b, x + 34, y + 4, "start", "legend-name", "range of the three stacks (D, I, C: dispatch, issue, commit)");
    x += 420;
    svg_diamond(b, x + 8, y, 8, "actual in", NULL);
    svg_text(b, x + 22, y + 4, "start", "legend-name", "actual reduction, within");
    x += 190;
    svg_diamond(b, x + 8, y, 8, "actual out", NULL);
    svg_text(b, x + 22, y + 4, "start", "legend-name", "outside");
    x += 90;
    svg_circle(b, x + 8, y, 6, "sum", NULL);
    svg_text(b, x + 22, y + 4, "start", "legend-name", "sum of the two single reductions (pairs)");
}

static void validation_figure(strbuf *b, const validation_result *v) {
    double lo = 0, hi = 0;
    for (int i = 0; i < IDEAL_COUNT; i++) {
        const validation_case *c = &v->cases[i];
        double vals[] = {c->lo,
                         c->hi,
                         c->reduction,
                         c->predicted[0],
                         c->predicted[1],
                         c->predicted[2],
                         is_pair(c->kind) ? c->sum_of_singles : 0};
        for (size_t j = 0; j < sizeof vals / sizeof vals[0]; j++) {
            if (!isfinite(vals[j])) continue;
            if (vals[j] < lo) lo = vals[j];
            if (vals[j] > hi) hi = vals[j];
        }
    }
    double row = 52, top = 48, plot_x = 300, plot_w = FIG_W - plot_x - 24;
    double axis_y = top + row * IDEAL_COUNT + 6;
    svg_scale sc = scale_nice(lo, hi, 8, plot_x, plot_x + plot_w);
    sb_put(b, "<figure>\n");
    svg_begin(b, FIG_W, axis_y + 56, "Actual CPI reductions against the range of the three CPI stacks");
    validation_legend(b, 0, 14);
    svg_axis_x(b, &sc, axis_y, top, "CPI reduction (baseline CPI − idealised CPI)");
    for (int i = 0; i < IDEAL_COUNT; i++) validation_row(b, &sc, &v->cases[i], top + row * i);
    svg_end(b);
    sb_put(b,
           "<figcaption>Actual CPI reduction of each idealised machine (diamond) against the component the "
           "dispatch, issue and commit stacks attribute to it (after Eyerman et al., §V-A and Table I). Hover for "
           "values.</figcaption>\n</figure>\n");
}

static void validation_table(strbuf *b, const validation_result *v) {
    static const char *const head[] = {"idealised", "#dispatch", "#issue", "#commit",         "#range",     "#CPI",
                                       "#actual",   "",          "#error", "#sum of singles", "pair effect"};
    sb_put(b, "<table class=\"data\">\n");
    th_row(b, head, 11);
    sb_put(b, "<tbody>\n");
    for (int i = 0; i < IDEAL_COUNT; i++) {
        const validation_case *c = &v->cases[i];
        sb_printf(b, "<tr%s>", c->relevant ? "" : " class=\"dim\"");
        td_text(b, "name", ideal_kind_name(c->kind));
        for (int k = 0; k < STACK_STAGES; k++) td_num(b, c->predicted[k], 3);
        sb_put(b, "<td class=\"num\">");
        put_num(b, c->lo, 3);
        sb_put(b, " – ");
        put_num(b, c->hi, 3);
        sb_put(b, "</td>");
        td_num(b, c->cpi, 3);
        td_num(b, c->reduction, 3);
        td_text(b, c->within ? "ok" : "bad", within_text(c));
        td_num(b, c->error, 3);
        if (is_pair(c->kind)) {
            td_num(b, c->sum_of_singles, 3);
            td_text(b, NULL, interaction_text(c->interaction));
        } else {
            sb_put(b, "<td></td><td></td>");
        }
        sb_put(b, "</tr>\n");
    }
    sb_put(b, "</tbody>\n</table>\n");
}

void html_report_validation(html_report *h, const validation_result *v) {
    if (!h || !v) return;
    strbuf *b = &h->body;
    section_open(b, "validation", "Validation against idealised machines");
    validation_intro(b, v);
    validation_figure(b, v);
    validation_table(b, v);
    section_close(b);
}

/* ---- statistics over time (--interval N) ---- */

/* The most points a series draws: the plot is 690 px wide. More intervals than that (sort's
 * 53 k at --interval 1000) made a 26 MB page a browser draws slowly, every point sharing a
 * pixel with dozens of others. */
enum { SERIES_MAX_POINTS = 1000 };

/* Every PER consecutive intervals as one: their counters and stacks summed, so each point is
 * the exact IPC, MPKI and CPI stack of the instructions it covers (not a mean of ratios). */
static stacks_intervals merge_intervals(const stacks_intervals *iv, size_t per) {
    stacks_intervals m = {.every = iv->every * per, .count = (iv->count + per - 1) / per};
    m.at = cs_calloc(m.count, sizeof *m.at);
    for (size_t k = 0; k < iv->count; k++) {
        const stacks_interval *x = &iv->at[k];
        stacks_interval *y = &m.at[k / per];
        if (k % per == 0) y->first_cycle = x->first_cycle;
        y->cycles += x->cycles;
        y->instructions += x->instructions;
        y->mispredicts += x->mispredicts;
        y->l1i_misses += x->l1i_misses;
        y->l1d_misses += x->l1d_misses;
        y->l2_misses += x->l2_misses;
        y->l3_misses += x->l3_misses;
        y->flops += x->flops;
        for (int st = 0; st < STACK_STAGES; st++)
            for (int c = 0; c < COMP_COUNT; c++) y->stage[st].cycles[c] += x->stage[st].cycles[c];
    }
    return m;
}

/* A line through one value per interval, with a tooltip per point. */
static void series_line(strbuf *b, const stacks_intervals *iv, const double *x, const double *v, const svg_scale *sx,
                        const svg_scale *sy, const char *color, const char *name, int decimals) {
    sb_printf(b, "<polyline class=\"ts-line\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.75\" points=\"", color);
    for (size_t k = 0; k < iv->count; k++) sb_printf(b, "%.1f,%.1f ", scale_px(sx, x[k]), scale_px(sy, v[k]));
    sb_put(b, "\"><title>");
    sb_escape(b, name);
    sb_put(b, "</title></polyline>\n");
    if (iv->count > 200) return; /* points only where they can be told apart */
    for (size_t k = 0; k < iv->count; k++) {
        char tip[160], num[32];
        snprintf(tip, sizeof tip, "interval %zu: %s %s", k, name, fmt_num(num, sizeof num, v[k], decimals));
        sb_printf(b, "<circle class=\"ts-point\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"><title>",
                  scale_px(sx, x[k]), scale_px(sy, v[k]), color);
        sb_escape(b, tip);
        sb_put(b, "</title></circle>\n");
    }
}

static double max_of(const double *v, size_t n) {
    double m = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i] > m) m = v[i];
    return m;
}

void html_report_intervals(html_report *h, const stacks_intervals *all) {
    if (!h || !all || !all->count) return;
    strbuf *b = &h->body;
    section_open(b, "over-time", "Over time");
    sb_printf(b,
              "<p>Every %" PRIu64 " instructions (%zu intervals): the IPC, the misses per 1000 instructions, and "
              "the commit CPI stack as stacked areas, each interval's components summing to its CPI. The JSON "
              "(<code>stacks.intervals</code>) and the CSV hold every interval's three stacks.",
              all->every, all->count);
    size_t per = (all->count + SERIES_MAX_POINTS - 1) / SERIES_MAX_POINTS;
    stacks_intervals merged = {0};
    if (per > 1) {
        merged = merge_intervals(all, per);
        sb_printf(b,
                  " Drawn as %zu points, each %zu consecutive intervals summed (the last may hold fewer): "
                  "the exact values of the instructions it covers.",
                  merged.count, per);
    }
    sb_put(b, "</p>\n");
    const stacks_intervals *iv = per > 1 ? &merged : all;
    size_t n = iv->count;
    double total = 0;
    for (size_t k = 0; k < n; k++) total += (double)iv->at[k].instructions;
    double unit = total >= 2e6 ? 1e6 : total >= 2e3 ? 1e3 : 1;
    const char *xtitle = unit == 1e6 ? "instructions (millions)"
        : unit == 1e3                ? "instructions (thousands)"
                                     : "instructions";
    double *x = cs_calloc(n, sizeof *x), *ipc = cs_calloc(n, sizeof *ipc), *cpi = cs_calloc(n, sizeof *cpi);
    double *mpki[4];
    static const char *const mpki_name[4] = {"branch MPKI", "L1I MPKI", "L1D MPKI", "L2 MPKI"};
    static const char *const mpki_color[4] = {"#AA4499", "#4477AA", "#EE8866", "#CC3311"};
    for (int m = 0; m < 4; m++) mpki[m] = cs_calloc(n, sizeof *mpki[m]);
    double before = 0; /* the instructions of the intervals before k */
    for (size_t k = 0; k < n; k++) {
        const stacks_interval *s = &iv->at[k];
        double insns = (double)s->instructions;
        x[k] = (before + insns / 2) / unit; /* the middle of its instructions */
        before += insns;
        ipc[k] = safe_div(insns, (double)s->cycles);
        cpi[k] = safe_div((double)s->cycles, insns);
        mpki[0][k] = safe_div(1000.0 * (double)s->mispredicts, insns);
        mpki[1][k] = safe_div(1000.0 * (double)s->l1i_misses, insns);
        mpki[2][k] = safe_div(1000.0 * (double)s->l1d_misses, insns);
        mpki[3][k] = safe_div(1000.0 * (double)s->l2_misses, insns);
    }
    const double left = 70, right = 760, ipc_top = 20, ipc_h = 120, mpki_top = 175, mpki_h = 120, cpi_top = 330,
                 cpi_h = 280, height = cpi_top + cpi_h + 60;
    svg_scale sx = scale_nice(0, total / unit, 8, left, right);
    sx.lo = 0;
    sb_put(b, "<figure>\n");
    svg_begin(b, FIG_W, height, "IPC, MPKI and the commit CPI stack over time");
    /* IPC above */
    svg_scale sy = scale_nice(0, max_of(ipc, n) > 0 ? max_of(ipc, n) : 1, 4, ipc_top + ipc_h, ipc_top);
    svg_axis_y(b, &sy, left, right, "IPC");
    svg_line(b, left, ipc_top + ipc_h, right, ipc_top + ipc_h, "axis");
    series_line(b, iv, x, ipc, &sx, &sy, "#117733", "IPC", 3);
    /* the misses */
    double mmax = 0;
    for (int m = 0; m < 4; m++)
        if (max_of(mpki[m], n) > mmax) mmax = max_of(mpki[m], n);
    svg_scale sm = scale_nice(0, mmax > 0 ? mmax : 1, 4, mpki_top + mpki_h, mpki_top);
    svg_axis_y(b, &sm, left, right, "MPKI");
    svg_line(b, left, mpki_top + mpki_h, right, mpki_top + mpki_h, "axis");
    double ly = mpki_top + 6;
    for (int m = 0; m < 4; m++) {
        if (max_of(mpki[m], n) <= 0) continue;
        series_line(b, iv, x, mpki[m], &sx, &sm, mpki_color[m], mpki_name[m], 2);
        svg_rect(b, right + 20, ly, 12, 3, mpki_color[m], NULL, NULL);
        svg_text(b, right + 38, ly + 5, "start", NULL, mpki_name[m]);
        ly += 18;
    }
    /* the commit stack as stacked areas, base at the bottom, in the fixed component order */
    svg_scale sc = scale_nice(0, max_of(cpi, n) > 0 ? max_of(cpi, n) : 1, 6, cpi_top + cpi_h, cpi_top);
    svg_axis_y(b, &sc, left, right, "CPI at commit");
    svg_axis_x(b, &sx, cpi_top + cpi_h, cpi_top, xtitle); /* grid lines under the areas */
    double *below = cs_calloc(n, sizeof *below);
    bool used[COMP_COUNT] = {false};
    for (int c = 0; c < COMP_COUNT; c++) {
        double most = 0;
        for (size_t k = 0; k < n; k++) {
            double v = safe_div(iv->at[k].stage[STACK_COMMIT].cycles[c], (double)iv->at[k].instructions);
            if (v > most) most = v;
        }
        if (most <= 0) continue;
        used[c] = true;
        sb_printf(b, "<polygon class=\"ts-area\" fill=\"%s\" points=\"", color_or_grey(comp_color[c]));
        for (size_t k = 0; k < n; k++) {
            double v = safe_div(iv->at[k].stage[STACK_COMMIT].cycles[c], (double)iv->at[k].instructions);
            double top = below[k] + (v > 0 ? v : 0);
            double x0 = n == 1 ? left : scale_px(&sx, x[k]), x1 = n == 1 ? right : x0;
            sb_printf(b, "%.1f,%.1f %.1f,%.1f ", x0, scale_px(&sc, top), x1, scale_px(&sc, top));
        }
        for (size_t k = n; k-- > 0;) {
            double x0 = n == 1 ? right : scale_px(&sx, x[k]), x1 = n == 1 ? left : x0;
            sb_printf(b, "%.1f,%.1f %.1f,%.1f ", x0, scale_px(&sc, below[k]), x1, scale_px(&sc, below[k]));
        }
        char tip[200], num[32];
        snprintf(tip, sizeof tip, "%s: up to %s CPI in an interval", stack_component_name((stack_component)c),
                 fmt_num(num, sizeof num, most, 3));
        sb_put(b, "\"><title>");
        sb_escape(b, tip);
        sb_put(b, "</title></polygon>\n");
        for (size_t k = 0; k < n; k++) {
            double v = safe_div(iv->at[k].stage[STACK_COMMIT].cycles[c], (double)iv->at[k].instructions);
            below[k] += v > 0 ? v : 0;
        }
    }
    svg_line(b, left, cpi_top + cpi_h, right, cpi_top + cpi_h, "axis");
    ly = cpi_top;
    for (int c = COMP_COUNT; c-- > 0;) { /* legend: the top of the stack first */
        if (!used[c]) continue;
        svg_rect(b, right + 20, ly, 12, 12, color_or_grey(comp_color[c]), "swatch", NULL);
        svg_text(b, right + 38, ly + 10, "start", NULL, stack_component_name((stack_component)c));
        ly += 20;
    }
    svg_end(b);
    sb_put(b,
           "<figcaption>Top: IPC per interval. Middle: misses per 1000 instructions. Bottom: the commit CPI "
           "stack of each interval as stacked areas (the same colours as the stacks above). Hover for "
           "values.</figcaption>\n</figure>\n");
    free(below);
    for (int m = 0; m < 4; m++) free(mpki[m]);
    free(x);
    free(ipc);
    free(cpi);
    free(merged.at);
    section_close(b);
}

/* ---- runs side by side (cyclescope compare) ---- */

static void compare_change_cells(strbuf *b, double a, double v, int decimals) {
    char num[48];
    fmt_num(num, sizeof num, v - a, decimals);
    sb_put(b, "<td class=\"num\">");
    if (v - a >= 0 && num[0] != '<') sb_put(b, "+");
    sb_escape(b, num);
    sb_put(b, "</td><td class=\"num pct\">");
    if (a != 0) sb_printf(b, "%+.1f%%", 100 * (v - a) / fabs(a));
    sb_put(b, "</td>");
}

static void compare_head(strbuf *b, const compare_run *runs, int n, const char *first) {
    sb_put(b, "<table class=\"data\">\n<thead><tr><th>");
    sb_escape(b, first);
    sb_put(b, "</th>");
    for (int i = 0; i < n; i++) sb_printf(b, "<th class=\"num\">%s</th>", runs[i].label);
    for (int i = 1; i < n; i++) sb_printf(b, "<th class=\"num\">%s − A</th><th class=\"num\">%%</th>", runs[i].label);
    sb_put(b, "</tr></thead>\n<tbody>\n");
}

static void compare_row(strbuf *b, int n, const char *name, const char *color, const double *v, int decimals) {
    if (color) {
        sb_printf(b, "<td class=\"name\"><span class=\"swatch\" style=\"background:%s\"></span>", color);
        sb_escape(b, name);
        sb_put(b, "</td>");
    } else {
        td_text(b, NULL, name);
    }
    for (int i = 0; i < n; i++) {
        if (v[i] >= 0) td_num(b, v[i], decimals);
        else sb_put(b, "<td></td>");
    }
    for (int i = 1; i < n; i++) {
        if (v[i] >= 0 && v[0] >= 0) compare_change_cells(b, v[0], v[i], decimals);
        else sb_put(b, "<td></td><td></td>");
    }
    sb_put(b, "</tr>\n");
}

void html_report_compare(html_report *h, const compare_run *runs, int n) {
    if (!h || n < 1) return;
    strbuf *b = &h->body;
    section_open(b, "compare", "Runs side by side");
    sb_put(b, "<table class=\"kv\"><caption>Runs</caption>\n");
    for (int i = 0; i < n; i++) {
        sb_printf(b, "<tr><th>%s</th><td><code>", runs[i].label);
        sb_escape(b, runs[i].program);
        sb_put(b, "</code> on <b>");
        sb_escape(b, runs[i].config);
        sb_put(b, "</b>");
        if (runs[i].overrides[0]) {
            sb_put(b, " <mark>");
            sb_escape(b, runs[i].overrides);
            sb_put(b, "</mark>");
        }
        sb_put(b, " (");
        sb_escape(b, runs[i].file);
        sb_put(b, ")</td></tr>\n");
    }
    sb_put(b, "</table>\n");
    for (int i = 1; i < n; i++)
        if (runs[i].sha256[0] && runs[0].sha256[0] && strcmp(runs[i].sha256, runs[0].sha256))
            sb_printf(b, "<p class=\"warn\">%s ran another input than A (its program or trace differs).</p>\n",
                      runs[i].label);
    double v[COMPARE_MAX_RUNS] = {0};
    compare_head(b, runs, n, "summary");
    static const char *const mpki_name[5] = {"branch MPKI", "L1I MPKI", "L1D MPKI", "L2 MPKI", "L3 MPKI"};
#define ROW(name, field, dec)                             \
    do {                                                  \
        for (int i = 0; i < n; i++) v[i] = runs[i].field; \
        sb_put(b, "<tr>");                                \
        compare_row(b, n, name, NULL, v, dec);            \
    } while (0)
    ROW("cycles", cycles, 0);
    ROW("instructions", instructions, 0);
    ROW("IPC", ipc, 3);
    ROW("CPI", cpi, 3);
    for (int m = 0; m < 5; m++) {
        bool any = false;
        for (int i = 0; i < n; i++) any |= runs[i].mpki[m] >= 0;
        if (any) ROW(mpki_name[m], mpki[m], 2);
    }
#undef ROW
    sb_put(b, "</tbody>\n</table>\n");
    bool stacks = true;
    for (int i = 0; i < n; i++) stacks &= runs[i].has_stacks;
    if (!stacks) {
        para(b, "note", "Not every run has stacks: no stack comparison.");
        section_close(b);
        return;
    }
    int shown = n < CHART_MAX_BARS ? n : CHART_MAX_BARS;
    for (int st = 0; st < STACK_STAGES; st++) {
        stacked_chart c;
        component_chart(&c, "CPI");
        c.nbars = shown;
        for (int i = 0; i < shown; i++) {
            c.bar_label[i] = runs[i].label;
            for (int k = 0; k < COMP_COUNT; k++) c.value[i][k] = runs[i].stack[st][k];
        }
        char title[64];
        snprintf(title, sizeof title, "CPI stacks at %s", stack_stage_name((stack_stage)st));
        sb_printf(b, "<h3>%s</h3>\n<figure>\n", title);
        svg_begin(b, FIG_W, 400, title);
        svg_stacked_bars(b, &c, 0, 24, 100 + 110.0 * shown, 320);
        svg_legend(b, &c, 160 + 110.0 * shown, 24, 0);
        svg_end(b);
        sb_printf(b, "<figcaption>%s%s</figcaption>\n</figure>\n", title,
                  n > shown ? " of the first four runs (the table has every run)" : ", one bar per run");
        compare_head(b, runs, n, "component");
        for (int k = 0; k < COMP_COUNT; k++) {
            bool any = false;
            for (int i = 0; i < n; i++) {
                v[i] = runs[i].stack[st][k];
                any |= v[i] != 0;
            }
            if (!any && k != COMP_BASE) continue;
            sb_put(b, "<tr>");
            compare_row(b, n, stack_component_name((stack_component)k), color_or_grey(comp_color[k]), v, 3);
        }
        for (int i = 0; i < n; i++) {
            v[i] = 0;
            for (int k = 0; k < COMP_COUNT; k++) v[i] += runs[i].stack[st][k];
        }
        sb_put(b, "</tbody>\n<tfoot><tr>");
        compare_row(b, n, "total", NULL, v, 3);
        sb_put(b, "</tfoot>\n</table>\n");
    }
    section_close(b);
}
