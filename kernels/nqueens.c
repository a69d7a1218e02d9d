/* nqueens.c — N-queens completion counting by recursive backtracking with pruning.
 *
 * Work item i draws a board size n (4..10) and a prefix: the queens of the first p rows
 * at random columns (p = 0..3, larger boards get longer prefixes).  An invalid prefix
 * (two queens attack each other) returns early with 0 completions.  Otherwise the
 * item counts every completion with a bitmask backtracking search that prunes a move
 * whenever the next row would have no free square.  With p = 0 the whole board is
 * solved using mirror symmetry: the first queen in the left half (counted twice) and,
 * for odd n, the middle column: two more call sites of the recursion.
 *
 * Divergence: recursion depth and fan-out differ per item and per subtree; the search
 * loop's trip count is the number of free squares; `continue` on pruning; early returns
 * at the leaves and for invalid prefixes; several call sites of place().
 *
 * arg: number of work items (0 = 256), at most NMAX.
 * Self-check: full boards (p = 0) must give the known solution counts.
 */
#include "warpsplit.h"

#define NMAX 16384u
#define N_DEFAULT 256u

static uint32_t solutions[NMAX];
static uint32_t nodes[NMAX];  /* search nodes visited */
static uint32_t pruned[NMAX]; /* moves cut by the look-ahead */
static uint32_t config[NMAX]; /* n | p << 8 | valid << 16 */

WSIM_RESULT(solutions);
WSIM_RESULT(nodes);
WSIM_RESULT(pruned);
WSIM_RESULT(config);

static const uint32_t known[11] = {1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724};

struct search {
    uint32_t n, mask;
    uint32_t nodes, pruned;
};

/* Counts the completions of rows row..n-1; cols/d1/d2 mark the squares of this row
 * attacked along columns and both diagonals. */
static uint32_t place(struct search *s, uint32_t row, uint32_t cols, uint32_t d1, uint32_t d2) {
    uint32_t avail, count = 0;

    s->nodes++;
    if (row == s->n)
        return 1; /* all rows placed */
    avail = s->mask & ~(cols | d1 | d2);
    while (avail != 0) {
        uint32_t bit = avail & (0u - avail); /* lowest free column */
        uint32_t nc, nd1, nd2;
        avail ^= bit;
        nc = cols | bit;
        nd1 = ((d1 | bit) << 1) & s->mask;
        nd2 = (d2 | bit) >> 1;
        if (row + 1 < s->n && (s->mask & ~(nc | nd1 | nd2)) == 0) {
            s->pruned++; /* the next row would be fully attacked */
            continue;
        }
        count += place(s, row + 1, nc, nd1, nd2);
    }
    return count;
}

/* The whole board, using the mirror symmetry of the first row. */
static uint32_t solve_full(struct search *s) {
    uint32_t half = s->n / 2, c, bit, count = 0;
    for (c = 0; c < half; c++) {
        bit = 1u << c;
        count += place(s, 1, bit, (bit << 1) & s->mask, bit >> 1);
    }
    count *= 2;
    if (s->n & 1) {
        bit = 1u << half;
        count += place(s, 1, bit, (bit << 1) & s->mask, bit >> 1);
    }
    return count;
}

/* Places the prefix queens row by row; returns 0 (and *valid = 0) as soon as one is
 * attacked, else the number of completions. */
static uint32_t solve_prefix(struct search *s, wsim_rng *r, uint32_t p, uint32_t *valid) {
    uint32_t row, cols = 0, d1 = 0, d2 = 0;
    for (row = 0; row < p; row++) {
        uint32_t bit = 1u << wsim_rand_below(r, s->n);
        if ((cols | d1 | d2) & bit) {
            *valid = 0;
            return 0;
        }
        cols |= bit;
        d1 = ((d1 | bit) << 1) & s->mask;
        d2 = (d2 | bit) >> 1;
    }
    *valid = 1;
    return place(s, p, cols, d1, d2);
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t items = wsim_arg() ? wsim_arg() : N_DEFAULT;
    uint32_t seed = wsim_seed();
    uint32_t i;
    int bad = 0;

    if (items > NMAX)
        items = NMAX;
    for (i = tid; i < items; i += nthreads) {
        wsim_rng r = wsim_rng_init(seed, i);
        struct search s;
        uint32_t p, pmin, count, valid;

        s.n = 4 + wsim_rand_below(&r, 7); /* 4..10 */
        s.mask = (1u << s.n) - 1;
        s.nodes = 0;
        s.pruned = 0;
        pmin = s.n > 6 ? s.n - 6 : 0; /* keep big boards affordable */
        p = pmin + wsim_rand_below(&r, 2);
        if (p == 0) {
            count = solve_full(&s);
            valid = 1;
            if (count != known[s.n])
                bad = 1;
        } else {
            count = solve_prefix(&s, &r, p, &valid);
        }
        if (count > s.nodes)
            bad = 1;
        solutions[i] = count;
        nodes[i] = s.nodes;
        pruned[i] = s.pruned;
        config[i] = s.n | p << 8 | valid << 16;
    }
    return bad;
}
