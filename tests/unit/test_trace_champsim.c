/* ChampSim import and export: the record layouts byte by byte, ChampSim's
 * branch inference on the register patterns x86 traces use, the export of every
 * RISC-V control-transfer form so that the inference gives back our class, the
 * split of x86 records into µops, the round trips (RISC-V µops -> ChampSim ->
 * µops keeps exactly the projection of test_trace_util.h; ChampSim -> µops ->
 * ChampSim keeps what ChampSim reads), xz / gzip / raw files, and the errors:
 * a length that is not a multiple of the record, corrupt compressed data, a
 * foreign register in --riscv mode. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "isa/isa.h"
#include "test_trace_util.h"

enum { SP = CHAMPSIM_REG_SP, FLAGS = CHAMPSIM_REG_FLAGS, IP = CHAMPSIM_REG_IP, RAX = 56, RBX = 57, RCX = 58 };

static uint64_t rng_state = 0x243f6a8885a308d3ull;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static bool has_reg(const uint8_t *r, size_t n, uint8_t reg) {
    for (size_t i = 0; i < n; i++)
        if (r[i] == reg) return true;
    return false;
}

static champsim_branch classify(const champsim_record *r, bool cloudsuite) {
    return champsim_branch_type(r->dst_regs, cloudsuite ? 4 : 2, r->src_regs, 4);
}

/* ---- layout and inference ------------------------------------------------------------- */

static void test_record_layout(void **state) {
    (void)state;
    champsim_record r = {.ip = 0x1122334455667788ull,
                         .is_branch = 1,
                         .branch_taken = 1,
                         .dst_regs = {0xd0, 0xd1, 0xd2, 0xd3},
                         .src_regs = {0xa0, 0xa1, 0xa2, 0xa3},
                         .dst_mem = {0x1000, 0x2000, 0x3000, 0x4000},
                         .src_mem = {0x5000, 0x6000, 0x7000, 0x8000},
                         .asid = {3, 4}};
    uint8_t b[96];
    /* input_instr: ip 0, is_branch 8, taken 9, dst regs 10, src regs 12, dst mem 16, src mem 32 */
    champsim_record_encode(&r, b, false);
    assert_int_equal(b[0], 0x88);
    assert_int_equal(b[7], 0x11);
    assert_int_equal(b[8], 1);
    assert_int_equal(b[9], 1);
    assert_int_equal(b[10], 0xd0);
    assert_int_equal(b[11], 0xd1);
    assert_int_equal(b[12], 0xa0);
    assert_int_equal(b[15], 0xa3);
    assert_int_equal(b[16], 0x00);
    assert_int_equal(b[17], 0x10);
    assert_int_equal(b[25], 0x20);
    assert_int_equal(b[33], 0x50);
    assert_int_equal(b[57], 0x80);
    champsim_record back;
    champsim_record_decode(&back, b, false);
    assert_int_equal(back.ip, r.ip);
    assert_int_equal(back.dst_regs[2], 0); /* standard records hold 2 destinations */
    assert_int_equal(back.dst_mem[1], 0x2000);
    assert_int_equal(back.dst_mem[2], 0);
    assert_int_equal(back.src_mem[3], 0x8000);
    /* cloudsuite_instr: dst regs 10 (4), src regs 14, dst mem 24 (4), src mem 56, asid 88 */
    champsim_record_encode(&r, b, true);
    assert_int_equal(b[13], 0xd3);
    assert_int_equal(b[14], 0xa0);
    assert_int_equal(b[17], 0xa3);
    assert_int_equal(b[18], 0);
    assert_int_equal(b[25], 0x10);
    assert_int_equal(b[49], 0x40);
    assert_int_equal(b[57], 0x50);
    assert_int_equal(b[81], 0x80);
    assert_int_equal(b[88], 3);
    assert_int_equal(b[89], 4);
    champsim_record_decode(&back, b, true);
    assert_int_equal(back.ip, r.ip);
    assert_int_equal(back.is_branch, 1);
    assert_int_equal(back.branch_taken, 1);
    assert_memory_equal(back.dst_regs, r.dst_regs, 4);
    assert_memory_equal(back.src_regs, r.src_regs, 4);
    assert_memory_equal(back.dst_mem, r.dst_mem, sizeof r.dst_mem);
    assert_memory_equal(back.src_mem, r.src_mem, sizeof r.src_mem);
    assert_memory_equal(back.asid, r.asid, 2);
}

