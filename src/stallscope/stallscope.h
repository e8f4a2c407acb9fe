/* stallscope — Robinson's Stallscope (../shared/papers/stallscope.md) on the
 * probe contract: every lost completion opportunity traced back, through a
 * chain of stall events, to the leaf stall that caused it (docs/stallscope.md).
 *
 * The engine consumes what the probes deliver — per-µop wait-state
 * transitions (the µops' execution stall histories), the commit and dispatch
 * stage spans, mispredict events and retire records — and accumulates, for
 * each commit cycle that completes fewer µops than the commit width, the
 * cycle's lost opportunities with the whole causal chain into a hierarchical
 * tree (§3.8). Stall events are not stored one per cycle: a µop's history is
 * its list of wait intervals, and an event is (µop, position in its history);
 * the cause of an operand-wait event is found, when a chain is walked, by the
 * MultiStack rule of §3.5 (each reader pops the producer's history without
 * changing it) with the consecutive stall queue of §6.1. The unique-leaf rule
 * (§6.2) keeps a set of the leaf events accumulated; chains are truncated
 * (§6.3) keeping their beginning and end; every structure is bounded.
 *
 * Stall types come from stall sets, one per component (completion, dispatch,
 * fetch, flush, execution); there is no master list: the sets register at run
 * time and are combined into one id space (§3.3). A type is leaf or non-leaf,
 * never both; informational types (§5) sit in chains without being stalls.
 */
#ifndef CYCLESCOPE_STALLSCOPE_H
#define CYCLESCOPE_STALLSCOPE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "probes/probes.h"

/* ---- options ----------------------------------------------------------------- */

typedef struct ss_options {
    uint32_t depth;    /* levels of the top-level hierarchy and the twig summary (§5; default 4) */
    double threshold;  /* % of the completion opportunities below which a tree node is not shown
                          (Figure 3: 0.5) */
    uint64_t interval; /* committed µops per partial summary (§7.4); 0: none */
    /* An extension, not the paper's (docs/stallscope.md, "tooclose=window"): completion (§3.7
     * 2a) popping an operand wait whose leaf is "too close" takes the nearly-empty pathway
     * (2b) instead when the empty-stall history has an event ahead of the head. false: the
     * paper's rule, the leaf is accumulated. */
    bool too_close_window;
    /* Where completion is measured (docs/stallscope.md, "Where completion is measured on the
     * in-order machines"): false, at commit (the paper's §3.8); true, at in-order issue — the
     * in-order model only, whose retirement is virtual: the lost opportunities are issue width
     * x cycles - µops issued, the head the oldest µop not yet issued. Not given
     * (completion_given false), the analysis takes issue on the in-order model, commit out of
     * order (src/stallscope/analysis.c). */
    bool at_issue;
    bool completion_given; /* "completion" was set explicitly */
} ss_options;

void ss_options_default(ss_options *o);
/* Set one option from text ("depth", "threshold", "interval", "tooclose" = paper | leaf |
 * window, "completion" = commit | issue);
 * false with *err naming it when unknown or out of range (depth/interval 0, threshold
 * outside 0–100). */
bool ss_option_set(ss_options *o, const char *key, const char *value, cs_error *err);

/* ---- stall sets (§3.3) --------------------------------------------------------- */

enum {
    SS_LEAF = 1 << 0,   /* has no cause: the root cause of its chains */
    SS_GLOBAL = 1 << 1, /* a flush event: exempt from the unique-leaf rule (§6.2) */
    SS_INFO = 1 << 2,   /* informational (§5): not a stall, inserted for the summaries */
};

typedef struct ss_type_def {
    const char *name;
    uint8_t flags; /* SS_* */
} ss_type_def;

/* ---- the engine -------------------------------------------------------------------- */

typedef struct stallscope stallscope;

/* What the engine needs to know of the machine. */
typedef struct ss_machine {
    uint32_t commit_width;
    uint32_t
        base_latency; /* the characteristic minimum latency (§3.5): the integer ALU's (in order: its pipe's depth) */
    uint32_t load_latency; /* cycles a load that hits L1 takes from issue (its fill beyond is a miss) */
    bool inorder; /* in-order: a pipe is held by a µop that may itself be stalling (its history is the cause) */
    /* a µop cannot issue in the cycle it enters the window (ooo: stages tick back to front), so
     * that cycle holds no stall event (§3.3: a stall is a cycle it fails to proceed) */
    bool dispatch_cycle_free;
    /* a load's characteristic minimum latency when it differs from load_latency (in order: the
     * memory pipe's depth, while its fill state holds only a miss's extra cycles); 0: load_latency */
    uint32_t load_min_latency;
} ss_machine;

stallscope *ss_create(const ss_options *opt, const ss_machine *m);
void ss_destroy(stallscope *s);

/* Register a component's stall set; returns the id of its first type (the
 * others follow). Sets may be registered at any time. */
uint32_t ss_register_set(stallscope *s, const char *set, const ss_type_def *defs, uint32_t n);

/* Input, in the order the probes deliver it (each kind in cycle order). */
void ss_wait(stallscope *s, const wait_transition *w);
void ss_record(stallscope *s, const uop_record *r);
void ss_event(stallscope *s, const probe_event *e);
void ss_span(stallscope *s, const stage_span *sp);
/* Account every commit cycle before `horizon` whose span has been given
 * (the caller guarantees every wait transition and dispatch span before it
 * has been given too). */
