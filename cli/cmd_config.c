/* cyclescope config show: a configuration with every value resolved. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

void help_config(void) {
    printf("usage: cyclescope config show [--set S.K=V]… NAME|FILE\n"
           "       cyclescope config list\n"
           "\n"
           "show: print the full configuration (every key, defaults included) as an\n"
           "INI file that loads back to the same values. list: the named\n"
           "configurations shipped in %s.\n"
           "A configuration file may start from another: its first line\n"
           "`base = NAME|FILE.ini`, then the keys it changes (docs/uarch.md).\n",
           uarch_config_dir());
}

int cmd_config(int argc, char **argv) {
    if (argc < 2) return cli_usage("config", "expected show or list");
    if (!strcmp(argv[1], "list")) {
        if (argc > 2) return cli_usage("config", "list takes no arguments (%s)", argv[2]);
        static const char *const names[] = {"ooo4", "bdw", "knl", "inorder1", "inorder3"};
        /* what each machine is for: a name and "out-of-order" told a first user too little to
         * choose (docs/uarch.md, docs/inorder.md) */
        static const char *const what[] = {
            "the RpStacks paper's Table II machine (the default)",
            "Broadwell-like (Eyerman et al. §IV)",
            "Knights Landing-like (Eyerman et al. §IV)",
            "Noonburg's one-pipe machine (thesis §3.4)",
            "Noonburg's three-pipe machine (thesis §3.5, chapters 4-8)",
        };
        int broken = 0;
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            uarch_config cfg;
            cs_error err;
            uarch_config_default(&cfg);
            bool ok = uarch_config_load(&cfg, names[i], &err);
            if (!ok) printf("%-10s %s\n", names[i], err.msg);
            else if (cfg.model == MODEL_OOO)
                printf("%-10s out-of-order, %u-wide dispatch: %s\n", names[i], cfg.dispatch_width, what[i]);
            else printf("%-10s in-order: %s\n", names[i], what[i]);
            broken += !ok;
        }
        /* a shipped configuration that does not load is a broken install (or CYCLESCOPE_CONFIGS) */
        if (broken) return cli_fail("%s: %d of the shipped configurations do not load", uarch_config_dir(), broken);
        return 0;
    }
    if (strcmp(argv[1], "show")) return cli_usage("config", "unknown subcommand %s", argv[1]);
    cli_timing_options t = {0};
    int k = 2;
    for (; k < argc && argv[k][0] == '-'; k++) {
        if (!strcmp(argv[k], "--set") && k + 1 < argc) t.sets[t.set_count++] = argv[++k];
        else return cli_usage("config", "unknown option %s", argv[k]);
        if (t.set_count == 64) return cli_usage("config", "too many --set options");
    }
    if (k != argc - 1) return cli_usage("config", "expected one configuration name or file");
    t.config = argv[k];
    uarch_config cfg;
    if (!cli_load_config(&t, &cfg)) return EXIT_USAGE;
    uarch_config_print(&cfg, stdout);
    return 0;
}
