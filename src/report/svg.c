/* A small SVG drawing layer for the HTML report: a text buffer with escaping,
 * number formatting, primitives, axes with round ticks, stacked bars and
 * legends. Everything is written as text into a strbuf; nothing is fetched. */
#include "svg.h"

#include "util/util.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- text buffer ---- */

static void sb_reserve(strbuf *b, size_t extra) {
    if (b->len + extra + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + extra + 1) cap *= 2;
    b->s = cs_realloc(b->s, cap);
    b->cap = cap;
}

void sb_put(strbuf *b, const char *s) {
    size_t n = strlen(s);
    sb_reserve(b, n);
    memcpy(b->s + b->len, s, n + 1);
    b->len += n;
}

void sb_printf(strbuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0) return;
    sb_reserve(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void sb_escape(strbuf *b, const char *text) {
    if (!text) return;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        char one[2] = {(char)*p, 0};
        switch (*p) {
        case '&': sb_put(b, "&amp;"); break;
        case '<': sb_put(b, "&lt;"); break;
        case '>': sb_put(b, "&gt;"); break;
        case '"': sb_put(b, "&quot;"); break;
        case '\'': sb_put(b, "&#39;"); break;
        default:
            if (*p >= 0x20 || *p == '\n' || *p == '\t') sb_put(b, one);
        }
    }
}

void sb_free(strbuf *b) {
    free(b->s);
    memset(b, 0, sizeof *b);
}

/* ---- numbers ---- */

const char *fmt_num(char *out, size_t n, double v, int decimals) {
    if (v == 0 || !isfinite(v)) {
        snprintf(out, n, isfinite(v) ? "0" : "–");
        return out;
    }
    snprintf(out, n, "%.*f", decimals, v);
    if (strspn(out, "-0.") == strlen(out)) /* tiny but not zero */
        snprintf(out, n, "%s%.*f", v > 0 ? "<" : ">-", decimals, pow(10, -decimals));
    return out;
}

const char *fmt_count(char *out, size_t n, uint64_t v) {
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%" PRIu64, v);
    size_t o = 0;
    for (int i = 0; i < len && o + 2 < n; i++) {
        if (i > 0 && (len - i) % 3 == 0) out[o++] = ',';
        out[o++] = digits[i];
    }
    out[o] = 0;
    return out;
}

/* ---- primitives ---- */

static void sb_attr(strbuf *b, const char *name, const char *value) {
    if (!value) return;
    sb_printf(b, " %s=\"", name);
    sb_escape(b, value);
    sb_put(b, "\"");
}

/* Closes an element: with a <title> child when there is a tip. */
static void sb_close_tip(strbuf *b, const char *element, const char *tip) {
    if (!tip) {
        sb_put(b, "/>\n");
        return;
    }
    sb_put(b, "><title>");
    sb_escape(b, tip);
    sb_printf(b, "</title></%s>\n", element);
}

void svg_begin(strbuf *b, double w, double h, const char *label) {
    sb_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\"", w, h);
    sb_printf(b, " viewBox=\"0 0 %.0f %.0f\" role=\"img\"", w, h);
    sb_attr(b, "aria-label", label);
    sb_put(b, ">\n");
}

void svg_end(strbuf *b) { sb_put(b, "</svg>\n"); }

void svg_rect(strbuf *b, double x, double y, double w, double h, const char *fill, const char *cls, const char *tip) {
    sb_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"", x, y, w, h);
    sb_attr(b, "fill", fill);
    sb_attr(b, "class", cls);
    sb_close_tip(b, "rect", tip);
}

void svg_line(strbuf *b, double x1, double y1, double x2, double y2, const char *cls) {
    sb_printf(b, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"", x1, y1, x2, y2);
    sb_attr(b, "class", cls);
    sb_put(b, "/>\n");
}

void svg_text(strbuf *b, double x, double y, const char *anchor, const char *cls, const char *text) {
    sb_printf(b, "<text x=\"%.2f\" y=\"%.2f\"", x, y);
    if (anchor && strcmp(anchor, "start")) sb_attr(b, "text-anchor", anchor);
    sb_attr(b, "class", cls);
    sb_put(b, ">");
    sb_escape(b, text);
    sb_put(b, "</text>\n");
}

