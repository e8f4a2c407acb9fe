/* cyclescope trace: record, inspect, import and export trace files.
 *   trace record [--skip N] [--max N] -o OUT.cst PROG [ARGS…]
 *   trace info FILE
 *   trace dump [--from N] [--count M] FILE
 *   trace import-champsim [--cloudsuite] [--riscv] IN -o OUT.cst
 *   trace export-champsim [--cloudsuite] [--preset N] [--threads N] IN.cst -o OUT[.xz|.gz]
 * The formats are in docs/trace-format.md. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

enum { BATCH = 4096 };

void help_trace(void) {
    printf("usage: cyclescope trace <subverb> [options] …\n"
           "\n"
           "Record a program's µop stream to a .cst trace file, look inside one, and convert\n"
           "to and from ChampSim traces. The formats are described in docs/trace-format.md.\n"
           "\n"
           "trace record [options] -o OUT.cst PROG [ARGS…]\n"
           "  run PROG in the emulator and record every executed instruction\n"
           "  --skip N           fast-forward N instructions first (K, M, G suffixes)\n"
           "  --max N            record at most N instructions\n"
           "  --level N          zstd level, 1..19 (default 9)\n"
           "  --frame-uops N     µops per frame, the unit of seeking (default 1048576)\n"
           "  --values           keep every instruction's result (for value prediction,\n"
           "                     inorder.value_prediction); results compress poorly\n" CLI_GUEST_OPTIONS_HELP "\n"
           "trace info FILE\n"
           "  the header, the counts, the mix by operation class and the compressed size per\n"
           "  instruction (reads, and so checks, every frame)\n"
           "\n"
           "trace dump [--from N] [--count M] FILE\n"
           "  one line per µop: index, pc, encoding, disassembly, memory access, branch\n"
           "  outcome (default: all µops)\n"
           "\n"
           "trace import-champsim [--cloudsuite] [--riscv] IN -o OUT.cst\n"
           "  convert a ChampSim trace (raw, .xz or .gz) to a .cst file\n"
           "  --cloudsuite       96-byte cloudsuite records (default: 64-byte input_instr)\n"
           "  --riscv            the trace was written by export-champsim from a RISC-V\n"
           "                     trace: map its registers back to RISC-V numbering\n"
           "\n"
           "trace export-champsim [--cloudsuite] [--preset N] [--threads N] IN.cst -o OUT\n"
           "  convert a .cst file to a ChampSim trace, one record per instruction,\n"
           "  compressed by OUT's extension (.xz, .gz, otherwise raw)\n"
           "  --preset N         compression level 1-9 (xz: append e for the extreme\n"
           "                     variant, as xz -9e; gzip: 1-9); default 6\n"
           "  --threads N        .xz: compress on N threads (default 0: every processor,\n"
           "                     at most 16; liblzma's multithreaded encoder, output in\n"
           "                     independent blocks any xz decoder reads; 1: one thread)\n"
           "  --cloudsuite       96-byte cloudsuite records (4 destination registers: keeps\n"
           "                     the link register of calls)\n"
           "\n"
           "A progress bar is drawn on stderr when it is a terminal.\n"
           "exit code: 0 on success, 2 for bad usage, 125 when the input is bad or the\n"
           "program cannot be recorded (the output file is then removed). `record` of a\n"
           "program that exits non-zero or is killed by a signal (a fault, abort()) writes\n"
           "the trace of what ran, then exits with the program's status (128+signal).\n");
}

static const char *const trace_usage = "trace";

/* ---- record --------------------------------------------------------------------------- */

enum { OPT_SKIP = 2000, OPT_MAX, OPT_LEVEL, OPT_FRAME, OPT_FROM, OPT_COUNT, OPT_CLOUDSUITE, OPT_RISCV, OPT_VALUES };

