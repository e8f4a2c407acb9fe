#!/usr/bin/env python3
"""disasm_random.py CC OBJDUMP CYCLESCOPE SEED [COUNT]

Random programs against objdump (issue 11 item 11): assembles a program of
COUNT random items (seeded, so a failure reproduces) and requires
`cyclescope disasm` to print exactly what `objdump -d` prints. The items mix
raw 16/32/48/64-bit encodings (weighted to lui/auipc and the registers
objdump resolves addresses from), real instructions naming labels, data in
code (.word/.half/.zero/.skip), .align, labels that are local, global, weak,
@function or @object, `.option norvc` stretches and a second code section:
what found every class of difference in docs/sandbox.md section 8."""
import os
import random
import subprocess
import sys
import tempfile


def program(seed, count):
    rnd = random.Random(seed)
    ops = [0x03, 0x07, 0x0F, 0x13, 0x17, 0x1B, 0x23, 0x27, 0x2F, 0x33, 0x37, 0x3B, 0x43, 0x47, 0x4B, 0x4F,
           0x53, 0x63, 0x67, 0x6F, 0x73, 0x17, 0x37]
    regs = [0, 1, 2, 3, 4, 5, 10]
    out = [".text", ".globl _start", "_start:"]
    labels, seen, depth = [], ["_start"], 0
    body = []
    for n in range(count):
        r = rnd.random()
        if r < 0.08:
            name = "L%d" % n
            labels.append(name)
            kind = rnd.random()
            if kind < 0.3:
                body.append(".globl " + name)
            elif kind < 0.4:
                body.append(".weak " + name)
            if rnd.random() < 0.3:
                body.append(".type %s, @%s" % (name, rnd.choice(["function", "object", "notype"])))
            body.append(name + ":")
        elif r < 0.12:
            body.append(rnd.choice([".word 0x%x" % rnd.getrandbits(32), ".half 0x%x" % rnd.getrandbits(16),
                                    ".byte 1, 2", ".balign 4", ".balign 8", ".zero 6", ".skip 10",
                                    ".dword 0x%x" % rnd.getrandbits(64)]))
        elif r < 0.14:
            if depth and rnd.random() < 0.5:
                body.append(".option pop")
                depth -= 1
            else:
                body.append(".option push")
                body.append(".option norvc")
                depth += 1
        elif r < 0.40:
            body.append(rnd.choice(["beq a0, a1, {N}", "j {L}", "jal {L}", "call {L}", "tail {L}", "la a0, {L}",
                                    "lla a1, {L}", "lw a2, {L}", "sw a3, {L}, t0", "nop", "auipc t0, 0",
                                    "li a0, 0x12345678", "jr t0", "jalr s1, t1"]))
        elif r < 0.70 and depth == 0:
            v = rnd.getrandbits(16)
            if v & 3 == 3:
                v &= ~1
            body.append(".insn 0x%x" % (v or 1))
        elif r < 0.72:
            body.append(".insn 6, 0x%x" % ((rnd.getrandbits(48) & ~0x7F) | 0x1F))
        else:
            rd, rs1 = rnd.choice(regs + [rnd.getrandbits(5)]), rnd.choice(regs + [rnd.getrandbits(5)])
            v = (rnd.getrandbits(15) << 17) | (rs1 << 15) | (rnd.getrandbits(3) << 12) | (rd << 7) | rnd.choice(ops)
            body.append(".insn 0x%x" % v)
    body += [".option pop"] * depth
    for b in body:
        if b.endswith(":"):
            seen.append(b[:-1])
        b = b.replace("{N}", rnd.choice(seen[-6:])).replace("{L}", rnd.choice(labels or ["_start"]))
        out.append(b)
    out += [".data", "d0: .word 1", '.section .text.other, "ax", @progbits', "nop", "other: addi a0, a0, 1", "j _start"]
    return "\n".join(out) + "\n"


def main():
    cc, objdump, cs, seed = sys.argv[1:5]
    count = int(sys.argv[5]) if len(sys.argv) > 5 else 20000
    with tempfile.TemporaryDirectory() as tmp:
        src, prog = os.path.join(tmp, "p.S"), os.path.join(tmp, "p")
        with open(src, "w") as f:
            f.write(program(int(seed), count))
        subprocess.run([cc, "-nostdlib", "-static", "-march=rv64gc", "-mabi=lp64d", "-mno-relax", "-Wl,--no-relax",
                        "-o", prog, src], check=True)
        want = subprocess.run([objdump, "-d", prog], check=True, capture_output=True, text=True).stdout
        got = subprocess.run([cs, "disasm", prog], check=True, capture_output=True, text=True).stdout
    if want != got:
        w, g = want.splitlines(), got.splitlines()
        bad = [i for i in range(max(len(w), len(g))) if i >= len(w) or i >= len(g) or w[i] != g[i]]
        print("seed %s: %d of %d lines differ; first at line %d:" % (seed, len(bad), len(w), bad[0] + 1))
        for i in bad[:5]:
            print("  objdump:    %s\n  cyclescope: %s" % (w[i] if i < len(w) else "", g[i] if i < len(g) else ""))
        return 1
    print("seed %s: identical listings, %d lines" % (seed, len(want.splitlines())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
