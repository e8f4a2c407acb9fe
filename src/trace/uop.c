#include "trace.h"

#include <string.h>

void uop_from_insn(uop *u, const isa_insn *insn) {
    memset(u, 0, sizeof *u);
    isa_regs regs;
    isa_regs_of(insn, &regs);
    memcpy(u->src, regs.src, sizeof u->src);
    u->dst = regs.dst;
    u->encoding = insn->raw;
    u->op_class = insn->op_class;
    u->fp_ops = insn->fp_ops;
    u->mem_size = isa_info_of((isa_op)insn->op)->mem_bytes;
    switch (insn->op_class) {
    case OPC_LOAD: u->flags = UOP_MEM_READ; break;
    case OPC_STORE: u->flags = UOP_MEM_WRITE; break;
    case OPC_ATOMIC:
        /* lr reads; sc writes (when it succeeds); AMOs do both */
        if (insn->op == ISA_OP_LR_W || insn->op == ISA_OP_LR_D) u->flags = UOP_MEM_READ;
        else if (insn->op == ISA_OP_SC_W || insn->op == ISA_OP_SC_D) u->flags = UOP_MEM_WRITE;
        else u->flags = UOP_MEM_READ | UOP_MEM_WRITE;
        break;
    default: break;
    }
}