void svg_diamond(strbuf *b, double cx, double cy, double r, const char *cls, const char *tip) {
    sb_printf(b, "<path d=\"M%.2f %.2fl%.2f %.2fl%.2f %.2fl%.2f %.2fz\"", cx, cy - r, r, r, -r, r, -r, -r);
    sb_attr(b, "class", cls);
    sb_close_tip(b, "path", tip);
}

void svg_circle(strbuf *b, double cx, double cy, double r, const char *cls, const char *tip) {
    sb_printf(b, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\"", cx, cy, r);
    sb_attr(b, "class", cls);
    sb_close_tip(b, "circle", tip);
}

const char *svg_text_class(const char *fill) {
    unsigned r, g, bl;
    if (!fill || sscanf(fill, "#%2x%2x%2x", &r, &g, &bl) != 3) return "on-light";
    double luma = 0.299 * r + 0.587 * g + 0.114 * bl; /* ITU-R BT.601 */
    return luma < 140 ? "on-dark" : "on-light";
}

/* ---- axes ---- */

static double nice_step(double range, int ticks) {
    double raw = range / (ticks > 0 ? ticks : 5);
    double mag = pow(10, floor(log10(raw)));
    double f = raw / mag;
    double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
    return nice * mag;
}

svg_scale scale_nice(double lo, double hi, int ticks, double px_lo, double px_hi) {
    if (!isfinite(lo) || !isfinite(hi)) lo = 0, hi = 1;
    if (hi <= lo) hi = lo + (lo != 0 ? fabs(lo) : 1);
    svg_scale s = {.px_lo = px_lo, .px_hi = px_hi};
    s.step = nice_step(hi - lo, ticks);
    s.lo = floor(lo / s.step + 1e-9) * s.step;
    s.hi = ceil(hi / s.step - 1e-9) * s.step;
    double digits = -floor(log10(s.step) + 1e-9);
    s.decimals = digits > 0 ? (int)digits : 0;
    if (fabs(s.step * pow(10, s.decimals) - round(s.step * pow(10, s.decimals))) > 1e-6) s.decimals++; /* 2.5 steps */
    return s;
}

double scale_px(const svg_scale *s, double v) {
    return s->px_lo + (v - s->lo) / (s->hi - s->lo) * (s->px_hi - s->px_lo);
}

static int tick_count(const svg_scale *s) { return (int)lround((s->hi - s->lo) / s->step); }

void svg_axis_y(strbuf *b, const svg_scale *s, double x, double grid_x2, const char *title) {
    char num[32];
    for (int i = 0; i <= tick_count(s); i++) {
        double v = s->lo + i * s->step, y = scale_px(s, v);
        svg_line(b, x, y, grid_x2, y, fabs(v) < s->step / 2 ? "zero" : "grid");
        svg_line(b, x - 5, y, x, y, "axis");
        snprintf(num, sizeof num, "%.*f", s->decimals, fabs(v) < s->step / 2 ? 0.0 : v);
        svg_text(b, x - 8, y + 4, "end", "tick", num);
    }
    svg_line(b, x, s->px_lo, x, s->px_hi, "axis");
    if (title) {
        double mid = (s->px_lo + s->px_hi) / 2;
        sb_printf(b, "<text transform=\"translate(%.2f %.2f) rotate(-90)\"", x - 48, mid);
        sb_put(b, " text-anchor=\"middle\" class=\"axis-title\">");
        sb_escape(b, title);
        sb_put(b, "</text>\n");
    }
}

void svg_axis_x(strbuf *b, const svg_scale *s, double y, double grid_y1, const char *title) {
    char num[32];
    for (int i = 0; i <= tick_count(s); i++) {
        double v = s->lo + i * s->step, x = scale_px(s, v);
        svg_line(b, x, grid_y1, x, y, fabs(v) < s->step / 2 ? "zero" : "grid");
        svg_line(b, x, y, x, y + 5, "axis");
        snprintf(num, sizeof num, "%.*f", s->decimals, fabs(v) < s->step / 2 ? 0.0 : v);
        svg_text(b, x, y + 19, "middle", "tick", num);
    }
    svg_line(b, s->px_lo, y, s->px_hi, y, "axis");
    if (title) svg_text(b, (s->px_lo + s->px_hi) / 2, y + 40, "middle", "axis-title", title);
}

