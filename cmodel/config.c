/* Configuration: parsing, checking and printing, all from config.def. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "infile.h"
#include "mask.h"
#include "wsim.h"

typedef struct cfg_key {
    const char *name, *help, *choices;
    uint64_t def, lo, hi;
    int is_enum;
    size_t offset;
} cfg_key_t;

static const cfg_key_t cfg_keys[] = {
#define CFG_INT(key, d, l, h, hl) {#key, hl, NULL, (uint64_t)(d), (uint64_t)(l), (uint64_t)(h), 0, offsetof(wsim_config_t, key)},
#define CFG_ENUM(key, d, ch, hl) {#key, hl, ch, (uint64_t)(d), 0, 0, 1, offsetof(wsim_config_t, key)},
#define CFG_ALIAS(key, keys, hl)
#include "config.def"
#undef CFG_INT
#undef CFG_ENUM
#undef CFG_ALIAS
};
#define NKEYS (sizeof cfg_keys / sizeof cfg_keys[0])

/* Aliases: one name for several keys (width = warp_size and lanes). */
static const struct cfg_alias {
    const char *name, *keys, *help;
} cfg_aliases[] = {
#define CFG_INT(key, d, l, h, hl)
#define CFG_ENUM(key, d, ch, hl)
#define CFG_ALIAS(key, keys, hl) {#key, keys, hl},
#include "config.def"
#undef CFG_INT
#undef CFG_ENUM
#undef CFG_ALIAS
};
#define NALIASES (sizeof cfg_aliases / sizeof cfg_aliases[0])

void wsim_config_defaults(wsim_config_t *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < NKEYS; i++) {
        char *base = (char *)c + cfg_keys[i].offset;
        if (cfg_keys[i].is_enum) *(int *)base = (int)cfg_keys[i].def;
        else *(uint64_t *)base = cfg_keys[i].def;
    }
}

/* choice k of "a|b|c" into buf */
static int choice(const char *choices, int k, char *buf, size_t len)
{
    const char *p = choices;
    for (int i = 0; i < k; i++) {
        p = strchr(p, '|');
        if (!p) return -1;
        p++;
    }
    size_t n = strcspn(p, "|");
    if (n >= len) n = len - 1;
    memcpy(buf, p, n);
    buf[n] = 0;
    return 0;
}

static void valid_keys(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; i < NKEYS && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", cfg_keys[i].name);
}

int wsim_config_set(wsim_config_t *c, const char *key, const char *value, char *err, size_t errlen)
{
    for (size_t i = 0; i < NALIASES; i++) {
        if (strcmp(cfg_aliases[i].name, key) != 0) continue;
        char name[64];
        for (const char *p = cfg_aliases[i].keys; *p;) {
            size_t n = strcspn(p, " ");
            snprintf(name, sizeof name, "%.*s", (int)n, p);
            if (wsim_config_set(c, name, value, err, errlen) < 0) { /* the error names the alias */
                size_t k = strlen(name);
                if (!strncmp(err, name, k) && err[k] == ':') {
                    char msg[512];
                    snprintf(msg, sizeof msg, "%s%s", key, err + k);
                    snprintf(err, errlen, "%s", msg);
                }
                return -1;
            }
            p += n + (p[n] == ' ');
        }
        return 0;
    }
    const cfg_key_t *k = NULL;
    for (size_t i = 0; i < NKEYS; i++)
        if (strcmp(cfg_keys[i].name, key) == 0) k = &cfg_keys[i];
    if (!k) {
        char keys[1024];
        valid_keys(keys, sizeof keys);
        snprintf(err, errlen, "unknown configuration key '%s'; valid keys: %s", key, keys);
        return -1;
    }
    char *base = (char *)c + k->offset;
    if (k->is_enum) {
        char opt[64];
        for (int i = 0; choice(k->choices, i, opt, sizeof opt) == 0; i++)
            if (strcmp(opt, value) == 0) { *(int *)base = i; return 0; }
        snprintf(err, errlen, "%s: '%s' is not one of: %s", key, value, k->choices);
        return -1;
    }
    const char *p = value;
    while (isspace((unsigned char)*p)) p++;
    if (*p == '-' || *p == 0) {
        snprintf(err, errlen, "%s: '%s' is not a non-negative integer (allowed %llu..%llu)", key, value,
                 (unsigned long long)k->lo, (unsigned long long)k->hi);
        return -1;
    }
    errno = 0;
    char *end;
    unsigned long long v = strtoull(p, &end, 0);
    /* allow k/M/G suffixes for sizes */
    int shift = *end == 'k' || *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
    if (shift) {
        if (v > (UINT64_MAX >> shift)) errno = ERANGE;
        v <<= shift;
        end++;
    }
    while (isspace((unsigned char)*end)) end++;
    if (errno || *end) {
        snprintf(err, errlen, "%s: '%s' is not an integer (allowed %llu..%llu)", key, value,
                 (unsigned long long)k->lo, (unsigned long long)k->hi);
        return -1;
    }
    if (v < k->lo || v > k->hi) {
        snprintf(err, errlen, "%s: %llu is out of range (allowed %llu..%llu)", key, v,
                 (unsigned long long)k->lo, (unsigned long long)k->hi);
        return -1;
    }
    *(uint64_t *)base = v;
    return 0;
}

