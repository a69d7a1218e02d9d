/* short.c — winning-path search: dynamic programming over the previous row.
 *
 * Benchmark "Short" of the Dynamic Warp Subdivision papers (Meng, Tarjan, Skadron:
 * seed 001 Table 2, seed 000 Table 1): "winning path search for chess, dynamic
 * programming, neighbourhood calculation based on the previous row", input 6 steps
 * each with 150,000 choices.  The papers' source and input cannot be shipped; this
 * is a dynamic program of that shape on a board from a generator (seeded by
 * wsim_seed()).
 *
 * The board has STEPS rows ("steps") of n cells ("choices").  Every cell holds a cost
 * (1..97), a piece, and two flags: blocked (the cell cannot be entered, and stops a
 * slide) and occupied (an enemy stands there: a pawn may capture it).  A path takes
 * one cell per row; the move from row s-1 into cell (s, j) must be one the piece on
 * (s, j) can make, from the candidate columns c of row s-1:
 *     pawn    c = j, or c = j-1 / j+1 if that cell is occupied (a capture)
 *     knight  c = j-2, j+2
 *     king    c = j-1, j, j+1
 *     rook    c = j, then sliding left and right from j, up to 8 columns each way,
 *             stopping at a blocked cell
 *     queen   the same slide, up to 24 columns each way
 * best[s][j] = cost(s, j) + min over candidates c of best[s-1][c] (unreachable cells
 * are INF), and from[s][j] = the c that gave it (the first minimal one in the order
 * listed).  The winning path ends at the cheapest cell of the last row (lowest column
 * on ties), found by a min-reduction tree, and is read back through from[][].
 *
 * Work distribution as in the papers: each step is a data-parallel loop over the
 * choices (neighbouring choices on neighbouring threads of a warp), with a
 * wsim_barrier() between steps, since step s reads all of step s-1.
 *
 * Divergence: the piece type differs from cell to cell (a chain of compare-and-branch
 * on the type), pawns test the occupied flag, slides stop at data-dependent distances
 * (blocked cells, board edges), every candidate compares its cost with the best so far,
 * and blocked / unreachable cells skip the work.  The slides read a data-dependent
 * stretch of the previous row.
 *
 * arg: 0 = tiny (4 steps x 1,500 choices), 1 = small (6 x 60,000), 2 or 3 = paper
 *      (6 x 150,000); any other value N >= 4 = 6 steps x N choices (at most NMAX).
 * Self-check (thread 0, after the reduction): the path is legal (every step is a move
 * the piece can make, re-derived by an independent test), every cell on it is
 * reachable and best[][] grows by exactly the cell's cost along it, and the sum of the
 * costs along the path equals the winning cost.
 */
#include "tasks.h"

#define STEPS 6u
#define NMAX 150000u
#define INF 0x3fffffff
#define ROOK_RANGE 8
#define QUEEN_RANGE 24

enum { PAWN, KNIGHT, KING, ROOK, QUEEN };

#define CELL_COST(c) ((int32_t)((c) & 255u))
#define CELL_PIECE(c) (((c) >> 8) & 7u)
#define CELL_BLOCKED(c) (((c) >> 11) & 1u)
#define CELL_OCCUPIED(c) (((c) >> 12) & 1u)

static uint32_t board[STEPS][NMAX]; /* the input: cost | piece << 8 | blocked << 11 | occupied << 12 */
static int32_t best[STEPS][NMAX];   /* cheapest path cost ending at (s, j), INF = unreachable */
static int32_t from[STEPS][NMAX];   /* its predecessor column in row s-1, -1 = none */
static int32_t path[STEPS];         /* the winning path: a column per step (-1: none) */
static int32_t winner[4];           /* cost, end column, steps, choices */
static int32_t red_cost[NMAX];      /* min-reduction scratch */
static int32_t red_col[NMAX];

WSIM_RESULT(best);
WSIM_RESULT(from);
WSIM_RESULT(path);
WSIM_RESULT(winner);

static void problem_size(uint32_t arg, uint32_t *steps, uint32_t *n) {
    *steps = STEPS;
    if (arg == 0) {
        *steps = 4;
        *n = 1500;
    } else if (arg == 1) {
        *n = 60000;
    } else if (arg <= 3) {
        *n = NMAX;
    } else {
        *n = arg < NMAX ? arg : NMAX;
    }
}

/* Cell (s, j) of the board: cost 1..97; pieces 6/16 pawn, 3/16 knight, 3/16 king,
 * 3/16 rook, 1/16 queen; 1/16 of the cells blocked, 1/4 occupied. */
static uint32_t make_cell(uint32_t seed, uint32_t s, uint32_t j) {
    uint32_t h = wsim_hash3(seed, s, j);
    uint32_t p = (h >> 8) & 15u, piece;
    if (p < 6)
        piece = PAWN;
    else if (p < 9)
        piece = KNIGHT;
    else if (p < 12)
        piece = KING;
    else if (p < 15)
        piece = ROOK;
    else
        piece = QUEEN;
    return (1u + (h & 0xffffu) % 97u) | piece << 8 | (((h >> 16) & 15u) == 0) << 11 |
           (((h >> 20) & 3u) == 0) << 12;
}

/* The running minimum over the candidates of one cell. */
typedef struct {
    int32_t cost;
    int32_t col;
} choice;

static void consider(choice *b, const int32_t *prev, int32_t c) {
    if (prev[c] < b->cost) {
        b->cost = prev[c];
        b->col = c;
    }
}

/* Slide along the previous row from column j in direction dir (+1/-1), at most range
 * columns, stopping at the edge or before a blocked cell. */
