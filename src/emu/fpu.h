/* fpu — RISC-V F and D arithmetic with exact RISC-V semantics (internal to emu).
 *
 * Every function takes raw IEEE-754 bit patterns and returns raw bits.
 * Single-precision operands are passed already unboxed: the caller (the
 * interpreter) turns an improperly NaN-boxed register into the canonical NaN
 * before calling (unprivileged spec §12.2), and NaN-boxes single results.
 *
 * `rm` is the effective rounding mode, already resolved from DYN to frm and
 * validated: 0 RNE, 1 RTZ, 2 RDN, 3 RUP, 4 RMM. Raised exception flags are
 * OR-ed into *fflags (ISA_FFLAG_NX/UF/OF/DZ/NV). *fflags is also read: when NX
 * is already set (fflags are sticky) an operation can skip detecting it, so
 * pass the guest's accumulated flags. Tininess is detected after
 * rounding, NaN results are the canonical NaN (0x7fc00000 / 0x7ff8000000000000),
 * as the RISC-V spec requires.
 */
#ifndef CYCLESCOPE_EMU_FPU_H
#define CYCLESCOPE_EMU_FPU_H

#include <stdint.h>

/* arithmetic */
uint32_t fpu_add_s(uint32_t a, uint32_t b, unsigned rm, unsigned *fflags);
uint32_t fpu_sub_s(uint32_t a, uint32_t b, unsigned rm, unsigned *fflags);
uint32_t fpu_mul_s(uint32_t a, uint32_t b, unsigned rm, unsigned *fflags);
uint32_t fpu_div_s(uint32_t a, uint32_t b, unsigned rm, unsigned *fflags);
uint32_t fpu_sqrt_s(uint32_t a, unsigned rm, unsigned *fflags);
uint64_t fpu_add_d(uint64_t a, uint64_t b, unsigned rm, unsigned *fflags);
uint64_t fpu_sub_d(uint64_t a, uint64_t b, unsigned rm, unsigned *fflags);
uint64_t fpu_mul_d(uint64_t a, uint64_t b, unsigned rm, unsigned *fflags);
uint64_t fpu_div_d(uint64_t a, uint64_t b, unsigned rm, unsigned *fflags);
uint64_t fpu_sqrt_d(uint64_t a, unsigned rm, unsigned *fflags);

/* fused multiply-add: a*b+c with one rounding; negate_product and negate_addend
 * give fmsub (0,1), fnmsub (1,0) and fnmadd (1,1). */
uint32_t fpu_fma_s(uint32_t a, uint32_t b, uint32_t c, int negate_product, int negate_addend, unsigned rm,
                   unsigned *fflags);
uint64_t fpu_fma_d(uint64_t a, uint64_t b, uint64_t c, int negate_product, int negate_addend, unsigned rm,
                   unsigned *fflags);

/* min/max (spec 2.2+ semantics: -0 < +0, one NaN returns the other operand,
 * two NaNs the canonical NaN, signaling NaN input raises NV) */
uint32_t fpu_min_s(uint32_t a, uint32_t b, unsigned *fflags);
uint32_t fpu_max_s(uint32_t a, uint32_t b, unsigned *fflags);
uint64_t fpu_min_d(uint64_t a, uint64_t b, unsigned *fflags);
uint64_t fpu_max_d(uint64_t a, uint64_t b, unsigned *fflags);

/* comparisons: feq is quiet (NV only for signaling NaN), flt/fle signal on any NaN */
int fpu_eq_s(uint32_t a, uint32_t b, unsigned *fflags);
int fpu_lt_s(uint32_t a, uint32_t b, unsigned *fflags);
int fpu_le_s(uint32_t a, uint32_t b, unsigned *fflags);
int fpu_eq_d(uint64_t a, uint64_t b, unsigned *fflags);
int fpu_lt_d(uint64_t a, uint64_t b, unsigned *fflags);
int fpu_le_d(uint64_t a, uint64_t b, unsigned *fflags);

/* fclass: the 10-bit mask of spec Table 12.5 */
uint64_t fpu_class_s(uint32_t a);
uint64_t fpu_class_d(uint64_t a);

/* float -> integer, saturating per spec Table 12.4 (NaN gives the maximum);
 * 32-bit results are returned sign-extended to 64 bits as the register holds them. */
uint64_t fpu_cvt_w_s(uint32_t a, unsigned rm, unsigned *fflags);
uint64_t fpu_cvt_wu_s(uint32_t a, unsigned rm, unsigned *fflags);
uint64_t fpu_cvt_l_s(uint32_t a, unsigned rm, unsigned *fflags);
uint64_t fpu_cvt_lu_s(uint32_t a, unsigned rm, unsigned *fflags);
uint64_t fpu_cvt_w_d(uint64_t a, unsigned rm, unsigned *fflags);
uint64_t fpu_cvt_wu_d(uint64_t a, unsigned rm, unsigned *fflags);
uint64_t fpu_cvt_l_d(uint64_t a, unsigned rm, unsigned *fflags);
uint64_t fpu_cvt_lu_d(uint64_t a, unsigned rm, unsigned *fflags);

