/* svm.c — support vector machine kernel computation (MineBench SVM), RBF and polynomial.
 *
 * Benchmark "SVM" of the Dynamic Warp Subdivision papers (Meng, Tarjan, Skadron): a
 * supervised learner from MineBench (Narayanan et al., IISWC 2006), "support vector
 * machine's kernel computation", input 1,024 vectors in a 20-D space (seed 000,
 * Table 1) or 100,000 vectors (seed 001, Table 2).  MineBench's data sets cannot be
 * shipped; a generator (seeded by wsim_seed()) stands in: dense 20-D feature vectors
 * scaled to [-1, 1) (as libsvm's svm-scale does), 3/8 of the features exactly zero,
 * and a model of nsv support vectors — the first nsv vectors — with coefficients
 * alpha_i * y_i, alpha clipped to the box [0, C] when the model is generated.
 *
 * The kernel computation is that of MineBench's SVM (SVM-RFE's libsvm-based svm.cpp:
 * Kernel::dot in its dense form, a loop over all nGeneLength features, and the
 * kernel_rbf / kernel_poly functions) evaluated as svm_predict_values does: for every
 * vector x_k,
 *     dot(x_r, x_k)  the dense dot product over all D features,
 *     RBF            K = exp(-gamma (|x_r|^2 + |x_k|^2 - 2 dot)), no cut-off,
 *     polynomial     K = (gamma_p dot + coef0)^degree (MineBench's copy calls pow();
 *                    for the integer degree, libsvm's later powi: square and
 *                    multiply over the bits of the degree),
 * and the decision values f(x_k) = sum_r coef_r K(x_r, x_k) - rho of both kernels, the
 * sum in support-vector order.  Phase 1 computes |x_k|^2 (x_square[] of libsvm's
 * Kernel, the same dot); a wsim_barrier() separates it from phase 2, which reads
 * |x_r|^2 of the support vectors.  With nsv = n (arg 2) phase 2 walks the whole n x n
 * kernel matrix.  exp() is this file's own (Cephes-style range reduction and
 * polynomial with fmaf, no libm), so the results are bit-identical on wpusim and on
 * the host; its argument is -gamma |x_r - x_k|^2 > -gamma 4 D = -40, where the
 * reduction needs no special cases.
 *
 * Work distribution as in the papers: data-parallel loops over the vectors,
 * neighbouring vectors on neighbouring threads of a warp; all lanes read the same
 * support vector (a broadcast) and their own vector (an 80-byte stride).
 *
 * Divergence: none in the kernel computation, as in the original (seed 000's Table 2
 * counts no non-loop conditional branches for SVM): the dot products, the exponential
 * and the polynomial are straight-line code (clang unrolls the fixed-length loops) and
 * every loop has the same trip count on all lanes.  What is left is the item loops'
 * tails when n is not a multiple of the thread count, the generator's branches for
 * the support vectors (the alpha clip, the coefficient's sign) and the self-check;
 * the generator zeroes features with a mask, not a branch, so that a stand-in for
 * reading the input does not add a divergent branch per feature.  The papers' SVM
 * exercises memory divergence (each lane reads its own vector) rather than branch
 * divergence.
 *
 * arg: 0 = tiny (192 vectors, 16 support vectors), 1 = small (8,192 / 64),
 *      2 = paper 000 (1,024 / 1,024: the full kernel matrix), 3 = paper 001
 *      (100,000 / 64); any other value N >= 4 = N vectors (at most NMAX), min(N, 64)
 *      support vectors.
 * Self-check: exp() against known values; on a sample of vectors x (and a partner y
 * chosen from the index): K_rbf(x, x) = 1 exactly; |y|^2 of phase 1 equals dot(y, y);
 * the RBF kernel from the dot product agrees with exp(-gamma |x - y|^2) computed from
 * the differences (libsvm's k_function form, within 1e-5 relative); K_rbf(x, y) =
 * K_rbf(y, x) and K_poly(x, y) = K_poly(y, x) bit for bit, and the polynomial kernel
 * equals t * t * t for t = gamma_p dot + coef0.
 */
#include "tasks.h"

#define D 20u
#define NMAX 100000u
#define GAMMA 0.5f      /* RBF: exp(-GAMMA |x - y|^2) */
#define GAMMA_P 0.05f   /* polynomial: (GAMMA_P dot + COEF0)^DEGREE, gamma = 1/D */
#define COEF0 1.0f
#define DEGREE 3
#define BOX_C 1.0f      /* box constraint: 0 <= alpha <= C */
#define RHO 0.125f
#define CHECK_STRIDE 29u

static float vec[NMAX * D];    /* the vectors, row-major (dense) */
static float sv_coef[NMAX];    /* alpha_r * y_r of the support vectors (the first nsv) */
static float x_square[NMAX];   /* |x_k|^2 */
static float dec_rbf[NMAX];    /* decision values */
static float dec_poly[NMAX];
static uint32_t info[2];       /* n, nsv */

WSIM_RESULT(x_square);
WSIM_RESULT(dec_rbf);
WSIM_RESULT(dec_poly);
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

/* Vector k: each feature 0 with probability 3/8, else uniform in [-1, 1)
 * with 16 bits; a support vector also gets its coefficient alpha y, alpha drawn from
 * [0, 1.5 C) and clipped to C. */
