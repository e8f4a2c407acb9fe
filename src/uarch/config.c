/* Configuration: one table of keys (section, name, type, range, where it
 * lives), read from INI files with inih, overridden with section.key=value,
 * printed back in full. Values are checked once here; the models rely on them. */
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uarch.h"

#ifndef CYCLESCOPE_CONFIG_DIR
#define CYCLESCOPE_CONFIG_DIR "configs"
#endif

typedef enum key_type { KEY_U32, KEY_BYTES, KEY_BOOL, KEY_DOUBLE, KEY_ENUM } key_type;

typedef struct config_key {
    const char *section, *name;
    key_type type;
    size_t offset; /* into uarch_config */
    double min, max;
    const char *const *choices; /* KEY_ENUM: names, NULL-terminated, value = index */
} config_key;

static const char *const model_names[] = {"ooo", "inorder", NULL};
static const char *const mem_order_names[] = {"perfect", "conservative", NULL};
static const char *const bpred_names[] = {"none", "static", "bimodal", "gshare", "tage", "perfect", NULL};

const char *bpred_kind_name(bpred_kind k) { return k <= BPRED_PERFECT ? bpred_names[k] : "?"; }

#define OFF(field) offsetof(uarch_config, field)
#define CACHE_KEYS(sec, field)                                           \
    {sec, "enabled", KEY_BOOL, OFF(field.enabled), 0, 1, NULL},          \
        {sec, "size", KEY_BYTES, OFF(field.size), 64, 1u << 30, NULL},   \
        {sec, "assoc", KEY_U32, OFF(field.assoc), 0, 1024, NULL},        \
        {sec, "line", KEY_U32, OFF(field.line), 4, 4096, NULL},          \
        {sec, "latency", KEY_U32, OFF(field.latency), 0, 10000, NULL}, { \
        sec, "mshrs", KEY_U32, OFF(field.mshrs), 0, 4096, NULL           \
    }

static const config_key keys[] = {
    {"core", "model", KEY_ENUM, OFF(model), 0, 0, model_names},
    {"core", "freq_ghz", KEY_DOUBLE, OFF(freq_ghz), 0.01, 100, NULL},
    {"core", "fetch_width", KEY_U32, OFF(fetch_width), 1, 64, NULL},
    {"core", "dispatch_width", KEY_U32, OFF(dispatch_width), 1, 64, NULL},
    {"core", "issue_width", KEY_U32, OFF(issue_width), 1, 64, NULL},
    {"core", "commit_width", KEY_U32, OFF(commit_width), 1, 64, NULL},
    {"core", "fetch_buffer", KEY_U32, OFF(fetch_buffer), 1, 4096, NULL},
    {"core", "decode_depth", KEY_U32, OFF(decode_depth), 0, 64, NULL},
    {"core", "rob_size", KEY_U32, OFF(rob_size), 1, 65536, NULL},
    {"core", "iq_size", KEY_U32, OFF(iq_size), 1, 65536, NULL},
    {"core", "lq_size", KEY_U32, OFF(lq_size), 1, 65536, NULL},
    {"core", "sq_size", KEY_U32, OFF(sq_size), 1, 65536, NULL},
    {"core", "lsq_size", KEY_U32, OFF(lsq_size), 0, 65536, NULL},
    {"core", "rename_regs", KEY_U32, OFF(rename_regs), 0, 65536, NULL},
    {"core", "redirect_penalty", KEY_U32, OFF(redirect_penalty), 0, 10000, NULL},
    {"core", "mem_order", KEY_ENUM, OFF(mem_order), 0, 0, mem_order_names},
    {"core", "deadlock_cycles", KEY_U32, OFF(deadlock_cycles), 1000, 1e9, NULL},
    {"core", "skip_idle", KEY_BOOL, OFF(skip_idle), 0, 1, NULL},
    {"core", "store_buffer", KEY_U32, OFF(store_buffer), 0, 4096, NULL},
    CACHE_KEYS("l1i", l1i),
    CACHE_KEYS("l1d", l1d),
    {"l1d", "write_allocate", KEY_BOOL, OFF(write_allocate), 0, 1, NULL},
    CACHE_KEYS("l2", l2),
    {"l2", "bandwidth", KEY_U32, OFF(l2_bandwidth), 0, 1u << 20, NULL},
    CACHE_KEYS("l3", l3),
    {"l3", "bandwidth", KEY_U32, OFF(l3_bandwidth), 0, 1u << 20, NULL},
    {"memory", "latency", KEY_U32, OFF(mem_latency), 0, 100000, NULL},
    {"memory", "bandwidth", KEY_U32, OFF(mem_bandwidth), 0, 1u << 20, NULL},
    {"memory", "writebacks", KEY_BOOL, OFF(writebacks), 0, 1, NULL},
    {"dram", "enabled", KEY_BOOL, OFF(dram), 0, 1, NULL},
    {"dram", "channels", KEY_U32, OFF(dram_channels), 1, 64, NULL},
    {"dram", "banks", KEY_U32, OFF(dram_banks), 1, 256, NULL},
    {"dram", "row_size", KEY_BYTES, OFF(dram_row), 64, 1u << 20, NULL},
    {"dram", "t_cas", KEY_U32, OFF(dram_cas), 0, 10000, NULL},
    {"dram", "t_rcd", KEY_U32, OFF(dram_rcd), 0, 10000, NULL},
    {"dram", "t_rp", KEY_U32, OFF(dram_rp), 0, 10000, NULL},
    {"dram", "burst", KEY_U32, OFF(dram_burst), 1, 10000, NULL},
    {"dram", "turnaround", KEY_U32, OFF(dram_turn), 0, 10000, NULL},
    {"itlb", "entries", KEY_U32, OFF(itlb_entries), 0, 65536, NULL},
    {"itlb", "miss_latency", KEY_U32, OFF(itlb_miss_latency), 0, 100000, NULL},
    {"dtlb", "entries", KEY_U32, OFF(dtlb_entries), 0, 65536, NULL},
    {"dtlb", "miss_latency", KEY_U32, OFF(dtlb_miss_latency), 0, 100000, NULL},
    {"l2tlb", "entries", KEY_U32, OFF(l2tlb_entries), 0, 1u << 20, NULL},
    {"l2tlb", "latency", KEY_U32, OFF(l2tlb_latency), 0, 100000, NULL},
    {"prefetch", "icache_next_line", KEY_BOOL, OFF(prefetch_icache_next_line), 0, 1, NULL},
    {"prefetch", "dcache_next_line", KEY_BOOL, OFF(prefetch_dcache_next_line), 0, 1, NULL},
    {"prefetch", "dcache_stride", KEY_U32, OFF(prefetch_dcache_stride), 0, 65536, NULL},
    {"prefetch", "degree", KEY_U32, OFF(prefetch_degree), 1, 64, NULL},
    {"bpred", "type", KEY_ENUM, OFF(bpred), 0, 0, bpred_names},
    {"bpred", "table_bits", KEY_U32, OFF(bpred_table_bits), 1, 24, NULL},
    {"bpred", "history", KEY_U32, OFF(bpred_history), 0, 256, NULL},
    {"bpred", "btb_entries", KEY_U32, OFF(btb_entries), 0, 1u << 20, NULL},
    {"bpred", "ras_entries", KEY_U32, OFF(ras_entries), 0, 1024, NULL},
    {"ideal", "icache", KEY_BOOL, OFF(perfect_icache), 0, 1, NULL},
    {"ideal", "dcache", KEY_BOOL, OFF(perfect_dcache), 0, 1, NULL},
    {"ideal", "bpred", KEY_BOOL, OFF(perfect_bpred), 0, 1, NULL},
    {"ideal", "alu", KEY_BOOL, OFF(ideal_alu), 0, 1, NULL},
    {"inorder", "fetch_buffer", KEY_U32, OFF(inorder.fetch_buffer), 1, 16, NULL},
    {"inorder", "issue_buffer", KEY_U32, OFF(inorder.issue_buffer), 1, 16, NULL},
    {"inorder", "mem_stall_stage", KEY_U32, OFF(inorder.mem_stall_stage), 1, 64, NULL},
    {"inorder", "value_prediction", KEY_BOOL, OFF(inorder.value_prediction), 0, 1, NULL},
    {"inorder", "vpt_entries", KEY_U32, OFF(inorder.vpt_entries), 1, 1u << 20, NULL},
    {"inorder", "ct_entries", KEY_U32, OFF(inorder.ct_entries), 1, 1u << 20, NULL},
    /* Noonburg §6.1: branches resolve at issue, a one-cycle bubble behind a
     * mispredicted one; resolve_delay adds cycles before fetch resumes. */
    {"inorder", "resolve_delay", KEY_U32, OFF(inorder.resolve_delay), 0, 10000, NULL},
};
enum { KEY_COUNT = sizeof keys / sizeof keys[0] };

