/* cyclescope rpstacks: one timing run, its dependence graph reduced to
 * representative stall-event stacks (RpStacks), saved as an .rps file for
 * `cyclescope whatif`. */
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report/report.h"
#include "rpstacks/rpstacks.h"
#include "runner/runner.h"
#include "whatif.h"

void help_rpstacks(void) {
    rps_options defaults;
    rps_options_default(&defaults);
    printf("usage: cyclescope rpstacks [options] -o FILE.rps PROG [ARGS…]|TRACE\n"
           "       cyclescope rpstacks [options] PROG|TRACE -o FILE.rps\n"
           "\n"
           "Time PROG (a RISC-V executable, run with the fixed environment) or a\n"
           ".cst TRACE on the out-of-order model, build the run's dependence graph\n"
           "(RpStacks Table I), reduce its paths to representative stall-event stacks\n"
           "and save them to FILE.rps. `cyclescope whatif FILE.rps --set …` then\n"
           "predicts the CPI of latency changes without simulating (docs/rpstacks.md).\n"
           "\n"
           "options:\n"
           "  -o FILE            the .rps file to write (required; as the last two\n"
           "                     arguments only when PROG takes no -o of its own)\n"
           "  --segment N        µops per graph segment (default 5000, RpStacks §V-D)\n"
           "  --similarity S     merge threshold of the modified cosine similarity\n"
           "                     (default 0.7)\n"
           "  --max-scale X      the design space the stacks serve: every latency from 0\n"
           "                     to X × the baseline's (default 4; 0: no bound). A path\n"
           "                     never the longest there is dropped; whatif warns beyond\n"
           "  --max-stacks N     paths kept per graph node after the reduction (default\n"
           "                     %u): in turn the longest at the baseline, with every\n"
           "                     event at 0 and at the --max-scale bound (docs/rpstacks.md)\n"
           "  --unique MODE      uniqueness preservation: event (default: a path with an\n"
           "                     event no other path has is never merged, §IV-E) or\n"
           "                     combination (paths merge only within their event\n"
           "                     combination, §III-C; slower, docs/rpstacks.md)\n"
           "  --no-unique        no uniqueness preservation (--unique off)\n"
           "  --threads N        segments analysed at once (default: the processors)\n"
           "  --json FILE        this run as JSON: the graph's longest path against the\n"
           "                     simulated cycles, each event's share of the largest path,\n"
           "                     CP1 and FMT, segments, stacks, timing (- for stdout)\n"
           "  --config NAME|FILE configuration (default ooo4: the paper's Table II machine)\n"
           "  --set S.K=V        override one configuration value (repeatable)\n"
           "  --warmup N         the first N instructions only warm caches and predictors\n"
           "  --max N            analyse N instructions after the warm-up (default: all)\n"
           "guest options (a program; the .rps records them and whatif --verify runs it again\n"
           "with them; the environment is always the fixed one, --env-fixed, so that the\n"
           "cycles do not depend on where whatif runs it):\n" CLI_GUEST_OPTIONS_HELP,
           defaults.max_stacks);
}

enum { OPT_SEGMENT = 1400, OPT_SIMILARITY, OPT_NO_UNIQUE, OPT_UNIQUE, OPT_THREADS, OPT_MAX_SCALE, OPT_MAX_STACKS };

/* docs/rpstacks.schema.json: incremented when a field changes meaning or goes */
enum { RPSTACKS_SCHEMA_VERSION = 1 };

/* The run as JSON (--json): the provenance header, then what the text report
 * says, for scripts and the bench. */