typedef struct infer_case {
    const char *what;
    uint8_t dst[4], src[4];
    champsim_branch want;
} infer_case;

static void test_champsim_inference(void **state) {
    (void)state;
    /* register patterns of ChampSim's x86 tracer, and the corner cases of the rules */
    static const infer_case cases[] = {
        {"add rax,rbx", {RAX, FLAGS}, {RAX, RBX}, CHAMPSIM_NOT_BRANCH},
        {"mov rax,[rsp+8]", {RAX}, {SP}, CHAMPSIM_NOT_BRANCH},
        {"jmp rel32", {IP}, {IP}, CHAMPSIM_DIRECT_JUMP},
        {"jmp rel32 (no ip read)", {IP}, {0}, CHAMPSIM_DIRECT_JUMP},
        {"jmp rax", {IP}, {RAX}, CHAMPSIM_INDIRECT},
        {"jmp rax (ip read)", {IP}, {RAX, IP}, CHAMPSIM_CONDITIONAL},
        {"jz rel", {IP}, {IP, FLAGS}, CHAMPSIM_CONDITIONAL},
        {"jrcxz rel", {IP}, {IP, RCX}, CHAMPSIM_CONDITIONAL},
        {"call rel32", {SP, IP}, {SP, IP}, CHAMPSIM_DIRECT_CALL},
        {"call rax", {SP, IP}, {SP, IP, RAX}, CHAMPSIM_INDIRECT_CALL},
        {"ret", {SP, IP}, {SP}, CHAMPSIM_RETURN},
        {"ret (reads other)", {SP, IP}, {SP, RAX}, CHAMPSIM_RETURN},
        {"call with flags", {SP, IP}, {SP, IP, FLAGS}, CHAMPSIM_OTHER},
        {"jz writing sp", {SP, IP}, {IP, FLAGS}, CHAMPSIM_OTHER},
        {"writes sp only", {SP}, {SP}, CHAMPSIM_NOT_BRANCH},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        champsim_branch b = champsim_branch_type(cases[i].dst, 4, cases[i].src, 4);
        if (b != cases[i].want)
            fail_msg("%s: %s, want %s", cases[i].what, champsim_branch_name(b), champsim_branch_name(cases[i].want));
    }
}

/* ---- export of RISC-V control transfers ----------------------------------------------- */

typedef struct export_case {
    const char *what;
    uop u;
    champsim_branch want;
} export_case;

#define CTL(cls, s0, s1, d, taken) \
    { .pc = 0x1000, .next_pc = 0x2000, .op_class = cls, .src = {s0, s1}, .dst = d, .flags = taken }

