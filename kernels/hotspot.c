/* hotspot.c — Rodinia HotSpot: transient thermal simulation of a chip (2-D stencil).
 *
 * Algorithm (Rodinia 1.0/2.x OpenMP hotspot, single_iteration): the chip is a
 * rows x cols grid of cells with a temperature and a dissipated power.  One explicit
 * time step computes, for every cell,
 *     delta = step/Cap * (power + (T_N + T_S - 2T)/Ry + (T_E + T_W - 2T)/Rx + (amb - T)/Rz)
 * with the chip constants of Rodinia (MAX_PD, PRECISION, SPEC_HEAT_SI, K_SI,
 * FACTOR_CHIP, t_chip, chip 16 mm x 16 mm, amb_temp 80).  Cells on the border have
 * fewer neighbours: Rodinia handles the four corners, the four edges and the interior
 * by a chain of nine if/else-if cases, kept here as it is.  The grids ping-pong between
 * two buffers, with a barrier after every iteration (the next one reads the
 * neighbours' new temperatures).  Source: Rodinia (Che et al., IISWC 2009), as used in
 * the Dynamic Warp Subdivision papers (paper 000 Table 1, paper 001 Table 2:
 * "iterative partial differential equation solver", 300 x 300 grid, 100 iterations).
 *
 * Work distribution (the papers' §3.1): one cell per task, consecutive cells (along a
 * row) to consecutive threads, so a warp covers a run of a row:
 *     for (p = tid; p < rows * cols; p += nthreads) ...; then a barrier
 *   (written WSIM_FOR(p, 0, rows * cols): the tasks build maps it by --task, docs/tasks.md)
 *
 * Divergence: the nine-way boundary-condition chain: every cell goes through the
 * corner/edge tests (the non-loop conditional branches that paper 000's Table 2 counts
 * for HotSpot; clang turns the chain into a short decision tree on r == 0,
 * c == cols - 1, r == rows - 1 and c == 0); warps that straddle the end of a row split between the
 * right-edge case, the left-edge case and the interior, and warps in the first and
 * last rows take the edge/corner cases.  The item loop's tail diverges when
 * rows * cols is not a multiple of the thread count.
 *
 * Inputs (from wsim_seed()): a floorplan of 6 x 6 functional-unit tiles, each with a
 * power density of 5..100 % of MAX_PD (times 0.9..1.0 per cell), power = density *
 * cell area; initial temperatures 323.15 K + up to 15 K by the tile's activity +
 * up to 2 K of noise.  All arithmetic in IEEE single precision.
 *
 * arg: 0 = tiny (30 x 30, 8 iterations), 1 = small (150 x 150, 50 iterations),
 *      2 = paper (300 x 300, 100 iterations); >= 3: an N x N grid (N = arg, at most
 *      300) with N/3 iterations (at least 1); 512 = seed 004's input (Table 2: a 512 x 512
 *      grid; 004 gives no iteration count: 10 iterations, about 165 M thread
 *      instructions, within 004's 100-200 M), see HS004 below.
 * Result: both temperature buffers (the final grid is temp[iterations % 2]); for arg
 * 512, temp[0][0 .. 256*256) holds the final grid's 2 x 2 block means (HS004).
 * Self-check (the maximum principle of the explicit scheme, which is a convex
 * combination here): every final temperature is finite and within
 * [min(amb, T0min), max(amb, T0max) + iterations * step/Cap * Pmax] (+ 0.01 K).
 */
#include "tasks.h"

#define NMAX 300u

/* Rodinia's constants. */
#define MAX_PD 3.0e6f        /* maximum power density: 300 W on 10 mm x 10 mm */
#define PRECISION 0.001f     /* required precision in degrees */
#define SPEC_HEAT_SI 1.75e6f
#define K_SI 100.0f
#define FACTOR_CHIP 0.5f     /* capacitance fitting factor */
#define T_CHIP 0.0005f       /* chip thickness (m) */
#define CHIP_HEIGHT 0.016f
#define CHIP_WIDTH 0.016f
#define AMB_TEMP 80.0f

