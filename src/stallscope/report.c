/* Stallscope's renderings (§5): the top-level hierarchy, the leaf, twig and
 * node summaries, hot spots and partial summaries; as text and JSON; the
 * two-run comparison. (HTML: html.c.) */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "stallscope.h"

enum { HOT_SHOWN = 10 };

static double pct(uint64_t w, uint64_t of) { return of ? 100.0 * (double)w / (double)of : 0.0; }

static const ss_node *sort_tree;
static int cmp_child(const void *a, const void *b) {
    const ss_node *x = &sort_tree[*(const uint32_t *)a], *y = &sort_tree[*(const uint32_t *)b];
    if (x->weight != y->weight) return x->weight < y->weight ? 1 : -1;
    return x->type < y->type ? -1 : x->type > y->type;
}

uint32_t ss_children_sorted(const ss_node *t, uint32_t node, uint32_t **out) {
    uint32_t n = 0;
    for (uint32_t c = t[node].first_child; c; c = t[c].next_sibling) n++;
    uint32_t *a = cs_calloc(n + 1, sizeof *a);
    n = 0;
    for (uint32_t c = t[node].first_child; c; c = t[c].next_sibling) a[n++] = c;
    sort_tree = t;
    qsort(a, n, sizeof *a, cmp_child);
    *out = a;
    return n;
}

void ss_disasm(uint32_t encoding, uint64_t pc, char *buf, size_t size) {
    isa_insn in;
    if (encoding && isa_decode(encoding, &in)) isa_disasm(&in, pc, buf, size);
    else snprintf(buf, size, "?");
    for (char *c = buf; *c; c++)
        if (*c == '\t') *c = ' '; /* objdump's tab: one space in tables and HTML */
}

static void tree_text(const stallscope *s, const ss_node *t, uint32_t node, uint32_t level, uint32_t depth,
                      uint64_t base, double threshold, FILE *out) {
    uint32_t *c;
    uint32_t n = ss_children_sorted(t, node, &c);
    for (uint32_t i = 0; i < n; i++) {
        double p = pct(t[c[i]].weight, base);
        if (p < threshold) continue;
        fprintf(out, "  %*s%6.2f%%  %s\n", (int)(2 * level), "", p, ss_type_name(s, t[c[i]].type));
        if (level + 1 < depth) tree_text(s, t, c[i], level + 1, depth, base, threshold, out);
    }
    free(c);
}

