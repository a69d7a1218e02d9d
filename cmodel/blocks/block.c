/* The generic side of the blocks (block.h): port access, port traces and the
 * comparator, all driven by a block's port descriptors. None of this runs in
 * the simulator's hot loop (only when recording, replaying or comparing). */
#define _POSIX_C_SOURCE 200809L /* stat */
#include "block.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "asc.h"
#include "colpick.h"
#include "fetcharb.h"
#include "mdt.h"
#include "prt.h"
#include "wst.h"
#include "zfile.h"

/* Every block; a new block adds its ops here. */
static const block_ops_t *const block_list[] = {&wst_block_ops, &asc_block_ops, &fetcharb_block_ops,
                                                     &mdt_block_ops, &colpick_block_ops, &prt_block_ops};

const block_ops_t *block_find(const char *name)
{
    for (size_t i = 0; i < sizeof block_list / sizeof block_list[0]; i++)
        if (!strcmp(block_list[i]->name, name)) return block_list[i];
    return NULL;
}

const block_ops_t *block_at(int i)
{
    return i >= 0 && (size_t)i < sizeof block_list / sizeof block_list[0] ? block_list[i] : NULL;
}

const char *block_port_rtl_name(const block_port_t *p, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s", p->name, p->timing == BLOCK_RESET ? "_ni" : p->dir == BLOCK_IN ? "_i" : "_o");
    return buf;
}

/* ---- port values ---- */

static int is_input(const block_port_t *p) { return p->timing == BLOCK_EARLY || p->timing == BLOCK_LATE; }
static int is_reg(const block_port_t *p) { return p->timing == BLOCK_REG || p->timing == BLOCK_ENTRY; }

/* The C member of port p (entry k of an ENTRY port), or NULL. */
static unsigned char *member(const block_ops_t *b, const block_port_t *p, int k, const void *in, const void *out,
                             const void *regs)
{
    const unsigned char *base = NULL;
    switch (p->timing) {
    case BLOCK_EARLY:
    case BLOCK_LATE: base = in; break;
    case BLOCK_COMB: base = out; break;
    case BLOCK_REG: base = regs; break;
    case BLOCK_ENTRY:
        if (regs) base = (const unsigned char *)regs + b->entry_offset + (size_t)k * b->entry_size;
        break;
    default: break;
    }
    return base ? (unsigned char *)base + p->offset : NULL;
}

/* The member's value, unmasked. */
static wmask_t load(block_ctype_t t, const unsigned char *m)
{
    wmask_t v = wmask_none();
    if (!m) return v;
    switch (t) {
    case BLOCK_U8: { uint8_t x; memcpy(&x, m, sizeof x); v.w[0] = x; break; }
    case BLOCK_U16: { uint16_t x; memcpy(&x, m, sizeof x); v.w[0] = x; break; }
    case BLOCK_U32: { uint32_t x; memcpy(&x, m, sizeof x); v.w[0] = x; break; }
    case BLOCK_U64: memcpy(&v.w[0], m, sizeof v.w[0]); break;
    case BLOCK_MASK: memcpy(&v, m, sizeof v); break;
    }
    return v;
}

static void store(block_ctype_t t, unsigned char *m, const wmask_t *v)
{
    switch (t) {
    case BLOCK_U8: { uint8_t x = (uint8_t)v->w[0]; memcpy(m, &x, sizeof x); break; }
    case BLOCK_U16: { uint16_t x = (uint16_t)v->w[0]; memcpy(m, &x, sizeof x); break; }
    case BLOCK_U32: { uint32_t x = (uint32_t)v->w[0]; memcpy(m, &x, sizeof x); break; }
    case BLOCK_U64: memcpy(m, &v->w[0], sizeof v->w[0]); break;
    case BLOCK_MASK: memcpy(m, v, sizeof *v); break;
    }
}

/* Bits a C type holds. */
static int ctype_bits(block_ctype_t t)
{
    switch (t) {
    case BLOCK_U8: return 8;
    case BLOCK_U16: return 16;
    case BLOCK_U32: return 32;
    case BLOCK_U64: return 64;
    default: return WSIM_MAX_LANES;
    }
}

