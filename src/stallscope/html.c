/* Stallscope's HTML section: the hierarchical tree as nested <details> with
 * bars (no scripts), an icicle chart of the tree as SVG, the leaf and node
 * summaries, the hot-spot table (PC, disassembly, function) and the partial
 * summaries. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "stallscope.h"

typedef struct buf {
    char *s;
    size_t len, cap;
} buf;

static void put(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(buf *b, const char *fmt, ...) {
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) return;
        if (b->s && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        b->cap = (b->cap + (size_t)n + 1) * 2;
        b->s = cs_realloc(b->s, b->cap);
        if (b->len == 0) b->s[0] = 0;
    }
}

static void put_esc(buf *b, const char *t) {
    for (; t && *t; t++) {
        switch (*t) {
        case '&': put(b, "&amp;"); break;
        case '<': put(b, "&lt;"); break;
        case '>': put(b, "&gt;"); break;
        case '"': put(b, "&quot;"); break;
        case '\'': put(b, "&#39;"); break;
        default:
            if ((unsigned char)*t >= 0x20) put(b, "%c", *t);
        }
    }
}

static double pct(uint64_t w, uint64_t of) { return of ? 100.0 * (double)w / (double)of : 0.0; }

static const char *type_color(const stallscope *s, uint32_t type) {
    const char *n = ss_type_name(s, type);
    if (!strncmp(n, "flush/", 6)) return "#d9534f";
    if (!strncmp(n, "fetch/", 6)) return "#f0ad4e";
    if (strstr(n, "dcache")) return "#5b8bd6";
    if (!strncmp(n, "exec/", 5)) return "#5cb85c";
    if (!strncmp(n, "dispatch/", 9)) return "#e8c547";
    return "#9b8fd1";
}

static void details(const stallscope *s, buf *b, const ss_node *t, uint32_t node, uint64_t base, double thr,
                    uint32_t level) {
    uint32_t *c;
    uint32_t n = ss_children_sorted(t, node, &c);
    for (uint32_t i = 0; i < n; i++) {
        double p = pct(t[c[i]].weight, base);
        if (p < thr) continue;
        bool kids = t[c[i]].first_child != 0 && level < 40;
        put(b, kids ? "<details%s><summary>" : "<div class=\"ssleaf\">", level < 1 ? " open" : "");
        put(b,
            "<span style=\"display:inline-block;width:160px;background:#eee;vertical-align:middle\">"
            "<span style=\"display:block;height:10px;width:%.1f%%;background:%s\"></span></span> "
            "<b>%.2f%%</b> ",
            p, type_color(s, t[c[i]].type), p);
        put_esc(b, ss_type_name(s, t[c[i]].type));
        if (kids) {
            put(b, "</summary><div style=\"margin-left:18px\">");
            details(s, b, t, c[i], base, thr, level + 1);
            put(b, "</div></details>");
        } else {
            put(b, "</div>");
        }
    }
    free(c);
}

/* Icicle: each level a row, each node as wide as its weight. */
static void icicle(const stallscope *s, buf *b, const ss_node *t, uint32_t node, double x, double w, uint32_t level,
                   uint32_t max_level, double total) {
    if (level >= max_level) return;
    uint32_t *c;
    uint32_t n = ss_children_sorted(t, node, &c);
    double xx = x;
    for (uint32_t i = 0; i < n; i++) {
        double cw = total > 0 ? 1000.0 * (double)t[c[i]].weight / total : 0;
        if (cw >= 0.5) {
            put(b, "<rect x=\"%.1f\" y=\"%u\" width=\"%.1f\" height=\"22\" fill=\"%s\" stroke=\"#fff\"><title>", xx,
                level * 24, cw, type_color(s, t[c[i]].type));
            put_esc(b, ss_type_name(s, t[c[i]].type));
            put(b, " %.2f%%</title></rect>", 100.0 * (double)t[c[i]].weight / total);
            if (cw > 60) {
                put(b, "<text x=\"%.1f\" y=\"%u\" font-size=\"10\" fill=\"#000\">", xx + 3, level * 24 + 15);
                const char *nm = ss_type_name(s, t[c[i]].type);
                const char *slash = strchr(nm, '/');
                char shortname[48];
                snprintf(shortname, sizeof shortname, "%s", slash ? slash + 1 : nm);
                size_t fit = (size_t)(cw / 6.2);
                if (fit < strlen(shortname)) shortname[fit] = 0;
                put_esc(b, shortname);
                put(b, "</text>");
            }
            icicle(s, b, t, c[i], xx, cw, level + 1, max_level, total);
        }
        xx += cw;
    }
    (void)w;
    free(c);
}