/* ---- defaults: RpStacks Table II (Lee, Jang, Kim) ---------------------------------- */

static void set_pool(uarch_config *c, const char *name, uint32_t count, uint32_t classes) {
    fu_pool *p = &c->pool[c->pool_count++];
    snprintf(p->name, sizeof p->name, "%s", name);
    p->count = count;
    p->classes = classes;
}

#define CLS(c) (1u << (c))

/* The DRAM's timings not given in the configuration, in this core's cycles: DDR4-2400-like
 * CL/tRCD/tRP of 13.3 ns (16 memory clocks at 1.2 GHz), a 2.67 ns burst and a 6.67 ns bus
 * turnaround — 40, 40, 40, 8 and 20 cycles of a 3 GHz core, fewer on a slower clock. Called
 * whenever the clock is set, so a timing follows it unless the configuration names it. */
_Static_assert(offsetof(uarch_config, dram_turn) - offsetof(uarch_config, dram_cas) == 4 * sizeof(uint32_t),
               "the DRAM timings are five consecutive fields (their bits in dram_timing_set)");
static void dram_timing_follow_clock(uarch_config *c) {
    static const double ns[5] = {40 / 3.0, 40 / 3.0, 40 / 3.0, 8 / 3.0, 20 / 3.0};
    uint32_t *field[5] = {&c->dram_cas, &c->dram_rcd, &c->dram_rp, &c->dram_burst, &c->dram_turn};
    for (int i = 0; i < 5; i++) {
        if (c->dram_timing_set & (1u << i)) continue;
        long cycles = lround(ns[i] * c->freq_ghz);
        *field[i] = cycles < 1 ? 1 : (uint32_t)cycles; /* a timing is at least a cycle */
    }
}

