/* lj.c — Lennard-Jones forces over a neighbour list (seed 002 §7.3.1, "LJ"; HOOMD 0.8).
 *
 * 002: "The Lennard-Jones function (LJ) calculates the Lennard-Jones potential for each
 * particle each time step, calculating distance and force for each particle on the
 * neighbor list." One particle per thread; HOOMD's standard benchmark: 64,000 particles,
 * packing fraction 0.2, r_cut = 3.0, epsilon = sigma = 1.
 *
 * The system, the cell list (HOOMD's records {x, y, z, index} per bin) and the neighbour
 * list (r_cut + r_buff = 3.8) are nl.c's, built here in the phases before the force
 * phase (one kernel is one file, so the code is repeated; keep the two in step).  Then, after a barrier, HOOMD's gpu_compute_lj_forces
 * per particle i: for every k < n_neigh[i], j = nlist[k * N + i] (the interleaved
 * layout: a warp's lanes read one contiguous row of the list), dx = x_i - x_j, and if
 * r^2 < r_cut^2: r2inv = 1 / r^2, r6inv = r2inv^3, force/r = r2inv r6inv (12 lj1 r6inv -
 * 6 lj2), energy r6inv (lj1 r6inv - lj2), with lj1 = 4 eps sigma^12 = 4, lj2 = 4 eps
 * sigma^6 = 4; the force adds dx * force/r, the energy half of the pair's.  The 3.0 < r
 * < 3.8 shell of the list is read and skipped, as in HOOMD (002's "cutoff radius larger
 * than necessary").  Particles are at least 0.83 apart (nl.c's jitter), so the forces
 * stay finite.
 *
 * arg: as nl.c: 0 = tiny (216 particles), 1 = small (4,096), 2 = paper (64,000, 002's
 *      size); N >= 3: N particles rounded up to a cube (at most 40^3).  One time step's
 *      forces (002 simulates 600 steps; the kernel is one step plus the list build).
 * --arg N | 1 << 30 (ARG_SELECTS): the branch-free variant (docs/dom.md, "What control
 * flow costs"): every listed pair's force computed and kept by arithmetic selects when
 * inside the cut-off; the loop over the list stays.
 * Results: per particle (fx, fy, fz, energy).
 * Self-check: every 127th particle recomputes its force and energy by brute force over
 * the lattice sites within 4 of its own (other order, so within 1e-4 of the sum of the
 * contributions' magnitudes); no bin and no list overflowed.
 */
#include "warpsplit.h"

#define SIDE_MAX 40u
#define NMAX (SIDE_MAX * SIDE_MAX * SIDE_MAX)
#define NB_MAX 16u                  /* bins per axis: L / 3.838 <= 14 at SIDE_MAX */
#define BINCAP 128u                 /* particles per bin (at most ~64 here) */
#define NBRMAX 128u                 /* neighbours per particle (about 88 on average) */
#define LATTICE 1.3782337f          /* (pi / 1.2)^(1/3): packing fraction 0.2 */
#define R_LIST 3.8f                 /* r_cut 3.0 + r_buff 0.8 (HOOMD LJ benchmark) */
#define R_CUT 3.0f                  /* the force cut-off */
#define LJ1 4.0f                    /* 4 epsilon sigma^12 */
#define LJ2 4.0f                    /* 4 epsilon sigma^6 */
#define CHECK_STRIDE 127u
#define ARG_SELECTS (1u << 30)      /* --arg bit: the branch-free variant */

static float pos[NMAX * 4];
static uint32_t bin_size[NB_MAX * NB_MAX * NB_MAX];
static float bin_rec[NB_MAX * NB_MAX * NB_MAX * BINCAP * 4]; /* the cell list: bin b's k-th particle
                                                               {x, y, z, index} at [(b BINCAP + k) 4] */
static uint32_t nlist[NBRMAX * NMAX];

static uint32_t n_neigh[NMAX];
static float force[NMAX * 4]; /* fx, fy, fz, energy */

WSIM_RESULT(force);

typedef struct {
    uint32_t side, n, nb; /* lattice sites per axis, particles, bins per axis */
    uint32_t blk;         /* particle order: blocks of blk^3 sites */
    float inv_w;          /* 1 / bin side */
    float len, inv_len;   /* box side L, 1 / L */
} md_sys;