wmask_t block_get(const block_ops_t *b, const void *cfg, int port, int k, const void *in, const void *out,
                  const void *regs)
{
    const block_port_t *p = &b->ports[port];
    wmask_t v = load(p->ctype, member(b, p, k, in, out, regs));
    wmask_t w = wmask_first(b->width(cfg, port));
    return wmask_and(v, w);
}

static int digits_of(const block_ops_t *b, const void *cfg, int port)
{
    const block_port_t *p = &b->ports[port];
    return p->digits ? p->digits : (b->width(cfg, port) + 3) / 4;
}

/* Hex of v, at least `digits` digits (more when v needs them); returns the end. */
static char *put_hex(char *s, const wmask_t *v, int digits)
{
    static const char hx[] = "0123456789abcdef";
    int need = 1;
    for (int d = WSIM_MAX_LANES / 4 - 1; d > 0; d--)
        if ((v->w[d / 16] >> (4 * (d % 16))) & 15) {
            need = d + 1;
            break;
        }
    if (need < digits) need = digits;
    for (int d = need - 1; d >= 0; d--) *s++ = hx[(v->w[d / 16] >> (4 * (d % 16))) & 15];
    *s = 0;
    return s;
}

static void hex_string(char *buf, const wmask_t *v, int digits) { put_hex(buf, v, digits); }

/* ---- traces ---- */

void block_trace_header(const block_ops_t *b, const void *cfg, FILE *f)
{
    fprintf(f, "# warpsplit-port-trace %d block=%s\n# %s", BLOCK_TRACE_VERSION, b->name, b->name);
    for (int i = 0; i < b->nparams; i++) {
        int v;
        memcpy(&v, (const char *)cfg + b->params[i].offset, sizeof v);
        fprintf(f, " %s=%d", b->params[i].name, v);
    }
    fputc('\n', f);
}

/* The whole registered port p (every entry of an ENTRY port) as " name=hex". */
static void put_reg_port(const block_ops_t *b, const void *cfg, int port, const void *regs, FILE *f)
{
    static const char hx[] = "0123456789abcdef";
    const block_port_t *p = &b->ports[port];
    if (p->timing == BLOCK_REG) {
        char buf[WSIM_MAX_LANES / 4 + 2];
        wmask_t v = block_get(b, cfg, port, 0, NULL, NULL, regs);
        hex_string(buf, &v, digits_of(b, cfg, port));
        fprintf(f, " %s=%s", p->name, buf);
        return;
    }
    int n = b->entries(cfg), w = b->width(cfg, port), digits = (n * w + 3) / 4;
    wmask_t v[BLOCK_MAX_ENTRIES];
    for (int k = 0; k < n; k++) v[k] = block_get(b, cfg, port, k, NULL, NULL, regs);
    fprintf(f, " %s=", p->name);
    for (int d = digits - 1; d >= 0; d--) {
        int nib = 0;
        for (int j = 0; j < 4; j++) {
            int pos = 4 * d + j, k = pos / w, bit = pos % w;
            if (k < n && wmask_test(&v[k], bit)) nib |= 1 << j;
        }
        fputc(hx[nib], f);
    }
}

void block_trace_line(const block_ops_t *b, const void *cfg, uint64_t cycle, int unit, const void *in,
                      const void *out, const void *regs, FILE *f)
{
    /* one fputs per line (a recorded benchmark writes millions of them),
     * unless a line outgrows the buffer */
    char buf[BLOCK_MAX_PORTS * (24 + WSIM_MAX_LANES / 4) + 64];
    char *s = buf + sprintf(buf, "c=%012llx u=%03x", (unsigned long long)cycle, (unsigned)unit);
    for (int pass = 0; pass < 2; pass++) {
        const void *src = pass ? out : in;
        if (!src) continue;
        if (pass) *s++ = ' ', *s++ = '|';
        for (int i = 0; i < b->nports; i++) {
            const block_port_t *p = &b->ports[i];
            if (pass ? p->timing != BLOCK_COMB : !is_input(p)) continue;
            /* integers as the C value holds them, lanes as the port's digits */
            wmask_t v = load(p->ctype, member(b, p, 0, in, out, NULL));
            if (p->ctype == BLOCK_MASK) v = wmask_and(v, wmask_first(b->width(cfg, i)));
            size_t n = strlen(p->name);
            if ((size_t)(s - buf) + n + WSIM_MAX_LANES / 4 + 8 > sizeof buf) {
                *s = 0;
                fputs(buf, f);
                s = buf;
            }
            *s++ = ' ';
            memcpy(s, p->name, n);
            s += n;
            *s++ = '=';
            s = put_hex(s, &v, digits_of(b, cfg, i));
        }
    }
    *s = 0;
    if (!regs) {
        *s++ = '\n';
        *s = 0;
        fputs(buf, f);
        return;
    }
    fputs(buf, f);
    for (int i = 0; i < b->nports; i++)
        if (is_reg(&b->ports[i])) put_reg_port(b, cfg, i, regs, f);
    fputc('\n', f);
}

