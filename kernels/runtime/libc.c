/* libc.c — freestanding support for RISC-V kernels (rv32imf, ilp32f).
 *
 * The routines clang may call on its own: memcpy/memset/memmove/memcmp for block copies
 * and initialisers, and the libgcc/compiler-rt helpers that rv32 has no instruction for
 * (64-bit division, 64-bit <-> float conversion, bit counting).  Division by zero
 * follows the RISC-V M extension (quotient all ones, remainder = dividend); overflowing
 * signed division gives the dividend; float -> integer conversion truncates and
 * saturates like fcvt (NaN -> the largest value).
 *
 * Compiled only for RISC-V, with -ffreestanding (so clang does not turn these loops
 * back into calls to themselves).
 */
#include <stddef.h>
#include <stdint.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memset(void *dst, int c, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);

/* ---- memory ------------------------------------------------------------------------ */

void *memcpy(void *restrict dst, const void *restrict src, size_t n) {
    unsigned char *d = dst;
    const unsigned char *s = src;
    if ((((uintptr_t)d | (uintptr_t)s) & 3u) == 0) {
        for (; n >= 4; n -= 4, d += 4, s += 4)
            *(uint32_t *)(void *)d = *(const uint32_t *)(const void *)s;
    }
    while (n--)
        *d++ = *s++;
    return dst;
}

void *memset(void *dst, int c, size_t n) {
    unsigned char *d = dst;
    if (((uintptr_t)d & 3u) == 0) {
        uint32_t w = (uint32_t)(unsigned char)c * 0x01010101u;
        for (; n >= 4; n -= 4, d += 4)
            *(uint32_t *)(void *)d = w;
    }
    while (n--)
        *d++ = (unsigned char)c;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n) {
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d == s || n == 0)
        return dst;
    if (d < s || d >= s + n) {
        while (n--)
            *d++ = *s++;
    } else {
        d += n;
        s += n;
        while (n--)
            *--d = *--s;
    }
    return dst;
}

int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *p = a, *q = b;
    for (; n != 0; n--, p++, q++) {
        if (*p != *q)
            return *p < *q ? -1 : 1;
    }
    return 0;
}

/* ---- bit counting ------------------------------------------------------------------ */

int __clzsi2(uint32_t x);
int __ctzsi2(uint32_t x);
int __popcountsi2(uint32_t x);
int __clzdi2(uint64_t x);
int __ctzdi2(uint64_t x);
int __popcountdi2(uint64_t x);

/* Number of leading zeros; 32 for x == 0. Binary search, no loops. */
static int clz32(uint32_t x) {
    int n = 0;
    if (x == 0)
        return 32;
    if ((x & 0xFFFF0000u) == 0) { n += 16; x <<= 16; }
    if ((x & 0xFF000000u) == 0) { n += 8; x <<= 8; }
    if ((x & 0xF0000000u) == 0) { n += 4; x <<= 4; }
    if ((x & 0xC0000000u) == 0) { n += 2; x <<= 2; }
    if ((x & 0x80000000u) == 0) { n += 1; }
    return n;
}

static int ctz32(uint32_t x) {
    int n = 0;
    if (x == 0)
        return 32;
    if ((x & 0x0000FFFFu) == 0) { n += 16; x >>= 16; }
    if ((x & 0x000000FFu) == 0) { n += 8; x >>= 8; }
    if ((x & 0x0000000Fu) == 0) { n += 4; x >>= 4; }
    if ((x & 0x00000003u) == 0) { n += 2; x >>= 2; }
    if ((x & 0x00000001u) == 0) { n += 1; }
    return n;
}

static int clz64(uint64_t x) {
    uint32_t hi = (uint32_t)(x >> 32);
    return hi != 0 ? clz32(hi) : 32 + clz32((uint32_t)x);
}

static int popcount32(uint32_t x) {
    int n = 0;
    for (; x != 0; x >>= 4)
        n += (0x4332322132212110ull >> ((x & 0xFu) * 4)) & 0xFu; /* nibble table */
    return n;
}

int __clzsi2(uint32_t x) { return clz32(x); }
int __ctzsi2(uint32_t x) { return ctz32(x); }
int __popcountsi2(uint32_t x) { return popcount32(x); }
int __clzdi2(uint64_t x) { return clz64(x); }
int __ctzdi2(uint64_t x) {
    uint32_t lo = (uint32_t)x;
    return lo != 0 ? ctz32(lo) : 32 + ctz32((uint32_t)(x >> 32));
}
int __popcountdi2(uint64_t x) { return popcount32((uint32_t)x) + popcount32((uint32_t)(x >> 32)); }

