/* runner — builds runs: a µop source, a configuration and a list of analyses;
 * runs one in this process, or many machines in parallel in their own
 * processes (validation, ground truth, sweeps). The CLI verbs are thin over it.
 *
 * An analysis is a small interface (analysis_ops): created from its options,
 * it hands the core one probe observer that says what it needs, finishes into
 * a result after the run, and renders that result as text, JSON and HTML. The
 * registry finds analyses by name ("stacks", "pipeview", …): a new analysis is
 * one line in runner/registry.c plus its own module, never a change to a verb.
 *
 * Analysis lists are written "NAME[:KEY=VALUE…][,NAME…]", e.g.
 * "stacks,pipeview:file=run.log"; "none" is the empty list (the bare model).
 */
#ifndef CYCLESCOPE_RUNNER_H
#define CYCLESCOPE_RUNNER_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "probes/probes.h"
#include "trace/trace.h"
#include "uarch/uarch.h"
#include "util/util.h"

struct html_report; /* report/report.h */

enum { RUN_MAX_ANALYSES = 8, ANALYSIS_MAX_OPTIONS = 8 };

/* ---- analyses -------------------------------------------------------------------- */

/* The KEY=VALUE options of one analysis in a list. */
typedef struct analysis_options {
    int count;
    const char *key[ANALYSIS_MAX_OPTIONS];
    const char *value[ANALYSIS_MAX_OPTIONS];
    /* The run's configuration, set by the runner before create (a default may depend on the
     * model); NULL when an analysis is created only to check its options. */
    const uarch_config *cfg;
} analysis_options;

/* The value of `key`, or NULL when it was not given. */
const char *analysis_option(const analysis_options *opt, const char *key);

/* Where a run's configuration came from: the --config name or file and the
 * --set overrides applied to it, in order (what a result's provenance names).
 * source NULL: the caller did not say; the configuration is taken to be the
 * one called cfg->name, unchanged. */
typedef struct run_config_origin {
    const char *source;
    int override_count;
    const char *const *overrides;
} run_config_origin;

/* What an analysis learns when the run is over. */
typedef struct run_context {
    const char *program; /* what ran: program and arguments, or a trace file */
    const uarch_config *cfg;
    const core_stats *stats;
    uint64_t warmup; /* µops used for warm-up */
    run_config_origin origin;
    uop_source *source; /* the µops timed (the emulator's: emu_source_emu gives the guest's
                           code images to the profile); NULL when the caller does not say */
} run_context;

typedef struct analysis_ops {
    const char *name;
    const char *help; /* one line: what it does and its options */
    /* Check the options (an unknown key is an error naming it) and set up. */
    void *(*create)(const analysis_options *opt, cs_error *err);
    /* The observer to attach to the core; its `needs` says what it wants. */
    probe_observer (*observer)(void *self);
    /* After the run (also a failed one, with what was measured): turn what was
     * observed into the result; write files. False with *err on failure. */
    bool (*finish)(void *self, const run_context *run, cs_error *err);
    /* Renderings of the result; any may be NULL (nothing to show). */
    void (*text)(void *self, FILE *out);
    cJSON *(*json)(void *self);
    void (*html)(void *self, struct html_report *h);
    /* The result as plain bytes, so that a run in another process can hand it
     * back exactly (runner_pool); result_size 0: none. */
    size_t result_size;
    const void *(*result)(void *self);
    void (*destroy)(void *self);
    /* An analysis that writes files takes the option staged=1: finish then leaves them as
     * temporaries beside their names (cs_output), and keep puts them in place — the caller
     * keeps a run's files once it knows the run was one (an unsupported system call leaves
     * none). destroy removes what was not kept. NULL: the analysis writes no file. */
    bool (*keep)(void *self, cs_error *err);
} analysis_ops;

/* The registry. */
const analysis_ops *analysis_find(const char *name);
/* Every registered analysis, NULL-terminated. */
const analysis_ops *const *analysis_all(void);

/* A parsed list of analyses. */
typedef struct analysis_list {
    int count;
    const analysis_ops *ops[RUN_MAX_ANALYSES];
    analysis_options opt[RUN_MAX_ANALYSES]; /* keys and values are the list's own copies */
} analysis_list;

/* Parse "stacks,pipeview:file=x" ("none": empty). False with *err naming the
 * unknown analysis or the malformed part. */
