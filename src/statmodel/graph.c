/* The statistical flow graph (thesis Ch. 5): instruction numbers, windows of
 * them as nodes, successor counts. Built incrementally from a stream of
 * instruction numbers; the stream is closed into a cycle (the last window is
 * followed by the first, as the thesis' repeated trace fragment), so every
 * node has a successor and the chain has a stationary distribution. */
#include <stdlib.h>
#include <string.h>

#include "graph_internal.h"
#include "model_internal.h"

void sm_builder_init(sm_builder *b, uint32_t window, uint32_t offset) {
    memset(b, 0, sizeof *b);
    b->window = window;
    b->offset = offset;
    b->instr_map = sm_chain_create(8);
    b->node_map = sm_chain_create(sizeof(uint32_t) * window);
    b->edge_map = sm_chain_create(sizeof(uint32_t) * 2);
    b->ring = cs_calloc(window, sizeof *b->ring);
    b->head = cs_calloc(window, sizeof *b->head);
    b->prev = UINT32_MAX;
}

void sm_builder_free(sm_builder *b) {
    sm_chain_free(b->instr_map);
    sm_chain_free(b->node_map);
    sm_chain_free(b->edge_map);
    free(b->instr);
    free(b->edge_count);
    free(b->ring);
    free(b->head);
    memset(b, 0, sizeof *b);
}

uint32_t sm_builder_instr(sm_builder *b, uint8_t y, const uint8_t s[SM_PIPES], const uint8_t v[SM_PIPES],
                          uint16_t addr) {
    /* v[k] <= SM_VP_WRONG: two bits each */
    uint8_t key[8] = {
        y, s[0], s[1], s[2], (uint8_t)(v[0] | v[1] << 2 | v[2] << 4), 0, (uint8_t)addr, (uint8_t)(addr >> 8)};
    uint32_t n = sm_chain_count(b->instr_map);
    uint32_t id = sm_chain_state(b->instr_map, key);
    if (id == n) {
        SM_GROW(b->instr, b->instr_cap, (size_t)n + 1, 64);
        memset(&b->instr[id], 0, sizeof b->instr[id]);
        b->instr[id].y = y;
        memcpy(b->instr[id].s, s, SM_PIPES);
        memcpy(b->instr[id].v, v, SM_PIPES);
        b->instr[id].addr = addr;
    }
    return id;
}

static void add_edge(sm_builder *b, uint32_t from, uint32_t to) {
    uint32_t key[2] = {from, to};
    uint32_t n = sm_chain_count(b->edge_map);
    uint32_t id = sm_chain_state(b->edge_map, key);
    if (id == n) {
        SM_GROW(b->edge_count, b->edge_cap, (size_t)n + 1, 256);
        b->edge_count[id] = 0;
    }
    b->edge_count[id]++;
}

void sm_builder_push(sm_builder *b, uint32_t id) {
    uint32_t w = b->window;
    if (b->seen < w) b->head[b->seen] = id;
    memmove(b->ring, b->ring + 1, (w - 1) * sizeof *b->ring);
    b->ring[w - 1] = id;
    b->seen++;
    if (b->seen < w) return;
    uint32_t node = sm_chain_state(b->node_map, b->ring);
    if (b->prev != UINT32_MAX) add_edge(b, b->prev, node);
    else b->first = node;
    b->prev = node;
}

bool sm_builder_finish(sm_builder *b, sm_graph *g, cs_error *err) {
    memset(g, 0, sizeof *g);
    uint32_t w = b->window;
    if (b->seen < w + 1) {
        cs_error_set(err, "too few instructions to build a flow graph (%llu)", (unsigned long long)b->seen);
        return false;
    }
    /* Close the cycle: the windows that straddle the end and the start. */
    for (uint32_t k = 0; k + 1 < w; k++) sm_builder_push(b, b->head[k]);
    {
        uint32_t key[64];
        memcpy(key, b->head, w * sizeof *key);
        uint32_t start = sm_chain_state(b->node_map, key);
        add_edge(b, b->prev, start);
    }
    g->window = w;
    g->offset = b->offset;
    g->ninstr = sm_chain_count(b->instr_map);
    g->instr = cs_malloc(cs_array_size(g->ninstr, sizeof *g->instr));
    memcpy(g->instr, b->instr, g->ninstr * sizeof *g->instr);
    g->nnode = sm_chain_count(b->node_map);
    g->node_instr = cs_malloc(cs_array_size((size_t)g->nnode * w, sizeof *g->node_instr));
    for (uint32_t i = 0; i < g->nnode; i++)
        memcpy(g->node_instr + (size_t)i * w, sm_chain_key(b->node_map, i), w * sizeof(uint32_t));
    {
        uint32_t key[64];
        memcpy(key, b->head, w * sizeof *key);
        g->first = (uint32_t)sm_chain_find(b->node_map, key);
    }
    uint32_t ne = sm_chain_count(b->edge_map);
    g->edge_start = cs_calloc((size_t)g->nnode + 1, sizeof *g->edge_start);
    g->edge_to = cs_malloc(cs_array_size(ne, sizeof *g->edge_to));
    g->edge_count = cs_malloc(cs_array_size(ne, sizeof *g->edge_count));
    for (uint32_t e = 0; e < ne; e++) {
        const uint32_t *k = sm_chain_key(b->edge_map, e);
        g->edge_start[k[0] + 1]++;
    }
    for (uint32_t i = 0; i < g->nnode; i++) g->edge_start[i + 1] += g->edge_start[i];
    uint32_t *fill = cs_malloc(cs_array_size(g->nnode, sizeof *fill));
    memcpy(fill, g->edge_start, g->nnode * sizeof *fill);
    for (uint32_t e = 0; e < ne; e++) {
        const uint32_t *k = sm_chain_key(b->edge_map, e);
        g->edge_to[fill[k[0]]] = k[1];
        g->edge_count[fill[k[0]]++] = b->edge_count[e];
    }
    free(fill);
    return true;
}

bool sm_graph_from_stream(sm_graph *g, const sm_instr *instr, uint32_t ninstr, const uint32_t *ids, size_t n,
                          uint32_t window, uint32_t offset, cs_error *err) {
    if (window < 2 || window > 64 || offset + 2 > window) {
        cs_error_set(err, "window %u with offset %u: need 2 <= window <= 64 and offset <= window - 2", window, offset);
        return false;
    }
    sm_builder b;
    sm_builder_init(&b, window, offset);
    for (uint32_t i = 0; i < ninstr; i++) {
        uint32_t id = sm_builder_instr(&b, instr[i].y, instr[i].s, instr[i].v, instr[i].addr);
        b.instr[id] = instr[i];
    }
    if (sm_chain_count(b.instr_map) != ninstr) {
        cs_error_set(err, "two instruction numbers with the same type, distances and address bits");
        sm_builder_free(&b);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (ids[i] >= ninstr) {
            cs_error_set(err, "instruction number %u out of range", ids[i]);
            sm_builder_free(&b);
            return false;
        }
        /* Node i starts `offset` instructions before instruction i. */
        sm_builder_push(&b, ids[(i + n - offset) % n]);
    }
    bool ok = sm_builder_finish(&b, g, err);
    sm_builder_free(&b);
    return ok;
}

void sm_graph_free(sm_graph *g) {
    free(g->instr);
    free(g->node_instr);
    free(g->edge_start);
    free(g->edge_to);
    free(g->edge_count);
    memset(g, 0, sizeof *g);
}