static void test_export_branch_kinds(void **state) {
    (void)state;
    enum { RA = 1, T0 = 5, T1 = 6, S9 = 25, S10 = 26, A0 = 10, A5 = 15 };
    static const export_case cases[] = {
        {"beq a0,a5 taken", CTL(OPC_BRANCH, A0, A5, 0, UOP_TAKEN), CHAMPSIM_CONDITIONAL},
        {"bne t1,s10 not taken", CTL(OPC_BRANCH, T1, S10, 0, 0), CHAMPSIM_CONDITIONAL},
        {"beqz s9", CTL(OPC_BRANCH, S9, 0, 0, UOP_TAKEN), CHAMPSIM_CONDITIONAL},
        {"beq zero,zero", CTL(OPC_BRANCH, 0, 0, 0, UOP_TAKEN), CHAMPSIM_CONDITIONAL},
        {"j", CTL(OPC_JUMP, 0, 0, 0, UOP_TAKEN), CHAMPSIM_DIRECT_JUMP},
        {"jal t1 (a jump with a link)", CTL(OPC_JUMP, 0, 0, T1, UOP_TAKEN), CHAMPSIM_DIRECT_JUMP},
        {"jr a5", CTL(OPC_JUMP_INDIRECT, A5, 0, 0, UOP_TAKEN), CHAMPSIM_INDIRECT},
        {"jalr s9,0(t1)", CTL(OPC_JUMP_INDIRECT, T1, 0, S9, UOP_TAKEN), CHAMPSIM_INDIRECT},
        {"jalr zero,0x40(zero)", CTL(OPC_JUMP_INDIRECT, 0, 0, 0, UOP_TAKEN), CHAMPSIM_INDIRECT},
        {"jal ra (call)", CTL(OPC_CALL, 0, 0, RA, UOP_TAKEN), CHAMPSIM_DIRECT_CALL},
        {"jal t0 (call)", CTL(OPC_CALL, 0, 0, T0, UOP_TAKEN), CHAMPSIM_DIRECT_CALL},
        {"jalr ra,a5 (call)", CTL(OPC_CALL, A5, 0, RA, UOP_TAKEN), CHAMPSIM_INDIRECT_CALL},
        {"jalr ra,0(ra) (call)", CTL(OPC_CALL, RA, 0, RA, UOP_TAKEN), CHAMPSIM_INDIRECT_CALL},
        {"ret", CTL(OPC_RETURN, RA, 0, 0, UOP_TAKEN), CHAMPSIM_RETURN},
        {"jr t0 (return)", CTL(OPC_RETURN, T0, 0, 0, UOP_TAKEN), CHAMPSIM_RETURN},
        {"jalr a0,0(ra) (return with a link)", CTL(OPC_RETURN, RA, 0, A0, UOP_TAKEN), CHAMPSIM_RETURN},
        {"add a0,a0,a5", CTL(OPC_INT_ALU, A0, A5, A0, 0), CHAMPSIM_NOT_BRANCH},
        {"add s10,t1,s9", CTL(OPC_INT_ALU, T1, S9, S10, 0), CHAMPSIM_NOT_BRANCH},
    };
    for (int cloud = 0; cloud < 2; cloud++) {
        for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            const uop *u = &cases[i].u;
            champsim_record r;
            champsim_export_stats st = {0};
            champsim_record_from_uops(u, 1, CST_ISA_RV64GC, cloud, &r, &st);
            champsim_branch b = classify(&r, cloud);
            if (b != cases[i].want)
                fail_msg("%s: ChampSim sees %s, want %s", cases[i].what, champsim_branch_name(b),
                         champsim_branch_name(cases[i].want));
            assert_int_equal(r.is_branch, b != CHAMPSIM_NOT_BRANCH);
            /* registers never collide with ChampSim's special ones */
            for (int k = 0; k < 4; k++) {
                if (r.src_regs[k] && r.src_regs[k] != SP && r.src_regs[k] != FLAGS && r.src_regs[k] != IP)
                    assert_in_range(r.src_regs[k], CHAMPSIM_RISCV_REG_BASE, CHAMPSIM_RISCV_REG_BASE + 63);
                if (r.dst_regs[k] && r.dst_regs[k] != SP && r.dst_regs[k] != IP)
                    assert_in_range(r.dst_regs[k], CHAMPSIM_RISCV_REG_BASE + 1, CHAMPSIM_RISCV_REG_BASE + 63);
            }
            /* and the import gives back exactly the projection */
            champsim_options opt = {.riscv = true, .cloudsuite = cloud};
            uop back[CHAMPSIM_MAX_UOPS], want;
            cs_error err;
            int n = champsim_record_to_uops(&r, u->next_pc, &opt, back, &err);
            if (n != 1) fail_msg("%s: %s", cases[i].what, n < 0 ? err.msg : "several µops");
            champsim_projection(u, false, cloud, &want);
            char msg[600];
            if (uop_diff(&want, &back[0], msg, sizeof msg)) fail_msg("%s:\n%s", cases[i].what, msg);
            bool lost = !cloud && (u->op_class == OPC_CALL || u->op_class == OPC_RETURN) && u->dst;
            assert_int_equal(st.dropped_regs, lost ? 1 : 0);
        }
    }
}

/* ---- import of x86 records ------------------------------------------------------------ */

