/* Every instruction of src/isa/isa_table.h in several operand forms, and every
 * RV64C form, for comparing isa_disasm with objdump (test disasm.all_insns):
 *
 *   riscv64-linux-gnu-gcc -c -march=rv64gc all_insns.S
 *   riscv64-linux-gnu-objdump -d all_insns.o | disasm_check
 *
 * Only assembled, never run. `.option norvc` regions hold the 32-bit forms
 * (the assembler would otherwise compress them), `.option rvc` regions the
 * compressed ones. Hints, reserved and edge encodings the assembler will not
 * write from a mnemonic are given as `.insn LENGTH, VALUE`. `norelax` makes
 * the assembler resolve local branch offsets instead of leaving relocations,
 * so real offsets reach the listing. */

    .option norelax
    /* objdump's CSR names depend on the privileged spec named in the ELF
     * attributes; say 1.11 as compiled programs do (isa_disasm follows it) */
    .attribute priv_spec, 1
    .attribute priv_spec_minor, 11
    .text
    .globl all_insns
all_insns:

/* ==== RV64I, 32-bit forms ================================================== */
    .option norvc

upper_immediates:
    lui     a0, 0
    lui     a1, 1
    lui     t6, 0x7ffff
    lui     s11, 0x80000
    lui     ra, 0xfffff
    lui     zero, 0x12345
    auipc   a0, 0
    auipc   sp, 0x1
    auipc   t0, 0xfffff
    auipc   gp, 0x80000

jumps_back:
    jal     zero, jumps_back    /* j */
    jal     ra, jumps_back      /* jal, ra implied */
    jal     t0, jumps_forward   /* alternate link register */
    jal     a5, jumps_back
    j       jumps_forward
    jal     jumps_forward
    .insn 4, 0x8000006f         /* j -1 MiB, the most negative offset */
    .insn 4, 0x7ffff0ef         /* jal +1 MiB - 2, the most positive */
jumps_forward:
    jalr    zero, 0(ra)         /* ret */
    jalr    zero, 0(a5)         /* jr */
    jalr    zero, 8(a5)
    jalr    zero, -2048(t0)
    jalr    ra, 0(a5)           /* jalr rs */
    jalr    ra, 2047(a5)
    jalr    t0, 0(a5)
    jalr    t0, -8(a5)
    jalr    a0, 0(zero)
    jalr    zero, 0(t0)         /* jr through the alternate link register */
    jalr    ra, 0(ra)
    jalr    t0, 0(t0)
    ret
    jr      a3
    jalr    a4

branches:
    beq     a0, a1, branches
    beq     a0, zero, branches  /* beqz */
    beq     zero, a0, branches
    beq     zero, zero, branches
    bne     a0, a1, branches_forward
    bne     s1, zero, branches_forward  /* bnez */
    bne     zero, s1, branches_forward
    blt     a0, a1, branches
    blt     a0, zero, branches  /* bltz */
    blt     zero, a0, branches  /* bgtz */
    blt     zero, zero, branches
    bge     a0, a1, branches
    bge     a0, zero, branches  /* bgez */
    bge     zero, a0, branches  /* blez */
    bge     zero, zero, branches
    bltu    a0, a1, branches
    bltu    zero, a1, branches
    bltu    a1, zero, branches
    bgeu    t6, s11, branches_forward
    bgeu    zero, a1, branches_forward
    bgeu    a1, zero, branches_forward
    bgt     a0, a1, branches    /* assembler aliases: swapped blt/bge/bltu/bgeu */
    ble     a0, a1, branches
    bgtu    a0, a1, branches
    bleu    a0, a1, branches
    .insn 4, 0x80000063         /* beq zero,zero,-4096 */
    .insn 4, 0x7e051fe3         /* bne a0,zero,+4094 */
branches_forward:

