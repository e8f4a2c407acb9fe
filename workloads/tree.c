/*
 * tree -- pointer-chasing workload: unbalanced binary search tree.
 *
 * usage: tree [N]     N = number of keys inserted (default 150000, 16..20000000)
 *
 * N pseudo-random 64-bit keys (splitmix64, fixed seed) are inserted into a
 * plain (unbalanced) binary search tree whose nodes come from one pool, in
 * insertion order; random keys give an expected depth of about 2 ln N
 * (~24 at the default size).  Then N lookups of present keys (in a
 * different order) and N lookups of absent keys are done, and the tree is
 * walked in order (iteratively, with an explicit stack) to check ordering.
 * Every step of a search is a dependent load of a child pointer plus a
 * data-dependent, poorly predictable left/right branch.  Work ~ N log N.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

#define DEFAULT_N 150000L
#define MIN_N     16L
#define MAX_N     20000000L

struct node {
    uint64_t key;
    uint64_t val;
    struct node *left, *right;
};

static struct node *pool;
static long pool_used;

/* returns 1 if inserted, 0 if the key was already present */
static int insert(struct node **root, uint64_t key, uint64_t val) {
    struct node **link = root;
    while (*link) {
        struct node *p = *link;
        if (key == p->key) {
            p->val = val;
            return 0;
        }
        link = key < p->key ? &p->left : &p->right;
    }
    struct node *nn = &pool[pool_used++];
    nn->key = key;
    nn->val = val;
    nn->left = nn->right = NULL;
    *link = nn;
    return 1;
}

static const struct node *find(const struct node *p, uint64_t key) {
    while (p) {
        if (key == p->key) return p;
        p = key < p->key ? p->left : p->right;
    }
    return NULL;
}

static long gcd(long a, long b) {
    while (b != 0) {
        long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int main(int argc, char **argv) {
    long n = parse_size(argc, argv, "N", DEFAULT_N, MIN_N, MAX_N);
    pool = malloc((size_t)n * sizeof *pool);
    const struct node **stack = malloc(((size_t)n + 1) * sizeof *stack);
    if (!pool || !stack) {
        fprintf(stderr, "tree: out of memory\n");
        return 1;
    }
    struct node *root = NULL;
    uint64_t s = 0x5452454531ULL;
    long inserted = 0;
    for (long i = 0; i < n; i++) inserted += insert(&root, splitmix64(&s), (uint64_t)i);

    /* present keys, looked up in a different order: replay the key stream
     * with a stride that is coprime to n */
    uint64_t check = 0;
    long hits = 0;
    long stride = 7919 % n;
    while (gcd(stride, n) != 1) stride++;
    for (long i = 0, idx = 0; i < n; i++) {
        uint64_t ks = 0x5452454531ULL + (uint64_t)idx * 0x9E3779B97F4A7C15ULL;
        uint64_t key = splitmix64(&ks);
        const struct node *p = find(root, key);
        if (p) {
            hits++;
            check += p->val * 0x100000001B3ULL;
        }
        idx += stride;
        if (idx >= n) idx -= n;
    }
    uint64_t s2 = 0xAB5E47ULL;
    long misses = 0;
    for (long i = 0; i < n; i++) {
        if (!find(root, splitmix64(&s2))) misses++;
    }

    /* in-order walk: keys must ascend; also measure the height */
    long sp = 0, visited = 0;
    uint64_t prev = 0;
    const struct node *p = root;
    while (p || sp > 0) {
        while (p) {
            stack[sp++] = p;
            p = p->left;
        }
        p = stack[--sp];
        if (visited > 0 && p->key <= prev) {
            fprintf(stderr, "tree: in-order walk is not ascending\n");
            return 1;
        }
        prev = p->key;
        check = (check ^ p->key) * 0x9E3779B97F4A7C15ULL;
        visited++;
        p = p->right;
    }
    if (visited != inserted || hits != n) {
        fprintf(stderr, "tree: inconsistent (visited %ld inserted %ld hits %ld)\n", visited, inserted, hits);
        return 1;
    }
    printf("tree: n=%ld nodes=%ld hits=%ld misses=%ld\n", n, visited, hits, misses);
    printf("checksum: %016" PRIx64 "\n", check);
    free(stack);
    free(pool);
    return 0;
}
