/* Renderings of a profile analysis: the dcpiprof-like table of procedures, the
 * dcpicalc-like annotated listing, JSON, and HTML with a heat-coloured listing
 * and each procedure's CFG as SVG. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"

static int cmp_proc_samples(const void *a, const void *b) {
    const profile_proc *x = *(const profile_proc *const *)a, *y = *(const profile_proc *const *)b;
    if (x->samples[0] != y->samples[0]) return x->samples[0] > y->samples[0] ? -1 : 1;
    return x->start < y->start ? -1 : x->start > y->start;
}

static const profile_proc **by_samples(const profile_analysis *a) {
    const profile_proc **v = cs_calloc(a->nprocs + 1, sizeof *v);
    for (size_t i = 0; i < a->nprocs; i++) v[i] = &a->procs[i];
    qsort(v, a->nprocs, sizeof *v, cmp_proc_samples);
    return v;
}

static void culprit_marks(const profile_insn *x, char *buf, size_t size) {
    buf[0] = '\0';
    size_t n = 0;
    if (x->static_reason != SR_NONE && x->m > 1)
        n += (size_t)snprintf(buf + n, size - n, "static:%s%s", static_reason_name((static_reason)x->static_reason),
                              x->static_culprit_pc ? "" : " ");
    if (x->static_reason != SR_NONE && x->m > 1 && x->static_culprit_pc && n < size)
        n += (size_t)snprintf(buf + n, size - n, "<-%" PRIx64 " ", x->static_culprit_pc);
    if (x->dynamic_cycles > 0 && n < size) {
        if (x->unexplained) n += (size_t)snprintf(buf + n, size - n, "dyn:unexplained");
        for (int c = 0; c < CUL_COUNT && n < size; c++) {
            if (!(x->culprits >> c & 1)) continue;
            n += (size_t)snprintf(buf + n, size - n, "%s%s",
                                  n && buf[n - 1] != ' ' ? "," : "dyn:", profile_culprit_name((profile_culprit)c));
            if (x->culprit_pc[c] && n < size) n += (size_t)snprintf(buf + n, size - n, "<-%" PRIx64, x->culprit_pc[c]);
        }
    }
}

bool profile_frequencies_reliable(const profile_analysis *a) { return !strcmp(a->prof.model, "inorder"); }

bool profile_reliability_warning(const profile_analysis *a, char *buf, size_t size) {
    buf[0] = '\0';
    if (profile_frequencies_reliable(a) || a->exact_counts) return false;
    /* the measured reason: docs/profile.md, "Out-of-order machines" */
    if (a->prof.sample_point == PROFILE_POINT_COMMIT_CYCLE) {
        snprintf(buf, size,
                 "%s is an out-of-order machine: DCPI's frequency estimates from its commit-cycle samples (and the "
                 "CPI and culprits built on them) meet the accuracy goals in one run only at short periods (100 "
                 "cycles on the graded workloads, not 300); the sampling error grows with the period: record a "
                 "smaller --period or merge runs (docs/profile.md, \"Out-of-order machines\")",
                 a->prof.config_name);
        return true;
    }
    if (a->prof.sample_point == PROFILE_POINT_COMMIT_SLOT) {
        snprintf(buf, size,
                 "%s is an out-of-order machine: DCPI's frequency estimates from its commit-slot samples (and the "
                 "CPI and culprits built on them) do not meet the accuracy goals there yet; an execution gets one "
                 "commit slot of W a cycle, so an instruction has W times fewer samples than at one cycle each and "
                 "the sampling error is larger: record a smaller --period or merge runs (docs/profile.md, "
                 "\"Out-of-order machines\")",
                 a->prof.config_name);
        return true;
    }
    snprintf(buf, size,
             "%s is an out-of-order machine: DCPI's frequency estimates (and the CPI and culprits built on them) are "
             "not reliable there; the method assumes in-order issue, and out of order the window overlaps an "
             "instruction's wait with older work, so it spends fewer cycles at the head than its block's static "
             "schedule says (docs/profile.md, \"Out-of-order machines\")",
             a->prof.config_name);
    return true;
}

