/*
 * strsearch -- integer workload: substring search over generated text.
 *
 * usage: strsearch [N]   N = text length in bytes (default 400000, 1024..200000000)
 *
 * The text is pseudo-random "words" over a skewed 16-letter alphabet
 * separated by spaces (xorshift64, fixed seed), with copies of the search
 * patterns planted at pseudo-random positions.  Eight patterns of length
 * 3..24 are searched with Boyer-Moore-Horspool (byte skip table), and the
 * same eight with Knuth-Morris-Pratt; both must report the same number of
 * (possibly overlapping) matches.  Work is linear in N.  BMH exercises
 * table lookups and data-dependent skips, KMP a tight byte loop with a
 * hard-to-predict fallback branch.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define DEFAULT_N 400000L
#define MIN_N     1024L
#define MAX_N     200000000L

static const char *const patterns[] = {
    "ace", "bead", "faded", "decade", "cabbage ", "head bag", "a deaf cab fed", "baggage faced a headed face",
};
#define NPAT ((int)(sizeof patterns / sizeof patterns[0]))

static long bmh_count(const unsigned char *t, long n, const unsigned char *p, long m) {
    long skip[256];
    for (int c = 0; c < 256; c++) skip[c] = m;
    for (long i = 0; i < m - 1; i++) skip[p[i]] = m - 1 - i;
    long count = 0;
    unsigned char last = p[m - 1];
    for (long pos = 0; pos + m <= n;) {
        unsigned char c = t[pos + m - 1];
        if (c == last) {
            long k = m - 2;
            while (k >= 0 && t[pos + k] == p[k]) k--;
            if (k < 0) count++;
        }
        pos += skip[c];
    }
    return count;
}

static long kmp_count(const unsigned char *t, long n, const unsigned char *p, long m, long *fail) {
    /* fail[i] = length of the longest proper border of p[0..i] */
    fail[0] = 0;
    for (long i = 1, k = 0; i < m; i++) {
        while (k > 0 && p[i] != p[k]) k = fail[k - 1];
        if (p[i] == p[k]) k++;
        fail[i] = k;
    }
    long count = 0;
    for (long i = 0, k = 0; i < n; i++) {
        while (k > 0 && t[i] != p[k]) k = fail[k - 1];
        if (t[i] == p[k]) k++;
        if (k == m) {
            count++;
            k = fail[k - 1];
        }
    }
    return count;
}

int main(int argc, char **argv) {
    long n = parse_size(argc, argv, "N", DEFAULT_N, MIN_N, MAX_N);
    unsigned char *text = malloc((size_t)n);
    long *fail = malloc(64 * sizeof *fail);
    if (!text || !fail) {
        fprintf(stderr, "strsearch: out of memory\n");
        return 1;
    }

    /* skewed alphabet: earlier letters are more frequent */
    static const char letters[] = "aaaabbbcccddeefghaabcdeeeafgbcde";
    uint64_t s = 0x7374727365617263ULL;
    long i = 0;
    while (i < n) {
        uint64_t r = xorshift64(&s);
        int wlen = 1 + (int)(r & 7);
        r >>= 3;
        for (int k = 0; k < wlen && i < n; k++) {
            text[i++] = (unsigned char)letters[r & 31];
            r >>= 5;
        }
        if (i < n) text[i++] = ' ';
    }
    /* plant pattern copies: about one per 2 KiB */
    for (long k = 0; k < n / 2048; k++) {
        uint64_t r = xorshift64(&s);
        const char *p = patterns[r % NPAT];
        long m = (long)strlen(p);
        long pos = (long)((r >> 8) % (uint64_t)(n - m));
        memcpy(text + pos, p, (size_t)m);
    }

    uint64_t check = 0;
    long total = 0;
    for (int k = 0; k < NPAT; k++) {
        const unsigned char *p = (const unsigned char *)patterns[k];
        long m = (long)strlen(patterns[k]);
        long c1 = bmh_count(text, n, p, m);
        long c2 = kmp_count(text, n, p, m, fail);
        if (c1 != c2) {
            fprintf(stderr, "strsearch: BMH (%ld) and KMP (%ld) disagree on '%s'\n", c1, c2, patterns[k]);
            return 1;
        }
        total += c1;
        check = check * 1000003 + (uint64_t)c1;
    }
    printf("strsearch: n=%ld patterns=%d matches=%ld\n", n, NPAT, total);
    printf("checksum: %016" PRIx64 "\n", check);
    free(fail);
    free(text);
    return 0;
}