static cJSON *run_json(const rps_result *r, const char *what, const char *rps_path, const uarch_config *cfg,
                       const report_provenance *prov) {
    double ins = r->instructions ? (double)r->instructions : 1;
    cJSON *root = cJSON_CreateObject();
    report_header_json(root, "cyclescope-rpstacks", RPSTACKS_SCHEMA_VERSION, cfg, prov);
    cJSON_AddStringToObject(root, "run", what);
    cJSON_AddStringToObject(root, "file", rps_path);
    rps_options_json(root, &r->opt);
    cJSON_AddNumberToObject(root, "uops", (double)r->uops);
    cJSON_AddNumberToObject(root, "instructions", (double)r->instructions);
    cJSON_AddNumberToObject(root, "simulated_cycles", (double)r->cycles);
    cJSON_AddNumberToObject(root, "graph_cycles", r->graph_cycles);
    cJSON_AddNumberToObject(root, "graph_error_percent",
                            r->cycles ? 100.0 * (r->graph_cycles - (double)r->cycles) / (double)r->cycles : 0);
    cJSON_AddNumberToObject(root, "constraint_violations", (double)r->violations);
    cJSON_AddNumberToObject(root, "constraints_beyond_window", (double)r->dropped_edges);
    cJSON_AddNumberToObject(root, "capped_nodes", (double)r->capped_nodes);
    cJSON_AddNumberToObject(root, "segments", r->segments);
    cJSON_AddNumberToObject(root, "stacks", r->stack_count);
    cJSON *tm = cJSON_AddObjectToObject(root, "analysis");
    cJSON_AddNumberToObject(tm, "wall_seconds", r->seconds);
    cJSON_AddNumberToObject(tm, "cpu_seconds", r->cpu_seconds);
    cJSON_AddNumberToObject(tm, "cpu_seconds_per_million_uops", r->uops ? r->cpu_seconds * 1e6 / (double)r->uops : 0);
    /* per event: cycles on the largest representative path, the CP1 path, the FMT table */
    double big[RPS_DIMS];
    rps_largest_paths(r, 1, big);
    cJSON *ev = cJSON_AddArrayToObject(root, "events");
    for (int d = 0; d < RPS_DIMS; d++) {
        if (d != RPS_BASE && !rps_dim_is_event(d) && big[d] == 0 && r->cp1[d] == 0 && r->fmt[d] == 0) continue;
        if (rps_dim_is_tlb(d) && !rps_dim_used(r, d)) continue; /* a run without TLB misses lists none */
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "event", rps_dim_name(d));
        if (rps_dim_key(d)) cJSON_AddStringToObject(e, "key", rps_dim_key(d));
        cJSON_AddNumberToObject(e, "base_latency", r->base_latency[d]);
        cJSON_AddNumberToObject(e, "largest_path_cycles", big[d]);
        cJSON_AddNumberToObject(e, "largest_path_cpi", big[d] / ins);
        cJSON_AddNumberToObject(e, "cp1_cycles", r->cp1[d]);
        cJSON_AddNumberToObject(e, "cp1_cpi", r->cp1[d] / ins);
        cJSON_AddNumberToObject(e, "fmt_cycles", r->fmt[d]);
        cJSON_AddNumberToObject(e, "fmt_cpi", r->fmt[d] / ins);
        cJSON_AddItemToArray(ev, e);
    }
    return root;
}

