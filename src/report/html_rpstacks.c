/* The HTML report of an RpStacks what-if (cyclescope whatif --report): the
 * largest representative paths as stacked bars of their events (RpStacks
 * Figure 5), next to the FMT table; the grid itself is drawn by
 * html_report_sweep (curves, heatmap, table). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html_internal.h"
#include "rpstacks/rpstacks.h"

/* Paul Tol's colour-blind-safe palette: instruction side blue, data side orange to red, FP
 * operations olive to sand, integer long latency purple */
static const char *dim_color(int d) {
    switch (d) {
    case RPS_BASE: return "#117733";
    case RPS_L1I: return "#99DDFF";
    case RPS_L2_INSTR: return "#77AADD";
    case RPS_MEM_INSTR: return "#4477AA";
    case RPS_L1D: return "#EEBB99";
    case RPS_L2_DATA: return "#EE8866";
    case RPS_MEM_DATA: return "#CC3311";
    case RPS_CLASS0 + OPC_LOAD: return "#FFAABB";
    case RPS_CLASS0 + OPC_INT_MUL: return "#AA4499";
    case RPS_CLASS0 + OPC_INT_DIV: return "#882255";
    case RPS_CLASS0 + OPC_FP_ADD: return "#DDCC77";
    case RPS_CLASS0 + OPC_FP_MUL: return "#999933";
    case RPS_CLASS0 + OPC_FP_FMA: return "#BBCC33";
    case RPS_CLASS0 + OPC_FP_DIV: return "#44AA99";
    case RPS_CLASS0 + OPC_FP_SQRT: return "#332288";
    default: return "#BBBBBB";
    }
}

void html_report_rpstacks(html_report *h, const rps_result *r) {
    enum { PATHS = 3 };
    double paths[PATHS * RPS_DIMS];
    rps_largest_paths(r, PATHS, paths);
    stacked_chart c;
    memset(&c, 0, sizeof c);
    c.unit = "CPI";
    c.decimals = 3;
    int dim_of[CHART_MAX_SERIES];
    for (int d = 0; d < RPS_DIMS && c.nseries < CHART_MAX_SERIES; d++) {
        if (d != RPS_BASE && !rps_dim_is_event(d)) continue;
        if (rps_dim_is_tlb(d) && !rps_dim_used(r, d)) continue;
        dim_of[c.nseries] = d;
        c.series[c.nseries++] =
            (chart_series){rps_dim_name(d), rps_dim_key(d) ? rps_dim_key(d) : "not scaled", dim_color(d)};
    }
    static const char *const labels[] = {"path 1", "path 2", "path 3", "FMT"};
    double ins = r->instructions ? (double)r->instructions : 1;
    bool negative = false;
    c.nbars = PATHS + 1;
    for (int k = 0; k <= PATHS; k++) {
        c.bar_label[k] = labels[k];
        for (int s = 0; s < c.nseries; s++) {
            double v = (k < PATHS ? paths[k * RPS_DIMS + dim_of[s]] : r->fmt[dim_of[s]]) / ins;
            if (v < 0) negative = true, v = 0;
            c.value[k][s] = v;
        }
    }
    strbuf b = {0};
    char uops[32], insns[32], cpi[32];
    sb_printf(&b,
              "<p>%s µops, %s instructions, simulated CPI %s; %u segments of %u µops, %u representative stacks.</p>\n",
              fmt_count(uops, sizeof uops, r->uops), fmt_count(insns, sizeof insns, r->instructions),
              fmt_num(cpi, sizeof cpi, (double)r->cycles / ins, 4), r->segments, r->opt.segment, r->stack_count);
    sb_put(&b, "<figure>\n");
    svg_begin(&b, FIG_W, 430, "largest representative paths and FMT, stacked bars");
    svg_stacked_bars(&b, &c, 0, 24, 540, 360);
    svg_legend(&b, &c, 580, 24, 1);
    svg_end(&b);
    sb_put(&b,
           "<figcaption>The three largest representative stacks (each segment's k-th largest, summed over the "
           "segments; path 1 is the baseline's critical path, CP1) and the FMT commit-stall table, in CPI. "
           "A latency change scales each event's part; the predicted CPI is the largest path's.");
    if (negative) sb_put(&b, " Negative parts (segment offsets) are drawn as 0.");
    sb_put(&b, "</figcaption>\n</figure>\n");
    html_report_section(h, "rpstacks", "RpStacks: representative stall-event stacks", b.s);
    sb_free(&b);
}
