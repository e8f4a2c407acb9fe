/* uarch_check [--config NAME] [--set S.K=V]… [--warmup N] [--max N] PROG [ARGS…]
 *
 * Properties of a timing model on a real program, each checked against the
 * baseline run of the same instruction window:
 *  - making the I-cache, D-cache or branch predictor perfect, or arithmetic
 *    1-cycle, never makes it slower;
 *  - raising a latency never makes it faster;
 *  - the same inputs give bit-identical statistics.
 * Prints one line per variant; exits 1 if any property fails.
 *
 * --tolerance PCT allows a change of up to PCT percent in the wrong direction:
 * greedy oldest-first issue with a finite width is subject to list-scheduling
 * anomalies (Graham, 1969) — a slower µop can hand issue slots to the critical
 * path and make the whole run faster. With the issue stage unconstrained the
 * model is strictly monotone (tested with tolerance 0); docs/uarch.md has the
 * measurements. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "uarch/uarch.h"

typedef struct variant {
    const char *set; /* section.key=value, or a latency bump written "+latency.CLASS=N" */
    int direction;   /* -1: must not be slower; +1: must not be faster */
    double floor;    /* the smallest tolerance (percent) this variant is checked with */
} variant;

/* The memory system's knobs are not strictly monotone even with unconstrained
 * issue: store fills and loads share the L1D's miss registers (a larger store
 * buffer takes more of them) and the memory channel serves requests in the
 * order they come (docs/uarch.md: measured at most 0.05%). */
#define MEMSYS_FLOOR 0.1

static const variant variants[] = {
    {"ideal.icache=yes", -1, 0},
    {"ideal.dcache=yes", -1, 0},
    {"ideal.bpred=yes", -1, 0},
    {"ideal.alu=yes", -1, 0},
    {"+memory.latency=100", +1, 0},
    {"+l2.latency=10", +1, 0},
    {"+latency.int-mul=4", +1, 0},
    {"+latency.fp-add=4", +1, 0},
    {"+latency.load=3", +1, 0},
    /* the memory system (issue 12); a knob that is off stays off (0 entries: no store buffer) */
    {"+core.store_buffer=16", -1, MEMSYS_FLOOR},
    {"memory.writebacks=no", -1, MEMSYS_FLOOR},
    {"memory.bandwidth=0", -1, MEMSYS_FLOOR},
    {"+dtlb.miss_latency=20", +1, MEMSYS_FLOOR},
    {"+itlb.miss_latency=20", +1, MEMSYS_FLOOR},
};

static const char *config_name = "ooo4";
static const char *base_sets[32];
static int base_set_count;
static uint64_t warmup = 100000, max = 400000;
static double tolerance; /* percent */
static int prog_argc;
static char **prog_argv;

static bool apply(uarch_config *c, const char *set, cs_error *err) {
    if (set[0] != '+') return uarch_config_set(c, set, err);
    /* "+section.key=N": add N to the current value */
    char name[128];
    const char *eq = strchr(set, '=');
    snprintf(name, sizeof name, "%.*s", (int)(eq - set - 1), set + 1);
    unsigned add = (unsigned)atoi(eq + 1), cur = 0;
    if (!strcmp(name, "memory.latency")) cur = c->mem_latency;
    else if (!strcmp(name, "l2.latency")) cur = c->l2.latency;
    else if (!strcmp(name, "latency.int-mul")) cur = c->latency[OPC_INT_MUL];
    else if (!strcmp(name, "latency.fp-add")) cur = c->latency[OPC_FP_ADD];
    else if (!strcmp(name, "latency.load")) cur = c->latency[OPC_LOAD];
    else if (!strcmp(name, "core.store_buffer")) {
        if (!c->store_buffer) return true; /* none: stores never wait, nothing is faster */
        cur = c->store_buffer;
    } else if (!strcmp(name, "dtlb.miss_latency")) cur = c->dtlb_miss_latency;
    else if (!strcmp(name, "itlb.miss_latency")) cur = c->itlb_miss_latency;
    char assignment[160];
    snprintf(assignment, sizeof assignment, "%s=%u", name, cur + add);
    return uarch_config_set(c, assignment, err);
}

/* Whether the base configuration has a store buffer or a memory-bandwidth limit: then
 * every variant, not only the memory knobs, moves store fills and loads against each
 * other in the shared miss registers and channel, and is held to MEMSYS_FLOOR. */