void ss_text(const stallscope *s, FILE *out) {
    const ss_summary *m = ss_summary_of(s);
    const ss_options *o = ss_options_of(s);
    uint32_t nt, ni;
    const ss_node *t = ss_tree(s, &nt), *inv = ss_inverted(s, &ni);
    uint64_t base = m->opportunities;
    fprintf(out, "\nStallscope (Robinson): why completion opportunities were lost\n");
    fprintf(out, "  %llu cycles x %s width = %llu opportunities; %llu µops %s; %llu lost (%.2f%%)\n",
            (unsigned long long)m->cycles, o->at_issue ? "issue" : "commit", (unsigned long long)m->opportunities,
            (unsigned long long)m->committed, o->at_issue ? "issued" : "completed", (unsigned long long)m->lost,
            pct(m->lost, base));
    fprintf(out,
            "  accumulated %llu (%s); chains %llu, longest %llu events; truncated %.3f%%, expired %.3f%%; "
            "unique-leaf rejections %llu\n",
            (unsigned long long)m->accumulated, m->accumulated == m->lost ? "exact" : "MISMATCH",
            (unsigned long long)m->chains, (unsigned long long)m->longest_chain, pct(m->truncated, base),
            pct(m->expired, base), (unsigned long long)m->unique_rejections);
    if (o->at_issue)
        fprintf(out,
                "  completion=issue%s: measured at in-order issue, not at the virtual retirement "
                "(docs/stallscope.md)\n",
                o->completion_given ? "" : " (the in-order default)");
    else if (ss_machine_of(s)->inorder)
        fprintf(out, "  completion=commit: measured at the in-order model's virtual retirement, as asked\n");
    if (o->too_close_window)
        fprintf(out,
                "  tooclose=window: a head's too-close operand wait with empty stalls ahead takes 2b (an "
                "extension, docs/stallscope.md)\n");
    fprintf(out, "\n Top-level hierarchy (%u levels, nodes >= %.2f%% of the opportunities):\n", o->depth, o->threshold);
    tree_text(s, t, 0, 0, o->depth, base, o->threshold, out);
    fprintf(out, "\n Leaf summary (root causes):\n");
    tree_text(s, inv, 0, 0, 1, base, 0.0, out);
    fprintf(out, "\n Twig summary (each leaf and what it caused, %u levels, >= %.2f%%):\n", o->depth, o->threshold);
    tree_text(s, inv, 0, 0, o->depth, base, o->threshold, out);
    fprintf(out, "\n Node summary (every stall type on a chain, leaf and non-leaf):\n");
    const uint64_t *nt_tot = ss_node_totals(s);
    uint32_t n_types = ss_type_count(s);
    uint32_t *ord = cs_calloc(n_types + 1, sizeof *ord);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n_types; i++)
        if (nt_tot[i]) ord[k++] = i;
    for (uint32_t i = 1; i < k; i++) /* insertion sort, heaviest first */
        for (uint32_t j = i; j > 0 && nt_tot[ord[j]] > nt_tot[ord[j - 1]]; j--) {
            uint32_t x = ord[j];
            ord[j] = ord[j - 1];
            ord[j - 1] = x;
        }
    for (uint32_t i = 0; i < k; i++) {
        uint8_t f = ss_type_flags(s, ord[i]);
        fprintf(out, "  %6.2f%%  %-34s %s\n", pct(nt_tot[ord[i]], base), ss_type_name(s, ord[i]),
                f & SS_INFO       ? "informational"
                    : f & SS_LEAF ? "leaf"
                                  : "non-leaf");
    }
    free(ord);
    uint32_t nh;
    const ss_hotspot *h = ss_hotspots(s, &nh);
    if (nh) {
        fprintf(out, "\n Hot spots (static instructions whose stall events cost the most):\n");
        for (uint32_t i = 0; i < nh && i < HOT_SHOWN; i++) {
            char dis[96];
            ss_disasm(h[i].encoding, h[i].pc, dis, sizeof dis);
            fprintf(out, "  %6.2f%%  %10llx  %-28s %s\n", pct(h[i].weight, base), (unsigned long long)h[i].pc, dis,
                    ss_type_name(s, h[i].type));
        }
    }
    uint32_t np;
    const ss_partial *pa = ss_partials(s, &np);
    if (np) {
        fprintf(out, "\n Partial summaries (every %llu µops, §7.4): µops, cycles, lost, top leaves\n",
                (unsigned long long)o->interval);
        for (uint32_t i = 0; i < np; i++) {
            uint64_t opp = pa[i].cycles * (m->cycles ? m->opportunities / m->cycles : 1);
            fprintf(out, "  %10llu %9llu %6.2f%%", (unsigned long long)pa[i].uops_end, (unsigned long long)pa[i].cycles,
                    pct(pa[i].lost, opp));
            for (int j = 0; j < 3 && pa[i].top_weight[j]; j++)
                fprintf(out, "  %s %.1f%%", ss_type_name(s, pa[i].top_type[j]), pct(pa[i].top_weight[j], opp));
            fputc('\n', out);
        }
    }
}

static cJSON *tree_json(const stallscope *s, const ss_node *t, uint32_t node, uint64_t base, uint32_t level,
                        uint32_t max_level) {
    cJSON *arr = cJSON_CreateArray();
    uint32_t *c;
    uint32_t n = ss_children_sorted(t, node, &c);
    for (uint32_t i = 0; i < n; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "type", ss_type_name(s, t[c[i]].type));
        cJSON_AddNumberToObject(o, "weight", (double)t[c[i]].weight);
        cJSON_AddNumberToObject(o, "percent", pct(t[c[i]].weight, base));
        if (t[c[i]].first_child && level + 1 < max_level)
            cJSON_AddItemToObject(o, "causes", tree_json(s, t, c[i], base, level + 1, max_level));
        cJSON_AddItemToArray(arr, o);
    }
    free(c);
    return arr;
}

