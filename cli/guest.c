/* Options shared by the verbs that run a program in the emulator. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

extern char **environ;

void cli_guest_defaults(cli_guest_options *g) { memset(g, 0, sizeof *g); }

bool cli_guest_option(cli_guest_options *g, int opt, const char *arg, const char *verb, bool *bad) {
    switch (opt) {
    case OPT_ALLOW_WRITE: g->emu.allow_write_dir = arg; return true;
    case OPT_HOST_TIME: g->emu.host_time = true; return true;
    case OPT_ENV_FIXED: g->env_fixed = true; return true;
    case OPT_SEED:
        if (!cs_parse_count(arg, &g->emu.seed)) {
            cli_usage(verb, "--seed %s: not a non-negative integer", arg);
            *bad = true;
        }
        return true;
    default: return false;
    }
}

emu_t *cli_guest_create(cli_guest_options *g, int argc, char **argv) {
    static const char *const fixed_env[] = {"PATH=/usr/bin:/bin", "HOME=/", "LANG=C", NULL};
    g->emu.argc = argc;
    g->emu.argv = (const char *const *)argv;
    g->emu.envp = g->env_fixed ? fixed_env : (const char *const *)environ;
    cs_error err;
    emu_t *e = emu_create(argv[0], &g->emu, &err);
    if (!e) cli_fail("%s", err.msg);
    return e;
}
