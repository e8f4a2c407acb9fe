/* The HTML report: one self-contained HTML5 file, inline CSS and inline SVG.
 *
 * No scripts, no fonts, images or style sheets from anywhere: a strict
 * Content-Security-Policy makes any attempt to fetch something an error the
 * browser reports. Hover values come from SVG <title> elements. Sections are
 * written into a buffer in the order they are added; html_report_write wraps
 * them in the document. This file is the document; html_run.c the run
 * summary; html_stacks.c the stacks and their validation; an analysis of
 * another module adds its own section with html_report_section. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html_internal.h"

/* ---- the document ---- */

/* Every network fetch is refused: the report must stand alone. */
static const char csp[] = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

static const char css[] =
    ":root{color-scheme:light}\n"
    "body{margin:0;background:#fff;color:#1d2430;"
    "font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif}\n"
    "main{max-width:1100px;margin:0 auto;padding:20px 28px 48px}\n"
    "header h1{font-size:24px;margin:0 0 2px}\n"
    "header .sub{color:#5b6574;margin:0}\n"
    "h2{font-size:19px;margin:34px 0 10px;padding-bottom:4px;border-bottom:1px solid #d8dee6}\n"
    "p{max-width:900px}\n"
    "p.lead{font-size:15px}\n"
    "p.note{color:#5b6574;font-style:italic}\n"
    "code{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:13px;background:#f1f3f6;"
    "padding:1px 4px;border-radius:3px;word-break:break-all}\n"
    ".cards{display:flex;flex-wrap:wrap;gap:12px;margin:12px 0 16px}\n"
    ".card{border:1px solid #d8dee6;border-radius:6px;padding:6px 14px;min-width:110px}\n"
    ".card .k{font-size:11px;text-transform:uppercase;letter-spacing:.04em;color:#5b6574}\n"
    ".card .v{font-size:21px;font-weight:600;font-variant-numeric:tabular-nums}\n"
    ".two-col{display:grid;grid-template-columns:1fr 1fr;gap:28px;align-items:start}\n"
    ".two-col table{width:100%}\n"
    "td.name{white-space:nowrap}\n"
    "table{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:8px 0 12px}\n"
    "caption{text-align:left;font-weight:600;padding:0 0 4px}\n"
    "th,td{padding:3px 10px;border-bottom:1px solid #e5e9ef;text-align:left;vertical-align:top}\n"
    "thead th{border-bottom:2px solid #b9c2ce;font-weight:600;vertical-align:bottom}\n"
    "tfoot th,tfoot td{border-top:2px solid #b9c2ce;font-weight:600}\n"
    "table.kv th{font-weight:normal;color:#5b6574;white-space:nowrap}\n"
    ".num{text-align:right;white-space:nowrap}\n"
    "td.pct{color:#5b6574}\n"
    "td.doc{color:#5b6574;font-size:13px}\n"
    "td.ok{color:#117733;font-weight:600}\n"
    "p.warn{background:#fdecea;border-left:4px solid #b02a0e;padding:6px 10px}\n"
    "mark{background:#fff3bf;padding:0 3px;border-radius:2px}\n"
    ".uncertain{color:#b02a0e;font-weight:600;font-size:12px}\n"
    "tr.ovr th,tr.ovr td{background:#fffbe6}\n"
    "td.bad{color:#b02a0e;font-weight:600}\n"
    "tr.dim td{color:#8a93a0}\n"
    ".swatch{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:7px;vertical-align:-1px;"
    "border:1px solid rgba(0,0,0,.25)}\n"
    "figure{margin:12px 0}\n"
    "figcaption{color:#5b6574;font-size:13px}\n"
    "svg{display:block;max-width:100%;height:auto}\n"
    "svg text{fill:#1d2430;font-size:13px}\n"
    "svg .tick{font-size:12px;fill:#4a5565}\n"
    "svg .axis{stroke:#4a5565;stroke-width:1}\n"
    "svg .grid{stroke:#e3e7ed;stroke-width:1}\n"
    "svg .zero{stroke:#4a5565;stroke-width:1}\n"
    "svg .axis-title{font-size:13px;fill:#4a5565}\n"
    "svg .seg{stroke:#fff;stroke-width:.75}\n"
    "svg .seg:hover{stroke:#000;stroke-width:2}\n"
    "svg .seg-label{font-size:11.5px;pointer-events:none}\n"
    "svg .seg-label.on-dark{fill:#fff}\n"
    "svg .seg-label.on-light{fill:#000}\n"
    "svg .bar-total{font-weight:600}\n"
    "svg .bar-label{font-size:14px;font-weight:600}\n"
    "svg .swatch{stroke:rgba(0,0,0,.25)}\n"
    "svg .legend-doc{fill:#5b6574;font-size:12.5px}\n"
    "svg .panel-title{font-size:15px;font-weight:600}\n"
    "svg .panel-note{fill:#5b6574;font-size:12.5px}\n"
    "svg .case-name{font-weight:600}\n"
    "svg .case-note{fill:#5b6574;font-size:12px}\n"
    "svg .dim{opacity:.5}\n"
    "svg .range{fill:#cfdbe8;stroke:#4477AA;stroke-width:1}\n"
    "svg .cap{stroke:#4477AA;stroke-width:2}\n"
    "svg .stage-tick{fill:#1d2430}\n"
    "svg .stage-letter{font-size:10.5px;fill:#4a5565}\n"
    "svg .actual{stroke:#fff;stroke-width:1.5}\n"
    "svg .actual.in{fill:#117733}\n"
    "svg .actual.out{fill:#CC3311}\n"
    "svg .sum{fill:none;stroke:#882255;stroke-width:2}\n"
    "footer{margin-top:40px;color:#8a93a0;font-size:12px}\n"
    "@media print{main{max-width:none;padding:0}section,figure,table{break-inside:avoid}"
    "h2{break-after:avoid}.seg:hover{stroke:#fff}}\n";