void uarch_config_default(uarch_config *c) {
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "default");
    c->model = MODEL_OOO;
    c->freq_ghz = 3.0;
    c->fetch_width = c->dispatch_width = c->issue_width = c->commit_width = 4;
    c->fetch_buffer = 16;
    c->decode_depth = 3;
    c->rob_size = 128;
    c->iq_size = 36;
    c->lq_size = c->sq_size = 32;
    c->lsq_size = 64; /* RpStacks Table II: one 64-entry LSQ */
    c->redirect_penalty = 3;
    c->mem_order = MEM_ORDER_PERFECT;
    c->deadlock_cycles = 1000000;
    c->skip_idle = true;
    set_pool(c, "alu", 4,
             CLS(OPC_INT_ALU) | CLS(OPC_BRANCH) | CLS(OPC_JUMP) | CLS(OPC_JUMP_INDIRECT) | CLS(OPC_CALL) |
                 CLS(OPC_RETURN) | CLS(OPC_SYSTEM) | CLS(OPC_NOP));
    set_pool(c, "longalu", 2, CLS(OPC_INT_MUL) | CLS(OPC_INT_DIV));
    set_pool(c, "fp", 2,
             CLS(OPC_FP_ADD) | CLS(OPC_FP_MUL) | CLS(OPC_FP_FMA) | CLS(OPC_FP_DIV) | CLS(OPC_FP_SQRT) |
                 CLS(OPC_FP_MISC));
    set_pool(c, "load", 2, CLS(OPC_LOAD) | CLS(OPC_ATOMIC));
    set_pool(c, "store", 2, CLS(OPC_STORE));
    for (int k = 0; k < OPC_COUNT; k++) {
        c->latency[k] = 1;
        c->pipelined[k] = true;
    }
    c->latency[OPC_INT_MUL] = 4;
    c->latency[OPC_INT_DIV] = 32;
    c->latency[OPC_FP_ADD] = c->latency[OPC_FP_MUL] = c->latency[OPC_FP_FMA] = 6;
    c->latency[OPC_FP_MISC] = 2;
    c->latency[OPC_FP_DIV] = c->latency[OPC_FP_SQRT] = 24;
    c->latency[OPC_LOAD] = c->latency[OPC_ATOMIC] = 2;
    c->pipelined[OPC_INT_DIV] = c->pipelined[OPC_FP_DIV] = c->pipelined[OPC_FP_SQRT] = false;
    c->l1i = (cache_config){true, 48 * 1024, 4, 64, 2, 8};
    c->l1d = (cache_config){true, 48 * 1024, 4, 64, 4, 16};
    c->l2 = (cache_config){true, 4 * 1024 * 1024, 8, 64, 12, 32};
    c->l3 = (cache_config){false, 8 * 1024 * 1024, 16, 64, 36, 64};
    c->mem_latency = 133;
    c->write_allocate = true;
    c->dram_channels = 1;
    c->dram_banks = 16;
    c->dram_row = 8192;
    dram_timing_follow_clock(c);
    c->prefetch_degree = 1;
    c->bpred = BPRED_GSHARE;
    c->bpred_table_bits = 14;
    c->bpred_history = 12;
    c->btb_entries = 4096;
    c->ras_entries = 16;
    c->inorder.fetch_buffer = 2;
    c->inorder.issue_buffer = 2;
    c->inorder.mem_stall_stage = 1;
    c->inorder.vpt_entries = 1024;
    c->inorder.ct_entries = 1024;
}

static void unknown_key(const char *section, const char *name, cs_error *err);

/* ---- parsing ------------------------------------------------------------------------------ */

static bool parse_bool(const char *v, bool *out) {
    if (!strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcasecmp(v, "on") || !strcmp(v, "1"))
        return *out = true, true;
    if (!strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcasecmp(v, "off") || !strcmp(v, "0"))
        return *out = false, true;
    return false;
}

/* An unsigned number, with K/M/G (x1024) for byte sizes. */
static bool parse_u64(const char *v, bool bytes, uint64_t *out) {
    if (!*v || *v == '-') return false;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(v, &end, 0);
    if (errno || end == v) return false;
    uint64_t mult = 1;
    if (bytes && *end) {
        char s = (char)toupper((unsigned char)*end++);
        mult = s == 'K' ? 1024ull : s == 'M' ? 1024ull * 1024 : s == 'G' ? 1024ull * 1024 * 1024 : 0;
        if (*end == 'B' || *end == 'b') end++;
        if (!mult) return false;
    }
    if (*end) return false;
    if (x > UINT64_MAX / mult) return false;
    *out = x * mult;
    return true;
}

static int class_by_name(const char *name) {
    for (int k = 0; k < OPC_COUNT; k++) {
        const char *n = isa_class_name((op_class)k);
        size_t i = 0;
        while (n[i] && (name[i] == n[i] || (name[i] == '_' && n[i] == '-'))) i++;
        if (!n[i] && !name[i]) return k;
    }
    return -1;
}

/* "int-alu cond-branch …" (spaces or commas) into a class bit set. */
static bool parse_classes(const char *v, uint32_t *out, char *bad, size_t badlen) {
    uint32_t mask = 0;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", v);
    for (char *tok = strtok(buf, " ,\t"); tok; tok = strtok(NULL, " ,\t")) {
        int k = class_by_name(tok);
        if (k < 0) {
            snprintf(bad, badlen, "%s", tok);
            return false;
        }
        mask |= 1u << k;
    }
    *out = mask;
    return true;
}

static fu_pool *find_pool(uarch_config *c, const char *name, bool create) {
    for (uint32_t i = 0; i < c->pool_count; i++)
        if (!strcmp(c->pool[i].name, name)) return &c->pool[i];
    if (!create || c->pool_count == UARCH_MAX_POOLS) return NULL;
    fu_pool *p = &c->pool[c->pool_count++];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    return p;
}

static inorder_pipe *find_pipe(uarch_config *c, const char *name, bool create) {
    inorder_config *io = &c->inorder;
    for (uint32_t i = 0; i < io->pipe_count; i++)
        if (!strcmp(io->pipe[i].name, name)) return &io->pipe[i];
    if (!create || io->pipe_count == INORDER_MAX_PIPES) return NULL;
    inorder_pipe *p = &io->pipe[io->pipe_count++];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    return p;
}