static void test_import_split(void **state) {
    (void)state;
    champsim_options opt = {0};
    uop u[CHAMPSIM_MAX_UOPS];
    cs_error err;

    /* add [rbx],rax: reads and writes memory and flags: a load µop, then a store µop */
    champsim_record r = {
        .ip = 0x400000, .dst_regs = {FLAGS}, .src_regs = {RBX, RAX}, .src_mem = {0x7000}, .dst_mem = {0x7000}};
    int n = champsim_record_to_uops(&r, 0x400003, &opt, u, &err);
    assert_int_equal(n, 2);
    assert_int_equal(u[0].op_class, OPC_LOAD);
    assert_int_equal(u[0].flags, UOP_MEM_READ);
    assert_int_equal(u[0].mem_addr, 0x7000);
    assert_int_equal(u[0].mem_size, 8);
    assert_int_equal(u[0].src[0], RBX);
    assert_int_equal(u[0].src[1], RAX);
    assert_int_equal(u[0].dst, FLAGS);
    assert_int_equal(u[1].op_class, OPC_STORE);
    assert_int_equal(u[1].flags, UOP_MEM_WRITE | UOP_CONTINUES);
    assert_int_equal(u[1].pc, 0x400000);
    assert_int_equal(u[1].next_pc, 0x400003);

    /* call rel32: a call (taken; ip dropped, sp kept) and the push of the return address */
    r = (champsim_record){.ip = 0x400010,
                          .is_branch = 1,
                          .branch_taken = 0,
                          .dst_regs = {SP, IP},
                          .src_regs = {SP, IP},
                          .dst_mem = {0x7ff8}};
    n = champsim_record_to_uops(&r, 0x500000, &opt, u, &err);
    assert_int_equal(n, 2);
    assert_int_equal(u[0].op_class, OPC_CALL);
    assert_int_equal(u[0].flags, UOP_TAKEN); /* ChampSim sets taken for calls whatever the trace says */
    assert_int_equal(u[0].src[0], SP);
    assert_int_equal(u[0].src[1], 0);
    assert_int_equal(u[0].dst, SP);
    assert_int_equal(u[0].next_pc, 0x500000);
    assert_int_equal(u[1].op_class, OPC_STORE);
    assert_int_equal(u[1].flags, UOP_MEM_WRITE | UOP_CONTINUES);
    assert_int_equal(u[1].next_pc, 0x500000);

    /* jz not taken */
    r = (champsim_record){.ip = 0x400020, .is_branch = 1, .dst_regs = {IP}, .src_regs = {IP, FLAGS}};
    n = champsim_record_to_uops(&r, 0x400022, &opt, u, &err);
    assert_int_equal(n, 1);
    assert_int_equal(u[0].op_class, OPC_BRANCH);
    assert_int_equal(u[0].flags, 0);
    assert_int_equal(u[0].src[0], FLAGS);
    /* an "other" branch keeps the trace's direction and becomes a conditional branch */
    r = (champsim_record){
        .ip = 0x400030, .is_branch = 1, .branch_taken = 1, .dst_regs = {SP, IP}, .src_regs = {IP, FLAGS}};
    n = champsim_record_to_uops(&r, 0x400100, &opt, u, &err);
    assert_int_equal(u[0].op_class, OPC_BRANCH);
    assert_int_equal(u[0].flags, UOP_TAKEN);
    /* a non-branch that says is_branch/taken is not a branch */
    r = (champsim_record){.ip = 0x400040, .is_branch = 1, .branch_taken = 1, .dst_regs = {RAX}, .src_regs = {RBX}};
    n = champsim_record_to_uops(&r, 0x400044, &opt, u, &err);
    assert_int_equal(n, 1);
    assert_int_equal(u[0].op_class, OPC_INT_ALU);
    assert_int_equal(u[0].flags, 0);

    /* four loads, two stores, four sources, two destinations: 6 µops */
    r = (champsim_record){.ip = 0x400050,
                          .dst_regs = {RAX, RBX},
                          .src_regs = {RAX, RBX, RCX, 60},
                          .src_mem = {0x100, 0x200, 0x300, 0x400},
                          .dst_mem = {0x500, 0x600}};
    n = champsim_record_to_uops(&r, 0x400058, &opt, u, &err);
    assert_int_equal(n, 6);
    for (int i = 0; i < 4; i++) assert_int_equal(u[i].mem_addr, 0x100 * (i + 1));
    assert_int_equal(u[4].op_class, OPC_STORE);
    assert_int_equal(u[5].mem_addr, 0x600);
    assert_int_equal(u[0].src[2], RCX);
    assert_int_equal(u[1].src[0], 60);
    assert_int_equal(u[0].dst, RAX);
    assert_int_equal(u[1].dst, RBX);
    for (int i = 1; i < 6; i++) assert_true(u[i].flags & UOP_CONTINUES);

    /* cloudsuite: four destinations and no memory: four int-alu µops */
    opt.cloudsuite = true;
    r = (champsim_record){.ip = 0x400060, .dst_regs = {RAX, RBX, RCX, 60}, .src_regs = {61}};
    n = champsim_record_to_uops(&r, 0x400064, &opt, u, &err);
    assert_int_equal(n, 4);
    assert_int_equal(u[3].dst, 60);
    assert_int_equal(u[3].flags, UOP_CONTINUES);
    assert_int_equal(u[0].src[0], 61);

    /* --riscv refuses what cyclescope's export cannot have written */
    opt = (champsim_options){.riscv = true};
    r = (champsim_record){.ip = 0x400070, .dst_regs = {RAX}, .src_regs = {RBX}};
    assert_int_equal(champsim_record_to_uops(&r, 0, &opt, u, &err), -1);
    assert_non_null(strstr(err.msg, "register 57"));
    r = (champsim_record){.ip = 0x400070, .src_regs = {70}, .src_mem = {0x10, 0x20}};
    assert_int_equal(champsim_record_to_uops(&r, 0, &opt, u, &err), -1);
    assert_non_null(strstr(err.msg, "2 loads"));
}

