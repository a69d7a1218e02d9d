/* blackscholes.c — European option pricing with the Black-Scholes formula.
 *
 * Benchmark "blackscholes" of seed 004 (Narasiman et al., Table 2: "Call/put option
 * pricing using blackscholes equation", input "Initial values for 512K options"); 004
 * adapted it from existing suites (PARSEC's blackscholes and the CUDA SDK's
 * BlackScholes compute the same thing).  This keeps PARSEC's BlkSchlsEqEuroNoDiv()
 * and CNDF() (the Abramowitz-Stegun 26.2.17 polynomial for the normal CDF, with its
 * `if (InputX < 0)` sign test) in single precision, with the options as separate
 * arrays (the GPU layout: the lanes of a warp read neighbouring words):
 *   0. the options from (seed, option): spot 10..200, strike 0.5..1.5 x spot, rate
 *      1..10 %, volatility 5..65 %, time 0.05..3 years, call or put;
 *   1. one task per option: d1 = (ln(S/K) + (r + v^2/2) T) / (v sqrt T), d2 = d1 -
 *      v sqrt T, price = S N(d1) - K e^(-rT) N(d2) for a call and K e^(-rT) (1 - N(d2))
 *      - S (1 - N(d1)) for a put (PARSEC's otype branch);
 *   2. self-check.
 * No libm (kernels/README.md): expf and logf are our own from + - * / and fmaf, exact
 * to a few ulp on both builds because they use nothing else:
 *   expf: x clamped to [-87, 87], x = k ln2 + r, k = round(x / ln2) (by a float-to-int conversion of a positive
 *         value), r by Cody-Waite with a two-part ln2, e^r by its degree-6 Taylor
 *         polynomial (|r| <= 0.35: error < 4e-7 relative), times 2^k built in the
 *         exponent bits;
 *   logf: x = 2^e m with m in [sqrt(1/2), sqrt(2)) (a data-dependent branch halves m),
 *         ln m = 2 atanh(s), s = (m - 1) / (m + 1), by its odd series to s^9.
 *
 * Divergence: CNDF's sign test (twice per option: d1 and d2 are negative for options
 * out of the money), the call/put branch and logf's mantissa branch, all per lane; the
 * rest is straight-line floating point (004 counts blackscholes among its right-hand,
 * non-branch-limited benchmarks).  Memory: six input arrays and one output streamed,
 * one word per lane.
 *
 * arg: 0 = tiny (2,048 options), 1 = small (32,768), 2 = paper (524,288 = 512K, 004's
 *      input as is: about 150 M thread instructions); N >= 3 = N options (at most 512K).
 * Result: the option prices; check = {options, calls, options failing the bounds,
 *      sampled options failing parity, function check flags}.
 * Self-check (exit code): every price lies within its no-arbitrage bounds (a call in
 *      [max(0, S - K e^-rT), S], a put in [max(0, K e^-rT - S), K e^-rT], with a small
 *      tolerance); every CHECK-th option's other type is priced too and put-call parity
 *      C - P = S - K e^-rT holds to 1e-4 relative, and expf(logf(x)) returns x to 1e-6
 *      relative; one task checks expf(1), logf(2), expf(-20), logf(1e-3) and CNDF(0),
 *      CNDF(1.96) against their known values.
 */
#include "warpsplit.h"

#define NMAX 524288u
#define CHECK 64u /* parity check for every CHECK-th option */
#define SUMS 64u  /* groups per partial sum */

static float spot[NMAX], strike[NMAX], rate[NMAX], vol[NMAX], otime[NMAX];
static uint8_t otype[NMAX];       /* 0 = call, 1 = put */
static float price[NMAX];
static uint8_t oob[NMAX];         /* 1 where a price is outside its bounds */
static uint32_t flags[NMAX / CHECK]; /* per group of CHECK options: failures */
static uint32_t calls[NMAX / CHECK];  /* per group: calls */
static uint32_t part[3][NMAX / CHECK / SUMS]; /* per SUMS groups: calls, bound, parity */
static uint32_t check[5];

WSIM_RESULT(price);
WSIM_RESULT(check);

#define LN2_HI 0.693145751953125f   /* ln 2 with its low 12 mantissa bits clear */
#define LN2_LO 1.42860682030941723212e-6f
#define INV_LN2 1.44269504088896341f
#define INV_SQRT_2PI 0.39894228040143270286f

