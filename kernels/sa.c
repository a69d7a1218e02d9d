/* sa.c — exact matching of short DNA reads against a suffix tree (seed 002 §7.3.2, "SA").
 *
 * 002 uses MummerGPU: "a suffix tree to efficiently find alignments of short DNA
 * sequences [...] against a reference genome. The tree is traversed from the root in a
 * data dependent manner, with each edge holding a variable number of base pairs which
 * must all match for the traversal to proceed to the next node"; one read per thread;
 * "we rearranged the input strings to be interleaved in memory"; exact matching mode,
 * batches of 1 M bp of reads of length 25, 50, 200 and 800 sampled from the Bacillus
 * anthracis genome (5.2 Mbp), "batches containing longer string containing linearly
 * fewer samples"; 002 reports the average over the four lengths.
 *
 * The genome (from wsim_seed()): n = 2^k bases, base i a hash of (seed, src(i)) where
 * src(i) = i - 512 in every eighth block of 256 bases (a repeat of the block two back),
 * else i; one base in 64 is then replaced by another hash (point mutations, so repeats
 * are inexact).  The suffix tree is built in the kernel, in parallel phases (barriers):
 *   1. genome and reads; key[i] = the 16 bases from i packed 2 bits each (0 past the end);
 *   2. the suffix array: a bitonic sort of the n suffixes (one barrier per stage), the
 *      compare walks the keys 16 bases at a time (a suffix that ends is the smaller);
 *   3. lcp[k] = the longest common prefix of suffixes k-1 and k (lcp[0] = lcp[n] = -1);
 *   4. the internal nodes are the lcp-intervals: k is the node of its interval when it
 *      is the interval's leftmost index with the minimum lcp (the previous index with
 *      lcp <= lcp[k] has a smaller lcp); every k finds the node it belongs to through
 *      at most 4 equal-lcp siblings (DNA: at most 5 children), and nodes their interval
 *      bounds (nearest smaller lcp left and right);
 *   5. every node and every leaf (suffix) links itself into its parent's child slot for
 *      its next base: the parent is the deeper of the two enclosing intervals (Abouelhoda
 *      et al.'s lcp-interval tree), so each slot has exactly one writer — no atomics.
 * A node: depth (string depth), pos (a suffix in its interval: the edge into the node
 * is genome[pos + parent depth .. pos + depth)), child[4] for A, C, G, T: 32 bytes.
 *
 * Matching (the region of interest: the phase 002 measures; one read per item, the reads
 * of a batch interleaved: base j of read r at
 * reads[j * count + r]): from the root, take the child for the next read base, compare
 * the rest of the edge with the genome base by base, descend; a leaf's edge runs to the
 * genome's end.  Result per read: the length of its longest prefix in the genome and a
 * genome position where that prefix occurs.  A quarter of the reads carry one point
 * mutation (so some matches stop early: divergence; 002's reads all match).
 *
 * arg: 0 = tiny (genome 512 bases, 4 Kbp of reads per length), 1 = small (16,384,
 *      256 Kbp), 2 = paper (65,536, 1 Mbp per length: 002's batch size, its genome scaled
 *      down 80x); 3, 4, 5, 6 = paper size with only the 25, 50, 200 or 800 bp batch;
 *      N >= 7: genome N rounded up to 2^k (128..65,536), 16 N bp per length (only the
 *      lengths that fit in the genome).
 * Self-check: the suffix array is ordered (neighbours compared again); every 17th read's
 * match is in the genome at the reported position, is complete for a read without a
 * mutation and reaches at least its mutation otherwise; the tree has a root.
 */
#include "warpsplit.h"

#define NMAX 65536u
#define BPMAX (1u << 20)
#define READS_MAX (BPMAX / 25u + BPMAX / 50u + BPMAX / 200u + BPMAX / 800u + 4u)
#define NONE 0xffffffffu
#define LEAF 0x80000000u
#define CHECK_STRIDE 17u

static const uint32_t LEN[4] = {25, 50, 200, 800};

static uint8_t genome[NMAX];
static uint32_t key[NMAX];
static uint32_t sa[NMAX];
static int32_t lcp[NMAX + 1];
static uint32_t owner[NMAX];             /* the node (canonical index) of boundary k */
static uint32_t node[NMAX * 8];          /* depth, pos, child[4], lo, hi */
static uint8_t reads[4u * BPMAX];
static uint32_t root[1];

static uint16_t match_len[READS_MAX];
static uint32_t match_pos[READS_MAX];

WSIM_RESULT(match_len);
WSIM_RESULT(match_pos);