static bool parse_count(const char *opt, const char *arg, uint64_t *out, bool *bad) {
    if (cs_parse_count(arg, out)) return true;
    cli_usage(trace_usage, "%s %s: not a count", opt, arg);
    *bad = true;
    return false;
}

static int trace_record(int argc, char **argv) {
    static const struct option longopts[] = {{"skip", required_argument, 0, OPT_SKIP},
                                             {"max", required_argument, 0, OPT_MAX},
                                             {"level", required_argument, 0, OPT_LEVEL},
                                             {"frame-uops", required_argument, 0, OPT_FRAME},
                                             {"values", no_argument, 0, OPT_VALUES},
                                             {"output", required_argument, 0, 'o'},
                                             {"help", no_argument, 0, 'h'},
                                             CLI_GUEST_LONG_OPTIONS,
                                             {0, 0, 0, 0}};
    cli_guest_options g;
    cli_guest_defaults(&g);
    uint64_t skip = 0, max = UINT64_MAX, level = 0, frame = 0;
    const char *out = NULL;
    bool bad = false;
    int opt;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "+o:", longopts, trace_usage)) != -1) {
        switch (opt) {
        case 'h': help_trace(); return 0;
        case 'o': out = optarg; break;
        case OPT_SKIP: parse_count("--skip", optarg, &skip, &bad); break;
        case OPT_MAX:
            /* --max 0 would record nothing: bad usage, as for the timing verbs */
            if (parse_count("--max", optarg, &max, &bad) && max == 0) {
                cli_usage(trace_usage, "--max %s: not a positive count", optarg);
                bad = true;
            }
            break;
        case OPT_FRAME:
            if (parse_count("--frame-uops", optarg, &frame, &bad) && (frame < 1 || frame > CST_MAX_FRAME_UOPS)) {
                cli_usage(trace_usage, "--frame-uops %s: not in 1..%d", optarg, CST_MAX_FRAME_UOPS);
                bad = true;
            }
            break;
        case OPT_VALUES: g.emu.record_values = true; break;
        case OPT_LEVEL:
            if (parse_count("--level", optarg, &level, &bad) && (level < 1 || level > 19)) {
                cli_usage(trace_usage, "--level %s: not in 1..19", optarg);
                bad = true;
            }
            break;
        default:
            if (!cli_guest_option(&g, opt, optarg, trace_usage, &bad)) return cli_bad_option(trace_usage, argv);
        }
        if (bad) return EXIT_USAGE;
    }
    if (optind >= argc) return cli_usage(trace_usage, "record: no program given");
    if (!out) return cli_usage(trace_usage, "record: no output file given (-o OUT.cst)");
    if (frame > CST_MAX_FRAME_UOPS) return cli_usage(trace_usage, "--frame-uops: at most %d", CST_MAX_FRAME_UOPS);
    if (!cli_outputs_writable(&out, 1)) return EXIT_USAGE;
    const char *prog = argv[optind];
    emu_t *e = cli_guest_create(&g, argc - optind, argv + optind);
    if (!e) return EXIT_RUN_FAILED;

    cs_error err;
    if (skip) {
        emu_run(e, skip);
        if (emu_state(e) == EMU_FAILED) {
            cli_fail("%s", emu_error(e));
            emu_destroy(e);
            return EXIT_RUN_FAILED;
        }
        if (emu_state(e) != EMU_RUNNING) { /* as run's --warmup: an empty trace is no trace */
            cli_fail("%s: the program ends after %" PRIu64 " instructions, within the %" PRIu64
                     " to skip (--skip): nothing to record",
                     prog, emu_icount(e), skip);
            emu_destroy(e);
            return EXIT_RUN_FAILED;
        }
    }
    cst_meta meta = {.isa = CST_ISA_RV64GC,
                     .fields = CST_FIELDS_ALL | (g.emu.record_values ? CST_FIELD_VALUES : 0),
                     .argc = argc - optind,
                     .argv = (const char *const *)(argv + optind),
                     .skipped = emu_icount(e),
                     .frame_uops = (uint32_t)frame,
                     .level = (int)level};
    cst_writer *w = cst_writer_create(out, &meta, &err);
    if (!w) {
        emu_destroy(e);
        return cli_fail("%s", err.msg);
    }
    uop *buf = cs_malloc(BATCH * sizeof *buf);
    cs_progress p;
    progress_start(&p, "recording", max == UINT64_MAX ? 0 : max);
    uint64_t done = 0;
    bool ok = true;
    while (emu_state(e) == EMU_RUNNING && done < max) {
        uint64_t want = max - done < BATCH ? max - done : BATCH;
        uint64_t n = emu_run_uops(e, buf, want);
        if (n && !cst_writer_write(w, buf, n, &err)) {
            ok = false;
            break;
        }
        done += n;
        progress_update(&p, done);
    }
    progress_finish(&p);
    free(buf);
    fflush(stdout);
    int rc = 0;
    if (!ok) {
        cst_writer_discard(w);
        rc = cli_fail("%s", err.msg);
    } else if (emu_state(e) == EMU_FAILED && (!emu_fault_signal(e) || done == 0)) {
        /* what cyclescope could not run (an unsupported system call), or a fault before
         * anything ran: no trace; a fault's status is 128 + signal as every verb gives it */
        cst_writer_discard(w);
        rc = emu_fault_signal(e) ? cli_run_failed(e, "%s", emu_error(e))
                                 : cli_fail("%s (nothing recorded)", emu_error(e));
    } else if (!cst_writer_finish(w, &err)) {
        rc = cli_fail("%s", err.msg);
    } else {
        struct stat st;
        double bytes = stat(out, &st) == 0 ? (double)st.st_size : 0;
        fprintf(stderr, "cyclescope: %s: recorded %" PRIu64 " instructions to %s (%.3f bytes/instruction)\n", prog,
                done, out, done ? bytes / (double)done : 0.0);
        /* the trace is what ran, up to a non-zero exit or a fault (killed by a signal); then
         * the status is the program's, as every verb that runs one ends (docs/json-schema.md) */
        rc = cli_guest_exit(e);
    }
    emu_destroy(e);
    return rc;
}