html_report *html_report_begin(const char *title) {
    html_report *h = cs_calloc(1, sizeof *h);
    h->title = cs_strdup(title ? title : "cyclescope report");
    return h;
}

static void document(const html_report *h, strbuf *d) {
    sb_put(d, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    sb_printf(d, "<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n", csp);
    sb_put(d, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    sb_put(d, "<meta name=\"generator\" content=\"cyclescope " CYCLESCOPE_VERSION "\">\n<title>");
    sb_escape(d, h->title);
    sb_printf(d, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n<header><h1>", css);
    sb_escape(d, h->title);
    sb_put(d,
           "</h1><p class=\"sub\">cyclescope " CYCLESCOPE_VERSION
           " — multi-stage CPI stacks and FLOPS stacks after Eyerman, Heirman, Du Bois and Hur, "
           "“Extending the Performance Analysis Tool Box”.</p></header>\n");
    if (h->body.s) sb_put(d, h->body.s);
    sb_put(d,
           "<footer>Self-contained report: no scripts, nothing loaded from elsewhere.</footer>\n"
           "</main>\n</body>\n</html>\n");
}

bool html_report_write(const html_report *h, const char *path, cs_error *err) {
    if (!h) { /* html_report_begin ran out of memory */
        cs_error_set(err, "%s: out of memory", path);
        return false;
    }
    strbuf d = {0};
    document(h, &d);
    bool ok;
    if (!strcmp(path, "-")) {
        ok = fwrite(d.s, 1, d.len, stdout) == d.len && fflush(stdout) == 0;
        if (!ok) cs_error_set(err, "stdout: write failed: %s", strerror(errno));
    } else {
        cs_output out;
        FILE *f = cs_output_open(&out, path, err);
        ok = f && fwrite(d.s, 1, d.len, f) == d.len;
        if (ok) ok = cs_output_commit(&out, err);
        else if (f) cs_error_set(err, "%s: write failed: %s", path, strerror(errno));
        cs_output_discard(&out);
    }
    sb_free(&d);
    return ok;
}

void html_report_section(html_report *h, const char *id, const char *title, const char *body_html) {
    if (!h) return;
    section_open(&h->body, id, title);
    if (body_html) sb_put(&h->body, body_html);
    section_close(&h->body);
}

void html_report_free(html_report *h) {
    if (!h) return;
    sb_free(&h->body);
    free(h->title);
    free(h);
}