/* ---- files ---------------------------------------------------------------------------- */

static uop *riscv_like_stream(size_t n) {
    /* µops a RISC-V stream can hold: isa registers, one access, the control
     * classes with their operand shapes, taken flags as the emulator sets them */
    uop *u = calloc(n, sizeof *u);
    uint64_t pc = 0x10000;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = rnd();
        uop *x = &u[i];
        x->pc = pc;
        x->encoding = (uint32_t)r | 3;
        x->fp_ops = r & 1;
        x->op_class = (uint8_t)((r >> 8) % OPC_COUNT);
        x->src[0] = (uint8_t)((r >> 16) % 64);
        x->src[1] = x->src[0] ? (uint8_t)((r >> 24) % 64) : 0;
        x->src[2] = x->src[1] && (r >> 30 & 1) ? (uint8_t)(32 + (r >> 32) % 32) : 0;
        x->dst = (uint8_t)((r >> 38) % 64);
        uint64_t next = pc + 4;
        switch (x->op_class) {
        case OPC_LOAD: x->flags = UOP_MEM_READ; break;
        case OPC_STORE: x->flags = UOP_MEM_WRITE, x->dst = 0; break;
        case OPC_ATOMIC:
            x->flags = (r >> 44 & 1) ? UOP_MEM_READ | UOP_MEM_WRITE : (r >> 45 & 1) ? UOP_MEM_WRITE : 0;
            break;
        case OPC_BRANCH:
            x->dst = 0, x->src[2] = 0;
            if (r >> 46 & 1) x->flags = UOP_TAKEN, next = 0x10000 + 2 * (rnd() % 4096);
            break;
        case OPC_JUMP:
        case OPC_CALL: x->src[0] = x->src[1] = x->src[2] = 0; /* fall through */
        case OPC_JUMP_INDIRECT:
        case OPC_RETURN:
            x->src[1] = x->src[2] = 0;
            x->flags = UOP_TAKEN;
            next = 0x10000 + 2 * (rnd() % 4096);
            break;
        default: break;
        }
        if (x->op_class == OPC_LOAD || x->op_class == OPC_STORE || x->op_class == OPC_ATOMIC) {
            x->mem_addr = 0x80000000 + 8 * (rnd() % 100000);
            x->mem_size = (uint8_t)(1 << (r >> 50 & 3));
        }
        x->next_pc = next;
        pc = next;
    }
    return u;
}

