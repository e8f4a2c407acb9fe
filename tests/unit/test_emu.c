/* The emulator's µop records, field by field, on a known instruction sequence
 * (tests/guest/uops.S), and its fast-forward / record / uop_source paths
 * agreeing with each other. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>

#include "emu/emu.h"

static char guest_path[4096], workload_path[4096], dup_stdin_path[4096];

static emu_t *start_with(const char *path, bool record_values) {
    static const char *const env[] = {NULL};
    const char *argv[] = {path, NULL};
    emu_options opt = {.argc = 1, .argv = argv, .envp = env, .quiet = true, .record_values = record_values};
    cs_error err;
    emu_t *e = emu_create(path, &opt, &err);
    if (!e) fail_msg("%s", err.msg);
    return e;
}

static emu_t *start(const char *path) { return start_with(path, false); }

/* With record_values, every µop that writes a register carries its result
 * (folded to 32 bits), the others none; known results of tests/guest/uops.S. */
static void test_uop_values(void **state) {
    (void)state;
    emu_t *e = start_with(guest_path, true);
    uop u[32];
    assert_int_equal(emu_run_uops(e, u, 32), 18);
    for (int i = 0; i < 18; i++) assert_int_equal(!!(u[i].flags & UOP_HAS_VALUE), u[i].dst != 0);
    uint64_t slot = u[3].mem_addr;                             /* data + 8 */
    assert_int_equal(u[0].value, 5);                           /* li a0,5 */
    assert_int_equal(u[2].value, uop_fold_value(slot - 8));    /* lla a1,data */
    assert_int_equal(u[4].value, 5);                           /* ld a2 = the 5 stored */
    assert_int_equal(u[9].value, uop_fold_value(u[9].pc + 4)); /* jal ra: the return address */
    assert_int_equal(u[7].value, 0);                           /* fadd.d 0.0 + 0.0 */
    assert_int_equal(u[13].value, 1);                          /* c.addi a3 (0 loaded) + 1 */
    assert_int_equal(u[14].value, 0);                          /* amoadd.w: the old word */
    assert_int_equal(uop_fold_value(0x123456789abcdef0ull), 0x12345678u ^ 0x9abcdef0u);
    emu_destroy(e);
}

static void test_uop_records(void **state) {
    (void)state;
    emu_t *e = start(guest_path);
    uop u[32];
    uint64_t n = emu_run_uops(e, u, 32);
    assert_int_equal(n, 18);
    assert_int_equal(emu_state(e), EMU_EXITED);
    assert_int_equal(emu_exit_code(e), 0);
    assert_int_equal(emu_icount(e), 18);

    /* li a0,5: int-alu, no sources, destination a0 (x10) */
    assert_int_equal(u[0].op_class, OPC_INT_ALU);
    assert_int_equal(u[0].src[0], 0);
    assert_int_equal(u[0].dst, 10);
    assert_int_equal(u[0].next_pc, u[0].pc + 4);
    assert_int_equal(u[0].flags, 0);
    uint64_t data = u[2].pc; /* recomputed below from the store address */
    (void)data;
    /* sd a0,8(a1): sources a1 (base) then a0, write of 8 bytes */
    assert_int_equal(u[3].op_class, OPC_STORE);
    assert_int_equal(u[3].src[0], 11);
    assert_int_equal(u[3].src[1], 10);
    assert_int_equal(u[3].dst, 0);
    assert_int_equal(u[3].flags, UOP_MEM_WRITE);
    assert_int_equal(u[3].mem_size, 8);
    uint64_t slot = u[3].mem_addr;
    assert_int_equal(slot % 8, 0);
    /* ld a2,8(a1): same address, read */
    assert_int_equal(u[4].op_class, OPC_LOAD);
    assert_int_equal(u[4].mem_addr, slot);
    assert_int_equal(u[4].flags, UOP_MEM_READ);
    assert_int_equal(u[4].dst, 12);
    /* beq taken over the nop: next_pc is the target */
    assert_int_equal(u[5].op_class, OPC_BRANCH);
    assert_int_equal(u[5].flags, UOP_TAKEN);
    assert_int_equal(u[5].next_pc, u[5].pc + 8);
    assert_int_equal(u[6].pc, u[5].next_pc);
    /* bne not taken */
    assert_int_equal(u[6].flags, 0);
    assert_int_equal(u[6].next_pc, u[6].pc + 4);
    /* fadd.d fa0,fa1,fa2: FP registers are 32+n, one FP operation */
    assert_int_equal(u[7].op_class, OPC_FP_ADD);
    assert_int_equal(u[7].src[0], 32 + 11);
    assert_int_equal(u[7].src[1], 32 + 12);
    assert_int_equal(u[7].src[2], 0);
    assert_int_equal(u[7].dst, 32 + 10);
    assert_int_equal(u[7].fp_ops, 1);
    /* fmadd.d: three sources, an FMA counts two operations */
    assert_int_equal(u[8].op_class, OPC_FP_FMA);
    assert_int_equal(u[8].src[2], 32 + 13);
    assert_int_equal(u[8].fp_ops, 2);
    /* jal ra,func: a call writing ra */
    assert_int_equal(u[9].op_class, OPC_CALL);
    assert_int_equal(u[9].dst, 1);
    assert_int_equal(u[9].flags, UOP_TAKEN);
    assert_int_equal(u[10].pc, u[9].next_pc);
    /* add zero,a0,a0: x0 is never a destination */
    assert_int_equal(u[10].dst, 0);
    assert_int_equal(u[10].src[0], 10);
    /* ret: a return reading ra, back after the jal */
    assert_int_equal(u[11].op_class, OPC_RETURN);
    assert_int_equal(u[11].src[0], 1);
    assert_int_equal(u[11].next_pc, u[9].pc + 4);
    /* lw: 4-byte access at data+12 */
    assert_int_equal(u[12].mem_size, 4);
    assert_int_equal(u[12].mem_addr, slot + 4);
    /* c.addi: compressed, 2 bytes long, encoding in the low 16 bits */
    assert_int_equal(u[13].next_pc, u[13].pc + 2);
    assert_int_equal(u[13].encoding >> 16, 0);
    assert_int_equal(u[13].encoding & 3, 1);
    /* amoadd.w: reads and writes */
    assert_int_equal(u[14].op_class, OPC_ATOMIC);
    assert_int_equal(u[14].flags, UOP_MEM_READ | UOP_MEM_WRITE);
    assert_int_equal(u[14].mem_addr, slot - 8);
    /* ecall */
    assert_int_equal(u[17].op_class, OPC_SYSTEM);
    emu_destroy(e);
}

