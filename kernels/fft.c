/* fft.c — radix-2 complex FFT (Splash-2 FFT1DOnce style), one barrier per stage.
 *
 * Algorithm: forward DFT X[k] = sum_j x[j] exp(-2 pi i jk/n) of n = 2^m complex
 * single-precision points, in place, by the iterative radix-2 Cooley-Tukey network of
 * Splash-2's FFT1DOnce(): Reverse() (bit-reversal permutation, swapping x[k] and
 * x[BitReverse(k)] when BitReverse(k) > k), then m butterfly stages; stage q combines
 * pairs L/2 apart (L = 2^q) with the roots of unity of that stage, which Splash-2
 * keeps in one table u[] (InitU: u[L/2 - 1 + j] = exp(-i pi j/(L/2))).  Data
 * interleaved re/im as in Splash-2.  Splash-2's full FFT is the six-step (transpose)
 * form built from these radix-2 1-D FFTs; here the whole array is one radix-2 FFT, the
 * "butterfly computation" of the Dynamic Warp Subdivision papers (FFT in Table 1 of
 * paper 000, 2^15 points, and Table 2 of paper 001, 2^16 points).
 *
 * No libm: the roots of unity come from a Taylor polynomial of sin and cos on
 * [0, pi/4] (Horner with fmaf) after an exact octant reduction of the angle j/d of a
 * turn (d a power of two), identical on the RISC-V and host builds.
 *
 * Work distribution (the papers' §3.1): every phase is a data-parallel loop with
 * consecutive items on consecutive threads, `for (i = tid; i < N; i += nthreads)`
 * (`WSIM_FOR(i, 0, N)`: the tasks build maps them by --task, docs/tasks.md),
 * then a barrier: the input/roots phase, Reverse(), each butterfly
 * stage (n/2 butterflies; butterfly b of stage q is pair j = b mod L/2 of group
 * b div L/2, so a warp takes neighbouring pairs), the check terms, and each level of
 * a reduction tree.
 *
 * Divergence: the swap in Reverse() (taken for about half of the items, mixed within
 * every warp); the octant case of each root (4 ways, per item); the sign case of the
 * check's root lookup; loop tails when the item counts are not multiples of the thread
 * count; the rest (the butterflies) is straight-line, with the long loop bodies and
 * strided, power-of-two-apart memory accesses of the paper's FFT.
 *
 * Inputs: x[j] = (re, im) uniform in [-1, 1), from (seed, j).
 * arg: 0 = tiny (2^10), 1 = small (2^13), 2 = paper 000 (2^15); >= 3: n points rounded
 *      up to a power of two (at least 8, at most 2^16 = paper 001).
 * Result: the spectrum x[] (interleaved re, im) and check[] = {input energy, output
 * energy / n, FFT and direct DFT of bins 1 and k2 (re, im)}.
 * Self-check: Parseval (sum |X|^2 = n sum |x|^2, within 1e-5 relative) and two bins
 * (1 and a seed-chosen k2) against a direct DFT evaluated in parallel (terms per item,
 * summed in the same barrier-separated reduction tree), within 1e-5 of the rms bin
 * magnitude sqrt(sum |X|^2 / n).
 */
#include "tasks.h"

#define LOGN_MAX 16u
#define NMAX (1u << LOGN_MAX)
#define NRED 6u /* reduced quantities: |x|^2, |X|^2, direct DFT of two bins (re, im) */

static float x[2 * NMAX];          /* data, re/im interleaved (Splash-2 layout) */
static float u[2 * NMAX];          /* roots of unity per stage (Splash-2's u[]) */
static float red[NRED][NMAX];      /* reduction tree scratch */
static float check[2 + 8];         /* energies, then bins 1 and k2: FFT re, im, DFT re, im */

WSIM_RESULT(x);
WSIM_RESULT(check);

/* Input point j. */
static void input(uint32_t seed, uint32_t j, float *re, float *im) {
    wsim_rng g = wsim_rng_init(seed, j);
    *re = 2.0f * wsim_rand_unit(&g) - 1.0f;
    *im = 2.0f * wsim_rand_unit(&g) - 1.0f;
}

