/* HTML pieces for `cyclescope model` (inline SVG, no scripts): the
 * parallelism distributions modelled beside simulated (thesis Figure 5.8) and
 * a sweep's IPC curve, modelled against simulated (Figure 5.7). */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

static void sb_printf(sm_html *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sm_html *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    SM_GROW(b->text, b->cap, b->len + (size_t)n + 1, 1024);
    va_start(ap, fmt);
    vsnprintf(b->text + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

static void escape(sm_html *b, const char *s) {
    for (; *s; s++) {
        switch (*s) {
        case '<': sb_printf(b, "&lt;"); break;
        case '>': sb_printf(b, "&gt;"); break;
        case '&': sb_printf(b, "&amp;"); break;
        case '"': sb_printf(b, "&quot;"); break;
        default: sb_printf(b, "%c", *s);
        }
    }
}

void sm_html_free(sm_html *b) {
    free(b->text);
    memset(b, 0, sizeof *b);
}

void sm_html_bars(sm_html *b, const char *title, const char *xlabel, int n, const double *model, const double *sim) {
    const int w = 60 + n * 60 < 340 ? 340 : 60 + n * 60, h = 200, top = 30, bottom = 40, left = 45;
    double ymax = 0;
    for (int i = 0; i < n; i++) {
        if (model[i] > ymax) ymax = model[i];
        if (sim && sim[i] > ymax) ymax = sim[i];
    }
    if (ymax <= 0) ymax = 1;
    sb_printf(b,
              "<figure style=\"display:inline-block;margin:0 12px 12px 0\"><svg viewBox=\"0 0 %d %d\" width=\"%d\" "
              "role=\"img\"><title>",
              w, h, w);
    escape(b, title);
    sb_printf(b, "</title><text x=\"%d\" y=\"18\" class=\"panel-title\">", left);
    escape(b, title);
    sb_printf(b, "</text>");
    double plot = h - top - bottom;
    sb_printf(b, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", left, h - bottom, w - 10,
              h - bottom);
    for (int t = 0; t <= 4; t++) {
        double v = ymax * t / 4, y = h - bottom - plot * t / 4;
        sb_printf(b, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>", left - 4, y + 4, v);
    }
    for (int i = 0; i < n; i++) {
        double x = left + 10 + i * 60;
        double hm = plot * model[i] / ymax;
        sb_printf(b,
                  "<rect x=\"%.1f\" y=\"%.1f\" width=\"22\" height=\"%.1f\" fill=\"#999999\"><title>modelled "
                  "%.4f</title></rect>",
                  x, h - bottom - hm, hm, model[i]);
        if (sim) {
            double hs = plot * sim[i] / ymax;
            sb_printf(b,
                      "<rect x=\"%.1f\" y=\"%.1f\" width=\"22\" height=\"%.1f\" fill=\"#222222\"><title>simulated "
                      "%.4f</title></rect>",
                      x + 23, h - bottom - hs, hs, sim[i]);
        }
        sb_printf(b, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>", x + 22,
                  h - bottom + 16, i);
    }
    sb_printf(b, "<text class=\"axis-title\" x=\"%d\" y=\"%d\">", left, h - 6);
    escape(b, xlabel);
    sb_printf(b, "</text></svg></figure>\n");
}

void sm_html_curve(sm_html *b, const char *title, int n, const char *const *labels, const double *model,
                   const double *sim) {
    const int w = 120 + n * 70 < 420 ? 420 : 120 + n * 70, h = 260, top = 30, bottom = 70, left = 50;
    double ymax = 0;
    for (int i = 0; i < n; i++) {
        if (model[i] > ymax) ymax = model[i];
        if (sim && sim[i] > ymax) ymax = sim[i];
    }
    if (ymax <= 0) ymax = 1;
    ymax *= 1.1;
    double plot = h - top - bottom;
    sb_printf(b, "<figure><svg viewBox=\"0 0 %d %d\" width=\"%d\" role=\"img\"><title>", w, h, w);
    escape(b, title);
    sb_printf(b, "</title><text x=\"%d\" y=\"18\" class=\"panel-title\">", left);
    escape(b, title);
    sb_printf(b, "</text><line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>", left, h - bottom, w - 10,
              h - bottom);
    for (int t = 0; t <= 4; t++) {
        double y = h - bottom - plot * t / 4;
        sb_printf(b, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>", left - 4, y + 4,
                  ymax * t / 4);
    }
    for (int s = sim ? 1 : 0; s >= 0; s--) { /* simulated first, the model (dashed) over it */
        const double *v = s ? sim : model;
        sb_printf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" points=\"", s ? "#222222" : "#888888",
                  s ? "2" : "2.5\" stroke-dasharray=\"6 4");
        for (int i = 0; i < n; i++) {
            if (isnan(v[i])) continue;
            sb_printf(b, "%.1f,%.1f ", left + 35.0 + i * 70, h - bottom - plot * v[i] / ymax);
        }
        sb_printf(b, "\"/>");
        for (int i = 0; i < n; i++)
            if (!isnan(v[i]))
                sb_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" fill=\"%s\"><title>%s %.4f</title></circle>",
                          left + 35.0 + i * 70, h - bottom - plot * v[i] / ymax, s ? "4.5" : "3",
                          s ? "#222222" : "#aaaaaa", s ? "simulated" : "modelled", v[i]);
    }
    for (int i = 0; i < n; i++) {
        sb_printf(b, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", left + 35.0 + i * 70,
                  h - bottom + 16 + (i % 2) * 14);
        escape(b, labels[i]);
        sb_printf(b, "</text>");
    }
    sb_printf(b, "<text class=\"axis-title\" x=\"%d\" y=\"%d\">IPC%s</text></svg></figure>\n", left, h - 8,
              sim ? " (grey dashed: modelled, black: simulated)" : " (modelled)");
}

void sm_html_text(sm_html *b, const char *s) { escape(b, s); }

void sm_html_raw(sm_html *b, const char *s) { sb_printf(b, "%s", s); }