void ss_html(const stallscope *s, struct html_report *h, ss_symbolizer sym, void *sym_ctx) {
    const ss_summary *m = ss_summary_of(s);
    const ss_options *o = ss_options_of(s);
    buf b = {0};
    put(&b,
        "<p>%llu cycles &times; %s width: %llu completion opportunities; %llu lost (%.2f%%), all "
        "accumulated (%llu). Chains truncated: %.3f%% of the opportunities. Percentages are of the "
        "opportunities (Robinson, Figure 3).%s</p>",
        (unsigned long long)m->cycles, o->at_issue ? "issue" : "commit", (unsigned long long)m->opportunities,
        (unsigned long long)m->lost, pct(m->lost, m->opportunities), (unsigned long long)m->accumulated,
        pct(m->truncated, m->opportunities),
        o->at_issue ? " Completion measured at in-order issue (completion=issue, docs/stallscope.md)." : "");
    uint32_t nt, ni;
    const ss_node *t = ss_tree(s, &nt), *inv = ss_inverted(s, &ni);
    put(&b,
        "<h3>Hierarchical tree</h3><p>Each node: the opportunities lost through it; open a node for its "
        "causes (nodes &ge; %.2f%%).</p>",
        o->threshold);
    details(s, &b, t, 0, m->opportunities, o->threshold, 0);
    uint32_t depth = 0;
    for (uint32_t i = 1; i < nt; i++) {
        uint32_t d = 0;
        for (uint32_t k = i; k; k = t[k].parent) d++;
        if (d > depth) depth = d;
    }
    if (depth > 12) depth = 12;
    put(&b,
        "<h3>Icicle chart</h3><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1000\" height=\"%u\" "
        "role=\"img\" aria-label=\"Stallscope tree as an icicle chart\">",
        depth * 24 + 4);
    icicle(s, &b, t, 0, 0, 1000, 0, depth, (double)m->opportunities);
    put(&b, "</svg>");
    put(&b, "<h3>Leaf summary</h3>");
    details(s, &b, inv, 0, m->opportunities, o->threshold, 0);
    put(&b,
        "<h3>Node summary</h3><table><thead><tr><th>stall type</th><th>kind</th><th class=\"num\">%% of "
        "opportunities</th></tr></thead><tbody>");
    const uint64_t *tot = ss_node_totals(s);
    for (uint32_t i = 0; i < ss_type_count(s); i++) {
        if (!tot[i]) continue;
        uint8_t f = ss_type_flags(s, i);
        put(&b, "<tr><td>");
        put_esc(&b, ss_type_name(s, i));
        put(&b, "</td><td>%s</td><td class=\"num\">%.2f%%</td></tr>",
            f & SS_INFO       ? "informational"
                : f & SS_LEAF ? "leaf"
                              : "non-leaf",
            pct(tot[i], m->opportunities));
    }
    put(&b, "</tbody></table>");
    uint32_t nh;
    const ss_hotspot *hs = ss_hotspots(s, &nh);
    put(&b,
        "<h3>Hot spots</h3><table><thead><tr><th>PC</th><th>disassembly</th><th>function</th><th>costliest "
        "leaf</th><th class=\"num\">%% of opportunities</th></tr></thead><tbody>");
    for (uint32_t i = 0; i < nh && i < 20; i++) {
        char dis[96];
        ss_disasm(hs[i].encoding, hs[i].pc, dis, sizeof dis);
        const char *fn = sym ? sym(sym_ctx, hs[i].pc) : NULL;
        put(&b, "<tr><td><code>%llx</code></td><td><code>", (unsigned long long)hs[i].pc);
        put_esc(&b, dis);
        put(&b, "</code></td><td>");
        put_esc(&b, fn ? fn : "");
        put(&b, "</td><td>");
        put_esc(&b, ss_type_name(s, hs[i].type));
        put(&b, "</td><td class=\"num\">%.2f%%</td></tr>", pct(hs[i].weight, m->opportunities));
    }
    put(&b, "</tbody></table>");
    uint32_t np;
    const ss_partial *pa = ss_partials(s, &np);
    if (np) {
        put(&b,
            "<h3>Partial summaries (every %llu µops)</h3><table><thead><tr><th class=\"num\">µops</th><th "
            "class=\"num\">cycles</th><th class=\"num\">lost</th><th>top leaves</th></tr></thead><tbody>",
            (unsigned long long)o->interval);
        uint64_t width = m->cycles ? m->opportunities / m->cycles : 1;
        for (uint32_t i = 0; i < np; i++) {
            put(&b, "<tr><td class=\"num\">%llu</td><td class=\"num\">%llu</td><td class=\"num\">%.2f%%</td><td>",
                (unsigned long long)pa[i].uops_end, (unsigned long long)pa[i].cycles,
                pct(pa[i].lost, pa[i].cycles * width));
            for (int k = 0; k < 3 && pa[i].top_weight[k]; k++) {
                put_esc(&b, ss_type_name(s, pa[i].top_type[k]));
                put(&b, " %.1f%%; ", pct(pa[i].top_weight[k], pa[i].cycles * width));
            }
            put(&b, "</td></tr>");
        }
        put(&b, "</tbody></table>");
    }
    html_report_section(h, "stallscope", "Stallscope: causes of lost completion opportunities", b.s);
    free(b.s);
}

