/*
 * softfloat.c - IEEE-754 binary32 arithmetic with RISC-V F semantics.
 *
 * Everything is done with integer arithmetic (softfloat.h's host fast path
 * goes first where the host provably gets the same bits).  The common scheme: each
 * operation reduces its finite, non-zero operands to an exact value
 * sig * 2^exp (sig a 64-bit integer) or, when the exact result has too many
 * bits (division, square root, widely separated addends), to a truncated
 * sig whose least significant bit is "jammed" (ORed with 1) when anything
 * non-zero was discarded.  Such a jammed value lies strictly between the
 * two even integers around it, which is all the final rounding needs as
 * long as the rounding point is at least two bits above the jam bit.
 * round_pack() then performs the single rounding to binary32.
 */
#include "softfloat.h"

#include <stdbool.h>
#include <stdint.h>

#define SIGN_MASK 0x80000000u
#define ABS_MASK 0x7fffffffu
#define EXP_MASK 0x7f800000u
#define FRAC_MASK 0x007fffffu
#define QUIET_BIT 0x00400000u
#define INF_BITS 0x7f800000u
#define MAX_FINITE 0x7f7fffffu

/* ---------------------------------------------------------------------- */
/* Classification of raw bit patterns                                      */

static bool is_nan(uint32_t a) { return (a & ABS_MASK) > INF_BITS; }
static bool is_snan(uint32_t a) { return is_nan(a) && !(a & QUIET_BIT); }
static bool is_inf(uint32_t a) { return (a & ABS_MASK) == INF_BITS; }
static bool is_zero(uint32_t a) { return (a & ABS_MASK) == 0; }
static uint32_t sign_of(uint32_t a) { return a >> 31; }

/* A finite non-zero operand: value = (-1)^sign * sig * 2^exp with sig
 * normalised into [2^23, 2^24) (subnormals get an exponent below -149). */
typedef struct {
    uint32_t sign;
    int exp;
    uint32_t sig;
} unpacked;

/* A single instruction on every host (bsr/lzcnt, clz): the open-coded
 * binary search it replaced was 6% of an FP-heavy simulation. */
static inline int clz64(uint64_t x) /* x != 0 */
{
    return __builtin_clzll(x);
}

static inline unpacked unpack(uint32_t a) /* a finite, non-zero */
{
    unpacked u;
    uint32_t biased = (a & EXP_MASK) >> 23;
    uint32_t frac = a & FRAC_MASK;
    u.sign = sign_of(a);
    if (biased == 0) {
        int s = clz64(frac) - 40; /* shift that brings the top bit to bit 23 */
        u.sig = frac << s;
        u.exp = -149 - s;
    } else {
        u.sig = frac | 0x00800000u;
        u.exp = (int)biased - 150;
    }
    return u;
}

/* Shift right by n, ORing every discarded bit into bit 0. */
static inline uint64_t shift_right_jam(uint64_t x, int n)
{
    if (n <= 0)
        return x;
    if (n >= 64)
        return x != 0;
    return (x >> n) | ((x << (64 - n)) != 0);
}

/* ---------------------------------------------------------------------- */
/* Rounding                                                                */

/* Should a value whose retained part is `kept` and whose discarded part is
 * `rest` (out of a unit of 2*half) be rounded away from zero? */
static inline bool round_increment(uint64_t kept, uint64_t rest, uint64_t half,
                            uint32_t sign, int rm)
{
    if (rest == 0)
        return false;
    switch (rm) {
    case SF_RTZ: return false;
    case SF_RDN: return sign != 0;
    case SF_RUP: return sign == 0;
    case SF_RMM: return rest >= half;
    default:     return rest > half || (rest == half && (kept & 1));
    }
}

static uint32_t overflow_result(uint32_t sign, int rm, uint32_t *flags)
{
    bool to_inf;
    *flags |= SF_OF | SF_NX;
    switch (rm) {
    case SF_RTZ: to_inf = false; break;
    case SF_RDN: to_inf = sign != 0; break;
    case SF_RUP: to_inf = sign == 0; break;
    default:     to_inf = true; break;
    }
    return (sign << 31) | (to_inf ? INF_BITS : MAX_FINITE);
}

/*
 * Round (-1)^sign * sig * 2^exp to binary32.  sig must be non-zero.  If sig
 * carries a jam bit, its leading one must be at bit 25 or higher so that
 * the jam bit stays below the round bit.
 */