/* ---- info ----------------------------------------------------------------------------- */

static void print_fields(uint32_t fields) {
    static const char *const names[] = {"pc",       "next_pc",  "encoding", "op_class", "regs",
                                        "mem_addr", "mem_size", "taken",    "fp_ops",   "values"};
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (fields & (1u << i)) printf(" %s", names[i]);
    printf("\n");
}

static int trace_info(int argc, char **argv) {
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        help_trace();
        return 0;
    }
    /* an option it does not take is named, not counted as a second file */
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-' && argv[i][1] && strcmp(argv[i], "--"))
            return cli_usage(trace_usage, "info: unknown option %s", argv[i]);
    if (argc == 3 && !strcmp(argv[1], "--")) argv++, argc--;
    if (argc != 2) return cli_usage(trace_usage, "info: give exactly one trace file");
    const char *path = argv[1];
    cs_error err;
    cst_reader *r = cst_open(path, &err);
    if (!r) return cli_fail("%s", err.msg);
    const cst_info *in = cst_reader_info(r);

    uint64_t mix[OPC_COUNT] = {0}, taken = 0, reads = 0, writes = 0, uops = 0, compressed = 0;
    for (uint32_t i = 0; i < in->frames; i++) compressed += cst_reader_frame(r, i)->compressed_size;
    uop *buf = cs_malloc(BATCH * sizeof *buf);
    cs_progress p;
    progress_start(&p, "reading", in->uops);
    uop_source *src = cst_reader_source(r);
    long n;
    while ((n = uop_source_read(src, buf, BATCH, &err)) > 0) {
        for (long i = 0; i < n; i++) {
            mix[buf[i].op_class]++;
            taken += (buf[i].flags & UOP_TAKEN) != 0;
            reads += (buf[i].flags & UOP_MEM_READ) != 0;
            writes += (buf[i].flags & UOP_MEM_WRITE) != 0;
        }
        uops += (uint64_t)n;
        progress_update(&p, uops);
    }
    progress_finish(&p);
    free(buf);
    if (n < 0) {
        uop_source_destroy(src);
        return cli_fail("%s", err.msg);
    }

    printf("file:          %s\n", path);
    printf("format:        .cst version %u\n", in->version);
    printf("isa:           %s\n", cst_isa_name(in->isa));
    printf("fields:       ");
    print_fields(in->fields);
    printf("program:      ");
    for (int i = 0; i < in->argc; i++) printf(" %s", in->argv[i]);
    printf("\n");
    printf("skipped:       %" PRIu64 " instructions before the first record\n", in->skipped);
    printf("instructions:  %" PRIu64 "\n", in->insns);
    printf("µops:          %" PRIu64 "\n", in->uops);
    printf("first pc:      0x%" PRIx64 "\n", in->first_pc);
    printf("frames:        %u (up to %u µops each)\n", in->frames, in->frame_uops);
    printf("file size:     %" PRIu64 " bytes (%" PRIu64 " in compressed frames)\n", in->file_size, compressed);
    double ni = in->insns ? (double)in->insns : 1;
    printf("bytes/instr:   %.3f (file), %.3f (compressed frames)\n", (double)in->file_size / ni,
           (double)compressed / ni);
    printf("mix:\n");
    printf("  %-16s %14s %7s\n", "class", "µops", "share");
    for (int c = 0; c < OPC_COUNT; c++) {
        if (!mix[c]) continue;
        printf("  %-16s %14" PRIu64 " %6.2f%%\n", isa_class_name((op_class)c), mix[c],
               100.0 * (double)mix[c] / (double)(uops ? uops : 1));
    }
    printf("taken:         %" PRIu64 " µops\n", taken);
    printf("memory:        %" PRIu64 " reads, %" PRIu64 " writes\n", reads, writes);
    uop_source_destroy(src);
    return 0;
}

