/* Unit tests of isa_decode, isa_regs_of and the isa helpers: field extraction
 * for every format, the expansion of every compressed form, class
 * refinement (calls, returns, nops), the register view, and the encodings
 * that must be rejected. Encodings come from riscv64-linux-gnu-as; the
 * expected fields are worked out by hand from the RISC-V specification. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "isa/isa.h"

/* register numbers by ABI name, for readable expectations */
enum {
    ZERO = 0,
    RA = 1,
    SP = 2,
    GP = 3,
    T0 = 5,
    S0 = 8,
    S1 = 9,
    A0 = 10,
    A1 = 11,
    A2 = 12,
    A3 = 13,
    A4 = 14,
    A5 = 15,
    S11 = 27,
    T6 = 31,
    /* FP registers as field values (not the unified numbering) */
    FT0 = 0,
    FT1 = 1,
    FT2 = 2,
    FS1 = 9,
    FA0 = 10,
    FA1 = 11,
    FA2 = 12,
    FA3 = 13,
    FA5 = 15,
    FS11 = 27,
    FT11 = 31
};

typedef struct decode_case {
    const char *text; /* what the encoding is, for failure messages */
    uint32_t raw;
    isa_op op;
    unsigned length;
    unsigned rd, rs1, rs2;
    int64_t imm;
    op_class cls;
} decode_case;

