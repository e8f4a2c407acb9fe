/* DCPI's Figure 10 (§7): per procedure, the I-cache stall cycles the culprit
 * analysis attributes, as a range, against the projected number of I-cache
 * misses (IMISS event samples × the event period), and the correlation of
 * the two. The range: at its top every dynamic stall that lists an I-cache
 * miss among its culprits (bounded by the IMISS bound when there is one), at
 * its bottom only those whose sole culprit is the I-cache. With a truth file
 * the true I-cache stall cycles (CYCLES samples whose true cause is an
 * I-cache miss × the period) are given too — a check the paper could not make. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"

static int cmp_by_samples(const void *x, const void *y) {
    const profile_proc *a = *(const profile_proc *const *)x, *b = *(const profile_proc *const *)y;
    return a->samples[PROF_CYCLES] < b->samples[PROF_CYCLES] ? 1
        : a->samples[PROF_CYCLES] > b->samples[PROF_CYCLES]  ? -1
                                                             : 0;
}

double profile_pearson(const double *x, const double *y, size_t n) {
    if (n < 2) return NAN;
    double mx = 0, my = 0;
    for (size_t i = 0; i < n; i++) mx += x[i], my += y[i];
    mx /= (double)n;
    my /= (double)n;
    double sxy = 0, sxx = 0, syy = 0;
    for (size_t i = 0; i < n; i++) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : NAN;
}

/* ranks (ties: their mean rank) of v into r */
static void ranks(const double *v, size_t n, double *r) {
    for (size_t i = 0; i < n; i++) {
        size_t below = 0, equal = 0;
        for (size_t j = 0; j < n; j++) {
            below += v[j] < v[i];
            equal += v[j] == v[i];
        }
        r[i] = (double)below + ((double)equal + 1) / 2;
    }
}

double profile_spearman(const double *x, const double *y, size_t n) {
    double *rx = cs_calloc(n + 1, sizeof *rx), *ry = cs_calloc(n + 1, sizeof *ry);
    ranks(x, n, rx);
    ranks(y, n, ry);
    double r = profile_pearson(rx, ry, n);
    free(rx);
    free(ry);
    return r;
}

bool profile_imiss_figure(const profile_analysis *a, const profile_truth *truth, profile_imiss_fig *out,
                          cs_error *err) {
    memset(out, 0, sizeof *out);
    if (!a->prof.event_period) {
        cs_error_set(err, "the profile has no event samples (record it with --events N)");
        return false;
    }
    if (truth && !profile_truth_check(&a->prof, truth, err)) return false;
    out->event_period = a->prof.event_period;
    out->exact_counts = a->exact_counts;
    out->has_truth = truth != NULL;
    /* the procedures holding 99.9% of the samples, as the paper's figure */
    const profile_proc **v = cs_calloc(a->nprocs + 1, sizeof *v);
    double total = 0;
    for (size_t i = 0; i < a->nprocs; i++) {
        v[i] = &a->procs[i];
        total += (double)a->procs[i].samples[PROF_CYCLES];
    }
    qsort(v, a->nprocs, sizeof *v, cmp_by_samples);
    out->points = cs_calloc(a->nprocs + 1, sizeof *out->points);
    double cum = 0;
    for (size_t i = 0; i < a->nprocs && cum < 0.999 * total; i++) {
        const profile_proc *p = v[i];
        cum += (double)p->samples[PROF_CYCLES];
        profile_imiss_point *pt = &out->points[out->n++];
        snprintf(pt->name, sizeof pt->name, "%s", p->name);
        pt->misses = (double)p->samples[PROF_IMISS] * (double)a->prof.event_period;
        for (size_t k = 0; k < p->ninsns; k++) {
            const profile_insn *x = &p->insns[k];
            if (truth) {
                const truth_pc *t = profile_truth_at(truth, x->pc + p->bias);
                if (t) pt->true_stall += (double)t->cause[TC_ICACHE] * a->period;
            }
            if (x->dynamic_cycles <= 0 || !(x->culprits >> CUL_ICACHE & 1)) continue;
            double c = x->dynamic_cycles;
            if (x->bound[CUL_ICACHE] >= 0 && x->bound[CUL_ICACHE] < c) c = x->bound[CUL_ICACHE];
            pt->stall_hi += c;
            if (x->culprits == 1u << CUL_ICACHE) pt->stall_lo += c;
        }
    }
    free(v);
    double *x = cs_calloc(out->n + 1, sizeof *x), *y = cs_calloc(out->n + 1, sizeof *y);
    for (size_t i = 0; i < out->n; i++) x[i] = out->points[i].misses;
    for (size_t i = 0; i < out->n; i++) y[i] = out->points[i].stall_hi;
    out->r_top = profile_pearson(x, y, out->n);
    for (size_t i = 0; i < out->n; i++) y[i] = out->points[i].stall_lo;
    out->r_bottom = profile_pearson(x, y, out->n);
    for (size_t i = 0; i < out->n; i++) y[i] = (out->points[i].stall_lo + out->points[i].stall_hi) / 2;
    out->r_mid = profile_pearson(x, y, out->n);
    out->rank_mid = profile_spearman(x, y, out->n);
    if (truth) {
        for (size_t i = 0; i < out->n; i++) x[i] = out->points[i].true_stall;
        out->r_true_mid = profile_pearson(x, y, out->n);
    }
    free(x);
    free(y);
    return true;
}