static md_sys make_system(uint32_t arg) {
    md_sys s;
    float len;
    if (arg == 0)
        s.side = 6;
    else if (arg == 1)
        s.side = 16;
    else if (arg == 2)
        s.side = SIDE_MAX;
    else
        for (s.side = 1; s.side < SIDE_MAX && s.side * s.side * s.side < arg; s.side++)
            ;
    s.n = s.side * s.side * s.side;
    s.blk = s.side % 4u == 0 ? 4u : s.side % 2u == 0 ? 2u : 1u;
    len = LATTICE * (float)s.side;
    s.nb = (uint32_t)(len / (1.01f * R_LIST));
    if (s.nb == 0)
        s.nb = 1;
    s.inv_w = (float)s.nb / len;
    s.len = len;
    s.inv_len = 1.0f / len;
    return s;
}

/* Particle order: the lattice in blocks of blk^3 sites (blk = 4, 2 or 1, the largest
 * that divides the side), blocks and the sites in a block x fastest.  Consecutive
 * particles are compact in space, as HOOMD's spatial sort makes them: the 32 particles
 * of a warp are a 4 x 4 x 2 brick, so their neighbour bins overlap.  (In plain x-fastest
 * order a warp is a 44-unit line whose candidates, ~40 KB, overflow a 32 KB L1.) */
static void site_of(const md_sys *s, uint32_t i, uint32_t *site) {
    uint32_t k = s->blk, nbk = s->side / k, bi = i / (k * k * k), w = i % (k * k * k);
    site[0] = bi % nbk * k + w % k;
    site[1] = bi / nbk % nbk * k + w / k % k;
    site[2] = bi / (nbk * nbk) * k + w / (k * k);
}

static uint32_t index_of(const md_sys *s, uint32_t x, uint32_t y, uint32_t z) {
    uint32_t k = s->blk, nbk = s->side / k;
    return ((z / k * nbk + y / k) * nbk + x / k) * (k * k * k) + (z % k * k + y % k) * k + x % k;
}

/* c ? a : b (c is 0 or 1) without a branch. RV32IMF has no conditional move: the compiler
 * turns a `?:` — and this mask arithmetic, which it recognizes — into a branch; the empty
 * asm hides the mask's origin from it. */
static uint32_t sel_u32(uint32_t c, uint32_t a, uint32_t b) {
    uint32_t m = 0u - c;
#ifdef __riscv
    __asm__("" : "+r"(m));
#endif
    return (a & m) | (b & ~m);
}

/* A particle index carried in a float's bits (the cell list's fourth word), and back. */
static float bits_float(uint32_t u) {
    union {
        uint32_t u;
        float f;
    } v;
    v.u = u;
    return v.f;
}

static uint32_t float_bits(float f) {
    union {
        float f;
        uint32_t u;
    } v;
    v.f = f;
    return v.u;
}

/* Minimum image of a coordinate difference |dx| < L (HOOMD: dx -= L * rintf(dx / L)):
 * round(dx / L) is trunc(2 dx / L) here, one conversion, no branch. */
static float min_image(const md_sys *s, float dx) {
    return dx - s->len * (float)(int32_t)(2.0f * dx * s->inv_len);
}

/* Neighbour window along one axis of n cells around c: c - 1 .. c + 1 wrapped when
 * n >= 3 (else all n cells once): its first cell (before wrapping) and its length. */
static uint32_t window(uint32_t c, uint32_t n, uint32_t half, uint32_t *first) {
    if (n >= 2u * half + 1u) {
        *first = c + n - half;
        return 2u * half + 1u;
    }
    *first = 0;
    return n;
}

/* Bin coordinate of a coordinate x in [0, L). */
static uint32_t bin_coord(const md_sys *s, float x) {
    uint32_t b = (uint32_t)(x * s->inv_w);
    return b < s->nb ? b : s->nb - 1u;
}

/* Particle i: its lattice site jittered by up to +-0.2 lattice spacings per axis. */
static void make_particle(uint32_t seed, const md_sys *s, uint32_t i, float *p) {
    wsim_rng r = wsim_rng_init(seed, i);
    uint32_t site[3], d;
    site_of(s, i, site);
    for (d = 0; d < 3; d++)
        p[d] = ((float)site[d] + 0.5f + 0.4f * (wsim_rand_unit(&r) - 0.5f)) * LATTICE;
    p[3] = 0.0f;
}