cJSON *ss_json(const stallscope *s, ss_symbolizer sym, void *sym_ctx) {
    const ss_summary *m = ss_summary_of(s);
    const ss_options *o = ss_options_of(s);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "cycles", (double)m->cycles);
    cJSON_AddNumberToObject(j, "opportunities", (double)m->opportunities);
    cJSON_AddNumberToObject(j, "completed", (double)m->committed);
    cJSON_AddNumberToObject(j, "lost", (double)m->lost);
    cJSON_AddNumberToObject(j, "accumulated", (double)m->accumulated);
    cJSON_AddNumberToObject(j, "truncated", (double)m->truncated);
    cJSON_AddNumberToObject(j, "expired", (double)m->expired);
    cJSON_AddNumberToObject(j, "unique_rejections", (double)m->unique_rejections);
    cJSON_AddNumberToObject(j, "longest_chain", (double)m->longest_chain);
    cJSON_AddNumberToObject(j, "type_violations", (double)m->type_violations);
    cJSON_AddNumberToObject(j, "depth", o->depth);
    cJSON_AddNumberToObject(j, "threshold", o->threshold);
    cJSON_AddStringToObject(j, "tooclose", o->too_close_window ? "window" : "leaf");
    cJSON_AddStringToObject(j, "completion", o->at_issue ? "issue" : "commit");
    uint32_t nt, ni;
    const ss_node *t = ss_tree(s, &nt), *inv = ss_inverted(s, &ni);
    cJSON_AddItemToObject(j, "tree", tree_json(s, t, 0, m->opportunities, 0, UINT32_MAX));
    cJSON *leaves = cJSON_AddObjectToObject(j, "leaf_summary");
    cJSON *twigs = tree_json(s, inv, 0, m->opportunities, 0, o->depth);
    uint32_t *c;
    uint32_t n = ss_children_sorted(inv, 0, &c);
    for (uint32_t i = 0; i < n; i++)
        cJSON_AddNumberToObject(leaves, ss_type_name(s, inv[c[i]].type), (double)inv[c[i]].weight);
    free(c);
    cJSON_AddItemToObject(j, "twig_summary", twigs);
    cJSON *nodes = cJSON_AddObjectToObject(j, "node_summary");
    const uint64_t *tot = ss_node_totals(s);
    for (uint32_t i = 0; i < ss_type_count(s); i++)
        if (tot[i]) cJSON_AddNumberToObject(nodes, ss_type_name(s, i), (double)tot[i]);
    uint32_t nh;
    const ss_hotspot *h = ss_hotspots(s, &nh);
    cJSON *hs = cJSON_AddArrayToObject(j, "hot_spots");
    for (uint32_t i = 0; i < nh && i < 50; i++) {
        cJSON *x = cJSON_CreateObject();
        char buf[96];
        snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)h[i].pc);
        cJSON_AddStringToObject(x, "pc", buf);
        ss_disasm(h[i].encoding, h[i].pc, buf, sizeof buf);
        cJSON_AddStringToObject(x, "disassembly", buf);
        const char *fn = sym ? sym(sym_ctx, h[i].pc) : NULL;
        if (fn) cJSON_AddStringToObject(x, "function", fn);
        cJSON_AddNumberToObject(x, "weight", (double)h[i].weight);
        cJSON_AddStringToObject(x, "leaf", ss_type_name(s, h[i].type));
        cJSON_AddItemToArray(hs, x);
    }
    uint32_t np;
    const ss_partial *pa = ss_partials(s, &np);
    if (np) {
        cJSON *ps = cJSON_AddArrayToObject(j, "partials");
        for (uint32_t i = 0; i < np; i++) {
            cJSON *x = cJSON_CreateObject();
            cJSON_AddNumberToObject(x, "uops_end", (double)pa[i].uops_end);
            cJSON_AddNumberToObject(x, "cycles", (double)pa[i].cycles);
            cJSON_AddNumberToObject(x, "lost", (double)pa[i].lost);
            cJSON *top = cJSON_AddObjectToObject(x, "top_leaves");
            for (int k = 0; k < 3 && pa[i].top_weight[k]; k++)
                cJSON_AddNumberToObject(top, ss_type_name(s, pa[i].top_type[k]), (double)pa[i].top_weight[k]);
            cJSON_AddItemToArray(ps, x);
        }
    }
    return j;
}

/* ---- --compare ---------------------------------------------------------------------------- */

static uint64_t leaf_weight(const stallscope *s, const char *name) {
    uint32_t n;
    const ss_node *inv = ss_inverted(s, &n);
    for (uint32_t c = inv[0].first_child; c; c = inv[c].next_sibling)
        if (!strcmp(ss_type_name(s, inv[c].type), name)) return inv[c].weight;
    return 0;
}

static uint64_t node_weight(const stallscope *s, const char *name) {
    for (uint32_t i = 0; i < ss_type_count(s); i++)
        if (!strcmp(ss_type_name(s, i), name)) return ss_node_totals(s)[i];
    return 0;
}

static double lost_cycles(const ss_summary *m, uint64_t w) {
    return m->opportunities && m->cycles ? (double)w / ((double)m->opportunities / (double)m->cycles) : 0;
}

uint32_t ss_compare_rows(const stallscope *a, const stallscope *b, bool leaves, ss_compare_row **out) {
    const ss_summary *m[2] = {ss_summary_of(a), ss_summary_of(b)};
    /* the type lists are the same sets in the same order */
    uint32_t n = ss_type_count(a) > ss_type_count(b) ? ss_type_count(a) : ss_type_count(b);
    const stallscope *names = ss_type_count(a) >= ss_type_count(b) ? a : b;
    ss_compare_row *rows = cs_calloc(n + 1, sizeof *rows);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        const char *name = ss_type_name(names, i);
        uint64_t wa = leaves ? leaf_weight(a, name) : node_weight(a, name);
        uint64_t wb = leaves ? leaf_weight(b, name) : node_weight(b, name);
        if (!wa && !wb) continue;
        ss_compare_row *r = &rows[k++];
        r->type = name;
        r->weight[0] = wa, r->weight[1] = wb;
        for (int j = 0; j < 2; j++) {
            r->percent[j] = pct(r->weight[j], m[j]->opportunities);
            r->cycles[j] = lost_cycles(m[j], r->weight[j]);
        }
    }
    *out = rows;
    return k;
}