loads_stores:
    lb      a0, 0(a1)
    lb      t6, -2048(sp)
    lh      s0, 2047(s1)
    lw      a5, -1(zero)
    ld      ra, 8(sp)
    ld      zero, 16(gp)
    lbu     t0, 1(tp)
    lhu     t1, -2(t2)
    lwu     a2, 4(a3)
    sb      a0, 0(a1)
    sb      zero, -2048(sp)
    sh      s0, 2047(s1)
    sw      a5, -1(zero)
    sd      ra, 8(sp)
    sd      t6, -8(s11)

immediate_alu:
    addi    sp, sp, -16
    addi    a0, a1, 2047
    addi    a0, a1, -2048
    addi    a0, zero, 5         /* li */
    addi    a0, zero, -2048
    addi    a0, a1, 0           /* mv */
    addi    zero, zero, 0       /* nop */
    addi    zero, zero, 3       /* li zero */
    addi    zero, a0, 0
    addi    zero, a0, 1
    slti    a0, a1, -1
    slti    a0, zero, 2047
    slti    a0, a1, 0
    sltiu   a0, a1, 1           /* seqz */
    sltiu   a0, a1, -1
    sltiu   a0, a1, 2
    xori    a0, a1, -1          /* not */
    xori    a0, a1, 2047
    xori    a0, a1, 0
    ori     a0, a1, -2048
    ori     a0, a1, 0
    ori     a0, zero, 1
    andi    a0, a1, 255         /* zext.b */
    andi    a0, a1, 254
    andi    a0, a1, -1
    andi    a0, a1, 0
    slli    a0, a1, 0
    slli    a0, a1, 1
    slli    a0, a1, 31
    slli    a0, a1, 32
    slli    a0, a1, 63
    srli    t0, t1, 0
    srli    t0, t1, 63
    srai    s0, s1, 1
    srai    s0, s1, 63
    addiw   a0, a1, 0           /* sext.w */
    addiw   a0, a1, 1
    addiw   a0, a1, -2048
    addiw   a0, zero, 7
    slliw   a0, a1, 0
    slliw   a0, a1, 31
    srliw   a0, a1, 17
    sraiw   a0, a1, 31

register_alu:
    add     a0, a1, a2
    add     a0, zero, a1
    add     a0, a1, zero
    sub     a0, a1, a2
    sub     a0, zero, a1        /* neg */
    sll     a0, a1, a2
    slt     a0, a1, a2
    slt     a0, a1, zero        /* sltz */
    slt     a0, zero, a1        /* sgtz */
    slt     a0, zero, zero
    sltu    a0, a1, a2
    sltu    a0, zero, a1        /* snez */
    sltu    a0, a1, zero
    xor     a0, a1, a2
    srl     a0, a1, a2
    sra     a0, a1, a2
    or      a0, a1, a2
    and     a0, a1, a2
    addw    a0, a1, a2
    subw    a0, a1, a2
    subw    a0, zero, a1        /* negw */
    sllw    a0, a1, a2
    srlw    a0, a1, a2
    sraw    a0, a1, a2
    /* every integer register as each operand */
    .irp r, zero,ra,sp,gp,tp,t0,t1,t2,s0,s1,a0,a1,a2,a3,a4,a5,a6,a7,s2,s3,s4,s5,s6,s7,s8,s9,s10,s11,t3,t4,t5,t6
    add     \r, a1, a2
    add     a1, \r, a2
    add     a1, a2, \r
    .endr

fences_and_system:
    fence
    fence   iorw, iorw
    fence   rw, rw
    fence   r, r
    fence   w, w
    fence   r, rw
    fence   rw, w
    fence   i, o
    fence   io, iorw
    fence   iorw, ow
    fence.tso
    .insn 4, 0x0100000f         /* fence w,0: the pause hint */
    .insn 4, 0x0000000f         /* fence 0,0 */
    fence.i
    ecall
    ebreak
    unimp                       /* csrrw zero,cycle,zero */