#define C16(txt, raw, op, rd, rs1, rs2, imm, cls) \
    { txt, raw, ISA_OP_##op, 2, rd, rs1, rs2, imm, cls }
#define C32(txt, raw, op, rd, rs1, rs2, imm, cls) \
    { txt, raw, ISA_OP_##op, 4, rd, rs1, rs2, imm, cls }

static const decode_case cases[] = {
    /* ---- every compressed form, as the instruction it expands to ---- */
    C16("c.addi4spn a0,sp,1020", 0x1fe8, ADDI, A0, SP, 0, 1020, OPC_INT_ALU),
    C16("c.fld fa5,248(a5)", 0x3ffc, FLD, FA5, A5, 0, 248, OPC_LOAD),
    C16("c.lw s0,124(a5)", 0x5fe0, LW, S0, A5, 0, 124, OPC_LOAD),
    C16("c.ld s1,248(a4)", 0x7f64, LD, S1, A4, 0, 248, OPC_LOAD),
    C16("c.fsd fs1,248(s0)", 0xbc64, FSD, 0, S0, FS1, 248, OPC_STORE),
    C16("c.sw a5,124(s0)", 0xdc7c, SW, 0, S0, A5, 124, OPC_STORE),
    C16("c.sd s0,248(a5)", 0xffe0, SD, 0, A5, S0, 248, OPC_STORE),
    C16("c.nop", 0x0001, ADDI, 0, 0, 0, 0, OPC_NOP),
    C16("c.addi a0,-32", 0x1501, ADDI, A0, A0, 0, -32, OPC_INT_ALU),
    C16("c.addiw s11,-32", 0x3d81, ADDIW, S11, S11, 0, -32, OPC_INT_ALU),
    C16("c.li t6,31", 0x4ffd, ADDI, T6, ZERO, 0, 31, OPC_INT_ALU),
    C16("c.addi16sp sp,-512", 0x7101, ADDI, SP, SP, 0, -512, OPC_INT_ALU),
    C16("c.addi16sp sp,496", 0x617d, ADDI, SP, SP, 0, 496, OPC_INT_ALU),
    C16("c.lui t6,0xfffe0 (negative)", 0x7f81, LUI, T6, 0, 0, -32 * 4096, OPC_INT_ALU),
    C16("c.lui a5,0x1f", 0x67fd, LUI, A5, 0, 0, 31 * 4096, OPC_INT_ALU),
    C16("c.srli s0,63", 0x907d, SRLI, S0, S0, 0, 63, OPC_INT_ALU),
    C16("c.srai a5,32", 0x9781, SRAI, A5, A5, 0, 32, OPC_INT_ALU),
    C16("c.andi s0,-32", 0x9801, ANDI, S0, S0, 0, -32, OPC_INT_ALU),
    C16("c.sub a0,a1", 0x8d0d, SUB, A0, A0, A1, 0, OPC_INT_ALU),
    C16("c.xor s0,s1", 0x8c25, XOR, S0, S0, S1, 0, OPC_INT_ALU),
    C16("c.or a4,a5", 0x8f5d, OR, A4, A4, A5, 0, OPC_INT_ALU),
    C16("c.and a2,a3", 0x8e75, AND, A2, A2, A3, 0, OPC_INT_ALU),
    C16("c.subw a0,a1", 0x9d0d, SUBW, A0, A0, A1, 0, OPC_INT_ALU),
    C16("c.addw s1,a5", 0x9cbd, ADDW, S1, S1, A5, 0, OPC_INT_ALU),
    C16("c.j -2048", 0xb001, JAL, 0, 0, 0, -2048, OPC_JUMP),
    C16("c.beqz s0,-256", 0xd001, BEQ, 0, S0, ZERO, -256, OPC_BRANCH),
    C16("c.bnez a5,+254", 0xeffd, BNE, 0, A5, ZERO, 254, OPC_BRANCH),
    C16("c.slli t6,63", 0x1ffe, SLLI, T6, T6, 0, 63, OPC_INT_ALU),
    C16("c.fldsp ft11,504(sp)", 0x3ffe, FLD, FT11, SP, 0, 504, OPC_LOAD),
    C16("c.lwsp t6,252(sp)", 0x5ffe, LW, T6, SP, 0, 252, OPC_LOAD),
    C16("c.ldsp s11,504(sp)", 0x7dfe, LD, S11, SP, 0, 504, OPC_LOAD),
    C16("c.jr ra (ret)", 0x8082, JALR, 0, RA, 0, 0, OPC_RETURN),
    C16("c.jr t0 (alternate link: return)", 0x8282, JALR, 0, T0, 0, 0, OPC_RETURN),
    C16("c.jr a5", 0x8782, JALR, 0, A5, 0, 0, OPC_JUMP_INDIRECT),
    C16("c.mv t6,ra", 0x8f86, ADD, T6, ZERO, RA, 0, OPC_INT_ALU),
    C16("c.ebreak", 0x9002, EBREAK, 0, 0, 0, 0, OPC_SYSTEM),
    C16("c.jalr a5", 0x9782, JALR, RA, A5, 0, 0, OPC_CALL),
    C16("c.jalr t0", 0x9282, JALR, RA, T0, 0, 0, OPC_CALL),
    C16("c.add sp,t6", 0x917e, ADD, SP, SP, T6, 0, OPC_INT_ALU),
    C16("c.fsdsp fs11,504(sp)", 0xbfee, FSD, 0, SP, FS11, 504, OPC_STORE),
    C16("c.swsp t6,252(sp)", 0xdffe, SW, 0, SP, T6, 252, OPC_STORE),
    C16("c.sdsp ra,504(sp)", 0xff86, SD, 0, SP, RA, 504, OPC_STORE),
    /* hints decode as the (harmless) instruction they expand to */
    C16("c.nop 5 (hint)", 0x0015, ADDI, 0, 0, 0, 5, OPC_INT_ALU),
    C16("c.li zero,3 (hint)", 0x400d, ADDI, 0, 0, 0, 3, OPC_INT_ALU),
    C16("c.slli64 a0 (hint)", 0x0502, SLLI, A0, A0, 0, 0, OPC_INT_ALU),
    C16("c.mv zero,a0 (hint)", 0x802a, ADD, 0, 0, A0, 0, OPC_INT_ALU),
    /* upper bits beyond a compressed instruction are ignored */
    C16("c.nop followed by junk", 0xdead0001, ADDI, 0, 0, 0, 0, OPC_NOP),

    /* ---- 32-bit: every format, extremes, and class refinement ---- */
    C32("jal ra,+2048 (call)", 0x001000ef, JAL, RA, 0, 0, 2048, OPC_CALL),
    C32("jal t0,-4 (call via alternate link)", 0xffdff2ef, JAL, T0, 0, 0, -4, OPC_CALL),
    C32("j +8", 0x0080006f, JAL, 0, 0, 0, 8, OPC_JUMP),
    C32("j -1MiB", 0x8000006f, JAL, 0, 0, 0, -1048576, OPC_JUMP),
    C32("ret", 0x00008067, JALR, 0, RA, 0, 0, OPC_RETURN),
    C32("jr t0 (return via alternate link)", 0x00028067, JALR, 0, T0, 0, 0, OPC_RETURN),
    C32("jr a5", 0x00078067, JALR, 0, A5, 0, 0, OPC_JUMP_INDIRECT),
    C32("jalr a5 (call)", 0x000780e7, JALR, RA, A5, 0, 0, OPC_CALL),
    C32("jalr t0,0(t0) (call)", 0x000282e7, JALR, T0, T0, 0, 0, OPC_CALL),
    C32("jalr a0,0(ra) (return)", 0x00008567, JALR, A0, RA, 0, 0, OPC_RETURN),
    C32("jalr t0,-8(a5)", 0xff8782e7, JALR, T0, A5, 0, -8, OPC_CALL),
    C32("beq a0,a1,-4096", 0x80b50063, BEQ, 0, A0, A1, -4096, OPC_BRANCH),
    C32("bne a0,zero,+4094", 0x7e051fe3, BNE, 0, A0, ZERO, 4094, OPC_BRANCH),
    C32("lui a0,0x80000", 0x80000537, LUI, A0, 0, 0, INT64_C(-2147483648), OPC_INT_ALU),
    C32("auipc a1,0xfffff", 0xfffff597, AUIPC, A1, 0, 0, -4096, OPC_INT_ALU),
    C32("sd a0,-8(sp)", 0xfea13c23, SD, 0, SP, A0, -8, OPC_STORE),
    C32("lb t6,-2048(sp)", 0x80010f83, LB, T6, SP, 0, -2048, OPC_LOAD),
    C32("lwu a2,4(a3)", 0x0046e603, LWU, A2, A3, 0, 4, OPC_LOAD),
    C32("flw fa0,-4(a0)", 0xffc52507, FLW, FA0, A0, 0, -4, OPC_LOAD),
    C32("fsd fs11,2040(gp)", 0x7fb1bc27, FSD, 0, GP, FS11, 2040, OPC_STORE),
    C32("addi a0,a1,2047", 0x7ff58513, ADDI, A0, A1, 0, 2047, OPC_INT_ALU),
    C32("nop", 0x00000013, ADDI, 0, 0, 0, 0, OPC_NOP),
    C32("addi zero,zero,1 (not the nop)", 0x00100013, ADDI, 0, 0, 0, 1, OPC_INT_ALU),
    C32("slli a0,a1,63", 0x03f59513, SLLI, A0, A1, 0, 63, OPC_INT_ALU),
    C32("srai a0,a1,1", 0x4015d513, SRAI, A0, A1, 0, 1, OPC_INT_ALU),
    C32("sraiw a0,a1,31", 0x41f5d51b, SRAIW, A0, A1, 0, 31, OPC_INT_ALU),
    C32("sub a0,zero,a1", 0x40b00533, SUB, A0, ZERO, A1, 0, OPC_INT_ALU),
    C32("mulhsu a0,a1,a2", 0x02c5a533, MULHSU, A0, A1, A2, 0, OPC_INT_MUL),
    C32("remuw a0,a1,a2", 0x02c5f53b, REMUW, A0, A1, A2, 0, OPC_INT_DIV),
    C32("csrrw a0,fcsr,a1", 0x00359573, CSRRW, A0, A1, 0, ISA_CSR_FCSR, OPC_SYSTEM),
    C32("csrrwi a0,frm,3 (rs1 field is the immediate)", 0x0021d573, CSRRWI, A0, 3, 0, ISA_CSR_FRM, OPC_SYSTEM),
    C32("rdcycle a0", 0xc0002573, CSRRS, A0, ZERO, 0, ISA_CSR_CYCLE, OPC_SYSTEM),
    C32("amoadd.d.aqrl a0,a1,(a2)", 0x06b6352f, AMOADD_D, A0, A2, A1, 0, OPC_ATOMIC),
    C32("lr.w.aq a0,(a1)", 0x1405a52f, LR_W, A0, A1, 0, 0, OPC_ATOMIC),
    C32("fence rw,w", 0x0310000f, FENCE, 0, 0, 0, 0x31, OPC_NOP),
    C32("fence.tso", 0x8330000f, FENCE, 0, 0, 0, 0x833, OPC_NOP),
    C32("fence.i", 0x0000100f, FENCE_I, 0, 0, 0, 0, OPC_NOP),
    C32("ecall", 0x00000073, ECALL, 0, 0, 0, 0, OPC_SYSTEM),
    C32("ebreak", 0x00100073, EBREAK, 0, 0, 0, 0, OPC_SYSTEM),
    C32("fadd.s ft0,ft1,ft2 (dyn)", 0x0020f053, FADD_S, FT0, FT1, FT2, 0, OPC_FP_ADD),
    C32("fsqrt.d fa0,fa1", 0x5a05f553, FSQRT_D, FA0, FA1, 0, 0, OPC_FP_SQRT),
    C32("fcvt.w.d a0,fa0,rtz", 0xc2051553, FCVT_W_D, A0, FA0, 0, 0, OPC_FP_MISC),
    C32("fmv.d.x ft0,zero", 0xf2000053, FMV_D_X, FT0, ZERO, 0, 0, OPC_FP_MISC),
    C32("feq.d a0,fa0,fa1", 0xa2b52553, FEQ_D, A0, FA0, FA1, 0, OPC_FP_MISC),
    /* ---- Zba, Zbb, Zbc, Zbs (docs/isa.md): clmul* in the multiplier's class ---- */
    C32("sh1add a0,a1,a2", 0x20c5a533, SH1ADD, A0, A1, A2, 0, OPC_INT_ALU),
    C32("zext.w a0,a1 (add.uw a0,a1,zero)", 0x0805853b, ADD_UW, A0, A1, ZERO, 0, OPC_INT_ALU),
    C32("slli.uw a0,a1,5", 0x0855951b, SLLI_UW, A0, A1, 0, 5, OPC_INT_ALU),
    C32("clz a0,a1", 0x60059513, CLZ, A0, A1, 0, 0, OPC_INT_ALU),
    C32("cpopw a0,a1", 0x6025951b, CPOPW, A0, A1, 0, 0, OPC_INT_ALU),
    C32("zext.h a0,a1", 0x0805c53b, ZEXT_H, A0, A1, 0, 0, OPC_INT_ALU),
    C32("rori a0,a1,63", 0x63f5d513, RORI, A0, A1, 0, 63, OPC_INT_ALU),
    C32("roriw a0,a1,31", 0x61f5d51b, RORIW, A0, A1, 0, 31, OPC_INT_ALU),
    C32("orc.b a0,a1", 0x2875d513, ORC_B, A0, A1, 0, 0, OPC_INT_ALU),
    C32("rev8 a0,a1", 0x6b85d513, REV8, A0, A1, 0, 0, OPC_INT_ALU),
    C32("clmul a0,a1,a2", 0x0ac59533, CLMUL, A0, A1, A2, 0, OPC_INT_MUL),
    C32("clmulr a0,a1,a2", 0x0ac5a533, CLMULR, A0, A1, A2, 0, OPC_INT_MUL),
    C32("bexti a0,a1,7", 0x4875d513, BEXTI, A0, A1, 0, 7, OPC_INT_ALU),
    C32("binvi a0,a1,33", 0x6a159513, BINVI, A0, A1, 0, 33, OPC_INT_ALU),
    /* ---- scalar cryptography (docs/isa.md): ALU operations; immediates decoded into imm ---- */
    C32("pack a0,a1,zero (RV32's zext.h encoding)", 0x0805c533, PACK, A0, A1, ZERO, 0, OPC_INT_ALU),
    C32("packh a0,a1,a2", 0x08c5f533, PACKH, A0, A1, A2, 0, OPC_INT_ALU),
    C32("packw a0,a1,a2", 0x08c5c53b, PACKW, A0, A1, A2, 0, OPC_INT_ALU),
    C32("brev8 a0,a1", 0x6875d513, BREV8, A0, A1, 0, 0, OPC_INT_ALU),
    C32("xperm8 a0,a1,a2", 0x28c5c533, XPERM8, A0, A1, A2, 0, OPC_INT_ALU),
    C32("aes64esm a0,a1,a2", 0x36c58533, AES64ESM, A0, A1, A2, 0, OPC_INT_ALU),
    C32("aes64ks1i a0,a1,10", 0x31a59513, AES64KS1I, A0, A1, 0, 10, OPC_INT_ALU),
    C32("aes64im a0,a1", 0x30059513, AES64IM, A0, A1, 0, 0, OPC_INT_ALU),
    C32("sha512sum1 a0,a1", 0x10559513, SHA512SUM1, A0, A1, 0, 0, OPC_INT_ALU),
    C32("sm4ed a0,a1,a2,3", 0xf0c58533, SM4ED, A0, A1, A2, 3, OPC_INT_ALU),
    C32("sm4ks a0,a1,a2,1", 0x74c58533, SM4KS, A0, A1, A2, 1, OPC_INT_ALU),
    C32("sm3p1 a0,a1", 0x10959513, SM3P1, A0, A1, 0, 0, OPC_INT_ALU),
    /* ---- Zfh: the single-precision rows' classes ---- */
    C32("flh fa0,6(a1)", 0x00659507, FLH, FA0, A1, 0, 6, OPC_LOAD),
    C32("fsh fa1,-2(a0)", 0xfeb51f27, FSH, 0, A0, FA1, -2, OPC_STORE),
    C32("fmadd.h fa0,fa1,fa2,fa3,rtz", 0x6cc59543, FMADD_H, FA0, FA1, FA2, 0, OPC_FP_FMA),
    C32("fadd.h fa0,fa1,fa2", 0x04c5f553, FADD_H, FA0, FA1, FA2, 0, OPC_FP_ADD),
    C32("fsqrt.h fa0,fa1", 0x5c05f553, FSQRT_H, FA0, FA1, 0, 0, OPC_FP_SQRT),
    C32("fcvt.h.s fa0,fa1", 0x4405f553, FCVT_H_S, FA0, FA1, 0, 0, OPC_FP_MISC),
    C32("fcvt.s.h fa0,fa1", 0x40258553, FCVT_S_H, FA0, FA1, 0, 0, OPC_FP_MISC),
    C32("fcvt.d.h fa0,fa1", 0x42258553, FCVT_D_H, FA0, FA1, 0, 0, OPC_FP_MISC),
    C32("fcvt.h.d fa0,fa1,rup", 0x4415b553, FCVT_H_D, FA0, FA1, 0, 0, OPC_FP_MISC),
    C32("fmv.x.h a0,fa1", 0xe4058553, FMV_X_H, A0, FA1, 0, 0, OPC_FP_MISC),
    C32("fmv.h.x fa0,a1", 0xf4058553, FMV_H_X, FA0, A1, 0, 0, OPC_FP_MISC),
    C32("fcvt.w.h a0,fa1,rtz", 0xc4059553, FCVT_W_H, A0, FA1, 0, 0, OPC_FP_MISC),
    C32("feq.h a0,fa1,fa2", 0xa4c5a553, FEQ_H, A0, FA1, FA2, 0, OPC_FP_MISC),
    /* ---- Zicond: ALU ---- */
    C32("czero.eqz a0,a1,a2", 0x0ec5d533, CZERO_EQZ, A0, A1, A2, 0, OPC_INT_ALU),
    C32("czero.nez a0,a1,a2", 0x0ec5f533, CZERO_NEZ, A0, A1, A2, 0, OPC_INT_ALU),
    /* ---- Zfa: fli's rs1 field is the constant's index, in imm ---- */
    C32("fli.s fa0,1.0 (index 16)", 0xf0180553, FLI_S, FA0, 0, 0, 16, OPC_FP_MISC),
    C32("fminm.d fa0,fa1,fa2", 0x2ac5a553, FMINM_D, FA0, FA1, FA2, 0, OPC_FP_MISC),
    C32("fround.h fa0,fa1,rtz", 0x44459553, FROUND_H, FA0, FA1, 0, 0, OPC_FP_MISC),
    C32("fcvtmod.w.d a0,fa1,rtz", 0xc2859553, FCVTMOD_W_D, A0, FA1, 0, 0, OPC_FP_MISC),
    C32("fltq.s a0,fa1,fa2", 0xa0c5d553, FLTQ_S, A0, FA1, FA2, 0, OPC_FP_MISC),
    /* ---- Zcb: the spec's expansions ---- */
    C16("c.lbu a0,3(a1)", 0x81e8, LBU, A0, A1, 0, 3, OPC_LOAD),
    C16("c.lhu a0,2(a1)", 0x85a8, LHU, A0, A1, 0, 2, OPC_LOAD),
    C16("c.lh a0,2(a1)", 0x85e8, LH, A0, A1, 0, 2, OPC_LOAD),
    C16("c.sb a0,1(a1)", 0x89c8, SB, 0, A1, A0, 1, OPC_STORE),
    C16("c.sh a0,2(a1)", 0x8da8, SH, 0, A1, A0, 2, OPC_STORE),
    C16("c.zext.b a0 (andi a0,a0,255)", 0x9d61, ANDI, A0, A0, 0, 255, OPC_INT_ALU),
    C16("c.sext.b a0", 0x9d65, SEXT_B, A0, A0, 0, 0, OPC_INT_ALU),
    C16("c.zext.h a0", 0x9d69, ZEXT_H, A0, A0, 0, 0, OPC_INT_ALU),
    C16("c.sext.h a0", 0x9d6d, SEXT_H, A0, A0, 0, 0, OPC_INT_ALU),
    C16("c.zext.w a0 (add.uw a0,a0,zero)", 0x9d71, ADD_UW, A0, A0, ZERO, 0, OPC_INT_ALU),
    C16("c.not a0 (xori a0,a0,-1)", 0x9d75, XORI, A0, A0, 0, -1, OPC_INT_ALU),
    C16("c.mul a0,a1", 0x9d4d, MUL, A0, A0, A1, 0, OPC_INT_MUL),
};

static void test_decode_table(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const decode_case *c = &cases[i];
        isa_insn d;
        bool ok = isa_decode(c->raw, &d);
        if (!ok || d.op != c->op || d.length != c->length || d.rd != c->rd || d.rs1 != c->rs1 || d.rs2 != c->rs2 ||
            d.imm != c->imm || d.op_class != c->cls || d.raw != (c->length == 2 ? (c->raw & 0xffff) : c->raw)) {
            print_error("%s (0x%08x): ok=%d op=%s length=%u rd=%u rs1=%u rs2=%u imm=%lld class=%s\n", c->text, c->raw,
                        ok, isa_op_name((isa_op)d.op), d.length, d.rd, d.rs1, d.rs2, (long long)d.imm,
                        isa_class_name((op_class)d.op_class));
            fail();
        }
    }
}

/* Fields that only some formats carry: rs3, rounding mode, aq/rl, fp_ops. */
static void test_decode_special_fields(void **state) {
    (void)state;
    isa_insn d;
    assert_true(isa_decode(0x6ac59543, &d)); /* fmadd.d fa0,fa1,fa2,fa3,rtz */
    assert_int_equal(d.op, ISA_OP_FMADD_D);
    assert_int_equal(d.rs3, FA3);
    assert_int_equal(d.rm, ISA_RM_RTZ);
    assert_int_equal(d.fp_ops, 2);
    assert_int_equal(d.op_class, OPC_FP_FMA);

    assert_true(isa_decode(0x0020f053, &d)); /* fadd.s, dynamic rounding */
    assert_int_equal(d.rm, ISA_RM_DYN);
    assert_int_equal(d.fp_ops, 1);

    assert_true(isa_decode(0x06b6352f, &d)); /* amoadd.d.aqrl: aq bit 1, rl bit 0 */
    assert_int_equal(d.rm, 3);
    assert_true(isa_decode(0x1405a52f, &d)); /* lr.w.aq */
    assert_int_equal(d.rm, 2);
    assert_true(isa_decode(0x1ab6252f, &d)); /* sc.w.rl a0,a1,(a2) */
    assert_int_equal(d.op, ISA_OP_SC_W);
    assert_int_equal(d.rm, 1);

    assert_true(isa_decode(0x0001, &d)); /* fields unused by the format read as 0 */
    assert_int_equal(d.rs3, 0);
    assert_true(isa_decode(0xfea13c23, &d)); /* sd: no destination */
    assert_int_equal(d.rd, 0);
}

static void test_decode_rejects(void **state) {
    (void)state;
    static const struct {
        const char *text;
        uint32_t raw;
    } rejected[] = {
        {"0x00000000 (c.unimp)", 0x00000000},
        {"0xffffffff (longer than 32 bits)", 0xffffffff},
        {"c.addi4spn with 0", 0x0010},
        {"c.addi16sp with 0", 0x6101},
        {"c.lui a0,0", 0x6501},
        {"c.addiw zero", 0x2001},
        {"c.lwsp zero", 0x4002},
        {"c.ldsp zero", 0x6002},
        {"c.jr zero", 0x8002},
        {"quadrant 0, funct3 4, Zcb's unassigned funct6 100100", 0x9000},
        {"c.sh with bit 6 set (reserved in Zcb)", 0x8c40},
        {"Zcb unary space, code 6", 0x9c79},
        {"Zcb unary space, code 7", 0x9c7d},
        {"fcvtmod.w.d with rm = rne (only rtz is encoded)", 0xc2858553},
        {"fli.s with funct3 1", 0xf0181553},
        {"fmvh.x.d (Zfa, RV32 only)", 0xe2158553},
        {"48-bit length prefix", 0x0000001f},
        {"fadd.s rm=5", 0x00c5d553},
        {"fadd.d rm=6", 0x02c5e553},
        {"fmadd.s rm=5", 0x68c5d543},
        {"fcvt.w.d rm=5", 0xc2055553},
        {"fsqrt.s rm=6", 0x5805e553},
        {"unknown opcode", 0x0000707b},
        {"OP with unknown funct7", 0xfe000033},
        {"slli with shamt bit 6 (funct6 != 0)", 0x04059513},
        {"slliw with shamt bit 5", 0x0205951b},
        {"lr.w with rs2 != 0", 0x1015a52f},
        {"wfi (privileged)", 0x10500073},
        {"ld with funct3 7", 0x0000f003},
        {"roriw with shamt bit 5", 0x6205d51b},
        {"clz's space, rs2 field 3", 0x60359513},
        {"rev8's RV32 encoding", 0x6985d513},
        {"aes64ks1i with round number 0xb (reserved)", 0x31b59513},
        {"aes64ks1i with round number 0xf (reserved)", 0x31f59513},
        {"aes64im's space, rs2 field 1", 0x30159513},
        {"sha256sig0's space, rs2 field 0xa", 0x10a59513},
        {"aes32esi (RV32's)", 0x22c58533},
        {"zip (RV32's)", 0x08f59513},
    };
    for (size_t i = 0; i < sizeof rejected / sizeof rejected[0]; i++) {
        isa_insn d;
        memset(&d, 0x5a, sizeof d);
        bool ok = isa_decode(rejected[i].raw, &d);
        if (ok || d.op != ISA_OP_ILLEGAL) {
            print_error("%s (0x%08x) decoded as %s\n", rejected[i].text, rejected[i].raw, isa_op_name((isa_op)d.op));
            fail();
        }
    }
}

static void assert_regs(uint32_t raw, uint8_t s0, uint8_t s1, uint8_t s2, uint8_t dst) {
    isa_insn d;
    isa_regs r;
    assert_true(isa_decode(raw, &d));
    memset(&r, 0x77, sizeof r);
    isa_regs_of(&d, &r);
    if (r.src[0] != s0 || r.src[1] != s1 || r.src[2] != s2 || r.dst != dst) {
        print_error("0x%08x (%s): src %u %u %u dst %u, expected %u %u %u dst %u\n", raw, isa_op_name((isa_op)d.op),
                    r.src[0], r.src[1], r.src[2], r.dst, s0, s1, s2, dst);
        fail();
    }
}

#define F(n) ((uint8_t)(ISA_REG_F0 + (n)))

static void test_regs_of(void **state) {
    (void)state;
    assert_regs(0x00c58533, A1, A2, 0, A0);                  /* add a0,a1,a2 */
    assert_regs(0x00b00533, A1, 0, 0, A0);                   /* add a0,zero,a1: x0 dropped, packed */
    assert_regs(0x00058533, A1, 0, 0, A0);                   /* add a0,a1,zero */
    assert_regs(0x00150013, A0, 0, 0, 0);                    /* addi zero,a0,1: no destination */
    assert_regs(0xfea13c23, SP, A0, 0, 0);                   /* sd a0,-8(sp) */
    assert_regs(0x7fb1bc27, GP, F(FS11), 0, 0);              /* fsd fs11,2040(gp) */
    assert_regs(0xffc52507, A0, 0, 0, F(FA0));               /* flw fa0,-4(a0) */
    assert_regs(0x6ac59543, F(FA1), F(FA2), F(FA3), F(FA0)); /* fmadd.d */
    assert_regs(0xc2051553, F(FA0), 0, 0, A0);               /* fcvt.w.d a0,fa0 */
    assert_regs(0xf2000053, 0, 0, 0, F(FT0));                /* fmv.d.x ft0,zero: f0 is a register */
    assert_regs(0x0021d573, 0, 0, 0, A0);                    /* csrrwi: the immediate is no register */
    assert_regs(0x00359573, A1, 0, 0, A0);                   /* csrrw a0,fcsr,a1 */
    assert_regs(0x00b00063, A1, 0, 0, 0);                    /* beq zero,a1 */
    assert_regs(0x06b6352f, A2, A1, 0, A0);                  /* amoadd.d: address first, then data */
    assert_regs(0x001000ef, 0, 0, 0, RA);                    /* jal ra */
    assert_regs(0x80000537, 0, 0, 0, A0);                    /* lui */
    assert_regs(0x00000073, 0, 0, 0, 0);                     /* ecall */
    assert_regs(0x917e, SP, T6, 0, SP);                      /* c.add sp,t6 */
    assert_regs(0x8f86, RA, 0, 0, T6);                       /* c.mv t6,ra */
    assert_regs(0xbfee, SP, F(FS11), 0, 0);                  /* c.fsdsp fs11,504(sp) */
}

static void test_names_and_info(void **state) {
    (void)state;
    assert_string_equal(isa_reg_name(0), "zero");
    assert_string_equal(isa_reg_name(RA), "ra");
    assert_string_equal(isa_reg_name(T6), "t6");
    assert_string_equal(isa_reg_name(ISA_REG_F0), "ft0");
    assert_string_equal(isa_reg_name(F(FA0)), "fa0");
    assert_string_equal(isa_reg_name(F(FT11)), "ft11");
    assert_string_equal(isa_op_name(ISA_OP_FCVT_W_D), "fcvt.w.d");
    assert_string_equal(isa_op_name(ISA_OP_ILLEGAL), "illegal");
    assert_string_equal(isa_class_name(OPC_RETURN), "return");
    assert_int_equal(isa_info_of(ISA_OP_LD)->mem_bytes, 8);
    assert_int_equal(isa_info_of(ISA_OP_SB)->mem_bytes, 1);
    assert_int_equal(isa_info_of(ISA_OP_AMOADD_W)->mem_bytes, 4);
    assert_int_equal(isa_length(0x0001), 2);
    assert_int_equal(isa_length(0x0013), 4);
    assert_int_equal(isa_length(0x001f), 0);
    /* every table row's own match value decodes to that row: no row shadows another */
    for (unsigned op = 1; op < ISA_OP_COUNT; op++) {
        const isa_info *info = isa_info_of((isa_op)op);
        isa_insn d;
        /* packw's match has rs2 = x0: Zbb's zext.h, the row before it; with rs2 = x1 it is packw */
        assert_true(isa_decode(info->match | (op == ISA_OP_PACKW ? 1u << 20 : 0), &d));
        if (d.op != op) {
            print_error("match of %s decodes as %s\n", info->name, isa_op_name((isa_op)d.op));
            fail();
        }
    }
}

/* isa_disasm follows the snprintf convention; its text is checked against
 * objdump by the disasm.* tests. */
static void test_disasm_buffer(void **state) {
    (void)state;
    isa_insn d;
    char buf[64];
    assert_true(isa_decode(0xff010113, &d)); /* addi sp,sp,-16 */
    assert_int_equal(isa_disasm(&d, 0x1000, buf, sizeof buf), 13);
    assert_string_equal(buf, "add\tsp,sp,-16");
    memset(buf, 'x', sizeof buf);
    assert_int_equal(isa_disasm(&d, 0x1000, buf, 5), 13);
    assert_string_equal(buf, "add\t");
    assert_int_equal(isa_disasm(&d, 0x1000, NULL, 0), 13);
    assert_true(isa_decode(0x80b50063, &d)); /* beq a0,a1,-4096 */
    isa_disasm(&d, 0x105ac, buf, sizeof buf);
    assert_string_equal(buf, "beq\ta0,a1,f5ac");
    assert_true(isa_decode(0x8082, &d));
    isa_disasm(&d, 0, buf, sizeof buf);
    assert_string_equal(buf, "ret");
    isa_decode(0x0000707b, &d);
    isa_disasm(&d, 0, buf, sizeof buf);
    assert_string_equal(buf, ".4byte\t0x707b");
}

/* The extensions an ISA string names, and the disassembly of an instruction of
 * one the ELF does not enable (objdump's .4byte). */
static void test_extensions(void **state) {
    (void)state;
    static const struct {
        const char *isa;
        unsigned want;
    } strings[] = {
        {"rv64gc", ISA_EXT_C},
        {"rv64imafd", 0},
        {"rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0_zba1p0_zbb1p0_zbc1p0_zbs1p0",
         ISA_EXT_C | ISA_EXT_BITMANIP},
        {"rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0_zba1p0_zbb1p0_zbc1p0_zbs1p0_zfh1p0_zfhmin1p0_"
         "zicond1p0_zfa1p0_zcb1p0",
         ISA_EXT_ALL & ~ISA_EXT_CRYPTO},
        {"rv64i2p1_m2p0_zbb1p0_zbkb1p0_zbs", ISA_EXT_ZBB | ISA_EXT_ZBKB | ISA_EXT_ZBS},
        {"rv64i2p1_zbkb1p0_zbkc1p0_zbkx1p0_zknd1p0_zkne1p0_zknh1p0_zksed1p0_zksh1p0", ISA_EXT_CRYPTO},
        {"rv64gc_zkn1p0",
         ISA_EXT_C | ISA_EXT_ZBKB | ISA_EXT_ZBKC | ISA_EXT_ZBKX | ISA_EXT_ZKND | ISA_EXT_ZKNE |
             ISA_EXT_ZKNH}, /* the shorthand names its parts */
        {"rv64g_zks", ISA_EXT_ZBKB | ISA_EXT_ZBKC | ISA_EXT_ZBKX | ISA_EXT_ZKSED | ISA_EXT_ZKSH},
        {"rv64gc_zbc1p0_zbb", ISA_EXT_C | ISA_EXT_ZBB | ISA_EXT_ZBC},
        {"rv32imac_zba1p0", ISA_EXT_C | ISA_EXT_ZBA},
        {"rv64g_zcb1p0_zbbx", ISA_EXT_ZCB},               /* a made-up zbbx is not zbb */
        {"rv64gc_zfhmin1p0", ISA_EXT_C | ISA_EXT_ZFHMIN}, /* Zfhmin alone: its 8, not all of Zfh */
        {"x86", ISA_EXT_C},                               /* not an ISA string: objdump's default, rv64gc */
    };
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        unsigned got = isa_extensions_of_string(strings[i].isa, strlen(strings[i].isa));
        if (got != strings[i].want) {
            print_error("%s: 0x%x, expected 0x%x\n", strings[i].isa, got, strings[i].want);
            fail();
        }
    }
    assert_int_equal(isa_extension_of(ISA_OP_ADD), 0);
    assert_int_equal(isa_extension_of(ISA_OP_SLLI_UW), ISA_EXT_ZBA);
    assert_int_equal(isa_extension_of(ISA_OP_REV8), ISA_EXT_ZBB | ISA_EXT_ZBKB); /* either provides it */
    assert_int_equal(isa_extension_of(ISA_OP_CPOP), ISA_EXT_ZBB);
    assert_int_equal(isa_extension_of(ISA_OP_CLMUL), ISA_EXT_ZBC | ISA_EXT_ZBKC);
    assert_int_equal(isa_extension_of(ISA_OP_CLMULR), ISA_EXT_ZBC);
    assert_int_equal(isa_extension_of(ISA_OP_BSETI), ISA_EXT_ZBS);
    assert_int_equal(isa_extension_of(ISA_OP_FLH), ISA_EXT_ZFH | ISA_EXT_ZFHMIN);
    assert_int_equal(isa_extension_of(ISA_OP_FMV_H_X), ISA_EXT_ZFH | ISA_EXT_ZFHMIN);
    assert_int_equal(isa_extension_of(ISA_OP_FADD_H), ISA_EXT_ZFH);
    assert_int_equal(isa_extension_of(ISA_OP_PACKW), ISA_EXT_ZBKB);
    assert_int_equal(isa_extension_of(ISA_OP_XPERM4), ISA_EXT_ZBKX);
    assert_int_equal(isa_extension_of(ISA_OP_AES64IM), ISA_EXT_ZKND);
    assert_int_equal(isa_extension_of(ISA_OP_AES64KS2), ISA_EXT_ZKND | ISA_EXT_ZKNE);
    assert_int_equal(isa_extension_of(ISA_OP_AES64ESM), ISA_EXT_ZKNE);
    assert_int_equal(isa_extension_of(ISA_OP_SHA256SIG0), ISA_EXT_ZKNH);
    assert_int_equal(isa_extension_of(ISA_OP_SM4KS), ISA_EXT_ZKSED);
    assert_int_equal(isa_extension_of(ISA_OP_SM3P0), ISA_EXT_ZKSH);
    assert_int_equal(isa_extension_of(ISA_OP_CZERO_NEZ), ISA_EXT_ZICOND);
    assert_int_equal(isa_extension_of(ISA_OP_FLI_S), ISA_EXT_ZFA);
    assert_int_equal(isa_extension_of(ISA_OP_FLTQ_H), ISA_EXT_ZFA);
    assert_int_equal(isa_extension_of(ISA_OP_ANDI), 0); /* c.zext.b's op: Zcb is told by the encoding */
    assert_true(isa_is_zcb(0x9d61));
    assert_true(isa_is_zcb(0x81e8));
    assert_true(isa_is_zcb(0x9d4d));
    assert_false(isa_is_zcb(0x9d0d)); /* c.subw */
    assert_false(isa_is_zcb(0x5fe0)); /* c.lw */

    isa_insn d;
    char buf[64];
    assert_true(isa_decode(0x63f5d513, &d)); /* rori a0,a1,63 */
    isa_disasm(&d, 0, buf, sizeof buf);
    assert_string_equal(buf, "ror\ta0,a1,0x3f");
    isa_disasm_spec(&d, 0, ISA_PRIV_1_12, ISA_EXT_C | ISA_EXT_ZBB, buf, sizeof buf);
    assert_string_equal(buf, "ror\ta0,a1,0x3f");
    isa_disasm_spec(&d, 0, ISA_PRIV_1_12, ISA_EXT_C | ISA_EXT_ZBKB, buf, sizeof buf); /* Zbkb's too */
    assert_string_equal(buf, "ror\ta0,a1,0x3f");
    isa_disasm_spec(&d, 0, ISA_PRIV_1_12, ISA_EXT_ALL & ~(ISA_EXT_ZBB | ISA_EXT_ZBKB), buf, sizeof buf);
    assert_string_equal(buf, ".4byte\t0x63f5d513");
    /* zext.h is Zbb's name of packw rd,rs1,zero; with Zbkb alone it is packw */
    assert_true(isa_decode(0x0805c53b, &d));
    isa_disasm_spec(&d, 0, ISA_PRIV_1_12, ISA_EXT_C | ISA_EXT_ZBKB, buf, sizeof buf);
    assert_string_equal(buf, "packw\ta0,a1,zero");
    isa_disasm_spec(&d, 0, ISA_PRIV_1_12, ISA_EXT_C | ISA_EXT_ZBB | ISA_EXT_ZBKB, buf, sizeof buf);
    assert_string_equal(buf, "zext.h\ta0,a1");
    /* the immediates of aes64ks1i and sm4ed; a reserved round number named as objdump does */
    assert_true(isa_decode(0x31a59513, &d));
    isa_disasm(&d, 0, buf, sizeof buf);
    assert_string_equal(buf, "aes64ks1i\ta0,a1,0xa");
    assert_false(isa_decode(0x31b59513, &d));
    isa_disasm_spec(&d, 0, ISA_PRIV_1_12, ISA_EXT_C | ISA_EXT_ZKNE, buf, sizeof buf);
    assert_string_equal(buf, "aes64ks1i\ta0,a1,0xb");
    isa_disasm_spec(&d, 0, ISA_PRIV_1_12, ISA_EXT_C | ISA_EXT_ZKNH, buf, sizeof buf);
    assert_string_equal(buf, ".4byte\t0x31b59513");
    assert_true(isa_decode(0xf0c58533, &d));
    isa_disasm(&d, 0, buf, sizeof buf);
    assert_string_equal(buf, "sm4ed\ta0,a1,a2,0x3");
    /* Zfhmin alone: flh named, fadd.h not */
    assert_true(isa_decode(0x00011507, &d));
    isa_disasm_spec(&d, 0, ISA_PRIV_1_12, ISA_EXT_C | ISA_EXT_ZFHMIN, buf, sizeof buf);
    assert_string_equal(buf, "flh\tfa0,0(sp)");
    assert_true(isa_decode(0x04c5f553, &d));
    isa_disasm_spec(&d, 0, ISA_PRIV_1_12, ISA_EXT_C | ISA_EXT_ZFHMIN, buf, sizeof buf);
    assert_string_equal(buf, ".4byte\t0x4c5f553");
    assert_true(isa_decode(0x0805853b, &d)); /* add.uw a0,a1,zero */
    isa_disasm(&d, 0, buf, sizeof buf);
    assert_string_equal(buf, "zext.w\ta0,a1");
    isa_disasm_spec(&d, 0, ISA_PRIV_1_12, ISA_EXT_ZBB, buf, sizeof buf);
    assert_string_equal(buf, ".4byte\t0x805853b");
    /* Zcb forms print as their expansions where Zcb is enabled, as .2byte elsewhere */
    assert_true(isa_decode(0x9d61, &d)); /* c.zext.b a0 */
    isa_disasm(&d, 0, buf, sizeof buf);
    assert_string_equal(buf, "zext.b\ta0,a0");
    isa_disasm_spec(&d, 0, ISA_PRIV_1_12, ISA_EXT_C, buf, sizeof buf);
    assert_string_equal(buf, ".2byte\t0x9d61");
    assert_true(isa_decode(0x9d4d, &d)); /* c.mul a0,a1 */
    isa_disasm_spec(&d, 0, ISA_PRIV_1_12, ISA_EXT_C | ISA_EXT_ZCB, buf, sizeof buf);
    assert_string_equal(buf, "mul\ta0,a0,a1");
    /* Zicond and Zfa: binutils 2.41's syntax */
    assert_true(isa_decode(0x0ec5d533, &d));
    isa_disasm(&d, 0, buf, sizeof buf);
    assert_string_equal(buf, "czero.eqz\ta0,a1,a2");
    isa_disasm_spec(&d, 0, ISA_PRIV_1_12, ISA_EXT_C | ISA_EXT_ZFH, buf, sizeof buf);
    assert_string_equal(buf, ".4byte\t0xec5d533");
    assert_true(isa_decode(0xf0180553, &d));
    isa_disasm(&d, 0, buf, sizeof buf);
    assert_string_equal(buf, "fli.s\tfa0,0x1p+0");
    assert_true(isa_decode(0xf2108553, &d)); /* fli.d fa0,min */
    isa_disasm(&d, 0, buf, sizeof buf);
    assert_string_equal(buf, "fli.d\tfa0,min");
    assert_true(isa_decode(0xc2859553, &d));
    isa_disasm(&d, 0, buf, sizeof buf);
    assert_string_equal(buf, "fcvtmod.w.d\ta0,fa1,rtz");
    assert_true(isa_decode(0x44459553, &d));
    isa_disasm(&d, 0, buf, sizeof buf);
    assert_string_equal(buf, "fround.h\tfa0,fa1,rtz");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_table),   cmocka_unit_test(test_decode_special_fields),
        cmocka_unit_test(test_decode_rejects), cmocka_unit_test(test_regs_of),
        cmocka_unit_test(test_names_and_info), cmocka_unit_test(test_disasm_buffer),
        cmocka_unit_test(test_extensions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
