/* km.c — k-means with 36 features and 32 clusters (seed 002 §7.3.4, "KM").
 *
 * 002 runs MineBench's k-means "with 32 clusters and with the provided input set of
 * roughly half a million data points, each with 36 features", assigning "each point to a
 * thread for the distance computation as well as the cluster center recomputation".
 * This is kernels/kmeans.c (the DWS papers' KMeans, 20-D, k <= 16) with 002's input
 * shape: the algorithm, generator, reduction and self-check are kmeans.c's, only D,
 * KMAX and the sizes differ.  kmeans.c is not reused with an input-shape option: its
 * D and KMAX are compile-time constants of its loops, and making them run-time values
 * would change its instruction counts (and the manifest) for its existing sizes.
 *
 * MineBench's algorithm (see kmeans.c): the initial centres are the first k points;
 * map: every point (one per thread) finds its nearest centre (the full squared distance
 * to every centre, `if (dist < min_dist)`); reduce: every centre becomes the mean of its
 * points, summed per fixed chunk of CHUNK points (a thread per (chunk, feature), then a
 * thread per (centre, feature) adding the chunks in order, so the float sums do not
 * depend on the thread count); until at most 0.1% of the points changed or max_iter.
 * The points are stored feature-major (feature d of point i at feature[d][i]), as GPU
 * k-means stores them (Rodinia's kmeans transposes MineBench's row-major array for
 * this): a warp's load of one feature reads its 32 points' values from one 128-byte
 * run (four lines) instead of 32 lines 144 bytes apart, so the warp's 32 points (4.6
 * KB) fit the cache and are read at full rate, once per centre: 002's "excellent
 * temporal locality and a small working set per warp" and its KM at the chip's full
 * 2,048 G thread-instructions a second with one warp (Table 3).  (A feature's row is
 * padded by a line, as GPU code pads a pitch: rows a power of two apart would put the
 * 36 features of a warp's points into the same four cache sets.)
 *
 * --arg N | 1 << 30 (ARG_SELECTS): the branch-free variant (docs/dom.md, "What control
 * flow costs"): the nearest-centre test `if (dist < min_dist)` as arithmetic selects.
 *
 * Input (from wsim_seed()): points scattered around k hidden centres in [0, 16)^36 plus
 * 5% uniform outliers (kmeans.c's generator); the KDD-cup set 002 used is not shipped.
 * arg: 0 = tiny (128 points, 1 iteration), 1 = small (4,096 points, at most 5),
 *      2 = paper (16,384 points, at most 5: 002's ~494,000 points scaled down 30x so a
 *      run takes minutes); N >= 3: N points (at most NMAX), at most 5 iterations.
 *      k = 32 always.
 * Results: membership, final centres, cluster sizes, (points, k, iterations, changes).
 * Self-check (as kmeans.c): sampled points' assigned centres are nearest (distances
 * summed in reverse order, within 1e-5 relative), sampled centre coordinates are the
 * means of their members (within 1e-4), the cluster sizes add up to the points.
 */
#include "warpsplit.h"

#define D 36u                 /* dimensions (features) */
#define NMAX 16384u
#define PITCH (NMAX + 8u)     /* a feature's row: one line more than the points, so that the
                                 36 rows of a warp's points fall into different cache sets */
#define KMAX 32u
#define CHUNK 64u             /* points per partial-sum task */
#define NCHUNK_MAX ((NMAX + CHUNK - 1u) / CHUNK)
#define CHECK_STRIDE 7u
#define FLT_BIG 3.0e38f
#define ARG_SELECTS (1u << 30)  /* --arg bit: the branch-free variant */

static float feature[D * PITCH];             /* the points, feature-major: [d][i] */
static float centre[2][KMAX * D];            /* centres: read one, write the other */
static float part_sum[NCHUNK_MAX * KMAX * D]; /* [chunk][c][d] */
static int32_t part_cnt[NCHUNK_MAX * KMAX];  /* [chunk][c] points of chunk in cluster c */
static int32_t part_chg[NCHUNK_MAX];         /* membership changes in the chunk */
static uint8_t changed[NMAX];

static int32_t membership[NMAX];
static float clusters[KMAX * D];              /* the final centres */
static int32_t cluster_size[KMAX];
static int32_t stats[4];                      /* points, k, iterations, changes in the last */

WSIM_RESULT(membership);
WSIM_RESULT(clusters);
WSIM_RESULT(cluster_size);
WSIM_RESULT(stats);

typedef struct {
    uint32_t n, k, max_iter;
} problem;

