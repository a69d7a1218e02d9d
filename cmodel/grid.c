/* Irregular grids: the warp-size list, the kernel's own declaration, the
 * order of the warps and their packing into partitions (grid.h,
 * docs/irregular.md). */
#define _POSIX_C_SOURCE 200809L /* stat */

#include "grid.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core.h"

/* ---- the list ---- */

static char *slurp(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "--warp-sizes %s: cannot read: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
        n += got;
        if (n + 1 == cap) {
            char *nb = cap > (256u << 20) ? NULL : realloc(buf, cap * 2);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb, cap *= 2;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        snprintf(err, errlen, "--warp-sizes %s: %s", path, bad ? "read error" : "too large (over 256 MB) or out of memory");
        return NULL;
    }
    buf[n] = 0;
    return buf;
}

long grid_parse_sizes(const char *arg, uint32_t max_size, uint32_t **out, char *err, size_t errlen)
{
    struct stat st;
    int is_file = strchr(arg, '/') != NULL || stat(arg, &st) == 0;
    char *text = is_file ? slurp(arg, err, errlen) : NULL;
    if (is_file && !text) return -1;
    const char *p = is_file ? text : arg;
    const char *what = is_file ? "file" : "list";
    uint32_t *v = NULL;
    size_t n = 0, cap = 0;
    long line = 1;
    *out = NULL;
    while (*p) {
        if (*p == '#') { /* a comment to the end of the line */
            while (*p && *p != '\n') p++;
            continue;
        }
        if (*p == '\n') { line++, p++; continue; }
        if (*p == ',' || isspace((unsigned char)*p)) { p++; continue; }
        const char *tok = p;
        while (*p && *p != ',' && *p != '#' && !isspace((unsigned char)*p)) p++;
        int len = (int)(p - tok);
        char where[64];
        if (is_file) snprintf(where, sizeof where, ", line %ld", line);
        else where[0] = 0;
        errno = 0;
        char *end;
        unsigned long long x = strtoull(tok, &end, 10);
        if (tok[0] == '-' && end == p) {
            snprintf(err, errlen, "--warp-sizes %s%s: warp %zu: '%.*s' is negative; a warp has 1 .. %u threads", arg,
                     where, n, len, tok, max_size);
            goto bad;
        }
        if (end != p || !isdigit((unsigned char)tok[0])) {
            snprintf(err, errlen, "--warp-sizes %s%s: warp %zu: '%.*s' is not a warp size (a whole number 1 .. %u; "
                     "a %s of sizes separated by commas, blanks or newlines)", arg, where, n, len > 40 ? 40 : len, tok,
                     max_size, what);
            goto bad;
        }
        if (x == 0) {
            snprintf(err, errlen, "--warp-sizes %s%s: warp %zu has 0 threads; a warp has 1 .. %u threads", arg, where,
                     n, max_size);
            goto bad;
        }
        if (errno == ERANGE || x > max_size) {
            snprintf(err, errlen, "--warp-sizes %s%s: warp %zu has %.*s threads; this machine's warps hold at most "
                     "%u (warp_size): use smaller warps or a machine with wider ones", arg, where, n, len > 40 ? 40 : len,
                     tok, max_size);
            goto bad;
        }
        if (n == GRID_MAX_THREADS) {
            snprintf(err, errlen, "--warp-sizes %s: more than %u warps", arg, GRID_MAX_THREADS);
            goto bad;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            uint32_t *nv = realloc(v, cap * sizeof *v);
            if (!nv) {
                snprintf(err, errlen, "--warp-sizes %s: out of host memory", arg);
                goto bad;
            }
            v = nv;
        }
        v[n++] = (uint32_t)x;
    }
    free(text);
    if (!n) {
        free(v);
        snprintf(err, errlen, "--warp-sizes %s: no warp sizes in the %s; give sizes 1 .. %u separated by commas, "
                 "blanks or newlines (e.g. --warp-sizes 4,11,3,2,8,3)", arg, what, max_size);
        return -1;
    }
    *out = v;
    return (long)n;
bad:
    free(text);
    free(v);
    return -1;
}

/* ---- the kernel's own grid ---- */