static void slide(choice *b, const int32_t *prev, const uint32_t *prow, int32_t n, int32_t j,
                  int32_t dir, int32_t range) {
    int32_t c = j + dir, k;
    for (k = 0; k < range && c >= 0 && c < n; k++, c += dir) {
        if (CELL_BLOCKED(prow[c]))
            break;
        consider(b, prev, c);
    }
}

/* One cell of step s >= 1: the cheapest way in from row s-1. */
static void relax(uint32_t s, int32_t j, int32_t n) {
    const uint32_t *prow = board[s - 1];
    const int32_t *prev = best[s - 1];
    uint32_t cell = board[s][j];
    choice b;
    b.cost = INF;
    b.col = -1;
    if (!CELL_BLOCKED(cell)) {
        uint32_t piece = CELL_PIECE(cell);
        if (piece == PAWN) {
            consider(&b, prev, j);
            if (j > 0 && CELL_OCCUPIED(prow[j - 1]))
                consider(&b, prev, j - 1);
            if (j + 1 < n && CELL_OCCUPIED(prow[j + 1]))
                consider(&b, prev, j + 1);
        } else if (piece == KNIGHT) {
            if (j >= 2)
                consider(&b, prev, j - 2);
            if (j + 2 < n)
                consider(&b, prev, j + 2);
        } else if (piece == KING) {
            if (j > 0)
                consider(&b, prev, j - 1);
            consider(&b, prev, j);
            if (j + 1 < n)
                consider(&b, prev, j + 1);
        } else { /* rook or queen: straight on, then slide both ways */
            int32_t range = piece == ROOK ? ROOK_RANGE : QUEEN_RANGE;
            consider(&b, prev, j);
            if (!CELL_BLOCKED(prow[j])) {
                slide(&b, prev, prow, n, j, -1, range);
                slide(&b, prev, prow, n, j, +1, range);
            }
        }
    }
    if (b.col >= 0 && b.cost < INF) {
        best[s][j] = b.cost + CELL_COST(cell);
        from[s][j] = b.col;
    } else {
        best[s][j] = INF;
        from[s][j] = -1;
    }
}

/* Independent legality test for the self-check: may the piece on (s, j) come from
 * column c of row s-1? */
static int legal_move(uint32_t s, int32_t j, int32_t c) {
    uint32_t cell = board[s][j];
    int32_t d = c - j, ad = d < 0 ? -d : d, k, step;
    if (CELL_BLOCKED(cell) || CELL_BLOCKED(board[s - 1][c]))
        return 0;
    switch (CELL_PIECE(cell)) {
    case PAWN:
        return d == 0 || (ad == 1 && CELL_OCCUPIED(board[s - 1][c]));
    case KNIGHT:
        return ad == 2;
    case KING:
        return ad <= 1;
    default:
        if (ad > (CELL_PIECE(cell) == ROOK ? ROOK_RANGE : QUEEN_RANGE))
            return 0;
        step = d < 0 ? -1 : 1;
        for (k = 0; k <= ad; k++) /* the path j .. c in row s-1 must be free */
            if (CELL_BLOCKED(board[s - 1][j + k * step]))
                return 0;
        return 1;
    }
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t seed = wsim_seed(), steps, n, s, i, r;
    int bad = 0;

    problem_size(wsim_arg(), &steps, &n);

    /* Step 0: generate the board; the first row costs just its own cells. */
    for (s = 0; s < steps; s++)
        WSIM_FOR(i, 0, n)
            board[s][i] = make_cell(seed, s, i);
    WSIM_FOR(i, 0, n) {
        best[0][i] = CELL_BLOCKED(board[0][i]) ? INF : CELL_COST(board[0][i]);
        from[0][i] = -1;
    }
    wsim_roi_begin(); /* the measured phase: the dynamic program and the cheapest end cell */

    /* The dynamic program: one data-parallel step per row. */
    for (s = 1; s < steps; s++) {
        WSIM_FOR(i, 0, n)
            relax(s, (int32_t)i, (int32_t)n);
        wsim_barrier();
    }

    /* The cheapest end cell: min-reduction tree over the last row (lowest column on
     * ties, so the result does not depend on the tree's shape). */
    WSIM_FOR(i, 0, n) {
        red_cost[i] = best[steps - 1][i];
        red_col[i] = (int32_t)i;
    }
    wsim_barrier();
    for (r = 1; r < n; r <<= 1)
        ;
    for (r >>= 1; r > 0; r >>= 1) {
        WSIM_FOR(i, 0, r) {
            if (i + r < n && (red_cost[i + r] < red_cost[i] ||
                              (red_cost[i + r] == red_cost[i] && red_col[i + r] < red_col[i]))) {
                red_cost[i] = red_cost[i + r];
                red_col[i] = red_col[i + r];
            }
        }
        wsim_barrier();
    }
    wsim_roi_end();

    /* Thread 0 reads the winning path back and checks it. */
    if (tid == 0) {
        int32_t col = red_col[0], total = 0;
        winner[0] = red_cost[0];
        winner[1] = col;
        winner[2] = (int32_t)steps;
        winner[3] = (int32_t)n;
        for (s = 0; s < STEPS; s++)
            path[s] = -1;
        if (red_cost[0] < INF) {
            for (s = steps; s-- > 0;) {
                int32_t c = from[s][col];
                path[s] = col;
                total += CELL_COST(board[s][col]);
                if (best[s][col] >= INF)
                    bad = 1;
                if (s > 0) {
                    if (c < 0 || !legal_move(s, col, c) ||
                        best[s][col] != best[s - 1][c] + CELL_COST(board[s][col])) {
                        bad = 1;
                        break;
                    }
                    col = c;
                } else if (c != -1) {
                    bad = 1;
                }
            }
            if (total != red_cost[0])
                bad = 1;
        }
    }
    return bad;
}
