/* sweep — design-space campaigns: a grid of configuration values, one run per
 * point, one result file per point named by the hash of the point's resolved
 * configuration (so a campaign resumes where it stopped and never runs a
 * point twice), job lists for GNU parallel and Slurm, and the merge of the
 * results into one table (docs/sweep.md).
 *
 * This module knows configurations and files; running a point is the
 * runner's job (cli/cmd_sweep.c puts the two together).
 */
#ifndef CYCLESCOPE_SWEEP_H
#define CYCLESCOPE_SWEEP_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "uarch/uarch.h"
#include "util/util.h"

enum {
    SWEEP_MAX_AXES = 8,
    SWEEP_MAX_VALUES = 256,     /* per axis */
    SWEEP_MAX_POINTS = 1000000, /* the product */
    SWEEP_POINT_VERSION = 1,
    SWEEP_HASH_LEN = 16, /* hex digits */
};
#define SWEEP_POINT_FORMAT "cyclescope-sweep-point"

/* ---- the grid ---- */

typedef struct sweep_axis {
    char *key; /* section.key */
    int count;
    char *values[SWEEP_MAX_VALUES];
} sweep_axis;

typedef struct sweep_grid {
    int axes;
    sweep_axis axis[SWEEP_MAX_AXES];
    size_t points; /* product of the counts */
} sweep_grid;

/* Parse "section.key=v1,v2,… section.key=…" (axes separated by white space;
 * an axis may be given once). Syntax only; sweep_grid_check knows the keys. */
bool sweep_grid_parse(sweep_grid *g, const char *text, cs_error *err);
void sweep_grid_free(sweep_grid *g);
/* Point `index`'s value of each axis (the last axis varies fastest). */
void sweep_point_values(const sweep_grid *g, size_t index, const char *values[SWEEP_MAX_AXES]);
/* The configuration of point `index`: base with the point's values set,
 * validated. *err names the point's settings and the bad key or value. */
bool sweep_point_config(const sweep_grid *g, const uarch_config *base, size_t index, uarch_config *out, cs_error *err);
/* Every value of every axis, then every point, against `base`: an unknown key,
 * a bad value or an invalid combination fails here, before anything runs. */
bool sweep_grid_check(const sweep_grid *g, const uarch_config *base, cs_error *err);
/* "core.rob_size=64 l1d.size=32K" for point `index` (a grid of one point). */
char *sweep_point_settings(const sweep_grid *g, size_t index);

/* ---- one point's result file ---- */

/* The hash naming a point: FNV-1a 64 of the resolved configuration as
 * `config show` prints it, comment lines left out (so two configurations with
 * the same values are the same point, whatever their names). */
void sweep_config_hash(const uarch_config *cfg, char out[SWEEP_HASH_LEN + 1]);
/* The resolved configuration as text (config show's INI). */
char *sweep_config_text(const uarch_config *cfg);

typedef struct sweep_point {
    char hash[SWEEP_HASH_LEN + 1];
    int argc; /* what ran: program and arguments, or the trace */
    char **argv;
    char *config_name; /* --config */
    int settings;      /* the swept values */
    char *key[SWEEP_MAX_AXES], *value[SWEEP_MAX_AXES];
    bool ok;
    /* when ok, of a program: its exit status when it exited with a non-zero one (a completed
     * measurement all the same, as many benchmarks end); 0 otherwise (it exited with 0, stopped
     * at --max, or a trace) */
    int exit_code;
    char *error;   /* when !ok */
    cJSON *result; /* when ok: the run's JSON (summary, stacks…) */
    /* from result, for tables */
    double cycles, instructions, cpi, ipc, seconds;
} sweep_point;

/* Write DIR/HASH.json for a point (temporary file renamed, so a reader never
 * sees half of it). The file carries its format, version and a CRC-32. */
bool sweep_point_write(const char *dir, const sweep_point *p, const uarch_config *cfg, cs_error *err);
/* Read one point file; *err says why it is not one (foreign, corrupt, version). */
bool sweep_point_read(const char *path, sweep_point *p, cs_error *err);
bool sweep_point_parse(const char *text, size_t len, const char *name, sweep_point *p, cs_error *err);
/* The same from a document already parsed (NULL: not JSON), which it consumes (deletes; an ok
 * point's `result` moves into p->result), so that a reader that looks at the file first parses
 * it once. */
bool sweep_point_from_json(cJSON *root, const char *name, sweep_point *p, cs_error *err);
void sweep_point_free(sweep_point *p);
/* What DIR holds for a point, for resuming a campaign. */
typedef enum sweep_status {
    SWEEP_TO_RUN,        /* no result file: the point still to run */
    SWEEP_DONE,          /* a valid result of this program: not run again */
    SWEEP_DONE_FAILED,   /* a valid record of a failure (run again with --retry-failed) */
    SWEEP_CORRUPT,       /* a file that is not a valid point (*err says why): run again */
    SWEEP_OTHER_PROGRAM, /* a valid point of another program or trace (*err says which): refuse */
} sweep_status;
sweep_status sweep_point_status(const char *dir, const char *hash, int argc, char *const *argv, cs_error *err);

/* ---- the merge ---- */

typedef struct sweep_table {
    size_t count;
    sweep_point *points; /* sorted by their settings, in grid order where the values are numbers */
    int keys;            /* every swept key seen, in first-seen order */
    char *key[SWEEP_MAX_AXES * 2];
    size_t skipped; /* files that are not points: named on stderr */
} sweep_table;

/* Every *.json of DIR that is a sweep point; others (foreign, corrupt, other
 * versions) are named on `warn` and skipped. Fails only if DIR cannot be read
 * or holds no point at all. */
bool sweep_table_read(const char *dir, sweep_table *t, FILE *warn, cs_error *err);
void sweep_table_free(sweep_table *t);
bool sweep_table_csv(const sweep_table *t, const char *path, cs_error *err);
/* DIR/sweep-table.json: `header`'s fields first (the provenance header that
 * cli/cmd_merge.c builds; NULL: none; consumed), then the keys and every point. */
bool sweep_table_json(const sweep_table *t, cJSON *header, const char *path, cs_error *err);

/* ---- job lists ---- */

/* A word quoted for a POSIX shell (single quotes). */
char *sweep_shell_quote(const char *word);

#endif