long grid_kernel_sizes(const program_t *p, const mem_t *mem, uint32_t max_size, uint32_t **out, char *err,
                       size_t errlen)
{
    *out = NULL;
    if (p->grid_hi <= p->grid_lo) return 0;
    if (p->grid_hi - p->grid_lo != 16) {
        snprintf(err, errlen, "%s: the kernel declares %u grids (WSIM_GRID_ROWS); a kernel has one", p->path,
                 (p->grid_hi - p->grid_lo) / 16);
        return -1;
    }
    uint32_t kind = mem_read(mem, p->grid_lo, 4), rows = mem_read(mem, p->grid_lo + 4, 4);
    uint32_t count_at = mem_read(mem, p->grid_lo + 8, 4), cap = mem_read(mem, p->grid_lo + 12, 4);
    if (kind != 1) {
        snprintf(err, errlen, "%s: the grid record is of kind %u; this simulator knows kind 1 (WSIM_GRID_ROWS)",
                 p->path, kind);
        return -1;
    }
    uint32_t m = mem_read(mem, count_at, 4);
    if (m == 0) {
        snprintf(err, errlen, "%s: the kernel's grid (WSIM_GRID_ROWS) has no rows: give the kernel its input "
                 "(wpusim --input NAME=FILE; docs/irregular.md) or a grid (--warp-sizes)", p->path);
        return -1;
    }
    if (m >= cap || m > GRID_MAX_THREADS) {
        snprintf(err, errlen, "%s: the kernel's grid (WSIM_GRID_ROWS) names %u rows, but its row-offset array "
                 "holds %u offsets: the input is inconsistent", p->path, m, cap);
        return -1;
    }
    uint32_t *v = malloc((size_t)m * sizeof *v);
    if (!v) {
        snprintf(err, errlen, "%s: out of host memory reading the grid", p->path);
        return -1;
    }
    uint32_t prev = mem_read(mem, rows, 4);
    for (uint32_t i = 0; i < m; i++) {
        uint32_t next = mem_read(mem, rows + 4 * (i + 1), 4);
        if (next < prev) {
            snprintf(err, errlen, "%s: the kernel's grid (WSIM_GRID_ROWS): row offsets decrease at row %u (%u then "
                     "%u): the input is not a CSR matrix", p->path, i, prev, next);
            free(v);
            return -1;
        }
        uint32_t len = next - prev;
        v[i] = len < 1 ? 1 : len > max_size ? max_size : len;
        prev = next;
    }
    *out = v;
    return (long)m;
}

/* ---- order and packing ---- */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

long grid_distinct(const uint32_t *sizes, uint32_t m, uint32_t **vals, uint32_t **first)
{
    uint32_t *v = malloc((size_t)(m ? m : 1) * sizeof *v);
    if (!v) return -1;
    memcpy(v, sizes, (size_t)m * sizeof *v);
    qsort(v, m, sizeof *v, cmp_u32);
    uint32_t n = 0;
    for (uint32_t i = 0; i < m; i++)
        if (!n || v[n - 1] != v[i]) v[n++] = v[i];
    uint32_t *f = malloc((size_t)(n ? n : 1) * sizeof *f);
    if (!f) { free(v); return -1; }
    for (uint32_t k = 0; k < n; k++) f[k] = UINT32_MAX;
    for (uint32_t i = 0; i < m; i++) {
        uint32_t *at = bsearch(&sizes[i], v, n, sizeof *v, cmp_u32);
        if (f[at - v] == UINT32_MAX) f[at - v] = i;
    }
    *vals = v, *first = f;
    return (long)n;
}

/* xorshift64* from a splitmix64 of the seed: the row orders of 003 §V. */
static uint64_t order_next(uint64_t *x)
{
    *x ^= *x >> 12, *x ^= *x << 25, *x ^= *x >> 27;
    return *x * 0x2545F4914F6CDD1Dull;
}

void grid_delete(grid_t *g)
{
    if (!g) return;
    free(g->size), free(g->tid0), free(g->launch), free(g->part_start);
    free(g->sizes), free(g->insts), free(g->bucket);
    free(g);
}