#define TILES 6u             /* floorplan: TILES x TILES functional units */
#define T_BASE 323.15f

static float temp[2][NMAX * NMAX]; /* ping-pong temperature grids */
static float power[NMAX * NMAX];

WSIM_RESULT(temp);

/* HS004: seed 004's 512 x 512 grid (arg 512) runs the same code on grids of its own
 * (temp and power above keep their sizes, so the results of the other args do not
 * change); at the end its final grid is reduced to 2 x 2 block means in temp[0]. */
#define HS004_ARG 512u
#define HS004_N 512u
#define HS004_ITERS 10u
static float hs004_temp[2][HS004_N * HS004_N];
static float hs004_power[HS004_N * HS004_N];

static float *grid_temp(uint32_t big, uint32_t k) { return big ? hs004_temp[k] : temp[k]; }
static float *grid_power(uint32_t big) { return big ? hs004_power : power; }

/* The block means of the final 512 x 512 grid g into the result region. */
static void hs004_means(const float *g, unsigned tid, unsigned nthreads) {
    uint32_t q, m = HS004_N / 2u;
    for (q = tid; q < m * m; q += nthreads) {
        uint32_t p = (q / m) * 2u * HS004_N + (q % m) * 2u;
        temp[0][q] = ((g[p] + g[p + 1u]) + (g[p + HS004_N] + g[p + HS004_N + 1u])) * 0.25f;
    }
}

