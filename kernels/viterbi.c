/* viterbi.c — Viterbi decoding of a rate-1/2, constraint-length-7 convolutional code.
 *
 * Benchmark "viterbi" of seed 004 (Narasiman et al., Table 2: "Viterbi algorithm for
 * decoding convolutional codes", input "4M convolutionally encoded bits"); its source
 * is not published.  The code is the standard K = 7 code with generators 0133 and 0171
 * (octal; NASA/CCSDS, 802.11): 64 encoder states.  Every work item is one frame of
 * `bits` information bits plus 6 zero tail bits (the encoder ends in state 0):
 *   - input: the frame's information bits from (seed, frame), encoded, each code bit
 *     sent as 1 (for 0) or 6 (for 1) plus noise of a per-frame level (0..5), and
 *     quantized to 3-bit soft decisions 0..7 (rx, interleaved by frame);
 *   - decoding: for each received symbol pair, add-compare-select over the 32
 *     butterflies of the trellis (path metric = sum of |received - expected| soft
 *     distances; the smaller of the two incoming metrics survives, one decision bit
 *     per state and step), then a traceback from state 0 through the decision bits.
 * The path metrics and decisions are kept per frame in global arrays with the frame
 * index innermost (the GPU layout: the lanes of a warp, on neighbouring frames, touch
 * neighbouring words).
 *
 * Divergence: the add-compare-select's `if (m1 < m0)` — 64 per step — goes a different
 * way on every lane (each its own noisy frame); the traceback's step per decision bit
 * and the noise clamps too.  Loops have the same trip counts on all lanes.
 *
 * Scale: one frame per thread of 004's 1,024; about 1,300 thread instructions per
 * trellis step (one information bit, two encoded bits), so 004's 4M encoded bits (2M
 * steps, about 2.7 G thread instructions) do not fit 100-200 M: paper size decodes
 * 1,024 frames of 128 + 6 bits = 274,432 encoded bits (1/15.3 of 004's), 178 M thread
 * instructions.
 * arg: 0 = tiny (128 frames x 4 bits), 1 = small (1,024 x 16), 2 = paper (1,024 x 128);
 *      N >= 3 = 1,024 frames x N bits (at most 256).
 * Result: the decoded bits (packed, 8 words per frame, interleaved by frame), per frame
 *      the final path metric and the number of bit errors against the sent bits.
 * Region of interest: the decoding (forward pass and traceback of every frame); the
 *      frames are encoded and noised before it, the bit errors and the self-check come
 *      after it.
 * Self-check (exit code): re-encoding the decoded bits gives exactly the final path
 *      metric (the traceback followed the survivors), and the metric of the bits that
 *      were sent is not smaller (Viterbi finds a maximum-likelihood path).
 */
#include "warpsplit.h"

#define NF 1024u      /* frames (maximum) */
#define BMAX 256u     /* information bits per frame (maximum) */
#define TAIL 6u
#define SMAX (BMAX + TAIL)
#define NS 64u        /* encoder states */
#define G0 0133u
#define G1 0171u
#define WPF (BMAX / 32u) /* decoded words per frame */

static uint8_t rx[SMAX * 2u * NF];    /* rx[(step * 2 + k) * NF + frame] */
static uint32_t pm[2][NS * NF];       /* path metrics [state * NF + frame], ping-pong */
static uint32_t dec[SMAX * 2u * NF];  /* decision bits [(step * 2 + half) * NF + frame] */
static uint32_t sent[WPF * NF];      /* the information bits, [word * NF + frame] */
static uint32_t decoded[WPF * NF];   /* [word * NF + frame] */
static uint32_t metric[NF];
static uint32_t errors[NF];

WSIM_RESULT(decoded);
WSIM_RESULT(metric);
WSIM_RESULT(errors);

/* Expected code bits of the transition from state 2j on input 0, as masks for the
 * soft distance: bits 0-3 = 7 * g0 bit, bits 4-7 = 7 * g1 bit, where the encoder
 * register is (input << 6) | state.  From state 2j + 1, or on input 1, both code bits
 * flip (both generators tap the newest and the oldest bit): the distance becomes
 * 14 - d.  (Derived from G0/G1 with the parity of the tapped bits; the self-check
 * re-encodes with parity(), so a wrong entry fails it.) */
static const uint8_t expect2j[32] = {
    0x00, 0x07, 0x00, 0x07, 0x77, 0x70, 0x77, 0x70, 0x77, 0x70, 0x77, 0x70, 0x00, 0x07, 0x00, 0x07,
    0x70, 0x77, 0x70, 0x77, 0x07, 0x00, 0x07, 0x00, 0x07, 0x00, 0x07, 0x00, 0x70, 0x77, 0x70, 0x77};

static uint32_t parity7(uint32_t x) {
    x ^= x >> 4;
    x ^= x >> 2;
    x ^= x >> 1;
    return x & 1u;
}

/* Information bit t of frame f (tail bits are 0). */
static uint32_t info_bit(uint32_t seed, uint32_t f, uint32_t t, uint32_t bits) {
    if (t >= bits)
        return 0;
    return (wsim_hash3(seed, f, t / 32u) >> (t % 32u)) & 1u;
}