typedef union {
    float f;
    uint32_t u;
} fbits;

/* e^x; x is clamped to [-87, 87] (CNDF's -d^2/2 goes far below: e^-87 = 1.6e-38, a
 * normal float, is as good as 0 there; PARSEC's libm expf returns 0 or a subnormal). */
static float my_expf(float x) {
    fbits s;
    int32_t k;
    float kf, r, p;
    x = x < -87.0f ? -87.0f : x;
    x = x > 87.0f ? 87.0f : x;
    k = (int32_t)(x * INV_LN2 + 128.5f) - 128; /* round(x / ln 2), argument > 0 */
    kf = (float)k;
    r = fmaf(-kf, LN2_LO, fmaf(-kf, LN2_HI, x));
    p = 1.0f / 720.0f;
    p = fmaf(p, r, 1.0f / 120.0f);
    p = fmaf(p, r, 1.0f / 24.0f);
    p = fmaf(p, r, 1.0f / 6.0f);
    p = fmaf(p, r, 0.5f);
    p = fmaf(p, r, 1.0f);
    p = fmaf(p, r, 1.0f);
    s.u = (uint32_t)(k + 127) << 23;
    return p * s.f;
}

/* ln x for a positive normal x. */
static float my_logf(float x) {
    fbits b;
    int32_t e;
    float m, s, s2, p;
    b.f = x;
    e = (int32_t)(b.u >> 23) - 127;
    b.u = (b.u & 0x7fffffu) | 0x3f800000u; /* m in [1, 2) */
    m = b.f;
    if (m > 1.41421356f) {
        m = m * 0.5f;
        e++;
    }
    s = (m - 1.0f) / (m + 1.0f);
    s2 = s * s;
    p = 1.0f / 9.0f;
    p = fmaf(p, s2, 1.0f / 7.0f);
    p = fmaf(p, s2, 1.0f / 5.0f);
    p = fmaf(p, s2, 1.0f / 3.0f);
    p = fmaf(p, s2, 1.0f);
    return fmaf((float)e, LN2_HI, fmaf((float)e, LN2_LO, 2.0f * s * p));
}

/* PARSEC's CNDF: the normal cumulative distribution (Abramowitz-Stegun 26.2.17). */
static float cndf(float x) {
    int sign = 0;
    float k, k2, k3, k4, k5, local, local2, nprime;
    if (x < 0.0f) {
        x = -x;
        sign = 1;
    }
    nprime = my_expf(-0.5f * x * x) * INV_SQRT_2PI;
    k = 1.0f / (1.0f + 0.2316419f * x);
    k2 = k * k;
    k3 = k2 * k;
    k4 = k3 * k;
    k5 = k4 * k;
    local2 = k2 * -0.356563782f + k3 * 1.781477937f;
    local2 = local2 + k4 * -1.821255978f;
    local2 = local2 + k5 * 1.330274429f;
    local = 1.0f - (local2 + k * 0.319381530f) * nprime;
    if (sign)
        local = 1.0f - local;
    return local;
}

/* PARSEC's BlkSchlsEqEuroNoDiv; *fv = K e^(-rT).  Inlined: as a call its prologue
 * saves a dozen registers on the thread's stack per option, and at 1,024 threads the
 * stacks (16 KiB apart) share a few L1 sets. */
static inline __attribute__((always_inline)) float bs_price(float s, float k, float r, float v, float t, int put, float *fv) {
    float sqrt_t = sqrtf(t), den = v * sqrt_t;
    float d1 = ((r + v * v * 0.5f) * t + my_logf(s / k)) / den, d2 = d1 - den;
    float n1 = cndf(d1), n2 = cndf(d2);
    *fv = k * my_expf(-r * t);
    if (put == 0)
        return s * n1 - *fv * n2;
    return *fv * (1.0f - n2) - s * (1.0f - n1);
}

static uint32_t problem_size(uint32_t arg) {
    if (arg == 0)
        return 2048u;
    if (arg == 1)
        return 32768u;
    if (arg == 2)
        return NMAX;
    return arg < NMAX ? arg : NMAX;
}

