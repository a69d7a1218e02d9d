/*
 * softfloat.h - IEEE-754 binary32 arithmetic for the RV32F execution model.
 *
 * Integer arithmetic: results and flags never depend on the host FPU (a
 * fast path lets the host compute only results it provably gets bit for bit
 * right, see softfloat.c).  Semantics follow the RISC-V unprivileged spec,
 * F extension:
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
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* rounding modes: RISC-V frm encodings */
enum { SF_RNE = 0, SF_RTZ = 1, SF_RDN = 2, SF_RUP = 3, SF_RMM = 4 };
/* exception flags: RISC-V fflags bit positions */
enum { SF_NX = 1, SF_UF = 2, SF_OF = 4, SF_DZ = 8, SF_NV = 16 };
#define SF_CANONICAL_NAN 0x7fc00000u

/* every function ORs the flags it raises into *flags (never clears) */
static inline uint32_t sf_add(uint32_t a, uint32_t b, int rm, uint32_t *flags);
static inline uint32_t sf_sub(uint32_t a, uint32_t b, int rm, uint32_t *flags);
static inline uint32_t sf_mul(uint32_t a, uint32_t b, int rm, uint32_t *flags);
static inline uint32_t sf_div(uint32_t a, uint32_t b, int rm, uint32_t *flags);
static inline uint32_t sf_sqrt(uint32_t a, int rm, uint32_t *flags);
static inline uint32_t sf_fma(uint32_t a, uint32_t b, uint32_t c, int rm, uint32_t *flags); /* a*b+c, ONE rounding */
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

/* The integer implementations (softfloat.c) of the six above. */
uint32_t sf_add_int(uint32_t a, uint32_t b, int rm, uint32_t *flags);
uint32_t sf_mul_int(uint32_t a, uint32_t b, int rm, uint32_t *flags);
uint32_t sf_div_int(uint32_t a, uint32_t b, int rm, uint32_t *flags);
uint32_t sf_sqrt_int(uint32_t a, int rm, uint32_t *flags);
uint32_t sf_fma_int(uint32_t a, uint32_t b, uint32_t c, int rm, uint32_t *flags);

/* The host fast path, inline in the executor's lane loop. Once a thread's
 * accrued flags hold NX (sticky: after its first inexact result, which
 * comes early in any FP kernel), an operation in RNE on zero or normal
 * operands whose result is normal raises nothing new: OF and UF need a
 * result that is not normal, NV and DZ a special operand (or a zero
 * divisor: division takes normal operands only). The host's IEEE 754
 * arithmetic (single precision evaluation, FLT_EVAL_METHOD 0: SSE2,
 * AArch64) then gives the same bits as the integer path, in a few
 * instructions instead of ~80. A zero or subnormal result is kept only where
 * it is exact by construction (a sum, a zero factor); a result that is otherwise zero,
 * subnormal, exactly 2^-126 (a tiny exact value rounds up to it: UF),
 * infinite or NaN goes to the integer path, which computes it again, flags
 * and all. Assumes the host's floating-point environment is its default
 * (round to nearest even, no flush to zero): nothing in the simulator
 * changes it. tests/unit/test_softfloat.c runs every operand it checks once
 * more with NX (and every flag) already set and requires the integer
 * path's bits and flags. */
#if defined(__FLT_EVAL_METHOD__) && __FLT_EVAL_METHOD__ == 0 && !defined(__FAST_MATH__)
#define SF_HOST_FAST 1
#else
#define SF_HOST_FAST 0
#endif
static inline float sf_bits_float_(uint32_t u) { float f; memcpy(&f, &u, sizeof f); return f; }
static inline uint32_t sf_float_bits_(float f) { uint32_t u; memcpy(&u, &f, sizeof u); return u; }
static inline int sf_fast_(int rm, const uint32_t *flags) { return SF_HOST_FAST && rm == SF_RNE && (*flags & SF_NX); }
static inline int sf_normal_(uint32_t a) { return ((a >> 23) & 0xffu) - 1u < 254u; }
static inline int sf_zero_(uint32_t a) { return !(a & 0x7fffffffu); }
static inline int sf_zn_(uint32_t a) { return sf_normal_(a) || sf_zero_(a); }
/* normal, above 2^-126 */
static inline int sf_fast_result_(uint32_t r) { return (r & 0x7fffffffu) - 0x00800001u <= 0x7f7fffffu - 0x00800001u; }

