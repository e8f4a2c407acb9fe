/* Internal to statmodel: the incremental flow-graph builder. */
#ifndef CYCLESCOPE_STATMODEL_GRAPH_INTERNAL_H
#define CYCLESCOPE_STATMODEL_GRAPH_INTERNAL_H

#include "statmodel.h"

typedef struct sm_builder {
    uint32_t window, offset;
    sm_chain *instr_map, *node_map, *edge_map; /* key -> index maps */
    sm_instr *instr;
    uint32_t instr_cap;
    uint64_t *edge_count;
    uint32_t edge_cap;
    uint32_t *ring, *head; /* the last and the first `window` instruction numbers */
    uint64_t seen;
    uint32_t prev, first;
} sm_builder;

void sm_builder_init(sm_builder *b, uint32_t window, uint32_t offset);
void sm_builder_free(sm_builder *b);
/* The instruction number of (y, s, v, addr), created if new. */
uint32_t sm_builder_instr(sm_builder *b, uint8_t y, const uint8_t s[SM_PIPES], const uint8_t v[SM_PIPES],
                          uint16_t addr);
void sm_builder_push(sm_builder *b, uint32_t id);
bool sm_builder_finish(sm_builder *b, sm_graph *g, cs_error *err);

#endif