void profile_report_text(const profile_analysis *a, FILE *out) {
    const profile_data *p = &a->prof;
    char *machine = profile_config_label(p);
    fprintf(out,
            "profile of %s on %s (%s): %" PRIu64 " CYCLES samples, period %.0f cycles (%" PRIu64 "-%" PRIu64
            "), %" PRIu64 " with an empty window, %" PRIu64 " outside any procedure\n",
            p->program, machine, p->model, p->samples, a->period, p->period_min, p->period_max, p->idle_samples,
            a->samples_outside);
    free(machine);
    fprintf(out, "%10s %7s %7s %14s %8s %8s %8s %8s  %s\n", "samples", "%", "cum%", "est.cycles", "static%", "dynamic%",
            "unexpl%", "insns", "procedure");
    const profile_proc **v = by_samples(a);
    double total = (double)(p->samples - p->idle_samples), cum = 0;
    for (size_t i = 0; i < a->nprocs; i++) {
        const profile_proc *x = v[i];
        double pct = total > 0 ? 100.0 * (double)x->samples[0] / total : 0;
        cum += pct;
        double c = x->cycles > 0 ? x->cycles : 1;
        fprintf(out, "%10" PRIu64 " %6.2f%% %6.2f%% %14.0f %7.1f%% %7.1f%% %7.1f%% %8zu  %s%s\n", x->samples[0], pct,
                cum, x->cycles, 100 * x->static_stall / c, 100 * x->dynamic_stall / c, 100 * x->unexplained / c,
                x->ninsns, x->name, x->missing_edges ? " (missing edges)" : "");
    }
    /* culprit summary (§7: procedure level) */
    fprintf(out, "\ndynamic stall cycles by culprit (a stall with k candidates gives each 1/k):\n");
    fprintf(out, "%-24s", "procedure");
    for (int c = 0; c < CUL_COUNT; c++) fprintf(out, " %12s", profile_culprit_name((profile_culprit)c));
    fprintf(out, " %12s\n", "unexplained");
    for (size_t i = 0; i < a->nprocs && i < 20; i++) {
        const profile_proc *x = v[i];
        fprintf(out, "%-24.24s", x->name);
        for (int c = 0; c < CUL_COUNT; c++) fprintf(out, " %12.0f", x->culprit_cycles[c]);
        fprintf(out, " %12.0f\n", x->unexplained);
    }
    free(v);
}

void profile_annotate_text(const profile_analysis *a, FILE *out) {
    const profile_proc **v = by_samples(a);
    for (size_t i = 0; i < a->nprocs; i++) {
        const profile_proc *p = v[i];
        fprintf(out, "\n%s [0x%" PRIx64 ", 0x%" PRIx64 "): %" PRIu64 " samples, %zu blocks, %u classes%s\n", p->name,
                p->start, p->end, p->samples[0], p->nblocks, p->nclasses,
                p->missing_edges ? ", missing edges (every block its own class)" : "");
        if (p->segments_left_out)
            fprintf(out,
                    "  %zu segment(s) after a call left out of their class' estimate: ran fewer times than "
                    "the rest (a call that did not return: docs/profile.md, \"Calls that do not return\")\n",
                    p->segments_left_out);
        fprintf(out, "%10s  %-32s %8s %3s %12s %-6s %7s  %s\n", "address", "instruction", "samples", "M", "count",
                "conf", "cpi", "culprits");
        for (size_t k = 0; k < p->ninsns; k++) {
            const profile_insn *x = &p->insns[k];
            if (p->blocks[x->block].first == k)
                fprintf(out, "%10s  -- block %u (class %u)\n", "", x->block, p->blocks[x->block].eclass);
            char marks[256];
            culprit_marks(x, marks, sizeof marks);
            char cnt[32], cpi[16];
            if (x->count < 0) snprintf(cnt, sizeof cnt, "?");
            else snprintf(cnt, sizeof cnt, "%.0f", x->count);
            if (isnan(x->cpi)) snprintf(cpi, sizeof cpi, "-");
            else snprintf(cpi, sizeof cpi, "%.2f", x->cpi);
            char text[64];
            snprintf(text, sizeof text, "%s", x->text);
            for (char *t = text; *t; t++)
                if (*t == '\t') *t = ' ';
            char m[16];
            snprintf(m, sizeof m, "%u%s", x->m, x->m_varies ? "?" : "");
            fprintf(out, "%10" PRIx64 "  %-32.32s %8" PRIu64 " %3s %12s %-6s %7s  %s\n", x->pc, text,
                    x->samples[PROF_CYCLES], m, cnt, profile_confidence_name((profile_confidence)x->confidence), cpi,
                    marks);
        }
    }
    free(v);
}

