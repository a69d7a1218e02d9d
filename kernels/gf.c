/* gf.c — 3x3 Gaussian blur of a black-and-white image (seed 002 §7.3.5, "GF").
 *
 * 002: "a blurring kernel (GF), which computes the 3 by 3 Gaussian blur for each pixel
 * of the input image. Each warp is assigned an image tile consisting of 32 by 32 pixels,
 * with threads being assigned a single row in the tile. The input is a randomly
 * generated black and white image with 2048 by 2048 pixels resolution."
 *
 * Work distribution: item i is row i % 32 of tile i / 32 (tiles in row-major order), so
 * 32 consecutive threads — one warp of the dom machine — blur one 32x32 tile, each lane
 * its own tile row: the lanes of a warp read 32 image rows W pixels apart (one line
 * each), which is 002's memory behaviour.  A thread slides a 3x3 window along its row:
 * per output pixel it loads the three pixels of the next column (rows y-1, y, y+1), does
 * nine multiply-adds with the weights [1 2 1; 2 4 2; 1 2 1] / 16 and stores the result.
 * Borders replicate the edge pixel (the row indices are clamped once per thread, the
 * next column's index per pixel: only the image's last tile column takes the clamp).
 *
 * Input: pixel (x, y) is 0.0 or 1.0 from a hash of (seed, y * W + x), generated in a
 * first phase; a barrier; then the blur.  Every product and partial sum is a multiple of
 * 1/16 below 1, exact in float, so the result is the same in any summation order.
 * arg: 0 = tiny 128 x 128, 1 = small 512 x 512, 2 = paper 2048 x 2048 (002's size);
 *      N >= 3: N x N (at most 2048; partial tiles at the right and bottom edges).
 * Result: per tile row, a hash of its 32 output values (float bits) — the image itself
 * would make every dump 16 MB; and per tile row the number of its outputs that are
 * neither 0 nor 1 (edge pixels).
 * Self-check (after a barrier): every 97th pixel recomputed directly from its 3x3
 * neighbourhood with integer weights must equal the blurred value exactly.
 */
#include "warpsplit.h"

#define WMAX 2048u
#define TILE 32u
#define SAMPLE 97u

static float img[WMAX * WMAX];
static float out[WMAX * WMAX];
static uint32_t row_hash[WMAX * WMAX / TILE]; /* per tile row */
static uint8_t edges[WMAX * WMAX / TILE];     /* per tile row: outputs neither 0 nor 1 */

WSIM_RESULT(row_hash);
WSIM_RESULT(edges);

static uint32_t fbits(float f) {
    union {
        float f;
        uint32_t u;
    } v;
    v.f = f;
    return v.u;
}

static uint32_t clampi(int32_t v, uint32_t n) {
    return v < 0 ? 0u : (uint32_t)v >= n ? n - 1u : (uint32_t)v;
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t arg = wsim_arg(), seed = wsim_seed();
    uint32_t w, n, tiles_x, nrows, i;
    int bad = 0;

    if (arg == 0)
        w = 128;
    else if (arg == 1)
        w = 512;
    else if (arg == 2)
        w = WMAX;
    else
        w = arg >= WMAX ? WMAX : arg;
    n = w * w;
    tiles_x = (w + TILE - 1u) / TILE; /* the last tile row and column may be partial */
    nrows = tiles_x * tiles_x * TILE; /* tile rows */

    /* Phase 0: the random black-and-white image. */
    for (i = tid; i < n; i += nthreads)
        img[i] = (float)(wsim_hash3(seed, i, 1u) >> 31);
    wsim_barrier();

    /* Phase 1: one tile row per item; a sliding 3x3 window along the row. */
    for (i = tid; i < nrows; i += nthreads) {
        uint32_t tile = i / TILE, r = i % TILE;
        uint32_t x0 = tile % tiles_x * TILE, y = tile / tiles_x * TILE + r, x;
        uint32_t x1 = x0 + TILE < w ? x0 + TILE : w;
        if (y >= w) { /* below a partial last tile row */
            row_hash[i] = 0;
            edges[i] = 0;
            continue;
        }
        const float *up = &img[clampi((int32_t)y - 1, w) * w];
        const float *mid = &img[y * w];
        const float *dn = &img[clampi((int32_t)y + 1, w) * w];
        uint32_t xl = x0 == 0 ? 0u : x0 - 1u, h = 0x811c9dc5u, nedge = 0;
        /* window columns: a = x - 1, b = x (each the vertical [1 2 1] sum) */
        float a = up[xl] + 2.0f * mid[xl] + dn[xl];
        float b = up[x0] + 2.0f * mid[x0] + dn[x0];
        for (x = x0; x < x1; x++) {
            uint32_t xn = x + 1u < w ? x + 1u : w - 1u;
            float c = up[xn] + 2.0f * mid[xn] + dn[xn];
            float v = (a + 2.0f * b + c) * (1.0f / 16.0f);
            out[y * w + x] = v;
            h = (h ^ fbits(v)) * 0x01000193u;
            nedge += (uint32_t)(v != 0.0f) & (uint32_t)(v != 1.0f);
            a = b;
            b = c;
        }
        row_hash[i] = h;
        edges[i] = (uint8_t)nedge;
    }
    wsim_barrier();

    /* Phase 2: the self-check. */
    for (i = tid; i * SAMPLE < n; i += nthreads) {
        uint32_t p = i * SAMPLE, x = p % w, y = p / w;
        int32_t s = 0, dy, dx;
        for (dy = -1; dy <= 1; dy++)
            for (dx = -1; dx <= 1; dx++) {
                int32_t wt = (2 - (dy < 0 ? -dy : dy)) * (2 - (dx < 0 ? -dx : dx));
                s += wt * (int32_t)img[clampi((int32_t)y + dy, w) * w + clampi((int32_t)x + dx, w)];
            }
        bad |= out[p] != (float)s / 16.0f;
    }
    return bad;
}