/* |a - b| <= tol * scale, without a branch. */
static int near(float a, float b, float tol, float scale) { return fabsf(a - b) <= tol * scale; }

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t seed = wsim_seed(), n = problem_size(wsim_arg()), i, ng;
    int bad = 0;

    /* Phase 0: the options, from two random words each (16-bit spot and strike
     * fractions; 10/11/10 bits of rate, volatility and time; the type). */
    for (i = tid; i < n; i += nthreads) {
        uint32_t h1 = wsim_hash3(seed, i, 1), h2 = wsim_hash3(seed, i, 2);
        float s = 10.0f + 190.0f / 65536.0f * (float)(h1 >> 16);
        spot[i] = s;
        strike[i] = s * (0.5f + 1.0f / 65536.0f * (float)(h1 & 0xffffu));
        rate[i] = 0.01f + 0.09f / 1024.0f * (float)(h2 >> 22);
        vol[i] = 0.05f + 0.6f / 2048.0f * (float)((h2 >> 11) & 2047u);
        otime[i] = 0.05f + 2.95f / 1024.0f * (float)((h2 >> 1) & 1023u);
        otype[i] = (uint8_t)(h2 & 1u);
    }
    wsim_roi_begin(); /* the measured phase: the prices */

    /* Phase 1: price every option; its no-arbitrage bounds. */
    for (i = tid; i < n; i += nthreads) {
        float s = spot[i], fv, lo, hi, p;
        int put = otype[i];
        p = bs_price(s, strike[i], rate[i], vol[i], otime[i], put, &fv);
        price[i] = p;
        lo = put ? fv - s : s - fv;
        hi = put ? fv : s;
        lo = lo > 0.0f ? lo : 0.0f;
        /* a tolerance of 1e-5 of the prices involved (rounding of n1, n2 near 0 or 1) */
        oob[i] = (uint8_t)((p < lo - 1e-5f * (s + fv)) | (p > hi + 1e-5f * (s + fv)));
    }
    wsim_roi_end();

    /* Phase 2: sampled parity and expf/logf consistency; bound failures per group. */
    for (i = tid; i * CHECK < n; i += nthreads) {
        uint32_t o = i * CHECK, j, f = 0, nc = 0;
        float s = spot[o], k = strike[o], fv, other, c, p, x = s / k;
        other = bs_price(s, k, rate[o], vol[o], otime[o], otype[o] ^ 1, &fv);
        c = otype[o] ? other : price[o];
        p = otype[o] ? price[o] : other;
        f |= (uint32_t)!near(c - p, s - fv, 1e-4f, s + fv) << 1;
        f |= (uint32_t)!near(my_expf(my_logf(x)), x, 1e-6f, x) << 2;
        for (j = o; j < o + CHECK && j < n; j++) { /* the group's bound failures, calls */
            f += (uint32_t)oob[j] << 8;
            nc += otype[j] == 0;
        }
        flags[i] = f;
        calls[i] = nc;
        bad |= f != 0;
    }
    wsim_barrier();

    /* Phase 3: partial sums over SUMS groups each, then the totals and the known
     * values (one task). */
    ng = (n + CHECK - 1u) / CHECK;
    for (i = tid; i * SUMS < ng; i += nthreads) {
        uint32_t j, c = 0, b = 0, p = 0;
        for (j = i * SUMS; j < (i + 1u) * SUMS && j < ng; j++) {
            c += calls[j];
            b += flags[j] >> 8;
            p += (flags[j] & 6u) != 0;
        }
        part[0][i] = c;
        part[1][i] = b;
        part[2][i] = p;
    }
    wsim_barrier();
    for (i = tid; i < 1u; i += nthreads) {
        uint32_t j, c = 0, b = 0, p = 0, fn = 0;
        for (j = 0; j * SUMS < ng; j++) {
            c += part[0][j];
            b += part[1][j];
            p += part[2][j];
        }
        fn |= !near(my_expf(1.0f), 2.71828183f, 1e-6f, 2.71828183f);
        fn |= !near(my_logf(2.0f), 0.69314718f, 1e-6f, 0.69314718f) << 1;
        fn |= !near(my_expf(-20.0f), 2.06115362e-9f, 1e-6f, 2.06115362e-9f) << 2;
        fn |= !near(my_logf(1e-3f), -6.90775528f, 1e-6f, 6.90775528f) << 3;
        fn |= !near(cndf(0.0f), 0.5f, 1e-6f, 1.0f) << 4;
        fn |= !near(cndf(1.96f), 0.97500210f, 1e-6f, 1.0f) << 5;
        check[0] = n;
        check[1] = c;
        check[2] = b;
        check[3] = p;
        check[4] = fn;
        bad |= (b | p | fn) != 0;
    }
    return bad;
}
