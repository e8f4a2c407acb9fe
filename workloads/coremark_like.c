/*
 * coremark_like -- the kind of work EEMBC's CoreMark does, written for
 * cyclescope (no CoreMark code): each iteration runs a linked-list kernel,
 * a small-integer matrix kernel and a state-machine scanner, and folds their
 * results into a CRC-16. One phase repeated, fine-grained mix inside it.
 *
 * usage: coremark_like [N]   N = iterations (default 1000, 1..10000000)
 *
 *   list     64 nodes in a 2 KiB pool: find values, reverse, merge-sort by
 *            value, merge-sort back by index (must restore the order)
 *   matrix   16 x 16 int16: add a constant, multiply by a constant, matrix x
 *            vector, matrix x matrix into int32, extract bit fields
 *   state    scan a 256-byte buffer of numbers ("123", "-4.5", "6e7", junk)
 *            with a character-class state machine, counting final states
 *   crc16    over every result (CRC-16/CCITT, bitwise)
 *
 * About 101 k instructions per iteration: 2.0 M at N = 20, 101 M at the
 * default (under env -i). Self-checks: the list's two sorts restore the original order, the
 * scanner sees every token, matrix x matrix entries recomputed directly.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_N 1000L
#define NODES     64
#define MAT       16
#define SCAN      256

static long parse_size(int argc, char **argv, long def, long lo, long hi) {
    if (argc > 2) {
        fprintf(stderr, "usage: %s [N]\n", argv[0]);
        exit(2);
    }
    if (argc < 2) return def;
    char *end;
    errno = 0;
    long v = strtol(argv[1], &end, 10);
    if (errno != 0 || end == argv[1] || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "%s: bad size '%s' (expected an integer in [%ld, %ld])\n", argv[0], argv[1], lo, hi);
        exit(2);
    }
    return v;
}

static void fail(const char *what) {
    fprintf(stderr, "coremark_like: self-check failed: %s\n", what);
    exit(1);
}

static uint16_t crc16(uint16_t crc, uint32_t v, int bytes) {
    for (int b = 0; b < bytes; b++) {
        crc ^= (uint16_t)(((v >> (8 * b)) & 0xff) << 8);
        for (int i = 0; i < 8; i++) crc = (uint16_t)(crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1);
    }
    return crc;
}

/* ---- list ---- */

typedef struct node {
    struct node *next;
    int16_t value, index;
} node;

static node pool[NODES];

static node *reverse(node *l) {
    node *prev = NULL;
    while (l) {
        node *n = l->next;
        l->next = prev;
        prev = l;
        l = n;
    }
    return prev;
}

static int by_value(const node *a, const node *b) { return a->value - b->value; }
static int by_index(const node *a, const node *b) { return a->index - b->index; }

/* Bottom-up merge sort of a list (stable). */
static node *msort(node *l, int (*cmp)(const node *, const node *)) {
    for (int width = 1;; width *= 2) {
        node *p = l, *head = NULL, *tail = NULL;
        int merges = 0;
        while (p) {
            merges++;
            node *q = p;
            int ps = 0;
            for (int i = 0; i < width && q; i++) q = q->next, ps++;
            int qs = width;
            while (ps > 0 || (qs > 0 && q)) {
                node *e;
                if (ps == 0) e = q, q = q->next, qs--;
                else if (qs == 0 || !q || cmp(p, q) <= 0) e = p, p = p->next, ps--;
                else e = q, q = q->next, qs--;
                if (tail) tail->next = e;
                else head = e;
                tail = e;
            }
            p = q;
        }
        tail->next = NULL;
        l = head;
        if (merges <= 1) return l;
    }
}

static uint16_t list_kernel(uint16_t seed, uint16_t crc) {
    for (int i = 0; i < NODES; i++) {
        pool[i].index = (int16_t)i;
        pool[i].value = (int16_t)((seed * (i + 7) ^ (i * 113)) & 0x7fff);
        pool[i].next = i + 1 < NODES ? &pool[i + 1] : NULL;
    }
    node *l = &pool[0];
    int found = 0;
    for (int k = 0; k < 8; k++) {
        int16_t want = pool[(seed + k * 9) % NODES].value;
        for (node *p = l; p; p = p->next)
            if (p->value == want) {
                found++;
                break;
            }
    }
    l = reverse(l);
    l = msort(l, by_value);
    for (node *p = l; p && p->next; p = p->next)
        if (p->value > p->next->value) fail("list sort by value");
    crc = crc16(crc, (uint16_t)l->value, 2);
    l = msort(l, by_index);
    int i = 0;
    for (node *p = l; p; p = p->next, i++)
        if (p->index != i) fail("list sort back by index");
    return crc16(crc, (uint32_t)found, 2);
}

/* ---- matrix ---- */