/* Bin b: the particles of the lattice sites that can reach it (a site is within 0.2 a
 * of its centre), in site order, whose position is in b. Returns 1 on overflow. */
static int fill_bin(const md_sys *s, uint32_t b) {
    uint32_t bc[3] = {b % s->nb, b / s->nb % s->nb, b / (s->nb * s->nb)}, lo[3], hi[3], d;
    uint32_t x, y, z, cnt = 0;
    float w = 1.0f / s->inv_w;
    for (d = 0; d < 3; d++) {
        uint32_t a = (uint32_t)((float)bc[d] * w * (1.0f / LATTICE));
        uint32_t e = (uint32_t)((float)(bc[d] + 1u) * w * (1.0f / LATTICE)) + 1u;
        lo[d] = a > 0 ? a - 1u : 0u;
        hi[d] = e < s->side ? e : s->side - 1u;
    }
    for (z = lo[2]; z <= hi[2]; z++)
        for (y = lo[1]; y <= hi[1]; y++)
            for (x = lo[0]; x <= hi[0]; x++) {
                uint32_t i = index_of(s, x, y, z);
                const float *p = &pos[i * 4];
                if (bin_coord(s, p[0]) == bc[0] && bin_coord(s, p[1]) == bc[1] &&
                    bin_coord(s, p[2]) == bc[2]) {
                    if (cnt < BINCAP) {
                        float *rec = &bin_rec[(b * BINCAP + cnt) * 4u];
                        rec[0] = p[0];
                        rec[1] = p[1];
                        rec[2] = p[2];
                        rec[3] = bits_float(i);
                    }
                    cnt++;
                }
            }
    bin_size[b] = cnt < BINCAP ? cnt : BINCAP;
    return cnt > BINCAP;
}

/* The neighbour list of particle i (HOOMD's gpu_nlist_binned: every particle of the
 * surrounding bins within r_list, itself excluded). Returns 1 on overflow. */
static int build_list(const md_sys *s, uint32_t i) {
    const float *pi = &pos[i * 4];
    float xi = pi[0], yi = pi[1], zi = pi[2], rl2 = R_LIST * R_LIST;
    uint32_t f[3], nx = window(bin_coord(s, xi), s->nb, 1u, &f[0]);
    uint32_t ny = window(bin_coord(s, yi), s->nb, 1u, &f[1]);
    uint32_t nz = window(bin_coord(s, zi), s->nb, 1u, &f[2]);
    uint32_t x, y, z, cnt = 0;
    for (z = 0; z < nz; z++)
        for (y = 0; y < ny; y++)
            for (x = 0; x < nx; x++) {
                uint32_t b = (((f[2] + z) % s->nb) * s->nb + (f[1] + y) % s->nb) * s->nb +
                             (f[0] + x) % s->nb;
                uint32_t m = bin_size[b], k;
                const float *rec = &bin_rec[b * BINCAP * 4u];
                for (k = 0; k < m; k++, rec += 4) { /* one record per candidate */
                    uint32_t j = float_bits(rec[3]);
                    float dx = min_image(s, rec[0] - xi), dy = min_image(s, rec[1] - yi);
                    float dz = min_image(s, rec[2] - zi);
                    float r2 = dx * dx + dy * dy + dz * dz;
                    if (r2 < rl2 && j != i) {
                        if (cnt < NBRMAX)
                            nlist[cnt * s->n + i] = j;
                        cnt++;
                    }
                }
            }
    n_neigh[i] = cnt;
    return cnt > NBRMAX;
}

/* HOOMD's pair term: force / r and the pair energy of a pair at squared distance r2. */
static float lj_pair(float r2, float *eng) {
    float r2inv = 1.0f / r2, r6inv = r2inv * r2inv * r2inv;
    *eng = r6inv * (LJ1 * r6inv - LJ2);
    return r2inv * r6inv * (12.0f * LJ1 * r6inv - 6.0f * LJ2);
}