bool analysis_list_parse(analysis_list *list, const char *text, cs_error *err);
/* Append one more (e.g. pipeview for --pipeview FILE); replaces one of the same name. */
bool analysis_list_add(analysis_list *list, const char *name, const char *key, const char *value, cs_error *err);
bool analysis_list_has(const analysis_list *list, const char *name);
/* Ask every analysis in the list that writes files (its `keep`) to stage them (staged=1). */
bool analysis_list_stage_outputs(analysis_list *list, cs_error *err);
void analysis_list_free(analysis_list *list);

/* ---- one run, in this process ------------------------------------------------------- */

typedef struct run_spec {
    const uarch_config *cfg;
    core_run_options opt;
    const analysis_list *analyses;
    const char *program; /* for the run context and the reports */
} run_spec;

/* A finished run: its statistics and its analyses, finished. */
typedef struct run_result {
    bool ok;      /* the run and every analysis finished */
    cs_error err; /* when !ok */
    core_stats stats;
    int count;
    const analysis_ops *ops[RUN_MAX_ANALYSES];
    void *self[RUN_MAX_ANALYSES];
} run_result;

/* Create the core and the analyses, time `src`, finish the analyses. Returns
 * false only when nothing ran (a bad configuration or analysis option): *err
 * says why. Otherwise *out holds the statistics and the analyses, and out->ok
 * says whether the run and every analysis completed (out->err: the first
 * failure). run_result_free in every case where true was returned. */
bool runner_run(const run_spec *spec, uop_source *src, run_result *out, cs_error *err);
/* The same, telling the analyses where the configuration came from (origin
 * NULL: as runner_run, cfg->name unchanged). */
bool runner_run_origin(const run_spec *spec, const run_config_origin *origin, uop_source *src, run_result *out,
                       cs_error *err);
void run_result_free(run_result *r);
/* The analysis called `name` in a run, or NULL. */
void *run_result_analysis(const run_result *r, const char *name);
/* Put in place the staged files of every analysis of a finished run (`keep`). */
bool run_result_keep_outputs(const run_result *r, cs_error *err);

/* Renderings of every analysis of a run, in list order. */
void runner_text(const run_result *r, FILE *out);
/* Adds each analysis' JSON to `root` under its name. */
void runner_json(const run_result *r, cJSON *root);
void runner_html(const run_result *r, struct html_report *h);

/* ---- many runs in parallel (processes) --------------------------------------------- */

/* The µop stream of a job. Each job runs in its own process (fork), so `open`
 * is called once per job, in that process: each run has its own emulator (or
 * trace reader) and core, and nothing is shared. */
typedef struct run_source {
    void *ctx;
    uop_source *(*open)(void *ctx, cs_error *err);
    /* After the run: release the source; false with *err if it failed (e.g. a guest fault). */
    bool (*close)(void *ctx, uop_source *src, cs_error *err);
    /* Optional, after the run and before close: how the guest ended, for job_result: 0, its own
     * non-zero exit code, or -(128 + signal) when a fault killed it (the exit status is then
     * 128 + signal, docs/json-schema.md). */
    int (*guest_status)(void *ctx);
} run_source;

typedef struct run_job {
    const char *name; /* for messages: "baseline", "perfect bpred", "rob=64" */
    uarch_config cfg;
    core_run_options opt; /* progress_label is ignored */
    run_source source;
    const analysis_list *analyses;
    const char *program;
    /* Copy what the job's program wrote to stdout and stderr to ours once the
     * pool is done (otherwise discarded). Every job's stdin is /dev/null and its
     * output goes to a file of its own, so each job's guest sees the same kind
     * of file. */
    bool show_output;
    run_config_origin origin; /* for the run context */
} run_job;

/* What came back from one job. */
typedef struct job_result {
    bool ok;
    cs_error err; /* when !ok: the job's own error, prefixed with its name */
    core_stats stats;
    int guest_status;               /* the source's guest_status (0 without one) */
    int count;                      /* analyses */
    void *result[RUN_MAX_ANALYSES]; /* each analysis' result bytes (result_size), or NULL */
    cJSON *json[RUN_MAX_ANALYSES];  /* each analysis' JSON, or NULL */
} job_result;

/* Run `n` jobs, at most `parallel` at a time (<= 0: the online processors),
 * each in its own process; results[i] is job i's. A job that fails (its
 * source, the model, an analysis, or the process dying) is reported in its
 * result and the others go on. Returns false only when the pool itself could
 * not work (pipe, fork): *err says why, and results are then not valid. */
bool runner_pool(const run_job *jobs, int n, int parallel, job_result *results, cs_error *err);
void job_result_free(job_result *r);

#endif