void profile_imiss_free(profile_imiss_fig *f) {
    free(f->points);
    memset(f, 0, sizeof *f);
}

static void print_r(FILE *out, const char *what, double r) {
    if (isnan(r)) fprintf(out, " %s –", what);
    else fprintf(out, " %s %.2f", what, r);
}

void profile_imiss_text(const profile_analysis *a, const profile_imiss_fig *f, FILE *out) {
    char *machine = profile_config_label(&a->prof);
    fprintf(out,
            "I-cache stall cycles against IMISS events, per procedure (DCPI Figure 10): %s on %s, every %" PRIu64
            " I-cache miss sampled, %s execution counts\n",
            a->prof.program, machine, f->event_period, f->exact_counts ? "measured" : "estimated");
    free(machine);
    fprintf(out, "%14s %14s %14s%s  %s\n", "misses (proj.)", "stall low", "stall high",
            f->has_truth ? "     true stall" : "", "procedure");
    for (size_t i = 0; i < f->n; i++) {
        const profile_imiss_point *p = &f->points[i];
        fprintf(out, "%14.0f %14.0f %14.0f", p->misses, p->stall_lo, p->stall_hi);
        if (f->has_truth) fprintf(out, " %14.0f", p->true_stall);
        fprintf(out, "  %s\n", p->name);
    }
    fprintf(out, "correlation with the projected misses over %zu procedures:", f->n);
    print_r(out, "top", f->r_top);
    print_r(out, "bottom", f->r_bottom);
    print_r(out, "midpoint", f->r_mid);
    fprintf(out, " (paper: 0.91, 0.86, 0.90);");
    print_r(out, "rank correlation of the midpoint", f->rank_mid);
    fprintf(out, "\n");
    if (f->has_truth) {
        fprintf(out, "correlation of the midpoint with the true I-cache stall cycles:");
        print_r(out, "r", f->r_true_mid);
        fprintf(out, "\n");
    }
}

static cJSON *num_or_null(double v) { return isnan(v) ? cJSON_CreateNull() : cJSON_CreateNumber(v); }

cJSON *profile_imiss_json(const profile_analysis *a, const profile_imiss_fig *f) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "program", a->prof.program);
    cJSON_AddStringToObject(root, "config", a->prof.config_name);
    cJSON_AddNumberToObject(root, "event_period", (double)f->event_period);
    cJSON_AddBoolToObject(root, "measured_counts", f->exact_counts);
    char warning[512];
    if (profile_reliability_warning(a, warning, sizeof warning)) cJSON_AddStringToObject(root, "warning", warning);
    cJSON *pts = cJSON_AddArrayToObject(root, "procedures");
    for (size_t i = 0; i < f->n; i++) {
        const profile_imiss_point *p = &f->points[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", p->name);
        cJSON_AddNumberToObject(o, "projected_misses", p->misses);
        cJSON_AddNumberToObject(o, "stall_low", p->stall_lo);
        cJSON_AddNumberToObject(o, "stall_high", p->stall_hi);
        if (f->has_truth) cJSON_AddNumberToObject(o, "true_stall", p->true_stall);
        cJSON_AddItemToArray(pts, o);
    }
    cJSON *r = cJSON_AddObjectToObject(root, "correlation");
    cJSON_AddItemToObject(r, "top", num_or_null(f->r_top));
    cJSON_AddItemToObject(r, "bottom", num_or_null(f->r_bottom));
    cJSON_AddItemToObject(r, "midpoint", num_or_null(f->r_mid));
    cJSON_AddItemToObject(r, "midpoint_rank", num_or_null(f->rank_mid));
    if (f->has_truth) cJSON_AddItemToObject(r, "midpoint_vs_true", num_or_null(f->r_true_mid));
    return root;
}

static void esc(FILE *f, const char *s) {
    for (; *s; s++) {
        if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '&') fputs("&amp;", f);
        else if (*s == '\'') fputs("&#39;", f);
        else if (*s == '"') fputs("&quot;", f);
        else if ((unsigned char)*s >= 0x20) fputc(*s, f);
    }
}

/* The chart: one vertical bar per procedure from its low to its high stall
 * cycles at its projected misses (the paper's drawing), a dot at the true
 * stall cycles when known. */
