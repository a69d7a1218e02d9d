/* svm.c — support vector machine kernel computation (MineBench SVM), RBF and polynomial.
 *
 * Benchmark "SVM" of the Dynamic Warp Subdivision papers (Meng, Tarjan, Skadron): a
 * supervised learner from MineBench (Narayanan et al., IISWC 2006), "support vector
 * machine's kernel computation", input 1,024 vectors in a 20-D space (seed 000,
 * Table 1) or 100,000 vectors (seed 001, Table 2).  MineBench's data sets cannot be
 * shipped; a generator (seeded by wsim_seed()) stands in: 20-D feature vectors scaled
 * to [-1, 1) (as libsvm's svm-scale does) in which 3/8 of the features are zero
 * (absent), and a model of nsv support vectors — the first nsv vectors — with
 * coefficients alpha_i * y_i, alpha clipped to the box [0, C].
 *
 * The kernel computation is that of an SVM evaluating its kernel rows (libsvm's
 * Kernel::k_function / svm_predict_values): for every vector x_k,
 *     dot(x_r, x_k)  over the features present in both (zero features are skipped, as
 *                    a sparse representation does),
 *     RBF            K = exp(-gamma (|x_r|^2 + |x_k|^2 - 2 dot)), clipped to 0 without
 *                    evaluating the exponential when the exponent is below -CUTOFF
 *                    (a truncated RBF kernel),
 *     polynomial     K = (gamma_p dot + coef0)^degree (libsvm's powi: square and
 *                    multiply over the bits of the degree),
 * and the decision values f(x_k) = sum_r coef_r K(x_r, x_k) - rho of both kernels, the
 * sum in support-vector order.  Phase 1 computes |x_k|^2 (the same sparse dot); a
 * wsim_barrier() separates it from phase 2, which reads |x_r|^2 of the support vectors.
 * With nsv = n (arg 2) phase 2 walks the whole n x n kernel matrix.  exp() is this
 * file's own (Cephes-style range reduction and polynomial with fmaf), so the results
 * are bit-identical on wpusim and on the host.
 *
 * Work distribution as in the papers: data-parallel loops over the vectors,
 * neighbouring vectors on neighbouring threads of a warp; all lanes read the same
 * support vector (a broadcast) and their own vector.
 *
 * Divergence: the zero-feature skip in every dot product (per lane and feature) and
 * the clipping of the RBF kernel (about a quarter of the pairs skip the exponential).
 * Note: seed 000's Table 2 counts no non-loop conditional branches for SVM (the
 * original computes dense dot products); the skip and the clip add the data-dependent
 * branches asked for here while leaving the results those of the dense computation
 * (a skipped product is an exact zero).
 *
 * arg: 0 = tiny (192 vectors, 16 support vectors), 1 = small (8,192 / 64),
 *      2 = paper 000 (1,024 / 1,024: the full kernel matrix), 3 = paper 001
 *      (100,000 / 64); any other value N >= 4 = N vectors (at most NMAX), min(N, 64)
 *      support vectors.
 * Self-check: exp() against known values; on a sample, K(x, x) = 1 exactly and the
 * skipping dot product equals the dense one bit for bit.
 */
#include "warpsplit.h"

#define D 20u
#define NMAX 100000u
#define GAMMA 0.5f      /* RBF: exp(-GAMMA |x - y|^2) */
#define CUTOFF 5.0f     /* RBF values below exp(-CUTOFF) are clipped to 0 */
#define GAMMA_P 0.05f   /* polynomial: (GAMMA_P dot + COEF0)^DEGREE, gamma = 1/D */
#define COEF0 1.0f
#define DEGREE 3
#define BOX_C 1.0f      /* box constraint: 0 <= alpha <= C */
#define RHO 0.125f
#define CHECK_STRIDE 29u

static float vec[NMAX * D];    /* the vectors, row-major; 0 = feature absent */
static float sv_coef[NMAX];    /* alpha_r * y_r of the support vectors (the first nsv) */
static float x_square[NMAX];   /* |x_k|^2 */
static float dec_rbf[NMAX];    /* decision values */
static float dec_poly[NMAX];
static uint32_t clipped[NMAX]; /* RBF values clipped to 0 for vector k */
static uint32_t info[2];       /* n, nsv */

WSIM_RESULT(x_square);
WSIM_RESULT(dec_rbf);
WSIM_RESULT(dec_poly);
WSIM_RESULT(clipped);
WSIM_RESULT(info);

static void problem_size(uint32_t arg, uint32_t *n, uint32_t *nsv) {
    if (arg == 0) {
        *n = 192;
        *nsv = 16;
    } else if (arg == 1) {
        *n = 8192;
        *nsv = 64;
    } else if (arg == 2) {
        *n = 1024;
        *nsv = 1024;
    } else if (arg == 3) {
        *n = NMAX;
        *nsv = 64;
    } else {
        *n = arg < NMAX ? arg : NMAX;
        *nsv = *n < 64u ? *n : 64u;
    }
}

/* Vector k: each feature absent (0) with probability 3/8, else uniform in [-1, 1)
 * with 16 bits; a support vector also gets its coefficient alpha y, alpha drawn from
 * [0, 1.5 C) and clipped to C. */