cJSON *profile_json(const profile_analysis *a) {
    cJSON *root = cJSON_CreateObject();
    const profile_data *p = &a->prof;
    cJSON_AddStringToObject(root, "program", p->program);
    cJSON_AddStringToObject(root, "config", p->config_name);
    cJSON_AddStringToObject(root, "model", p->model);
    cJSON_AddStringToObject(root, "sample_point", profile_sample_point_name((profile_sample_point)p->sample_point));
    /* at a commit point time is counted in commit slots, W a cycle: a count is F x period x slots */
    cJSON_AddNumberToObject(root, "slots", a->slots);
    /* DCPI's estimation assumes in-order issue (docs/profile.md, "Out-of-order machines") */
    cJSON_AddBoolToObject(root, "frequencies_reliable", profile_frequencies_reliable(a));
    char warning[512];
    if (profile_reliability_warning(a, warning, sizeof warning)) cJSON_AddStringToObject(root, "warning", warning);
    cJSON_AddNumberToObject(root, "samples", (double)p->samples);
    cJSON_AddNumberToObject(root, "idle_samples", (double)p->idle_samples);
    cJSON_AddNumberToObject(root, "period", a->period);
    cJSON_AddNumberToObject(root, "cycles", (double)p->cycles);
    cJSON_AddNumberToObject(root, "samples_outside", (double)a->samples_outside);
    if (p->nimages) { /* the loadmap (profile version 7): each library's CYCLES samples */
        cJSON *images = cJSON_AddArrayToObject(root, "images");
        for (size_t i = 0; i < p->nimages; i++) {
            const profile_image *img = &p->images[i];
            uint64_t n = 0;
            for (size_t k = 0; k < p->npcs; k++)
                if (profile_image_of(p, p->pcs[k].pc) == (long)i) n += p->pcs[k].count[PROF_CYCLES];
            cJSON *o = cJSON_CreateObject();
            char bias[24];
            snprintf(bias, sizeof bias, "0x%" PRIx64, img->bias);
            cJSON_AddStringToObject(o, "name", profile_image_name(img));
            cJSON_AddStringToObject(o, "path", img->path);
            cJSON_AddStringToObject(o, "host_path", img->host_path);
            cJSON_AddStringToObject(o, "bias", bias);
            cJSON_AddNumberToObject(o, "samples", (double)n);
            cJSON_AddItemToArray(images, o);
        }
    }
    cJSON *procs = cJSON_AddArrayToObject(root, "procedures");
    for (size_t i = 0; i < a->nprocs; i++) {
        const profile_proc *x = &a->procs[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", x->name);
        /* the code image: the executable's name, or the library's (its procedures IMAGE:NAME) */
        const char *exe =
            a->prof.program && strrchr(a->prof.program, '/') ? strrchr(a->prof.program, '/') + 1 : a->prof.program;
        cJSON_AddStringToObject(o, "image",
                                x->image > 0 ? profile_image_name(&a->prof.images[x->image - 1])
                                    : exe    ? exe
                                             : "");
        char hex[32];
        snprintf(hex, sizeof hex, "0x%" PRIx64, x->start);
        cJSON_AddStringToObject(o, "start", hex);
        cJSON_AddNumberToObject(o, "samples", (double)x->samples[0]);
        cJSON_AddBoolToObject(o, "missing_edges", x->missing_edges);
        cJSON_AddNumberToObject(o, "segments_left_out", (double)x->segments_left_out);
        cJSON_AddNumberToObject(o, "cycles", x->cycles);
        cJSON_AddNumberToObject(o, "static_stall_cycles", x->static_stall);
        cJSON_AddNumberToObject(o, "dynamic_stall_cycles", x->dynamic_stall);
        cJSON_AddNumberToObject(o, "unexplained_cycles", x->unexplained);
        cJSON *cc = cJSON_AddObjectToObject(o, "culprit_cycles");
        for (int c = 0; c < CUL_COUNT; c++)
            cJSON_AddNumberToObject(cc, profile_culprit_name((profile_culprit)c), x->culprit_cycles[c]);
        cJSON *insns = cJSON_AddArrayToObject(o, "instructions");
        for (size_t k = 0; k < x->ninsns; k++) {
            const profile_insn *n = &x->insns[k];
            cJSON *j = cJSON_CreateObject();
            snprintf(hex, sizeof hex, "0x%" PRIx64, n->pc);
            cJSON_AddStringToObject(j, "pc", hex);
            cJSON_AddStringToObject(j, "insn", n->text);
            cJSON_AddNumberToObject(j, "samples", (double)n->samples[PROF_CYCLES]);
            for (int e = 1; e < PROF_EVENT_COUNT; e++)
                if (n->samples[e])
                    cJSON_AddNumberToObject(j, profile_event_name((profile_event)e), (double)n->samples[e]);
            cJSON_AddNumberToObject(j, "block", n->block);
            cJSON_AddNumberToObject(j, "m", n->m);
            if (n->m_varies) { /* Mi depends on the preceding block: not an issue point */
                cJSON_AddBoolToObject(j, "m_varies", true);
                cJSON_AddNumberToObject(j, "m_static", n->m_static); /* weighted by the edges' estimates */
            }
            if (n->count >= 0) cJSON_AddNumberToObject(j, "count", n->count);
            else cJSON_AddNullToObject(j, "count");
            cJSON_AddStringToObject(j, "confidence", profile_confidence_name((profile_confidence)n->confidence));
            if (isnan(n->cpi)) cJSON_AddNullToObject(j, "cpi");
            else cJSON_AddNumberToObject(j, "cpi", n->cpi);
            if (n->m > 1 && n->static_reason != SR_NONE) {
                cJSON *st = cJSON_AddObjectToObject(j, "static_stall");
                cJSON_AddNumberToObject(st, "cycles", n->m - 1);
                cJSON_AddStringToObject(st, "reason", static_reason_name((static_reason)n->static_reason));
                if (n->static_culprit_pc) {
                    snprintf(hex, sizeof hex, "0x%" PRIx64, n->static_culprit_pc);
                    cJSON_AddStringToObject(st, "culprit_pc", hex);
                }
            }
            cJSON_AddNumberToObject(j, "dynamic_stall_cycles", n->dynamic_cycles);
            cJSON *cul = cJSON_AddArrayToObject(j, "culprits");
            for (int c = 0; c < CUL_COUNT; c++) {
                if (!(n->culprits >> c & 1)) continue;
                cJSON *q = cJSON_CreateObject();
                cJSON_AddStringToObject(q, "cause", profile_culprit_name((profile_culprit)c));
                if (n->culprit_pc[c]) {
                    snprintf(hex, sizeof hex, "0x%" PRIx64, n->culprit_pc[c]);
                    cJSON_AddStringToObject(q, "pc", hex);
                }
                if (n->bound[c] >= 0) cJSON_AddNumberToObject(q, "bound_cycles", n->bound[c]);
                cJSON_AddItemToArray(cul, q);
            }
            if (n->unexplained) cJSON_AddBoolToObject(j, "unexplained", true);
            cJSON_AddItemToArray(insns, j);
        }
        cJSON *edges = cJSON_AddArrayToObject(o, "edges");
        for (size_t e = 0; e < x->nedges; e++) {
            const profile_edge *d = &x->edges[e];
            cJSON *j = cJSON_CreateObject();
            if (d->from == PROFILE_ENTRY) cJSON_AddStringToObject(j, "from", "entry");
            else cJSON_AddNumberToObject(j, "from", d->from);
            if (d->to == PROFILE_EXIT) cJSON_AddStringToObject(j, "to", "exit");
            else cJSON_AddNumberToObject(j, "to", d->to);
            cJSON_AddNumberToObject(j, "class", d->eclass);
            if (d->count >= 0) cJSON_AddNumberToObject(j, "count", d->count * a->count_period);
            else cJSON_AddNullToObject(j, "count");
            cJSON_AddItemToArray(edges, j);
        }
        cJSON_AddItemToArray(procs, o);
    }
    return root;
}

/* ---- HTML --------------------------------------------------------------------------- */

static void html_escape(FILE *f, const char *s) {
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\t': fputc(' ', f); break;
        default: fputc(*s, f);
        }
    }
}

