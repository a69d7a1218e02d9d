/* rt.c — BVH path tracing of a generated scene, one ray per thread (seed 002 §7.3.3, "RT").
 *
 * 002 uses bwfirt's SimpleBVH: "decomposes the scene into a bounding volume hierarchy
 * tree. Each ray traverses the tree to find the object that it hits [...] path tracing
 * [...] letting rays bounce around a scene multiple times until they hit a light
 * source. [...] having each thread trace a different ray"; the conference scene (~1 M
 * triangles) at 1024 x 1024 pixels.  Neither the scene nor bwfirt ships here.
 *
 * The scene (from wsim_seed()): a room, the box [-1, g+1] x [-1, g+1] x [-g, g+1], whose
 * ceiling (y = g+1) is the light (emission 1) and whose other walls are grey (albedo
 * 0.5); in it a g x g x g grid of unit cells, each holding one tetrahedron (4 triangles,
 * albedo 0.7) of random size and shape around a jittered centre.  The room's walls are
 * planes tested analytically; the triangles are in the BVH.
 * The BVH: objects are stored in Morton order of their cells, so a complete binary tree
 * over them (heap numbering: node 1 the root, children 2k and 2k+1, leaf of object m at
 * g^3 + m, four triangles per leaf) is a spatial hierarchy — a linear BVH.  Node boxes
 * are built bottom-up in parallel, one tree level per phase (a barrier per level).
 * Node: its box as 8 floats (lo, hi, 2 pad: one 32-byte line); triangle: v0, e1, e2.
 *
 * Rendering (the region of interest: the phase 002 measures): one pixel per item, a pinhole camera at (g/2, g/2, 0.5 - g) looking down
 * +z.  Per path segment (at most MAXSEG): the room wall the ray would reach, then the
 * BVH traversal (SimpleBVH style: test both children's boxes, descend into the nearer,
 * push the farther on a per-thread stack, leaves run Moller-Trumbore on their four
 * triangles, boxes beyond the closest hit so far are skipped).  A triangle hit bounces
 * (throughput * 0.7), the ceiling ends the path with radiance = throughput, another
 * wall bounces (* 0.5); the new direction is the surface normal (facing the ray) plus a
 * random vector in [-1, 1)^3 from a hash of (seed, pixel, segment), normalized.
 * Divergence: traversal length, leaf tests, bounce counts per lane; memory divergence:
 * every lane its own path through the tree.
 *
 * arg: 0 = tiny (8 x 8 pixels, g = 4: 256 triangles), 1 = small (64 x 64, g = 16: 16,384
 *      triangles, 1 MB with the tree: 32 times the L1, as 002's scene is many times its
 *      caches — with 2,048, 98 % of the loads hit),
 *      2 = paper (256 x 256, g = 32: 131,072 triangles; 002: 1024 x 1024, ~1 M
 *      triangles, scaled down so a run takes minutes); N >= 3: N x N pixels (N <= 512,
 *      rounded up to a multiple of 16), g = 32.
 * Results: per pixel the radiance and the number of segments traced.
 * Self-check: radiance in [0, 1], segments in [1, MAXSEG]; while the scene has at most
 * 2,048 triangles, every 13th pixel's primary hit distance equals a brute-force search
 * over all triangles (the same triangle test: bit-identical); the root box holds every
 * triangle's vertices.
 */
#include "warpsplit.h"

#define GMAX 32u
#define NOBJ_MAX (GMAX * GMAX * GMAX)
#define PIX_MAX (512u * 512u)
#define MAXSEG 4u
#define STACK 64u
#define T_INF 1.0e30f
#define BRUTE_MAX 2048u
#define CHECK_STRIDE 13u

static float tri[NOBJ_MAX * 4 * 12];  /* v0, e1, e2 (9 floats) + 3 pad */
static float node[2 * NOBJ_MAX * 8];  /* lo xyz, hi xyz, pad */
static float t_primary[PIX_MAX];

static float radiance[PIX_MAX];
static uint8_t segments[PIX_MAX];

WSIM_RESULT(radiance);
WSIM_RESULT(segments);

typedef struct {
    float x, y, z;
} vec;