/* ---- dump ----------------------------------------------------------------------------- */

static void reg_text(char *buf, size_t size, unsigned isa, unsigned reg) {
    if (isa == CST_ISA_RV64GC && reg < ISA_REG_COUNT) snprintf(buf, size, "%s", isa_reg_name(reg));
    else snprintf(buf, size, "r%u", reg);
}

/* One line: index, pc, encoding, disassembly (or, without an encoding, the
 * class and registers), then the memory access and the branch outcome. */
static void dump_uop(uint64_t index, const uop *u, unsigned isa) {
    char text[128], enc[16];
    isa_insn insn;
    if (u->encoding && isa == CST_ISA_RV64GC && isa_decode(u->encoding, &insn)) {
        char raw[96];
        isa_disasm(&insn, u->pc, raw, sizeof raw);
        char *tab = strchr(raw, '\t');
        if (tab) {
            *tab = 0;
            snprintf(text, sizeof text, "%-8s %s", raw, tab + 1);
        } else {
            snprintf(text, sizeof text, "%s", raw);
        }
        if (insn.length == 2) snprintf(enc, sizeof enc, "%04x    ", u->encoding & 0xffff);
        else snprintf(enc, sizeof enc, "%08x", u->encoding);
    } else {
        /* no encoding (ChampSim imports): the class and the registers */
        size_t k = (size_t)snprintf(text, sizeof text, "%-8s", isa_class_name((op_class)u->op_class));
        for (int i = 0; i < 3 && u->src[i]; i++) {
            char r[16];
            reg_text(r, sizeof r, isa, u->src[i]);
            k += (size_t)snprintf(text + k, sizeof text - k, "%s%s", i ? "," : " ", r);
        }
        if (u->dst) {
            char r[16];
            reg_text(r, sizeof r, isa, u->dst);
            snprintf(text + k, sizeof text - k, " -> %s", r);
        }
        snprintf(enc, sizeof enc, u->encoding ? "%08x" : "--------", u->encoding);
    }
    unsigned mem = u->flags & (UOP_MEM_READ | UOP_MEM_WRITE);
    bool more = mem || u->mem_addr || uop_is_control(u);
    printf("%12" PRIu64 "%c %16" PRIx64 "  %s  %-*s", index, (u->flags & UOP_CONTINUES) ? '+' : ' ', u->pc, enc,
           more ? 34 : 0, text);
    if (mem || u->mem_addr)
        printf("  %s %u @ 0x%" PRIx64,
               mem == (UOP_MEM_READ | UOP_MEM_WRITE) ? "RW"
                   : mem == UOP_MEM_READ             ? "R"
                   : mem == UOP_MEM_WRITE            ? "W"
                                                     : "-",
               u->mem_size, u->mem_addr);
    if (uop_is_control(u)) printf("  %s -> 0x%" PRIx64, (u->flags & UOP_TAKEN) ? "taken" : "not taken", u->next_pc);
    printf("\n");
}