/* ==== Zicsr ================================================================ */
csrs:
    frflags a0
    fsflags a1
    fsflags a0, a1
    fsflagsi 3
    fsflagsi a0, 31
    frrm    a0
    fsrm    a1
    fsrm    a0, a1
    fsrmi   1
    fsrmi   a0, 4
    frcsr   a0
    fscsr   a1
    fscsr   a0, a1
    rdcycle a0
    rdtime  a1
    rdinstret a2
    .irp csr, fflags,frm,fcsr,cycle,time,instret,cycleh,0x7ff,mstatus,sstatus,vlenb,hpmcounter3,mhpmevent31,pmpaddr15,0x3ef,ustatus,0xfff
    csrrw   a0, \csr, a1
    csrrw   zero, \csr, a1
    csrrs   a0, \csr, a1
    csrrs   a0, \csr, zero
    csrrs   zero, \csr, a1
    csrrc   a0, \csr, a1
    csrrc   zero, \csr, a1
    csrrc   a0, \csr, zero
    csrrwi  a0, \csr, 0
    csrrwi  zero, \csr, 31
    csrrsi  a0, \csr, 1
    csrrsi  zero, \csr, 17
    csrrci  a0, \csr, 2
    csrrci  zero, \csr, 0
    .endr
    csrr    a0, fcsr
    csrw    frm, a0
    csrs    fflags, a1
    csrc    fflags, a1
    csrwi   frm, 2
    csrsi   fflags, 1
    csrci   fflags, 31

/* ==== M ===================================================================== */
multiply_divide:
    .irp op, mul,mulh,mulhsu,mulhu,div,divu,rem,remu,mulw,divw,divuw,remw,remuw
    \op     a0, a1, a2
    \op     t6, zero, s11
    \op     zero, t0, sp
    .endr

/* ==== A: every ordering of every atomic ===================================== */
atomics:
    .macro amo_both op, ord
    \op\().w\ord a0, a1, (a2)
    \op\().d\ord s11, t6, (sp)
    .endm
    .macro atomics_ordered ord
    lr.w\ord    a0, (a1)
    lr.d\ord    t6, (sp)
    sc.w\ord    a0, a1, (a2)
    sc.d\ord    zero, zero, (zero)
    amo_both amoswap, \ord
    amo_both amoadd, \ord
    amo_both amoxor, \ord
    amo_both amoand, \ord
    amo_both amoor, \ord
    amo_both amomin, \ord
    amo_both amomax, \ord
    amo_both amominu, \ord
    amo_both amomaxu, \ord
    .endm
    atomics_ordered
    atomics_ordered .aq
    atomics_ordered .rl
    atomics_ordered .aqrl

/* ==== F and D =============================================================== */
fp_loads_stores:
    flw     fa0, 0(a0)
    flw     ft11, -2048(sp)
    fld     fs0, 2047(s1)
    fld     ft0, 8(zero)
    fsw     fa0, 0(a0)
    fsw     ft11, -4(sp)
    fsd     fs11, 2040(gp)
    fsd     ft0, -2048(t6)