static bool memory_shared;

static bool run(const char *set, core_stats *out) {
    uarch_config c;
    cs_error err;
    uarch_config_default(&c);
    bool ok_sets = uarch_config_load(&c, config_name, &err);
    for (int i = 0; ok_sets && i < base_set_count; i++) ok_sets = uarch_config_set(&c, base_sets[i], &err);
    if (!set) memory_shared = c.store_buffer || c.mem_bandwidth;
    if (!ok_sets || (set && !apply(&c, set, &err))) {
        fprintf(stderr, "uarch_check: %s\n", err.msg);
        return false;
    }
    static const char *const env[] = {"LANG=C", NULL};
    emu_options opt = {.argc = prog_argc, .argv = (const char *const *)prog_argv, .envp = env, .quiet = true};
    emu_t *e = emu_create(prog_argv[0], &opt, &err);
    core_t *core = e ? core_create(&c, &err) : NULL;
    if (!core) {
        fprintf(stderr, "uarch_check: %s\n", err.msg);
        emu_destroy(e);
        return false;
    }
    uop_source *src = emu_source_create(e);
    core_run_options ro = {warmup, max, NULL};
    bool ok = core_run(core, src, &ro, out, &err);
    if (!ok) fprintf(stderr, "uarch_check: %s\n", err.msg);
    out->seconds = 0;
    uop_source_destroy(src);
    core_destroy(core);
    emu_destroy(e);
    return ok;
}

int main(int argc, char **argv) {
    int k = 1;
    for (; k < argc && argv[k][0] == '-'; k += 2) {
        if (k + 1 >= argc) break;
        if (!strcmp(argv[k], "--config")) config_name = argv[k + 1];
        else if (!strcmp(argv[k], "--warmup")) warmup = strtoull(argv[k + 1], NULL, 0);
        else if (!strcmp(argv[k], "--max")) max = strtoull(argv[k + 1], NULL, 0);
        else if (!strcmp(argv[k], "--set") && base_set_count < 32) base_sets[base_set_count++] = argv[k + 1];
        else if (!strcmp(argv[k], "--tolerance")) tolerance = atof(argv[k + 1]);
        else break;
    }
    if (k >= argc) {
        fprintf(stderr,
                "usage: uarch_check [--config NAME] [--set S.K=V]… [--tolerance PCT] [--warmup N] [--max N] PROG "
                "[ARGS…]\n");
        return 2;
    }
    prog_argc = argc - k;
    prog_argv = argv + k;
    /* the guest's output would interleave with ours */
    if (!freopen("/dev/null", "w", stdout)) return 2;
    core_stats base, again;
    if (!run(NULL, &base) || !run(NULL, &again)) return 1;
    int failures = 0;
    fprintf(stderr, "%-24s %12s %12s %8s\n", "variant", "instructions", "cycles", "vs base");
    fprintf(stderr, "%-24s %12" PRIu64 " %12" PRIu64 "\n", "baseline", base.instructions, base.cycles);
    if (memcmp(&base, &again, sizeof base) != 0) {
        fprintf(stderr, "FAIL: two identical runs gave different statistics\n");
        failures++;
    }
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        core_stats s;
        if (!run(variants[i].set, &s)) return 1;
        long long diff = (long long)s.cycles - (long long)base.cycles;
        double pct = 100.0 * (double)diff / (double)base.cycles;
        bool wrong_way = variants[i].direction < 0 ? diff > 0 : diff < 0;
        double floor = memory_shared && variants[i].floor < MEMSYS_FLOOR ? MEMSYS_FLOOR : variants[i].floor;
        double allowed = tolerance > floor ? tolerance : floor;
        bool bad = s.instructions != base.instructions || (wrong_way && fabs(pct) > allowed);
        fprintf(stderr, "%-24s %12" PRIu64 " %12" PRIu64 " %+8.2f%%%s\n", variants[i].set, s.instructions, s.cycles,
                pct,
                bad             ? (variants[i].direction < 0 ? "  FAIL: slower" : "  FAIL: faster")
                    : wrong_way ? "  (scheduling anomaly, within tolerance)"
                                : "");
        failures += bad;
    }
    return failures ? 1 : 0;
}
