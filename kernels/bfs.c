/* bfs.c — breadth-first search over a generated graph (Rodinia BFS).
 *
 * Benchmark "bfs" of seed 004 (Narasiman et al., Table 2: "Breadth first search graph
 * traversal", a 1 million node arbitrary graph), adapted there from Rodinia's bfs:
 * level-synchronous, with Rodinia's two kernels per level over all nodes:
 *   kernel 1: every node in the frontier (mask[v]) leaves it and, for each of its
 *             edges, marks every not-yet-visited target: cost = cost[v] + 1,
 *             updating = 1 (targets reached from several frontier nodes get the same
 *             values: every frontier node has the same cost, so the races are benign
 *             and the result does not depend on the order);
 *   kernel 2: every updated node joins the next frontier and is visited; a thread
 *             that saw one raises more[level];
 * a barrier after each kernel; all threads read more[level] after the second one and
 * leave the loop together.  Rodinia's `over` flag is reset by the host between levels;
 * here a flag per level needs no reset.
 *
 * The graph (from wsim_seed(); CSR like Rodinia's input files): node v has degree
 * 1..8 (uniform), or, one node in 16, a hub of degree 16..47: 6.2 edges per node on
 * average, as Rodinia's graph1MW_6; every edge goes to a uniform random node (an
 * "arbitrary graph": directed, a few nodes unreachable).  Built in parallel: degrees
 * and per-chunk degree sums (fixed chunks of 256 nodes), a scan of the chunk sums by
 * thread 0, the node offsets per chunk, then the edges per node.
 *
 * Divergence: kernel 1's `if (mask[v])` (a few frontier nodes per warp at the first and
 * last levels, most at the middle ones), its edge loop (degrees 1..47 on neighbouring
 * lanes) and `if (!visited[id])`; kernel 2's `if (updating[v])`; the chunk loops.
 * Memory: every level scans the node arrays (coalesced) and gathers the targets'
 * visited flags at random addresses: 004's most latency-bound benchmark (§1: ~95% of
 * its time stalled).
 *
 * arg: 0 = tiny (1,024 nodes), 1 = small (64 K nodes), 2 = paper (512 K nodes: 004's 1 M
 *      scaled by 1/2 to stay within 004's 100-200 M thread instructions); >= 3: arg
 *      nodes (at most 1 M = 004's input).  The source is node 0.
 * Result: cost[] (the BFS level of every node, -1 if unreachable; the rest 0) and
 * stats {nodes, edges, levels, reached nodes}.
 * Self-check: cost[0] = 0; for every CHECK-th node u reached, every edge u -> t has
 * 0 <= cost[t] <= cost[u] + 1; unreached nodes are not visited; the reached nodes of
 * the fixed chunks add up to 1 + the nodes kernel 2 moved into a frontier (counted per
 * thread).
 */
#include "warpsplit.h"

#define NMAX (1u << 20)   /* 004's 1 M nodes */
#define EMAX (8u << 20)   /* edges: 6.2 per node expected, 6.5 M at 1 M nodes */
#define CHUNK 256u        /* nodes per chunk of the CSR construction */
#define NCHUNK_MAX (NMAX / CHUNK)
#define CHECK 7u
#define TMAX 65536u       /* threads, at most */

static uint32_t start[NMAX + 1u]; /* CSR: edges of v at start[v] .. start[v+1]-1 */
static uint32_t edges[EMAX];
static uint32_t chunk_base[NCHUNK_MAX + 1u];
static uint8_t mask[NMAX], updating[NMAX], visited[NMAX];
static uint8_t more[NMAX + 2u];   /* more[l]: level l found new nodes */
static uint32_t reached_chunk[NCHUNK_MAX];
static uint32_t found_by[TMAX];  /* nodes that thread t moved into a frontier */
static int32_t cost[NMAX];
static uint32_t stats[4];

WSIM_RESULT(cost);
WSIM_RESULT(stats);