/* ---- parsing ---- */

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Hex digits s[0..len) into nent values of w bits each (the first value the
 * lowest bits). Returns 0, -1 on a bad digit, -2 when a set bit falls past
 * nent * w. */
static int parse_bits(const char *s, size_t len, int w, int nent, wmask_t *vals)
{
    for (int k = 0; k < nent; k++) vals[k] = wmask_none();
    if (len == 0) return -1;
    for (size_t i = 0; i < len; i++) {
        int x = hexval((unsigned char)s[len - 1 - i]);
        if (x < 0) return -1;
        for (int j = 0; j < 4; j++) {
            if (!((x >> j) & 1)) continue;
            long pos = 4 * (long)i + j;
            if (pos >= (long)nent * w) return -2;
            wmask_set(&vals[pos / w], (int)(pos % w));
        }
    }
    return 0;
}

static int find_port(const block_ops_t *b, const char *name, size_t len)
{
    for (int i = 0; i < b->nports; i++) {
        const block_port_t *p = &b->ports[i];
        if (p->timing == BLOCK_CLOCK || p->timing == BLOCK_RESET) continue;
        if (strlen(p->name) == len && !strncmp(p->name, name, len)) return i;
    }
    return -1;
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

int block_parse_line(const block_ops_t *b, const void *cfg, const char *line, block_row_t *row, void *in, void *out,
                     block_check_t *chk, char *err, size_t errlen)
{
    long lineno = row->lineno;
    memset(row, 0, sizeof *row);
    row->lineno = lineno;
    memset(in, 0, b->in_size);
    memset(out, 0, b->out_size);
    if (chk) {
        memset(chk->want, 0, sizeof chk->want);
        memset(chk->image, 0, b->state_size);
    }
    const char *s = line;
    while (*s == ' ' || *s == '\t') s++;
    if (!*s || *s == '\n' || *s == '\r' || *s == '#') return 0;
    const int nent = b->entries(cfg);
    uint64_t seen = 0;
    int seen_c = 0, seen_u = 0, bar = 0, any_in = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
        if (!*s || *s == '#') break;
        if (*s == '|' && (s[1] == 0 || s[1] == ' ' || s[1] == '\t' || s[1] == '\n' || s[1] == '\r')) {
            if (bar) FAIL("a second '|'");
            bar = 1;
            s++;
            continue;
        }
        const char *key = s;
        while (*s && *s != '=' && *s != '[' && *s != ' ' && *s != '\t' && *s != '\n') s++;
        size_t klen = (size_t)(s - key);
        int k = -1; /* [entry] */
        if (*s == '[') {
            char *end;
            k = (int)strtol(s + 1, &end, 10);
            if (end == s + 1 || *end != ']') FAIL("field '%.*s': bad entry index", (int)klen, key);
            s = end + 1;
        }
        if (*s != '=') FAIL("'%.*s' is not a field (name=hex)", (int)klen, key);
        const char *val = ++s;
        while (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') s++;
        size_t vlen = (size_t)(s - val);
        wmask_t v;
        if ((klen == 1 && (*key == 'c' || *key == 'u')) && k < 0) {
            int *seen_cu = *key == 'c' ? &seen_c : &seen_u;
            if (*seen_cu) FAIL("field '%c' twice", *key);
            if (bar) FAIL("field '%c' after '|'", *key);
            int r = parse_bits(val, vlen, *key == 'c' ? 64 : 31, 1, &v);
            if (r == -1) FAIL("field '%c': '%.*s' is not hex", *key, (int)vlen, val);
            if (r == -2) FAIL("field '%c': value too large", *key);
            if (*key == 'c') row->cycle = v.w[0];
            else row->unit = (int)v.w[0];
            *seen_cu = 1;
            continue;
        }
        int i = find_port(b, key, klen);
        if (i < 0) FAIL("unknown field '%.*s'", (int)klen, key);
        const block_port_t *p = &b->ports[i];
        if (k >= 0 && p->timing != BLOCK_ENTRY) FAIL("field '%s': only entry fields take an [entry]", p->name);
        if (k >= nent) FAIL("field '%s[%d]': the table has %d entries", p->name, k, nent);
        if (is_input(p) && bar) FAIL("input '%s' after '|'", p->name);
        if (!is_input(p) && !bar) FAIL("output '%s' before '|'", p->name);
        if (is_reg(p) && !chk) FAIL("registered port '%s': not in a trace line (only in an .expect)", p->name);
        const int w = b->width(cfg, i);
        const int whole = p->timing == BLOCK_ENTRY && k < 0;
        uint64_t bits = p->timing == BLOCK_ENTRY ? (whole ? (nent >= 64 ? ~0ull : (1ull << nent) - 1) : 1ull << k)
                                                 : 1;
        if (is_reg(p) ? (chk->want[i] & bits) != 0 : ((seen >> i) & 1) != 0) FAIL("field '%s' twice", p->name);
        wmask_t vals[BLOCK_MAX_ENTRIES];
        int r = parse_bits(val, vlen, w, whole ? nent : 1, vals);
        if (r == -1) FAIL("field '%s': '%.*s' is not hex", p->name, (int)vlen, val);
        if (r == -2 || ctype_bits(p->ctype) < w)
            FAIL("field '%s': value wider than the port's %d bits", p->name, whole ? nent * w : w);
        if (is_reg(p)) {
            chk->want[i] |= bits;
            for (int e = 0; e < (whole ? nent : 1); e++)
                store(p->ctype, member(b, p, whole ? e : (k < 0 ? 0 : k), NULL, NULL, chk->image), &vals[e]);
        } else {
            seen |= 1ull << i;
            any_in |= is_input(p);
            store(p->ctype, member(b, p, 0, in, out, NULL), &vals[0]);
        }
    }
    if (!seen_c) FAIL("missing field 'c'");
    if (!seen_u) FAIL("missing field 'u'");
    row->has_in = any_in || !bar;
    row->has_out = bar;
    for (int i = 0; i < b->nports; i++) {
        const block_port_t *p = &b->ports[i];
        if ((seen >> i) & 1) continue;
        if (row->has_in && is_input(p)) FAIL("missing field '%s'", p->name);
        if (row->has_out && p->timing == BLOCK_COMB) FAIL("missing field '%s'", p->name);
    }
    return 1;
}

/* ---- trace files ---- */

/* One line of any length into *buf (grown as needed); 0 at the end. */
static int read_line(FILE *f, char **buf, size_t *cap)
{
    size_t n = 0;
    if (!*buf) {
        *cap = 1024;
        if (!(*buf = malloc(*cap))) return 0;
    }
    while (fgets(*buf + n, (int)(*cap - n), f)) {
        n += strlen(*buf + n);
        if (n && (*buf)[n - 1] == '\n') return 1;
        if (n + 1 < *cap) return 1; /* the last line, without a newline */
        char *nb = realloc(*buf, *cap * 2);
        if (!nb) return 0;
        *buf = nb;
        *cap *= 2;
    }
    return n > 0;
}

/* "# <block> key=value ...": every parameter once. */
static int parse_params(const block_ops_t *b, const char *line, void *cfg, char *err, size_t errlen)
{
    size_t nl = strlen(b->name);
    if (strncmp(line, "# ", 2) || strncmp(line + 2, b->name, nl) || line[2 + nl] != ' ')
        FAIL("expected the parameter line '# %s %s=...'", b->name, b->params[0].name);
    const char *s = line + 2 + nl;
    int seen[32] = {0};
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
        if (!*s) break;
        const char *key = s;
        while (*s && *s != '=' && *s != ' ') s++;
        if (*s != '=') FAIL("parameter line: '%.*s' is not key=value", (int)(s - key), key);
        int i;
        for (i = 0; i < b->nparams; i++)
            if (strlen(b->params[i].name) == (size_t)(s - key) && !strncmp(b->params[i].name, key, (size_t)(s - key)))
                break;
        if (i == b->nparams) FAIL("parameter line: unknown parameter '%.*s'", (int)(s - key), key);
        if (seen[i]++) FAIL("parameter line: '%s' twice", b->params[i].name);
        char *end;
        long v = strtol(s + 1, &end, 10);
        if (end == s + 1 || (*end && *end != ' ' && *end != '\n' && *end != '\r'))
            FAIL("parameter line: %s: not a number", b->params[i].name);
        int iv = (int)v;
        memcpy((char *)cfg + b->params[i].offset, &iv, sizeof iv);
        s = end;
    }
    for (int i = 0; i < b->nparams; i++)
        if (!seen[i]) FAIL("parameter line: missing parameter '%s'", b->params[i].name);
    return 0;
}

