/* The decoded-instruction cache's layout (src/emu/mem.h): one 64-byte entry per
 * host cache line. At 56 bytes, one entry in eight had the fields the
 * fast-forward loop reads split across two lines, and Go's math/big ran 15%
 * slower under `exec` (docs/sandbox.md §21); the entries stay aligned only if
 * every page's array starts on a 64-byte boundary, which calloc does not give. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "emu/mem.h"
#include "util/util.h"

/* Zeroed and aligned at every size, the small ones malloc serves from its heap and
 * the large ones it maps, whatever allocations came before. */
static void test_aligned_calloc(void **state) {
    (void)state;
    static const size_t sizes[] = {1, 24, 100, 4096, 65536, 131072, 1u << 20};
    void *spacers[16];
    for (size_t round = 0; round < 16; round++) {
        spacers[round] = cs_malloc(8 + 24 * round); /* shift where the next block lands */
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            unsigned char *p = cs_aligned_calloc(64, sizes[i], 1);
            assert_int_equal((uintptr_t)p % 64, 0);
            for (size_t k = 0; k < sizes[i]; k++) assert_int_equal(p[k], 0);
            p[sizes[i] - 1] = 0xff; /* the whole size is ours (ASan checks it) */
            free(p);
        }
    }
    for (size_t round = 0; round < 16; round++) free(spacers[round]);
}

/* Every code page's decoded entries start on a cache line, empty (not decoded),
 * and are emptied again by a store to the page. */
static void test_code_pages_aligned(void **state) {
    (void)state;
    mem *m = cs_calloc(1, sizeof *m);
    mem_init(m);
    enum { PAGES = 24 };
    const uint64_t base = 0x10000;
    assert_true(mem_map(m, base, PAGES * PAGE_SIZE, PROT_R | PROT_W | PROT_X));
    void *spacers[PAGES];
    for (unsigned i = 0; i < PAGES; i++) {
        spacers[i] = cs_malloc(16 + 40 * i);
        dinsn *code = mem_code(m, base + i * PAGE_SIZE + 2 * i);
        assert_non_null(code);
        assert_int_equal((uintptr_t)code % 64, 0);
        for (unsigned k = 0; k < PAGE_SIZE / 2; k++) assert_int_equal(code[k].length, 0);
        code[i].length = 4; /* as decode_at leaves an entry */
        uint32_t nop = 0x00000013;
        assert_true(mem_write(m, base + i * PAGE_SIZE, &nop, sizeof nop)); /* a store to code */
        assert_ptr_equal(mem_code(m, base + i * PAGE_SIZE), code);
        assert_int_equal(code[i].length, 0);
    }
    mem_free(m);
    free(m);
    for (unsigned i = 0; i < PAGES; i++) free(spacers[i]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_aligned_calloc),
        cmocka_unit_test(test_code_pages_aligned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