int wsim_config_assign(wsim_config_t *c, const char *a, char *err, size_t errlen)
{
    const char *eq = strchr(a, '=');
    if (!eq || eq == a) {
        snprintf(err, errlen, "'%s' is not key=value", a);
        return -1;
    }
    char key[64];
    size_t n = (size_t)(eq - a);
    while (n && isspace((unsigned char)a[n - 1])) n--;
    if (n >= sizeof key) n = sizeof key - 1;
    memcpy(key, a, n);
    key[n] = 0;
    const char *v = eq + 1;
    while (isspace((unsigned char)*v)) v++;
    return wsim_config_set(c, key, v, err, errlen);
}

int wsim_config_parse(wsim_config_t *c, const char *text, const char *origin, char *err, size_t errlen)
{
    char line[512], msg[1200];
    int lineno = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        lineno++;
        if (n >= sizeof line) {
            snprintf(err, errlen, "%s:%d: line too long", origin, lineno);
            return -1;
        }
        memcpy(line, p, n);
        line[n] = 0;
        p += n + (p[n] == '\n');
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        char *s = line, *e = line + strlen(line);
        while (isspace((unsigned char)*s)) s++;
        while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
        if (!*s) continue;
        if (wsim_config_assign(c, s, msg, sizeof msg) < 0) {
            snprintf(err, errlen, "%s:%d: %s", origin, lineno, msg);
            return -1;
        }
    }
    return 0;
}

#define CFG_MAX_FILE (1u << 20) /* a configuration file is a page of text; more is a mistake */

int wsim_config_load(wsim_config_t *c, const char *path, char *err, size_t errlen)
{
    char why[256];
    size_t len = 0;
    char *text = infile_read(path, CFG_MAX_FILE, &len, why, sizeof why); /* (regular files only) */
    if (!text) {
        snprintf(err, errlen, "%s: %s; a configuration is a text file of key = value lines", path, why);
        return -1;
    }
    const char *nul = memchr(text, 0, len);
    int rc;
    if (nul) { /* the parser works on C strings: a NUL would end the file early */
        int line = 1;
        for (const char *q = text; q < nul; q++) line += *q == '\n';
        snprintf(err, errlen, "%s:%d: NUL byte; a configuration is text, key = value lines", path, line);
        rc = -1;
    } else {
        rc = wsim_config_parse(c, text, path, err, errlen);
    }
    free(text);
    return rc;
}