static void make_vector(uint32_t seed, uint32_t k, uint32_t nsv) {
    wsim_rng r = wsim_rng_init(seed, k);
    uint32_t d;
    for (d = 0; d < D; d++) {
        uint32_t h = wsim_rand(&r);
        union {
            float f;
            uint32_t u;
        } v;
        v.f = (float)(h >> 16) * (1.0f / 32768.0f) - 1.0f;
        v.u &= 0u - (((h & 7u) + 5u) >> 3); /* 0.0f when (h & 7) < 3, without a branch */
        vec[k * D + d] = v.f;
    }
    if (k < nsv) {
        uint32_t h = wsim_rand(&r);
        float alpha = 1.5f * BOX_C * wsim_rand_unit(&r);
        if (alpha > BOX_C)
            alpha = BOX_C;
        sv_coef[k] = (h & 1u) ? alpha : -alpha;
    }
}

/* The dense dot product (MineBench's Kernel::dot over all nGeneLength features).
 * dot() and exp_small() are kept as calls (separate functions in the original too:
 * Kernel::dot and libm's exp).  Inlined into phase 2, clang keeps the lane's 20
 * features or the exponential's constants in registers across the support-vector
 * loop and spills others to the thread's stack in every iteration; the stacks, 16 KiB
 * apart, all fall into one set of the default 32 KiB 8-way L1, so the kernel's memory
 * behaviour would be an artefact of register allocation (at arg 2: 4x the cycles with
 * clang's own inlining, 9x with dot() inlined). */
static __attribute__((noinline)) float dot(const float *a, const float *b) {
    float s = 0.0f;
    uint32_t d;
    for (d = 0; d < D; d++)
        s += a[d] * b[d];
    return s;
}

/* e^x for -87 <= x <= 0 (also fine a little above 0): x = n ln2 + f with |f| <= ln2 / 2,
 * e^f by Cephes expf's polynomial, times 2^n built in the exponent (n >= -126: a
 * normal number).  The RBF kernel's arguments lie in (-40, 0], up to rounding. */
static __attribute__((noinline)) float exp_small(float x) {
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

/* libsvm's kernel_rbf: exp(-gamma (|a|^2 + |b|^2 - 2 a.b)). */
static float rbf(float sq_a, float sq_b, float dot_ab) {
    return exp_small(-GAMMA * (sq_a + sq_b - 2.0f * dot_ab));
}

/* libsvm's kernel_poly: (gamma a.b + coef0)^degree. */
static float poly(float dot_ab) {
    return powi(GAMMA_P * dot_ab + COEF0, DEGREE);
}

/* The self-check's RBF kernel, as libsvm's k_function computes it: from the
 * differences, exp(-gamma sum (a_d - b_d)^2). */
static float rbf_diff(const float *a, const float *b) {
    float sum = 0.0f;
    uint32_t d;
    for (d = 0; d < D; d++) {
        float t = a[d] - b[d];
        sum += t * t;
    }
    return exp_small(-GAMMA * sum);
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t seed = wsim_seed(), n, nsv, k, r;
    int bad = 0;

    problem_size(wsim_arg(), &n, &nsv);

    /* Phase 1: the vectors and their squared norms. */
    WSIM_FOR(k, 0, n) {
        make_vector(seed, k, nsv);
        x_square[k] = dot(&vec[k * D], &vec[k * D]);
    }
    wsim_roi_begin(); /* the measured phase: the decision values */

    /* Phase 2: kernel values against every support vector, decision values. */
    WSIM_FOR(k, 0, n) {
        const float *x = &vec[k * D];
        float sq = x_square[k], f_rbf = 0.0f, f_poly = 0.0f;
        for (r = 0; r < nsv; r++) {
            float d = dot(&vec[r * D], x);
            f_rbf += sv_coef[r] * rbf(x_square[r], sq, d);
            f_poly += sv_coef[r] * poly(d);
        }
        dec_rbf[k] = f_rbf - RHO;
        dec_poly[k] = f_poly - RHO;
    }
    wsim_roi_end();

    /* Self-check on a sample: K(x, x) = 1, the dot-product form of the RBF kernel
     * against the difference form, symmetry, the polynomial against t^3. */
    for (k = tid * CHECK_STRIDE; k < n; k += nthreads * CHECK_STRIDE) {
        uint32_t o = (k * 7u + 3u) % n;
        const float *x = &vec[k * D], *y = &vec[o * D];
        float sq_y = x_square[o], xy = dot(x, y), yx = dot(y, x);
        float k_xy = rbf(x_square[k], sq_y, xy), ref = rbf_diff(x, y);
        float t = GAMMA_P * xy + COEF0;
        if (sq_y != dot(y, y) || rbf(x_square[k], x_square[k], dot(x, x)) != 1.0f)
            bad = 1;
        if (!(fabsf(k_xy - ref) <= 1e-5f * ref))
            bad = 1;
        if (k_xy != rbf(sq_y, x_square[k], yx) || poly(xy) != poly(yx) || poly(xy) != t * t * t)
            bad = 1;
    }
    if (tid == 0) {
        float e1 = exp_small(-1.0f), eh = exp_small(-0.5f), e4 = exp_small(-4.75f);
        float e15 = exp_small(-15.0f), e30 = exp_small(-30.0f);
        if (fabsf(e1 - 0.36787944f) > 1e-7f || fabsf(eh * eh - e1) > 2e-7f ||
            fabsf(e4 - 8.6516952e-3f) > 3e-9f || exp_small(0.0f) != 1.0f ||
            !(fabsf(e30 - 9.3576230e-14f) <= 3e-7f * e30) || !(fabsf(e15 * e15 - e30) <= 5e-7f * e30))
            bad = 1;
        info[0] = n;
        info[1] = nsv;
    }
    return bad;
}