/* Power density of the functional unit (tile) holding cell (r, c), 0.05..1 of MAX_PD. */
static float tile_activity(uint32_t seed, uint32_t r, uint32_t c, uint32_t rows, uint32_t cols) {
    static const float level[4] = {0.05f, 0.25f, 0.6f, 1.0f};
    uint32_t tile = (r * TILES / rows) * TILES + c * TILES / cols;
    return level[wsim_hash3(seed, tile, 101) & 3u];
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t arg = wsim_arg(), seed = wsim_seed();
    uint32_t rows, cols, iters, n, p, it;
    float grid_height, grid_width, cap, rx, ry, rz, max_slope, step, pmax, hi;
    int bad = 0;
    /* These locals shadow the file-scope grids: HS004's or the usual ones. */
    uint32_t big = arg == HS004_ARG;
    float *temp[2] = {grid_temp(big, 0), grid_temp(big, 1)}, *power = grid_power(big);

    if (arg == 0) {
        rows = 30;
        iters = 8;
    } else if (arg == 1) {
        rows = 150;
        iters = 50;
    } else if (arg == 2) {
        rows = 300;
        iters = 100;
    } else if (big) {
        rows = HS004_N;
        iters = HS004_ITERS;
    } else {
        rows = arg < NMAX ? arg : NMAX;
        iters = rows / 3 ? rows / 3 : 1;
    }
    cols = rows;
    n = rows * cols;

    /* compute_tran_temp(): the thermal constants of one cell. */
    grid_height = CHIP_HEIGHT / (float)rows;
    grid_width = CHIP_WIDTH / (float)cols;
    cap = FACTOR_CHIP * SPEC_HEAT_SI * T_CHIP * grid_width * grid_height;
    rx = grid_width / (2.0f * K_SI * T_CHIP * grid_height);
    ry = grid_height / (2.0f * K_SI * T_CHIP * grid_width);
    rz = T_CHIP / (K_SI * grid_height * grid_width);
    max_slope = MAX_PD / (FACTOR_CHIP * T_CHIP * SPEC_HEAT_SI);
    step = PRECISION / max_slope;
    pmax = MAX_PD * grid_width * grid_height; /* largest power of a cell */

    /* Inputs: power and initial temperature of every cell. */
    WSIM_FOR(p, 0, n) {
        uint32_t r = p / cols, c = p % cols;
        wsim_rng g = wsim_rng_init(seed, p);
        float act = tile_activity(seed, r, c, rows, cols);
        power[p] = act * (0.9f + 0.1f * wsim_rand_unit(&g)) * pmax;
        temp[0][p] = T_BASE + 15.0f * act + 2.0f * wsim_rand_unit(&g);
    }
    wsim_roi_begin(); /* the measured phase: the iterations */

    for (it = 0; it < iters; it++) {
        const float *t = temp[it & 1u];
        float *result = temp[(it & 1u) ^ 1u];

        WSIM_FOR(p, 0, n) {
            uint32_t r = p / cols, c = p % cols;
            float delta;

            if (r == 0 && c == 0) { /* corner 1 */
                delta = (step / cap) * (power[0] + (t[1] - t[0]) / rx + (t[cols] - t[0]) / ry +
                                        (AMB_TEMP - t[0]) / rz);
            } else if (r == 0 && c == cols - 1) { /* corner 2 */
                delta = (step / cap) * (power[c] + (t[c - 1] - t[c]) / rx +
                                        (t[c + cols] - t[c]) / ry + (AMB_TEMP - t[c]) / rz);
            } else if (r == rows - 1 && c == cols - 1) { /* corner 3 */
                delta = (step / cap) * (power[p] + (t[p - 1] - t[p]) / rx +
                                        (t[p - cols] - t[p]) / ry + (AMB_TEMP - t[p]) / rz);
            } else if (r == rows - 1 && c == 0) { /* corner 4 */
                delta = (step / cap) * (power[p] + (t[p + 1] - t[p]) / rx +
                                        (t[p - cols] - t[p]) / ry + (AMB_TEMP - t[p]) / rz);
            } else if (r == 0) { /* edge 1: top row */
                delta = (step / cap) * (power[c] + (t[c + 1] + t[c - 1] - 2.0f * t[c]) / rx +
                                        (t[cols + c] - t[c]) / ry + (AMB_TEMP - t[c]) / rz);
            } else if (c == cols - 1) { /* edge 2: right column */
                delta = (step / cap) * (power[p] + (t[p + cols] + t[p - cols] - 2.0f * t[p]) / ry +
                                        (t[p - 1] - t[p]) / rx + (AMB_TEMP - t[p]) / rz);
            } else if (r == rows - 1) { /* edge 3: bottom row */
                delta = (step / cap) * (power[p] + (t[p + 1] + t[p - 1] - 2.0f * t[p]) / rx +
                                        (t[p - cols] - t[p]) / ry + (AMB_TEMP - t[p]) / rz);
            } else if (c == 0) { /* edge 4: left column */
                delta = (step / cap) * (power[p] + (t[p + cols] + t[p - cols] - 2.0f * t[p]) / ry +
                                        (t[p + 1] - t[p]) / rx + (AMB_TEMP - t[p]) / rz);
            } else { /* inside the chip */
                delta = (step / cap) * (power[p] + (t[p + cols] + t[p - cols] - 2.0f * t[p]) / ry +
                                        (t[p + 1] + t[p - 1] - 2.0f * t[p]) / rx +
                                        (AMB_TEMP - t[p]) / rz);
            }
            result[p] = t[p] + delta; /* update temperatures */
        }
        wsim_barrier(); /* the next iteration reads the neighbours' new values */
    }
    wsim_roi_end();

    /* Self-check on this thread's cells: finite and within the physical bounds. */
    hi = T_BASE + 15.0f + 2.0f + (float)iters * (step / cap) * pmax + 0.01f;
    WSIM_FOR(p, 0, n) {
        float v = temp[iters & 1u][p];
        if (!(v >= AMB_TEMP - 0.01f && v <= hi))
            bad = 1;
    }
    if (big)
        hs004_means(temp[iters & 1u], tid, nthreads);
    return bad;
}