fp_arithmetic:
    /* every rounding mode, the default (dyn) both implicit and explicit */
    .macro fp_rounding p, rm
    fadd.\p     fa0, fa1, fa2, \rm
    fsub.\p     ft0, ft11, fs0, \rm
    fmul.\p     fs11, fa7, ft8, \rm
    fdiv.\p     fa0, fa0, fa0, \rm
    fsqrt.\p    fa5, fa6, \rm
    fmadd.\p    fa0, fa1, fa2, fa3, \rm
    fmsub.\p    ft0, ft1, ft2, ft3, \rm
    fnmsub.\p   fs0, fs1, fs2, fs3, \rm
    fnmadd.\p   ft8, ft9, ft10, ft11, \rm
    fcvt.w.\p   a0, fa0, \rm
    fcvt.wu.\p  zero, ft0, \rm
    fcvt.l.\p   t6, fs11, \rm
    fcvt.lu.\p  s0, fa7, \rm
    fcvt.\p\().l  fs11, t6, \rm
    fcvt.\p\().lu fa7, s0, \rm
    .endm
    .irp rm, rne,rtz,rdn,rup,rmm,dyn
    fp_rounding s, \rm
    fp_rounding d, \rm
    fcvt.s.d    fa0, fa1, \rm
    fcvt.s.w    fa0, a0, \rm       /* int to double is exact: fcvt.d.w(u) take no mode */
    fcvt.s.wu   ft0, zero, \rm
    .endr
    .irp p, s,d
    fadd.\p     fa0, fa1, fa2
    fsqrt.\p    fa0, fa1
    fmadd.\p    fa0, fa1, fa2, fa3
    fcvt.w.\p   a0, fa0
    fcvt.\p\().lu fa0, a0
    fsgnj.\p    fa0, fa1, fa2
    fsgnj.\p    fa0, fa1, fa1       /* fmv */
    fsgnjn.\p   fa0, fa1, fa2
    fsgnjn.\p   fa0, fa1, fa1       /* fneg */
    fsgnjx.\p   fa0, fa1, fa2
    fsgnjx.\p   fa0, fa1, fa1       /* fabs */
    fmv.\p      ft0, ft11
    fneg.\p     fs0, fs1
    fabs.\p     fa7, ft8
    fmin.\p     fa0, fa1, fa2
    fmax.\p     ft0, ft1, ft2
    feq.\p      a0, fa0, fa1
    flt.\p      zero, ft0, ft11
    fle.\p      t6, fs0, fs11
    fclass.\p   a0, fa0
    .endr
    fcvt.s.d    fa0, fa1
    fcvt.d.s    fa0, fa1            /* exact: no rounding mode */
    fcvt.d.w    fa0, a0
    fcvt.d.wu   ft11, t6
    fmv.x.w     a0, fa0
    fmv.w.x     fa0, a0
    fmv.x.d     t6, ft11
    fmv.d.x     ft0, zero
    /* every FP register as each operand */
    .irp r, ft0,ft1,ft2,ft3,ft4,ft5,ft6,ft7,fs0,fs1,fa0,fa1,fa2,fa3,fa4,fa5,fa6,fa7,fs2,fs3,fs4,fs5,fs6,fs7,fs8,fs9,fs10,fs11,ft8,ft9,ft10,ft11
    fmadd.d     \r, fa1, fa2, fa3
    fmadd.d     fa1, \r, fa2, fa3
    fmadd.d     fa1, fa2, \r, fa3
    fmadd.d     fa1, fa2, fa3, \r
    .endr

/* ==== encodings isa_decode rejects, as objdump shows them ================== */
reserved_32:
    .insn 4, 0x00c5d553         /* fadd.s rm=5: objdump "fadd.s fa0,fa1,fa2,unknown" */
    .insn 4, 0x02c5e553         /* fadd.d rm=6 */
    .insn 4, 0x68c5d543         /* fmadd.s rm=5 */
    .insn 4, 0xc2055553         /* fcvt.w.d rm=5 */
    .insn 4, 0x0000707b         /* no such opcode: .4byte */
    .insn 4, 0xfe000033         /* OP with an unknown funct7 */
    /* privileged: illegal for user code, named by objdump */
    .insn 4, 0x10500073         /* wfi */
    .insn 4, 0x30200073         /* mret */
    .insn 4, 0x10200073         /* sret */
    .insn 4, 0x12000073         /* sfence.vma */
    .insn 4, 0x12058073         /* sfence.vma a1 */
    .insn 4, 0x12b58073         /* sfence.vma a1,a1 */
    .insn 4, 0xffffffe3         /* branch opcode with funct3=7 minus one: bgeu, offset -2 */
    /* encodings isa_decode accepts but objdump 2.40 prints as .4byte */
    .insn 4, 0x42058553 | (1 << 12)   /* fcvt.d.s with rm=rtz */
    .insn 4, 0xd2050553 | (7 << 12)   /* fcvt.d.w with rm=dyn */
    .insn 4, 0x8ff0000f         /* fence with fm=8 and iorw,iorw */
    .insn 4, 0x0ff0008f         /* fence with rd=x1 */
    .insn 4, 0x0010100f         /* fence.i with imm=1 */

