/* gf.c — 3x3 Gaussian blur of a black-and-white image (seed 002 §7.3.5, "GF").
 *
 * 002: "a blurring kernel (GF), which computes the 3 by 3 Gaussian blur for each pixel
 * of the input image. Each warp is assigned an image tile consisting of 32 by 32 pixels,
 * with threads being assigned a single row in the tile. The input is a randomly
 * generated black and white image with 2048 by 2048 pixels resolution."
 *
 * The image: one byte per pixel (black 0, white 1), stored with a one-pixel border that
 * repeats the edge pixels — the usual way to write a 3x3 filter with no edge tests —
 * so a stored row is W + 2 bytes: row y starts 2 (y + 1) bytes after a multiple of W,
 * and the 32 rows of a tile cross 32-byte line boundaries at 16 different columns.
 * (002 does not give its layout; this is the one that needs no branch at the borders.
 * An image of floats whose rows start on line boundaries would have every lane of a
 * warp cross a line boundary at the same column: the misses of a warp would all come
 * together, leaving nothing to slip.)
 *
 * Work distribution: item i is row i % 32 of tile i / 32 (tiles in row-major order), so
 * 32 consecutive threads — one warp of the dom machine — blur one 32x32 tile, each lane
 * its own tile row.  A thread computes its row's pixels one after the other, each as the
 * plain 3x3 convolution: two nested window loops over the stored rows y .. y + 2 and
 * columns x .. x + 2 (the border shifts them by one), one load each, the weights
 * [1 2 1; 2 4 2; 1 2 1] computed in the loop, in integers (the blur times 16, 0..16), and
 * one byte stored.  The window loops stay loops on the RISC-V build (filter.c's
 * NO_UNROLL; unrolled, they would be nine load instructions): one load site, nine
 * references and about 8 instructions per memory operation, 002 Table 3's GF.  No branch
 * but the loops'.
 *
 * --arg N | 1 << 30 (ARG_SELECTS): the branch-free variant (docs/dom.md, "What control
 * flow costs"): the window written out as nine loads, as a compiler unrolls it.
 *
 * Phases (barriers between): the bordered image (one stored pixel per item: the hash of
 * (seed, its clamped image pixel)), the blur (the phase 002 measures), the self-check.
 * arg: 0 = tiny 128 x 128, 1 = small 512 x 512, 2 = paper 2048 x 2048 (002's size);
 *      N >= 3: N x N (at most 2048; partial tiles at the right and bottom edges).
 * Result: per tile row, a hash of its 32 output bytes, and the number of them that are
 * neither 0 nor 16 (edge pixels).
 * Self-check (after a barrier): every 97th pixel recomputed from the image's hash (not
 * the stored image) must equal the blurred value.
 */
#include "warpsplit.h"

#define WMAX 2048u
#define PMAX (WMAX + 2u)
#define TILE 32u
#define SAMPLE 97u
#define ARG_SELECTS (1u << 30) /* --arg bit: the branch-free variant */

static uint8_t img[PMAX * PMAX]; /* the image with its border: pitch w + 2 */
static uint8_t out[WMAX * WMAX];
static uint32_t row_hash[WMAX * WMAX / TILE]; /* per tile row */
static uint8_t edges[WMAX * WMAX / TILE];     /* per tile row: outputs neither 0 nor 16 */

WSIM_RESULT(row_hash);
WSIM_RESULT(edges);

/* The window loops stay loops on the RISC-V build (clang would unroll them completely);
 * the host build is free to unroll. */
#if defined(__clang__)
#define NO_UNROLL _Pragma("clang loop unroll(disable)")
#else
#define NO_UNROLL
#endif

static uint32_t clampu(int32_t v, uint32_t n) {
    return v < 0 ? 0u : (uint32_t)v >= n ? n - 1u : (uint32_t)v;
}

/* Image pixel (x, y), 0 or 1. */
static uint32_t pixel(uint32_t seed, uint32_t w, uint32_t x, uint32_t y) {
    return wsim_hash3(seed, y * w + x, 1u) >> 31;
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t arg = wsim_arg() & ~ARG_SELECTS, seed = wsim_seed();
    uint32_t selects = (wsim_arg() & ARG_SELECTS) != 0, w, p, n, tiles_x, nrows, i;
    int bad = 0;

    if (arg == 0)
        w = 128;
    else if (arg == 1)
        w = 512;
    else if (arg == 2)
        w = WMAX;
    else
        w = arg >= WMAX ? WMAX : arg;
    p = w + 2u;
    n = w * w;
    tiles_x = (w + TILE - 1u) / TILE; /* the last tile row and column may be partial */
    nrows = tiles_x * tiles_x * TILE; /* tile rows */

    /* Phase 0: the random black-and-white image and its border (the edge repeated). */
    for (i = tid; i < p * p; i += nthreads)
        img[i] = (uint8_t)pixel(seed, w, clampu((int32_t)(i % p) - 1, w), clampu((int32_t)(i / p) - 1, w));
    wsim_roi_begin(); /* the blur: the phase 002 measures */

    /* Phase 1: one tile row per item; per pixel the 3x3 window, one load at a time. */
    for (i = tid; i < nrows; i += nthreads) {
        uint32_t tile = i / TILE, r = i % TILE;
        uint32_t x0 = tile % tiles_x * TILE, y = tile / tiles_x * TILE + r, x;
        uint32_t x1 = x0 + TILE < w ? x0 + TILE : w;
        if (y >= w) { /* below a partial last tile row */
            row_hash[i] = 0;
            edges[i] = 0;
            continue;
        }
        uint32_t h = 0x811c9dc5u, nedge = 0;
        for (x = x0; x < x1; x++) {
            /* stored (y + dy, x + dx) is image pixel (x + dx - 1, y + dy - 1), clamped */
            const uint8_t *q = &img[y * p + x];
            uint32_t v = 0, dy, dx;
            if (selects) { /* the window unrolled: nine load instructions */
                v = q[0] + 2u * q[1] + q[2] + 2u * (q[p] + 2u * q[p + 1] + q[p + 2]) + q[2 * p] +
                    2u * q[2 * p + 1] + q[2 * p + 2];
            } else {
                NO_UNROLL
                for (dy = 0; dy < 3u; dy++) {
                    NO_UNROLL
                    for (dx = 0; dx < 3u; dx++)
                        v += ((1u + (dy & 1u)) * q[dy * p + dx]) << (dx & 1u);
                }
            }
            out[y * w + x] = (uint8_t)v;
            h = (h ^ v) * 0x01000193u;
            nedge += (uint32_t)(v - 1u < 15u);
        }
        row_hash[i] = h;
        edges[i] = (uint8_t)nedge;
    }
    wsim_roi_end();

    /* Phase 2: the self-check, from the pixels' hash. */
    for (i = tid; i * SAMPLE < n; i += nthreads) {
        uint32_t q = i * SAMPLE, x = q % w, y = q / w, s = 0;
        int32_t dy, dx;
        for (dy = -1; dy <= 1; dy++)
            for (dx = -1; dx <= 1; dx++) {
                uint32_t wt = (uint32_t)((2 - (dy < 0 ? -dy : dy)) * (2 - (dx < 0 ? -dx : dx)));
                s += wt * pixel(seed, w, clampu((int32_t)x + dx, w), clampu((int32_t)y + dy, w));
            }
        bad |= out[q] != s;
    }
    return bad;
}