grid_t *grid_new(uint32_t *sizes, uint32_t m, uint32_t lanes, uint32_t order_seed, long threshold,
                 const uint64_t *insts, long only)
{
    grid_t *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->m = m;
    g->size = sizes;
    uint32_t *first = NULL, *order = NULL, *open = NULL, *fill = NULL, *pstart = NULL;
    g->tid0 = malloc((size_t)m * sizeof *g->tid0);
    g->launch = malloc((size_t)m * sizeof *g->launch);
    g->part_start = malloc(((size_t)m + 1) * sizeof *g->part_start);
    order = malloc((size_t)m * sizeof *order);
    long nd = grid_distinct(sizes, m, &g->sizes, &first);
    if (!g->tid0 || !g->launch || !g->part_start || !order || nd < 0) goto oom;
    g->nsizes = (uint32_t)nd;
    uint64_t t = 0;
    for (uint32_t i = 0; i < m; i++) g->tid0[i] = (uint32_t)t, t += sizes[i];
    g->nthreads = (uint32_t)t;
    if (only >= 0) { /* a measurement: warp `only` alone */
        g->nlaunch = 1, g->nparts = 1;
        g->launch[0] = (uint32_t)only;
        g->part_start[0] = 0, g->part_start[1] = 1;
        g->packed_lanes = sizes[only];
        goto done;
    }
    /* the order in which the warps are dealt: the list's, or shuffled */
    for (uint32_t i = 0; i < m; i++) order[i] = i;
    if (order_seed) {
        uint64_t x = order_seed + 0x9E3779B97F4A7C15ull;
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull, x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
        x ^= x >> 31;
        if (!x) x = 1;
        for (uint32_t i = m; i > 1; i--) { /* Fisher-Yates */
            uint32_t j = (uint32_t)(order_next(&x) % i);
            uint32_t tmp = order[i - 1];
            order[i - 1] = order[j], order[j] = tmp;
        }
    }
    g->nlaunch = m;
    if (threshold < 0) { /* one warp a partition */
        for (uint32_t i = 0; i < m; i++) g->launch[i] = order[i], g->part_start[i] = i, g->packed_lanes += sizes[i];
        g->part_start[m] = m;
        g->nparts = m;
        goto done;
    }
    /* 003 §IV-B: sizes sorted by their instruction count fall into buckets;
     * a bucket takes sizes while their count exceeds its smallest by at most
     * the threshold. */
    g->insts = malloc((size_t)g->nsizes * sizeof *g->insts);
    g->bucket = malloc((size_t)g->nsizes * sizeof *g->bucket);
    uint32_t *byc = malloc((size_t)g->nsizes * sizeof *byc);
    if (!g->insts || !g->bucket || !byc) { free(byc); goto oom; }
    memcpy(g->insts, insts, (size_t)g->nsizes * sizeof *g->insts);
    for (uint32_t k = 0; k < g->nsizes; k++) byc[k] = k;
    for (uint32_t a = 1; a < g->nsizes; a++) /* insertion sort by count, then size: stable and small */
        for (uint32_t b = a; b > 0 && g->insts[byc[b - 1]] > g->insts[byc[b]]; b--) {
            uint32_t tmp = byc[b];
            byc[b] = byc[b - 1], byc[b - 1] = tmp;
        }
    uint64_t lo = 0;
    for (uint32_t r = 0; r < g->nsizes; r++) {
        uint64_t c = g->insts[byc[r]];
        if (r == 0 || c - lo > (uint64_t)threshold) g->nbuckets++, lo = c;
        g->bucket[byc[r]] = g->nbuckets - 1;
    }
    free(byc);
    /* Deal the warps in order; each bucket fills one open partition at a
     * time up to `lanes`; a warp that does not fit closes it. Partitions are
     * numbered in the order they were opened (their first warp's place). */
    open = malloc((size_t)g->nbuckets * sizeof *open);   /* bucket -> its open partition, or UINT32_MAX */
    fill = calloc((size_t)m + 1, sizeof *fill);           /* partition -> lanes */
    pstart = calloc((size_t)m + 2, sizeof *pstart);       /* partition -> warps in it (counted, then offsets) */
    uint32_t *part_of = malloc((size_t)m * sizeof *part_of); /* warp (in order) -> partition */
    if (!open || !fill || !pstart || !part_of) { free(part_of); goto oom; }
    for (uint32_t b = 0; b < g->nbuckets; b++) open[b] = UINT32_MAX;
    uint32_t np = 0;
    for (uint32_t i = 0; i < m; i++) {
        uint32_t w = order[i], n = sizes[w];
        uint32_t b = g->bucket[(uint32_t *)bsearch(&n, g->sizes, g->nsizes, sizeof n, cmp_u32) - g->sizes];
        if (open[b] == UINT32_MAX || fill[open[b]] + n > lanes) open[b] = np++;
        fill[open[b]] += n;
        pstart[open[b] + 1]++;
        part_of[i] = open[b];
    }
    for (uint32_t p = 0; p < np; p++) pstart[p + 1] += pstart[p];
    memcpy(g->part_start, pstart, ((size_t)np + 1) * sizeof *pstart);
    for (uint32_t i = 0; i < m; i++) g->launch[pstart[part_of[i]]++] = order[i];
    g->nparts = np;
    for (uint32_t p = 0; p < np; p++) g->packed_lanes += fill[p];
    free(part_of);
done:
    free(first), free(order), free(open), free(fill), free(pstart);
    return g;
oom:
    free(first), free(order), free(open), free(fill), free(pstart);
    g->size = NULL; /* (the caller still owns it on failure) */
    grid_delete(g);
    return NULL;
}

/* ---- the lanes of a partition (warp.c's launch) ---- */

int grid_partition_lanes(const struct wsim *s, int gid, lane_meta_t *meta)
{
    const grid_t *g = s->grid;
    int n = 0;
    if (!g) { /* the fixed grid: warp gid is warp_size consecutive threads */
        uint32_t tid0 = (uint32_t)gid * (uint32_t)s->warp_size;
        n = (int)(s->nthreads - tid0 < (uint32_t)s->warp_size ? s->nthreads - tid0 : (uint32_t)s->warp_size);
        for (int l = 0; l < n; l++) meta[l] = (lane_meta_t){tid0 + (uint32_t)l, (uint32_t)gid, (uint16_t)l, (uint16_t)n};
    } else {
        for (uint32_t k = g->part_start[gid]; k < g->part_start[gid + 1]; k++) {
            uint32_t w = g->launch[k];
            for (uint32_t j = 0; j < g->size[w]; j++)
                meta[n++] = (lane_meta_t){g->tid0[w] + j, w, (uint16_t)j, (uint16_t)g->size[w]};
        }
    }
    for (int l = n; l < s->warp_size; l++) meta[l] = (lane_meta_t){0, 0, 0, 0};
    return n;
}

void grid_free(struct wsim *s)
{
    grid_delete(s->grid);
    s->grid = NULL;
}