static vec v3(float x, float y, float z) {
    vec v;
    v.x = x;
    v.y = y;
    v.z = z;
    return v;
}
static vec vsub(vec a, vec b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static vec vadd(vec a, vec b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static vec vscale(vec a, float s) { return v3(a.x * s, a.y * s, a.z * s); }
static float vdot(vec a, vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static vec vcross(vec a, vec b) {
    return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static vec vload(const float *p) { return v3(p[0], p[1], p[2]); }
static float fminf_(float a, float b) { return a < b ? a : b; }
static float fmaxf_(float a, float b) { return a > b ? a : b; }

/* Keeps a direction component away from 0, so 1/d is finite (no inf * 0 = NaN). */
static float nonzero(float d) {
    return fabsf(d) >= 1e-6f ? d : d < 0.0f ? -1e-6f : 1e-6f;
}

static vec vnorm(vec a) {
    float l2 = vdot(a, a);
    vec v = vscale(a, 1.0f / sqrtf(l2));
    return v3(nonzero(v.x), nonzero(v.y), nonzero(v.z));
}

/* A random vector in [-1, 1)^3 (three draws in order: x, y, z). */
static vec rand_vec(wsim_rng *r) {
    vec v;
    v.x = 2.0f * wsim_rand_unit(r) - 1.0f;
    v.y = 2.0f * wsim_rand_unit(r) - 1.0f;
    v.z = 2.0f * wsim_rand_unit(r) - 1.0f;
    return v;
}

/* Cell coordinate `axis` of Morton index m (bit 3k + axis is bit k). */
static uint32_t demorton(uint32_t m, uint32_t axis) {
    uint32_t c = 0, k;
    for (k = 0; 3u * k + axis < 32u; k++)
        c |= ((m >> (3u * k + axis)) & 1u) << k;
    return c;
}

/* Object m: a tetrahedron in its cell; its 4 triangles and its leaf box. */
static void make_object(uint32_t seed, uint32_t m, uint32_t nobj) {
    static const float corner[4][3] = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
    wsim_rng r = wsim_rng_init(seed, m);
    vec c = rand_vec(&r), v[4], lo, hi; /* random numbers in statements: the order of */
    float size = 0.15f + 0.12f * wsim_rand_unit(&r); /* argument evaluation is unspecified */
    uint32_t k;
    c = v3((float)demorton(m, 0) + 0.5f + 0.2f * c.x, (float)demorton(m, 1) + 0.5f + 0.2f * c.y,
           (float)demorton(m, 2) + 0.5f + 0.2f * c.z);
    for (k = 0; k < 4; k++) {
        vec j = rand_vec(&r);
        j = v3(corner[k][0] + 0.3f * j.x, corner[k][1] + 0.3f * j.y, corner[k][2] + 0.3f * j.z);
        v[k] = vadd(c, vscale(j, size));
    }
    lo = hi = v[0];
    for (k = 0; k < 4; k++) { /* triangle k: the face without vertex k */
        vec a = v[(k + 1u) & 3u], b = v[(k + 2u) & 3u], d = v[(k + 3u) & 3u];
        vec e1 = vsub(b, a), e2 = vsub(d, a);
        float *t = &tri[(m * 4u + k) * 12u];
        t[0] = a.x, t[1] = a.y, t[2] = a.z;
        t[3] = e1.x, t[4] = e1.y, t[5] = e1.z;
        t[6] = e2.x, t[7] = e2.y, t[8] = e2.z;
        t[9] = t[10] = t[11] = 0.0f;
        lo = v3(fminf_(lo.x, v[k].x), fminf_(lo.y, v[k].y), fminf_(lo.z, v[k].z));
        hi = v3(fmaxf_(hi.x, v[k].x), fmaxf_(hi.y, v[k].y), fmaxf_(hi.z, v[k].z));
    }
    float *n = &node[(nobj + m) * 8u];
    n[0] = lo.x, n[1] = lo.y, n[2] = lo.z, n[3] = hi.x, n[4] = hi.y, n[5] = hi.z;
    n[6] = n[7] = 0.0f;
}

/* Moller-Trumbore: the distance to triangle t if hit in (1e-4, tbest), else tbest. */
static float hit_tri(const float *t, vec o, vec d, float tbest) {
    vec v0 = vload(t), e1 = vload(t + 3), e2 = vload(t + 6);
    vec p = vcross(d, e2), tv, q;
    float det = vdot(e1, p), inv, u, v, th;
    if (fabsf(det) < 1e-12f)
        return tbest;
    inv = 1.0f / det;
    tv = vsub(o, v0);
    u = vdot(tv, p) * inv;
    if (u < 0.0f || u > 1.0f)
        return tbest;
    q = vcross(tv, e1);
    v = vdot(d, q) * inv;
    if (v < 0.0f || u + v > 1.0f)
        return tbest;
    th = vdot(e2, q) * inv;
    return th > 1e-4f && th < tbest ? th : tbest;
}

/* Slab test of node k's box: its entry distance, or T_INF if missed or beyond tbest. */
static float hit_box(uint32_t k, vec o, vec inv, float tbest) {
    const float *n = &node[k * 8u];
    float tx1 = (n[0] - o.x) * inv.x, tx2 = (n[3] - o.x) * inv.x;
    float ty1 = (n[1] - o.y) * inv.y, ty2 = (n[4] - o.y) * inv.y;
    float tz1 = (n[2] - o.z) * inv.z, tz2 = (n[5] - o.z) * inv.z;
    float tmin = fmaxf_(fmaxf_(fminf_(tx1, tx2), fminf_(ty1, ty2)), fmaxf_(fminf_(tz1, tz2), 0.0f));
    float tmax = fminf_(fminf_(fmaxf_(tx1, tx2), fmaxf_(ty1, ty2)), fmaxf_(tz1, tz2));
    return tmin <= tmax && tmin < tbest ? tmin : T_INF;
}

/* Closest triangle along (o, d) before tbest: returns its distance, *hit its index.
 * One node per iteration, and every path through the body meets again at the pop: with
 * `continue`s or a `return` inside the loop, the body's branches would re-converge only
 * at the function's exit and a warp's lanes would run their traversals one by one. */
static float traverse(vec o, vec d, float tbest, uint32_t nobj, uint32_t *hit) {
    uint32_t stack[STACK], sp = 0, k = 1;
    vec inv = v3(1.0f / d.x, 1.0f / d.y, 1.0f / d.z);
    if (hit_box(1, o, inv, tbest) >= T_INF)
        return tbest;
    for (;;) {
        uint32_t next = 0; /* 0: none (the root is node 1) */
        if (k >= nobj) { /* leaf: object k - nobj */
            uint32_t t0 = (k - nobj) * 4u, j;
            for (j = t0; j < t0 + 4u; j++) {
                float t = hit_tri(&tri[j * 12u], o, d, tbest);
                if (t < tbest) {
                    tbest = t;
                    *hit = j;
                }
            }
        } else {
            float tl = hit_box(2u * k, o, inv, tbest), tr = hit_box(2u * k + 1u, o, inv, tbest);
            if (tl < T_INF && tr < T_INF) {
                next = tl <= tr ? 2u * k : 2u * k + 1u;
                stack[sp++] = next ^ 1u;
            } else if (tl < T_INF) {
                next = 2u * k;
            } else if (tr < T_INF) {
                next = 2u * k + 1u;
            }
        }
        /* else pop the next node still in front of the closest hit */
        while (next == 0 && sp > 0) {
            uint32_t c = stack[--sp];
            if (hit_box(c, o, inv, tbest) < T_INF)
                next = c;
        }
        if (next == 0)
            break;
        k = next;
    }
    return tbest;
}

/* The room wall the ray leaves through: distance, and *face 0..5 (-x +x -y +y -z +z). */
static float room_exit(vec o, vec d, float g, uint32_t *face) {
    float tx = d.x > 0.0f ? (g + 1.0f - o.x) / d.x : (-1.0f - o.x) / d.x;
    float ty = d.y > 0.0f ? (g + 1.0f - o.y) / d.y : (-1.0f - o.y) / d.y;
    float tz = d.z > 0.0f ? (g + 1.0f - o.z) / d.z : (-g - o.z) / d.z;
    float t = tx;
    *face = d.x > 0.0f ? 1u : 0u;
    if (ty < t) {
        t = ty;
        *face = d.y > 0.0f ? 3u : 2u;
    }
    if (tz < t) {
        t = tz;
        *face = d.z > 0.0f ? 5u : 4u;
    }
    return t;
}

static void render(uint32_t seed, uint32_t p, uint32_t w, uint32_t gi, uint32_t nobj) {
    float g = (float)gi, thr = 1.0f, rad = 0.0f;
    vec o = v3(0.5f * g, 0.5f * g, 0.5f - g);
    vec d = vnorm(v3(((float)(p % w) + 0.5f) / (float)w - 0.5f,
                     0.5f - ((float)(p / w) + 0.5f) / (float)w, 0.9f));
    uint32_t seg;
    for (seg = 0; seg < MAXSEG; seg++) {
        uint32_t face, hit = 0;
        float troom = room_exit(o, d, g, &face);
        float t = traverse(o, d, troom, nobj, &hit);
        wsim_rng r = wsim_rng_init(seed, p * MAXSEG + seg);
        vec n, pt;
        if (seg == 0)
            t_primary[p] = t;
        if (t < troom) { /* a triangle: its normal, facing the ray */
            const float *tr = &tri[hit * 12u];
            n = vcross(vload(tr + 3), vload(tr + 6));
            if (vdot(n, d) > 0.0f)
                n = vscale(n, -1.0f);
            n = vscale(n, 1.0f / sqrtf(vdot(n, n)));
            thr *= 0.7f;
        } else if (face == 3u) { /* the ceiling: the light */
            rad = thr;
            break;
        } else {
            n = v3(face == 0u ? 1.0f : face == 1u ? -1.0f : 0.0f, face == 2u ? 1.0f : 0.0f,
                   face == 4u ? 1.0f : face == 5u ? -1.0f : 0.0f);
            thr *= 0.5f;
        }
        pt = vadd(vadd(o, vscale(d, t)), vscale(n, 1e-3f));
        o = pt;
        d = vnorm(vadd(n, rand_vec(&r)));
    }
    radiance[p] = rad;
    segments[p] = (uint8_t)(seg < MAXSEG ? seg + 1u : MAXSEG);
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t arg = wsim_arg(), seed = wsim_seed();
    uint32_t w, g, nobj, npix, i, lev;
    int bad = 0;

    if (arg == 0)
        w = 8, g = 4;
    else if (arg == 1)
        w = 64, g = 16;
    else if (arg == 2)
        w = 256, g = GMAX;
    else
        w = arg >= 512u ? 512u : (arg + 15u) / 16u * 16u, g = GMAX;
    nobj = g * g * g;
    npix = w * w;

    /* Phase 0: the objects (triangles, leaf boxes); then the tree, level by level. */
    for (i = tid; i < nobj; i += nthreads)
        make_object(seed, i, nobj);
    wsim_barrier();
    for (lev = nobj / 2u; lev >= 1u; lev /= 2u) {
        for (i = lev + tid; i < 2u * lev; i += nthreads) {
            const float *l = &node[2u * i * 8u], *r = &node[(2u * i + 1u) * 8u];
            float *n = &node[i * 8u];
            uint32_t c;
            for (c = 0; c < 3; c++) {
                n[c] = fminf_(l[c], r[c]);
                n[c + 3] = fmaxf_(l[c + 3], r[c + 3]);
            }
            n[6] = n[7] = 0.0f;
        }
        wsim_barrier();
    }

    /* Phase 1: one path per pixel (the phase 002 measures). */
    wsim_roi_begin();
    for (i = tid; i < npix; i += nthreads)
        render(seed, i, w, g, nobj);
    wsim_roi_end();

    /* Phase 2: self-check. */
    for (i = tid; i < npix; i += nthreads)
        bad |= !(radiance[i] >= 0.0f && radiance[i] <= 1.0f) | (segments[i] < 1u) |
               (segments[i] > MAXSEG);
    for (i = tid; i < nobj * 4u; i += nthreads) {
        const float *t = &tri[i * 12u];
        uint32_t c;
        for (c = 0; c < 3; c++)
            bad |= !(t[c] >= node[8 + c] && t[c] <= node[8 + c + 3]);
    }
    if (nobj * 4u <= BRUTE_MAX)
        for (i = tid * CHECK_STRIDE; i < npix; i += nthreads * CHECK_STRIDE) {
            float gf = (float)g, tbest;
            uint32_t face, j;
            vec o = v3(0.5f * gf, 0.5f * gf, 0.5f - gf);
            vec d = vnorm(v3(((float)(i % w) + 0.5f) / (float)w - 0.5f,
                             0.5f - ((float)(i / w) + 0.5f) / (float)w, 0.9f));
            tbest = room_exit(o, d, gf, &face);
            for (j = 0; j < nobj * 4u; j++)
                tbest = hit_tri(&tri[j * 12u], o, d, tbest);
            bad |= tbest != t_primary[i];
        }
    return bad;
}