bool profile_imiss_html_write(const profile_analysis *a, const profile_imiss_fig *fig, const char *path,
                              cs_error *err) {
    cs_output o;
    FILE *f = cs_output_open(&o, path, err);
    if (!f) return false;
    double xmax = 1, ymax = 1;
    for (size_t i = 0; i < fig->n; i++) {
        const profile_imiss_point *p = &fig->points[i];
        if (p->misses > xmax) xmax = p->misses;
        if (p->stall_hi > ymax) ymax = p->stall_hi;
        if (fig->has_truth && p->true_stall > ymax) ymax = p->true_stall;
    }
    const double W = 640, H = 420, L = 80, R = 20, T = 20, B = 50;
    fprintf(f,
            "<!DOCTYPE html><html><head><meta charset='utf-8'><title>cyclescope profile: I-cache stalls against "
            "IMISS</title><style>body{font-family:sans-serif}</style></head><body>\n<h1>I-cache stall cycles "
            "against IMISS events (DCPI Figure 10)</h1>\n<p>");
    esc(f, a->prof.program);
    fprintf(f, " on ");
    char *machine = profile_config_label(&a->prof);
    esc(f, machine);
    free(machine);
    fprintf(f,
            ", every %" PRIu64 " I-cache miss sampled, %s execution counts, %zu procedures. Correlation with the "
            "projected misses: ",
            fig->event_period, fig->exact_counts ? "measured" : "estimated", fig->n);
    char warning[512];
    if (profile_reliability_warning(a, warning, sizeof warning)) {
        fprintf(f, "</p>\n<p class='warning' style='background:#fdd;padding:4px'><b>Warning:</b> ");
        esc(f, warning);
        fprintf(f, "</p>\n<p>");
    }
    const double rs[3] = {fig->r_top, fig->r_bottom, fig->r_mid};
    const char *names[3] = {"top", "bottom", "midpoint"};
    for (int k = 0; k < 3; k++) {
        if (isnan(rs[k])) fprintf(f, "%s –%s", names[k], k < 2 ? ", " : "");
        else fprintf(f, "%s %.2f%s", names[k], rs[k], k < 2 ? ", " : "");
    }
    fprintf(f, " (paper: 0.91, 0.86, 0.90).");
    if (!isnan(fig->rank_mid)) fprintf(f, " Rank correlation of the midpoint: %.2f.", fig->rank_mid);
    if (fig->has_truth) {
        if (isnan(fig->r_true_mid)) fprintf(f, " Midpoint against the true I-cache stall cycles: –.");
        else fprintf(f, " Midpoint against the true I-cache stall cycles: %.2f.", fig->r_true_mid);
    }
    fprintf(f,
            "</p>\n<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' role='img' "
            "aria-label='I-cache stall cycles against projected I-cache misses per procedure'>\n",
            W, H);
    double pw = W - L - R, ph = H - T - B;
    fprintf(f, "<line x1='%.0f' y1='%.0f' x2='%.0f' y2='%.0f' stroke='#000'/>\n", L, T + ph, L + pw, T + ph);
    fprintf(f, "<line x1='%.0f' y1='%.0f' x2='%.0f' y2='%.0f' stroke='#000'/>\n", L, T, L, T + ph);
    for (int k = 0; k <= 4; k++) {
        double xv = xmax * k / 4, yv = ymax * k / 4;
        double px = L + pw * k / 4, py = T + ph - ph * k / 4;
        fprintf(f, "<text x='%.1f' y='%.0f' font-size='11' text-anchor='middle'>%.0f</text>\n", px, T + ph + 15, xv);
        fprintf(f, "<text x='%.0f' y='%.1f' font-size='11' text-anchor='end'>%.0f</text>\n", L - 4, py + 4, yv);
    }
    fprintf(f,
            "<text x='%.0f' y='%.0f' font-size='12' text-anchor='middle'>projected I-cache misses (IMISS samples "
            "&#215; %" PRIu64 ")</text>\n",
            L + pw / 2, H - 8, fig->event_period);
    fprintf(f,
            "<text x='14' y='%.0f' font-size='12' text-anchor='middle' transform='rotate(-90 14 %.0f)'>I-cache "
            "stall cycles</text>\n",
            T + ph / 2, T + ph / 2);
    for (size_t i = 0; i < fig->n; i++) {
        const profile_imiss_point *p = &fig->points[i];
        double px = L + pw * p->misses / xmax;
        double ylo = T + ph - ph * p->stall_lo / ymax, yhi = T + ph - ph * p->stall_hi / ymax;
        fprintf(f, "<g><title>");
        esc(f, p->name);
        fprintf(f, ": %.0f misses, %.0f–%.0f stall cycles", p->misses, p->stall_lo, p->stall_hi);
        if (fig->has_truth) fprintf(f, ", true %.0f", p->true_stall);
        fprintf(f,
                "</title><line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='#1f4e9c' stroke-width='2'/>"
                "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='#1f4e9c'/>"
                "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='#1f4e9c'/>",
                px, ylo, px, yhi, px - 3, ylo, px + 3, ylo, px - 3, yhi, px + 3, yhi);
        if (fig->has_truth)
            fprintf(f, "<circle cx='%.1f' cy='%.1f' r='2.5' fill='#c0392b'/>", px, T + ph - ph * p->true_stall / ymax);
        fprintf(f, "</g>\n");
    }
    fprintf(f,
            "</svg>\n<p>Bars: the stall cycles the analysis attributes to I-cache misses (bottom: I-cache the only "
            "culprit; top: among the culprits).%s</p>\n</body></html>\n",
            fig->has_truth ? " Red dots: the true I-cache stall cycles." : "");
    bool ok = cs_output_commit(&o, err);
    cs_output_discard(&o);
    return ok;
}
