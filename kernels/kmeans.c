/* kmeans.c — k-means clustering (MineBench kmeans), map-reduce of the new centres.
 *
 * Benchmark "KMeans" of the Dynamic Warp Subdivision papers (Meng, Tarjan, Skadron:
 * seed 001 Table 2, seed 000 Table 1): unsupervised classification from MineBench
 * (Narayanan et al., IISWC 2006), "distance aggregation using map-reduce", input
 * 10,000 points in a 20-D space.  MineBench's data sets cannot be shipped; a generator
 * (seeded by wsim_seed()) stands in: points scattered around K hidden centres, plus
 * 5% uniform outliers.
 *
 * The algorithm is MineBench's kmeans_clustering(): the initial centres are the first
 * k points; then, repeatedly,
 *   map:    every point finds its nearest centre and records it in membership[],
 *           counting the points whose membership changed;
 *   reduce: every centre becomes the mean of its points (a centre without points keeps
 *           its place);
 * until at most 0.1% of the points changed (MineBench's threshold 0.001) or after
 * max_iter iterations.  The nearest-centre search is MineBench's find_nearest_point():
 * the full squared Euclidean distance to every centre (euclid_dist_2, the "distance
 * aggregation" over all D dimensions), keeping the minimum with
 * `if (dist < min_dist)` — the first centre at minimal distance wins.
 *
 * Work distribution as in the papers: the map is a data-parallel loop over points
 * (neighbouring points on neighbouring threads of a warp); the reduce is map-reduce
 * with per-task partial sums: task (chunk, d) sums dimension d of the points of a
 * fixed chunk of CHUNK points into one accumulator per centre, then task (c, d) adds
 * the chunks' partial sums in chunk order.  Fixed chunks (not per-thread sums) keep
 * the float sums — and so the results — the same for any thread count.  Barriers:
 * map | partial sums | centres | next map.
 *
 * Divergence: the data-dependent branch is MineBench's "new minimum" test
 * `if (dist < min_dist)`, once per (point, centre), taken or not per lane depending
 * on where each lane's point lies; every other loop has the same trip count on all
 * lanes (D and k are fixed), apart from the item loops' tails.  In the reduce, the
 * d == 0 task of each chunk also counts cluster sizes and changes (one lane in D
 * diverges), the last chunk may be short, and empty clusters keep their centre.
 * Each lane reads its own point (an 80-byte stride across the warp) and the reduce
 * scatters into per-centre accumulators by membership: memory divergence.
 *
 * arg: 0 = tiny (200 points, k = 8, at most 3 iterations), 1 = small (2,500 points,
 *      k = 16, at most 8), 2 or 3 = paper (10,000 points, k = 16, at most 8);
 *      any other value N >= 4 = N points (at most NMAX), k = 16, at most 8 iterations;
 *      16384 = seed 004's input: 16 K one-dimensional 8-bit points (KM004 below).
 * Self-check, against the centres of the last map and computed differently from the
 * map and the reduce: every CHECK_STRIDE-th point's assigned centre is at the minimal
 * distance, with the distances summed in the reverse dimension order (so equal up to
 * rounding: within a relative 1e-5); every CHECK_STRIDE-th (centre, dimension) of the
 * final centres equals the mean of its cluster's members summed sequentially over all
 * points (within 1e-4 of the mean absolute value), and the member count equals
 * cluster_size[]; the cluster sizes add up to the number of points.
 */
#include "tasks.h"

#define D 20u                 /* dimensions (features) */
#define NMAX 10000u
#define KMAX 16u
#define CHUNK 64u             /* points per partial-sum task */
#define NCHUNK_MAX ((NMAX + CHUNK - 1u) / CHUNK)
#define CHECK_STRIDE 7u
#define FLT_BIG 3.0e38f

static float feature[NMAX * D];              /* the points, row-major as in MineBench */
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
    p.max_iter = 8;
    if (arg == 0) {
        p.n = 200;
        p.k = 8;
        p.max_iter = 3;
    } else if (arg == 1) {
        p.n = 2500;
    } else if (arg <= 3) {
        p.n = NMAX;
    } else {
        p.n = arg < NMAX ? arg : NMAX;
    }
    return p;
}

/* Point i: around hidden centre (hash % k) with a spread that differs per centre
 * (a sum of two uniforms), or, for 5% of the points, uniform in the box [0, 16)^D. */
static void make_point(uint32_t seed, uint32_t i, uint32_t k, float *x) {
    wsim_rng r = wsim_rng_init(seed, i);
    uint32_t h = wsim_rand(&r), c = h % k, d;
    wsim_rng cr = wsim_rng_init(seed ^ 0xc3a5c85cu, c);
    float spread = 0.25f + 1.5f * wsim_rand_unit(&cr);
    for (d = 0; d < D; d++) {
        float centre_d = 16.0f * wsim_rand_unit(&cr);
        float noise = wsim_rand_unit(&r) + wsim_rand_unit(&r) - 1.0f;
        x[d] = (h >> 24) < 13u ? 16.0f * wsim_rand_unit(&r) : centre_d + spread * noise;
    }
}

