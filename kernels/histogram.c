/* histogram.c — binning ASCII characters into a 128-bin histogram.
 *
 * Benchmark "histogram" of seed 004 (Narasiman et al., Table 2: "Binning ASCII
 * characters into a histogram", 16 M ASCII characters), adapted there from the NVIDIA
 * CUDA SDK's histogram.  The SDK builds sub-histograms in shared memory with atomic
 * increments; RV32IMF has no atomics, so each of SUB fixed sub-histograms has
 * a single owner task (as the SDK's per-thread sub-histograms of histogram64):
 *   phase 1: task s bins characters s, s + SUB, s + 2 SUB, ... into sub-histogram s
 *            (consecutive tasks on consecutive lanes: the character loads are
 *            coalesced; the increments go to hist[c][s], bin-major, so lanes whose
 *            characters are equal touch the same line);
 *   phase 2: task b (one per bin) adds bin b of the SUB sub-histograms.
 * SUB = n / 128 within 64..1024 (128 for tiny, 1024 from 128 K characters on): it
 * depends on the input size, not on the thread count, so every partial count — and
 * the result — is the same for any thread count (a thread runs several tasks when
 * there are fewer than SUB threads).
 *
 * Divergence: none apart from the item loops' tails (the bin update is branch-free);
 * memory: 512 KB of sub-histograms at SUB = 1024 (4 x 004's data cache) read-modify-written at
 * data-dependent addresses, plus the streaming text: the memory-bound end of 004's
 * suite.
 *
 * Input (from wsim_seed()): English-like text: each character drawn from a 256-entry
 * table (letters in rough English frequencies, spaces, punctuation, digits, a newline),
 * four characters per hash.
 * arg: 0 = tiny (16 K characters), 1 = small (1 M), 2 = paper (8 M: 004's 16 M scaled
 *      by 1/2 to stay within 004's 100-200 M thread instructions); >= 3: arg
 *      characters rounded up to a multiple of 4 (at most 16 M = 004's input).
 * Result: the histogram (128 bins) and stats {characters, sum of the character codes}.
 * Self-check: the bins add up to the number of characters, and sum_b b * hist[b]
 * equals the sum of the character codes accumulated by phase 1 along the way.
 */
#include "warpsplit.h"

#define NMAX (16u << 20) /* 004's 16 M characters */
#define BINS 128u        /* ASCII */
#define SUB 1024u        /* sub-histograms (phase-1 tasks), at most */

static uint32_t text_w[NMAX / 4u]; /* the text, four characters per word */
static uint32_t sub[BINS * SUB];   /* sub[c * SUB + s]: count of c in sub-histogram s */
static uint32_t sub_codes[SUB];    /* sum of the character codes binned by task s */
static uint8_t table[256];         /* character of each of 256 equally likely slots */
static uint32_t hist[BINS];
static uint32_t stats[2];          /* characters, sum of the codes */

WSIM_RESULT(hist);
WSIM_RESULT(stats);

/* English-like character frequencies in 256 slots (the counts add up to 256). */
static const struct {
    char c;
    uint8_t n;
} FREQ[] = {
    {' ', 35}, {'e', 24}, {'t', 17}, {'a', 15}, {'o', 14}, {'i', 13}, {'n', 13}, {'s', 12},
    {'h', 12}, {'r', 11}, {'d', 8},  {'l', 8},  {'c', 6},  {'u', 6},  {'m', 5},  {'w', 4},
    {'f', 4},  {'g', 4},  {'y', 4},  {'p', 4},  {'b', 3},  {'v', 2},  {'k', 1},  {'j', 1},
    {'x', 1},  {'q', 1},  {'z', 1},  {'T', 2},  {'A', 2},  {'I', 2},  {'S', 1},  {'E', 1},
    {',', 3},  {'.', 3},  {'\n', 2}, {'0', 1},  {'1', 1},  {'2', 1},  {'\'', 1}, {'-', 1},
    {';', 1},  {'"', 1},  {'?', 1},  {'!', 1},  {'(', 1},  {')', 1},
};

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t arg = wsim_arg(), seed = wsim_seed();
    uint32_t n, nw, nsub, i, s, b;
    uint32_t st = wsim_mix32(seed ^ 0x68697374u);
    const uint8_t *text = (const uint8_t *)text_w; /* byte view (char types may alias) */
    int bad = 0;

    if (arg == 0)
        n = 16u << 10;
    else if (arg == 1)
        n = 1u << 20;
    else if (arg == 2)
        n = 8u << 20;
    else
        n = arg < NMAX ? (arg + 3u) & ~3u : NMAX;
    nw = n / 4u;
    nsub = n / 128u < 64u ? 64u : n / 128u < SUB ? n / 128u : SUB; /* 128 when tiny */

    /* The character table: slot s holds the FREQ entry whose cumulative count passes s. */
    for (s = tid; s < 256u; s += nthreads) {
        uint32_t cum = 0;
        for (i = 0; cum + FREQ[i].n <= s; i++)
            cum += FREQ[i].n;
        table[s] = (uint8_t)FREQ[i].c;
    }
    wsim_barrier();

    /* The input: four characters per word, one hash each. */
    for (i = tid; i < nw; i += nthreads) {
        uint32_t h = wsim_mix32(st ^ i);
        text_w[i] = (uint32_t)table[h & 255u] | (uint32_t)table[(h >> 8) & 255u] << 8 |
                    (uint32_t)table[(h >> 16) & 255u] << 16 | (uint32_t)table[h >> 24] << 24;
    }
    for (i = tid; i < BINS * nsub; i += nthreads)
        sub[i] = 0;
    wsim_roi_begin(); /* the measured phase: the binning and the sum of the sub-histograms */

    /* Phase 1: task s bins characters s, s + SUB, ... into sub-histogram s. */
    for (s = tid; s < nsub; s += nthreads) {
        uint32_t codes = 0;
        for (i = s; i < n; i += nsub) {
            uint32_t c = text[i] & (BINS - 1u);
            sub[c * nsub + s]++;
            codes += c;
        }
        sub_codes[s] = codes;
    }
    wsim_barrier();

    /* Phase 2: task b adds bin b of every sub-histogram. */
    for (b = tid; b < BINS; b += nthreads) {
        uint32_t cnt = 0;
        for (s = 0; s < nsub; s++)
            cnt += sub[b * nsub + s];
        hist[b] = cnt;
    }
    wsim_roi_end();

    /* Self-check (thread 0): total count and the weighted sum of the bins. */
    if (tid == 0) {
        uint32_t total = 0, weighted = 0, codes = 0;
        for (b = 0; b < BINS; b++) {
            total += hist[b];
            weighted += b * hist[b];
        }
        for (s = 0; s < nsub; s++)
            codes += sub_codes[s];
        bad = total != n || weighted != codes;
        stats[0] = n;
        stats[1] = codes;
    }
    return bad;
}
