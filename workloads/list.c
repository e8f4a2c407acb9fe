/*
 * list -- pointer-chasing workload: traversal of a shuffled linked list.
 *
 * usage: list [N]     N = number of list nodes (default 500000, 16..50000000)
 *
 * N nodes of 32 bytes (next pointer, value, payload) live in one array; they
 * are linked in a pseudo-random order (Fisher-Yates shuffle of the node
 * indices with xorshift64, fixed seed), so consecutive list elements are
 * scattered over a 16 MB (default) region and each `next` load depends on
 * the previous one.  The list is traversed 10 times summing values, and on
 * every second pass every node's payload is also updated, so the loop has
 * loads and stores.  Work is linear in N; about two thirds of the dynamic
 * instructions are in the traversal loops (~70 per node over all passes,
 * versus ~33 per node for initialization and shuffling).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

#define DEFAULT_N 500000L
#define MIN_N     16L
#define MAX_N     50000000L
#define PASSES    10

struct node {
    struct node *next;
    uint64_t value;
    uint64_t payload;
    uint64_t pad;
};

int main(int argc, char **argv) {
    long n = parse_size(argc, argv, "N", DEFAULT_N, MIN_N, MAX_N);
    struct node *nodes = malloc((size_t)n * sizeof *nodes);
    uint32_t *order = malloc((size_t)n * sizeof *order);
    if (!nodes || !order) {
        fprintf(stderr, "list: out of memory\n");
        return 1;
    }
    uint64_t s = 0x4C4953544C495354ULL;
    for (long i = 0; i < n; i++) {
        order[i] = (uint32_t)i;
        nodes[i].value = (uint64_t)i * 2654435761u;
        nodes[i].payload = 0;
        nodes[i].pad = 0;
    }
    for (long i = n - 1; i > 0; i--) {
        long j = (long)(xorshift64(&s) % (uint64_t)(i + 1));
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (long i = 0; i + 1 < n; i++) nodes[order[i]].next = &nodes[order[i + 1]];
    nodes[order[n - 1]].next = NULL;
    struct node *head = &nodes[order[0]];
    free(order);

    uint64_t check = 0;
    for (int pass = 0; pass < PASSES; pass++) {
        uint64_t sum = 0;
        long len = 0;
        if (pass & 1) {
            for (struct node *p = head; p; p = p->next) {
                p->payload += p->value ^ (uint64_t)pass;
                sum += p->payload;
                len++;
            }
        } else {
            for (struct node *p = head; p; p = p->next) {
                sum += p->value;
                len++;
            }
        }
        if (len != n) {
            fprintf(stderr, "list: traversal visited %ld of %ld nodes\n", len, n);
            return 1;
        }
        check = check * 0x100000001B3ULL ^ sum;
    }
    printf("list: n=%ld passes=%d\n", n, PASSES);
    printf("checksum: %016" PRIx64 "\n", check);
    free(nodes);
    return 0;
}