/* ==== RV64C ================================================================= */
    .option rvc

compressed_quadrant0:
    c.addi4spn  s0, sp, 4
    c.addi4spn  a5, sp, 1020
    c.addi4spn  a0, sp, 16
    c.fld       fs0, 0(s1)
    c.fld       fa5, 248(a5)
    c.lw        a0, 0(a1)
    c.lw        s0, 124(a5)
    c.lw        a2, 4(s0)
    c.ld        a0, 0(a1)
    c.ld        s1, 248(a4)
    c.fsd       fa0, 8(a1)
    c.fsd       fs1, 248(s0)
    c.sw        a0, 64(a1)
    c.sw        a5, 124(s0)
    c.sd        a0, 0(a1)
    c.sd        s0, 248(a5)

compressed_quadrant1:
    c.nop
    c.addi      a0, 1
    c.addi      sp, -32
    c.addi      t6, 31
    c.addiw     a0, 1
    c.addiw     a0, 0           /* sext.w */
    c.addiw     s11, -32
    c.li        a0, 0
    c.li        a5, 31
    c.li        t6, -32
    c.addi16sp  sp, -512
    c.addi16sp  sp, 496
    c.addi16sp  sp, 16
    c.lui       a0, 1
    c.lui       a5, 31
    c.lui       t6, 0xfffe0     /* negative: -32 << 12 */
    c.lui       ra, 0xfffff
    c.srli      a0, 1
    c.srli      s0, 63
    c.srai      a5, 32
    c.srai      s1, 1
    c.andi      a0, -1
    c.andi      a0, 31
    c.andi      s0, -32
    c.andi      a1, 0
    c.sub       a0, a1
    c.xor       s0, s1
    c.or        a4, a5
    c.and       a2, a3
    c.subw      a0, a1
    c.addw      s1, a5
    c.sub       s0, s0
compressed_jumps:
    c.j         compressed_jumps
    c.j         compressed_quadrant2
    c.beqz      a0, compressed_jumps
    c.bnez      s1, compressed_quadrant2
    c.beqz      a5, compressed_quadrant2
    .insn 2, 0xb001             /* c.j -2048 */
    .insn 2, 0xaffd             /* c.j +2046 */
    .insn 2, 0xd001             /* c.beqz s0,-256 */
    .insn 2, 0xeffd             /* c.bnez a5,+254 */

compressed_quadrant2:
    c.slli      a0, 1
    c.slli      t6, 63
    c.slli      ra, 32
    c.fldsp     fa0, 0(sp)
    c.fldsp     ft11, 504(sp)
    c.lwsp      a0, 0(sp)
    c.lwsp      t6, 252(sp)
    c.ldsp      ra, 8(sp)
    c.ldsp      s11, 504(sp)
    c.jr        ra              /* ret */
    c.jr        a5
    c.jr        t0
    c.mv        a0, a1
    c.mv        t6, ra
    c.ebreak
    c.jalr      a5
    c.jalr      ra
    c.jalr      t0
    c.add       a0, a1
    c.add       sp, t6
    c.fsdsp     fa0, 0(sp)
    c.fsdsp     fs11, 504(sp)
    c.swsp      a0, 0(sp)
    c.swsp      t6, 252(sp)
    c.sdsp      ra, 8(sp)
    c.sdsp      zero, 504(sp)
    /* the compressible registers x8-x15 in every position */
    .irp r, s0,s1,a0,a1,a2,a3,a4,a5
    c.and       \r, a0
    c.and       a0, \r
    c.lw        \r, 4(a1)
    c.lw        a1, 4(\r)
    .endr