/* sin and cos of t in [0, pi/4]: Taylor polynomials to t^11 / t^12 (error < 1e-9). */
static float sin_poly(float t) {
    float t2 = t * t, p = -1.0f / 39916800.0f;
    p = fmaf(p, t2, 1.0f / 362880.0f);
    p = fmaf(p, t2, -1.0f / 5040.0f);
    p = fmaf(p, t2, 1.0f / 120.0f);
    p = fmaf(p, t2, -1.0f / 6.0f);
    return fmaf(p * t2, t, t);
}
static float cos_poly(float t) {
    float t2 = t * t, p = 1.0f / 479001600.0f;
    p = fmaf(p, t2, -1.0f / 3628800.0f);
    p = fmaf(p, t2, 1.0f / 40320.0f);
    p = fmaf(p, t2, -1.0f / 720.0f);
    p = fmaf(p, t2, 1.0f / 24.0f);
    p = fmaf(p, t2, -0.5f);
    return fmaf(p, t2, 1.0f);
}

/* cos and sin of 2 pi j/d for 0 <= j < d/2, d a power of two >= 2.  The angle is
 * o eighths of a turn plus r/d of an eighth (o = 8j div d, r = 8j mod d, exact). */
static void unit_root(uint32_t j, uint32_t d, float *c, float *s) {
    uint32_t o = 8u * j / d, r = 8u * j - o * d;
    float scale = 0.785398163397f / (float)d; /* (pi/4)/d: exact power-of-two scaling */
    float t = (float)r * scale, tc = (float)(d - r) * scale;

    if (o == 0) { /* [0, pi/4) */
        *c = cos_poly(t);
        *s = sin_poly(t);
    } else if (o == 1) { /* pi/2 - tc */
        *c = sin_poly(tc);
        *s = cos_poly(tc);
    } else if (o == 2) { /* pi/2 + t */
        *c = -sin_poly(t);
        *s = cos_poly(t);
    } else { /* pi - tc */
        *c = -cos_poly(tc);
        *s = sin_poly(tc);
    }
}

/* Splash-2's BitReverse(M, k). */
static uint32_t bit_reverse(uint32_t m, uint32_t k) {
    uint32_t i, j = 0;
    for (i = 0; i < m; i++) {
        j = 2u * j + (k & 1u);
        k >>= 1;
    }
    return j;
}