uint32_t wsim_config_stack_colours(const wsim_config_t *c)
{
    uint64_t n = c->lanes > 32 ? c->lanes : 32;
    /* (n - 1) x stack_color below half of stack_size: the widths past 64 fit at the defaults */
    uint64_t fit = c->stack_color ? (c->stack_size / 2 - 1) / c->stack_color + 1 : n;
    if (n > fit) n = fit > 32 ? fit : 32; /* (below 32: wsim_config_check refuses it) */
    return (uint32_t)n;
}

int wsim_config_check(wsim_config_t *c, char *err, size_t errlen)
{
    if (c->stack_size % 16) {
        snprintf(err, errlen, "stack_size: %llu is not a multiple of 16", (unsigned long long)c->stack_size);
        return -1;
    }
    /* the colour positions: one per SIMD lane, as many as fit, at least 32 (warp.c) */
    const uint64_t colours = 32;
    if (c->stack_color % 16 || c->stack_color * (colours - 1) >= c->stack_size / 2) {
        snprintf(err, errlen, "stack_color: %llu must be a multiple of 16 with %llu x stack_color below half of "
                 "stack_size (%llu): lower stack_color or raise stack_size", (unsigned long long)c->stack_color,
                 (unsigned long long)(colours - 1), (unsigned long long)c->stack_size);
        return -1;
    }
    if (c->stack_top % 16) {
        snprintf(err, errlen, "stack_top: 0x%llx is not 16-byte aligned", (unsigned long long)c->stack_top);
        return -1;
    }
    /* caches: power-of-two geometry */
    struct { const char *name; uint64_t size, ways, line; int on; } caches[] = {
        {"l1d", c->l1d_size, c->l1d_ways, c->l1d_line, c->memory != CFG_MEMORY_FIXED},
        {"l1i", c->l1i_size, c->l1i_ways, c->l1i_line, c->memory != CFG_MEMORY_FIXED && c->l1i_size != 0},
        {"l2", c->l2_size, c->l2_ways, c->l2_line, c->memory == CFG_MEMORY_COHERENT || c->l2_private},
    };
    for (size_t i = 0; i < sizeof caches / sizeof caches[0]; i++) {
        if (!caches[i].on) continue;
        uint64_t line = caches[i].line, sets = caches[i].size / (caches[i].ways * line);
        if (line & (line - 1)) {
            snprintf(err, errlen, "%s_line: %llu is not a power of two", caches[i].name, (unsigned long long)line);
            return -1;
        }
        if (sets == 0 || caches[i].size % (caches[i].ways * line) || (sets & (sets - 1))) {
            snprintf(err, errlen,
                     "%s_size / (%s_ways x %s_line) = %llu / (%llu x %llu) must be a whole power-of-two number of sets",
                     caches[i].name, caches[i].name, caches[i].name, (unsigned long long)caches[i].size,
                     (unsigned long long)caches[i].ways, (unsigned long long)line);
            return -1;
        }
    }
    if (c->lwm) {
        /* 004 §3.1: the same threads per WPU, in fewer but larger warps (idempotent: warps x warp_size
         * is kept). A preset with fewer threads per WPU than lwm_size gets one large warp of all. */
        uint64_t hw = c->warps * c->warp_size, size = c->lwm_size < hw ? c->lwm_size : hw;
        if (c->dws) {
            snprintf(err, errlen, "lwm: large warps with dynamic warp subdivision (dws = on) are not modelled; "
                     "set one of them off");
            return -1;
        }
        if (c->dom) {
            snprintf(err, errlen, "lwm: large warps with diverge on miss (dom = on) are not modelled together; "
                     "set one of them off");
            return -1;
        }
        if (c->lanes > 64) {
            snprintf(err, errlen, "lanes: %llu SIMD lanes; the column picker (lwm = on) has 1..64 columns",
                     (unsigned long long)c->lanes);
            return -1;
        }
        if (c->lwm_size > WSIM_WIDEST_LANES) {
            snprintf(err, errlen, "lwm_size: %llu threads per large warp; allowed a multiple of lanes up to %d "
                     "(a warp's masks are %d bits, cmodel/mask.h)", (unsigned long long)c->lwm_size,
                     WSIM_WIDEST_LANES, WSIM_WIDEST_LANES);
            return -1;
        }
        if (size > WSIM_MAX_LANES) { /* the 64-lane build (mask.h) */
            snprintf(err, errlen, "lwm: large warps of %llu threads; this build of the C model holds lane masks of "
                     "%d bits: run the 256-lane build (wpusim --core 256, or auto)", (unsigned long long)size,
                     WSIM_MAX_LANES);
            return -1;
        }
        if (size % c->lanes || hw % size) {
            snprintf(err, errlen, "lwm_size: large warps of %llu threads (lwm_size %llu, the WPU's %llu threads at "
                     "most) must be a multiple of lanes (%llu) and divide the WPU's warps x warp_size = %llu",
                     (unsigned long long)size, (unsigned long long)c->lwm_size, (unsigned long long)hw,
                     (unsigned long long)c->lanes, (unsigned long long)hw);
            return -1;
        }
        c->warp_size = size;
        c->warps = hw / size;
    } else if (c->lanes != c->warp_size) {
        snprintf(err, errlen, "lanes: %llu SIMD lanes for warps of %llu threads; warps apart from the SIMD width "
                 "are only 004's large warps (lwm = on); otherwise set both, or width", (unsigned long long)c->lanes,
                 (unsigned long long)c->warp_size);
        return -1;
    }
    if (c->memory != CFG_MEMORY_FIXED && c->l1d_banks > c->lanes) {
        snprintf(err, errlen, "l1d_banks: %llu banks for %llu lanes; allowed 0 (one per lane) .. lanes",
                 (unsigned long long)c->l1d_banks, (unsigned long long)c->lanes);
        return -1;
    }
    if (c->memory == CFG_MEMORY_COHERENT && c->l2_line < c->l1d_line) {
        snprintf(err, errlen, "l2_line: %llu is smaller than l1d_line %llu; the inclusive L2 needs l2_line >= l1d_line",
                 (unsigned long long)c->l2_line, (unsigned long long)c->l1d_line);
        return -1;
    }
    if (c->l2_private && c->memory != CFG_MEMORY_BULKSYNC && c->memory != CFG_MEMORY_PRIVATE) {
        snprintf(err, errlen, "l2_private: private L2s need memory = bulksync or private (the coherent organization "
                              "shares one L2)");
        return -1;
    }
    if (c->l2_private && c->l2_line < c->l1d_line) {
        snprintf(err, errlen, "l2_line: %llu is smaller than l1d_line %llu", (unsigned long long)c->l2_line,
                 (unsigned long long)c->l1d_line);
        return -1;
    }
    if (c->memory == CFG_MEMORY_COHERENT && c->wpus > 64) {
        snprintf(err, errlen, "wpus: %llu WPUs; the coherent directory tracks at most 64 (use memory = bulksync or private)",
                 (unsigned long long)c->wpus);
        return -1;
    }
    if (c->dram_banks && c->dram_map != CFG_DRAM_MAP_LINEAR && (c->dram_banks & (c->dram_banks - 1))) {
        snprintf(err, errlen, "dram_map: %s needs a power-of-two number of banks, not dram_banks = %llu "
                 "(use dram_map = linear)", c->dram_map == CFG_DRAM_MAP_XOR ? "xor" : "ipoly",
                 (unsigned long long)c->dram_banks);
        return -1;
    }
    if (c->dram_banks && c->dram_row_conflict < c->dram_row_hit) {
        snprintf(err, errlen, "dram_row_conflict: %llu is below dram_row_hit %llu",
                 (unsigned long long)c->dram_row_conflict, (unsigned long long)c->dram_row_hit);
        return -1;
    }
    if (c->dws) {
        uint64_t slots = c->dws_slots ? c->dws_slots : 2 * c->warps;
        if (c->warps > c->dws_entries) {
            snprintf(err, errlen, "dws_entries: %llu warp-split table entries for %llu warps; every warp holds an "
                     "entry: raise dws_entries to at least warps", (unsigned long long)c->dws_entries,
                     (unsigned long long)c->warps);
            return -1;
        }
        if (slots < c->warps) {
            snprintf(err, errlen, "dws_slots: %llu scheduler slots for %llu warps; every warp's root needs one",
                     (unsigned long long)slots, (unsigned long long)c->warps);
            return -1;
        }
    } else if (c->scheduler == CFG_SCHEDULER_SWF) {
        snprintf(err, errlen, "scheduler: swf ranks warp-splits by their miss-free-cycle counters in the warp-split "
                 "table; it needs dws = on");
        return -1;
    }
    if (c->scheduler == CFG_SCHEDULER_TWOLEVEL) {
        if (c->dws) {
            snprintf(err, errlen, "scheduler: twolevel groups warps into fetch groups; with dws = on the groups are "
                     "warp-splits: set dws = off (or scheduler = rr or swf)");
            return -1;
        }
        /* the fetch arbiter's fetch groups: G of S warps, G <= 32, G x S <= 256 (docs/blocks/fetcharb.md) */
        uint64_t gs = c->fetch_group_size < c->warps ? c->fetch_group_size : c->warps;
        uint64_t ng = (c->warps + gs - 1) / gs;
        if (ng > 32 || ng * gs > 256) {
            snprintf(err, errlen, "fetch_group_size: %llu warps in fetch groups of %llu make %llu groups of %llu "
                     "slots; the fetch arbiter has at most 32 fetch groups and 256 slots: raise fetch_group_size "
                     "or lower warps", (unsigned long long)c->warps, (unsigned long long)gs,
                     (unsigned long long)ng, (unsigned long long)(ng * gs));
            return -1;
        }
    }
    if (c->core == CFG_CORE_VECTOR && (c->dws || c->dom || c->lwm || c->scheduler != CFG_SCHEDULER_RR)) {
        snprintf(err, errlen, "core: 003's vector core with %s is not modelled: its partitions issue by its own "
                 "scheduler; set core = simt, or the mechanism off",
                 c->dws ? "dynamic warp subdivision (dws = on)" : c->dom ? "diverge on miss (dom = on)"
                 : c->lwm ? "large warps (lwm = on)" : "scheduler = swf or twolevel");
        return -1;
    }
    if (c->reconv == CFG_RECONV_JOIN && (c->dws || c->dom || c->lwm)) {
        snprintf(err, errlen, "reconv: JOIN re-convergence with %s is not modelled (their mechanisms work on the "
                 "re-convergence stack): set reconv = stack, or the mechanism off",
                 c->dws ? "dynamic warp subdivision (dws = on)" : c->dom ? "diverge on miss (dom = on)"
                                                                : "large warps (lwm = on)");
        return -1;
    }
    if (c->dom && c->dws) {
        snprintf(err, errlen, "dom: diverge on miss masks threads off a warp's one SIMD group; with dws = on a warp "
                 "is several groups (not modelled together): choose dom = on or dws = on");
        return -1;
    }
    if (c->dom && (c->warps > 32 || c->warps * c->dom_entries > 64)) {
        snprintf(err, errlen, "dom_entries: %llu warps x %llu entries; the memory divergence table holds at most 64 "
                 "entries for at most 32 warps", (unsigned long long)c->warps, (unsigned long long)c->dom_entries);
        return -1;
    }
    if (c->dom && c->dom_slip != CFG_DOM_SLIP_NONE && c->dom_max_slip && c->warp_size > 32) {
        snprintf(err, errlen, "dom_slip: the slip controller holds 8-bit counters for at most 32 threads a warp; "
                 "warp_size is %llu: use dom_slip = none", (unsigned long long)c->warp_size);
        return -1;
    }
    if (c->dom && c->dom_mcb > c->warps * c->dom_entries) {
        snprintf(err, errlen, "dom_mcb: %llu MCB entries; at most one per MDT entry (warps x dom_entries = %llu)",
                 (unsigned long long)c->dom_mcb, (unsigned long long)(c->warps * c->dom_entries));
        return -1;
    }
    if (c->private_mem && c->memory == CFG_MEMORY_FIXED) {
        snprintf(err, errlen, "private_mem: a private memory beside the caches needs memory = coherent, bulksync or private "
                 "(memory = fixed has no caches to bypass)");
        return -1;
    }
    if (c->dom && c->scheduler == CFG_SCHEDULER_TWOLEVEL) {
        snprintf(err, errlen, "dom: diverge on miss with scheduler = twolevel is not modelled together (002's core "
                 "is round-robin): choose dom = on or scheduler = twolevel");
        return -1;
    }
    uint64_t contexts = c->wpus * c->warps * c->warp_size;
    if (c->threads == 0) c->threads = contexts;
    /* every stack must fit above the null guard page */
    if (c->threads * c->stack_size > c->stack_top - 0x1000) {
        snprintf(err, errlen,
                 "threads x stack_size = %llu x %llu bytes does not fit below stack_top 0x%llx; "
                 "lower threads or stack_size",
                 (unsigned long long)c->threads, (unsigned long long)c->stack_size,
                 (unsigned long long)c->stack_top);
        return -1;
    }
    return 0;
}

