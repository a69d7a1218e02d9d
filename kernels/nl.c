/* nl.c — neighbour list from spatial bins (seed 002 §7.3.1, "NL"; HOOMD 0.8).
 *
 * 002: "The neighbor list function (NL) determines for every particle being simulated
 * which other particles are close enough that their Lennard-Jones interactions with the
 * current particle have to be taken into account. [...] particles are sorted into
 * spatial bins in a preliminary step. Each particle then computes the distance between
 * it and all particles in all neighboring bins, adding those particles that fall inside
 * a cutoff radius to its neighbor list. [...] the cutoff radius is made larger than
 * necessary". Both MD kernels assign one particle per thread; 002 runs HOOMD's standard
 * benchmark: 64,000 particles, a Lennard-Jones liquid at packing fraction 0.2.
 *
 * The system: n^3 particles of diameter 1 in a cube of side L = a n, a = (pi / (6 *
 * 0.2))^(1/3), so the packing fraction N (pi/6) / L^3 is 0.2.  Particle i sits on
 * a lattice site jittered by up to +-0.2 a per axis (a hash of (seed, i)), so no two
 * particles are closer than 0.6 a (LJ stays finite); the sites are numbered in bricks
 * (site_of), so neighbouring threads hold neighbouring particles, as HOOMD's spatial
 * sort gives.  Periodic boundaries, as HOOMD's benchmark: the bins wrap around (27
 * distinct neighbour bins from 3 bins per axis on; fewer bins: all of them) and every
 * distance is the minimum image, dx - L * round(dx / L).  The list cut-off is HOOMD's LJ benchmark's
 * r_cut + r_buff = 3.0 + 0.8; the bins are cubes of side L / nb >= 1.01 * 3.8.
 *
 * Phases (barriers between): positions (one particle per item, float4 x, y, z, 0 as
 * HOOMD stores them); the cell list (one bin per item: the bin scans the lattice sites
 * that can fall into it, in site order, and appends the particles that do —
 * deterministic, no atomics — as HOOMD 0.8's binned list stores them: per bin its
 * particles' records {x, y, z, index}, 16 bytes each, bin after bin); the list (one
 * particle per item: the 27 (or fewer) bins around its own, every candidate's record,
 * one 16-byte read — HOOMD's float4 fetch — and its distance, `if (r2 < r_list^2 && j
 * != i)` appends j; the phase 002 measures); the self-check.  The list is stored HOOMD-style interleaved: neighbour k of particle i
 * at nlist[k * N + i], so the lanes' stores of one k are contiguous.
 *
 * arg: 0 = tiny (6^3 = 216 particles, 2^3 bins), 1 = small (16^3 = 4,096, 5^3 bins),
 *      2 = paper (40^3 = 64,000, 14^3 bins: 002's size); N >= 3: N particles rounded
 *      up to a cube (at most 40^3).  One list build (002 rebuilds every 10 of its 600
 *      time steps; the kernel is one build).
 * --arg N | 1 << 30 (ARG_SELECTS): the branch-free variant (docs/dom.md, "What control
 * flow costs"): the append as arithmetic selects (every candidate stores, a rejected one
 * to an unused row); the loops over bins and candidates stay.
 * Results: per particle its neighbour count and a hash of its list (order-dependent).
 * Self-check: every 127th particle recounts its neighbours by brute force over the
 * lattice sites within 4 of its own (a particle further away is beyond 3.8), and its
 * count and order-independent sum of hashed indices must equal the list's; every listed
 * neighbour is within the cut-off; no bin and no list overflowed.
 */
#include "warpsplit.h"

#define SIDE_MAX 40u
#define NMAX (SIDE_MAX * SIDE_MAX * SIDE_MAX)
#define NB_MAX 16u                  /* bins per axis: L / 3.838 <= 14 at SIDE_MAX */
#define BINCAP 128u                 /* particles per bin (at most ~64 here) */
#define NBRMAX 128u                 /* neighbours per particle (about 88 on average) */
#define LATTICE 1.3782337f          /* (pi / 1.2)^(1/3): packing fraction 0.2 */
#define R_LIST 3.8f                 /* r_cut 3.0 + r_buff 0.8 (HOOMD LJ benchmark) */
#define CHECK_STRIDE 127u
#define ARG_SELECTS (1u << 30)      /* --arg bit: the branch-free variant */