typedef struct {
    uint32_t n, bp, first, last; /* genome length, bp per batch, batches first..last */
    uint32_t count[4], base[4];  /* reads per batch, index of its first read */
    uint32_t off[4];             /* offset of the batch in reads[] */
    uint32_t nreads;
} problem;

static problem make_problem(uint32_t arg) {
    problem p;
    uint32_t b, r = 0, o = 0;
    p.first = 0;
    p.last = 3;
    if (arg == 0) {
        p.n = 512;
    } else if (arg == 1) {
        p.n = 16384;
    } else if (arg <= 6) {
        p.n = NMAX;
        if (arg >= 3)
            p.first = p.last = arg - 3u;
    } else {
        for (p.n = 128; p.n < NMAX && p.n < arg; p.n *= 2u)
            ;
    }
    p.bp = (arg == 0 ? 8u : 16u) * p.n;
    for (b = 0; b < 4; b++) {
        p.count[b] = b >= p.first && b <= p.last && LEN[b] <= p.n ? p.bp / LEN[b] : 0u;
        p.base[b] = r;
        p.off[b] = o;
        r += p.count[b];
        o += p.count[b] * LEN[b];
    }
    p.nreads = r;
    return p;
}

static uint32_t make_base(uint32_t seed, uint32_t i) {
    uint32_t src = (i >> 8) % 8u == 3u && i >= 512u ? i - 512u : i;
    uint32_t m = wsim_hash3(seed, i, 7u);
    return (m & 63u) == 0u ? (m >> 8) & 3u : wsim_hash3(seed, src, 1u) & 3u;
}

/* Read r of batch b: its start in the genome and its mutation (position, or NONE). */
static uint32_t read_start(uint32_t seed, const problem *p, uint32_t b, uint32_t r, uint32_t *mut) {
    uint32_t h = wsim_hash3(seed, r, 100u + b), len = LEN[b];
    *mut = (h & 3u) == 0u ? (h >> 2) % len : NONE;
    return wsim_hash3(seed, r, 200u + b) % (p->n - len + 1u);
}

/* Is suffix a smaller than suffix b (a != b)? */
static int suffix_less(uint32_t a, uint32_t b, uint32_t n) {
    uint32_t off = 0;
    for (;;) {
        uint32_t ka = key[a + off], kb = key[b + off];
        if (ka != kb)
            return ka < kb;
        if (a + off + 16u >= n || b + off + 16u >= n)
            return a > b; /* equal up to where one ends: the shorter is smaller */
        off += 16u;
    }
}

static int32_t common_prefix(uint32_t a, uint32_t b, uint32_t n) {
    uint32_t l = 0;
    while (a + l < n && b + l < n && genome[a + l] == genome[b + l])
        l++;
    return (int32_t)l;
}

/* The internal node that boundary k (1 <= k < n) belongs to: walk left over the
 * equal-lcp boundaries of its interval to the leftmost. */
static uint32_t find_owner(uint32_t k) {
    int32_t v = lcp[k];
    uint32_t j = k;
    for (;;) {
        uint32_t q = j - 1u; /* previous boundary with lcp <= v */
        while (lcp[q] > v)
            q--;
        if (lcp[q] < v)
            return j;
        j = q;
    }
}

/* Link a child (node id, or LEAF | suffix) into the parent of the interval [i, j]. */
static void link(uint32_t i, uint32_t j, uint32_t pos, uint32_t child, uint32_t n) {
    int32_t li = lcp[i], lj = lcp[j + 1u];
    uint32_t parent, d;
    if (li < 0 && lj < 0) { /* the whole array: the root */
        root[0] = child;
        return;
    }
    parent = li >= lj ? owner[i] : owner[j + 1u];
    d = (uint32_t)(li >= lj ? li : lj);
    if (pos + d < n) /* else the edge is only the terminator: no read follows it */
        node[parent * 8u + 2u + genome[pos + d]] = child;
}

