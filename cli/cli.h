/* cli — `cyclescope <verb> …`, one file per verb, each a thin layer over the modules. */
#ifndef CYCLESCOPE_CLI_H
#define CYCLESCOPE_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/emu.h"

/* Exit codes of the tool itself (a guest's own exit code passes through `exec`). */
enum { EXIT_USAGE = 2, EXIT_RUN_FAILED = 125 };

typedef struct cli_verb {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the verb */
    void (*help)(void);
} cli_verb;

/* Print "cyclescope: <message>" on stderr. Returns EXIT_RUN_FAILED for chaining. */
int cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "cyclescope <verb>: <message>; try --help" and return EXIT_USAGE. */
int cli_usage(const char *verb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Options shared by every verb that runs a program in the emulator. */
typedef struct cli_guest_options {
    emu_options emu;
    bool env_fixed;
} cli_guest_options;

#define CLI_GUEST_OPTIONS_HELP                                                               \
    "  --allow-write DIR  let the guest create and modify files under DIR (default: only\n" \
    "                     stdout and stderr are writable)\n"                                   \
    "  --host-time        guest clocks follow the host (default: derived from the\n"          \
    "                     instruction count, 1 ns per instruction, so runs are repeatable)\n" \
    "  --seed N           seed of AT_RANDOM and getrandom (default fixed)\n"                   \
    "  --env-fixed        give the guest a fixed minimal environment instead of ours\n"

/* Long-option ids for the guest options, for getopt_long tables. */
enum { OPT_ALLOW_WRITE = 1000, OPT_HOST_TIME, OPT_SEED, OPT_ENV_FIXED, OPT_GUEST_LAST };
#define CLI_GUEST_LONG_OPTIONS                                           \
    {"allow-write", required_argument, 0, OPT_ALLOW_WRITE},              \
        {"host-time", no_argument, 0, OPT_HOST_TIME}, {"seed", required_argument, 0, OPT_SEED}, \
        {"env-fixed", no_argument, 0, OPT_ENV_FIXED}

void cli_guest_defaults(cli_guest_options *g);
/* Handle one of the guest options; false if `opt` is not one (or its value is bad, after
 * printing why: *bad is then set). */
bool cli_guest_option(cli_guest_options *g, int opt, const char *arg, const char *verb, bool *bad);
/* Create the emulator for argv[0..argc-1] (the program and its arguments). */
emu_t *cli_guest_create(cli_guest_options *g, int argc, char **argv);

/* Verbs */
int cmd_exec(int argc, char **argv);
void help_exec(void);
int cmd_disasm(int argc, char **argv);
void help_disasm(void);

#endif