int cmd_rpstacks(int argc, char **argv) {
    static const struct option longopts[] = {{"config", required_argument, 0, OPT_CONFIG},
                                             {"set", required_argument, 0, OPT_SET},
                                             {"warmup", required_argument, 0, OPT_WARMUP},
                                             {"max", required_argument, 0, OPT_TMAX},
                                             {"segment", required_argument, 0, OPT_SEGMENT},
                                             {"similarity", required_argument, 0, OPT_SIMILARITY},
                                             {"no-unique", no_argument, 0, OPT_NO_UNIQUE},
                                             {"unique", required_argument, 0, OPT_UNIQUE},
                                             {"threads", required_argument, 0, OPT_THREADS},
                                             {"json", required_argument, 0, OPT_JSON},
                                             {"max-scale", required_argument, 0, OPT_MAX_SCALE},
                                             {"max-stacks", required_argument, 0, OPT_MAX_STACKS},
                                             CLI_GUEST_LONG_OPTIONS,
                                             {0, 0, 0, 0}};
    cli_timing_options t = {0};
    cli_guest_options g;
    cli_guest_defaults(&g);
    const char *out_path = NULL, *json_path = NULL, *segment = "5000", *similarity = "0.7", *threads = "0",
               *max_scale = "4";
    rps_options defaults;
    rps_options_default(&defaults);
    uint64_t max_stacks = defaults.max_stacks;
    rps_unique unique = RPS_UNIQUE_EVENT;
    bool bad = false;
    int opt;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "+o:", longopts, "rpstacks")) != -1) {
        uint64_t n;
        char *end;
        switch (opt) {
        case 'o': out_path = optarg; break;
        case OPT_SEGMENT:
            if (!cs_parse_count(optarg, &n) || n == 0 || n > 10000000)
                return cli_usage("rpstacks", "--segment %s: expected a count from 1 to 10M", optarg);
            segment = optarg;
            break;
        case OPT_SIMILARITY: {
            double s = strtod(optarg, &end);
            if (*end || end == optarg || !(s >= 0 && s <= 1))
                return cli_usage("rpstacks", "--similarity %s: expected a number from 0 to 1", optarg);
            similarity = optarg;
            break;
        }
        case OPT_MAX_SCALE: {
            double x = strtod(optarg, &end);
            if (*end || end == optarg || !rps_max_scale_ok(x))
                return cli_usage("rpstacks", "--max-scale %s: expected 0 (no bound) or a number from 1 to %d", optarg,
                                 RPS_MAX_SCALE);
            max_scale = optarg;
            break;
        }
        case OPT_MAX_STACKS:
            if (!cs_parse_count(optarg, &max_stacks) || max_stacks == 0 || max_stacks > RPS_MAX_STACKS)
                return cli_usage("rpstacks", "--max-stacks %s: expected a count from 1 to %d", optarg, RPS_MAX_STACKS);
            break;
        case OPT_NO_UNIQUE: unique = RPS_UNIQUE_OFF; break;
        case OPT_UNIQUE:
            if (!rps_unique_parse(optarg, &unique) ||
                (strcmp(optarg, "event") && strcmp(optarg, "combination") && strcmp(optarg, "off")))
                return cli_usage("rpstacks", "--unique %s: expected event, combination or off", optarg);
            break;
        case OPT_JSON: json_path = optarg; break;
        case OPT_THREADS:
            if (!cs_parse_count(optarg, &n) || n > 256)
                return cli_usage("rpstacks", "--threads %s: expected a count from 0 to 256", optarg);
            threads = optarg;
            break;
        default:
            if (!cli_timing_option(&t, opt, optarg, "rpstacks", &bad) &&
                !cli_guest_option(&g, opt, optarg, "rpstacks", &bad))
                return cli_bad_option("rpstacks", argv);
            if (bad) return EXIT_USAGE;
        }
    }
    int first = optind, last = argc;
    if (!out_path && last - first >= 3 && !strcmp(argv[last - 2], "-o")) out_path = argv[last - 1], last -= 2;
    if (first >= last) return cli_usage("rpstacks", "no program or trace given");
    cli_input_kind kind = cli_input_kind_of(argv[first]);
    if (kind == CLI_INPUT_CHAMPSIM ||
        kind == CLI_INPUT_CHAMPSIM_CLOUDSUITE) { /* .cst traces only: whatif --verify reopens it */
        char *word = cli_shell_word(argv[first]);
        int rc = cli_usage("rpstacks",
                           "%s is a ChampSim trace, and rpstacks takes a program or a .cst trace: import it first "
                           "(cyclescope trace import-champsim%s %s -o TRACE.cst)",
                           argv[first], kind == CLI_INPUT_CHAMPSIM_CLOUDSUITE ? " --cloudsuite" : "", word);
        free(word);
        return rc;
    }
    if (!out_path) return cli_usage("rpstacks", "no output file given (-o FILE.rps)");
    if (json_path && !strcmp(json_path, out_path))
        return cli_usage("rpstacks", "--json %s: the same file as the .rps output", json_path);
    if (last - first > RPS_MAX_ARGS) return cli_usage("rpstacks", "more than %d program arguments", RPS_MAX_ARGS);
    if (t.set_count > RPS_MAX_SETS) return cli_usage("rpstacks", "too many --set options");

    const char *outputs[] = {out_path, json_path};
    if (!cli_outputs_writable(outputs, 2)) return EXIT_USAGE;
    uarch_config cfg;
    if (!cli_load_config(&t, &cfg)) return EXIT_USAGE; /* a bad configuration is bad usage */
    if (cfg.model != MODEL_OOO) {                      /* bad usage, before anything runs */
        char names[200];
        return cli_usage("rpstacks",
                         "configuration %s: an in-order machine is not modelled: RpStacks' dependence graph models "
                         "the out-of-order core (configurations it models: %s, or an .ini with core.model = ooo)",
                         cfg.name, cli_config_names_of_model(names, sizeof names, MODEL_OOO));
    }

    /* --json -: stdout holds the JSON alone (the guest's output and the tables go to stderr) */
    int data_fd = -1;
    if (json_path && !strcmp(json_path, "-") && (data_fd = cli_stdout_for_data()) < 0) return EXIT_RUN_FAILED;

    rps_origin *origin = cs_calloc(1, sizeof *origin);
    const char *config = t.config ? t.config : "ooo4";
    if (uarch_config_renamed(config)) config = uarch_config_renamed(config); /* the .rps names the current one */
    snprintf(origin->config, sizeof origin->config, "%s", config);
    origin->set_count = t.set_count;
    for (int k = 0; k < t.set_count; k++) {
        if (strlen(t.sets[k]) >= sizeof origin->sets[k]) {
            free(origin);
            return cli_usage("rpstacks", "--set %s: too long", t.sets[k]);
        }
        snprintf(origin->sets[k], sizeof origin->sets[k], "%s", t.sets[k]);
    }
    origin->warmup = t.warmup;
    origin->max = t.max;
    origin->is_trace = cst_probe(argv[first]);
    bool origin_is_trace = origin->is_trace;
    if (!origin->is_trace) { /* the guest options, for this run and whatif --verify's */
        if (g.emu.thread_quantum && g.emu.thread_quantum != EMU_DEFAULT_THREAD_QUANTUM) {
            free(origin); /* not among the options an .rps file keeps for whatif --verify */
            return cli_usage("rpstacks", "--thread-quantum: not stored in .rps files; use the default (%d)",
                             EMU_DEFAULT_THREAD_QUANTUM);
        }
        origin->seed = g.emu.seed;
        origin->guest_memory = g.emu.memory_limit;
        origin->host_time = g.emu.host_time;
        origin->strict_syscalls = g.emu.strict_syscalls;
        const char *dir = g.emu.allow_write_dir;
        char *real_dir = dir ? realpath(dir, NULL) : NULL; /* whatif may run it from elsewhere */
        if (dir && strlen(real_dir ? real_dir : dir) >= sizeof origin->allow_write) {
            free(real_dir);
            free(origin);
            return cli_usage("rpstacks", "--allow-write %s: too long", dir);
        }
        if (dir) snprintf(origin->allow_write, sizeof origin->allow_write, "%s", real_dir ? real_dir : dir);
        free(real_dir);
        /* a piped stdin kept in a file first, as whatif --verify keeps its own: this run reads
         * what the re-runs read (glibc's stdio takes another path on a pipe: the baseline's
         * cycles differed and verify was refused) and the .rps records it */
        if (!cli_spool_piped_stdin("rpstacks")) {
            free(origin);
            return EXIT_RUN_FAILED;
        }
    }
    /* the program by its absolute path, so that whatif --verify runs the same one from anywhere */
    char *real = realpath(argv[first], NULL);
    origin->argc = last - first;
    for (int k = 0; k < origin->argc; k++) origin->argv[k] = cs_strdup(k == 0 && real ? real : argv[first + k]);
    free(real);

    char spec_text[256];
    snprintf(spec_text, sizeof spec_text,
             "rpstacks:segment=%s:similarity=%s:max-scale=%s:max-stacks=%llu:unique=%s:threads=%s", segment, similarity,
             max_scale, (unsigned long long)max_stacks, rps_unique_name(unique), threads);
    cs_error err;
    analysis_list list;
    if (!analysis_list_parse(&list, spec_text, &err)) {
        for (int k = 0; k < origin->argc; k++) free(origin->argv[k]);
        free(origin);
        return cli_fail("%s", err.msg);
    }
    rps_source src_ctx;
    run_source rs = rps_run_source(&src_ctx, origin);
    char what[512];
    cli_describe_command(what, sizeof what, last - first, argv + first);
    int rc = 0;
    cli_stdin_mark in = cli_stdin_mark_take();
    uop_source *src = rs.open(rs.ctx, &err);
    if (!src) {
        rc = cli_fail("%s", err.msg);
    } else {
        run_spec spec = {&cfg, {t.warmup, t.max, "simulating"}, &list, what};
        run_config_origin config_origin = {t.config ? t.config : "ooo4", t.set_count, t.sets};
        run_result run;
        cli_sigint_handler old_handler = cli_sigint_begin(); /* Ctrl-C: the stacks of what ran, marked partial */
        bool ran = runner_run_origin(&spec, &config_origin, src, &run, &err);
        cli_sigint_end(old_handler);
        if (!origin->is_trace) /* whatif --verify checks its runs' stdin against it */
            origin->stdin_known = cli_stdin_mark_read(&in, &origin->stdin_bytes, origin->stdin_sha256);
        if (!ran) {
            rc = cli_fail("%s", err.msg);
            rs.close(rs.ctx, src, &err);
        } else {
            /* the guest's end, before the emulator goes, for the JSON (cli_guest_status, as every
             * verb) and the exit status: its own code, or 128 + the signal of a fault
             * (docs/json-schema.md), as run gives */
            report_provenance guest;
            memset(&guest, 0, sizeof guest);
            cli_guest_status(src_ctx.emu, &guest);
            char guest_error[600];
            snprintf(guest_error, sizeof guest_error, "%s", guest.guest_error ? guest.guest_error : "");
            if (guest.guest_error) guest.guest_error = guest_error; /* the emulator's, gone after close */
            char guest_line[600];
            int guest_code = cli_guest_end(src_ctx.emu, guest_line, sizeof guest_line);
            int failed = run.ok ? 0 : cli_run_failed(src_ctx.emu, "%s", run.err.msg); /* before the emulator goes */
            bool closed = rs.close(rs.ctx, src, &err);
            rps_result *r = run.ok ? rps_analysis_result(run_result_analysis(&run, "rpstacks")) : NULL;
            if (failed) rc = failed;
            else if (!closed) rc = cli_fail("%s", err.msg);
            else if (!r) rc = cli_fail("rpstacks: no result");
            else {
                r->origin = *origin;
                memset(origin->argv, 0, sizeof origin->argv); /* now the result's */
                origin->argc = 0;
                if (cs_stop_requested()) {
                    /* the .rps describes the instructions that ran: whatif --verify times those */
                    r->origin.max = run.stats.instructions;
                    printf("PARTIAL RESULTS: the run was interrupted (SIGINT, Ctrl-C) after %llu instructions; the "
                           "stacks cover only those (the .rps records --max %llu).\n",
                           (unsigned long long)run.stats.instructions, (unsigned long long)run.stats.instructions);
                }
                run_summary sum = {what, &cfg, &run.stats, t.warmup};
                report_run_text(&sum, stdout);
                rps_text(r, stdout);
                if (!rps_write(out_path, r, &err)) rc = cli_fail("%s", err.msg);
                else
                    printf("\nRepresentative stacks: %s (cyclescope whatif %s --set latency.fp-add=3 …)\n", out_path,
                           out_path);
                if (rc == 0 && json_path) {
                    report_provenance prov;
                    cli_provenance(&prov, origin_is_trace ? "trace" : "program", argv[first],
                                   origin_is_trace ? 0 : last - first - 1, origin_is_trace ? NULL : argv + first + 1);
                    prov.config_source = t.config ? t.config : "ooo4";
                    prov.override_count = t.set_count;
                    prov.overrides = t.sets;
                    prov.warmup_instructions = t.warmup;
                    prov.max_instructions = t.max;
                    prov.has_guest = guest.has_guest;
                    prov.guest_state = guest.guest_state;
                    prov.guest_exit_code = guest.guest_exit_code;
                    prov.guest_error = guest.guest_error;
                    cJSON *j = run_json(r, what, out_path, &cfg, &prov);
                    if (!cli_write_json(json_path, data_fd, j, &err)) rc = cli_fail("%s", err.msg);
                    cJSON_Delete(j);
                }
            }
            run_result_free(&run);
            if (rc == 0 && cs_stop_requested()) rc = 128 + SIGINT;
            if (rc == 0 && guest_code != 0) { /* as run does: the results are written, the status is the guest's */
                cli_fail("%s", guest_line);
                rc = guest_code;
            }
        }
    }
    for (int k = 0; k < origin->argc; k++) free(origin->argv[k]);
    free(origin);
    analysis_list_free(&list);
    return rc;
}