void ss_advance(stallscope *s, uint64_t horizon);
/* The run is over: account everything given. */
void ss_finish(stallscope *s, const core_stats *stats);

/* ---- the result -------------------------------------------------------------------- */

typedef struct ss_node {
    uint32_t type;
    uint32_t parent;      /* 0 for the children of the root; the root is node 0 */
    uint32_t first_child; /* 0: none */
    uint32_t next_sibling;
    uint64_t weight; /* lost opportunities whose chain passes through this node (inclusive) */
} ss_node;

typedef struct ss_hotspot {
    uint64_t pc;
    uint64_t weight;
    uint32_t type; /* the leaf type that cost the most at this pc */
    uint32_t encoding;
} ss_hotspot;

typedef struct ss_partial {
    uint64_t uops_end;     /* committed µops at the end of the interval */
    uint64_t cycles, lost; /* in the interval */
    uint32_t top_type[3];  /* the three costliest leaf types in the interval */
    uint64_t top_weight[3];
} ss_partial;

typedef struct ss_summary {
    uint64_t cycles, committed; /* accounted commit cycles and µops committed in them */
    uint64_t opportunities;     /* commit width × cycles */
    uint64_t lost;              /* opportunities − committed, as accounted from the commit spans */
    uint64_t accumulated;       /* total weight accumulated into the tree (== lost) */
    uint64_t truncated;         /* weight of the chains truncated (§6.3) */
    uint64_t expired;           /* weight of chains that reached a µop no longer kept */
    uint64_t unique_rejections; /* pops refused by the unique-leaf rule (§6.2) */
    uint64_t longest_chain;     /* events in the longest chain walked */
    uint64_t chains;            /* chains walked */
    uint64_t type_violations;   /* leaf types given a cause or non-leaf types none (must be 0) */
    uint64_t peak_bytes;        /* memory the engine held at most */
    /* the engine's work (not printed; tests bound it, docs/stallscope.md "Cost"): steps of the
     * chain walks, of them taken from the step cache (a walk through the same µops at the same
     * cycle), and the searches for refused candidates (dead_from) made and known to fail from
     * the walk before them */
    uint64_t walk_steps, walk_steps_cached;
    uint64_t searches, searches_known;
} ss_summary;

const ss_summary *ss_summary_of(const stallscope *s);
uint32_t ss_type_count(const stallscope *s);
const char *ss_type_name(const stallscope *s, uint32_t type); /* "set/type" */
uint8_t ss_type_flags(const stallscope *s, uint32_t type);
/* The accumulated tree (node 0 is the root) and the inverted tree (leaves at
 * its first level: the leaf summary; its first levels: the twig summary). */
const ss_node *ss_tree(const stallscope *s, uint32_t *count);
const ss_node *ss_inverted(const stallscope *s, uint32_t *count);
/* Node summary: for each type, the weight of the chains it appears in. */
const uint64_t *ss_node_totals(const stallscope *s);
/* Hot spots, costliest first. */
const ss_hotspot *ss_hotspots(const stallscope *s, uint32_t *count);
const ss_partial *ss_partials(const stallscope *s, uint32_t *count);
const ss_options *ss_options_of(const stallscope *s);
const ss_machine *ss_machine_of(const stallscope *s);

/* Children of `node`, heaviest first; returns the count (the caller frees *out). */
uint32_t ss_children_sorted(const ss_node *t, uint32_t node, uint32_t **out);
/* objdump-style disassembly of an instruction ("?" when unknown). */
void ss_disasm(uint32_t encoding, uint64_t pc, char *buf, size_t size);
/* The engine of a "stallscope" analysis instance (runner_run's result self). */
stallscope *ss_analysis_engine(void *analysis_self);

/* ---- renderings (report.c) ---------------------------------------------------------- */

/* Symbolizer for hot spots (may be NULL): the function holding pc. */
typedef const char *(*ss_symbolizer)(void *ctx, uint64_t pc);
void ss_text(const stallscope *s, FILE *out);
struct cJSON;
struct cJSON *ss_json(const stallscope *s, ss_symbolizer sym, void *sym_ctx);
struct html_report;
void ss_html(const stallscope *s, struct html_report *h, ss_symbolizer sym, void *sym_ctx);
/* Two runs' leaf and node summaries side by side with their deltas (--compare). */
void ss_compare_text(const stallscope *a, const char *name_a, const stallscope *b, const char *name_b, FILE *out);
/* One stall type's row of the comparison: its weight in run A ([0]) and B ([1]),
 * as a share of that run's opportunities and as lost cycles (lost opportunities
 * / width); the text prints these, the JSON and HTML hold the same numbers. */
typedef struct ss_compare_row {
    const char *type;
    uint64_t weight[2];
    double percent[2], cycles[2];
} ss_compare_row;
/* The leaf (leaves) or node summary's rows, every type either run has; the
 * caller frees *out. */
uint32_t ss_compare_rows(const stallscope *a, const stallscope *b, bool leaves, ss_compare_row **out);
/* The comparison's JSON after the caller's header, added to root: "runs" (each
 * side's configuration, completion point and totals), "leaf_summary" and
 * "node_summary" (docs/stallscope-compare.schema.json). */
void ss_compare_json(const stallscope *a, const char *name_a, const stallscope *b, const char *name_b,
                     struct cJSON *root);
/* The same as an HTML section: each summary as a table with bars (html.c). */
void ss_compare_html(const stallscope *a, const char *name_a, const stallscope *b, const char *name_b,
                     struct html_report *h);

#endif