/* Set section.name = value. `create` allows new [fu.*] / [pipe.*] sections (files only). */
static bool set_value(uarch_config *c, const char *section, const char *name, const char *value, bool create,
                      cs_error *err) {
    if (!strncmp(section, "fu.", 3) || !strncmp(section, "pipe.", 5)) {
        bool fu = section[0] == 'f';
        const char *unit = section + (fu ? 3 : 5);
        if (!*unit || strlen(unit) >= UARCH_NAME_MAX) {
            cs_error_set(err, "bad section name [%s]", section);
            return false;
        }
        uint32_t *count = NULL, *classes = NULL;
        if (fu) {
            fu_pool *pool = find_pool(c, unit, create);
            if (!pool) {
                if (create) cs_error_set(err, "too many [fu.*] pools (at most %d)", UARCH_MAX_POOLS);
                else cs_error_set(err, "unknown section [%s]", section);
                return false;
            }
            count = &pool->count, classes = &pool->classes;
        } else {
            inorder_pipe *pipe = find_pipe(c, unit, create);
            if (!pipe) {
                if (create) cs_error_set(err, "too many [pipe.*] pipes (at most %d)", INORDER_MAX_PIPES);
                else cs_error_set(err, "unknown section [%s]", section);
                return false;
            }
            count = &pipe->stages, classes = &pipe->classes;
        }
        const char *count_key = fu ? "count" : "stages";
        if (!strcmp(name, count_key)) {
            uint64_t x;
            if (!parse_u64(value, false, &x) || x < 1 || x > 64) {
                cs_error_set(err, "%s.%s = %s: expected an integer from 1 to 64", section, name, value);
                return false;
            }
            *count = (uint32_t)x;
            return true;
        }
        if (!strcmp(name, "classes")) {
            char bad[64];
            if (!parse_classes(value, classes, bad, sizeof bad)) {
                cs_error_set(err, "%s.classes: unknown operation class '%s'", section, bad);
                return false;
            }
            return true;
        }
        cs_error_set(err, "unknown key %s.%s (expected %s or classes)", section, name, count_key);
        return false;
    }
    if (!strcmp(section, "latency") || !strcmp(section, "pipelined")) {
        int k = class_by_name(name);
        if (k < 0) {
            cs_error_set(err, "unknown key %s.%s: not an operation class", section, name);
            return false;
        }
        if (section[0] == 'l') {
            uint64_t x;
            /* an operation takes at least a cycle (class_latency): 0 was timed as 1 without a word */
            if (!parse_u64(value, false, &x) || x == 0 || x > 10000) {
                cs_error_set(err, "latency.%s = %s: expected an integer from 1 to 10000", name, value);
                return false;
            }
            c->latency[k] = (uint32_t)x;
        } else if (!parse_bool(value, &c->pipelined[k])) {
            cs_error_set(err, "pipelined.%s = %s: expected yes or no", name, value);
            return false;
        }
        return true;
    }
    if (!strcmp(section, "core") && !strcmp(name, "name")) {
        snprintf(c->name, sizeof c->name, "%s", value);
        return true;
    }
    for (int i = 0; i < KEY_COUNT; i++) {
        const config_key *k = &keys[i];
        if (strcmp(k->section, section) || strcmp(k->name, name)) continue;
        void *field = (char *)c + k->offset;
        switch (k->type) {
        case KEY_U32:
        case KEY_BYTES: {
            uint64_t x;
            if (!parse_u64(value, k->type == KEY_BYTES, &x) || x < k->min || x > k->max) {
                cs_error_set(err, "%s.%s = %s: expected %s from %.0f to %.0f", section, name, value,
                             k->type == KEY_BYTES ? "a size in bytes (K, M, G suffixes)" : "an integer", k->min,
                             k->max);
                return false;
            }
            *(uint32_t *)field = (uint32_t)x;
            if (k->offset >= OFF(dram_cas) && k->offset <= OFF(dram_turn))
                c->dram_timing_set |= (uint8_t)(1u << ((k->offset - OFF(dram_cas)) / sizeof(uint32_t)));
            return true;
        }
        case KEY_BOOL:
            if (!parse_bool(value, field)) {
                cs_error_set(err, "%s.%s = %s: expected yes or no", section, name, value);
                return false;
            }
            return true;
        case KEY_DOUBLE: {
            char *end;
            errno = 0;
            double x = strtod(value, &end);
            if (errno || end == value || *end || !(x >= k->min && x <= k->max)) {
                cs_error_set(err, "%s.%s = %s: expected a number from %g to %g", section, name, value, k->min, k->max);
                return false;
            }
            *(double *)field = x;
            if (k->offset == OFF(freq_ghz)) dram_timing_follow_clock(c);
            return true;
        }
        case KEY_ENUM:
            for (int v = 0; k->choices[v]; v++) {
                if (!strcmp(k->choices[v], value)) {
                    *(int *)field = v;
                    return true;
                }
            }
            char list[256] = "";
            for (int v = 0; k->choices[v]; v++) {
                strncat(list, v ? ", " : "", sizeof list - strlen(list) - 1);
                strncat(list, k->choices[v], sizeof list - strlen(list) - 1);
            }
            cs_error_set(err, "%s.%s = %s: expected one of %s", section, name, value, list);
            return false;
        }
    }
    unknown_key(section, name, err);
    return false;
}

/* ---- which keys a model reads, and the nearest key to a mistyped one ---- */

/* The in-order machines (inorder.c) read the model, clock and deadlock limit,
 * the store buffer, their [inorder] and [pipe.*] sections, the TLBs, the caches
 * (blocking: no L1I MSHRs, the L1D's only for the store buffer's fills; the
 * L1s always exist), memory and the DRAM model, the prefetchers (the shared
 * memory system's: in-order fetches and data accesses reach them, with their
 * pc), the predictor and the idealisations; the out-of-order model reads
 * everything but [inorder] and [pipe.*]. */
bool uarch_config_key_read(core_model model, const char *section, const char *name) {
    bool inorder_only = !strcmp(section, "inorder") || !strncmp(section, "pipe.", 5);
    if (model == MODEL_OOO) return !inorder_only;
    if (inorder_only || !strcmp(section, "memory") || !strcmp(section, "bpred") || !strcmp(section, "ideal") ||
        !strcmp(section, "itlb") || !strcmp(section, "dtlb") || !strcmp(section, "l2tlb") || !strcmp(section, "dram") ||
        !strcmp(section, "prefetch"))
        return true;
    if (!strcmp(section, "core"))
        return !strcmp(name, "model") || !strcmp(name, "freq_ghz") || !strcmp(name, "deadlock_cycles") ||
            !strcmp(name, "name") || !strcmp(name, "store_buffer");
    if (!strcmp(section, "l1d")) return strcmp(name, "enabled") != 0; /* mshrs: the store buffer's fills */
    if (!strcmp(section, "l1i")) return strcmp(name, "enabled") && strcmp(name, "mshrs");
    if (!strcmp(section, "l2") || !strcmp(section, "l3")) return strcmp(name, "mshrs") != 0;
    return false; /* [fu.*], [latency], [pipelined] */
}