#undef FAIL

static int grow(block_trace_t *t, size_t *cap)
{
    if (t->n < *cap) return 0;
    size_t nc = *cap ? 2 * *cap : 1024;
    const block_ops_t *b = t->ops;
    void *r = realloc(t->row, nc * sizeof *t->row);
    if (r) t->row = r;
    void *i = realloc(t->in, nc * b->in_size);
    if (i) t->in = i;
    void *o = realloc(t->out, nc * b->out_size);
    if (o) t->out = o;
    void *c = realloc(t->chk, nc * sizeof *t->chk);
    if (c) t->chk = c;
    if (!r || !i || !o || !c) return -1;
    *cap = nc;
    return 0;
}

int block_trace_read(const char *path, block_trace_t *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    struct stat st; /* regular files only: a FIFO's open would wait, a device never end */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file (%s); a port trace is a text file", path,
                 S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a pipe or FIFO" : "a device");
        return -1;
    }
    FILE *f = zfile_open(path, "r"); /* path.gz: through zlib */
    if (!f) {
        if (errno == EINVAL && zfile_is_gz(path)) snprintf(err, errlen, "%s: not gzip data", path);
        else snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    char *line = NULL, msg[256];
    size_t lcap = 0, cap = 0;
    long lineno = 0;
    int rc = -1;
    block_check_t tmp = {0};
    /* the version line */
    char name[32];
    int version = 0;
    lineno++;
    if (!read_line(f, &line, &lcap) || sscanf(line, "# warpsplit-port-trace %d block=%31s", &version, name) != 2) {
        snprintf(err, errlen,
                 "%s:1: not a port trace: the first line must be '# warpsplit-port-trace %d block=<block>' (a trace "
                 "recorded before version %d lacks it)",
                 path, BLOCK_TRACE_VERSION, BLOCK_TRACE_VERSION);
        goto out;
    }
    if (version != BLOCK_TRACE_VERSION) {
        snprintf(err, errlen, "%s:1: port-trace version %d; this reader reads version %d", path, version,
                 BLOCK_TRACE_VERSION);
        goto out;
    }
    if (!(t->ops = block_find(name))) {
        snprintf(err, errlen, "%s:1: no block '%s'", path, name);
        goto out;
    }
    const block_ops_t *b = t->ops;
    /* the parameter line */
    lineno++;
    if (!(t->cfg = calloc(1, b->cfg_size)) || !(tmp.image = malloc(b->state_size))) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto out;
    }
    snprintf(msg, sizeof msg, "no parameter line '# %s %s=...'", b->name, b->params[0].name);
    if (!read_line(f, &line, &lcap) || parse_params(b, line, t->cfg, msg, sizeof msg) < 0) {
        snprintf(err, errlen, "%s:2: %s", path, msg);
        goto out;
    }
    { /* parameters the block refuses (widths past the C masks) are refused here, before any port is parsed */
        void *probe = b->init(t->cfg, msg, sizeof msg);
        if (!probe) {
            snprintf(err, errlen, "%s:2: %s", path, msg);
            goto out;
        }
        b->free(probe);
    }
    while (read_line(f, &line, &lcap)) {
        lineno++;
        if (grow(t, &cap) < 0) {
            snprintf(err, errlen, "%s: out of memory", path);
            goto out;
        }
        block_row_t *row = &t->row[t->n];
        row->lineno = lineno;
        int r = block_parse_line(b, t->cfg, line, row, t->in + t->n * b->in_size, t->out + t->n * b->out_size, &tmp,
                                 msg, sizeof msg);
        if (r < 0) {
            snprintf(err, errlen, "%s:%ld: %s", path, lineno, msg);
            goto out;
        }
        if (r == 0) continue;
        row->out_lineno = lineno;
        t->chk[t->n] = NULL;
        int any = 0;
        for (int i = 0; i < b->nports; i++) any |= tmp.want[i] != 0;
        if (any) {
            block_check_t *c = malloc(sizeof *c);
            if (!c) {
                snprintf(err, errlen, "%s: out of memory", path);
                goto out;
            }
            *c = tmp;
            if (!(tmp.image = malloc(b->state_size))) {
                free(c->image);
                free(c);
                snprintf(err, errlen, "%s: out of memory", path);
                goto out;
            }
            t->chk[t->n] = c;
        }
        t->n++;
    }
    rc = 0;
