/* whatif's work, apart from its option parsing (cli/cmd_whatif.c). */
#ifndef CYCLESCOPE_CLI_WHATIF_H
#define CYCLESCOPE_CLI_WHATIF_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "rpstacks/rpstacks.h"

enum { WHATIF_MAX_SETS = 64 };

typedef struct whatif_options {
    const char *path; /* the .rps file, for titles */
    const char *sets[WHATIF_MAX_SETS];
    int set_count;
    const char *grid;
    int verify, jobs;
    const char *csv, *json, *report;
    bool quiet;
    int data_fd; /* the real stdout when --json or --csv is "-" (cli_stdout_for_data), else -1 */
} whatif_options;

/* The reduction options an .rps was made with, as the object "options" of parent (rpstacks
 * --json and whatif --json alike). */
void rps_options_json(cJSON *parent, const rps_options *o);

/* Predict, print, write, verify. Returns the exit code. */
int whatif_run(const rps_result *r, const whatif_options *w);

#endif