static void export_stream(const char *path, const uop *u, size_t n, bool cloudsuite, cst_isa isa,
                          champsim_export_stats *st) {
    champsim_options opt = {.cloudsuite = cloudsuite, .level = 1};
    cs_error err;
    champsim_writer *w = champsim_writer_create(path, &opt, isa, &err);
    if (!w) fail_msg("%s", err.msg);
    for (size_t i = 0; i < n;) {
        size_t k = 1 + rnd() % 3000;
        if (k > n - i) k = n - i;
        if (!champsim_writer_write(w, u + i, k, &err)) fail_msg("%s", err.msg);
        i += k;
    }
    if (!champsim_writer_finish(w, st, &err)) fail_msg("%s", err.msg);
}

static uop *import_stream(const char *path, const champsim_options *opt, size_t *n) {
    cs_error err;
    uop_source *s = champsim_open(path, opt, &err);
    if (!s) fail_msg("%s", err.msg);
    size_t cap = 1024, len = 0;
    uop *u = malloc(cap * sizeof *u);
    for (;;) {
        if (len + 777 > cap) u = realloc(u, (cap *= 2) * sizeof *u);
        long k = uop_source_read(s, u + len, 777, &err);
        if (k < 0) fail_msg("%s", err.msg);
        if (k == 0) break;
        len += (size_t)k;
    }
    uop_source_destroy(s);
    *n = len;
    return u;
}

static void test_riscv_roundtrip_files(void **state) {
    (void)state;
    enum { N = 30000 };
    uop *u = riscv_like_stream(N);
    const char *names[] = {"rt.champsim", "rt.champsim.xz", "rt.champsim.gz"};
    for (int cloud = 0; cloud < 2; cloud++) {
        for (int k = 0; k < 3; k++) {
            char path[256];
            tmp_path(path, sizeof path, names[k]);
            champsim_export_stats st;
            export_stream(path, u, N, cloud, CST_ISA_RV64GC, &st);
            assert_int_equal(st.records, N);
            champsim_options opt = {.riscv = true, .cloudsuite = cloud};
            size_t n;
            uop *back = import_stream(path, &opt, &n);
            assert_int_equal(n, N);
            char msg[600];
            for (size_t i = 0; i < N; i++) {
                uop want;
                champsim_projection(&u[i], i == N - 1, cloud, &want);
                if (uop_diff(&want, &back[i], msg, sizeof msg))
                    fail_msg("%s (cloudsuite %d), µop %zu:\n%s", names[k], cloud, i, msg);
            }
            free(back);
            unlink(path);
        }
    }
    free(u);
}

/* x86-style records survive import then export as far as ChampSim can see:
 * the inferred branch type, the effective taken flag, the registers other than
 * the instruction pointer, and the memory addresses, in order. */