static inline __attribute__((always_inline)) uint32_t round_pack(uint32_t sign, int exp, uint64_t sig, int rm,
                           uint32_t *flags)
{
    /* Normalise the leading one to bit 62 (bit 63 stays free). */
    int lz = clz64(sig);
    if (lz == 0) {
        sig = shift_right_jam(sig, 1);
        exp += 1;
    } else {
        sig <<= lz - 1;
        exp -= lz - 1;
    }
    /* value = 1.xxx * 2^(exp + 62): biased exponent of the leading bit */
    int biased = exp + 62 + 127;
    if (biased >= 255)
        return overflow_result(sign, rm, flags);

    /* 24 significant bits are kept at bits 62..39 for a normal result;
     * a subnormal result keeps fewer. */
    int shift = 39;
    bool tiny = false;
    if (biased < 1) {
        /* Tininess after rounding: the result is tiny unless rounding to 24
         * bits with an unbounded exponent carries all the way up to
         * 2^-126, which can only happen from the binade just below. */
        tiny = true;
        if (biased == 0) {
            uint64_t k = sig >> 39;
            uint64_t r = sig & ((UINT64_C(1) << 39) - 1);
            if (k == 0xffffffu &&
                round_increment(k, r, UINT64_C(1) << 38, sign, rm))
                tiny = false;
        }
        shift = 39 + (1 - biased);
        if (shift > 63) {
            /* Far below half of the smallest subnormal: only "non-zero"
             * matters.  Reduce to the equivalent jammed 1 at shift 63. */
            sig = shift_right_jam(sig, shift - 63);
            shift = 63;
        }
    }

    uint64_t half = UINT64_C(1) << (shift - 1);
    uint64_t kept = sig >> shift;
    uint64_t rest = sig & ((half << 1) - 1);
    if (rest != 0) {
        *flags |= SF_NX;
        if (tiny)
            *flags |= SF_UF;
    }
    if (round_increment(kept, rest, half, sign, rm))
        kept++;

    if (biased < 1) {
        /* Subnormal encoding; a carry into bit 23 correctly produces the
         * smallest normal number. */
        return (sign << 31) | (uint32_t)kept;
    }
    if (kept == (UINT64_C(1) << 24)) {
        kept >>= 1;
        biased++;
        if (biased >= 255)
            return overflow_result(sign, rm, flags);
    }
    return (sign << 31) | ((uint32_t)biased << 23) |
           ((uint32_t)kept & FRAC_MASK);
}

/* Result for an operation with at least one NaN operand (no other invalid
 * condition involved). */
static uint32_t nan_result(uint32_t a, uint32_t b, uint32_t *flags)
{
    if (is_snan(a) || is_snan(b))
        *flags |= SF_NV;
    return SF_CANONICAL_NAN;
}

static uint32_t exact_zero_sum(int rm)
{
    /* x + (-x) == +0 in every mode except round-down */
    return rm == SF_RDN ? SIGN_MASK : 0;
}

/* ---------------------------------------------------------------------- */
/* Arithmetic                                                              */

/* Both operands normal (biased exponent 1..254): the common case, for
 * which the fast paths below skip the classification of the special
 * operands and unpack's subnormal branch; with rm = RNE a constant,
 * round_pack folds its rounding-mode switches away. Same arithmetic as the
 * general paths, so the same bits and flags. */
static inline bool both_normal(uint32_t a, uint32_t b)
{
    return ((a >> 23) & 0xff) - 1u < 254u && ((b >> 23) & 0xff) - 1u < 254u;
}

uint32_t sf_add_int(uint32_t a, uint32_t b, int rm, uint32_t *flags)
{
    if (rm == SF_RNE && both_normal(a, b)) {
        if ((b & ABS_MASK) > (a & ABS_MASK)) { /* |a| >= |b| (normal: the bits order them) */
            uint32_t t = a;
            a = b;
            b = t;
        }
        int ea = (int)((a >> 23) & 0xff), eb = (int)((b >> 23) & 0xff);
        uint64_t mx = (uint64_t)((a & FRAC_MASK) | 0x00800000u) << 38;
        uint64_t my = shift_right_jam((uint64_t)((b & FRAC_MASK) | 0x00800000u) << 38, ea - eb);
        uint64_t sum = (a ^ b) & SIGN_MASK ? mx - my : mx + my;
        if (sum == 0)
            return exact_zero_sum(SF_RNE);
        return round_pack(sign_of(a), ea - 150 - 38, sum, SF_RNE, flags);
    }
    if (is_nan(a) || is_nan(b))
        return nan_result(a, b, flags);
    if (is_inf(a)) {
        if (is_inf(b) && sign_of(a) != sign_of(b)) {
            *flags |= SF_NV;
            return SF_CANONICAL_NAN;
        }
        return a;
    }
    if (is_inf(b))
        return b;
    if (is_zero(a)) {
        if (is_zero(b))
            return sign_of(a) == sign_of(b) ? a : exact_zero_sum(rm);
        return b;
    }
    if (is_zero(b))
        return a;

    unpacked x = unpack(a), y = unpack(b);
    if (y.exp > x.exp || (y.exp == x.exp && y.sig > x.sig)) {
        unpacked t = x;
        x = y;
        y = t;
    }
    /* |x| >= |y|.  Both significands get 38 guard bits; y is aligned to x
     * and anything shifted out is jammed.  Bits are only lost when the
     * exponent gap exceeds 38, and then at most one bit cancels, so the
     * jam bit stays far below the rounding point. */
    uint64_t mx = (uint64_t)x.sig << 38;
    uint64_t my = shift_right_jam((uint64_t)y.sig << 38, x.exp - y.exp);
    uint64_t sum = (x.sign == y.sign) ? mx + my : mx - my;
    if (sum == 0)
        return exact_zero_sum(rm);
    return round_pack(x.sign, x.exp - 38, sum, rm, flags);
}