/* exp(-2 pi i e/n) for any exponent e < n, from the last stage's roots. */
static void root_of(uint32_t e, uint32_t n, float *wr, float *wi) {
    const float *ul = &u[2 * (n / 2 - 1)];
    if (e < n / 2) {
        *wr = ul[2 * e];
        *wi = ul[2 * e + 1];
    } else { /* w^(n/2) = -1 */
        *wr = -ul[2 * (e - n / 2)];
        *wi = -ul[2 * (e - n / 2) + 1];
    }
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t arg = wsim_arg(), seed = wsim_seed();
    uint32_t n, m, i, q, h, k2;
    float ein, eout, tol, d;
    int bad = 0;

    if (arg == 0)
        m = 10;
    else if (arg == 1)
        m = 13;
    else if (arg == 2)
        m = 15;
    else
        for (m = 3; m < LOGN_MAX && (1u << m) < arg; m++)
            ;
    n = 1u << m;
    k2 = (wsim_mix32(seed ^ 0x2545f491u) & (n - 1u)) | 2u; /* a bin other than 0 and 1 */

    /* Inputs, input energies, and the roots of unity (InitU): entry t belongs to the
     * stage with L/2 = lstar, the largest power of two <= t + 1. */
    WSIM_FOR(i, 0, n) {
        float re, im;
        input(seed, i, &re, &im);
        x[2 * i] = re;
        x[2 * i + 1] = im;
        red[0][i] = re * re + im * im;
    }
    WSIM_FOR(i, 0, n - 1) {
        uint32_t lstar = 1, j;
        float c, s;
        while (2u * lstar <= i + 1u)
            lstar *= 2u;
        j = i + 1u - lstar;
        unit_root(j, 2u * lstar, &c, &s);
        u[2 * i] = c;
        u[2 * i + 1] = -s; /* forward transform: exp(-i angle) */
    }
    wsim_roi_begin(); /* the measured phase: the bit reversal and the butterflies */

    /* Reverse(): bit-reversal permutation, each pair swapped by its lower index. */
    WSIM_FOR(i, 0, n) {
        uint32_t j = bit_reverse(m, i);
        if (j > i) {
            float tr = x[2 * j], ti = x[2 * j + 1];
            x[2 * j] = x[2 * i];
            x[2 * j + 1] = x[2 * i + 1];
            x[2 * i] = tr;
            x[2 * i + 1] = ti;
        }
    }
    wsim_barrier();

    /* The butterfly stages. */
    for (q = 1; q <= m; q++) {
        uint32_t lstar = 1u << (q - 1), l = 2u * lstar, b;
        const float *u1 = &u[2 * (lstar - 1)];
        WSIM_FOR(b, 0, n / 2) {
            uint32_t k = b >> (q - 1), j = b & (lstar - 1u);
            float *x1 = &x[2 * (k * l + j)], *x2 = x1 + 2 * lstar;
            float omega_r = u1[2 * j], omega_c = u1[2 * j + 1];
            float x_r = x2[0], x_c = x2[1];
            float tau_r = omega_r * x_r - omega_c * x_c;
            float tau_c = omega_r * x_c + omega_c * x_r;
            x_r = x1[0];
            x_c = x1[1];
            x2[0] = x_r - tau_r;
            x2[1] = x_c - tau_c;
            x1[0] = x_r + tau_r;
            x1[1] = x_c + tau_c;
        }
        wsim_barrier();
    }
    wsim_roi_end();

    /* Check terms: output energy and the direct DFT of bins 1 and k2, term by term. */
    WSIM_FOR(i, 0, n) {
        float re, im, wr, wi;
        red[1][i] = x[2 * i] * x[2 * i] + x[2 * i + 1] * x[2 * i + 1];
        input(seed, i, &re, &im);
        root_of(i, n, &wr, &wi); /* bin 1: exponent i */
        red[2][i] = re * wr - im * wi;
        red[3][i] = re * wi + im * wr;
        root_of((i * k2) & (n - 1u), n, &wr, &wi); /* bin k2: exponent i*k2 mod n */
        red[4][i] = re * wr - im * wi;
        red[5][i] = re * wi + im * wr;
    }
    wsim_barrier();
    for (h = n / 2; h > 0; h /= 2) { /* fixed pairing: the same sums for any thread count */
        WSIM_FOR(i, 0, h) {
            uint32_t c;
            for (c = 0; c < NRED; c++)
                red[c][i] += red[c][i + h];
        }
        wsim_barrier();
    }

    ein = red[0][0];
    eout = red[1][0];
    tol = 1e-5f * sqrtf(eout / (float)n); /* 1e-5 of the rms bin magnitude */
    if (!(fabsf(eout - (float)n * ein) <= 1e-5f * eout))
        bad = 1;
    if (!(fabsf(x[2] - red[2][0]) <= tol && fabsf(x[3] - red[3][0]) <= tol))
        bad = 1;
    d = fabsf(x[2 * k2] - red[4][0]);
    if (!(d <= tol && fabsf(x[2 * k2 + 1] - red[5][0]) <= tol))
        bad = 1;
    if (tid == 0) {
        check[0] = ein;
        check[1] = eout / (float)n;
        check[2] = x[2];
        check[3] = x[3];
        check[4] = red[2][0];
        check[5] = red[3][0];
        check[6] = x[2 * k2];
        check[7] = x[2 * k2 + 1];
        check[8] = red[4][0];
        check[9] = red[5][0];
    }
    return bad;
}
