/* report — results for people and scripts: terminal tables, JSON, and (later)
 * self-contained HTML with inline SVG. Analyses fill result structs; these
 * printers only read them. */
#ifndef CYCLESCOPE_REPORT_H
#define CYCLESCOPE_REPORT_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "stacks/stacks.h"
#include "uarch/uarch.h"
#include "validation/validation.h"
#include "util/util.h"

/* ---- plain-text tables ---- */

enum { TABLE_MAX_COLS = 12 };

typedef struct text_table {
    int cols;
    const char *head[TABLE_MAX_COLS];
    char align[TABLE_MAX_COLS]; /* 'l' or 'r' */
    char **cells;               /* rows * cols strings, owned */
    int rows, cap;
} text_table;

/* `align` has one 'l' or 'r' per column. */
void table_init(text_table *t, int cols, const char *const *head, const char *align);
/* Append an empty row; returns its index. */
int table_add_row(text_table *t);
void table_set(text_table *t, int row, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void table_print(const text_table *t, FILE *out, const char *indent);
void table_free(text_table *t);

/* ---- a timing run ---- */

/* Where a result came from and how the run ended (docs/json-schema.md): the
 * JSON's header, and the HTML's marks on overridden values. */
enum { REPORT_SCHEMA_VERSION = 1 };
typedef struct report_provenance {
    int argc; /* the command line, "cyclescope" first */
    char *const *argv;
    const char *input_kind; /* "program" or "trace" */
    const char *input_path;
    int input_argc; /* the program's arguments after its path (programs) */
    char *const *input_argv;
    uint64_t input_bytes;
    char input_sha256[65];     /* "" when the file could not be read */
    const char *config_source; /* the --config name or file */
    int override_count;        /* --set, in order */
    const char *const *overrides;
    uint64_t warmup_instructions, max_instructions; /* as asked; max 0: to the end */
    bool partial;                                   /* stopped before the end (Ctrl-C): the numbers cover what ran */
    const char *stopped_by;                         /* why, when partial */
    /* The guest of a live run (has_guest false for traces): "exited" with its
     * exit code, "fault" with the error, or "stopped" (--max reached first). */
    bool has_guest;
    const char *guest_state;
    int guest_exit_code;
    const char *guest_error;
    /* The configuration of a header written without a uarch_config (a profile
     * records its name, source, overrides and resolved text): its name and
     * `config show`'s INI (config_source and overrides above as for a run).
     * Both NULL and no uarch_config: the document has none ("config": null). */
    const char *config_name;
    const char *config_ini;
    bool without_limits; /* no warmup_instructions / max_instructions (nothing was timed) */
} report_provenance;

typedef struct run_summary {
    const char *program; /* what ran: program and arguments, or a trace file */
    const uarch_config *cfg;
    const core_stats *stats;
    uint64_t warmup; /* µops used for warm-up */
} run_summary;

/* The header every JSON document of cyclescope starts with (docs/json-schema.md),
 * added to `root`: "schema" (the document's kind, e.g. "cyclescope-run"), its
 * schema_version, cyclescope_version and _commit, complete (and stopped_by),
 * guest, and provenance: the command, the date (UTC), the input (path, size and
 * SHA-256), the configuration (name, source, overrides, resolved keys and the
 * SHA-256 of their `config show` text) — cfg's, else p->config_name/_ini —, and
 * the warm-up and limit. */
void report_header_json(cJSON *root, const char *schema, int schema_version, const uarch_config *cfg,
                        const report_provenance *p);
/* The JSON of a result: the header ("cyclescope-run"), units, then report_run_json's fields. */
cJSON *report_result_json(const run_summary *r, const report_provenance *p);
/* True when section.key (e.g. "core.rob_size", or a prefix such as "l1d.")
 * was given with --set. */
bool report_overridden(const report_provenance *p, const char *key);
/* The whole resolved configuration as {"section": {"key": value}}: exactly the
 * keys `config show` prints (the ones the model reads). */
cJSON *report_config_json(const uarch_config *cfg);
/* The same from `config show`'s text (an INI with [section] and `key = value` lines). */
cJSON *report_config_ini_json(const char *ini);

void report_run_text(const run_summary *r, FILE *out);
cJSON *report_run_json(const run_summary *r);
/* The in-order machines' distributions (Noonburg, Figure 5.8): the fraction of
 * cycles issuing 0, 1, 2… instructions, fetch and issue buffer occupancy, issues
 * and occupancy per pipe. Called by the two functions above for in-order runs. */
void report_inorder_text(const run_summary *r, FILE *out);
void report_inorder_json(const run_summary *r, cJSON *root);

/* The summary and the stacks (s, iv may be NULL) as CSV: one row per summary
 * value, per stage x CPI-stack component, per FLOPS component, and the same per
 * interval (docs/json-schema.md). */
void report_csv(const run_summary *r, const stacks_result *s, const stacks_intervals *iv, FILE *out);

/* Write JSON to a file (pretty-printed); "-" is stdout. */
bool report_write_json(const char *path, const cJSON *json, cs_error *err);
/* The same to an open stream. */
bool report_write_json_to(FILE *f, const char *name, const cJSON *json, cs_error *err);

/* ---- CPI / IPC / FLOPS stacks and their validation (text and JSON) ---- */

/* The three CPI stacks side by side, components in their fixed order, with
 * percentages and each component's range over the stacks; then the FLOPS stack. */
void report_stacks_text(const stacks_result *s, FILE *out);
cJSON *report_stacks_json(const stacks_result *s);
/* A component whose value differs across the three stacks by more than this
 * share of the cycles is marked uncertain (terminal and HTML). */
#define REPORT_UNCERTAIN_SHARE 0.10
/* Component c's smallest and largest value over the stacks (cycles); true when
 * the range is wide (uncertain). */
bool report_stack_uncertain(const stacks_result *s, int c, double *lo, double *hi);
/* How a FLOPS component is shown: "frontend" and "other" under names of their
 * own ("no FP work", "FP other"); the JSON keeps the names of stacks.h. */
const char *report_flops_label(flops_component c);
void report_validation_text(const validation_result *v, FILE *out);
/* Statistics over time (--interval N): a summary line and the phases' range in
 * the terminal; every interval in JSON and CSV; IPC, MPKIs and the commit stack
 * as stacked areas over time in HTML. */
void report_intervals_text(const stacks_intervals *iv, FILE *out);
cJSON *report_intervals_json(const stacks_intervals *iv);
cJSON *report_validation_json(const validation_result *v);

/* ---- comparing runs (cyclescope compare) ---- */

enum { COMPARE_MAX_RUNS = 8 };
/* One run as read back from its JSON. */
typedef struct compare_run {
    char label[2];         /* "A", "B", … */
    const char *file;      /* the JSON it came from */
    const char *program;   /* its title */
    const char *config;    /* the configuration's name */
    const char *overrides; /* "core.rob_size=64 …", or "" */
    const char *sha256;    /* of the input, or "" */
    double cycles, instructions, ipc, cpi;
    double mpki[5]; /* branch, L1I, L1D, L2, L3; < 0: not in the run */
    bool has_stacks;
    double stack[STACK_STAGES][COMP_COUNT]; /* CPI per component */
} compare_run;

/* The summary and every stack component of each run, with the change against
 * the first (A), in the fixed component order. */
void report_compare_text(const compare_run *runs, int n, FILE *out);

/* ---- the HTML report: one self-contained file, inline SVG, no scripts, no network ---- */

typedef struct html_report html_report;
html_report *html_report_begin(const char *title);
/* Sections, in the order they are added. */
/* Where the result came from (html_report_run shows it and marks overridden
 * values); `p` must live until html_report_write. */
void html_report_provenance(html_report *h, const report_provenance *p);
void html_report_run(html_report *h, const run_summary *r);
/* The three CPI stacks as side-by-side stacked bars with a legend (the paper's
 * Figure 1), and the IPC and FLOPS stacks (Figure 5). */
void html_report_stacks(html_report *h, const stacks_result *s);
void html_report_intervals(html_report *h, const stacks_intervals *iv);
/* Runs side by side: the summary with changes, and per stage the CPI stacks of
 * every run as stacked bars next to each other (at most CHART_MAX_BARS in a chart). */
void html_report_compare(html_report *h, const compare_run *runs, int n);
/* The validation table, the actual CPI reductions drawn against the stack ranges. */
void html_report_validation(html_report *h, const validation_result *v);
/* A section of an analysis from another module: `body_html` is its HTML (the
 * caller escapes text in it); id names the section's anchor. */
void html_report_section(html_report *h, const char *id, const char *title, const char *body_html);
/* A sweep (cyclescope merge): CPI against each swept parameter, one curve per
 * combination of the other parameters, a heatmap of CPI over the first two
 * parameters, and the table of every point. */
typedef struct report_sweep {
    int keys;
    const char *const *key;
    size_t points;
    const char *const *value; /* points x keys, row major; NULL: the point lacks that key */
    const double *cpi;        /* per point; NaN for a point that failed */
    const char *const *error; /* per point; NULL unless it failed */
    const int *exit_code;     /* per point: a completed point's program's non-zero exit status, else 0 (NULL: none) */
} report_sweep;
void html_report_sweep(html_report *h, const report_sweep *s);
/* RpStacks: the largest representative paths and FMT as stacked bars (report/html_rpstacks.c). */
struct rps_result;
void html_report_rpstacks(html_report *h, const struct rps_result *r);
bool html_report_write(const html_report *h, const char *path, cs_error *err);
void html_report_free(html_report *h);

#endif