static void test_champsim_roundtrip(void **state) {
    (void)state;
    enum { N = 5000 };
    static const uint8_t pool[] = {SP, FLAGS, IP, RAX, RBX, RCX, 60, 61, 0, 0, 0};
    for (int cloud = 0; cloud < 2; cloud++) {
        champsim_record *recs = calloc(N, sizeof *recs);
        size_t rsize = cloud ? CHAMPSIM_CLOUDSUITE_RECORD_SIZE : CHAMPSIM_RECORD_SIZE;
        uint8_t *bytes = calloc(N, rsize);
        int nd = cloud ? 4 : 2;
        for (int i = 0; i < N; i++) {
            champsim_record *r = &recs[i];
            do {
                memset(r, 0, sizeof *r);
                r->ip = 0x400000 + 4 * (rnd() % 5000);
                r->is_branch = rnd() & 1;
                r->branch_taken = rnd() & 1;
                /* distinct registers in each list (duplicates would be folded by nothing,
                 * but the IP slot bookkeeping is simplest without them) */
                for (int k = 0; k < 4; k++) {
                    uint8_t reg = pool[rnd() % sizeof pool];
                    if (!has_reg(r->src_regs, 4, reg)) r->src_regs[k] = reg;
                }
                for (int k = 0; k < nd; k++) {
                    uint8_t reg = pool[rnd() % sizeof pool];
                    if (!has_reg(r->dst_regs, 4, reg)) r->dst_regs[k] = reg;
                }
                for (int k = 0; k < 4; k++) r->src_mem[k] = rnd() % 3 ? 0 : rnd() >> 16;
                for (int k = 0; k < nd; k++) r->dst_mem[k] = rnd() % 3 ? 0 : rnd() >> 16;
            } while (classify(r, cloud) == CHAMPSIM_OTHER);
            champsim_record_encode(r, bytes + (size_t)i * rsize, cloud);
        }
        char in[256], mid[256];
        tmp_path(in, sizeof in, "x86.champsim");
        tmp_path(mid, sizeof mid, "x86.again.champsim.gz");
        FILE *f = fopen(in, "wb");
        fwrite(bytes, rsize, N, f);
        fclose(f);
        champsim_options opt = {.cloudsuite = cloud};
        size_t n;
        uop *u = import_stream(in, &opt, &n);
        champsim_export_stats st;
        export_stream(mid, u, n, cloud, CST_ISA_CHAMPSIM, &st);
        assert_int_equal(st.records, N);
        assert_int_equal(st.dropped_regs + st.dropped_mem, 0);
        /* read the re-exported records back raw */
        char raw[256];
        tmp_path(raw, sizeof raw, "x86.again.champsim");
        char cmd[700];
        snprintf(cmd, sizeof cmd, "gzip -dc %s > %s", mid, raw);
        assert_int_equal(system(cmd), 0);
        uint8_t *again;
        size_t size;
        cs_error err;
        assert_true(cs_read_file(raw, &again, &size, &err));
        assert_int_equal(size, (size_t)N * rsize);
        for (int i = 0; i < N; i++) {
            champsim_record a = recs[i], b;
            champsim_record_decode(&b, again + (size_t)i * rsize, cloud);
            champsim_branch ta = classify(&a, cloud), tb = classify(&b, cloud);
            if (ta != tb) fail_msg("record %d: %s became %s", i, champsim_branch_name(ta), champsim_branch_name(tb));
            bool forced = ta != CHAMPSIM_NOT_BRANCH && ta != CHAMPSIM_CONDITIONAL;
            bool ka = ta != CHAMPSIM_NOT_BRANCH && (forced || a.branch_taken);
            bool kb = tb != CHAMPSIM_NOT_BRANCH && (forced || b.branch_taken);
            assert_int_equal(ka, kb);
            assert_int_equal(a.ip, b.ip);
            for (int list = 0; list < 4; list++) {
                const uint8_t *ra = list == 0 ? a.src_regs : a.dst_regs, *rb = list == 0 ? b.src_regs : b.dst_regs;
                if (list >= 2) {
                    const uint64_t *ma = list == 2 ? a.src_mem : a.dst_mem, *mb = list == 2 ? b.src_mem : b.dst_mem;
                    uint64_t xa[4] = {0}, xb[4] = {0};
                    int na = 0, nb = 0;
                    for (int k = 0; k < 4; k++) {
                        if (ma[k]) xa[na++] = ma[k];
                        if (mb[k]) xb[nb++] = mb[k];
                    }
                    assert_int_equal(na, nb);
                    assert_memory_equal(xa, xb, sizeof xa);
                    continue;
                }
                uint8_t xa[4] = {0}, xb[4] = {0};
                int na = 0, nb = 0;
                for (int k = 0; k < 4; k++) {
                    if (ra[k] && ra[k] != IP) xa[na++] = ra[k];
                    if (rb[k] && rb[k] != IP) xb[nb++] = rb[k];
                }
                if (na != nb || memcmp(xa, xb, 4)) fail_msg("record %d: %s registers differ", i, list ? "dst" : "src");
            }
        }
        free(again);
        free(u);
        free(recs);
        free(bytes);
        unlink(in);
        unlink(mid);
        unlink(raw);
    }
}

static void write_bytes(const char *path, const void *p, size_t n) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    fclose(f);
}