/* "unknown key S.N", with the nearest key of the table when one is close. */
static void unknown_key(const char *section, const char *name, cs_error *err) {
    if (!*section) { /* before any [section]: only `base` belongs there */
        cs_error_set(err, "%s before any [section] (only `base = NAME|FILE.ini` comes before them)", name);
        return;
    }
    char given[256], best[256] = "", cand[256];
    snprintf(given, sizeof given, "%s.%s", section, name);
    /* part of a key's name (core.rob for core.rob_size, core.width for the four widths): the
     * keys of the section holding it, however far in spelling */
    char part_of[512] = "";
    int parts = 0;
    size_t name_len = strlen(name);
    for (int i = 0; i < KEY_COUNT && name_len >= 2; i++) {
        const char *at = strcmp(keys[i].section, section) ? NULL : strstr(keys[i].name, name);
        if (!at || (at != keys[i].name && name_len < 3)) continue; /* two letters: a prefix only */
        if (++parts <= 4) {
            size_t used = strlen(part_of);
            snprintf(part_of + used, sizeof part_of - used, "%s%s.%s", used ? ", " : "", section, keys[i].name);
        }
    }
    if (parts == 1) {
        cs_error_set(err, "unknown key %s (did you mean %s?)", given, part_of);
        return;
    }
    if (parts > 1 && parts <= 4) {
        cs_error_set(err, "unknown key %s (did you mean one of %s?)", given, part_of);
        return;
    }
    size_t best_d = (size_t)-1;
    for (int i = 0; i < KEY_COUNT; i++) {
        snprintf(cand, sizeof cand, "%s.%s", keys[i].section, keys[i].name);
        size_t d = cs_edit_distance(given, cand);
        if (d < best_d) best_d = d, snprintf(best, sizeof best, "%s", cand);
    }
    if (best_d <= 3) cs_error_set(err, "unknown key %s (did you mean %s?)", given, best);
    else cs_error_set(err, "unknown key %s (`cyclescope config show NAME` lists every key)", given);
}

void uarch_config_widths(const uarch_config *c, uint32_t width[4]) {
    if (c->model == MODEL_INORDER) { /* Noonburg §3.3: the connections' bandwidths (inorder.c) */
        const inorder_config *io = &c->inorder;
        uint32_t issue = io->issue_buffer < io->pipe_count ? io->issue_buffer : io->pipe_count;
        width[0] = io->fetch_buffer;
        width[1] = io->fetch_buffer < io->issue_buffer ? io->fetch_buffer : io->issue_buffer;
        width[2] = width[3] = issue;
        return;
    }
    width[0] = c->fetch_width, width[1] = c->dispatch_width, width[2] = c->issue_width, width[3] = c->commit_width;
}

enum { CONFIG_MAX_KEYS = 512 }; /* keys checked for repeats (a shipped file sets about 150) */

typedef struct ini_state {
    uarch_config *cfg;
    cs_error *err;
    const char *path;              /* the file read (a base is looked for beside it); NULL for a text */
    const struct ini_state *named; /* the file whose base this one is; NULL for the file given */
    bool failed;
    bool pools_cleared, pipes_cleared; /* a file with [fu.*] / [pipe.*] replaces the defaults */
    size_t settings;                   /* keys set: a file with none is refused */
    char seen[CONFIG_MAX_KEYS][80];    /* "section.key" of each key set, in order */
} ini_state;

/* Blanks around a value (or a --set section and key), dropped. */
static char *trim_blanks(char *s) {
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = 0;
    return s;
}

static bool config_load(uarch_config *cfg, const char *name_or_path, const ini_state *named, cs_error *err);

/* "bdw" names a configuration of uarch_config_dir(); "my.ini" or "dir/x" is a file. */
static bool config_is_name(const char *name_or_path) {
    return !strchr(name_or_path, '/') && !strstr(name_or_path, ".ini");
}

/* `base = NAME|FILE.ini`, the first line of a file that sets anything: the configuration this
 * one changes (as Sniper's `#include nehalem`), loaded first, its keys then overridden by this
 * file's. A name is one of the configuration directory's; a path is taken from the directory of
 * the file that names it. */
enum { CONFIG_MAX_BASE_DEPTH = 8 };

static bool load_base(ini_state *st, const char *base) {
    if (!*base) {
        cs_error_set(st->err, "base = nothing: name a configuration (one of %s/*.ini) or a FILE.ini",
                     uarch_config_dir());
        return false;
    }
    char path[PATH_MAX + 64];
    const char *slash = st->path ? strrchr(st->path, '/') : NULL;
    if (!config_is_name(base) && base[0] != '/' && slash)
        snprintf(path, sizeof path, "%.*s/%s", (int)(slash - st->path), st->path, base);
    else snprintf(path, sizeof path, "%s", base);
    cs_error inner;
    if (!config_load(st->cfg, path, st, &inner)) {
        cs_error_set(st->err, "base = %s: %s", base, inner.msg);
        return false;
    }
    return true;
}

static int config_ini_handler(void *user, const char *section, const char *name, const char *value) {
    ini_state *st = user;
    if (st->failed) return 0;
    if (!strncmp(section, "fu.", 3) && !st->pools_cleared) {
        st->cfg->pool_count = 0;
        st->pools_cleared = true;
    }
    if (!strncmp(section, "pipe.", 5) && !st->pipes_cleared) {
        st->cfg->inorder.pipe_count = 0;
        st->pipes_cleared = true;
    }
    if (!name) return 1; /* a section header alone */
    /* inline comments: "# ..." or "; ..." after whitespace (inih leaves '#' ones in) */
    char clean[512];
    snprintf(clean, sizeof clean, "%s", value);
    for (char *p = clean; *p; p++) {
        if ((*p == '#' || *p == ';') && (p == clean || p[-1] == ' ' || p[-1] == '\t')) {
            *p = 0;
            break;
        }
    }
    value = trim_blanks(clean);
    /* a key set twice kept the last value without a word (a file edited by appending, or two
     * [core] sections) */
    char key[80];
    snprintf(key, sizeof key, "%s.%s", section, name);
    for (size_t i = 0; i < st->settings && i < CONFIG_MAX_KEYS; i++) {
        if (!strcmp(st->seen[i], key)) {
            cs_error_set(st->err,
                         "%s set twice (the first value would be dropped; an indented line continues the key "
                         "before it)",
                         key);
            st->failed = true;
            return 0;
        }
    }
    if (st->settings < CONFIG_MAX_KEYS) snprintf(st->seen[st->settings], sizeof st->seen[0], "%s", key);
    if (*section && !strcmp(name, "base")) {
        cs_error_set(st->err, "base = %s inside [%s]: it must be the file's first line, before any section", value,
                     section);
        st->failed = true;
        return 0;
    }
    if (!strcmp(name, "base")) {
        if (!load_base(st, value)) {
            st->failed = true;
            return 0;
        }
        st->settings++;
        return 1;
    }
    if (!set_value(st->cfg, section, name, value, true, st->err)) {
        st->failed = true;
        return 0;
    }
    st->settings++;
    return 1;
}