/* white (no samples) to red (the hottest instruction) */
static void heat(double v, char *buf, size_t size) {
    if (v < 0) v = 0;
    if (v > 1) v = 1;
    int g = (int)(255 - 200 * v);
    snprintf(buf, size, "rgb(255,%d,%d)", g, g);
}

/* The CFG as SVG: blocks stacked in address order, edges as curves on the
 * right (taken) and straight arrows (fall-through); width by estimated count. */
static void svg_cfg(FILE *f, const profile_analysis *a, const profile_proc *p) {
    size_t nb = p->nblocks > 200 ? 200 : p->nblocks;
    int bh = 22, gap = 14, w = 420;
    int h = (int)nb * (bh + gap) + 2 * (bh + gap);
    double maxc = 1;
    for (size_t b = 0; b < nb; b++)
        if (p->blocks[b].count > maxc) maxc = p->blocks[b].count;
    fprintf(f,
            "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' font-family='monospace' font-size='11'>\n",
            w + 200, h);
    fprintf(f,
            "<defs><marker id='ar' markerWidth='6' markerHeight='6' refX='5' refY='3' orient='auto' "
            "markerUnits='userSpaceOnUse'>"
            "<path d='M0,0 L6,3 L0,6 z' fill='#555'/></marker></defs>\n");
    int y0 = bh + gap;
    fprintf(f, "<text x='10' y='14'>entry</text>\n");
    for (size_t b = 0; b < nb; b++) {
        const profile_block *bl = &p->blocks[b];
        char col[32];
        heat(bl->count > 0 ? bl->count / maxc : 0, col, sizeof col);
        int y = y0 + (int)b * (bh + gap);
        fprintf(f, "<rect x='10' y='%d' width='%d' height='%d' fill='%s' stroke='#333'/>\n", y, w - 120, bh, col);
        fprintf(f, "<text x='14' y='%d'>B%zu %" PRIx64 " n=%u cls=%u count=", y + 15, b, p->insns[bl->first].pc, bl->n,
                bl->eclass);
        if (bl->count >= 0)
            fprintf(f, "%.0f %s</text>\n", bl->count * a->count_period,
                    profile_confidence_name((profile_confidence)bl->confidence));
        else fprintf(f, "?</text>\n");
    }
    for (size_t e = 0; e < p->nedges; e++) {
        const profile_edge *d = &p->edges[e];
        if (d->from != PROFILE_ENTRY && d->from >= nb) continue;
        if (d->to != PROFILE_EXIT && d->to >= nb) continue;
        int yf = d->from == PROFILE_ENTRY ? 16 : y0 + (int)d->from * (bh + gap) + bh;
        int yt = d->to == PROFILE_EXIT ? h - 4 : y0 + (int)d->to * (bh + gap);
        double sw = d->count > 0 ? 1 + 4 * d->count / maxc : 1;
        if (sw > 5) sw = 5;
        const char *dash = d->count < 0 ? " stroke-dasharray='3,3'" : "";
        if (d->kind == 1 || d->to == PROFILE_EXIT ||
            (d->to != PROFILE_EXIT && d->from != PROFILE_ENTRY && d->to != d->from + 1)) {
            int x = w - 110 + (int)(e % 12) * 8;
            fprintf(f,
                    "<path d='M%d,%d C%d,%d %d,%d %d,%d' fill='none' stroke='#555' stroke-width='%.1f'%s "
                    "marker-end='url(#ar)'/>\n",
                    w - 110, yf - bh / 2, x + 40, yf, x + 40, yt, w - 110, yt + 4, sw, dash);
        } else {
            fprintf(
                f,
                "<line x1='60' y1='%d' x2='60' y2='%d' stroke='#555' stroke-width='%.1f'%s marker-end='url(#ar)'/>\n",
                yf, yt, sw, dash);
        }
    }
    fprintf(f, "<text x='10' y='%d'>exit</text>\n", h - 2);
    if (nb < p->nblocks) fprintf(f, "<text x='200' y='%d'>(first 200 of %zu blocks)</text>\n", h - 2, p->nblocks);
    fprintf(f, "</svg>\n");
}

