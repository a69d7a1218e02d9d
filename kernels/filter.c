/* filter.c — edge detection on a grey image: Sobel gradient over each pixel's 3x3
 * neighbourhood, a locally adaptive threshold, then non-maximum suppression.
 *
 * Algorithm: for every interior pixel, gather the 3x3 neighbourhood and convolve it
 * with the Sobel kernels KX and KY (integers, exact), magnitude = sqrtf(gx^2 + gy^2).
 * The pixel is an edge candidate when the magnitude exceeds a threshold that depends on
 * the local brightness (T_ABS + a quarter of the 3x3 window's mean), and then gets one
 * of four gradient directions (0, 45, 90, 135 degrees; tan 22.5 ~ 2/5).  After a
 * barrier, non-maximum suppression keeps a candidate only if its magnitude is a local
 * maximum along its gradient direction (the two neighbours it points to, a 4-way
 * case).  Border pixels get 0.  This is the "Filter" benchmark of the Dynamic Warp
 * Subdivision papers (paper 000 Table 1, paper 001 Table 2: "edge detection of an input
 * image, convolution, gathering a 3-by-3 neighborhood", a 500 x 500 grey image); its
 * source is not published, so the edge detector here is the classic Sobel +
 * thresholding + thinning (the first stages of Canny).
 *
 * Work distribution (the papers' §3.1): one pixel per task, consecutive pixels of a row
 * on consecutive threads (`for (p = tid; p < w * h; p += nthreads)`), a barrier
 * between the phases (image, gradient, suppression).
 *
 * Divergence: the border test (warps that straddle the end of a row); the data-
 * dependent threshold branch (edge candidates vs. flat pixels, mixed within a warp
 * along object outlines and in noisy areas) and, for candidates, the direction tests;
 * in suppression, the 4-way direction case with its two neighbour loads, only for
 * candidates; in the image generator, the tile/disc/stripe tests and clamping.  The
 * papers count no divergent (paper 001 Table 1) and no non-loop conditional branches
 * (paper 000 Table 2) for their Filter: this one branches on the data on purpose; the
 * memory pattern (9 gathers per pixel from three rows) is the same.
 *
 * Input (from wsim_seed()): a synthetic grey image, ALU-only per pixel: a brightness
 * gradient, a checkerboard of seed-offset tiles, a bright disc, a dark diagonal stripe,
 * and +-16 of per-pixel noise, clamped to 0..255.
 * arg: 0 = tiny (64 x 40), 1 = small (200 x 200), 2 = paper (500 x 500); >= 3: an
 *      N x N image (N = arg, at most 500).
 * Result: the image, the gradient magnitude (float) and the edge map (0 or the
 * direction 1..4 of a kept edge pixel).
 * Self-check: every magnitude within [0, 4 * 255 * sqrt(2)]; one pixel in 61 recomputed
 * with the separable form of Sobel ([1 2 1] smoothing, then the [-1 0 1] difference),
 * which must give bit-identical magnitudes.
 */
#include "warpsplit.h"

#define WMAX 500u
#define HMAX 500u
#define T_ABS 40.0f      /* threshold: T_ABS + (3x3 sum)/9 / 4 */
#define MAG_MAX 1442.5f  /* 4 * 255 * sqrt(2), rounded up */

static uint8_t img[WMAX * HMAX];
static float mag[WMAX * HMAX];
static uint8_t dir[WMAX * HMAX];  /* 0 = no candidate, 1..4 = gradient direction */
static uint8_t edge[WMAX * HMAX]; /* after non-maximum suppression */

WSIM_RESULT(img);
WSIM_RESULT(mag);
WSIM_RESULT(edge);

static const int KX[3][3] = {{-1, 0, 1}, {-2, 0, 2}, {-1, 0, 1}};
static const int KY[3][3] = {{-1, -2, -1}, {0, 0, 0}, {1, 2, 1}};

