/* The configuration of a timing model and its statistics: the types every
 * layer above the core reads (probes, the runner, analyses, reports), kept
 * apart from the core interface (uarch.h) so that the probe contract can carry
 * the configuration without including the core, and nothing includes in a
 * circle: config.h <- probes.h <- uarch.h.
 *
 * Configuration is an INI file (configs/NAME.ini) plus `section.key=value`
 * overrides; every value is validated once, at load, and an error names the
 * key. The code that uses a value relies on it.
 */
#ifndef CYCLESCOPE_UARCH_CONFIG_H
#define CYCLESCOPE_UARCH_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "trace/trace.h"
#include "util/util.h"

/* ---- configuration ---------------------------------------------------------- */

typedef enum core_model { MODEL_OOO, MODEL_INORDER } core_model;
typedef enum mem_order_policy { MEM_ORDER_PERFECT, MEM_ORDER_CONSERVATIVE } mem_order_policy;
typedef enum bpred_kind {
    BPRED_NONE,    /* predict not taken; every taken control transfer is a mispredict */
    BPRED_STATIC,  /* backward taken, forward not taken (the thesis' "loop" predictor) */
    BPRED_BIMODAL, /* 2-bit counters indexed by pc */
    BPRED_GSHARE,  /* 2-bit counters indexed by pc xor global history */
    BPRED_TAGE,    /* a TAGE-class predictor (bimodal base + tagged geometric-history tables) */
    BPRED_PERFECT
} bpred_kind;

typedef struct cache_config {
    bool enabled;     /* L3 may be absent; L1s and L2 always exist in the ooo model */
    uint32_t size;    /* bytes */
    uint32_t assoc;   /* ways; 0 = fully associative */
    uint32_t line;    /* bytes, a power of two */
    uint32_t latency; /* hit latency, cycles */
    uint32_t mshrs;   /* outstanding misses (0 = unlimited); L2, L3: the L1 misses that miss it too */
} cache_config;

enum { UARCH_MAX_POOLS = 8, UARCH_NAME_MAX = 32 };

/* A pool of identical functional units (or ports) serving some op classes. */
typedef struct fu_pool {
    char name[UARCH_NAME_MAX];
    uint32_t count;
    uint32_t classes; /* bit (1 << op_class) for each class it serves */
} fu_pool;

/* The in-order machines of the thesis (Noonburg, chapters 3–8). */
enum { INORDER_MAX_PIPES = 4 };
typedef struct inorder_pipe {
    char name[UARCH_NAME_MAX];
    uint32_t stages;  /* depth; results forward from the last stage */
    uint32_t classes; /* op classes issued to this pipe */
} inorder_pipe;

typedef struct inorder_config {
    uint32_t fetch_buffer; /* entries */
    uint32_t issue_buffer; /* entries */
    uint32_t pipe_count;
    inorder_pipe pipe[INORDER_MAX_PIPES];
    uint32_t mem_stall_stage; /* memory pipe stage (1-based) that waits for a D-cache miss */
    bool value_prediction;
    uint32_t vpt_entries, ct_entries; /* value prediction and classification tables (§8.1) */
    /* Cycles fetch waits after a mispredicted branch issues. 0 is the thesis
     * machine: branches resolve at issue, leaving a one-cycle bubble (§6.1). */
    uint32_t resolve_delay;
} inorder_config;