static float pos[NMAX * 4];
static uint32_t bin_size[NB_MAX * NB_MAX * NB_MAX];
static float bin_rec[NB_MAX * NB_MAX * NB_MAX * BINCAP * 4]; /* the cell list: bin b's k-th particle
                                                               {x, y, z, index} at [(b BINCAP + k) 4] */
static uint32_t nlist[(NBRMAX + 1u) * NMAX]; /* row NBRMAX: the branch-free variant's unused stores */

static uint32_t n_neigh[NMAX];
static uint32_t nl_hash[NMAX];

WSIM_RESULT(n_neigh);
WSIM_RESULT(nl_hash);

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
static int build_list(const md_sys *s, uint32_t i, uint32_t selects) {
    const float *pi = &pos[i * 4];
    float xi = pi[0], yi = pi[1], zi = pi[2], rl2 = R_LIST * R_LIST;
    uint32_t f[3], nx = window(bin_coord(s, xi), s->nb, 1u, &f[0]);
    uint32_t ny = window(bin_coord(s, yi), s->nb, 1u, &f[1]);
    uint32_t nz = window(bin_coord(s, zi), s->nb, 1u, &f[2]);
    uint32_t x, y, z, cnt = 0, h = 0x811c9dc5u;
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
                    if (selects) { /* every candidate stores: to row NBRMAX when not appended */
                        uint32_t in = (uint32_t)(r2 < rl2) & (uint32_t)(j != i);
                        nlist[sel_u32(in & (uint32_t)(cnt < NBRMAX), cnt, NBRMAX) * s->n + i] = j;
                        cnt += in;
                        h = sel_u32(in, (h ^ j) * 0x01000193u, h);
                    } else if (r2 < rl2 && j != i) {
                        if (cnt < NBRMAX)
                            nlist[cnt * s->n + i] = j;
                        cnt++;
                        h = (h ^ j) * 0x01000193u;
                    }
                }
            }
    n_neigh[i] = cnt;
    nl_hash[i] = h;
    return cnt > NBRMAX;
}

/* Self-check of particle i: brute force over the lattice sites within 4 of its own,
 * wrapped (all sites when the side is below 9)
 * (spacing 1.378, jitter +-0.276 each: a site 4 away is at least 4.96 > 3.8 away). */
static int check_particle(const md_sys *s, uint32_t i) {
    const float *pi = &pos[i * 4];
    uint32_t site[3], lo[3], cnt_d[3], d, x, y, z, cnt = 0, sum = 0, lsum = 0, k, m;
    float rl2 = R_LIST * R_LIST;
    int bad = 0;
    site_of(s, i, site);
    for (d = 0; d < 3; d++)
        cnt_d[d] = window(site[d], s->side, 4u, &lo[d]);
    for (z = 0; z < cnt_d[2]; z++)
        for (y = 0; y < cnt_d[1]; y++)
            for (x = 0; x < cnt_d[0]; x++) {
                uint32_t j = index_of(s, (lo[0] + x) % s->side, (lo[1] + y) % s->side,
                                      (lo[2] + z) % s->side);
                const float *pj = &pos[j * 4];
                float dx = min_image(s, pj[0] - pi[0]), dy = min_image(s, pj[1] - pi[1]);
                float dz = min_image(s, pj[2] - pi[2]);
                uint32_t in = (uint32_t)(dx * dx + dy * dy + dz * dz < rl2) & (uint32_t)(j != i);
                cnt += in;
                sum += in * wsim_mix32(j);
            }
    m = n_neigh[i] < NBRMAX ? n_neigh[i] : NBRMAX;
    for (k = 0; k < m; k++) {
        uint32_t j = nlist[k * s->n + i];
        const float *pj = &pos[j * 4];
        float dx = min_image(s, pj[0] - pi[0]), dy = min_image(s, pj[1] - pi[1]);
        float dz = min_image(s, pj[2] - pi[2]);
        bad |= !(dx * dx + dy * dy + dz * dz < rl2);
        lsum += wsim_mix32(j);
    }
    return bad | (cnt != n_neigh[i]) | (sum != lsum);
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
    wsim_roi_begin(); /* the list build: the phase 002 measures */
    for (i = tid; i < s.n; i += nthreads)
        bad |= build_list(&s, i, selects);
    wsim_roi_end();
    for (i = tid * CHECK_STRIDE; i < s.n; i += nthreads * CHECK_STRIDE)
        bad |= check_particle(&s, i);
    return bad;
}