static char installed_config_dir[PATH_MAX];

/* An installed binary (cmake --install) finds its configurations beside it, in
 * PREFIX/share/cyclescope/configs for PREFIX/bin/cyclescope; found once. */
static void find_installed_config_dir(void) {
    char exe[PATH_MAX], dir[PATH_MAX + 32];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash) return;
    *slash = 0;
    snprintf(dir, sizeof dir, "%s/../share/cyclescope/configs", exe);
    struct stat st;
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && !realpath(dir, installed_config_dir)) installed_config_dir[0] = 0;
}

/* $CYCLESCOPE_CONFIGS, else the installed configurations, else the source tree's. */
const char *uarch_config_dir(void) {
    const char *env = getenv("CYCLESCOPE_CONFIGS");
    if (env && *env) return env;
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, find_installed_config_dir);
    return installed_config_dir[0] ? installed_config_dir : CYCLESCOPE_CONFIG_DIR;
}

const char *uarch_config_renamed(const char *name) {
    /* issue 18: "rpstacks" named the RpStacks paper's Table II machine and read as the method */
    return !strcmp(name, "rpstacks") ? "ooo4" : NULL;
}

bool uarch_config_load(uarch_config *cfg, const char *name_or_path, cs_error *err) {
    return config_load(cfg, name_or_path, NULL, err);
}