out:
    free(tmp.image);
    free(line);
    if (zfile_close(f) < 0 && rc == 0) { /* read to the end: the .gz must have been whole */
        if (zfile_is_gz(path)) snprintf(err, errlen, "%s: could not decompress it (truncated or corrupt gzip data)", path);
        else snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        rc = -1;
    }
    if (rc < 0) block_trace_free(t);
    return rc;
}

/* block_trace_order: rows sorted by (unit, row), then the units' runs of
 * rows sorted by their first row. */
typedef struct { int unit; size_t row; } unit_row_t;
typedef struct { size_t first, start, len; } unit_run_t;
static int cmp_unit_row(const void *a, const void *b)
{
    const unit_row_t *x = a, *y = b;
    if (x->unit != y->unit) return x->unit < y->unit ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}
static int cmp_unit_run(const void *a, const void *b)
{
    const unit_run_t *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

size_t *block_trace_order(const block_trace_t *t, size_t *nunits)
{
    size_t n = t->n, nu = 0;
    unit_row_t *ur = malloc((n ? n : 1) * sizeof *ur);
    unit_run_t *run = malloc((n ? n : 1) * sizeof *run);
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!ur || !run || !order) {
        free(ur), free(run), free(order);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) ur[i] = (unit_row_t){t->row[i].unit, i};
    qsort(ur, n, sizeof *ur, cmp_unit_row);
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || ur[i].unit != ur[i - 1].unit) run[nu++] = (unit_run_t){ur[i].row, i, 0};
        run[nu - 1].len++;
    }
    qsort(run, nu, sizeof *run, cmp_unit_run);
    size_t k = 0;
    for (size_t u = 0; u < nu; u++)
        for (size_t j = 0; j < run[u].len; j++) order[k++] = ur[run[u].start + j].row;
    free(ur);
    free(run);
    *nunits = nu;
    return order;
}

