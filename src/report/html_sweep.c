/* The HTML of a sweep: a curve of CPI per swept parameter, a heatmap over two
 * parameters, and the table of points. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "svg.h"

static const char *const palette[] = {"#4477AA", "#EE6677", "#228833", "#CCBB44",
                                      "#66CCEE", "#AA3377", "#BBBBBB", "#000000"};
enum { PALETTE = sizeof palette / sizeof palette[0], MAX_LINES = PALETTE };

static const char *value_at(const report_sweep *s, size_t p, int k) {
    return s->value[p * (size_t)s->keys + (size_t)k];
}

/* A value as a number when it is one ("32K" = 32768): for ordering. */
static bool as_number(const char *v, double *out) {
    char *end;
    double x = strtod(v, &end);
    if (end == v) return false;
    if (*end == 'K' || *end == 'k') x *= 1024, end++;
    else if (*end == 'M') x *= 1024.0 * 1024, end++;
    else if (*end == 'G') x *= 1024.0 * 1024 * 1024, end++;
    if (*end) return false;
    *out = x;
    return true;
}

static int compare_values(const void *a, const void *b) {
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    double p, q;
    if (as_number(x, &p) && as_number(y, &q)) return p < q ? -1 : p > q;
    return strcmp(x, y);
}

/* The distinct values of key k, ordered. */
static size_t distinct(const report_sweep *s, int k, const char **out) {
    size_t n = 0;
    for (size_t p = 0; p < s->points; p++) {
        const char *v = value_at(s, p, k);
        if (!v) continue;
        bool seen = false;
        for (size_t i = 0; i < n && !seen; i++) seen = !strcmp(out[i], v);
        if (!seen) out[n++] = v;
    }
    qsort(out, n, sizeof *out, compare_values);
    return n;
}

static size_t index_of(const char *const *values, size_t n, const char *v) {
    for (size_t i = 0; i < n; i++)
        if (v && !strcmp(values[i], v)) return i;
    return (size_t)-1;
}

/* The other parameters' values of point p, as one label ("" with one parameter). */
static void group_label(const report_sweep *s, size_t p, int except, char *out, size_t size) {
    out[0] = 0;
    for (int k = 0; k < s->keys; k++) {
        if (k == except) continue;
        size_t len = strlen(out);
        const char *v = value_at(s, p, k);
        snprintf(out + len, size - len, "%s%s=%s", len ? " " : "", s->key[k], v ? v : "-");
    }
}

