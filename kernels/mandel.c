/* mandel.c — Mandelbrot escape times, then a filter and Newton roots (two phases).
 *
 * Phase 1: every pixel of a W x W/2 view of the Mandelbrot set (the view is shifted a
 * little by the seed) iterates z = z^2 + c until |z|^2 > 4 or MAXIT iterations.  Points
 * inside the main cardioid or the period-2 bulb are recognised up front and skip the
 * loop.  Stores the iteration count and the final |z|^2.
 * wsim_barrier().
 * Phase 2: every pixel averages the iteration counts of its 3x3 neighbourhood (pixels
 * computed by other threads in phase 1; border pixels have fewer neighbours, so the
 * divisor varies), then takes the cube root of 1 + |z|^2 by Newton's method (fmaf,
 * division, data-dependent number of steps) and its square root both by Heron's method
 * and by sqrtf, as a self-check.
 *
 * Divergence: the escape loop's trip count (1..MAXIT) differs between neighbouring
 * pixels, the early-out test, `break` on escape, `continue` at the borders, the Newton
 * and Heron loops stop at data-dependent steps.  All float math is single precision
 * IEEE (add, sub, mul, div, fmadd.s, fsqrt.s), bit-identical to the host build.
 *
 * arg: image width W (0 = 32), 4..WMAX; the height is W/2.
 * Self-check: Heron's square root must agree with sqrtf to a few ulps and the cube
 * root must cube back to the input within 1e-5 (relative).
 */
#include "warpsplit.h"

#define WMAX 256u
#define W_DEFAULT 32u
#define MAXIT 96u

static uint32_t iters[WMAX * WMAX / 2];
static float mag2[WMAX * WMAX / 2];   /* |z|^2 when the iteration stopped */
static float smooth[WMAX * WMAX / 2]; /* 3x3 mean of iters */
static float cbrt_[WMAX * WMAX / 2];  /* cube root of 1 + mag2 */
static float sqrt_[WMAX * WMAX / 2];  /* square root of 1 + mag2 (Heron) */
static uint32_t newton_steps[WMAX * WMAX / 2]; /* cube-root steps | Heron steps << 16 */

WSIM_RESULT(iters);
WSIM_RESULT(mag2);
WSIM_RESULT(smooth);
WSIM_RESULT(cbrt_);
WSIM_RESULT(sqrt_);
WSIM_RESULT(newton_steps);

/* Escape time of c = cr + i ci; *m gets |z|^2 at the end. */
static uint32_t escape(float cr, float ci, float *m) {
    float zr = 0.0f, zi = 0.0f, x2 = 0.0f, y2 = 0.0f, q;
    uint32_t k;

    /* Main cardioid and period-2 bulb: certainly inside. */
    q = (cr - 0.25f) * (cr - 0.25f) + ci * ci;
    if (q * (q + (cr - 0.25f)) <= 0.25f * ci * ci || (cr + 1.0f) * (cr + 1.0f) + ci * ci <= 0.0625f) {
        *m = 0.0f;
        return MAXIT;
    }
    for (k = 0; k < MAXIT; k++) {
        x2 = zr * zr;
        y2 = zi * zi;
        if (x2 + y2 > 4.0f)
            break;
        zi = 2.0f * zr * zi + ci;
        zr = x2 - y2 + cr;
    }
    *m = x2 + y2;
    return k;
}

/* Cube root of a >= 1 by Newton's method from x = a; returns the step count. */
static uint32_t newton_cbrt(float a, float *out) {
    float x = a;
    uint32_t k;
    for (k = 0; k < 60; k++) {
        float f = fmaf(x * x, x, -a);   /* x^3 - a, one rounding */
        float step = f / (3.0f * x * x);
        x = x - step;
        if (fabsf(step) <= 1e-6f * x)
            break;
    }
    *out = x;
    return k;
}

/* Square root of a >= 1 by Heron's method, descending from a until it stops. */
static uint32_t heron_sqrt(float a, float *out) {
    float y = a, next;
    uint32_t k;
    for (k = 0; k < 60; k++) {
        next = 0.5f * (y + a / y);
        if (!(next < y))
            break;
        y = next;
    }
    *out = y;
    return k;
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t w = wsim_arg() ? wsim_arg() : W_DEFAULT;
    uint32_t h, n, p, seed = wsim_seed();
    float x0, y0, dx, dy;
    int bad = 0;

    if (w < 4)
        w = 4;
    if (w > WMAX)
        w = WMAX;
    h = w / 2;
    n = w * h;
    /* View [-2.25, 0.75] x [-0.75, 0.75], shifted by up to 1/16 by the seed. */
    x0 = -2.25f + (float)(wsim_mix32(seed) & 1023u) * (1.0f / 16384.0f);
    y0 = -0.75f + (float)(wsim_mix32(seed + 1u) & 1023u) * (1.0f / 16384.0f);
    dx = 3.0f / (float)w;
    dy = 1.5f / (float)h;

    /* Phase 1: escape times. */
    for (p = tid; p < n; p += nthreads) {
        float cr = x0 + (float)(p % w) * dx;
        float ci = y0 + (float)(p / w) * dy;
        iters[p] = escape(cr, ci, &mag2[p]);
    }

    wsim_barrier(); /* phase 2 reads the neighbours' phase-1 results */

    for (p = tid; p < n; p += nthreads) {
        uint32_t x = p % w, y = p / w, sum = 0, cnt = 0, k1, k2;
        int dxi, dyi;
        float a, c, s;

        for (dyi = -1; dyi <= 1; dyi++) {
            if ((dyi < 0 && y == 0) || (dyi > 0 && y + 1 == h))
                continue;
            for (dxi = -1; dxi <= 1; dxi++) {
                if ((dxi < 0 && x == 0) || (dxi > 0 && x + 1 == w))
                    continue;
                sum += iters[(y + (uint32_t)dyi) * w + x + (uint32_t)dxi];
                cnt++;
            }
        }
        smooth[p] = (float)sum / (float)cnt;

        a = 1.0f + mag2[p];
        k1 = newton_cbrt(a, &c);
        k2 = heron_sqrt(a, &s);
        cbrt_[p] = c;
        sqrt_[p] = s;
        newton_steps[p] = k1 | k2 << 16;
        if (fabsf(s - sqrtf(a)) > 4e-7f * s || fabsf(c * c * c - a) > 1e-5f * a)
            bad = 1;
    }
    return bad;
}