/* integer -> float (the integer is the full 64-bit register value; the W
 * forms use its low 32 bits, signed or unsigned) */
uint32_t fpu_cvt_s_w(uint64_t x, unsigned rm, unsigned *fflags);
uint32_t fpu_cvt_s_wu(uint64_t x, unsigned rm, unsigned *fflags);
uint32_t fpu_cvt_s_l(uint64_t x, unsigned rm, unsigned *fflags);
uint32_t fpu_cvt_s_lu(uint64_t x, unsigned rm, unsigned *fflags);
uint64_t fpu_cvt_d_w(uint64_t x, unsigned rm, unsigned *fflags);
uint64_t fpu_cvt_d_wu(uint64_t x, unsigned rm, unsigned *fflags);
uint64_t fpu_cvt_d_l(uint64_t x, unsigned rm, unsigned *fflags);
uint64_t fpu_cvt_d_lu(uint64_t x, unsigned rm, unsigned *fflags);

/* between formats */
uint32_t fpu_cvt_s_d(uint64_t a, unsigned rm, unsigned *fflags);
uint64_t fpu_cvt_d_s(uint32_t a, unsigned *fflags);

/* Zfh: half precision, in the low 16 bits of a uint32_t (unboxed by the caller,
 * which NaN-boxes results: an improperly boxed operand is the canonical NaN
 * 0x7e00). Exact in every rounding mode, with RISC-V flags (see fpu.c). */
uint32_t fpu_add_h(uint32_t a, uint32_t b, unsigned rm, unsigned *fflags);
uint32_t fpu_sub_h(uint32_t a, uint32_t b, unsigned rm, unsigned *fflags);
uint32_t fpu_mul_h(uint32_t a, uint32_t b, unsigned rm, unsigned *fflags);
uint32_t fpu_div_h(uint32_t a, uint32_t b, unsigned rm, unsigned *fflags);
uint32_t fpu_sqrt_h(uint32_t a, unsigned rm, unsigned *fflags);
uint32_t fpu_fma_h(uint32_t a, uint32_t b, uint32_t c, int negate_product, int negate_addend, unsigned rm,
                   unsigned *fflags);
uint32_t fpu_min_h(uint32_t a, uint32_t b, unsigned *fflags);
uint32_t fpu_max_h(uint32_t a, uint32_t b, unsigned *fflags);
int fpu_eq_h(uint32_t a, uint32_t b, unsigned *fflags);
int fpu_lt_h(uint32_t a, uint32_t b, unsigned *fflags);
int fpu_le_h(uint32_t a, uint32_t b, unsigned *fflags);
uint64_t fpu_class_h(uint32_t a);
uint64_t fpu_cvt_w_h(uint32_t a, unsigned rm, unsigned *fflags);
uint64_t fpu_cvt_wu_h(uint32_t a, unsigned rm, unsigned *fflags);
uint64_t fpu_cvt_l_h(uint32_t a, unsigned rm, unsigned *fflags);
uint64_t fpu_cvt_lu_h(uint32_t a, unsigned rm, unsigned *fflags);
uint32_t fpu_cvt_h_w(uint64_t x, unsigned rm, unsigned *fflags);
uint32_t fpu_cvt_h_wu(uint64_t x, unsigned rm, unsigned *fflags);
uint32_t fpu_cvt_h_l(uint64_t x, unsigned rm, unsigned *fflags);
uint32_t fpu_cvt_h_lu(uint64_t x, unsigned rm, unsigned *fflags);
uint32_t fpu_cvt_h_s(uint32_t a, unsigned rm, unsigned *fflags);
uint32_t fpu_cvt_h_d(uint64_t a, unsigned rm, unsigned *fflags);
uint32_t fpu_cvt_s_h(uint32_t a, unsigned *fflags);
uint64_t fpu_cvt_d_h(uint32_t a, unsigned *fflags);

/* Zfa, for the three formats (FPU_FMT_*; single and half values in the low bits) */
enum { FPU_FMT_S = 0, FPU_FMT_D = 1, FPU_FMT_H = 2 };
uint64_t fpu_fli(unsigned fmt, unsigned index); /* the spec's constant `index` */
uint64_t fpu_minmax_m(unsigned fmt, int is_max, uint64_t a, uint64_t b, unsigned *fflags);
uint64_t fpu_round(unsigned fmt, uint64_t a, int nx, unsigned rm, unsigned *fflags); /* fround, froundnx */
uint64_t fpu_cvtmod_w_d(uint64_t a, unsigned *fflags);
int fpu_leq(unsigned fmt, uint64_t a, uint64_t b, unsigned *fflags); /* fleq: quiet fle */
int fpu_ltq(unsigned fmt, uint64_t a, uint64_t b, unsigned *fflags); /* fltq: quiet flt */

#endif