uint32_t sf_mul_int(uint32_t a, uint32_t b, int rm, uint32_t *flags)
{
    uint32_t sign = sign_of(a) ^ sign_of(b);
    if (rm == SF_RNE && both_normal(a, b)) { /* (see both_normal) */
        uint64_t px = (a & FRAC_MASK) | 0x00800000u, py = (b & FRAC_MASK) | 0x00800000u;
        return round_pack(sign, (int)((a >> 23) & 0xff) - 150 + (int)((b >> 23) & 0xff) - 150, px * py, SF_RNE,
                          flags);
    }
    if (is_nan(a) || is_nan(b))
        return nan_result(a, b, flags);
    if (is_inf(a) || is_inf(b)) {
        if (is_zero(a) || is_zero(b)) {
            *flags |= SF_NV;
            return SF_CANONICAL_NAN;
        }
        return (sign << 31) | INF_BITS;
    }
    if (is_zero(a) || is_zero(b))
        return sign << 31;

    unpacked x = unpack(a), y = unpack(b);
    /* The 48-bit product is exact. */
    return round_pack(sign, x.exp + y.exp, (uint64_t)x.sig * y.sig, rm, flags);
}

uint32_t sf_div_int(uint32_t a, uint32_t b, int rm, uint32_t *flags)
{
    uint32_t sign = sign_of(a) ^ sign_of(b);
    if (is_nan(a) || is_nan(b))
        return nan_result(a, b, flags);
    if (is_inf(a)) {
        if (is_inf(b)) {
            *flags |= SF_NV;
            return SF_CANONICAL_NAN;
        }
        return (sign << 31) | INF_BITS;
    }
    if (is_inf(b))
        return sign << 31;
    if (is_zero(b)) {
        if (is_zero(a)) {
            *flags |= SF_NV;
            return SF_CANONICAL_NAN;
        }
        *flags |= SF_DZ;
        return (sign << 31) | INF_BITS;
    }
    if (is_zero(a))
        return sign << 31;

    unpacked x = unpack(a), y = unpack(b);
    /* 2^63 > x.sig * 2^40 and the quotient has 40 or 41 bits; a non-zero
     * remainder becomes the jam bit. */
    uint64_t num = (uint64_t)x.sig << 40;
    uint64_t q = num / y.sig;
    if (num % y.sig != 0)
        q |= 1;
    return round_pack(sign, x.exp - y.exp - 40, q, rm, flags);
}

/* floor(sqrt(x)) by the bitwise (digit-by-digit) method; *exact tells
 * whether x was a perfect square. */
