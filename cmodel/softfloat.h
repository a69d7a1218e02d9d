/*
 * softfloat.h - IEEE-754 binary32 arithmetic for the RV32F execution model.
 *
 * Pure integer implementation: results and flags never depend on the host
 * FPU.  Semantics follow the RISC-V unprivileged spec, F extension:
 *   - every NaN produced by an arithmetic operation is the canonical NaN
 *     0x7fc00000 (input payloads are never propagated);
 *   - tininess is detected after rounding; UF is raised only for results
 *     that are both tiny and inexact;
 *   - subnormal inputs and outputs are fully supported (no flush to zero).
 *
 * Operands and results are raw binary32 bit patterns.
 *
 * Rounding mode `rm` must be one of SF_RNE..SF_RMM.  The caller resolves the
 * dynamic mode (instruction rm == 7 -> frm) and rejects the reserved
 * encodings 5 and 6 (illegal instruction); any other value is treated as
 * SF_RNE here.
 *
 * Flags: every function ORs the exception flags it raises into *flags and
 * never clears bits, so the caller can pass &fflags directly.  `flags`
 * must not be NULL.
 */
#ifndef WARPSPLIT_SOFTFLOAT_H
#define WARPSPLIT_SOFTFLOAT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* rounding modes: RISC-V frm encodings */
enum { SF_RNE = 0, SF_RTZ = 1, SF_RDN = 2, SF_RUP = 3, SF_RMM = 4 };
/* exception flags: RISC-V fflags bit positions */
enum { SF_NX = 1, SF_UF = 2, SF_OF = 4, SF_DZ = 8, SF_NV = 16 };
#define SF_CANONICAL_NAN 0x7fc00000u

/* every function ORs the flags it raises into *flags (never clears) */
uint32_t sf_add(uint32_t a, uint32_t b, int rm, uint32_t *flags);
uint32_t sf_sub(uint32_t a, uint32_t b, int rm, uint32_t *flags);
uint32_t sf_mul(uint32_t a, uint32_t b, int rm, uint32_t *flags);
uint32_t sf_div(uint32_t a, uint32_t b, int rm, uint32_t *flags);
uint32_t sf_sqrt(uint32_t a, int rm, uint32_t *flags);
uint32_t sf_fma(uint32_t a, uint32_t b, uint32_t c, int rm, uint32_t *flags); /* a*b+c, ONE rounding */
uint32_t sf_min(uint32_t a, uint32_t b, uint32_t *flags);  /* RISC-V fmin.s */
uint32_t sf_max(uint32_t a, uint32_t b, uint32_t *flags);  /* RISC-V fmax.s */
int      sf_eq(uint32_t a, uint32_t b, uint32_t *flags);   /* feq.s: quiet */
int      sf_lt(uint32_t a, uint32_t b, uint32_t *flags);   /* flt.s: signaling */
int      sf_le(uint32_t a, uint32_t b, uint32_t *flags);   /* fle.s: signaling */
uint32_t sf_classify(uint32_t a);                          /* fclass.s 10-bit mask */
int32_t  sf_to_i32(uint32_t a, int rm, uint32_t *flags);   /* fcvt.w.s */
uint32_t sf_to_u32(uint32_t a, int rm, uint32_t *flags);   /* fcvt.wu.s */
uint32_t sf_from_i32(int32_t a, int rm, uint32_t *flags);  /* fcvt.s.w */
uint32_t sf_from_u32(uint32_t a, int rm, uint32_t *flags); /* fcvt.s.wu */

/*
 * Notes for callers:
 *  - fmsub/fnmsub/fnmadd: use sf_fma with the sign bit of b and/or c
 *    flipped (a NaN stays a NaN of the same kind, so flags are unaffected):
 *      fmsub  = sf_fma(a, b, c ^ 0x80000000)
 *      fnmsub = sf_fma(a ^ 0x80000000, b, c)
 *      fnmadd = sf_fma(a ^ 0x80000000, b, c ^ 0x80000000)
 *  - fsgnj*, fmv.x.w, fmv.w.x are pure bit operations; they need no
 *    helper and raise no flags.
 *  - sf_classify returns the fclass.s bit mask: bit 0 -inf, 1 -normal,
 *    2 -subnormal, 3 -0, 4 +0, 5 +subnormal, 6 +normal, 7 +inf,
 *    8 signaling NaN, 9 quiet NaN.
 */

#ifdef __cplusplus
}
#endif

#endif /* WARPSPLIT_SOFTFLOAT_H */
