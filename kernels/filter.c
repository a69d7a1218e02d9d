/* filter.c — edge detection on a grey image: 3x3 Sobel convolution.
 *
 * Algorithm: every interior pixel gathers its 3x3 neighbourhood and convolves it with
 * the Sobel kernels KX and KY (integer weights, exact integer sums gx, gy); the output
 * is the gradient magnitude sqrtf(gx^2 + gy^2).  The Euclidean magnitude is the
 * standard Sobel edge strength (|gx| + |gy| is only its cheap approximation) and keeps
 * the papers' floating-point work per pixel; it is exact on both builds: gx^2 + gy^2
 * <= 2 * 1020^2 < 2^24 converts to float without rounding and fsqrt.s is correctly
 * rounded.  Border pixels (no full window) are 0, written by two plain loops over the
 * top/bottom rows and the left/right columns; the convolution loop runs over the
 * (w-2) x (h-2) interior pixels only, so no pixel tests where it is.  This is the
 * "Filter" benchmark of the Dynamic Warp Subdivision papers (paper 001 Table 2: "Edge
 * Detection of an Input Image. Convolution. Gathering a 3-by-3 neighborhood", a
 * 500 x 500 grey image; paper 000 Table 1); its source is not published.
 *
 * Work distribution (the papers' §3.1): one pixel per task, consecutive pixels of a row
 * on consecutive threads (`for (i = tid; i < n; i += nthreads)` over the pixels,
 * written `WSIM_FOR(i, 0, n)`), a barrier between the image, the convolution and the
 * self-check.  The tasks build (kernels/runtime/tasks.h, `--task`, docs/tasks.md) maps
 * the pixel loops by chunks or tiles instead and stores 4-byte pixels (below); the
 * result mag[] is the same.
 *
 * Divergence: only the loop bounds — the item loops' tails (threads with one item more
 * than others) — as in the papers, which measure 0 % divergent branches (001 Table 1)
 * and count no non-loop conditional branches (000 Table 2) for Filter.  The image
 * generator and the self-check are branch-free too (0/1 flags instead of ifs).  The 3x3
 * window loops are uniform and stay loops on RISC-V (13 instructions per inner
 * iteration, like the papers' ~12 instructions between branches; unrolled, the
 * convolution would be one ~60-instruction block per pixel).
 * Memory: 9 gathers per pixel (byte loads from three rows) and the two 3x3 weight tables.
 *
 * Input (from wsim_seed()): a synthetic grey image, ALU-only per pixel: a brightness
 * gradient (40..139), a checkerboard of seed-offset tiles (+50), a bright shaded disc
 * (230 - v/4), a dark diagonal stripe (20) and -16..+15 of per-pixel noise; the values
 * stay within 4..235, so nothing needs clamping.
 * arg: 0 = tiny (64 x 40), 1 = small (200 x 200), 2 = paper (500 x 500); >= 3: an
 *      N x N image (N = arg, at most 500).
 * Result: the image and the gradient magnitude (float, 0 on the border).
 * Self-check: one interior pixel in 61 recomputed with the separable form of Sobel
 * ([1 2 1] smoothing across, then the [-1 0 1] difference), which must give a
 * bit-identical magnitude within [0, 4 * 255 * sqrt(2)]; sampled top-row and
 * left-column pixels must be 0.
 */
#include "tasks.h"

#define WMAX 500u
#define HMAX 500u
#define MAG_MAX 1442.5f /* 4 * 255 * sqrt(2), rounded up */
#define SAMPLE 61u      /* self-check: every 61st interior pixel */

/* The tasks build (docs/tasks.md) stores the image as 4-byte pixels, as the issue 11 study
 * of the papers' Filter did: 32 pixels per 128-byte line instead of 128, so a warp's
 * contiguous per-thread chunks fall on different lines.  The pixel values, and with them
 * mag[], are the same in both builds. */
#ifdef WSIM_TASKS
typedef uint32_t pixel_t;
#else
typedef uint8_t pixel_t;
#endif

static pixel_t img[WMAX * HMAX];
static float mag[WMAX * HMAX];

WSIM_RESULT(img);
WSIM_RESULT(mag);

/* The window loops stay loops on the RISC-V build, as in a plain convolution (clang would
 * unroll them completely); the host build is free to unroll. */
#if defined(__clang__)
#define NO_UNROLL _Pragma("clang loop unroll(disable)")
#else
#define NO_UNROLL
#endif

static const int KX[3][3] = {{-1, 0, 1}, {-2, 0, 2}, {-1, 0, 1}};
static const int KY[3][3] = {{-1, -2, -1}, {0, 0, 0}, {1, 2, 1}};

/* The scene: parameters derived from the seed (the same in every thread). */
struct scene {
    uint32_t tile, ox, oy; /* checkerboard tile size and offsets */
    int32_t cx, cy, r2;    /* disc centre and squared radius */
    int32_t off;           /* stripe x - y offset */
};