typedef struct uarch_config {
    char name[64]; /* configuration name (file stem) */
    core_model model;
    double freq_ghz;

    /* pipeline */
    uint32_t fetch_width, dispatch_width, issue_width, commit_width;
    uint32_t fetch_buffer; /* µops between fetch and decode */
    uint32_t decode_depth; /* cycles from fetch to dispatch */
    uint32_t rob_size, iq_size, lq_size, sq_size;
    uint32_t lsq_size;         /* nonzero: loads and stores share this many entries (lq/sq unused) */
    uint32_t rename_regs;      /* in-flight destination registers; 0 = unlimited */
    uint32_t redirect_penalty; /* cycles from branch resolution to the first fetch on the right path */
    mem_order_policy mem_order;
    uint32_t deadlock_cycles; /* no commit for this long stops the run */
    bool skip_idle;           /* jump over runs of identical idle cycles (speed only; same results) */

    /* execution */
    uint32_t pool_count;
    fu_pool pool[UARCH_MAX_POOLS];
    uint32_t latency[OPC_COUNT]; /* cycles; load: address generation, added to the cache latency */
    bool pipelined[OPC_COUNT];

    /* memory hierarchy */
    cache_config l1i, l1d, l2, l3;
    uint32_t mem_latency;   /* cycles beyond the last cache level */
    uint32_t mem_bandwidth; /* bytes per cycle; 0 = unlimited */
    uint32_t l2_bandwidth;  /* bytes per cycle between the L1s and the L2; 0 = unlimited */
    uint32_t l3_bandwidth;  /* bytes per cycle between the L2 and the L3; 0 = unlimited */
    bool writebacks;        /* dirty lines written back on eviction (the last level's take channel time) */
    /* optional DRAM timing (dram.enabled): banks with open rows, channels with a data bus
     * (memory.latency is then the fixed path to the controller and back; bandwidth unused) */
    bool dram;
    uint32_t dram_channels, dram_banks, dram_row;                /* banks per channel; row bytes */
    uint32_t dram_cas, dram_rcd, dram_rp, dram_burst, dram_turn; /* core cycles */
    /* which of the five timings were set (bit i: t_cas, t_rcd, t_rp, burst, turnaround);
     * the others follow core.freq_ghz, so a DRAM keeps its nanoseconds on any clock */
    uint8_t dram_timing_set;
    bool write_allocate;   /* a store that misses the L1D fetches its line (else: written to the L2) */
    uint32_t store_buffer; /* committed stores waiting to write the L1D (ooo); 0 = none: stores never wait */
    uint32_t itlb_entries; /* 0 = no ITLB modelled */
    uint32_t itlb_miss_latency;
    uint32_t dtlb_entries; /* 0 = no DTLB modelled */
    uint32_t dtlb_miss_latency;
    uint32_t l2tlb_entries; /* a second-level TLB behind the ITLB and DTLB; 0 = none */
    uint32_t l2tlb_latency; /* its hit latency (a miss adds the first-level TLB's miss_latency: the walk) */
    bool prefetch_icache_next_line, prefetch_dcache_next_line; /* tagged next-line prefetchers */
    uint32_t prefetch_dcache_stride;                           /* entries of the per-PC stride prefetcher; 0 = off */
    uint32_t prefetch_degree;                                  /* lines the stride prefetcher runs ahead */

    /* branch prediction */
    bpred_kind bpred;
    uint32_t bpred_table_bits; /* log2 entries of the (base) counter table */
    uint32_t bpred_history;    /* global history bits (gshare, TAGE longest) */
    uint32_t btb_entries, ras_entries;

    /* idealisation knobs, on every model (how CPI stacks are validated) */
    bool perfect_icache, perfect_dcache, perfect_bpred, ideal_alu;

    inorder_config inorder;
} uarch_config;

/* Built-in defaults (the ooo4 configuration). */
void uarch_config_default(uarch_config *cfg);
/* The current name of a configuration renamed since (e.g. "rpstacks" -> "ooo4"), or NULL
 * when NAME is not an old name. uarch_config_load loads an old name as its new one. */
const char *uarch_config_renamed(const char *name);
/* Load configs/NAME.ini (by name) or a path to an .ini file over the defaults. */
bool uarch_config_load(uarch_config *cfg, const char *name_or_path, cs_error *err);
/* The same from the text of an .ini file held in memory (a profile's recorded configuration);
 * errors are "NAME:LINE: …". The configuration's name is left as it was. */
bool uarch_config_load_text(uarch_config *cfg, const char *text, const char *name, cs_error *err);
/* Apply one "section.key=value" override. */
bool uarch_config_set(uarch_config *cfg, const char *assignment, cs_error *err);
/* Check values against each other (e.g. width larger than the ROB). */
bool uarch_config_validate(const uarch_config *cfg, cs_error *err);
/* The full resolved configuration, as an INI file that loads back to the same values. */
void uarch_config_print(const uarch_config *cfg, FILE *out);
/* Directory the named configurations are read from: $CYCLESCOPE_CONFIGS, else
 * PREFIX/share/cyclescope/configs beside an installed PREFIX/bin/cyclescope, else the
 * source tree's configs/. */
const char *uarch_config_dir(void);