static void expect_import_error(const char *path, const champsim_options *opt, const char *what) {
    cs_error err;
    uop_source *s = champsim_open(path, opt, &err);
    if (s) {
        uop buf[64];
        long k;
        while ((k = uop_source_read(s, buf, 64, &err)) > 0) continue;
        uop_source_destroy(s);
        if (k == 0) fail_msg("%s: read without error", path);
    }
    if (!strstr(err.msg, path) || !strstr(err.msg, what))
        fail_msg("error '%s' should name the file and say '%s'", err.msg, what);
}

static void test_bad_files(void **state) {
    (void)state;
    uint8_t rec[200 * 64];
    memset(rec, 0, sizeof rec);
    for (int i = 0; i < 200; i++) rec[64 * i] = (uint8_t)i, rec[64 * i + 1] = 0x10, rec[64 * i + 12] = RAX;
    char path[256];
    champsim_options opt = {0}, cloud = {.cloudsuite = true};

    tmp_path(path, sizeof path, "short.champsim");
    write_bytes(path, rec, 3 * 64 + 10);
    expect_import_error(path, &opt,
                        "length, 202 bytes, is not a multiple of the 64-byte ChampSim record at offset 192");
    write_bytes(path, rec, 4 * 64);
    expect_import_error(path, &cloud, "is not a multiple of the 96-byte ChampSim cloudsuite record at offset 192");
    unlink(path);

    /* compressed: the offset is in the decompressed stream */
    tmp_path(path, sizeof path, "short.champsim.gz");
    char raw[256], cmd[700];
    tmp_path(raw, sizeof raw, "short.raw");
    write_bytes(raw, rec, 150 * 64 + 1);
    snprintf(cmd, sizeof cmd, "gzip -c %s > %s", raw, path);
    assert_int_equal(system(cmd), 0);
    expect_import_error(path, &opt,
                        "decompressed length, 9601 bytes, is not a multiple of the 64-byte ChampSim record at "
                        "decompressed offset 9600");
    /* a corrupt gzip member */
    uint8_t *gz;
    size_t size;
    cs_error err;
    assert_true(cs_read_file(path, &gz, &size, &err));
    gz[size / 2] ^= 0xff;
    write_bytes(path, gz, size);
    expect_import_error(path, &opt, "gzip");
    write_bytes(path, gz, size / 2); /* cut short */
    expect_import_error(path, &opt, "truncated gzip data at offset");
    free(gz);
    unlink(path);

    tmp_path(path, sizeof path, "short.champsim.xz");
    snprintf(cmd, sizeof cmd, "xz -c %s > %s", raw, path);
    assert_int_equal(system(cmd), 0);
    expect_import_error(path, &opt, "at decompressed offset 9600");
    uint8_t *xz;
    assert_true(cs_read_file(path, &xz, &size, &err));
    xz[size / 2] ^= 0xff;
    write_bytes(path, xz, size);
    expect_import_error(path, &opt, "xz data at offset");
    write_bytes(path, xz, 20);
    expect_import_error(path, &opt, "xz data at offset");
    write_bytes(path, "this is not an xz file at all", 29);
    expect_import_error(path, &opt, "not xz data at offset");
    free(xz);
    unlink(path);
    unlink(raw);

    /* a foreign register in riscv mode names the record's offset */
    tmp_path(path, sizeof path, "x86.champsim");
    write_bytes(path, rec, 5 * 64);
    champsim_options rv = {.riscv = true};
    expect_import_error(path, &rv, "register 56 is outside cyclescope's RISC-V mapping (64..127) at offset 0");
    unlink(path);
    assert_null(champsim_open("/no/such/trace.xz", &opt, &err));
    assert_non_null(strstr(err.msg, "cannot open"));

    /* an empty file is an error naming it, not a run of 0 instructions (issue 11, item 12) */
    tmp_path(path, sizeof path, "empty.champsim");
    write_bytes(path, rec, 0);
    expect_import_error(path, &opt, "empty.champsim: empty ChampSim trace (no records)");
    unlink(path);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_layout),
        cmocka_unit_test(test_champsim_inference),
        cmocka_unit_test(test_export_branch_kinds),
        cmocka_unit_test(test_import_split),
        cmocka_unit_test(test_riscv_roundtrip_files),
        cmocka_unit_test(test_champsim_roundtrip),
        cmocka_unit_test(test_bad_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