int block_trace_expect(block_trace_t *t, const block_trace_t *e, const char *path, char *err, size_t errlen)
{
    if (e->ops != t->ops || memcmp(e->cfg, t->cfg, t->ops->cfg_size)) {
        snprintf(err, errlen, "%s: recorded for another block or other parameters than the trace", path);
        return -1;
    }
    if (e->n != t->n) {
        snprintf(err, errlen, "%s: %zu clock lines; the trace has %zu", path, e->n, t->n);
        return -1;
    }
    for (size_t i = 0; i < t->n; i++) {
        const block_row_t *er = &e->row[i], *tr = &t->row[i];
        if (er->cycle != tr->cycle || er->unit != tr->unit) {
            snprintf(err, errlen, "%s:%ld: c=%llx u=%x, but the trace's line %ld is c=%llx u=%x", path, er->lineno,
                     (unsigned long long)er->cycle, er->unit, tr->lineno, (unsigned long long)tr->cycle, tr->unit);
            return -1;
        }
        if (er->has_in || !er->has_out) {
            snprintf(err, errlen, "%s:%ld: an expected line holds 'c=.. u=.. | outputs', no inputs", path, er->lineno);
            return -1;
        }
        if (tr->has_out) {
            snprintf(err, errlen, "%s:%ld: the trace's line %ld has outputs already", path, er->lineno, tr->lineno);
            return -1;
        }
        memcpy(t->out + i * t->ops->out_size, block_trace_out(e, i), t->ops->out_size);
        t->row[i].has_out = 1;
        t->row[i].out_lineno = er->lineno;
        if (e->chk[i]) {
            block_check_t *c = malloc(sizeof *c);
            void *img = malloc(t->ops->state_size);
            if (!c || !img) {
                free(c);
                free(img);
                snprintf(err, errlen, "%s: out of memory", path);
                return -1;
            }
            *c = *e->chk[i];
            memcpy(img, e->chk[i]->image, t->ops->state_size);
            c->image = img;
            t->chk[i] = c;
        }
    }
    return 0;
}