static int16_t ma[MAT][MAT], mb[MAT][MAT];
static int32_t mc[MAT][MAT], mv[MAT];

static uint16_t matrix_kernel(uint16_t seed, uint16_t crc) {
    for (int i = 0; i < MAT; i++)
        for (int j = 0; j < MAT; j++) {
            ma[i][j] = (int16_t)(((seed + i) * (j + 3)) & 0xff);
            mb[i][j] = (int16_t)(((seed ^ j) * (i + 5)) & 0xff);
        }
    int16_t c = (int16_t)(seed & 0x0f);
    for (int i = 0; i < MAT; i++)
        for (int j = 0; j < MAT; j++) ma[i][j] = (int16_t)(ma[i][j] + c);
    for (int i = 0; i < MAT; i++)
        for (int j = 0; j < MAT; j++) mc[i][j] = (int32_t)ma[i][j] * c;
    for (int i = 0; i < MAT; i++) {
        int32_t s = 0;
        for (int j = 0; j < MAT; j++) s += (int32_t)ma[i][j] * mb[j][0];
        mv[i] = s;
    }
    for (int i = 0; i < MAT; i++)
        for (int j = 0; j < MAT; j++) {
            int32_t s = 0;
            for (int k = 0; k < MAT; k++) s += (int32_t)ma[i][k] * mb[k][j];
            mc[i][j] = s;
        }
    int i0 = seed % MAT, j0 = (seed >> 4) % MAT;
    int32_t want = 0;
    for (int k = 0; k < MAT; k++) want += (int32_t)ma[i0][k] * mb[k][j0];
    if (want != mc[i0][j0]) fail("matrix multiply");
    for (int i = 0; i < MAT; i++)
        for (int j = 0; j < MAT; j++) {
            int32_t bits = (mc[i][j] >> 2) & 0x0f;
            crc = crc16(crc, (uint32_t)(bits + mv[i]), 2);
        }
    return crc;
}

/* ---- state machine ---- */

enum { S_START, S_INT, S_SIGN, S_FLOAT, S_EXP, S_EXP_SIGN, S_SCI, S_BAD, S_COUNT };

static uint16_t state_kernel(uint16_t seed, uint16_t crc) {
    static const char *const tokens[] = {"123", "-45", "6.78", "+9.0e12", "7e-3", "x1y", "0", "-.5", "55.5.5", "314"};
    char buf[SCAN + 1];
    int len = 0, ntok = 0;
    while (len < SCAN - 12) {
        const char *t = tokens[(seed + ntok * 7) % 10];
        size_t n = strlen(t);
        memcpy(buf + len, t, n);
        len += (int)n;
        buf[len++] = ',';
        ntok++;
    }
    buf[len] = 0;
    int count[S_COUNT] = {0}, seen = 0, state = S_START;
    for (int i = 0; i < len; i++) {
        char ch = buf[i];
        if (ch == ',') {
            count[state]++;
            seen++;
            state = S_START;
            continue;
        }
        int digit = ch >= '0' && ch <= '9', sign = ch == '+' || ch == '-';
        switch (state) {
        case S_START: state = digit ? S_INT : sign ? S_SIGN : ch == '.' ? S_FLOAT : S_BAD; break;
        case S_SIGN: state = digit ? S_INT : ch == '.' ? S_FLOAT : S_BAD; break;
        case S_INT: state = digit ? S_INT : ch == '.' ? S_FLOAT : (ch == 'e' || ch == 'E') ? S_EXP : S_BAD; break;
        case S_FLOAT: state = digit ? S_FLOAT : (ch == 'e' || ch == 'E') ? S_EXP : S_BAD; break;
        case S_EXP: state = digit ? S_SCI : sign ? S_EXP_SIGN : S_BAD; break;
        case S_EXP_SIGN: state = digit ? S_SCI : S_BAD; break;
        case S_SCI: state = digit ? S_SCI : S_BAD; break;
        default: break;
        }
    }
    if (seen != ntok) fail("state machine token count");
    for (int s = 0; s < S_COUNT; s++) crc = crc16(crc, (uint32_t)count[s], 2);
    return crc;
}

int main(int argc, char **argv) {
    long n = parse_size(argc, argv, DEFAULT_N, 1, 10000000);
    uint16_t crc = 0;
    for (long it = 0; it < n; it++) {
        uint16_t seed = (uint16_t)(it * 2654435761u >> 16);
        crc = list_kernel(seed, crc);
        crc = matrix_kernel(seed, crc);
        crc = state_kernel(seed, crc);
    }
    printf("coremark_like: %ld iterations, crc 0x%04x\n", n, crc);
    printf("checksum: %016" PRIx64 "\n", (uint64_t)(crc * 0x9e3779b97f4a7c15ull));
    return 0;
}