/* The scene: parameters derived from the seed (the same in every thread). */
struct scene {
    uint32_t tile, ox, oy;   /* checkerboard tile size and offsets */
    int32_t cx, cy, r2;      /* disc centre and squared radius */
    int32_t off;             /* stripe x - y offset */
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

static uint8_t pixel(uint32_t seed, const struct scene *s, uint32_t x, uint32_t y,
                     uint32_t w, uint32_t h) {
    int32_t v = 40 + (int32_t)((x + 2u * y) * 100u / (w + 2u * h)); /* gradient */
    int32_t dx = (int32_t)x - s->cx, dy = (int32_t)y - s->cy, st = (int32_t)x - (int32_t)y - s->off;

    if ((((x + s->ox) / s->tile) + ((y + s->oy) / s->tile)) & 1u) /* checkerboard */
        v += 50;
    if (dx * dx + dy * dy <= s->r2) /* bright disc, shaded */
        v = 230 - v / 4;
    if (st >= -3 && st <= 3) /* dark stripe */
        v = 20;
    v += (int32_t)(wsim_hash3(seed, y * w + x, 3) & 31u) - 16; /* noise */
    if (v < 0)
        v = 0;
    if (v > 255)
        v = 255;
    return (uint8_t)v;
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t arg = wsim_arg(), seed = wsim_seed();
    uint32_t w, h, n, p;
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
    make_scene(seed, w, h, &sc);

    /* Phase 0: the input image. */
    for (p = tid; p < n; p += nthreads)
        img[p] = pixel(seed, &sc, p % w, p / w, w, h);
    wsim_barrier();

    /* Phase 1: Sobel gradient over the 3x3 neighbourhood, adaptive threshold. */
    for (p = tid; p < n; p += nthreads) {
        uint32_t x = p % w, y = p / w;
        int gx = 0, gy = 0, sum = 0, i, j;
        float m, thr;
        uint8_t d = 0;

        if (x == 0 || y == 0 || x == w - 1 || y == h - 1) { /* border: no full window */
            mag[p] = 0.0f;
            dir[p] = 0;
            continue;
        }
        for (i = 0; i < 3; i++) {
            for (j = 0; j < 3; j++) {
                int v = img[p + (uint32_t)(i - 1) * w + (uint32_t)(j - 1)];
                gx += KX[i][j] * v;
                gy += KY[i][j] * v;
                sum += v;
            }
        }
        m = sqrtf((float)(gx * gx + gy * gy));
        thr = T_ABS + (float)sum * (1.0f / 36.0f); /* T_ABS + local mean / 4 */
        if (m > thr) { /* edge candidate: quantise the gradient direction */
            int ax = gx < 0 ? -gx : gx, ay = gy < 0 ? -gy : gy;
            if (5 * ay <= 2 * ax)
                d = 1; /* horizontal gradient (vertical edge) */
            else if (5 * ax <= 2 * ay)
                d = 3; /* vertical gradient */
            else if ((gx < 0) == (gy < 0))
                d = 2; /* 45 degrees */
            else
                d = 4; /* 135 degrees */
        }
        mag[p] = m;
        dir[p] = d;
    }
    wsim_barrier(); /* suppression reads the neighbours' magnitudes */

    /* Phase 2: non-maximum suppression along the gradient, and the self-check. */
    for (p = tid; p < n; p += nthreads) {
        float m = mag[p], a, b;
        uint8_t d = dir[p], e = 0;

        if (!(m >= 0.0f && m <= MAG_MAX))
            bad = 1;
        if (d != 0) {
            switch (d) {
            case 1: /* compare left and right */
                a = mag[p - 1];
                b = mag[p + 1];
                break;
            case 3: /* compare up and down */
                a = mag[p - w];
                b = mag[p + w];
                break;
            case 2: /* gx, gy same sign: down-right and up-left (y grows downwards) */
                a = mag[p - w - 1];
                b = mag[p + w + 1];
                break;
            default: /* 4: up-right and down-left */
                a = mag[p - w + 1];
                b = mag[p + w - 1];
                break;
            }
            if (m >= a && m > b)
                e = d;
        }
        edge[p] = e;

        /* Sampled pixels: separable Sobel must reproduce the magnitude exactly. */
        if (p % 61u == 0 && p % w != 0 && p % w != w - 1 && p / w != 0 && p / w != h - 1) {
            int col[3], row[3], i, gx, gy;
            for (i = 0; i < 3; i++) { /* smooth vertically per column, horizontally per row */
                col[i] = img[p - w + (uint32_t)i - 1u] + 2 * img[p + (uint32_t)i - 1u] +
                         img[p + w + (uint32_t)i - 1u];
                row[i] = img[p + (uint32_t)(i - 1) * w - 1u] + 2 * img[p + (uint32_t)(i - 1) * w] +
                         img[p + (uint32_t)(i - 1) * w + 1u];
            }
            gx = col[2] - col[0];
            gy = row[2] - row[0];
            if (sqrtf((float)(gx * gx + gy * gy)) != m)
                bad = 1;
        }
    }
    return bad;
}