/* The widest mask a configuration that passed wsim_config_check needs
 * (core.h; the machine's own check). The slip controller packs a warp's
 * 8-bit counters into one mask (mech/dom.c). */
int config_mask_bits(const wsim_config_t *c)
{
    uint64_t bits = c->warp_size > c->lanes ? c->warp_size : c->lanes;
    if (c->dom && c->dom_slip != CFG_DOM_SLIP_NONE && c->dom_max_slip && 8 * c->warp_size > bits)
        bits = 8 * c->warp_size;
    return (int)bits;
}

/* The same of any configuration (wsim.h). */
int wsim_config_mask_bits(const wsim_config_t *cfg)
{
    wsim_config_t c = *cfg;
    char err[512];
    return wsim_config_check(&c, err, sizeof err) < 0 ? 0 : config_mask_bits(&c);
}

void wsim_config_help(FILE *out)
{
    for (size_t i = 0; i < NALIASES; i++)
        fprintf(out, "  %-19s %s (sets %s)\n", cfg_aliases[i].name, cfg_aliases[i].help, cfg_aliases[i].keys);
    for (size_t i = 0; i < NKEYS; i++) {
        const cfg_key_t *k = &cfg_keys[i];
        if (k->is_enum) {
            char d[64];
            choice(k->choices, (int)k->def, d, sizeof d);
            fprintf(out, "  %-19s %s (one of %s; default %s)\n", k->name, k->help, k->choices, d);
        } else {
            fprintf(out, "  %-19s %s (%llu..%llu; default %llu)\n", k->name, k->help,
                    (unsigned long long)k->lo, (unsigned long long)k->hi, (unsigned long long)k->def);
        }
    }
}

void wsim_config_print(const wsim_config_t *c, FILE *out, int json)
{
    for (size_t i = 0; i < NKEYS; i++) {
        const cfg_key_t *k = &cfg_keys[i];
        const char *base = (const char *)c + k->offset;
        const char *sep = json ? (i + 1 < NKEYS ? "," : "") : "";
        if (k->is_enum) {
            char v[64];
            choice(k->choices, *(const int *)base, v, sizeof v);
            if (json) fprintf(out, "    \"%s\": \"%s\"%s\n", k->name, v, sep);
            else fprintf(out, "%-19s = %-12s # %s\n", k->name, v, k->help);
        } else {
            unsigned long long v = *(const uint64_t *)base;
            if (json) fprintf(out, "    \"%s\": %llu%s\n", k->name, v, sep);
            else fprintf(out, "%-19s = %-12llu # %s\n", k->name, v, k->help);
        }
    }
}