/* A bar of `p` percent in a 120-pixel track (the tree's bars, narrower). */
static void bar(buf *b, double p, const char *color) {
    put(b,
        "<span style=\"display:inline-block;width:120px;background:#eee;vertical-align:middle\">"
        "<span style=\"display:block;height:10px;width:%.1f%%;background:%s\"></span></span> ",
        p < 0         ? 0
            : p > 100 ? 100
                      : p,
        color);
}

static void compare_table(const stallscope *a, const stallscope *b, bool leaves, const char *name_a, const char *name_b,
                          buf *out) {
    ss_compare_row *rows;
    uint32_t n = ss_compare_rows(a, b, leaves, &rows);
    put(out, "<table><thead><tr><th>stall type</th><th>A = ");
    put_esc(out, name_a);
    put(out, "</th><th class=\"num\">A cycles</th><th>B = ");
    put_esc(out, name_b);
    put(out, "</th><th class=\"num\">B cycles</th><th class=\"num\">B&minus;A cycles</th></tr></thead><tbody>");
    for (uint32_t i = 0; i < n; i++) {
        const ss_compare_row *r = &rows[i];
        put(out, "<tr><td>");
        put_esc(out, r->type);
        put(out, "</td><td>");
        bar(out, r->percent[0], "#5b8bd6");
        put(out, "%.2f%%</td><td class=\"num\">%.0f</td><td>", r->percent[0], r->cycles[0]);
        bar(out, r->percent[1], "#f0ad4e");
        put(out, "%.2f%%</td><td class=\"num\">%.0f</td><td class=\"num\">%+.0f</td></tr>", r->percent[1], r->cycles[1],
            r->cycles[1] - r->cycles[0]);
    }
    put(out, "</tbody></table>");
    free(rows);
}

void ss_compare_html(const stallscope *a, const char *name_a, const stallscope *b, const char *name_b,
                     struct html_report *h) {
    const ss_summary *m[2] = {ss_summary_of(a), ss_summary_of(b)};
    const char *name[2] = {name_a, name_b};
    const stallscope *s[2] = {a, b};
    buf out = {0};
    put(&out,
        "<table><thead><tr><th></th><th>configuration</th><th>completion at</th><th class=\"num\">cycles</th>"
        "<th class=\"num\">µops completed</th><th class=\"num\">opportunities</th><th class=\"num\">lost</th>"
        "</tr></thead><tbody>");
    for (int j = 0; j < 2; j++) {
        put(&out, "<tr><td>%s</td><td>", j ? "B" : "A");
        put_esc(&out, name[j]);
        put(&out,
            "</td><td>%s</td><td class=\"num\">%llu</td><td class=\"num\">%llu</td><td class=\"num\">%llu</td>"
            "<td class=\"num\">%llu (%.2f%%)</td></tr>",
            ss_options_of(s[j])->at_issue ? "issue" : "commit", (unsigned long long)m[j]->cycles,
            (unsigned long long)m[j]->committed, (unsigned long long)m[j]->opportunities,
            (unsigned long long)m[j]->lost, pct(m[j]->lost, m[j]->opportunities));
    }
    put(&out,
        "</tbody></table><p>Each column: the share of that run's completion opportunities, and lost cycles = "
        "lost opportunities / width; B&minus;A is the change in lost cycles.</p>");
    if (ss_options_of(a)->at_issue != ss_options_of(b)->at_issue) /* as the text says it */
        put(&out,
            "<p><b>Completion is not measured at the same point</b> (A at %s, B at %s): --completion commit "
            "measures both at commit (docs/stallscope.md).</p>",
            ss_options_of(a)->at_issue ? "issue" : "commit", ss_options_of(b)->at_issue ? "issue" : "commit");
    put(&out, "<h3>Leaf summary</h3>");
    compare_table(a, b, true, name_a, name_b, &out);
    put(&out, "<h3>Node summary</h3>");
    compare_table(a, b, false, name_a, name_b, &out);
    html_report_section(h, "stallscope-compare", "Stallscope comparison: A against B", out.s);
    free(out.s);
}
