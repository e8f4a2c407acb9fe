/*
 * interp -- integer workload: a bytecode interpreter with switch dispatch.
 *
 * usage: interp [N]   N = outer-loop trip count of the bytecode program
 *                         (default 12000, 1..10000000)
 *
 * A small stack machine (64-bit values, 8 variables, ~20 opcodes) executes
 * a bytecode program with two nested loops (16 inner iterations per outer
 * one) containing arithmetic, a data-dependent if/else and loop branches:
 *
 *     s = 1; t = 0
 *     for i in 0..N-1:
 *         for j in 0..15:
 *             s = s * 31 + (i ^ j)
 *             if (s >> 7) & 1: t = t + j  else: t = t - 1
 *
 * About 24 bytecodes run per inner iteration; the dispatch loop is a
 * `switch` compiled to a jump table (one indirect jump per bytecode), which
 * is the classic hard case for indirect branch predictors.  The same
 * computation is done natively afterwards to check the interpreter.
 * Work is linear in N.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

#define DEFAULT_N 12000L
#define MIN_N     1L
#define MAX_N     10000000L

enum op {
    OP_HALT,
    OP_PUSH,
    OP_LOAD,
    OP_STORE,
    OP_DUP,
    OP_POP,
    OP_SWAP,
    OP_ADD,
    OP_SUB,
    OP_MUL,
    OP_AND,
    OP_OR,
    OP_XOR,
    OP_SHL,
    OP_SHR,
    OP_LT,
    OP_EQ,
    OP_JMP,
    OP_JZ,
    OP_JNZ,
    OP_INC,
};

#define MAX_CODE 256
static int32_t code[MAX_CODE];
static int ncode;

static void emit(int32_t w) {
    if (ncode >= MAX_CODE) {
        fprintf(stderr, "interp: program too long\n");
        exit(1);
    }
    code[ncode++] = w;
}
static void emit1(enum op o) { emit((int32_t)o); }
static void emit2(enum op o, int32_t a) {
    emit((int32_t)o);
    emit(a);
}
/* emit a jump with a placeholder target; returns the operand index */
static int emit_jump(enum op o) {
    emit((int32_t)o);
    emit(-1);
    return ncode - 1;
}
static void patch(int at, int target) { code[at] = target; }

enum { V_I, V_N, V_S, V_J, V_T };

static void assemble(void) {
    /* s = 1; t = 0; i = 0 */
    emit2(OP_PUSH, 1);
    emit2(OP_STORE, V_S);
    emit2(OP_PUSH, 0);
    emit2(OP_STORE, V_T);
    emit2(OP_PUSH, 0);
    emit2(OP_STORE, V_I);
    int outer = ncode;
    /* if !(i < n) goto end */
    emit2(OP_LOAD, V_I);
    emit2(OP_LOAD, V_N);
    emit1(OP_LT);
    int to_end = emit_jump(OP_JZ);
    emit2(OP_PUSH, 0);
    emit2(OP_STORE, V_J);
    int inner = ncode;
    /* s = s * 31 + (i ^ j) */
    emit2(OP_LOAD, V_S);
    emit2(OP_PUSH, 31);
    emit1(OP_MUL);
    emit2(OP_LOAD, V_I);
    emit2(OP_LOAD, V_J);
    emit1(OP_XOR);
    emit1(OP_ADD);
    emit2(OP_STORE, V_S);
    /* if ((s >> 7) & 1) t += j; else t -= 1; */
    emit2(OP_LOAD, V_S);
    emit2(OP_PUSH, 7);
    emit1(OP_SHR);
    emit2(OP_PUSH, 1);
    emit1(OP_AND);
    int to_else = emit_jump(OP_JZ);
    emit2(OP_LOAD, V_T);
    emit2(OP_LOAD, V_J);
    emit1(OP_ADD);
    emit2(OP_STORE, V_T);
    int to_join = emit_jump(OP_JMP);
    patch(to_else, ncode);
    emit2(OP_LOAD, V_T);
    emit2(OP_PUSH, 1);
    emit1(OP_SUB);
    emit2(OP_STORE, V_T);
    patch(to_join, ncode);
    /* j++; if (j < 16) goto inner */
    emit2(OP_INC, V_J);
    emit2(OP_LOAD, V_J);
    emit2(OP_PUSH, 16);
    emit1(OP_LT);
    emit2(OP_JNZ, inner);
    /* i++; goto outer */
    emit2(OP_INC, V_I);
    emit2(OP_JMP, outer);
    patch(to_end, ncode);
    emit1(OP_HALT);
}