static void curve(strbuf *b, const report_sweep *s, int k) {
    const char **xs = cs_calloc(s->points + 1, sizeof *xs);
    size_t nx = distinct(s, k, xs);
    /* the lines: one per combination of the other parameters */
    char(*groups)[256] = cs_calloc(s->points + 1, sizeof *groups);
    size_t ng = 0;
    /* each point's line and x, found once (a grid of 300 × 300 took 47 s when they were
     * looked up again for every line and x: points × x × lines) */
    size_t *group_of = cs_calloc(s->points + 1, sizeof *group_of), *x_of = cs_calloc(s->points + 1, sizeof *x_of);
    double lo = INFINITY, hi = -INFINITY;
    for (size_t p = 0; p < s->points; p++) {
        char g[256];
        group_label(s, p, k, g, sizeof g);
        size_t gi = 0;
        while (gi < ng && strcmp(groups[gi], g)) gi++;
        if (gi == ng) snprintf(groups[ng++], 256, "%s", g);
        group_of[p] = gi;
        x_of[p] = index_of(xs, nx, value_at(s, p, k));
        if (s->cpi[p] == s->cpi[p]) lo = fmin(lo, s->cpi[p]), hi = fmax(hi, s->cpi[p]);
    }
    /* the points in order of x, then of the grid (a counting sort) */
    size_t *order = cs_calloc(s->points + 1, sizeof *order), *first = cs_calloc(nx + 1, sizeof *first);
    for (size_t p = 0; p < s->points; p++)
        if (x_of[p] < nx) first[x_of[p] + 1]++;
    for (size_t i = 0; i < nx; i++) first[i + 1] += first[i];
    size_t placed = 0;
    for (size_t p = 0; p < s->points; p++)
        if (x_of[p] < nx) order[first[x_of[p]]++] = p, placed++;
    if (!(lo <= hi) || nx == 0) {
        free(xs);
        free(groups);
        free(group_of);
        free(x_of);
        free(order);
        free(first);
        return;
    }
    if (hi - lo < 1e-9) lo -= 0.05, hi += 0.05;
    double w = 560, h = 260, left = 60, right = 20, top = 16, bottom = 46;
    char label[200];
    snprintf(label, sizeof label, "CPI against %s", s->key[k]);
    sb_put(b, "<figure>\n");
    svg_begin(b, w, h, label);
    svg_scale y = scale_nice(lo, hi, 5, h - bottom, top);
    svg_axis_y(b, &y, left, w - right, "CPI");
    double step = nx > 1 ? (w - left - right - 40) / (double)(nx - 1) : 0;
    for (size_t i = 0; i < nx; i++) {
        double x = left + 20 + step * (double)i;
        svg_line(b, x, h - bottom, x, h - bottom + 4, "tick");
        svg_text(b, x, h - bottom + 16, "middle", NULL, xs[i]);
    }
    svg_text(b, left + (w - left - right) / 2, h - 8, "middle", NULL, s->key[k]);
    size_t lines = ng < MAX_LINES ? ng : MAX_LINES;
    for (size_t gi = 0; gi < lines; gi++) {
        const char *color = palette[gi % PALETTE];
        strbuf pts = {0};
        for (size_t o = 0; o < placed; o++) { /* this group's points, in order of x */
            size_t p = order[o], i = x_of[p];
            const char *g = groups[gi];
            if (group_of[p] != gi || s->cpi[p] != s->cpi[p]) continue;
            double x = left + 20 + step * (double)i, yy = scale_px(&y, s->cpi[p]);
            sb_printf(&pts, "%.2f,%.2f ", x, yy);
            char tip[400], num[32];
            snprintf(tip, sizeof tip, "%s=%s%s%s: CPI %s", s->key[k], xs[i], g[0] ? ", " : "", g,
                     fmt_num(num, sizeof num, s->cpi[p], 4));
            sb_printf(b, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3.5\" fill=\"%s\"><title>", x, yy, color);
            sb_escape(b, tip);
            sb_put(b, "</title></circle>\n");
        }
        if (pts.s)
            sb_printf(b, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n", pts.s, color);
        sb_free(&pts);
    }
    svg_end(b);
    if (ng > 1) {
        sb_put(b, "<figcaption>");
        for (size_t gi = 0; gi < lines; gi++) {
            sb_printf(b, "<span class=\"swatch\" style=\"background:%s\"></span> ", palette[gi % PALETTE]);
            sb_escape(b, groups[gi]);
            sb_put(b, gi + 1 < lines ? " &nbsp; " : "");
        }
        if (ng > lines) sb_printf(b, " (and %zu more combinations, in the table)", ng - lines);
        sb_put(b, "</figcaption>\n");
    }
    sb_put(b, "</figure>\n");
    free(xs);
    free(groups);
    free(group_of);
    free(x_of);
    free(order);
    free(first);
}

/* Light to dark blue for low to high CPI. */
static void heat_color(double t, char *out, size_t size) {
    if (!(t >= 0)) t = 0;
    if (t > 1) t = 1;
    int r = (int)(0xEE + (0x22 - 0xEE) * t), g = (int)(0xF4 + (0x55 - 0xF4) * t), bl = (int)(0xFB + (0x99 - 0xFB) * t);
    snprintf(out, size, "#%02X%02X%02X", r, g, bl);
}

static void heatmap(strbuf *b, const report_sweep *s) {
    const char **rows = cs_calloc(s->points + 1, sizeof *rows), **cols = cs_calloc(s->points + 1, sizeof *cols);
    size_t nr = distinct(s, 0, rows), nc = distinct(s, 1, cols);
    double *sum = cs_calloc(nr * nc + 1, sizeof *sum);
    int *cnt = cs_calloc(nr * nc + 1, sizeof *cnt);
    double lo = INFINITY, hi = -INFINITY;
    for (size_t p = 0; p < s->points; p++) {
        size_t r = index_of(rows, nr, value_at(s, p, 0)), c = index_of(cols, nc, value_at(s, p, 1));
        if (r == (size_t)-1 || c == (size_t)-1 || s->cpi[p] != s->cpi[p]) continue;
        sum[r * nc + c] += s->cpi[p];
        cnt[r * nc + c]++;
    }
    for (size_t i = 0; i < nr * nc; i++)
        if (cnt[i]) lo = fmin(lo, sum[i] / cnt[i]), hi = fmax(hi, sum[i] / cnt[i]);
    double cw = 90, ch = 30, left = 110, top = 34;
    double w = left + cw * (double)nc + 20, h = top + ch * (double)nr + 40;
    char label[300];
    snprintf(label, sizeof label, "CPI over %s and %s", s->key[0], s->key[1]);
    sb_put(b, "<figure>\n");
    svg_begin(b, w, h, label);
    svg_text(b, left + cw * (double)nc / 2, 14, "middle", NULL, s->key[1]);
    for (size_t c = 0; c < nc; c++) svg_text(b, left + cw * ((double)c + 0.5), top - 6, "middle", NULL, cols[c]);
    for (size_t r = 0; r < nr; r++) {
        svg_text(b, left - 8, top + ch * ((double)r + 0.62), "end", NULL, rows[r]);
        for (size_t c = 0; c < nc; c++) {
            double x = left + cw * (double)c, y = top + ch * (double)r;
            if (!cnt[r * nc + c]) {
                svg_rect(b, x + 1, y + 1, cw - 2, ch - 2, "#FFFFFF", NULL, "no result");
                continue;
            }
            double v = sum[r * nc + c] / cnt[r * nc + c];
            char color[16], num[32], tip[400];
            heat_color(hi > lo ? (v - lo) / (hi - lo) : 0.5, color, sizeof color);
            fmt_num(num, sizeof num, v, 3);
            snprintf(tip, sizeof tip, "%s=%s, %s=%s: CPI %s%s", s->key[0], rows[r], s->key[1], cols[c], num,
                     cnt[r * nc + c] > 1 ? " (mean over the other parameters)" : "");
            svg_rect(b, x + 1, y + 1, cw - 2, ch - 2, color, NULL, tip);
            char cls[32];
            snprintf(cls, sizeof cls, "seg-label %s", svg_text_class(color));
            svg_text(b, x + cw / 2, y + ch * 0.62, "middle", cls, num);
        }
    }
    svg_text(b, left - 8, top + ch * (double)nr + 18, "end", NULL, s->key[0]);
    svg_end(b);
    sb_put(b, "<figcaption>CPI; darker is slower");
    if (s->keys > 2) sb_put(b, "; each cell is the mean over the other parameters");
    sb_put(b, ".</figcaption>\n</figure>\n");
    free(rows);
    free(cols);
    free(sum);
    free(cnt);
}

static void table(strbuf *b, const report_sweep *s) {
    sb_put(b, "<table class=\"data\">\n<tr>");
    for (int k = 0; k < s->keys; k++) {
        sb_put(b, "<th>");
        sb_escape(b, s->key[k]);
        sb_put(b, "</th>");
    }
    sb_put(b, "<th class=\"num\">CPI</th><th>status</th></tr>\n");
    for (size_t p = 0; p < s->points; p++) {
        sb_put(b, "<tr>");
        for (int k = 0; k < s->keys; k++) {
            const char *v = value_at(s, p, k);
            sb_put(b, "<td>");
            sb_escape(b, v ? v : "");
            sb_put(b, "</td>");
        }
        char num[32];
        if (s->cpi[p] == s->cpi[p]) {
            sb_printf(b, "<td class=\"num\">%s</td><td>ok", fmt_num(num, sizeof num, s->cpi[p], 4));
            if (s->exit_code && s->exit_code[p]) sb_printf(b, " (the program exited with status %d)", s->exit_code[p]);
            sb_put(b, "</td>");
        } else {
            sb_put(b, "<td class=\"num\"></td><td>failed: ");
            sb_escape(b, s->error && s->error[p] ? s->error[p] : "");
            sb_put(b, "</td>");
        }
        sb_put(b, "</tr>\n");
    }
    sb_put(b, "</table>\n");
}

void html_report_sweep(html_report *h, const report_sweep *s) {
    strbuf b = {0};
    size_t ok = 0;
    for (size_t p = 0; p < s->points; p++) ok += s->cpi[p] == s->cpi[p];
    sb_printf(&b, "<p class=\"lead\">%zu points, %zu timed, %zu failed.</p>\n", s->points, ok, s->points - ok);
    for (int k = 0; k < s->keys; k++) curve(&b, s, k);
    html_report_section(h, "curves", "CPI against each parameter", b.s);
    sb_free(&b);
    if (s->keys >= 2) {
        heatmap(&b, s);
        html_report_section(h, "heatmap", "CPI over two parameters", b.s);
        sb_free(&b);
    }
    table(&b, s);
    html_report_section(h, "points", "Every point", b.s);
    sb_free(&b);
}