static uint32_t degree(uint32_t sd, uint32_t v) {
    uint32_t h = wsim_mix32(sd ^ v);
    return (h & 15u) == 0 ? 16u + ((h >> 4) & 31u) : 1u + ((h >> 4) & 7u);
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t arg = wsim_arg(), seed = wsim_seed();
    uint32_t sd = wsim_mix32(seed ^ 0x64656721u), se = wsim_mix32(seed ^ 0x65646765u);
    uint32_t n, nchunk, ne, v, c, level = 0, joined = 0;
    int bad = 0;

    if (arg == 0)
        n = 1024;
    else if (arg == 1)
        n = 64u << 10;
    else if (arg == 2)
        n = 512u << 10;
    else
        n = arg < NMAX ? arg : NMAX;
    nchunk = (n + CHUNK - 1u) / CHUNK;
    if (nthreads > TMAX)
        return 2;

    /* The CSR graph: chunk degree sums, their scan, node offsets, edges. */
    for (c = tid; c < nchunk; c += nthreads) {
        uint32_t end = (c + 1u) * CHUNK < n ? (c + 1u) * CHUNK : n, s = 0;
        for (v = c * CHUNK; v < end; v++)
            s += degree(sd, v);
        chunk_base[c + 1u] = s;
    }
    wsim_barrier();
    if (tid == 0) {
        chunk_base[0] = 0;
        for (c = 0; c < nchunk; c++)
            chunk_base[c + 1u] += chunk_base[c];
    }
    wsim_barrier();
    ne = chunk_base[nchunk];
    if (ne > EMAX)
        return 2; /* cannot happen below 1 M nodes (6.5 M edges expected) */
    for (c = tid; c < nchunk; c += nthreads) {
        uint32_t end = (c + 1u) * CHUNK < n ? (c + 1u) * CHUNK : n, s = chunk_base[c];
        for (v = c * CHUNK; v < end; v++) {
            start[v] = s;
            s += degree(sd, v);
        }
    }
    if (tid == 0)
        start[n] = ne;
    wsim_barrier();
    for (v = tid; v < n; v += nthreads) {
        uint32_t e, hv = wsim_mix32(se ^ v);
        for (e = start[v]; e < start[v + 1u]; e++)
            edges[e] = wsim_mix32(hv + e) % n;
        mask[v] = v == 0;
        visited[v] = v == 0;
        updating[v] = 0;
        cost[v] = v == 0 ? 0 : -1;
    }
    wsim_roi_begin(); /* the measured phase: the search (the graph is set-up) */

    /* BFS from node 0: Rodinia's two kernels per level. */
    for (;;) {
        uint32_t found = 0;
        for (v = tid; v < n; v += nthreads) { /* kernel 1 */
            if (mask[v]) {
                uint32_t e;
                mask[v] = 0;
                for (e = start[v]; e < start[v + 1u]; e++) {
                    uint32_t id = edges[e];
                    if (!visited[id]) {
                        cost[id] = cost[v] + 1;
                        updating[id] = 1;
                    }
                }
            }
        }
        wsim_barrier();
        for (v = tid; v < n; v += nthreads) { /* kernel 2 */
            if (updating[v]) {
                mask[v] = 1;
                visited[v] = 1;
                updating[v] = 0;
                found++;
            }
        }
        if (found)
            more[level] = 1;
        joined += found;
        wsim_barrier();
        if (!more[level]) /* the same value in every thread: a uniform exit */
            break;
        level++;
    }
    wsim_roi_end();

    /* Self-check. */
    for (c = tid; c < nchunk; c += nthreads) { /* reached nodes per chunk */
        uint32_t end = (c + 1u) * CHUNK < n ? (c + 1u) * CHUNK : n, r = 0;
        for (v = c * CHUNK; v < end; v++) {
            r += cost[v] >= 0;
            bad |= (cost[v] >= 0) != (visited[v] != 0);
        }
        reached_chunk[c] = r;
    }
    found_by[tid] = joined;
    for (v = tid * CHECK; v < n; v += nthreads * CHECK) { /* edges of sampled nodes */
        uint32_t e;
        if (cost[v] < 0)
            continue;
        for (e = start[v]; e < start[v + 1u]; e++) {
            int32_t ct = cost[edges[e]];
            bad |= ct < 0 || ct > cost[v] + 1;
        }
    }
    wsim_barrier();
    if (tid == 0) {
        uint32_t r = 0, j = 1; /* the source joined first */
        for (c = 0; c < nchunk; c++)
            r += reached_chunk[c];
        for (c = 0; c < nthreads; c++)
            j += found_by[c];
        bad |= cost[0] != 0 || r != j;
        stats[0] = n;
        stats[1] = ne;
        stats[2] = level; /* levels after the source's */
        stats[3] = r;
    }
    return bad;
}