static void make_scene(uint32_t seed, uint32_t w, uint32_t h, struct scene *s) {
    uint32_t a = wsim_mix32(seed + 11u), b = wsim_mix32(seed + 12u);
    uint32_t r = h / 5u + (b >> 24) % (h / 5u + 1u);
    s->tile = 8u + (a & 15u);
    s->ox = (a >> 4) & 31u;
    s->oy = (a >> 9) & 31u;
    s->cx = (int32_t)(w / 4u + (b & 0xffffu) % (w / 2u + 1u));
    s->cy = (int32_t)(h / 4u + (b >> 16) % (h / 2u + 1u));
    s->r2 = (int32_t)(r * r);
    s->off = (int32_t)((a >> 14) % (w / 2u + 1u)) - (int32_t)(w / 4u);
}

/* Hides a 0/1 flag's range from the compiler, which would otherwise turn flag * (a - v)
 * back into a select, and RV32IMF has no conditional move: a branch. */
static inline int32_t opaque(int32_t x) {
    __asm__("" : "+r"(x));
    return x;
}

/* One pixel, branch-free: each feature is a 0/1 flag that selects by arithmetic. */
static uint8_t pixel(uint32_t seed, const struct scene *s, uint32_t x, uint32_t y,
                     uint32_t w, uint32_t h) {
    int32_t v = 40 + (int32_t)((x + 2u * y) * 100u / (w + 2u * h)); /* gradient 40..139 */
    int32_t dx = (int32_t)x - s->cx, dy = (int32_t)y - s->cy;
    int32_t st = (int32_t)x - (int32_t)y - s->off;
    int32_t tile = (int32_t)((((x + s->ox) / s->tile) + ((y + s->oy) / s->tile)) & 1u);
    int32_t disc = opaque(dx * dx + dy * dy <= s->r2);
    int32_t stripe = opaque((uint32_t)(st + 3) <= 6u); /* -3 <= st <= 3 */

    v += 50 * tile;                          /* checkerboard: 40..189 */
    v += disc * (230 - v / 4 - v);           /* bright disc, shaded: 183..220 */
    v += stripe * (20 - v);                  /* dark stripe */
    v += (int32_t)(wsim_hash3(seed, y * w + x, 3) & 31u) - 16; /* noise: 4..235 */
    return (uint8_t)v;
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t arg = wsim_arg(), seed = wsim_seed();
    uint32_t w, h, n, iw, ni, i;
    struct scene sc;
    int bad = 0;

    if (arg == 0) {
        w = 64;
        h = 40;
    } else if (arg == 1) {
        w = h = 200;
    } else if (arg == 2) {
        w = h = 500;
    } else {
        w = h = arg < WMAX ? arg : WMAX;
    }
    n = w * h;
    iw = w - 2u;         /* interior width */
    ni = iw * (h - 2u);  /* interior pixels */
    make_scene(seed, w, h, &sc);

    /* Phase 0: the input image; the border of the output is 0. */
    WSIM_FOR(i, 0, n)
        img[i] = pixel(seed, &sc, i % w, i / w, w, h);
    WSIM_FOR(i, 0, w) { /* top and bottom rows */
        mag[i] = 0.0f;
        mag[(h - 1u) * w + i] = 0.0f;
    }
    WSIM_FOR(i, 0, h) { /* left and right columns */
        mag[i * w] = 0.0f;
        mag[i * w + w - 1u] = 0.0f;
    }
    wsim_roi_begin(); /* the measured phase: the convolution */

    /* Phase 1: 3x3 Sobel convolution of every interior pixel. */
    WSIM_FOR(i, 0, ni) {
        uint32_t p = (1u + i / iw) * w + 1u + i % iw;
        int gx = 0, gy = 0, r, c;

        for (r = 0; r < 3; r++) {
            NO_UNROLL
            for (c = 0; c < 3; c++) {
                int v = img[p + (uint32_t)(r - 1) * w + (uint32_t)(c - 1)];
                gx += KX[r][c] * v;
                gy += KY[r][c] * v;
            }
        }
        mag[p] = sqrtf((float)(gx * gx + gy * gy));
    }
    wsim_roi_end(); /* (a barrier: the check reads other threads' pixels) */

    /* Phase 2: self-check of sampled pixels against the separable Sobel. */
    for (i = tid; i * SAMPLE < ni; i += nthreads) {
        uint32_t q = i * SAMPLE, p = (1u + q / iw) * w + 1u + q % iw;
        int col[3], row[3], k, gx, gy;
        float m = mag[p], ref;

        for (k = 0; k < 3; k++) { /* smooth vertically per column, horizontally per row */
            col[k] = img[p - w + (uint32_t)k - 1u] + 2 * img[p + (uint32_t)k - 1u] +
                     img[p + w + (uint32_t)k - 1u];
            row[k] = img[p + (uint32_t)(k - 1) * w - 1u] + 2 * img[p + (uint32_t)(k - 1) * w] +
                     img[p + (uint32_t)(k - 1) * w + 1u];
        }
        gx = col[2] - col[0];
        gy = row[2] - row[0];
        ref = sqrtf((float)(gx * gx + gy * gy));
        bad |= (ref != m) | (m > MAG_MAX) | (mag[i % w] != 0.0f) | (mag[(i % h) * w] != 0.0f);
    }
    return bad;
}