/* Soft distance of received pair (r0, r1) to the code bits (c0, c1). */
static uint32_t dist(uint32_t r0, uint32_t r1, uint32_t c0, uint32_t c1) {
    return (r0 ^ (c0 * 7u)) + (r1 ^ (c1 * 7u));
}

/* Path metric of a bit sequence: re-encodes it and sums the soft distances. */
static uint32_t path_metric(uint32_t f, uint32_t steps, const uint32_t *bitsw) {
    uint32_t s = 0, t, m = 0;
    for (t = 0; t < steps; t++) {
        uint32_t u = (bitsw[t / 32u * NF + f] >> (t % 32u)) & 1u, reg = u << 6 | s;
        m += dist(rx[(2u * t) * NF + f], rx[(2u * t + 1u) * NF + f], parity7(reg & G0),
                  parity7(reg & G1));
        s = reg >> 1;
    }
    return m;
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t arg = wsim_arg(), seed = wsim_seed(), nf = NF, bits, steps, f;
    int bad = 0;

    if (arg == 0) {
        nf = 128u;
        bits = 4u;
    } else if (arg == 1) {
        bits = 16u;
    } else if (arg == 2) {
        bits = 128u;
    } else {
        bits = arg < BMAX ? arg : BMAX;
    }
    steps = bits + TAIL;

    /* The frames: encode and add noise (set-up, outside the measured region). */
    for (f = tid; f < nf; f += nthreads) {
        uint32_t lvl = wsim_hash3(seed, f, 0xffffu) % 6u, s = 0, t, w;

        for (w = 0; w < WPF; w++)
            sent[w * NF + f] = decoded[w * NF + f] = 0;
        for (t = 0; t < steps; t++) {
            uint32_t u = info_bit(seed, f, t, bits), reg = u << 6 | s, k;
            uint32_t h = wsim_hash3(seed ^ 0x7a3u, f, t);
            sent[t / 32u * NF + f] |= u << (t % 32u);
            for (k = 0; k < 2u; k++) {
                uint32_t c = parity7(reg & (k ? G1 : G0));
                int32_t n = ((int32_t)(h % 7u) + (int32_t)((h >> 8) % 7u) - 6) * (int32_t)lvl / 4;
                int32_t r = (c ? 6 : 1) + n;
                if (r < 0)
                    r = 0;
                if (r > 7)
                    r = 7;
                rx[(2u * t + k) * NF + f] = (uint8_t)r;
                h >>= 16;
            }
            s = reg >> 1;
        }
    }

    wsim_roi_begin(); /* the measured phase: the decoding */
    for (f = tid; f < nf; f += nthreads) {
        uint32_t s, t, j, cur = 0;

        /* Forward pass: add-compare-select, 32 butterflies per step.  Start in state 0
         * (the other states 'far away'). */
        for (j = 0; j < NS; j++)
            pm[0][j * NF + f] = j == 0 ? 0u : 1000u;
        for (t = 0; t < steps; t++) {
            uint32_t r0 = rx[(2u * t) * NF + f], r1 = rx[(2u * t + 1u) * NF + f];
            const uint32_t *po = pm[cur];
            uint32_t *pn = pm[cur ^ 1u], d0 = 0, d1 = 0;
            for (j = 0; j < NS / 2u; j++) {
                uint32_t x = expect2j[j];
                uint32_t a = (r0 ^ (x & 15u)) + (r1 ^ (x >> 4)), b = 14u - a;
                uint32_t p0 = po[(2u * j) * NF + f], p1 = po[(2u * j + 1u) * NF + f];
                uint32_t m0 = p0 + a, m1 = p1 + b; /* into state j (input 0) */
                if (m1 < m0) {
                    pn[j * NF + f] = m1;
                    d0 |= 1u << j;
                } else {
                    pn[j * NF + f] = m0;
                }
                m0 = p0 + b; /* into state j + 32 (input 1) */
                m1 = p1 + a;
                if (m1 < m0) {
                    pn[(j + 32u) * NF + f] = m1;
                    d1 |= 1u << j;
                } else {
                    pn[(j + 32u) * NF + f] = m0;
                }
            }
            dec[(2u * t) * NF + f] = d0;
            dec[(2u * t + 1u) * NF + f] = d1;
            cur ^= 1u;
        }

        /* Traceback from state 0 (the tail terminates the trellis there). */
        s = 0;
        for (t = steps; t-- > 0;) {
            uint32_t d = dec[(2u * t + (s >> 5)) * NF + f] >> (s & 31u) & 1u;
            if (t < bits)
                decoded[t / 32u * NF + f] |= (s >> 5) << (t % 32u);
            s = ((s << 1) & (NS - 1u)) | d;
        }

        metric[f] = pm[cur][f];
    }
    wsim_roi_end();

    /* Results and self-check. */
    for (f = tid; f < nf; f += nthreads) {
        uint32_t w, e = 0;
        for (w = 0; w < WPF; w++) {
            uint32_t x = sent[w * NF + f] ^ decoded[w * NF + f];
            while (x != 0) {
                e++;
                x &= x - 1u;
            }
        }
        errors[f] = e;
        bad |= path_metric(f, steps, decoded) != metric[f];
        bad |= path_metric(f, steps, sent) < metric[f];
    }
    return bad;
}