static problem problem_size(uint32_t arg) {
    problem p;
    p.k = KMAX;
    p.max_iter = 5;
    if (arg == 0) {
        p.n = 128;
        p.max_iter = 1;
    } else if (arg == 1) {
        p.n = 4096;
    } else if (arg == 2) {
        p.n = NMAX;
    } else {
        p.n = arg < NMAX ? arg : NMAX;
    }
    return p;
}

/* Point i: around hidden centre (hash % k) with a spread that differs per centre
 * (a sum of two uniforms), or, for 5% of the points, uniform in the box [0, 16)^D.
 * x[d * PITCH]: its features. */
static void make_point(uint32_t seed, uint32_t i, uint32_t k, float *x) {
    wsim_rng r = wsim_rng_init(seed, i);
    uint32_t h = wsim_rand(&r), c = h % k, d;
    wsim_rng cr = wsim_rng_init(seed ^ 0xc3a5c85cu, c);
    float spread = 0.25f + 1.5f * wsim_rand_unit(&cr);
    for (d = 0; d < D; d++) {
        float centre_d = 16.0f * wsim_rand_unit(&cr);
        float noise = wsim_rand_unit(&r) + wsim_rand_unit(&r) - 1.0f;
        x[d * PITCH] = (h >> 24) < 13u ? 16.0f * wsim_rand_unit(&r) : centre_d + spread * noise;
    }
}

/* Squared Euclidean distance (MineBench's euclid_dist_2) of point x (x[d * PITCH]) and
 * centre m. */
static float euclid_dist_2(const float *x, const float *m) {
    float dist = 0.0f;
    uint32_t d;
    for (d = 0; d < D; d++)
        dist += (x[d * PITCH] - m[d]) * (x[d * PITCH] - m[d]);
    return dist;
}

/* Nearest centre of x (MineBench's find_nearest_point): the first centre at minimal
 * distance (only strictly smaller distances replace the best). */
static uint32_t find_nearest(const float *x, const float *cent, uint32_t k) {
    float min_dist = FLT_BIG;
    uint32_t c, idx = 0;
    for (c = 0; c < k; c++) {
        float dist = euclid_dist_2(x, &cent[c * D]);
        if (dist < min_dist) {
            min_dist = dist;
            idx = c;
        }
    }
    return idx;
}

/* c ? a : b (c is 0 or 1) without a branch. RV32IMF has no conditional move: the compiler
 * turns a `?:` — and the mask arithmetic below, which it recognizes — into a branch; the
 * empty asm hides the mask's origin from it. */
static uint32_t sel_u32(uint32_t c, uint32_t a, uint32_t b) {
    uint32_t m = 0u - c;
#ifdef __riscv
    __asm__("" : "+r"(m));
#endif
    return (a & m) | (b & ~m);
}

/* find_nearest with the test's outcome selecting, arithmetically. */
static uint32_t find_nearest_sel(const float *x, const float *cent, uint32_t k) {
    union {
        float f;
        uint32_t u;
    } md, d;
    uint32_t c, idx = 0;
    md.f = FLT_BIG;
    for (c = 0; c < k; c++) {
        d.f = euclid_dist_2(x, &cent[c * D]);
        uint32_t lt = d.f < md.f;
        md.u = sel_u32(lt, d.u, md.u);
        idx = sel_u32(lt, c, idx);
    }
    return idx;
}