bool profile_html_write(const profile_analysis *a, const char *path, cs_error *err) {
    cs_output out;
    FILE *f = cs_output_open(&out, path, err);
    if (!f) return false;
    fprintf(f,
            "<!DOCTYPE html><html><head><meta charset='utf-8'><title>cyclescope profile</title><style>"
            "body{font-family:sans-serif}table{border-collapse:collapse}td,th{padding:1px 6px;font-family:monospace;"
            "font-size:12px}th{background:#eee}.blk td{border-top:1px solid #999}</style></head><body>\n");
    fprintf(f, "<h1>Profile of ");
    html_escape(f, a->prof.program);
    char *machine = profile_config_label(&a->prof);
    fprintf(f, " on ");
    html_escape(f, machine);
    free(machine);
    fprintf(f, "</h1>\n<p>%" PRIu64 " CYCLES samples, period %.0f cycles.</p>\n", a->prof.samples, a->period);
    char warning[512];
    if (profile_reliability_warning(a, warning, sizeof warning)) {
        fprintf(f, "<p class='warning' style='background:#fdd;padding:4px'><b>Warning:</b> ");
        html_escape(f, warning);
        fprintf(f, "</p>\n");
    }
    const profile_proc **v = by_samples(a);
    fprintf(f,
            "<table><tr><th>samples</th><th>procedure</th><th>static%%</th><th>dynamic%%</th><th>unexplained%%</th></"
            "tr>\n");
    for (size_t i = 0; i < a->nprocs; i++) {
        const profile_proc *p = v[i];
        double c = p->cycles > 0 ? p->cycles : 1;
        fprintf(f, "<tr><td>%" PRIu64 "</td><td><a href='#p%zu'>", p->samples[0], (size_t)(p - a->procs));
        html_escape(f, p->name);
        fprintf(f, "</a></td><td>%.1f</td><td>%.1f</td><td>%.1f</td></tr>\n", 100 * p->static_stall / c,
                100 * p->dynamic_stall / c, 100 * p->unexplained / c);
    }
    fprintf(f, "</table>\n");
    for (size_t i = 0; i < a->nprocs && i < 50; i++) {
        const profile_proc *p = v[i];
        uint64_t hottest = 1;
        for (size_t k = 0; k < p->ninsns; k++)
            if (p->insns[k].samples[0] > hottest) hottest = p->insns[k].samples[0];
        fprintf(f, "<h2 id='p%zu'>", (size_t)(p - a->procs));
        html_escape(f, p->name);
        fprintf(f, "%s</h2>\n", p->missing_edges ? " (missing edges: every block its own class)" : "");
        svg_cfg(f, a, p);
        fprintf(f,
                "<table><tr><th>address</th><th>instruction</th><th>samples</th><th>M</th><th>count</th>"
                "<th>confidence</th><th>cpi</th><th>culprits</th></tr>\n");
        for (size_t k = 0; k < p->ninsns; k++) {
            const profile_insn *x = &p->insns[k];
            char col[32], marks[256];
            heat((double)x->samples[0] / (double)hottest, col, sizeof col);
            culprit_marks(x, marks, sizeof marks);
            fprintf(f, "<tr%s style='background:%s'><td>%" PRIx64 "</td><td>",
                    p->blocks[x->block].first == k ? " class='blk'" : "", col, x->pc);
            html_escape(f, x->text);
            fprintf(f, "</td><td>%" PRIu64 "</td><td>%u</td><td>", x->samples[0], x->m);
            if (x->count >= 0) fprintf(f, "%.0f", x->count);
            else fprintf(f, "?");
            fprintf(f, "</td><td>%s</td><td>", profile_confidence_name((profile_confidence)x->confidence));
            if (!isnan(x->cpi)) fprintf(f, "%.2f", x->cpi);
            fprintf(f, "</td><td>");
            html_escape(f, marks);
            fprintf(f, "</td></tr>\n");
        }
        fprintf(f, "</table>\n");
    }
    free(v);
    fprintf(f, "</body></html>\n");
    bool ok = cs_output_commit(&out, err);
    cs_output_discard(&out);
    return ok;
}