/* returns the number of bytecodes executed */
static __attribute__((noinline)) uint64_t run(const int32_t *pc0, int64_t *var) {
    int64_t stack[32];
    int64_t *sp = stack; /* points one past the top of stack */
    const int32_t *pc = pc0;
    uint64_t steps = 0;
    for (;;) {
        steps++;
        switch ((enum op) * pc++) {
        case OP_HALT: return steps;
        case OP_PUSH: *sp++ = *pc++; break;
        case OP_LOAD: *sp++ = var[*pc++]; break;
        case OP_STORE: var[*pc++] = *--sp; break;
        case OP_DUP:
            sp[0] = sp[-1];
            sp++;
            break;
        case OP_POP: sp--; break;
        case OP_SWAP: {
            int64_t t = sp[-1];
            sp[-1] = sp[-2];
            sp[-2] = t;
            break;
        }
        case OP_ADD:
            sp--;
            sp[-1] = (int64_t)((uint64_t)sp[-1] + (uint64_t)sp[0]);
            break;
        case OP_SUB:
            sp--;
            sp[-1] = (int64_t)((uint64_t)sp[-1] - (uint64_t)sp[0]);
            break;
        case OP_MUL:
            sp--;
            sp[-1] = (int64_t)((uint64_t)sp[-1] * (uint64_t)sp[0]);
            break;
        case OP_AND:
            sp--;
            sp[-1] &= sp[0];
            break;
        case OP_OR:
            sp--;
            sp[-1] |= sp[0];
            break;
        case OP_XOR:
            sp--;
            sp[-1] ^= sp[0];
            break;
        case OP_SHL:
            sp--;
            sp[-1] = (int64_t)((uint64_t)sp[-1] << (sp[0] & 63));
            break;
        case OP_SHR:
            sp--;
            sp[-1] = (int64_t)((uint64_t)sp[-1] >> (sp[0] & 63));
            break;
        case OP_LT:
            sp--;
            sp[-1] = sp[-1] < sp[0];
            break;
        case OP_EQ:
            sp--;
            sp[-1] = sp[-1] == sp[0];
            break;
        case OP_JMP: pc = pc0 + *pc; break;
        case OP_JZ:
            if (*--sp == 0) pc = pc0 + *pc;
            else pc++;
            break;
        case OP_JNZ:
            if (*--sp != 0) pc = pc0 + *pc;
            else pc++;
            break;
        case OP_INC:
            var[*pc]++;
            pc++;
            break;
        default: fprintf(stderr, "interp: bad opcode %d at %ld\n", (int)pc[-1], (long)(pc - 1 - pc0)); exit(1);
        }
    }
}

int main(int argc, char **argv) {
    long n = parse_size(argc, argv, "N", DEFAULT_N, MIN_N, MAX_N);
    assemble();
    int64_t var[8] = {0};
    var[V_N] = n;
    uint64_t steps = run(code, var);

    /* native reference */
    uint64_t s = 1;
    int64_t t = 0;
    for (long i = 0; i < n; i++)
        for (long j = 0; j < 16; j++) {
            s = s * 31 + (uint64_t)(i ^ j);
            if ((s >> 7) & 1) t += j;
            else t -= 1;
        }
    if ((uint64_t)var[V_S] != s || var[V_T] != t) {
        fprintf(stderr, "interp: interpreter result differs from native\n");
        return 1;
    }
    uint64_t check = (uint64_t)var[V_S] ^ ((uint64_t)var[V_T] * 0x9E3779B97F4A7C15ULL) ^ steps;
    printf("interp: n=%ld bytecodes=%" PRIu64 " s=%016" PRIx64 " t=%" PRId64 "\n", n, steps, (uint64_t)var[V_S],
           var[V_T]);
    printf("checksum: %016" PRIx64 "\n", check);
    return 0;
}