static void make_vector(uint32_t seed, uint32_t k, uint32_t nsv) {
    wsim_rng r = wsim_rng_init(seed, k);
    uint32_t d;
    for (d = 0; d < D; d++) {
        uint32_t h = wsim_rand(&r);
        vec[k * D + d] = (h & 7u) < 3u ? 0.0f : (float)(h >> 16) * (1.0f / 32768.0f) - 1.0f;
    }
    if (k < nsv) {
        uint32_t h = wsim_rand(&r);
        float alpha = 1.5f * BOX_C * wsim_rand_unit(&r);
        if (alpha > BOX_C)
            alpha = BOX_C;
        sv_coef[k] = (h & 1u) ? alpha : -alpha;
    }
}

/* dot(a, b) over the features present in both. */
static float sparse_dot(const float *a, const float *b) {
    float s = 0.0f;
    uint32_t d;
    for (d = 0; d < D; d++) {
        if (a[d] == 0.0f || b[d] == 0.0f)
            continue;
        s += a[d] * b[d];
    }
    return s;
}

/* The dense reference (self-check). */
static float dense_dot(const float *a, const float *b) {
    float s = 0.0f;
    uint32_t d;
    for (d = 0; d < D; d++)
        s += a[d] * b[d];
    return s;
}

/* e^x for -CUTOFF <= x <= 0 (also fine a little above 0): x = n ln2 + f with
 * |f| <= ln2 / 2, e^f by Cephes expf's polynomial, times 2^n built in the exponent. */
static float exp_small(float x) {
    union {
        float f;
        uint32_t u;
    } scale;
    int32_t n = (int32_t)(x * 1.44269504f - 0.5f); /* round to nearest (x <= 0) */
    float fn = (float)n;
    float f = fmaf(-fn, 0.693359375f, x);          /* ln2 in two parts */
    float p;
    f = fmaf(-fn, -2.12194440e-4f, f);
    p = 1.9875691500e-4f;
    p = fmaf(p, f, 1.3981999507e-3f);
    p = fmaf(p, f, 8.3334519073e-3f);
    p = fmaf(p, f, 4.1665795894e-2f);
    p = fmaf(p, f, 1.6666665459e-1f);
    p = fmaf(p, f, 5.0000001201e-1f);
    p = fmaf(p, f * f, f) + 1.0f;
    scale.u = (uint32_t)(n + 127) << 23;
    return p * scale.f;
}

/* libsvm's powi: base^times by squaring. */
static float powi(float base, int times) {
    float tmp = base, ret = 1.0f;
    int t;
    for (t = times; t > 0; t /= 2) {
        if (t % 2 == 1)
            ret *= tmp;
        tmp = tmp * tmp;
    }
    return ret;
}

/* RBF kernel of vectors a and b given the dot product; *clip counts clipped values. */
static float rbf(float sq_a, float sq_b, float dot, uint32_t *clip) {
    float e = -GAMMA * (sq_a + sq_b - 2.0f * dot);
    if (e < -CUTOFF) {
        (*clip)++;
        return 0.0f;
    }
    return exp_small(e);
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t seed = wsim_seed(), n, nsv, k, r;
    int bad = 0;

    problem_size(wsim_arg(), &n, &nsv);

    /* Phase 1: the vectors and their squared norms. */
    for (k = tid; k < n; k += nthreads) {
        make_vector(seed, k, nsv);
        x_square[k] = sparse_dot(&vec[k * D], &vec[k * D]);
    }
    wsim_barrier();

    /* Phase 2: kernel values against every support vector, decision values. */
    for (k = tid; k < n; k += nthreads) {
        const float *x = &vec[k * D];
        float sq = x_square[k], f_rbf = 0.0f, f_poly = 0.0f;
        uint32_t clip = 0;
        for (r = 0; r < nsv; r++) {
            float dot = sparse_dot(&vec[r * D], x);
            float k_rbf = rbf(x_square[r], sq, dot, &clip);
            float k_poly = powi(GAMMA_P * dot + COEF0, DEGREE);
            f_rbf += sv_coef[r] * k_rbf;
            f_poly += sv_coef[r] * k_poly;
        }
        dec_rbf[k] = f_rbf - RHO;
        dec_poly[k] = f_poly - RHO;
        clipped[k] = clip;
    }

    /* Self-check on a sample: K(x, x) = 1, sparse dot = dense dot. */
    for (k = tid * CHECK_STRIDE; k < n; k += nthreads * CHECK_STRIDE) {
        uint32_t other = (k * 7u + 3u) % n, clip = 0;
        if (rbf(x_square[k], x_square[k], sparse_dot(&vec[k * D], &vec[k * D]), &clip) != 1.0f)
            bad = 1;
        if (sparse_dot(&vec[k * D], &vec[other * D]) != dense_dot(&vec[k * D], &vec[other * D]))
            bad = 1;
    }
    if (tid == 0) {
        float e1 = exp_small(-1.0f), eh = exp_small(-0.5f), e4 = exp_small(-4.75f);
        if (fabsf(e1 - 0.36787944f) > 1e-7f || fabsf(eh * eh - e1) > 2e-7f ||
            fabsf(e4 - 8.6516952e-3f) > 3e-9f || exp_small(0.0f) != 1.0f)
            bad = 1;
        info[0] = n;
        info[1] = nsv;
    }
    return bad;
}
