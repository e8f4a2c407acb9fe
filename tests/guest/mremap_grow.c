/* Grows a filled buffer to more than half the guest's memory, and checks every word of it
 * after the move. Run with `exec --guest-memory` smaller than old + new: a moving mremap
 * must move the pages, not map the new range beside the old one and copy (a libxml2
 * billion-laughs test grew a 1 GB buffer that way and failed under the 4 GiB limit).
 *   mremap_grow OLD_MIB NEW_MIB
 * First mmap + mremap(MREMAP_MAYMOVE) with a page mapped right after the buffer (so it
 * cannot grow in place), then malloc + realloc (glibc grows a large chunk with mremap). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { PAGE = 4096 };

static uint64_t word_at(size_t i) { return (uint64_t)i * 0x9e3779b97f4a7c15ull ^ 0x5bd1e995u; }

static void fill(uint64_t *w, size_t words) {
    for (size_t i = 0; i < words; i++) w[i] = word_at(i);
}

/* The words that moved hold what was written; the grown tail reads as zeros (mremap only:
 * realloc's tail is unspecified). Returns the number of wrong words. */
static size_t check(const uint64_t *w, size_t words, size_t new_words, int tail_zero) {
    size_t wrong = 0;
    for (size_t i = 0; i < words; i++) wrong += w[i] != word_at(i);
    if (tail_zero)
        for (size_t i = words; i < new_words; i++) wrong += w[i] != 0;
    return wrong;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: mremap_grow OLD_MIB NEW_MIB\n");
        return 2;
    }
    size_t old_len = (size_t)atol(argv[1]) << 20, new_len = (size_t)atol(argv[2]) << 20;
    size_t words = old_len / 8, new_words = new_len / 8;

    uint64_t *p = mmap(NULL, old_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    /* a page right after the buffer (or something there already): growing must move it */
    void *guard = mmap((char *)p + old_len, PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (guard == MAP_FAILED && errno != EEXIST) {
        perror("mmap guard");
        return 1;
    }
    fill(p, words);
    uint64_t *q = mremap(p, old_len, new_len, MREMAP_MAYMOVE);
    if (q == MAP_FAILED) {
        perror("mremap");
        return 1;
    }
    printf("mremap %s MiB to %s MiB: %s, %zu wrong words\n", argv[1], argv[2], q != p ? "moved" : "in place",
           check(q, words, new_words, 1));
    q[new_words - 1] = 1; /* the new end is writable */
    if (munmap(q, new_len)) perror("munmap");

    uint64_t *m = malloc(old_len);
    if (!m) {
        perror("malloc");
        return 1;
    }
    fill(m, words);
    uint64_t *r = realloc(m, new_len);
    if (!r) {
        perror("realloc");
        return 1;
    }
    printf("realloc %s MiB to %s MiB: %zu wrong words\n", argv[1], argv[2], check(r, words, new_words, 0));
    r[new_words - 1] = 1;
    free(r);
    return 0;
}