/* Squared Euclidean distance (MineBench's euclid_dist_2). */
static float euclid_dist_2(const float *x, const float *m) {
    float dist = 0.0f;
    uint32_t d;
    for (d = 0; d < D; d++)
        dist += (x[d] - m[d]) * (x[d] - m[d]);
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

/* The self-check's distance: the same sum in the reverse dimension order. */
static float dist_reverse(const float *x, const float *m) {
    float dist = 0.0f;
    uint32_t d;
    for (d = D; d-- > 0;) {
        float t = m[d] - x[d];
        dist += t * t;
    }
    return dist;
}

/* KM004: seed 004's kmeans (Table 2: 16 K one-dimensional 8-bit data points), arg
 * 16384 (before: 10,000 points, the clamp).  The same MineBench algorithm as below —
 * initial centres = the first k points, map with find_nearest's `if (dist < min_dist)`
 * (here the squared distance of one dimension: the branch comes every few
 * instructions, which puts kmeans among 004's branch-intensive benchmarks), reduce by
 * fixed chunks of CHUNK points then per centre, stop at <= 0.1% changes — on points of
 * its own arrays, k = 16, at most KM004_ITERS (MineBench's default 500) iterations.
 * Points: uint8, around 16 hidden centres (16..239, +-16) plus 5% uniform outliers.
 * The sums are integers (at most 16384 * 255 < 2^24), the centres sum / count.
 * Results in the usual regions: membership holds one byte per point (points 0 ..
 * 16383 in its first 16 KB), clusters[0 .. k) the centres, cluster_size, stats.
 * Self-check: every CHECK_STRIDE-th point's centre is at the minimal distance (within
 * a relative 1e-5); every centre is the mean of its members, recounted over all
 * points. */
#define KM004_ARG 16384u
#define KM004_N 16384u
#define KM004_K 16u
#define KM004_ITERS 500u
#define KM004_NCHUNK (KM004_N / CHUNK)
static uint8_t km004_x[KM004_N];
static float km004_cent[2][KM004_K];
static uint32_t km004_psum[KM004_NCHUNK * KM004_K], km004_pcnt[KM004_NCHUNK * KM004_K];
static uint32_t km004_pchg[KM004_NCHUNK];
static uint8_t km004_changed[KM004_N];
_Static_assert(KM004_N <= sizeof(int32_t) * NMAX, "KM004: one membership byte per point");

static int kmeans_1d(unsigned tid, unsigned nthreads) {
    uint32_t s = wsim_mix32(wsim_seed() ^ 0x6b6d3034u), n = KM004_N, k = KM004_K;
    uint32_t i, t, iter = 0, cur = 0, changes = 0;
    uint8_t *member = (uint8_t *)membership; /* one byte per point (char types may alias) */
    int bad = 0;

    for (i = tid; i < n; i += nthreads) {
        uint32_t h = wsim_mix32(s ^ i), c = h % k;
        uint32_t centre = 16u + wsim_mix32(s + c) % 224u;
        km004_x[i] = (uint8_t)((h >> 24) < 13u ? (h >> 16) & 255u : centre + ((h >> 8) & 31u) - 16u);
        member[i] = 0xff; /* no cluster yet */
    }
    wsim_barrier();
    for (i = tid; i < k; i += nthreads)
        km004_cent[0][i] = (float)km004_x[i];
    wsim_roi_begin(); /* the measured phase: the iterations */

    while (iter < KM004_ITERS) {
        const float *cent = km004_cent[cur];
        /* Map: the nearest centre of every point (find_nearest_point). */
        for (i = tid; i < n; i += nthreads) {
            float x = (float)km004_x[i], min_dist = FLT_BIG;
            uint32_t c, idx = 0;
            for (c = 0; c < k; c++) {
                float dist = (x - cent[c]) * (x - cent[c]);
                if (dist < min_dist) {
                    min_dist = dist;
                    idx = c;
                }
            }
            km004_changed[i] = member[i] != idx;
            member[i] = (uint8_t)idx;
        }
        wsim_barrier();
        /* Reduce, level 1: task t sums chunk t per cluster and counts its changes. */
        for (t = tid; t < KM004_NCHUNK; t += nthreads) {
            /* Accumulated in place, not in arrays on the stack: the lanes' stacks are
             * 16 KiB apart, all in one cache set. */
            uint32_t *acc = &km004_psum[t * KM004_K], *cnt = &km004_pcnt[t * KM004_K];
            uint32_t c, chg = 0;
            for (c = 0; c < k; c++)
                acc[c] = cnt[c] = 0;
            for (i = t * CHUNK; i < (t + 1u) * CHUNK; i++) {
                acc[member[i]] += km004_x[i];
                cnt[member[i]]++;
                chg += km004_changed[i];
            }
            km004_pchg[t] = chg;
        }
        wsim_barrier();
        /* Reduce, level 2: centre c = the mean of its points (an empty cluster keeps its
         * place). */
        for (t = tid; t < k; t += nthreads) {
            uint32_t ch, sum = 0, cnt = 0;
            for (ch = 0; ch < KM004_NCHUNK; ch++) {
                sum += km004_psum[ch * KM004_K + t];
                cnt += km004_pcnt[ch * KM004_K + t];
            }
            km004_cent[cur ^ 1u][t] = cnt > 0 ? (float)sum / (float)cnt : cent[t];
            cluster_size[t] = (int32_t)cnt;
        }
        changes = 0; /* the same sum in every thread: a uniform loop exit */
        for (t = 0; t < KM004_NCHUNK; t++)
            changes += km004_pchg[t];
        wsim_barrier();
        cur ^= 1u;
        iter++;
        if (changes * 1000u <= n)
            break;
    }
    wsim_roi_end();

    /* Self-check against the centres of the last map (km004_cent[cur ^ 1]). */
    for (i = tid * CHECK_STRIDE; i < n; i += nthreads * CHECK_STRIDE) {
        const float *cent = km004_cent[cur ^ 1u];
        float x = (float)km004_x[i], da = (cent[member[i]] - x) * (cent[member[i]] - x);
        uint32_t c;
        for (c = 0; c < k; c++)
            if (!(da <= (cent[c] - x) * (cent[c] - x) * (1.0f + 1e-5f)))
                bad = 1;
    }
    for (t = tid; t < k; t += nthreads) { /* the final centres are the clusters' means */
        uint32_t sum = 0, cnt = 0;
        for (i = 0; i < n; i++) {
            uint32_t in = member[i] == t;
            sum += in * km004_x[i];
            cnt += in;
        }
        if (cnt != (uint32_t)cluster_size[t] ||
            (cnt > 0 && km004_cent[cur][t] != (float)sum / (float)cnt))
            bad = 1;
        clusters[t] = km004_cent[cur][t];
    }
    if (tid == 0) {
        stats[0] = (int32_t)n;
        stats[1] = (int32_t)k;
        stats[2] = (int32_t)iter;
        stats[3] = (int32_t)changes;
    }
    return bad;
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t seed = wsim_seed();
    problem pb = problem_size(wsim_arg());
    uint32_t n = pb.n, k = pb.k < pb.n ? pb.k : pb.n;
    uint32_t nchunk = (n + CHUNK - 1u) / CHUNK;
    uint32_t i, t, iter = 0, cur = 0, changes = 0;
    int bad = 0;

    if (wsim_arg() == KM004_ARG)
        return kmeans_1d(tid, nthreads);
    WSIM_FOR(i, 0, n) {
        make_point(seed, i, k, &feature[i * D]);
        membership[i] = -1;
    }
    wsim_barrier();
    WSIM_FOR(i, 0, k * D) /* initial centres: the first k points */
        centre[0][i] = feature[i];
    wsim_roi_begin(); /* the measured phase: the iterations */

    while (iter < pb.max_iter) {
        const float *cent = centre[cur];
        float *next = centre[cur ^ 1u];

        /* Map: nearest centre of every point. */
        WSIM_FOR(i, 0, n) {
            int32_t idx = (int32_t)find_nearest(&feature[i * D], cent, k);
            changed[i] = membership[i] != idx;
            membership[i] = idx;
        }
        wsim_barrier();

        /* Reduce, level 1: task (chunk, d) sums dimension d of the chunk per cluster;
         * the d = 0 task also counts the chunk's cluster sizes and changes. */
        WSIM_FOR(t, 0, nchunk * D) {
            uint32_t ch = t / D, d = t % D, p, c;
            uint32_t end = (ch + 1u) * CHUNK < n ? (ch + 1u) * CHUNK : n;
            float acc[KMAX];
            for (c = 0; c < k; c++)
                acc[c] = 0.0f;
            for (p = ch * CHUNK; p < end; p++)
                acc[membership[p]] += feature[p * D + d];
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
        WSIM_FOR(t, 0, k * D) {
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
        float da = dist_reverse(&feature[i * D], &cent[(uint32_t)membership[i] * D]);
        for (c = 0; c < k; c++)
            if (!(da <= dist_reverse(&feature[i * D], &cent[c * D]) * (1.0f + 1e-5f)))
                bad = 1;
    }
    /* The final centres (centre[cur]) are the means of the last map's clusters. */
    for (t = tid * CHECK_STRIDE; t < k * D; t += nthreads * CHECK_STRIDE) {
        uint32_t c = t / D, d = t % D, p;
        float sum = 0.0f, sum_abs = 0.0f;
        int32_t cnt = 0;
        for (p = 0; p < n; p++) { /* branch-free: w = 1 for members, else 0 */
            int32_t in = membership[p] == (int32_t)c;
            float w = (float)in, x = feature[p * D + d];
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
    WSIM_FOR(i, 0, k * D)
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
