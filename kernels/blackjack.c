/* blackjack.c — Monte Carlo simulation of blackjack games to estimate the house edge.
 *
 * Benchmark "blackjack" of seed 004 (Narasiman et al., Table 2: "Simulation of blackjack
 * card game to compute house edge", input "Standard 52-card deck per thread"); the
 * paper wrote it itself and did not publish it.  Every work item is one player seat
 * with its own 52-card deck, shuffled from (seed, item), that plays `rounds` rounds
 * against the dealer:
 *   - the deck is reshuffled (Fisher-Yates) before a round when fewer than CUT = 16
 *     cards remain (no round uses more); every shuffle is checked to be a permutation
 *     of the 52 cards;
 *   - the player bets 2 units (so a 3:2 blackjack pays an integer 3); a natural
 *     blackjack is settled at once (a push against a dealer blackjack);
 *   - the player follows basic strategy without splits (hard and soft totals, doubling
 *     down on the first two cards: player_action below);
 *   - the dealer draws to 17 and stands on all 17s;
 *   - the round is settled: bust, win, loss or push, doubled stakes counted twice.
 * The house edge is -(sum of net) / (sum of units bet) over all items (0.37 % at paper
 * size, seed 1: a single deck favours the player, no splits costs him).
 *
 * Divergence: this is 004's branch-intensive benchmark with few long-latency stalls
 * (§3.3's timeout rule is for it): every lane plays its own cards, so the number of
 * hits, the dealer's draws, soft/hard totals, the strategy's compare chains, naturals,
 * busts and the settlement go a different way per lane, and the reshuffle comes in a
 * different round on each lane (a 52-iteration loop plus its check in the rounds loop,
 * before play_round).  Memory: the decks are interleaved (card position major, item minor) so that
 * lanes at the same position of their decks touch neighbouring bytes; as the lanes'
 * positions drift apart the card loads diverge.
 *
 * arg: 0 = tiny (256 seats x 8 rounds), 1 = small (1,024 x 60), 2 = paper (1,024 seats,
 *      one per thread of 004's core, x 400 rounds: about 175 M thread instructions);
 *      N >= 3 = 1,024 seats x N rounds.
 * Result: per seat {net units, units bet, rounds, wins, losses, pushes, naturals,
 *      doubles, player busts, dealer busts, shuffles, check}.
 * Self-check (per seat, returned as the exit code): every shuffle is a permutation of
 *      0..51 (a 52-bit mask); no round dealt past the deck's end; wins + losses +
 *      pushes = rounds; units bet = 2 * (rounds + doubles).
 */
#include "warpsplit.h"

#define NMAX 1024u
#define NCARD 52u
/* Reshuffle before a round when fewer than CUT cards remain.  No round needs more than
 * 16: the player draws only on totals <= 18 and the dealer on totals <= 16, so the
 * cards of each hand but its last sum to at most 18 and 16 (aces as 1), together <= 34,
 * and the smallest cards of a deck (4 aces, 4 twos, 4 threes, 4 fours) reach 34 only
 * after 14 cards: at most 14 + 2 cards per round. */
#define CUT 16u
#define NSTAT 12u

enum { NET, BET, ROUNDS, WINS, LOSSES, PUSHES, NATURALS, DOUBLES, PBUST, DBUST, SHUFFLES, CHECK };

static uint8_t deck[NCARD * NMAX]; /* deck[pos * NMAX + seat] */
static int32_t stats[NMAX * NSTAT];

WSIM_RESULT(stats);

typedef struct {
    uint32_t n, rounds;
} problem;

static problem problem_size(uint32_t arg) {
    problem p;
    p.n = NMAX;
    if (arg == 0) {
        p.n = 256u;
        p.rounds = 8u;
    } else if (arg == 1) {
        p.rounds = 60u;
    } else if (arg == 2) {
        p.rounds = 400u;
    } else {
        p.rounds = arg;
    }
    return p;
}

/* Fisher-Yates shuffle of 0..51 into a seat's deck d (stride NMAX), then a permutation
 * check; returns 1 if the deck is not a permutation. */
static int shuffle(uint8_t *d, wsim_rng *rng) {
    const uint32_t n = NMAX;
    uint32_t i, lo = 0, hi = 0;
    for (i = 0; i < NCARD; i++)
        d[i * n] = (uint8_t)i;
    for (i = NCARD - 1u; i > 0; i--) {
        uint32_t j = wsim_rand_below(rng, i + 1u);
        uint8_t a = d[i * n], b = d[j * n];
        d[i * n] = b;
        d[j * n] = a;
    }
    for (i = 0; i < NCARD; i++) {
        uint32_t c = d[i * n];
        if (c < 32u)
            lo |= 1u << c;
        else
            hi |= 1u << (c - 32u);
    }
    return (lo != 0xffffffffu) | (hi != 0xfffffu);
}

/* The seat's deck while a round is dealt. */
typedef struct {
    const uint8_t *d; /* deck + seat (stride NMAX) */
    uint32_t pos;     /* next card */
} shoe;

/* Value of the next card: 2..10, an ace is 11. */
static int deal(shoe *t) {
    uint32_t rank = t->d[t->pos * NMAX] % 13u;
    t->pos++;
    if (rank == 0u)
        return 11;
    if (rank >= 9u)
        return 10;
    return (int)rank + 1;
}