static uint64_t isqrt64(uint64_t x, bool *exact)
{
    uint64_t root = 0;
    uint64_t bit = UINT64_C(1) << 62;
    while (bit > x)
        bit >>= 2;
    while (bit != 0) {
        if (x >= root + bit) {
            x -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    *exact = (x == 0);
    return root;
}

uint32_t sf_sqrt_int(uint32_t a, int rm, uint32_t *flags)
{
    if (is_nan(a))
        return nan_result(a, a, flags);
    if (is_zero(a))
        return a; /* sqrt(-0) = -0 */
    if (sign_of(a)) {
        *flags |= SF_NV;
        return SF_CANONICAL_NAN;
    }
    if (is_inf(a))
        return a;

    unpacked x = unpack(a);
    uint64_t m = x.sig;
    int e = x.exp;
    if ((unsigned)e & 1u) { /* make the exponent even */
        m <<= 1;
        e -= 1;
    }
    /* m * 2^38 lies in [2^61, 2^63): the root has 31 or 32 bits. */
    bool exact;
    uint64_t root = isqrt64(m << 38, &exact);
    if (!exact)
        root |= 1;
    return round_pack(0, (e - 38) / 2, root, rm, flags);
}

uint32_t sf_fma_int(uint32_t a, uint32_t b, uint32_t c, int rm, uint32_t *flags)
{
    uint32_t psign = sign_of(a) ^ sign_of(b);

    if (is_snan(a) || is_snan(b) || is_snan(c))
        *flags |= SF_NV;
    /* RISC-V: 0 * inf is invalid even when c is a quiet NaN. */
    if ((is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b))) {
        *flags |= SF_NV;
        return SF_CANONICAL_NAN;
    }
    if (is_nan(a) || is_nan(b) || is_nan(c))
        return SF_CANONICAL_NAN;
    if (is_inf(a) || is_inf(b)) {
        if (is_inf(c) && sign_of(c) != psign) {
            *flags |= SF_NV;
            return SF_CANONICAL_NAN;
        }
        return (psign << 31) | INF_BITS;
    }
    if (is_inf(c))
        return c;
    if (is_zero(a) || is_zero(b)) {
        /* Exact zero product: the sum is exactly c, or a zero whose sign
         * follows the usual rules for adding zeros. */
        if (is_zero(c))
            return sign_of(c) == psign ? c : exact_zero_sum(rm);
        return c;
    }

    unpacked x = unpack(a), y = unpack(b);
    uint64_t prod = (uint64_t)x.sig * y.sig; /* exact, in [2^46, 2^48) */
    int pexp = x.exp + y.exp;
    if (is_zero(c))
        return round_pack(psign, pexp, prod, rm, flags);

    /* Bring both the product and c to a leading one at bit 61.  The
     * product then has 14 or 15 zero bits at the bottom, c has 38. */
    if (prod >> 47) {
        prod <<= 14;
        pexp -= 14;
    } else {
        prod <<= 15;
        pexp -= 15;
    }
    unpacked z = unpack(c);
    uint64_t mc = (uint64_t)z.sig << 38;
    int cexp = z.exp - 38;

    /* Align the smaller-magnitude term to the larger, jamming lost bits.
     * Bits are lost only when the exponent gap exceeds 14, in which case
     * the difference still has its leading one at bit 60 or 61: the jam
     * bit stays far below the rounding point even under subtraction. */
    uint32_t rsign;
    int rexp;
    uint64_t big, small;
    if (pexp > cexp || (pexp == cexp && prod >= mc)) {
        rsign = psign;
        rexp = pexp;
        big = prod;
        small = shift_right_jam(mc, pexp - cexp);
    } else {
        rsign = z.sign;
        rexp = cexp;
        big = mc;
        small = shift_right_jam(prod, cexp - pexp);
    }
    uint64_t sum = (psign == z.sign) ? big + small : big - small;
    if (sum == 0)
        return exact_zero_sum(rm);
    return round_pack(rsign, rexp, sum, rm, flags);
}

/* ---------------------------------------------------------------------- */
/* Min/max and comparisons                                                 */

/* Maps a non-NaN encoding to an unsigned key whose order is the numeric
 * order, with -0 ordered just below +0. */
static uint32_t order_key(uint32_t a)
{
    return (a & SIGN_MASK) ? ~a : (a | SIGN_MASK);
}

uint32_t sf_min(uint32_t a, uint32_t b, uint32_t *flags)
{
    if (is_snan(a) || is_snan(b))
        *flags |= SF_NV;
    if (is_nan(a))
        return is_nan(b) ? SF_CANONICAL_NAN : b;
    if (is_nan(b))
        return a;
    return order_key(a) <= order_key(b) ? a : b;
}

uint32_t sf_max(uint32_t a, uint32_t b, uint32_t *flags)
{
    if (is_snan(a) || is_snan(b))
        *flags |= SF_NV;
    if (is_nan(a))
        return is_nan(b) ? SF_CANONICAL_NAN : b;
    if (is_nan(b))
        return a;
    return order_key(a) >= order_key(b) ? a : b;
}

int sf_eq(uint32_t a, uint32_t b, uint32_t *flags)
{
    if (is_nan(a) || is_nan(b)) {
        if (is_snan(a) || is_snan(b))
            *flags |= SF_NV;
        return 0;
    }
    if (is_zero(a) && is_zero(b))
        return 1;
    return a == b;
}

int sf_lt(uint32_t a, uint32_t b, uint32_t *flags)
{
    if (is_nan(a) || is_nan(b)) {
        *flags |= SF_NV;
        return 0;
    }
    if (is_zero(a) && is_zero(b))
        return 0;
    return order_key(a) < order_key(b);
}

int sf_le(uint32_t a, uint32_t b, uint32_t *flags)
{
    if (is_nan(a) || is_nan(b)) {
        *flags |= SF_NV;
        return 0;
    }
    if (is_zero(a) && is_zero(b))
        return 1;
    return order_key(a) <= order_key(b);
}

uint32_t sf_classify(uint32_t a)
{
    uint32_t neg = sign_of(a);
    uint32_t biased = (a & EXP_MASK) >> 23;
    uint32_t frac = a & FRAC_MASK;
    if (biased == 0xff) {
        if (frac == 0)
            return neg ? 1u << 0 : 1u << 7;
        return (frac & QUIET_BIT) ? 1u << 9 : 1u << 8;
    }
    if (biased == 0) {
        if (frac == 0)
            return neg ? 1u << 3 : 1u << 4;
        return neg ? 1u << 2 : 1u << 5;
    }
    return neg ? 1u << 1 : 1u << 6;
}

/* ---------------------------------------------------------------------- */
/* Conversions                                                             */

/* |a| rounded to an integer per rm (a finite, non-zero), saturated to a
 * value above 2^32 when it cannot fit; *inexact reports a dropped fraction. */
static uint64_t round_to_integer(uint32_t a, int rm, bool *inexact)
{
    unpacked x = unpack(a);
    *inexact = false;
    if (x.exp >= 0)
        return x.exp > 16 ? (UINT64_C(1) << 40) : (uint64_t)x.sig << x.exp;
    int shift = -x.exp;
    uint64_t sig = x.sig;
    if (shift > 63) { /* |a| < 2^-39: only "non-zero" matters */
        sig = 1;
        shift = 63;
    }
    uint64_t half = UINT64_C(1) << (shift - 1);
    uint64_t kept = sig >> shift;
    uint64_t rest = sig & ((half << 1) - 1);
    *inexact = rest != 0;
    if (round_increment(kept, rest, half, x.sign, rm))
        kept++;
    return kept;
}

int32_t sf_to_i32(uint32_t a, int rm, uint32_t *flags)
{
    if (is_nan(a)) {
        *flags |= SF_NV;
        return INT32_MAX;
    }
    bool neg = sign_of(a) != 0;
    if (is_inf(a)) {
        *flags |= SF_NV;
        return neg ? INT32_MIN : INT32_MAX;
    }
    if (is_zero(a))
        return 0;
    bool inexact;
    uint64_t mag = round_to_integer(a, rm, &inexact);
    if (mag > (neg ? UINT64_C(0x80000000) : UINT64_C(0x7fffffff))) {
        *flags |= SF_NV; /* saturate; no NX */
        return neg ? INT32_MIN : INT32_MAX;
    }
    if (inexact)
        *flags |= SF_NX;
    if (neg)
        return mag == UINT64_C(0x80000000) ? INT32_MIN : -(int32_t)mag;
    return (int32_t)mag;
}

uint32_t sf_to_u32(uint32_t a, int rm, uint32_t *flags)
{
    if (is_nan(a)) {
        *flags |= SF_NV;
        return UINT32_MAX;
    }
    bool neg = sign_of(a) != 0;
    if (is_inf(a)) {
        *flags |= SF_NV;
        return neg ? 0 : UINT32_MAX;
    }
    if (is_zero(a))
        return 0;
    bool inexact;
    uint64_t mag = round_to_integer(a, rm, &inexact);
    if (neg) {
        if (mag != 0) { /* rounds to a negative integer: invalid */
            *flags |= SF_NV;
            return 0;
        }
        if (inexact)
            *flags |= SF_NX;
        return 0;
    }
    if (mag > UINT32_MAX) {
        *flags |= SF_NV;
        return UINT32_MAX;
    }
    if (inexact)
        *flags |= SF_NX;
    return (uint32_t)mag;
}

uint32_t sf_from_i32(int32_t a, int rm, uint32_t *flags)
{
    if (a == 0)
        return 0;
    uint32_t sign = a < 0;
    /* magnitude computed in unsigned arithmetic so INT32_MIN is fine */
    uint32_t mag = sign ? 0u - (uint32_t)a : (uint32_t)a;
    return round_pack(sign, 0, mag, rm, flags);
}

uint32_t sf_from_u32(uint32_t a, int rm, uint32_t *flags)
{
    if (a == 0)
        return 0;
    return round_pack(0, 0, a, rm, flags);
}