compressed_hints_and_edges:
    .insn 2, 0x0015             /* c.nop 5 (hint) */
    .insn 2, 0x1001             /* c.nop -32 */
    .insn 2, 0x0501             /* c.addi a0,0 (hint): objdump "add a0,a0,0" */
    .insn 2, 0x400d             /* c.li zero,3 (hint) */
    .insn 2, 0x5001             /* c.li zero,-32 */
    .insn 2, 0x6005             /* c.lui zero,0x1 (hint) */
    .insn 2, 0x7005             /* c.lui zero,0xfffe1 */
    .insn 2, 0x000e             /* c.slli zero,3 (hint) */
    .insn 2, 0x0502             /* c.slli64 a0 (hint) */
    .insn 2, 0x0002             /* c.slli64 zero */
    .insn 2, 0x8101             /* c.srli64 a0 (hint) */
    .insn 2, 0x8501             /* c.srai64 a0 (hint) */
    .insn 2, 0x802a             /* c.mv zero,a0 (hint) */
    .insn 2, 0x902a             /* c.add zero,a0 (hint) */
    .insn 2, 0x8801             /* c.andi s0,0 */
    c.unimp                     /* 0x0000, defined illegal */
    .insn 2, 0x6101             /* c.addi16sp 0, reserved: objdump "add sp,sp,0" */
    .insn 2, 0x0010             /* c.addi4spn with 0, reserved */
    .insn 2, 0x6501             /* c.lui a0,0, reserved */
    .insn 2, 0x2001             /* c.addiw zero, reserved */
    .insn 2, 0x4002             /* c.lwsp zero, reserved */
    .insn 2, 0x6002             /* c.ldsp zero, reserved */
    .insn 2, 0x8002             /* c.jr zero, reserved */
    .insn 2, 0x9000             /* quadrant 0 funct3 4, reserved (0x8000-0x8fff are Zcb's loads/stores) */
    .insn 2, 0x9c79             /* c.subw-space op 3, code 6: reserved (codes 0-5 are Zcb's unary ops, */
    .insn 2, 0x9c7d             /* op 2 its c.mul; binutils 2.40 knows no Zcb, so they are not here) */

    .option norvc
    /* Zba, Zbb, Zbc, Zbs: objdump names them only where the ISA enables them,
     * here by the $x<isa> mapping symbol .option arch leaves */
    .option push
    .option arch, +zba, +zbb, +zbc, +zbs
    sh1add a0,a1,a2
    sh2add t0,t1,t2
    sh3add s0,s1,a5
    add.uw a0,a1,a2
    add.uw a0,a1,zero           /* zext.w */
    sh1add.uw a3,a4,a5
    sh2add.uw a0,a1,a2
    sh3add.uw t3,t4,t5
    slli.uw a0,a1,0
    slli.uw a0,a1,63
    andn a0,a1,a2
    orn a0,a1,a2
    xnor a0,a1,a2
    clz a0,a1
    clzw a0,a1
    ctz a0,a1
    ctzw a0,a1
    cpop a0,a1
    cpopw a0,a1
    max a0,a1,a2
    maxu a0,a1,a2
    min a0,a1,a2
    minu a0,a1,a2
    sext.b a0,a1
    sext.h a0,a1
    zext.h a0,a1
    rol a0,a1,a2
    rolw a0,a1,a2
    ror a0,a1,a2
    rorw a0,a1,a2
    rori a0,a1,0
    rori a0,a1,63
    roriw a0,a1,31
    orc.b a0,a1
    rev8 a0,a1
    clmul a0,a1,a2
    clmulh a0,a1,a2
    clmulr a0,a1,a2
    bclr a0,a1,a2
    bclri a0,a1,63
    bext a0,a1,a2
    bexti a0,a1,32
    binv a0,a1,a2
    binvi a0,a1,1
    bset a0,a1,a2
    bseti a0,a1,0
    .option pop

    /* Zfh (and its Zfhmin subset): named where the ISA enables it, as Zb* */
    .option push
    .option arch, +zfh
    flh fa0,6(a1)
    flh ft11,-2048(sp)
    fsh fa1,-2(a0)
    fsh fs11,2047(t6)
    fmadd.h fa0,fa1,fa2,fa3
    fmadd.h fa0,fa1,fa2,fa3,rtz
    fmsub.h ft0,ft1,ft2,ft3,rne
    fnmsub.h fa0,fa1,fa2,fa3,rmm
    fnmadd.h fa0,fa1,fa2,fa3,rup
    fadd.h fa0,fa1,fa2
    fadd.h fa0,fa1,fa2,rdn
    fsub.h fa0,fa1,fa2,rtz
    fmul.h fa0,fa1,fa2
    fdiv.h fa0,fa1,fa2,rne
    fsqrt.h fa0,fa1
    fsqrt.h fa0,fa1,rmm
    fsgnj.h fa0,fa1,fa2
    fsgnj.h fa0,fa1,fa1         /* fmv.h */
    fsgnjn.h fa0,fa1,fa2
    fsgnjn.h fa0,fa1,fa1        /* fneg.h */
    fsgnjx.h fa0,fa1,fa2
    fsgnjx.h fa0,fa1,fa1        /* fabs.h */
    fmin.h fa0,fa1,fa2
    fmax.h fa0,fa1,fa2
    fcvt.s.h fa0,fa1
    fcvt.h.s fa0,fa1
    fcvt.h.s fa0,fa1,rtz
    fcvt.d.h fa0,fa1
    fcvt.h.d fa0,fa1
    fcvt.h.d fa0,fa1,rup
    feq.h a0,fa1,fa2
    flt.h a0,fa1,fa2
    fle.h a0,fa1,fa2
    fclass.h a0,fa1
    fcvt.w.h a0,fa1
    fcvt.w.h a0,fa1,rtz
    fcvt.wu.h a0,fa1,rdn
    fcvt.l.h a0,fa1
    fcvt.lu.h a0,fa1,rmm
    fmv.x.h a0,fa1
    fcvt.h.w fa0,a1
    fcvt.h.wu fa0,a1,rtz
    fcvt.h.l fa0,a1,rne
    fcvt.h.lu fa0,a1
    fmv.h.x fa0,a1
    .insn r OP_FP, 1, 0x20, fa0, fa1, x2  /* fcvt.s.h with rm = rtz: objdump 2.40 has no name for it */
    .insn r OP_FP, 5, 0x02, fa0, fa1, fa2 /* fadd.h rm = 5, reserved: illegal, named with "unknown" */
    .option pop
    /* the scalar cryptography extensions (RV64 forms), named where .option arch enables them */
    .option push
    .option arch, +zbb, +zbkb, +zbkc, +zbkx, +zknd, +zkne, +zknh, +zksed, +zksh
    pack a0,a1,a2
    packh a0,a1,a2
    packw a0,a1,a2
    packw a0,a1,zero            /* zext.h where Zbb is enabled */
    brev8 a0,a1
    xperm4 a0,a1,a2
    xperm8 a0,a1,a2
    aes64ds a0,a1,a2
    aes64dsm a0,a1,a2
    aes64im a0,a1
    aes64ks1i a0,a1,0
    aes64ks1i a0,a1,10
    aes64ks2 a0,a1,a2
    aes64es a0,a1,a2
    aes64esm a0,a1,a2
    sha256sig0 a0,a1
    sha256sig1 a0,a1
    sha256sum0 a0,a1
    sha256sum1 a0,a1
    sha512sig0 a0,a1
    sha512sig1 a0,a1
    sha512sum0 a0,a1
    sha512sum1 a0,a1
    sm4ed a0,a1,a2,0
    sm4ed a0,a1,a2,2
    sm4ks a0,a1,a2,1
    sm4ks a0,a1,a2,3
    sm3p0 a0,a1
    sm3p1 a0,a1
    .insn i 0x13, 1, a0, a1, 0x31c   /* aes64ks1i with a reserved round number: illegal, named */
    .option pop
    ret
    .size all_insns, . - all_insns
