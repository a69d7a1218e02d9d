/* Lane masks: one bit per thread of a SIMD group.
 *
 * A mask holds up to WSIM_MAX_LANES lanes: 256 so that the large warps of 004
 * (256 threads) and the slip controller's 32 x 8-bit counters fit. Masks are
 * everywhere in the hot loop, and four words cost a configuration of 32
 * lanes about a fifth of its speed, so the C model is also compiled with
 * WSIM_MAX_LANES = 64 (one word): wpusim holds both builds and runs the
 * narrowest that holds the configuration (wsim_config_mask_bits; README, Speed).
 * Results are the same in both: only the capacity differs. */
#ifndef WSIM_MASK_H
#define WSIM_MASK_H

#include <stdbool.h>
#include <stdint.h>

#define WSIM_WIDEST_LANES 256 /* the widest build: lwm_size's limit */
#ifndef WSIM_MAX_LANES
#define WSIM_MAX_LANES WSIM_WIDEST_LANES
#endif
#if WSIM_MAX_LANES % 64 || WSIM_MAX_LANES < 64
#error "WSIM_MAX_LANES must be a multiple of 64"
#endif
#define WMASK_WORDS (WSIM_MAX_LANES / 64)

typedef struct wmask {
    uint64_t w[WMASK_WORDS];
} wmask_t;

static inline wmask_t wmask_none(void) { wmask_t m = {{0}}; return m; }

static inline wmask_t wmask_first(int n) /* lanes 0 .. n-1 */
{
    wmask_t m = {{0}};
    for (int i = 0; i < WMASK_WORDS; i++) {
        int k = n - 64 * i;
        m.w[i] = k >= 64 ? ~0ull : k <= 0 ? 0 : (1ull << k) - 1;
    }
    return m;
}

static inline void wmask_set(wmask_t *m, int lane) { m->w[lane >> 6] |= 1ull << (lane & 63); }
static inline void wmask_clear(wmask_t *m, int lane) { m->w[lane >> 6] &= ~(1ull << (lane & 63)); }
static inline bool wmask_test(const wmask_t *m, int lane) { return (m->w[lane >> 6] >> (lane & 63)) & 1; }

/* n <= 64 lanes from lane at, lane at the lowest bit */
static inline uint64_t wmask_bits(const wmask_t *m, int at, int n)
{
    const int w = at >> 6, o = at & 63;
    uint64_t x = m->w[w] >> o;
    if (o && o + n > 64 && w + 1 < WMASK_WORDS) x |= m->w[w + 1] << (64 - o);
    return n >= 64 ? x : x & ((1ull << n) - 1);
}

static inline bool wmask_any(const wmask_t *m)
{
    uint64_t a = 0;
    for (int i = 0; i < WMASK_WORDS; i++) a |= m->w[i];
    return a != 0;
}

static inline bool wmask_eq(const wmask_t *a, const wmask_t *b)
{
    uint64_t d = 0;
    for (int i = 0; i < WMASK_WORDS; i++) d |= a->w[i] ^ b->w[i];
    return d == 0;
}

static inline wmask_t wmask_and(wmask_t a, wmask_t b)
{
    for (int i = 0; i < WMASK_WORDS; i++) a.w[i] &= b.w[i];
    return a;
}

static inline wmask_t wmask_or(wmask_t a, wmask_t b)
{
    for (int i = 0; i < WMASK_WORDS; i++) a.w[i] |= b.w[i];
    return a;
}

static inline wmask_t wmask_andnot(wmask_t a, wmask_t b) /* a & ~b */
{
    for (int i = 0; i < WMASK_WORDS; i++) a.w[i] &= ~b.w[i];
    return a;
}

/* Portable popcount: without -mpopcnt, __builtin_popcountll is a libgcc call. */
static inline int wmask_popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}

static inline int wmask_count(const wmask_t *m)
{
    /* Warps up to 64 wide (every preset but the large warps') use the first
     * word only: one test, one popcount, no loop (this runs once per issue). */
    uint64_t hi = 0;
    for (int i = 1; i < WMASK_WORDS; i++) hi |= m->w[i];
    if (!hi) return wmask_popcount64(m->w[0]);
    int n = 0;
    for (int i = 0; i < WMASK_WORDS; i++) n += wmask_popcount64(m->w[i]);
    return n;
}

static inline int wmask_lowest(const wmask_t *m) /* -1 when empty */
{
    for (int i = 0; i < WMASK_WORDS; i++)
        if (m->w[i]) return 64 * i + __builtin_ctzll(m->w[i]);
    return -1;
}

/* Iterate the set lanes of a mask: WMASK_FOREACH(m, lane) { ... }.
 * `continue` inside the body moves to the next lane. */
#define WMASK_FOREACH(m, lane)                                                  \
    for (int wm_i_ = 0; wm_i_ < WMASK_WORDS; wm_i_++)                          \
        for (uint64_t wm_b_ = (m).w[wm_i_]; wm_b_; wm_b_ &= wm_b_ - 1)          \
            for (int lane = 64 * wm_i_ + __builtin_ctzll(wm_b_), wm_once_ = 1;  \
                 wm_once_; wm_once_ = 0)

/* Hex image of the low `lanes` bits, most significant first; buf >= lanes/4+2. */
static inline void wmask_hex(const wmask_t *m, int lanes, char *buf)
{
    static const char hx[] = "0123456789abcdef";
    int digits = (lanes + 3) / 4;
    for (int d = 0; d < digits; d++) {
        int bit = 4 * (digits - 1 - d);
        buf[d] = hx[(m->w[bit >> 6] >> (bit & 63)) & 15];
    }
    buf[digits] = 0;
}

#endif