/* A hand: total with aces counted as 11 while that does not bust, and the number of
 * aces still counted as 11 (soft). */
typedef struct {
    int total, soft, cards;
} hand;

static void add_card(hand *h, int v) {
    h->total += v;
    h->cards++;
    if (v == 11)
        h->soft++;
    while (h->total > 21 && h->soft > 0) { /* an ace drops to 1 */
        h->total -= 10;
        h->soft--;
    }
}

enum { STAND, HIT, DOUBLE };

/* Basic strategy without splits (dealer stands on soft 17); up = dealer's up card
 * value 2..11.  Doubling is allowed on the first two cards only. */
static int player_action(const hand *h, int up) {
    int t = h->total, two = h->cards == 2;
    if (h->soft > 0) {
        if (t >= 19)
            return STAND;
        if (t == 18) {
            if (up >= 3 && up <= 6)
                return two ? DOUBLE : STAND;
            if (up <= 8)
                return STAND;
            return HIT;
        }
        if (t == 17) {
            if (up >= 3 && up <= 6 && two)
                return DOUBLE;
            return HIT;
        }
        if (t >= 15) {
            if (up >= 4 && up <= 6 && two)
                return DOUBLE;
            return HIT;
        }
        if (up >= 5 && up <= 6 && two)
            return DOUBLE;
        return HIT;
    }
    if (t >= 17)
        return STAND;
    if (t >= 13)
        return up <= 6 ? STAND : HIT;
    if (t == 12)
        return up >= 4 && up <= 6 ? STAND : HIT;
    if (t == 11)
        return up <= 10 && two ? DOUBLE : HIT;
    if (t == 10)
        return up <= 9 && two ? DOUBLE : HIT;
    if (t == 9)
        return up >= 3 && up <= 6 && two ? DOUBLE : HIT;
    return HIT;
}

/* One round from position pos of the seat's deck; updates the seat's
 * statistics s and returns the next position.  A function of its own (a leaf: no
 * registers saved on the stack) so that all its branches re-converge at its return:
 * inlined into the rounds loop, clang merges the initial deal with the player's and
 * dealer's draw loops, and lanes then drift apart by whole rounds. */
static __attribute__((noinline)) uint32_t play_round(const uint8_t *deck_seat, uint32_t pos,
                                                     int32_t *s) {
    hand p = {0, 0, 0}, d = {0, 0, 0};
    int up, stake = 2, act;
    shoe sh = {deck_seat, pos}, *t = &sh;

    add_card(&p, deal(t));
    up = deal(t);
    add_card(&d, up);
    add_card(&p, deal(t));
    add_card(&d, deal(t));
    s[ROUNDS]++;
    s[BET] += 2;

    if (p.total == 21 || d.total == 21) { /* naturals end the round at once */
        if (p.total == 21 && d.total == 21) {
            s[PUSHES]++;
        } else if (p.total == 21) {
            s[NATURALS]++;
            s[WINS]++;
            s[NET] += 3;
        } else {
            s[LOSSES]++;
            s[NET] -= 2;
        }
        return sh.pos;
    }
    for (;;) { /* the player's turn */
        act = player_action(&p, up);
        if (act == STAND)
            break;
        add_card(&p, deal(t));
        if (act == DOUBLE) {
            stake = 4;
            s[DOUBLES]++;
            s[BET] += 2;
            break;
        }
        if (p.total > 21)
            break;
    }
    if (p.total > 21) {
        s[PBUST]++;
        s[LOSSES]++;
        s[NET] -= stake;
        return sh.pos;
    }
    while (d.total < 17) /* the dealer's turn: stands on all 17s */
        add_card(&d, deal(t));
    if (d.total > 21) {
        s[DBUST]++;
        s[WINS]++;
        s[NET] += stake;
    } else if (p.total > d.total) {
        s[WINS]++;
        s[NET] += stake;
    } else if (p.total < d.total) {
        s[LOSSES]++;
        s[NET] -= stake;
    } else {
        s[PUSHES]++;
    }
    return sh.pos;
}

int kernel_main(unsigned tid, unsigned nthreads) {
    problem pb = problem_size(wsim_arg());
    uint32_t seed = wsim_seed(), i, r;
    int bad = 0;

    for (i = tid; i < pb.n; i += nthreads) {
        int32_t *s = stats + i * NSTAT, shuffles = 0;
        wsim_rng rng = wsim_rng_init(seed, i);
        uint32_t k, pos = NCARD; /* forces the first shuffle */
        int sbad = 0;
        for (k = 0; k < NSTAT; k++)
            s[k] = 0;
        for (r = 0; r < pb.rounds; r++) {
            if (NCARD - pos < CUT) {
                sbad |= shuffle(deck + i, &rng);
                shuffles++;
                pos = 0;
            }
            pos = play_round(deck + i, pos, s);
        }
        sbad |= pos > NCARD; /* never: see CUT */
        sbad |= s[WINS] + s[LOSSES] + s[PUSHES] != s[ROUNDS];
        sbad |= s[BET] != 2 * (s[ROUNDS] + s[DOUBLES]);
        s[SHUFFLES] = shuffles;
        s[CHECK] = sbad;
        bad |= sbad;
    }
    return bad;
}