const char *bpred_kind_name(bpred_kind k);
/* Whether a model reads section.name ("fu.alu", "pipe.int" sections included):
 * `config show` prints and --set accepts only those. */
bool uarch_config_key_read(core_model model, const char *section, const char *name);
/* The widths of fetch, dispatch, issue and commit the model runs with (the
 * in-order machines derive them from their buffers and pipes). */
void uarch_config_widths(const uarch_config *cfg, uint32_t width[4]);
/* Whether the machine runs a class in one cycle whatever [latency] says: the arithmetic
 * ideal.alu idealises (the "1-cycle ALU" of Eyerman et al. §IV). */
static inline bool uarch_ideal_alu_class(const uarch_config *cfg, op_class cls) {
    return cfg->ideal_alu && (cls == OPC_INT_MUL || cls == OPC_INT_DIV || (cls >= OPC_FP_ADD && cls <= OPC_FP_MISC));
}
/* Whether the machine predicts no branch at all: the in-order machines with bpred.type =
 * none stop fetch after every control transfer until it resolves (Noonburg's "none",
 * thesis §3.4), and count each as a mispredict; the out-of-order core's none predicts
 * not taken. */
static inline bool uarch_no_branch_prediction(const uarch_config *cfg) {
    return cfg->model == MODEL_INORDER && cfg->bpred == BPRED_NONE && !cfg->perfect_bpred;
}

/* ---- statistics -------------------------------------------------------------- */

typedef struct cache_stats {
    uint64_t accesses, misses; /* misses: primary, in program order (a line's first access after it left) */
    uint64_t merged;           /* L1s: accesses that hit a line whose fill was still in flight (MSHR hits) */
    uint64_t fills;            /* misses whose fill was timed (requested) from this level down */
    uint64_t fill_cycles;      /* their latency beyond this level's lookup, summed (average miss latency) */
    uint64_t writebacks;       /* dirty lines this level evicted (memory.writebacks) */
    uint64_t prefetches;       /* lines prefetched into this level */
    uint64_t prefetch_useful;  /* prefetched lines a demand access used */
    uint64_t prefetch_late;    /* of those, used before their fill arrived (or was issued) */
} cache_stats;

enum { ISSUE_HIST_MAX = 16 };

/* Plain counters: a snapshot minus an earlier snapshot is the interval between
 * them (core_stats_sub), which is how per-interval statistics are computed. */
typedef struct core_stats {
    uint64_t cycles;
    uint64_t instructions;                    /* committed instructions (µops without UOP_CONTINUES) */
    uint64_t uops;                            /* committed µops */
    uint64_t branches, mispredicts;           /* all control transfers */
    uint64_t cond_branches, cond_mispredicts; /* conditional branches */
    cache_stats l1i, l1d, l2, l3, itlb, dtlb, l2tlb;
    uint64_t loads, stores, forwarded_loads, flops;
    uint64_t rob_occupancy, iq_occupancy, lq_occupancy, sq_occupancy; /* summed over cycles */
    uint64_t issue_hist[ISSUE_HIST_MAX + 1];                          /* cycles issuing k µops (k capped) */
    /* in-order machines (thesis Figure 5.8): occupancy distributions */
    uint64_t fetch_buffer_hist[17], issue_buffer_hist[17];
    uint64_t pipe_issued[INORDER_MAX_PIPES];             /* µops issued to each pipe */
    uint64_t pipe_occupancy[INORDER_MAX_PIPES];          /* summed µops in each pipe per cycle */
    uint64_t pipe_occupancy_hist[INORDER_MAX_PIPES][65]; /* cycles with k µops in the pipe (Figure 5.8) */
    uint64_t value_predictions, value_mispredictions;
    uint64_t warmup_uops;    /* µops the warm-up used (core_run_options.warmup counts instructions) */
    uint64_t mem_writebacks; /* dirty lines written to memory */
    uint64_t sb_occupancy;   /* store buffer entries, summed over cycles */
    uint64_t sb_full_cycles; /* cycles commit waited for a store buffer entry */
    uint64_t dram_reads, dram_writes, dram_row_hits, dram_row_empty, dram_row_conflicts;
    double seconds; /* wall time of the timed part */
} core_stats;

/* *out = a - b, field by field (every counter; seconds too). */
void core_stats_sub(core_stats *out, const core_stats *a, const core_stats *b);

#endif