static inline uint32_t sf_add(uint32_t a, uint32_t b, int rm, uint32_t *flags)
{
    if (sf_fast_(rm, flags) && sf_zn_(a) && sf_zn_(b)) {
        const uint32_t r = sf_float_bits_(sf_bits_float_(a) + sf_bits_float_(b));
        /* a sum below 2^-126 is exact (its bits are all at or above the
         * operands' lowest, 2^-149): zero and subnormal sums raise nothing;
         * only an overflow to infinity does */
        if (((r >> 23) & 0xffu) != 0xffu) return r;
    }
    return sf_add_int(a, b, rm, flags);
}
static inline uint32_t sf_sub(uint32_t a, uint32_t b, int rm, uint32_t *flags)
{
    return sf_add(a, b ^ 0x80000000u, rm, flags); /* (a NaN stays a NaN of its kind) */
}
static inline uint32_t sf_mul(uint32_t a, uint32_t b, int rm, uint32_t *flags)
{
    if (sf_fast_(rm, flags) && sf_zn_(a) && sf_zn_(b)) {
        const uint32_t r = sf_float_bits_(sf_bits_float_(a) * sf_bits_float_(b));
        /* zero: exact only from a zero factor (else it underflowed) */
        if (sf_fast_result_(r) || (sf_zero_(r) && (sf_zero_(a) || sf_zero_(b)))) return r;
    }
    return sf_mul_int(a, b, rm, flags);
}
static inline uint32_t sf_div(uint32_t a, uint32_t b, int rm, uint32_t *flags)
{
    if (sf_fast_(rm, flags) && sf_normal_(a) && sf_normal_(b)) {
        const uint32_t r = sf_float_bits_(sf_bits_float_(a) / sf_bits_float_(b));
        if (sf_fast_result_(r)) return r;
    }
    return sf_div_int(a, b, rm, flags);
}
static inline uint32_t sf_sqrt(uint32_t a, int rm, uint32_t *flags)
{
    if (sf_fast_(rm, flags) && !(a >> 31) && sf_normal_(a)) {
        const uint32_t r = sf_float_bits_(__builtin_sqrtf(sf_bits_float_(a)));
        if (sf_fast_result_(r)) return r;
    }
    return sf_sqrt_int(a, rm, flags);
}
/* a*b + c with one rounding. In double, a*b is exact (48 bits) and the sum
 * s is rounded once, to double: rounding s to binary32 gives the binary32
 * rounding of the exact value unless s is itself a binary32 midpoint (the
 * exact value and s then lie between the same two midpoints, all of which
 * are doubles: a midpoint between them would be nearer the exact value
 * than s). A midpoint goes to the integer path; so does everything the
 * result check refuses. s = 0 means an exact zero (a tiny non-zero value is
 * far inside the double range), with IEEE's sign. */
static inline uint32_t sf_fma(uint32_t a, uint32_t b, uint32_t c, int rm, uint32_t *flags)
{
    if (sf_fast_(rm, flags) && sf_zn_(a) && sf_zn_(b) && sf_zn_(c)) {
        const double s = (double)sf_bits_float_(a) * (double)sf_bits_float_(b) + (double)sf_bits_float_(c);
        uint64_t sb;
        memcpy(&sb, &s, sizeof sb);
        if ((sb & ((UINT64_C(1) << 29) - 1)) != UINT64_C(1) << 28) { /* not a binary32 midpoint */
            const uint32_t r = sf_float_bits_((float)s);
            if (sf_fast_result_(r) || s == 0) return r;
        }
    }
    return sf_fma_int(a, b, c, rm, flags);
}

#ifdef __cplusplus
}
#endif

#endif /* WARPSPLIT_SOFTFLOAT_H */