void block_trace_free(block_trace_t *t)
{
    for (size_t i = 0; t->chk && i < t->n; i++)
        if (t->chk[i]) {
            free(t->chk[i]->image);
            free(t->chk[i]);
        }
    free(t->chk);
    free(t->row);
    free(t->in);
    free(t->out);
    free(t->cfg);
    memset(t, 0, sizeof *t);
}

/* ---- comparing ---- */

static int differ(const block_ops_t *b, const void *cfg, int i, int k, const wmask_t *ve, const wmask_t *va,
                  block_mismatch_t *mm)
{
    if (wmask_eq(ve, va)) return 0;
    char rtl[40];
    const block_port_t *p = &b->ports[i];
    mm->port = i;
    mm->entry = p->timing == BLOCK_ENTRY ? k : -1;
    block_port_rtl_name(p, rtl, sizeof rtl);
    if (mm->entry >= 0) snprintf(mm->name, sizeof mm->name, "%s (entry %d)", rtl, k);
    else snprintf(mm->name, sizeof mm->name, "%s", rtl);
    int digits = p->timing == BLOCK_ENTRY ? (b->width(cfg, i) + 3) / 4 : digits_of(b, cfg, i);
    hex_string(mm->exp, ve, digits);
    hex_string(mm->act, va, digits);
    return 1;
}

int block_compare(const block_ops_t *b, const void *cfg, const void *exp, const void *act, int what,
                  block_mismatch_t *mm)
{
    const void *re = NULL, *ra = NULL;
    if (what & BLOCK_CMP_REGS) re = b->regs(exp), ra = b->regs(act);
    const int nent = b->entries(cfg);
    for (int i = 0; i < b->nports; i++) {
        const block_port_t *p = &b->ports[i];
        if (p->timing == BLOCK_COMB && (what & BLOCK_CMP_COMB)) {
            wmask_t ve = block_get(b, cfg, i, 0, NULL, exp, NULL), va = block_get(b, cfg, i, 0, NULL, act, NULL);
            if (differ(b, cfg, i, 0, &ve, &va, mm)) return 1;
        } else if (is_reg(p) && (what & BLOCK_CMP_REGS)) {
            for (int k = 0; k < (p->timing == BLOCK_ENTRY ? nent : 1); k++) {
                wmask_t ve = block_get(b, cfg, i, k, NULL, NULL, re), va = block_get(b, cfg, i, k, NULL, NULL, ra);
                if (differ(b, cfg, i, k, &ve, &va, mm)) return 1;
            }
        }
    }
    return 0;
}

int block_check_regs(const block_ops_t *b, const void *cfg, const block_check_t *chk, const void *regs,
                     block_mismatch_t *mm)
{
    const int nent = b->entries(cfg);
    for (int i = 0; i < b->nports; i++) {
        if (!chk->want[i]) continue;
        for (int k = 0; k < (b->ports[i].timing == BLOCK_ENTRY ? nent : 1); k++) {
            if (!((chk->want[i] >> k) & 1)) continue;
            wmask_t ve = block_get(b, cfg, i, k, NULL, NULL, chk->image);
            wmask_t va = block_get(b, cfg, i, k, NULL, NULL, regs);
            if (differ(b, cfg, i, k, &ve, &va, mm)) return 1;
        }
    }
    return 0;
}