static int trace_dump(int argc, char **argv) {
    static const struct option longopts[] = {{"from", required_argument, 0, OPT_FROM},
                                             {"count", required_argument, 0, OPT_COUNT},
                                             {"help", no_argument, 0, 'h'},
                                             {0, 0, 0, 0}};
    uint64_t from = 0, count = UINT64_MAX;
    bool bad = false;
    int opt;
    optind = 1;
    while ((opt = cli_getopt(argc, argv, "", longopts, trace_usage)) != -1) {
        if (opt == 'h') {
            help_trace();
            return 0;
        }
        if (opt == OPT_FROM) parse_count("--from", optarg, &from, &bad);
        else if (opt == OPT_COUNT) parse_count("--count", optarg, &count, &bad);
        else return cli_bad_option(trace_usage, argv);
        if (bad) return EXIT_USAGE;
    }
    if (optind != argc - 1) return cli_usage(trace_usage, "dump: give exactly one trace file");
    const char *path = argv[optind];
    cs_error err;
    cst_reader *r = cst_open(path, &err);
    if (!r) return cli_fail("%s", err.msg);
    const cst_info *in = cst_reader_info(r);
    if (from > in->uops) {
        uint64_t uops = in->uops; /* the reader's info goes with it */
        cst_close(r);
        return cli_fail("%s: --from %" PRIu64 ": the trace has %" PRIu64 " µops", path, from, uops);
    }
    if (!cst_reader_seek(r, from, &err)) {
        cst_close(r);
        return cli_fail("%s", err.msg);
    }
    uop *buf = cs_malloc(BATCH * sizeof *buf);
    uop_source *src = cst_reader_source(r);
    uint64_t index = from;
    long n = 0;
    while (count) {
        n = uop_source_read(src, buf, count < BATCH ? (size_t)count : BATCH, &err);
        if (n <= 0) break;
        for (long i = 0; i < n; i++) dump_uop(index++, &buf[i], in->isa);
        count -= (uint64_t)n;
    }
    free(buf);
    fflush(stdout);
    int rc = n < 0 ? cli_fail("%s", err.msg) : 0;
    uop_source_destroy(src);
    return rc;
}

/* ---- ChampSim ------------------------------------------------------------------------- */

/* Copy a source into a sink until the end; false with *err on failure. */
typedef bool (*sink_fn)(void *sink, const uop *u, size_t n, cs_error *err);
static bool pump(uop_source *src, sink_fn sink, void *ctx, const char *label, uint64_t total, uint64_t *count,
                 cs_error *err) {
    uop *buf = cs_malloc(BATCH * sizeof *buf);
    cs_progress p;
    progress_start(&p, label, total);
    long n;
    bool ok = true;
    *count = 0;
    while ((n = uop_source_read(src, buf, BATCH, err)) > 0) {
        if (!sink(ctx, buf, (size_t)n, err)) {
            ok = false;
            break;
        }
        *count += (uint64_t)n;
        progress_update(&p, *count);
    }
    progress_finish(&p);
    free(buf);
    return ok && n == 0;
}