/* ---- 64-bit division ----------------------------------------------------------------- */

uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem);
uint64_t __udivdi3(uint64_t n, uint64_t d);
uint64_t __umoddi3(uint64_t n, uint64_t d);
int64_t __divdi3(int64_t n, int64_t d);
int64_t __moddi3(int64_t n, int64_t d);
int64_t __divmoddi4(int64_t n, int64_t d, int64_t *rem);

static uint64_t udivmod64(uint64_t n, uint64_t d, uint64_t *rem) {
    uint64_t q;
    int shift, i;
    if (d == 0) { /* RISC-V divu/remu semantics */
        *rem = n;
        return ~(uint64_t)0;
    }
    if ((d >> 32) == 0) {
        uint32_t dl = (uint32_t)d;
        if ((n >> 32) == 0) { /* 32 / 32: one divu, one remu */
            uint32_t nl = (uint32_t)n;
            *rem = nl % dl;
            return nl / dl;
        }
        if (dl <= 0xFFFFu) { /* long division in 16-bit digits, each step a 32/32 divu */
            uint32_t nh = (uint32_t)(n >> 32), r, t, q1, q0, qh;
            qh = nh / dl;
            r = nh % dl;
            t = (r << 16) | ((uint32_t)n >> 16);
            q1 = t / dl;
            r = t % dl;
            t = (r << 16) | ((uint32_t)n & 0xFFFFu);
            q0 = t / dl;
            r = t % dl;
            *rem = r;
            return ((uint64_t)qh << 32) | (q1 << 16) | q0;
        }
    }
    if (n < d) {
        *rem = n;
        return 0;
    }
    /* Shift-subtract, one quotient bit per step, from the highest possible bit. */
    shift = clz64(d) - clz64(n);
    d <<= shift;
    q = 0;
    for (i = 0; i <= shift; i++) {
        q <<= 1;
        if (n >= d) {
            n -= d;
            q |= 1;
        }
        d >>= 1;
    }
    *rem = n;
    return q;
}

uint64_t __udivmoddi4(uint64_t n, uint64_t d, uint64_t *rem) {
    uint64_t r;
    uint64_t q = udivmod64(n, d, &r);
    if (rem)
        *rem = r;
    return q;
}

uint64_t __udivdi3(uint64_t n, uint64_t d) {
    uint64_t r;
    return udivmod64(n, d, &r);
}

uint64_t __umoddi3(uint64_t n, uint64_t d) {
    uint64_t r;
    udivmod64(n, d, &r);
    return r;
}

#define I64_MIN ((int64_t)((uint64_t)1 << 63))

/* Signed: truncating toward zero, remainder has the dividend's sign (C semantics). */
int64_t __divmoddi4(int64_t n, int64_t d, int64_t *rem) {
    uint64_t un, ud, q, r;
    int64_t sq, sr;
    if (d == 0) {
        sq = -1;
        sr = n;
    } else if (n == I64_MIN && d == -1) {
        sq = n;
        sr = 0;
    } else {
        un = n < 0 ? 0 - (uint64_t)n : (uint64_t)n;
        ud = d < 0 ? 0 - (uint64_t)d : (uint64_t)d;
        q = udivmod64(un, ud, &r);
        sq = (int64_t)(((n < 0) != (d < 0)) ? 0 - q : q);
        sr = (int64_t)(n < 0 ? 0 - r : r);
    }
    if (rem)
        *rem = sr;
    return sq;
}

int64_t __divdi3(int64_t n, int64_t d) { return __divmoddi4(n, d, 0); }

int64_t __moddi3(int64_t n, int64_t d) {
    int64_t r;
    __divmoddi4(n, d, &r);
    return r;
}

/* ---- 64-bit multiply and shifts (normally inlined by clang; here for completeness) -- */

uint64_t __muldi3(uint64_t a, uint64_t b);
uint64_t __ashldi3(uint64_t a, int s);
uint64_t __lshrdi3(uint64_t a, int s);
int64_t __ashrdi3(int64_t a, int s);