/* ---- stacked bars ---- */

int chart_series_used(const stacked_chart *c, int i) {
    for (int k = 0; k < c->nbars; k++)
        if (c->value[k][i] > 0) return 1;
    return 0;
}

static double bar_total(const stacked_chart *c, int k) {
    double t = 0;
    for (int i = 0; i < c->nseries; i++)
        if (c->value[k][i] > 0) t += c->value[k][i];
    return t;
}

/* One segment: the rect with its tooltip, and its value written inside when it fits. */
static void draw_segment(strbuf *b, const stacked_chart *c, int k, int i, double x, double y, double w, double h,
                         double total) {
    const chart_series *se = &c->series[i];
    double v = c->value[k][i];
    char num[32], pct[32], tip[512];
    fmt_num(num, sizeof num, v, c->decimals);
    double share = total > 0 ? 100 * v / total : 0;
    snprintf(pct, sizeof pct, share < 0.05 ? "<0.1%%" : "%.1f%%", share);
    snprintf(tip, sizeof tip, "%s — %s: %s %s (%s)%s%s", c->bar_label[k], se->name, num, c->unit, pct,
             se->doc ? "\n" : "", se->doc ? se->doc : "");
    svg_rect(b, x, y, w, h, se->color, "seg", tip);
    if (h >= 15 && w >= 40) {
        char cls[32];
        snprintf(cls, sizeof cls, "seg-label %s", svg_text_class(se->color));
        svg_text(b, x + w / 2, y + h / 2 + 4, "middle", cls, num);
    }
}

void svg_stacked_bars(strbuf *b, const stacked_chart *c, double x, double y, double w, double h) {
    double top = c->axis_max > 0 ? c->axis_max : 0;
    for (int k = 0; k < c->nbars; k++)
        if (bar_total(c, k) > top) top = bar_total(c, k);
    svg_scale s = scale_nice(0, top > 0 ? top : 1, 5, y + h, y);
    double axis_x = x + 58;
    svg_axis_y(b, &s, axis_x, x + w, c->unit);

    double slot = (x + w - axis_x) / (c->nbars > 0 ? c->nbars : 1);
    double bw = slot * 0.58 < 130 ? slot * 0.58 : 130;
    char num[32];
    for (int k = 0; k < c->nbars; k++) {
        double bx = axis_x + slot * k + (slot - bw) / 2, total = bar_total(c, k), acc = 0;
        for (int i = 0; i < c->nseries; i++) {
            double v = c->value[k][i];
            if (!(v > 0)) continue; /* zero (or nonsense) segments are left out */
            double y_hi = scale_px(&s, acc + v), y_lo = scale_px(&s, acc);
            draw_segment(b, c, k, i, bx, y_hi, bw, y_lo - y_hi, total);
            acc += v;
        }
        fmt_num(num, sizeof num, total, c->decimals);
        svg_text(b, bx + bw / 2, scale_px(&s, total) - 6, "middle", "bar-total", num);
        svg_text(b, bx + bw / 2, y + h + 20, "middle", "bar-label", c->bar_label[k]);
    }
}

double svg_legend(strbuf *b, const stacked_chart *c, double x, double y, int with_doc) {
    double row = 22, cy = y;
    for (int i = c->nseries - 1; i >= 0; i--) {
        if (!chart_series_used(c, i)) continue;
        const chart_series *se = &c->series[i];
        sb_put(b, "<g class=\"legend-item\">");
        svg_rect(b, x, cy, 14, 14, se->color, "swatch", se->doc);
        svg_text(b, x + 22, cy + 12, "start", "legend-name", se->name);
        if (with_doc && se->doc) svg_text(b, x + 120, cy + 12, "start", "legend-doc", se->doc);
        sb_put(b, "</g>\n");
        cy += row;
    }
    return cy - y;
}