/* The self-check's distance: the same sum in the reverse dimension order. */
static float dist_reverse(const float *x, const float *m) {
    float dist = 0.0f;
    uint32_t d;
    for (d = D; d-- > 0;) {
        float t = m[d] - x[d * PITCH];
        dist += t * t;
    }
    return dist;
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t seed = wsim_seed();
    problem pb = problem_size(wsim_arg() & ~ARG_SELECTS);
    const uint32_t selects = (wsim_arg() & ARG_SELECTS) != 0;
    uint32_t n = pb.n, k = pb.k < pb.n ? pb.k : pb.n;
    uint32_t nchunk = (n + CHUNK - 1u) / CHUNK;
    uint32_t i, t, iter = 0, cur = 0, changes = 0;
    int bad = 0;

    for (i = tid; i < n; i += nthreads) {
        make_point(seed, i, k, &feature[i]);
        membership[i] = -1;
    }
    wsim_barrier();
    for (i = tid; i < k * D; i += nthreads) /* initial centres: the first k points */
        centre[0][i] = feature[i % D * PITCH + i / D];
    wsim_roi_begin(); /* the iterations, map and reduce: what 002 measures */

    while (iter < pb.max_iter) {
        const float *cent = centre[cur];
        float *next = centre[cur ^ 1u];

        /* Map: nearest centre of every point. */
        for (i = tid; i < n; i += nthreads) {
            int32_t idx = (int32_t)(selects ? find_nearest_sel(&feature[i], cent, k)
                                            : find_nearest(&feature[i], cent, k));
            changed[i] = membership[i] != idx;
            membership[i] = idx;
        }
        wsim_barrier();

        /* Reduce, level 1: task (chunk, d) sums dimension d of the chunk per cluster;
         * the d = 0 task also counts the chunk's cluster sizes and changes. Neighbouring
         * tasks are neighbouring chunks of one feature row. */
        for (t = tid; t < nchunk * D; t += nthreads) {
            uint32_t ch = t % nchunk, d = t / nchunk, p, c;
            uint32_t end = (ch + 1u) * CHUNK < n ? (ch + 1u) * CHUNK : n;
            float acc[KMAX];
            for (c = 0; c < k; c++)
                acc[c] = 0.0f;
            for (p = ch * CHUNK; p < end; p++)
                acc[membership[p]] += feature[d * PITCH + p];
            for (c = 0; c < k; c++)
                part_sum[(ch * KMAX + c) * D + d] = acc[c];
            if (d == 0) {
                int32_t cnt[KMAX], chg = 0;
                for (c = 0; c < k; c++)
                    cnt[c] = 0;
                for (p = ch * CHUNK; p < end; p++) {
                    cnt[membership[p]]++;
                    chg += changed[p];
                }
                for (c = 0; c < k; c++)
                    part_cnt[ch * KMAX + c] = cnt[c];
                part_chg[ch] = chg;
            }
        }
        wsim_barrier();

        /* Reduce, level 2: task (c, d) adds the chunks in order: the new centre. */
        for (t = tid; t < k * D; t += nthreads) {
            uint32_t c = t / D, d = t % D, ch;
            float sum = 0.0f;
            int32_t cnt = 0;
            for (ch = 0; ch < nchunk; ch++) {
                sum += part_sum[(ch * KMAX + c) * D + d];
                cnt += part_cnt[ch * KMAX + c];
            }
            next[c * D + d] = cnt > 0 ? sum / (float)cnt : cent[c * D + d];
            if (d == 0)
                cluster_size[c] = cnt;
        }
        changes = 0; /* every thread adds the same numbers: a uniform loop exit */
        for (t = 0; t < nchunk; t++)
            changes += (uint32_t)part_chg[t];
        wsim_barrier();

        cur ^= 1u;
        iter++;
        if (changes * 1000u <= n) /* delta = changes / n <= 0.001 */
            break;
    }
    wsim_roi_end();

    /* Self-check against the centres of the last map (centre[cur ^ 1]): the assigned
     * centre is (up to rounding) a nearest one. */
    for (i = tid * CHECK_STRIDE; i < n; i += nthreads * CHECK_STRIDE) {
        const float *cent = centre[cur ^ 1u];
        uint32_t c;
        float da = dist_reverse(&feature[i], &cent[(uint32_t)membership[i] * D]);
        for (c = 0; c < k; c++)
            if (!(da <= dist_reverse(&feature[i], &cent[c * D]) * (1.0f + 1e-5f)))
                bad = 1;
    }
    /* The final centres (centre[cur]) are the means of the last map's clusters. */
    for (t = tid * CHECK_STRIDE; t < k * D; t += nthreads * CHECK_STRIDE) {
        uint32_t c = t / D, d = t % D, p;
        float sum = 0.0f, sum_abs = 0.0f;
        int32_t cnt = 0;
        for (p = 0; p < n; p++) { /* branch-free: w = 1 for members, else 0 */
            int32_t in = membership[p] == (int32_t)c;
            float w = (float)in, x = feature[d * PITCH + p];
            sum += w * x;
            sum_abs += w * fabsf(x);
            cnt += in;
        }
        if (cnt != cluster_size[c])
            bad = 1;
        else if (cnt > 0 &&
                 !(fabsf(centre[cur][t] - sum / (float)cnt) <= 1e-4f * sum_abs / (float)cnt + 1e-6f))
            bad = 1;
    }
    for (i = tid; i < k * D; i += nthreads)
        clusters[i] = centre[cur][i];
    if (tid == 0) {
        int32_t total = 0;
        for (t = 0; t < k; t++)
            total += cluster_size[t];
        if (total != (int32_t)n)
            bad = 1;
        stats[0] = (int32_t)n;
        stats[1] = (int32_t)k;
        stats[2] = (int32_t)iter;
        stats[3] = (int32_t)changes;
    }
    return bad;
}