uint64_t __muldi3(uint64_t a, uint64_t b) {
    uint32_t al = (uint32_t)a, ah = (uint32_t)(a >> 32);
    uint32_t bl = (uint32_t)b, bh = (uint32_t)(b >> 32);
    uint64_t lo = (uint64_t)al * bl; /* mul + mulhu */
    return lo + ((uint64_t)(al * bh + ah * bl) << 32);
}

uint64_t __ashldi3(uint64_t a, int s) {
    uint32_t lo = (uint32_t)a, hi = (uint32_t)(a >> 32);
    s &= 63;
    if (s == 0)
        return a;
    if (s >= 32)
        return (uint64_t)(lo << (s - 32)) << 32;
    return ((uint64_t)((hi << s) | (lo >> (32 - s))) << 32) | (uint32_t)(lo << s);
}

uint64_t __lshrdi3(uint64_t a, int s) {
    uint32_t lo = (uint32_t)a, hi = (uint32_t)(a >> 32);
    s &= 63;
    if (s == 0)
        return a;
    if (s >= 32)
        return hi >> (s - 32);
    return ((uint64_t)(hi >> s) << 32) | ((lo >> s) | (hi << (32 - s)));
}

int64_t __ashrdi3(int64_t a, int s) {
    uint64_t u = (uint64_t)a;
    s &= 63;
    if (s == 0)
        return a;
    if (a >= 0)
        return (int64_t)__lshrdi3(u, s);
    return (int64_t)~__lshrdi3(~u, s); /* arithmetic shift of a negative number */
}

/* ---- 64-bit integer <-> float ------------------------------------------------------- */

int64_t __fixsfdi(float f);
uint64_t __fixunssfdi(float f);
float __floatdisf(int64_t x);
float __floatundisf(uint64_t x);

static uint32_t f2u(float f) {
    union { float f; uint32_t u; } v;
    v.f = f;
    return v.u;
}

static float u2f(uint32_t u) {
    union { float f; uint32_t u; } v;
    v.u = u;
    return v.f;
}

/* |f| truncated toward zero, for a biased exponent e and e - 127 < 64. */
static uint64_t trunc_mag(uint32_t bits) {
    int e = (int)((bits >> 23) & 0xFFu) - 127;
    uint64_t m = (bits & 0x7FFFFFu) | 0x800000u;
    if (e < 0)
        return 0;
    return e >= 23 ? m << (e - 23) : m >> (23 - e);
}

int64_t __fixsfdi(float f) {
    uint32_t b = f2u(f);
    int e = (int)((b >> 23) & 0xFFu) - 127;
    int neg = (int)(b >> 31);
    uint64_t mag;
    if (e == 128 && (b & 0x7FFFFFu) != 0) /* NaN */
        return INT64_MAX;
    if (e >= 63)
        return neg ? I64_MIN : INT64_MAX;
    mag = trunc_mag(b);
    return neg ? (int64_t)(0 - mag) : (int64_t)mag;
}

uint64_t __fixunssfdi(float f) {
    uint32_t b = f2u(f);
    int e = (int)((b >> 23) & 0xFFu) - 127;
    if (e == 128 && (b & 0x7FFFFFu) != 0) /* NaN */
        return UINT64_MAX;
    if (b >> 31) /* negative (including -0): anything above -1 truncates to 0 */
        return 0;
    if (e >= 64)
        return UINT64_MAX;
    return trunc_mag(b);
}

/* Round-to-nearest-even conversion of a magnitude, as fcvt with fcsr.frm = RNE. */
float __floatundisf(uint64_t x) {
    int msb, shift;
    uint64_t rest, half;
    uint32_t mant;
    if ((x >> 32) == 0)
        return (float)(uint32_t)x; /* fcvt.s.wu */
    msb = 63 - clz64(x);           /* >= 32 */
    shift = msb - 23;              /* >= 9 */
    mant = (uint32_t)(x >> shift);
    rest = x & (((uint64_t)1 << shift) - 1);
    half = (uint64_t)1 << (shift - 1);
    if (rest > half || (rest == half && (mant & 1u)))
        mant++;
    if (mant == 0x1000000u) {
        mant >>= 1;
        msb++;
    }
    return u2f(((uint32_t)(msb + 127) << 23) | (mant & 0x7FFFFFu));
}

float __floatdisf(int64_t x) {
    if (x < 0)
        return -__floatundisf(0 - (uint64_t)x);
    return __floatundisf((uint64_t)x);
}