/* Match read r (its bases at rd[j * stride]) of length len: prefix length, position. */
static uint32_t match(const uint8_t *rd, uint32_t stride, uint32_t len, uint32_t n, uint32_t *at) {
    uint32_t cur = root[0], m = 0, pos = 0;
    while (m < len) {
        uint32_t c = rd[m * stride], ch = node[cur * 8u + 2u + c], end;
        if (ch == NONE)
            break;
        if (ch & LEAF) {
            pos = ch & ~LEAF;
            end = n - pos < len ? n - pos : len;
        } else {
            pos = node[ch * 8u + 1u];
            end = node[ch * 8u] < len ? node[ch * 8u] : len;
        }
        m++; /* the first base of the edge is c */
        while (m < end && genome[pos + m] == rd[m * stride])
            m++;
        if (m < end || (ch & LEAF))
            break;
        cur = ch;
    }
    *at = pos;
    return m;
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t seed = wsim_seed(), i, kk, jj, b;
    problem p = make_problem(wsim_arg());
    uint32_t n = p.n;
    int bad = 0;

    /* Phase 1: genome, reads (interleaved), keys. */
    for (i = tid; i < n; i += nthreads)
        genome[i] = (uint8_t)make_base(seed, i);
    wsim_barrier();
    for (b = p.first; b <= p.last; b++)
        for (i = tid; i < p.count[b]; i += nthreads) {
            uint32_t mut, s = read_start(seed, &p, b, i, &mut), j;
            for (j = 0; j < LEN[b]; j++) {
                uint32_t c = genome[s + j];
                reads[p.off[b] + j * p.count[b] + i] = (uint8_t)(j == mut ? (c + 1u) & 3u : c);
            }
        }
    for (i = tid; i < n; i += nthreads) {
        uint32_t k = 0, j;
        for (j = 0; j < 16u; j++)
            k = k << 2 | (i + j < n ? genome[i + j] : 0u);
        key[i] = k;
        sa[i] = i;
    }
    wsim_barrier();

    /* Phase 2: bitonic sort of the suffixes. */
    for (kk = 2; kk <= n; kk <<= 1)
        for (jj = kk >> 1; jj > 0; jj >>= 1) {
            for (i = tid; i < n / 2u; i += nthreads) {
                uint32_t lo = 2u * jj * (i / jj) + i % jj, hi = lo + jj;
                uint32_t a = sa[lo], c = sa[hi];
                if (suffix_less(c, a, n) == ((lo & kk) == 0u)) {
                    sa[lo] = c;
                    sa[hi] = a;
                }
            }
            wsim_barrier();
        }

    /* Phase 3: lcp, empty nodes. */
    for (i = tid; i <= n; i += nthreads) {
        lcp[i] = i == 0 || i == n ? -1 : common_prefix(sa[i - 1u], sa[i], n);
        if (i < n) {
            node[i * 8u + 2u] = node[i * 8u + 3u] = node[i * 8u + 4u] = node[i * 8u + 5u] = NONE;
            owner[i] = NONE;
        }
    }
    wsim_barrier();

    /* Phase 4: every boundary's node; nodes record depth, a suffix, their interval. */
    for (i = tid + 1u; i < n; i += nthreads) {
        uint32_t o = find_owner(i);
        owner[i] = o;
        if (o == i) {
            uint32_t lo = i - 1u, hi = i + 1u;
            while (lcp[lo] >= lcp[i])
                lo--;
            while (lcp[hi] >= lcp[i])
                hi++;
            node[i * 8u] = (uint32_t)lcp[i];
            node[i * 8u + 1u] = sa[i];
            node[i * 8u + 6u] = lo;        /* the interval: suffixes lo .. hi - 1 */
            node[i * 8u + 7u] = hi - 1u;
        }
    }
    wsim_barrier();

    /* Phase 5: link nodes and leaves into their parents. */
    for (i = tid; i < n; i += nthreads) {
        if (i > 0 && owner[i] == i)
            link(node[i * 8u + 6u], node[i * 8u + 7u], sa[i], i, n);
        link(i, i, sa[i], LEAF | sa[i], n);
    }
    wsim_roi_begin(); /* the matching: the phase 002 measures */

    /* Phase 6: match the reads, one per item, batch after batch. */
    for (b = p.first; b <= p.last; b++)
        for (i = tid; i < p.count[b]; i += nthreads) {
            uint32_t at, m = match(&reads[p.off[b] + i], p.count[b], LEN[b], n, &at);
            match_len[p.base[b] + i] = (uint16_t)m;
            match_pos[p.base[b] + i] = at;
        }
    wsim_roi_end();

    /* Phase 7: self-check. */
    for (i = tid + 1u; i < n; i += nthreads)
        bad |= !suffix_less(sa[i - 1u], sa[i], n);
    bad |= root[0] == NONE || (root[0] & LEAF) != 0u;
    for (b = p.first; b <= p.last; b++)
        for (i = tid * CHECK_STRIDE; i < p.count[b]; i += nthreads * CHECK_STRIDE) {
            uint32_t mut, s = read_start(seed, &p, b, i, &mut), j;
            uint32_t m = match_len[p.base[b] + i], at = match_pos[p.base[b] + i];
            const uint8_t *rd = &reads[p.off[b] + i];
            bad |= at + m > n;
            for (j = 0; j < m && at + j < n; j++)
                bad |= genome[at + j] != rd[j * p.count[b]];
            bad |= mut == NONE ? m != LEN[b] : m < mut;
            (void)s;
        }
    return bad;
}
