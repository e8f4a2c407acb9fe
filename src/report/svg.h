/* Internal to report/: a growing text buffer with HTML escaping, number
 * formatting, and a small SVG drawing layer (rect, line, text, axes, stacked
 * bars, legends) for the HTML report. Coordinates are pixels; every piece of
 * text goes through sb_escape. */
#ifndef CYCLESCOPE_REPORT_SVG_H
#define CYCLESCOPE_REPORT_SVG_H

#include <stddef.h>
#include <stdint.h>

/* ---- text buffer ---- */

typedef struct strbuf {
    char *s; /* NUL-terminated; NULL while empty */
    size_t len, cap;
} strbuf;

void sb_put(strbuf *b, const char *s);
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Text or attribute value: & < > " ' escaped, control characters dropped. */
void sb_escape(strbuf *b, const char *text);
void sb_free(strbuf *b);

/* ---- numbers ---- */

/* `decimals` places; a nonzero value that would print as zero is shown as
 * "<0.001" (or ">-0.001"), never as nothing: escape the result. */
const char *fmt_num(char *out, size_t n, double v, int decimals);
/* 1234567 -> "1,234,567" */
const char *fmt_count(char *out, size_t n, uint64_t v);

/* ---- primitives ---- */

/* `label` describes the picture for screen readers. */
void svg_begin(strbuf *b, double w, double h, const char *label);
void svg_end(strbuf *b);
/* `cls` and `tip` may be NULL; `tip` becomes a <title> child, shown on hover. */
void svg_rect(strbuf *b, double x, double y, double w, double h, const char *fill, const char *cls, const char *tip);
void svg_line(strbuf *b, double x1, double y1, double x2, double y2, const char *cls);
/* `anchor`: "start", "middle" or "end". */
void svg_text(strbuf *b, double x, double y, const char *anchor, const char *cls, const char *text);
/* A diamond (r = half its diagonal) or circle marker. */
void svg_diamond(strbuf *b, double cx, double cy, double r, const char *cls, const char *tip);
void svg_circle(strbuf *b, double cx, double cy, double r, const char *cls, const char *tip);
/* The class for text on the colour "#rrggbb": "on-dark" (white text) or "on-light". */
const char *svg_text_class(const char *fill);

/* ---- axes ---- */

/* A linear map from [lo, hi] to pixels [px_lo, px_hi], with round tick steps. */
typedef struct svg_scale {
    double lo, hi, step;
    double px_lo, px_hi;
    int decimals; /* enough for the tick labels */
} svg_scale;

/* Covers [lo, hi] with about `ticks` round steps (1, 2, 2.5, 5 x 10^k). */
svg_scale scale_nice(double lo, double hi, int ticks, double px_lo, double px_hi);
double scale_px(const svg_scale *s, double v);
/* Vertical axis at x with ticks, labels and horizontal grid lines to grid_x2;
 * `title` (may be NULL) is written rotated beside it. */
void svg_axis_y(strbuf *b, const svg_scale *s, double x, double grid_x2, const char *title);
/* Horizontal axis at y with ticks, labels and vertical grid lines up to grid_y1. */
void svg_axis_x(strbuf *b, const svg_scale *s, double y, double grid_y1, const char *title);

/* ---- stacked bars ---- */

enum { CHART_MAX_SERIES = 24, CHART_MAX_BARS = 4 };

typedef struct chart_series {
    const char *name, *doc, *color;
} chart_series;

typedef struct stacked_chart {
    const char *unit; /* axis title and tooltips: "CPI", "IPC", "GFLOPS" */
    int decimals;     /* of values in labels and tooltips */
    int nseries;      /* series[0] is the bottom of every bar */
    chart_series series[CHART_MAX_SERIES];
    int nbars;
    const char *bar_label[CHART_MAX_BARS];
    double value[CHART_MAX_BARS][CHART_MAX_SERIES];
    double axis_max; /* > 0: the axis reaches at least this */
} stacked_chart;

/* Axis and bars in the box (x, y, w, h); labels under the bars below y + h.
 * Zero segments are left out; the others keep their true heights. */
void svg_stacked_bars(strbuf *b, const stacked_chart *c, double x, double y, double w, double h);
/* The series that appear in some bar, top of the stack first, swatch and
 * name (and doc when `with_doc`), from (x, y) down. Returns the height used. */
double svg_legend(strbuf *b, const stacked_chart *c, double x, double y, int with_doc);
/* Whether series i is nonzero in some bar. */
int chart_series_used(const stacked_chart *c, int i);

#endif