static void compare_rows_text(const stallscope *a, const stallscope *b, bool leaves, FILE *out) {
    ss_compare_row *rows;
    uint32_t n = ss_compare_rows(a, b, leaves, &rows);
    for (uint32_t i = 0; i < n; i++) {
        const ss_compare_row *r = &rows[i];
        fprintf(out, "  %-34s %7.2f%% %10.0f   %7.2f%% %10.0f   %+10.0f\n", r->type, r->percent[0], r->cycles[0],
                r->percent[1], r->cycles[1], r->cycles[1] - r->cycles[0]);
    }
    free(rows);
}

static cJSON *compare_rows_json(const stallscope *a, const stallscope *b, bool leaves) {
    cJSON *arr = cJSON_CreateArray();
    ss_compare_row *rows;
    uint32_t n = ss_compare_rows(a, b, leaves, &rows);
    for (uint32_t i = 0; i < n; i++) {
        const ss_compare_row *r = &rows[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "type", r->type);
        for (int j = 0; j < 2; j++) {
            cJSON *side = cJSON_AddObjectToObject(o, j ? "B" : "A");
            cJSON_AddNumberToObject(side, "weight", (double)r->weight[j]);
            cJSON_AddNumberToObject(side, "percent", r->percent[j]);
            cJSON_AddNumberToObject(side, "cycles", r->cycles[j]);
        }
        cJSON_AddNumberToObject(o, "delta_percent", r->percent[1] - r->percent[0]);
        cJSON_AddNumberToObject(o, "delta_cycles", r->cycles[1] - r->cycles[0]);
        cJSON_AddItemToArray(arr, o);
    }
    free(rows);
    return arr;
}

void ss_compare_json(const stallscope *a, const char *name_a, const stallscope *b, const char *name_b,
                     struct cJSON *root) {
    const stallscope *s[2] = {a, b};
    const char *name[2] = {name_a, name_b};
    cJSON *runs = cJSON_AddArrayToObject(root, "runs");
    for (int j = 0; j < 2; j++) {
        const ss_summary *m = ss_summary_of(s[j]);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "label", j ? "B" : "A");
        cJSON_AddStringToObject(o, "config", name[j]);
        cJSON_AddStringToObject(o, "completion", ss_options_of(s[j])->at_issue ? "issue" : "commit");
        cJSON_AddNumberToObject(o, "cycles", (double)m->cycles);
        cJSON_AddNumberToObject(o, "completed", (double)m->committed);
        cJSON_AddNumberToObject(o, "opportunities", (double)m->opportunities);
        cJSON_AddNumberToObject(o, "lost", (double)m->lost);
        cJSON_AddItemToArray(runs, o);
    }
    cJSON_AddItemToObject(root, "leaf_summary", compare_rows_json(a, b, true));
    cJSON_AddItemToObject(root, "node_summary", compare_rows_json(a, b, false));
}

void ss_compare_text(const stallscope *a, const char *name_a, const stallscope *b, const char *name_b, FILE *out) {
    const ss_summary *ma = ss_summary_of(a), *mb = ss_summary_of(b);
    fprintf(out, "\nStallscope comparison: A = %s, B = %s\n", name_a, name_b);
    fprintf(out, "  cycles: A %llu, B %llu (%+.2f%%); µops A %llu, B %llu\n", (unsigned long long)ma->cycles,
            (unsigned long long)mb->cycles,
            ma->cycles ? 100.0 * ((double)mb->cycles - (double)ma->cycles) / (double)ma->cycles : 0.0,
            (unsigned long long)ma->committed, (unsigned long long)mb->committed);
    fprintf(out, "  (each column: share of that run's opportunities, and lost cycles = lost opportunities / width)\n");
    bool issue_a = ss_options_of(a)->at_issue, issue_b = ss_options_of(b)->at_issue;
    if (issue_a || issue_b) /* an in-order machine's default: the columns are not measured at one point */
        fprintf(out, "  completion measured at: A %s, B %s%s\n", issue_a ? "issue" : "commit",
                issue_b ? "issue" : "commit",
                issue_a != issue_b ? " (not the same point: --completion commit measures both at commit)" : "");
    fprintf(out, "\n Leaf summary               %18s %19s %13s\n", "A", "B", "B-A cycles");
    compare_rows_text(a, b, true, out);
    fprintf(out, "\n Node summary               %18s %19s %13s\n", "A", "B", "B-A cycles");
    compare_rows_text(a, b, false, out);
}