/* Fast-forward, records in small batches, and the uop_source with skip all
 * execute the same program to the same end. */
static void test_paths_agree(void **state) {
    (void)state;
    emu_t *a = start(workload_path);
    emu_run(a, UINT64_MAX);
    assert_int_equal(emu_state(a), EMU_EXITED);

    emu_t *b = start(workload_path);
    uop buf[7];
    uint64_t total = 0, xor_pc = 0, xor_after_1000 = 0, n;
    while ((n = emu_run_uops(b, buf, 7)) > 0) {
        for (uint64_t i = 0; i < n; i++) {
            xor_pc ^= buf[i].pc * 0x9e3779b97f4a7c15ull;
            if (total + i >= 1000) xor_after_1000 ^= buf[i].pc * 0x9e3779b97f4a7c15ull;
            if (i + 1 < n) assert_int_equal(buf[i].next_pc, buf[i + 1].pc);
        }
        total += n;
    }
    assert_int_equal(total, emu_icount(a));
    assert_int_equal(emu_exit_code(b), emu_exit_code(a));

    emu_t *c = start(workload_path);
    uop_source *src = emu_source_create(c);
    cs_error err;
    long long skipped = uop_source_skip(src, 1000, &err);
    assert_int_equal(skipped, 1000);
    uint64_t got = 1000, xor_rest = 0;
    long r;
    uop big[512];
    while ((r = uop_source_read(src, big, 512, &err)) > 0) {
        for (long i = 0; i < r; i++) xor_rest ^= big[i].pc * 0x9e3779b97f4a7c15ull;
        got += (uint64_t)r;
    }
    assert_int_equal(r, 0);
    assert_int_equal(got, emu_icount(a));
    assert_int_not_equal(xor_pc, 0);
    assert_int_equal(xor_rest, xor_after_1000); /* the skip lands on the same instruction */
    uop_source_destroy(src);
    emu_destroy(a);
    emu_destroy(b);
    emu_destroy(c);
}

/* Two runs give bit-identical records: time and randomness are deterministic. */
static void test_deterministic(void **state) {
    (void)state;
    enum { N = 100000 };
    uop *x = malloc(N * sizeof(uop)), *y = malloc(N * sizeof(uop));
    emu_t *a = start(workload_path), *b = start(workload_path);
    uint64_t na = emu_run_uops(a, x, N), nb = emu_run_uops(b, y, N);
    assert_int_equal(na, nb);
    assert_memory_equal(x, y, na * sizeof(uop));
    emu_destroy(a);
    emu_destroy(b);
    free(x);
    free(y);
}

/* The host descriptors this process holds (those of /proc/self/fd, less the listing's own). */
static int open_descriptors(void) {
    DIR *d = opendir("/proc/self/fd");
    assert_non_null(d);
    int n = 0;
    for (struct dirent *entry; (entry = readdir(d));) n += entry->d_name[0] != '.';
    closedir(d);
    return n - 1;
}

/* A file the guest moved onto its stdin is closed with the emulator, as any other of its files. */
static void test_destroy_closes_moved_stdio(void **state) {
    (void)state;
    int before = open_descriptors();
    emu_t *e = start(dup_stdin_path);
    uop u[4096];
    while (emu_state(e) == EMU_RUNNING) emu_run_uops(e, u, 4096);
    assert_int_equal(emu_state(e), EMU_EXITED);
    assert_int_equal(emu_exit_code(e), 0);
    emu_destroy(e);
    assert_int_equal(open_descriptors(), before);
}

int main(void) {
    const char *build = getenv("CYCLESCOPE_BUILD");
    if (!build) build = ".";
    snprintf(guest_path, sizeof guest_path, "%s/tests/guest/uops", build);
    snprintf(workload_path, sizeof workload_path, "%s/tests/guest/syscalls", build);
    snprintf(dup_stdin_path, sizeof dup_stdin_path, "%s/tests/guest/dup_stdin", build);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uop_records),
        cmocka_unit_test(test_uop_values),
        cmocka_unit_test(test_paths_agree),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_destroy_closes_moved_stdio),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