static bool cst_sink(void *w, const uop *u, size_t n, cs_error *err) { return cst_writer_write(w, u, n, err); }
static bool champsim_sink(void *w, const uop *u, size_t n, cs_error *err) {
    return champsim_writer_write(w, u, n, err);
}

static int parse_convert(int argc, char **argv, const char *sub, champsim_options *opt, const char **in,
                         const char **out) {
    static const struct option longopts[] = {{"cloudsuite", no_argument, 0, OPT_CLOUDSUITE},
                                             {"riscv", no_argument, 0, OPT_RISCV},
                                             {"output", required_argument, 0, 'o'},
                                             {"preset", required_argument, 0, 'p'},
                                             {"threads", required_argument, 0, 'T'},
                                             {"help", no_argument, 0, 'h'},
                                             {0, 0, 0, 0}};
    memset(opt, 0, sizeof *opt);
    *in = *out = NULL;
    int o;
    optind = 1;
    while ((o = cli_getopt(argc, argv, "o:", longopts, trace_usage)) != -1) {
        if (o == 'h') {
            help_trace();
            return -1;
        }
        bool export = !strcmp(sub, "export-champsim");
        if (o == 'o') *out = optarg;
        else if (o == 'p' && export) {
            char *end;
            long level = strtol(optarg, &end, 10);
            opt->extreme = *end == 'e';
            if (end == optarg || level < 1 || level > 9 || *(end + opt->extreme))
                return cli_usage(trace_usage, "%s: --preset %s: not 1-9 (or 1e-9e)", sub, optarg);
            opt->level = (int)level;
        } else if (o == 'T' && export) {
            uint64_t n;
            if (!cs_parse_count(optarg, &n) || n > 1024)
                return cli_usage(trace_usage, "%s: --threads %s: not a count (0: the processors)", sub, optarg);
            opt->threads = (int)n;
        } else if (o == OPT_CLOUDSUITE) opt->cloudsuite = true;
        else if (o == OPT_RISCV && !strcmp(sub, "import-champsim")) opt->riscv = true;
        else if (o == '?') return cli_bad_option(trace_usage, argv);
        else return cli_usage(trace_usage, "%s: unknown option %s", sub, argv[optind - 1]); /* the other one's */
    }
    if (optind != argc - 1) return cli_usage(trace_usage, "%s: give exactly one input file", sub);
    if (!*out) return cli_usage(trace_usage, "%s: no output file given (-o FILE)", sub);
    if (!cli_outputs_writable(out, 1)) return EXIT_USAGE;
    *in = argv[optind];
    return 0;
}

