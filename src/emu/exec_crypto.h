/* The scalar cryptography instructions' arithmetic (RISC-V Scalar Cryptography
 * Extensions 1.0.1, the RV64 forms), for exec_loop.inc: AES rounds and key schedule,
 * SHA-2 and SM3 functions, SM4 rounds, and Zbkb's/Zbkx's byte and nibble shuffles. */
#ifndef CYCLESCOPE_EXEC_CRYPTO_H
#define CYCLESCOPE_EXEC_CRYPTO_H

#include <stdbool.h>
#include <stdint.h>

/* aes64es/esm (decrypt false) and aes64ds/dsm (true): ShiftRows (or its inverse) over the
 * 128-bit state {rs2:rs1}, the low 64 bits of it through the S-box (or its inverse), then,
 * with mix, MixColumns (or its inverse) on both 32-bit columns. */
uint64_t crypto_aes64_round(uint64_t rs1, uint64_t rs2, bool decrypt, bool mix);
uint64_t crypto_aes64im(uint64_t rs1);
uint64_t crypto_aes64ks1i(uint64_t rs1, unsigned rnum); /* rnum 0..10 (decode refuses more) */
uint64_t crypto_aes64ks2(uint64_t rs1, uint64_t rs2);

/* sha256sig0 … sha512sum1, sm3p0/p1 in one: `which` is the op's rs2 field (0 sum0,
 * 1 sum1, 2 sig0, 3 sig1 of SHA-256; 4..7 the same of SHA-512; 8 sm3p0, 9 sm3p1). */
uint64_t crypto_hash_function(uint64_t rs1, unsigned which);

/* sm4ed (key false) and sm4ks (true): byte bs of rs2 through the SM4 S-box and the
 * round's linear map L (or the key schedule's L'), rotated into place, xor rs1. */
uint64_t crypto_sm4(uint64_t rs1, uint64_t rs2, unsigned bs, bool key);

uint64_t crypto_xperm4(uint64_t rs1, uint64_t rs2);
uint64_t crypto_xperm8(uint64_t rs1, uint64_t rs2);
uint64_t crypto_brev8(uint64_t rs1);

#endif