static bool config_load(uarch_config *cfg, const char *name_or_path, const ini_state *named, cs_error *err) {
    char path[PATH_MAX + 64];
    bool by_name = config_is_name(name_or_path);
    if (by_name && uarch_config_renamed(name_or_path)) name_or_path = uarch_config_renamed(name_or_path);
    int len = by_name ? snprintf(path, sizeof path, "%s/%s.ini", uarch_config_dir(), name_or_path)
                      : snprintf(path, sizeof path, "%s", name_or_path);
    if (len < 0 || (size_t)len >= sizeof path) {
        cs_error_set(err, "%.64s…: configuration name or path too long", name_or_path);
        return false;
    }
    if (by_name && access(path, F_OK) != 0) {
        /* an existing file given by a name without .ini: say what is wrong with the file */
        if (access(name_or_path, F_OK) == 0)
            cs_error_set(err, "%s: not a configuration file (a configuration file is FILE.ini; or a name from %s)",
                         name_or_path, uarch_config_dir());
        else cs_error_set(err, "no configuration named '%s' (looked for %s)", name_or_path, path);
        return false;
    }
    /* a base: not one of the files naming it (a cycle), nor too deep a chain of them */
    int depth = 0;
    char real[PATH_MAX];
    for (const ini_state *s = named; s; s = s->named, depth++) {
        char other[PATH_MAX];
        if (s->path && realpath(path, real) && realpath(s->path, other) && !strcmp(other, real)) {
            cs_error_set(err, "a cycle (%s is a base of itself)", s->path);
            return false;
        }
    }
    if (depth > CONFIG_MAX_BASE_DEPTH) {
        cs_error_set(err, "bases nested deeper than %d (a file that is its own base?)", CONFIG_MAX_BASE_DEPTH);
        return false;
    }
    FILE *f = cs_fopen_input(path, err); /* a regular file: /dev/zero or a FIFO is refused at once */
    if (!f) return false;
    /* A configuration is a page of text. A binary file passed the INI parser (a file of
     * zeros is empty lines: every default, exit 0), and a huge one took it hours. */
    /* The INI reader reads a line into 200 bytes and takes the rest of a longer one as a
     * line of its own: "# …(198 characters)… rob_size = 32" set rob_size. */
    enum { CONFIG_MAX_BYTES = 1 << 20, CONFIG_MAX_LINE = 198 };
    char chunk[4096];
    size_t got, total = 0, line_len = 0, line_no = 1, long_line = 0;
    bool binary = false;
    while (!binary && !long_line && total <= CONFIG_MAX_BYTES && (got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        binary = memchr(chunk, 0, got) != NULL;
        total += got;
        for (size_t i = 0; i < got && !long_line; i++) {
            if (chunk[i] == '\n') line_no++, line_len = 0;
            else if (++line_len > CONFIG_MAX_LINE) long_line = line_no;
        }
    }
    if (binary || long_line || total > CONFIG_MAX_BYTES || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        if (long_line && !binary)
            cs_error_set(err, "%s:%zu: a line longer than %d bytes (the INI reader would split it)", path, long_line,
                         CONFIG_MAX_LINE);
        else
            cs_error_set(err, "%s: not a configuration file (%s)", path,
                         binary ? "binary data, not INI text" : "larger than 1 MB, not INI text");
        return false;
    }
    ini_state st = {.cfg = cfg, .err = err, .path = path, .named = named};
    cs_error local;
    if (!err) st.err = &local;
    int line = ini_parse_file(f, config_ini_handler, &st);
    fclose(f);
    if (line != 0) {
        if (st.failed) cs_error_prefix(st.err, "%s:%d", path, line);
        else if (line > 0) cs_error_set(st.err, "%s:%d: syntax error", path, line);
        else cs_error_set(st.err, "%s: cannot read", path);
        if (line > 0 && !strstr(path, ".ini")) { /* say why: it was never meant to be one */
            char why[sizeof st.err->msg];
            snprintf(why, sizeof why, "%s", st.err->msg);
            cs_error_set(st.err, "%s: not an .ini configuration file (%s)", path, why);
        }
        return false;
    }
    /* an empty file (or one of comments only) would run the defaults under its name: a file
     * cut to nothing, or the wrong file, would give another machine's numbers */
    if (st.settings == 0) {
        cs_error_set(st.err, "%s: no settings (an empty configuration file; start from one of %s/*.ini)", path,
                     uarch_config_dir());
        return false;
    }
    /* the name is the file stem */
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(cfg->name, sizeof cfg->name, "%.*s", (int)strcspn(base, "."), base);
    return true;
}

bool uarch_config_load_text(uarch_config *cfg, const char *text, const char *name, cs_error *err) {
    ini_state st = {.cfg = cfg, .err = err};
    cs_error local;
    if (!err) st.err = &local;
    int line = ini_parse_string(text, config_ini_handler, &st);
    if (line == 0) return true;
    if (st.failed) cs_error_prefix(st.err, "%s:%d", name, line);
    else cs_error_set(st.err, "%s:%d: syntax error", name, line);
    return false;
}

bool uarch_config_set(uarch_config *cfg, const char *assignment, cs_error *err) {
    const char *eq = strchr(assignment, '=');
    const char *dot = eq ? memrchr(assignment, '.', (size_t)(eq - assignment)) : NULL;
    if (!eq || !dot || dot == assignment) {
        cs_error_set(err, "--set %s: expected section.key=value", assignment);
        return false;
    }
    /* blanks around the section, key and value are dropped, as the INI reader drops them
     * (`k= 64` and `k=64 ` alike) */
    char section[128], name[128];
    snprintf(section, sizeof section, "%.*s", (int)(dot - assignment), assignment);
    snprintf(name, sizeof name, "%.*s", (int)(eq - dot - 1), dot + 1);
    char *value = cs_strdup(eq + 1);
    bool ok = set_value(cfg, trim_blanks(section), trim_blanks(name), trim_blanks(value), false, err);
    free(value);
    if (!ok) cs_error_prefix(err, "--set");
    return ok;
}

/* ---- cross-field validation ---------------------------------------------------------------- */

static bool is_pow2(uint64_t x) { return x && !(x & (x - 1)); }

static bool check_cache(const char *name, const cache_config *cc, cs_error *err) {
    if (!cc->enabled) return true;
    if (!is_pow2(cc->line)) {
        cs_error_set(err, "%s.line = %u: must be a power of two", name, cc->line);
        return false;
    }
    uint64_t lines = cc->size / cc->line;
    if (cc->size % cc->line || lines == 0) {
        cs_error_set(err, "%s.size = %u: must be a multiple of %s.line (%u)", name, cc->size, name, cc->line);
        return false;
    }
    if (cc->assoc && lines % cc->assoc) {
        cs_error_set(err, "%s: %u bytes / %u-byte lines is not a whole number of %u-way sets", name, cc->size, cc->line,
                     cc->assoc);
        return false;
    }
    return true;
}

/* Every operation class must be served by exactly one unit. */
static bool check_coverage(const char *what, uint32_t n, const char *(*name_of)(const uarch_config *, uint32_t),
                           uint32_t (*classes_of)(const uarch_config *, uint32_t), const uarch_config *c,
                           cs_error *err) {
    for (int k = 0; k < OPC_COUNT; k++) {
        int owner = -1;
        for (uint32_t i = 0; i < n; i++) {
            if (!(classes_of(c, i) & (1u << k))) continue;
            if (owner >= 0) {
                cs_error_set(err, "%s.%s.classes and %s.%s.classes both list %s", what, name_of(c, (uint32_t)owner),
                             what, name_of(c, i), isa_class_name((op_class)k));
                return false;
            }
            owner = (int)i;
        }
        if (owner < 0) {
            cs_error_set(err, "operation class %s is in no [%s.*] section's classes", isa_class_name((op_class)k),
                         what);
            return false;
        }
    }
    return true;
}

static const char *pool_name(const uarch_config *c, uint32_t i) { return c->pool[i].name; }
static uint32_t pool_classes(const uarch_config *c, uint32_t i) { return c->pool[i].classes; }
static const char *pipe_name(const uarch_config *c, uint32_t i) { return c->inorder.pipe[i].name; }
static uint32_t pipe_classes(const uarch_config *c, uint32_t i) { return c->inorder.pipe[i].classes; }

bool uarch_config_validate(const uarch_config *c, cs_error *err) {
    /* the BTB is indexed by pc bits: a count that is not a power of two would be
     * rounded up quietly, modelling a different machine than the one asked for */
    if (c->btb_entries && !is_pow2(c->btb_entries)) {
        cs_error_set(err, "bpred.btb_entries = %u: expected 0 (no BTB) or a power of two from 1 to 1048576",
                     c->btb_entries);
        return false;
    }
    if (!check_cache("l1i", &c->l1i, err) || !check_cache("l1d", &c->l1d, err) || !check_cache("l2", &c->l2, err) ||
        !check_cache("l3", &c->l3, err))
        return false;
    if (c->model == MODEL_INORDER) {
        if (c->inorder.pipe_count == 0) {
            cs_error_set(err, "core.model = inorder needs at least one [pipe.*] section");
            return false;
        }
        const uint32_t memory = (1u << OPC_LOAD) | (1u << OPC_STORE) | (1u << OPC_ATOMIC);
        for (uint32_t i = 0; i < c->inorder.pipe_count; i++) {
            const inorder_pipe *p = &c->inorder.pipe[i];
            if (p->stages == 0) {
                cs_error_set(err, "pipe.%s.stages is missing", p->name);
                return false;
            }
            /* the D-cache stall stage (Noonburg §7.2: the first) must exist in every memory pipe */
            if ((p->classes & memory) && c->inorder.mem_stall_stage > p->stages) {
                cs_error_set(err, "inorder.mem_stall_stage = %u: pipe.%s (which serves memory classes) has %u stage%s",
                             c->inorder.mem_stall_stage, p->name, p->stages, p->stages == 1 ? "" : "s");
                return false;
            }
        }
        if (c->bpred == BPRED_GSHARE && c->bpred_history > 32) {
            cs_error_set(err, "bpred.history = %u: gshare keeps at most 32 bits of history", c->bpred_history);
            return false;
        }
        return check_coverage("pipe", c->inorder.pipe_count, pipe_name, pipe_classes, c, err);
    }
    struct {
        const char *name;
        uint32_t width;
    } widths[] = {{"fetch_width", c->fetch_width},
                  {"dispatch_width", c->dispatch_width},
                  {"issue_width", c->issue_width},
                  {"commit_width", c->commit_width}};
    for (int i = 0; i < 4; i++) {
        if (widths[i].width > c->rob_size) {
            cs_error_set(err, "core.%s = %u is larger than core.rob_size = %u", widths[i].name, widths[i].width,
                         c->rob_size);
            return false;
        }
    }
    if (c->dispatch_width > c->iq_size) {
        cs_error_set(err, "core.dispatch_width = %u is larger than core.iq_size = %u", c->dispatch_width, c->iq_size);
        return false;
    }
    if (c->fetch_width > c->fetch_buffer) {
        cs_error_set(err, "core.fetch_width = %u is larger than core.fetch_buffer = %u", c->fetch_width,
                     c->fetch_buffer);
        return false;
    }
    if (c->iq_size > c->rob_size) {
        cs_error_set(err, "core.iq_size = %u is larger than core.rob_size = %u", c->iq_size, c->rob_size);
        return false;
    }
    /* an atomic (AMO, LR/SC) is a load and a store in one µop: it takes an entry of each at
     * dispatch, so a shared LSQ of one never takes it and the run stopped as a deadlock */
    if (c->lsq_size == 1) {
        cs_error_set(err,
                     "core.lsq_size = 1: an atomic takes a load and a store entry at once; a shared LSQ needs at "
                     "least 2 (or 0: separate core.lq_size and core.sq_size)");
        return false;
    }
    if (c->rename_regs && c->rename_regs < c->dispatch_width) {
        cs_error_set(err, "core.rename_regs = %u is smaller than core.dispatch_width = %u", c->rename_regs,
                     c->dispatch_width);
        return false;
    }
    if (c->pool_count == 0) {
        cs_error_set(err, "no functional units: add [fu.*] sections");
        return false;
    }
    for (uint32_t i = 0; i < c->pool_count; i++) {
        if (c->pool[i].count == 0) {
            cs_error_set(err, "fu.%s.count is missing", c->pool[i].name);
            return false;
        }
    }
    if (c->bpred == BPRED_GSHARE && c->bpred_history > 32) {
        cs_error_set(err, "bpred.history = %u: gshare keeps at most 32 bits of history", c->bpred_history);
        return false;
    }
    return check_coverage("fu", c->pool_count, pool_name, pool_classes, c, err);
}

/* ---- printing ------------------------------------------------------------------------------- */

static void print_classes(FILE *out, uint32_t mask) {
    bool first = true;
    for (int k = 0; k < OPC_COUNT; k++) {
        if (!(mask & (1u << k))) continue;
        fprintf(out, "%s%s", first ? "" : " ", isa_class_name((op_class)k));
        first = false;
    }
    fputc('\n', out);
}

void uarch_config_print(const uarch_config *c, FILE *out) {
    fprintf(out, "# cyclescope configuration '%s' (fully resolved)\n", c->name);
    const char *section = NULL;
    for (int i = 0; i < KEY_COUNT; i++) {
        const config_key *k = &keys[i];
        if (!uarch_config_key_read(c->model, k->section, k->name)) continue;
        if (!section || strcmp(section, k->section)) {
            if (section && !strcmp(section, "core")) { /* pools and latencies follow the core */
                for (uint32_t p = 0; p < c->pool_count && c->model == MODEL_OOO; p++) {
                    fprintf(out, "\n[fu.%s]\ncount = %u\nclasses = ", c->pool[p].name, c->pool[p].count);
                    print_classes(out, c->pool[p].classes);
                }
                if (c->model == MODEL_OOO) { /* the in-order pipes' depth is their latency */
                    fprintf(out, "\n[latency]\n");
                    for (int x = 0; x < OPC_COUNT; x++)
                        fprintf(out, "%s = %u\n", isa_class_name((op_class)x), c->latency[x]);
                    fprintf(out, "\n[pipelined]\n");
                    for (int x = 0; x < OPC_COUNT; x++)
                        fprintf(out, "%s = %s\n", isa_class_name((op_class)x), c->pipelined[x] ? "yes" : "no");
                }
            }
            section = k->section;
            fprintf(out, "\n[%s]\n", section);
        }
        const void *field = (const char *)c + k->offset;
        fprintf(out, "%s = ", k->name);
        switch (k->type) {
        case KEY_U32:
        case KEY_BYTES: fprintf(out, "%u\n", *(const uint32_t *)field); break;
        case KEY_BOOL: fprintf(out, "%s\n", *(const bool *)field ? "yes" : "no"); break;
        case KEY_DOUBLE: fprintf(out, "%g\n", *(const double *)field); break;
        case KEY_ENUM: fprintf(out, "%s\n", k->choices[*(const int *)field]); break;
        }
    }
    for (uint32_t p = 0; p < c->inorder.pipe_count && c->model == MODEL_INORDER; p++) {
        fprintf(out, "\n[pipe.%s]\nstages = %u\nclasses = ", c->inorder.pipe[p].name, c->inorder.pipe[p].stages);
        print_classes(out, c->inorder.pipe[p].classes);
    }
}

/* ---- statistics ---- */

void core_stats_sub(core_stats *out, const core_stats *a, const core_stats *b) {
    /* every field before `seconds` is a uint64_t counter */
    enum { COUNTERS = offsetof(core_stats, seconds) / sizeof(uint64_t) };
    _Static_assert(offsetof(core_stats, seconds) % sizeof(uint64_t) == 0, "counters first, then seconds");
    uint64_t x[COUNTERS], y[COUNTERS];
    memcpy(x, a, sizeof x);
    memcpy(y, b, sizeof y);
    for (size_t i = 0; i < COUNTERS; i++) x[i] -= y[i];
    double seconds = a->seconds - b->seconds;
    memcpy(out, x, sizeof x);
    out->seconds = seconds;
}