static int trace_import(int argc, char **argv) {
    champsim_options opt;
    const char *in, *out;
    int rc = parse_convert(argc, argv, "import-champsim", &opt, &in, &out);
    if (rc) return rc < 0 ? 0 : rc;
    cs_error err = {{0}};
    /* as `sim` tells: any 64 bytes are a "record", so 4 KB of noise was imported as 64 records
     * (exit 0). A .cst or an ELF is named; anything else the readers do not recognise is refused. */
    switch (cli_input_kind_of(in)) {
    case CLI_INPUT_CHAMPSIM:
    case CLI_INPUT_CHAMPSIM_CLOUDSUITE: break;
    case CLI_INPUT_CST: return cli_fail("%s: already a .cst trace, nothing to import", in);
    case CLI_INPUT_ELF: return cli_fail("%s is a program (ELF): record it with `cyclescope trace record`", in);
    case CLI_INPUT_OTHER:
        if (cli_other_input_of(in, &err) == CLI_OTHER_UNKNOWN)
            return cli_fail("%s: not a ChampSim trace (no records at plausible instruction addresses)", in);
        break; /* missing, empty, not a regular file, corrupt xz or gzip data: the reader names it */
    }
    uop_source *src = cli_champsim_open(in, &opt, &err);
    if (!src) return cli_fail("%s", err.msg);
    const char *argv_meta[] = {in};
    cst_meta meta = {.isa = opt.riscv ? CST_ISA_RV64GC : CST_ISA_CHAMPSIM,
                     .fields = CST_FIELDS_CHAMPSIM,
                     .argc = 1,
                     .argv = argv_meta};
    cst_writer *w = cst_writer_create(out, &meta, &err);
    if (!w) {
        uop_source_destroy(src);
        return cli_fail("%s", err.msg);
    }
    uint64_t count;
    if (!pump(src, cst_sink, w, "importing", 0, &count, &err)) {
        cst_writer_discard(w);
        uop_source_destroy(src);
        return cli_fail("%s", err.msg);
    }
    uint64_t records = champsim_source_records(src);
    uop_source_destroy(src);
    if (!cst_writer_finish(w, &err)) return cli_fail("%s", err.msg);
    fprintf(stderr, "cyclescope: %s: imported %" PRIu64 " ChampSim records as %" PRIu64 " µops to %s\n", in, records,
            count, out);
    return 0;
}

static int trace_export(int argc, char **argv) {
    champsim_options opt;
    const char *in, *out;
    int rc = parse_convert(argc, argv, "export-champsim", &opt, &in, &out);
    if (rc) return rc < 0 ? 0 : rc;
    cs_error err;
    cst_reader *r = cli_cst_open(in, &err);
    if (!r) return cli_fail("%s", err.msg);
    const cst_info *info = cst_reader_info(r);
    champsim_writer *w = champsim_writer_create(out, &opt, (cst_isa)info->isa, &err);
    if (!w) {
        cst_close(r);
        return cli_fail("%s", err.msg);
    }
    uint64_t count;
    champsim_export_stats st;
    if (!pump(cst_reader_source(r), champsim_sink, w, "exporting", info->uops, &count, &err)) {
        champsim_writer_discard(w);
        cst_close(r);
        return cli_fail("%s", err.msg);
    }
    cst_close(r);
    if (!champsim_writer_finish(w, &st, &err)) return cli_fail("%s", err.msg);
    fprintf(stderr, "cyclescope: %s: exported %" PRIu64 " µops as %" PRIu64 " ChampSim records to %s\n", in, count,
            st.records, out);
    if (st.dropped_regs || st.dropped_mem)
        fprintf(stderr,
                "cyclescope: note: %" PRIu64 " registers and %" PRIu64 " memory addresses did not fit ChampSim's "
                "record and were left out%s\n",
                st.dropped_regs, st.dropped_mem,
                opt.cloudsuite ? "" : " (calls' link registers; --cloudsuite keeps them)");
    return 0;
}

/* ---- the verb ------------------------------------------------------------------------- */

int cmd_trace(int argc, char **argv) {
    if (argc < 2)
        return cli_usage(trace_usage,
                         "no subverb given (record, info, dump, import-champsim, "
                         "export-champsim)");
    const char *sub = argv[1];
    if (!strcmp(sub, "record")) return trace_record(argc - 1, argv + 1);
    if (!strcmp(sub, "info")) return trace_info(argc - 1, argv + 1);
    if (!strcmp(sub, "dump")) return trace_dump(argc - 1, argv + 1);
    if (!strcmp(sub, "import-champsim")) return trace_import(argc - 1, argv + 1);
    if (!strcmp(sub, "export-champsim")) return trace_export(argc - 1, argv + 1);
    return cli_usage(trace_usage, "unknown subverb '%s'", sub);
}