/* The force on particle i over its neighbour list (gpu_compute_lj_forces). */
static void lj_force(const md_sys *s, uint32_t i, uint32_t selects) {
    const float *pi = &pos[i * 4];
    float xi = pi[0], yi = pi[1], zi = pi[2], rc2 = R_CUT * R_CUT;
    float fx = 0.0f, fy = 0.0f, fz = 0.0f, pe = 0.0f;
    uint32_t k, m = n_neigh[i];
    for (k = 0; k < m; k++) {
        uint32_t j = nlist[k * s->n + i];
        const float *pj = &pos[j * 4];
        float dx = min_image(s, xi - pj[0]), dy = min_image(s, yi - pj[1]);
        float dz = min_image(s, zi - pj[2]);
        float r2 = dx * dx + dy * dy + dz * dz;
        if (selects) { /* every pair's force computed, kept when inside the cut-off */
            float eng, fdivr = lj_pair(r2, &eng);
            uint32_t in = r2 < rc2;
            fx = bits_float(sel_u32(in, float_bits(fx + dx * fdivr), float_bits(fx)));
            fy = bits_float(sel_u32(in, float_bits(fy + dy * fdivr), float_bits(fy)));
            fz = bits_float(sel_u32(in, float_bits(fz + dz * fdivr), float_bits(fz)));
            pe = bits_float(sel_u32(in, float_bits(pe + eng), float_bits(pe)));
        } else if (r2 < rc2) {
            float eng, fdivr = lj_pair(r2, &eng);
            fx += dx * fdivr;
            fy += dy * fdivr;
            fz += dz * fdivr;
            pe += eng;
        }
    }
    force[i * 4 + 0] = fx;
    force[i * 4 + 1] = fy;
    force[i * 4 + 2] = fz;
    force[i * 4 + 3] = 0.5f * pe;
}

/* Self-check of particle i: brute force over the lattice sites within 4 of its own,
 * wrapped (all sites when the side is below 9)
 * (spacing 1.378, jitter +-0.276 each: a site 4 away is at least 4.96 > 3.0 away). */
static int check_particle(const md_sys *s, uint32_t i) {
    const float *pi = &pos[i * 4];
    uint32_t site[3], lo[3], cnt_d[3], d, x, y, z;
    float f[4] = {0.0f, 0.0f, 0.0f, 0.0f}, mag[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    float rc2 = R_CUT * R_CUT;
    int bad = 0;
    site_of(s, i, site);
    for (d = 0; d < 3; d++)
        cnt_d[d] = window(site[d], s->side, 4u, &lo[d]);
    for (z = cnt_d[2]; z-- > 0;) /* reverse order: a different summation */
        for (y = 0; y < cnt_d[1]; y++)
            for (x = 0; x < cnt_d[0]; x++) {
                uint32_t j = index_of(s, (lo[0] + x) % s->side, (lo[1] + y) % s->side,
                                      (lo[2] + z) % s->side);
                const float *pj = &pos[j * 4];
                float dx = min_image(s, pi[0] - pj[0]), dy = min_image(s, pi[1] - pj[1]);
                float dz = min_image(s, pi[2] - pj[2]);
                float r2 = dx * dx + dy * dy + dz * dz, eng, fdivr;
                if (j == i || !(r2 < rc2))
                    continue;
                fdivr = lj_pair(r2, &eng);
                f[0] += dx * fdivr;
                f[1] += dy * fdivr;
                f[2] += dz * fdivr;
                f[3] += 0.5f * eng;
                mag[0] += fabsf(dx * fdivr);
                mag[1] += fabsf(dy * fdivr);
                mag[2] += fabsf(dz * fdivr);
                mag[3] += fabsf(0.5f * eng);
            }
    for (d = 0; d < 4; d++)
        bad |= !(fabsf(force[i * 4 + d] - f[d]) <= 1e-4f * mag[d] + 1e-6f);
    return bad;
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t seed = wsim_seed(), i, nbins;
    md_sys s = make_system(wsim_arg() & ~ARG_SELECTS);
    const uint32_t selects = (wsim_arg() & ARG_SELECTS) != 0;
    int bad = 0;

    nbins = s.nb * s.nb * s.nb;
    for (i = tid; i < s.n; i += nthreads)
        make_particle(seed, &s, i, &pos[i * 4]);
    wsim_barrier();
    for (i = tid; i < nbins; i += nthreads)
        bad |= fill_bin(&s, i);
    wsim_barrier();
    for (i = tid; i < s.n; i += nthreads)
        bad |= build_list(&s, i);
    wsim_roi_begin(); /* the force phase: the one 002 measures */
    for (i = tid; i < s.n; i += nthreads)
        lj_force(&s, i, selects);
    wsim_roi_end();
    for (i = tid * CHECK_STRIDE; i < s.n; i += nthreads * CHECK_STRIDE)
        bad |= check_particle(&s, i);
    return bad;
}
