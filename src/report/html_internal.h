/* Internal to report/: what the parts of the HTML report share — the
 * document, the small writers for tables and sections. */
#ifndef CYCLESCOPE_REPORT_HTML_INTERNAL_H
#define CYCLESCOPE_REPORT_HTML_INTERNAL_H

#include <math.h>
#include <stdbool.h>

#include "report.h"
#include "svg.h"

struct html_report {
    char *title;
    strbuf body;
    const report_provenance *prov; /* NULL: none given */
};

/* Figure width: the page's content width, so charts are drawn at 1:1. */
enum { FIG_W = 1040 };

static inline const char *color_or_grey(const char *c) { return c ? c : "#BBBBBB"; }

static inline double safe_div(double a, double b) { return b != 0 ? a / b : 0; }

/* ---- small HTML writers ---- */

static inline void put_num(strbuf *b, double v, int decimals) {
    char num[48];
    sb_escape(b, fmt_num(num, sizeof num, v, decimals));
}

static inline void put_count(strbuf *b, uint64_t v) {
    char num[48];
    sb_put(b, fmt_count(num, sizeof num, v));
}

static inline void td_num(strbuf *b, double v, int decimals) {
    sb_put(b, "<td class=\"num\">");
    put_num(b, v, decimals);
    sb_put(b, "</td>");
}

static inline void td_pct(strbuf *b, double part, double whole) {
    sb_put(b, "<td class=\"num pct\">");
    double pct = whole != 0 ? 100 * part / whole : 0;
    if (part != 0 && whole != 0) sb_printf(b, fabs(pct) < 0.05 ? "&lt;0.1%%" : "%.1f%%", pct);
    sb_put(b, "</td>");
}

static inline void td_text(strbuf *b, const char *cls, const char *text) {
    sb_put(b, cls ? "<td class=\"" : "<td");
    if (cls) sb_printf(b, "%s\"", cls);
    sb_put(b, ">");
    sb_escape(b, text);
    sb_put(b, "</td>");
}

static inline void th_row(strbuf *b, const char *const *head, int n) {
    sb_put(b, "<thead><tr>");
    for (int i = 0; i < n; i++) {
        bool num = head[i][0] == '#'; /* "#name": a numeric, right-aligned column */
        sb_put(b, num ? "<th class=\"num\">" : "<th>");
        sb_escape(b, head[i] + num);
        sb_put(b, "</th>");
    }
    sb_put(b, "</tr></thead>\n");
}

static inline void swatch_cell(strbuf *b, const char *color, const char *name, const char *doc) {
    sb_printf(b, "<td class=\"name\"><span class=\"swatch\" style=\"background:%s\"></span>", color);
    sb_escape(b, name);
    sb_put(b, "</td>");
    td_text(b, "doc", doc ? doc : "");
}

static inline void section_open(strbuf *b, const char *id, const char *title) {
    sb_printf(b, "<section id=\"%s\">\n<h2>", id);
    sb_escape(b, title);
    sb_put(b, "</h2>\n");
}

static inline void section_close(strbuf *b) { sb_put(b, "</section>\n"); }

/* A <p> with escaped text. */
static inline void para(strbuf *b, const char *cls, const char *text) {
    sb_put(b, cls ? "<p class=\"" : "<p");
    if (cls) sb_printf(b, "%s\"", cls);
    sb_put(b, ">");
    sb_escape(b, text);
    sb_put(b, "</p>\n");
}

#endif
