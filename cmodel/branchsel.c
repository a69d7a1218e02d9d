/* Which branches DWS may split on, chosen per kernel (issue 11 item 5,
 * docs/dws.md "Choosing the split branches"): a list that wpusim
 * --split-list FILE reads (dws_branch = list), and the per-branch profile
 * that --branch-profile FILE writes, from which scripts/splitsel.py makes
 * such a list.
 *
 * List format, one entry a line, '#' starts a comment:
 *   SYMBOL+OFFSET [MNEMONIC]   e.g. kernel_main+0x160 bne
 *   SYMBOL [MNEMONIC]          the same with offset 0 (a label in assembly)
 *   0xADDRESS [MNEMONIC]       e.g. 0x000101a0
 * Each must name a conditional branch; the optional mnemonic must match the
 * instruction there, so that a list made for another build of the kernel is
 * refused instead of marking the wrong branch. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "infile.h"

static int resolve(const program_t *p, const char *tok, uint32_t *pc, char *err, size_t errlen)
{
    char *end;
    const char *plus = strchr(tok, '+');
    if (!plus && !strncmp(tok, "0x", 2)) {
        errno = 0;
        unsigned long v = strtoul(tok, &end, 16);
        if (*end || errno || v > 0xffffffffu) {
            snprintf(err, errlen, "'%s' is not an address", tok);
            return -1;
        }
        *pc = (uint32_t)v;
        return 0;
    }
    char name[256];
    size_t n = plus ? (size_t)(plus - tok) : strlen(tok); /* SYMBOL alone: SYMBOL+0 */
    if (n == 0 || n >= sizeof name) {
        snprintf(err, errlen, "'%s': expected SYMBOL+OFFSET", tok);
        return -1;
    }
    memcpy(name, tok, n);
    name[n] = 0;
    const prog_symbol_t *sy = program_symbol_named(p, name);
    if (!sy) {
        snprintf(err, errlen, "no symbol '%s' in %s", name, p->path);
        return -1;
    }
    if (!plus) {
        *pc = sy->addr;
        return 0;
    }
    errno = 0;
    unsigned long off = strtoul(plus + 1, &end, 0);
    if (*end || errno || plus[1] == 0 || off > 0xffffffffu - sy->addr) {
        snprintf(err, errlen, "'%s': '%s' is not an offset", tok, plus + 1);
        return -1;
    }
    *pc = sy->addr + (uint32_t)off;
    return 0;
}

#define SPLIT_LIST_MAX (16u << 20) /* a list is a line per branch: 16 MiB is ~500,000 of them */

int wsim_split_list(wsim_t *s, const char *path, char *err, size_t errlen)
{
    program_t *p = s->prog;
    char why[256], e[300];
    size_t len = 0;
    char *text = infile_read(path, SPLIT_LIST_MAX, &len, why, sizeof why); /* (regular files only) */
    if (!text) {
        snprintf(err, errlen, "--split-list %s: %s; a split list is a text file, one branch a line", path, why);
        return -1;
    }
    int lineno = 0, marked = 0, rc = -1;
    for (char *line = text, *next; line < text + len; line = next) {
        lineno++;
        char *nl = memchr(line, '\n', (size_t)(text + len - line));
        next = nl ? nl + 1 : text + len;
        if (memchr(line, 0, (size_t)(next - line))) {
            snprintf(err, errlen, "--split-list %s:%d: NUL byte; a split list is text, one branch a line", path, lineno);
            goto out;
        }
        if (nl) *nl = 0;
        char *h = strchr(line, '#'); /* a comment, of any length */
        if (h) *h = 0;
        /* SYMBOL+OFFSET or 0xADDRESS, then optionally the mnemonic: nothing else */
        char *tok[2] = {NULL, NULL};
        int k = 0;
        for (char *q = line; *(q += strspn(q, " \t\r\v\f"));) {
            char *end = q + strcspn(q, " \t\r\v\f");
            if (*end) *end++ = 0;
            if (k == 2) {
                snprintf(err, errlen, "--split-list %s:%d: '%s' after '%s %s': a line names one branch, "
                         "SYMBOL+OFFSET or 0xADDRESS, optionally with its mnemonic", path, lineno, q, tok[0], tok[1]);
                goto out;
            }
            tok[k++] = q;
            q = end;
        }
        if (k == 0) continue;
        uint32_t pc;
        if (resolve(p, tok[0], &pc, e, sizeof e) < 0) {
            snprintf(err, errlen, "--split-list %s:%d: %s", path, lineno, e);
            goto out;
        }
        const isa_insn_t *d = program_insn(p, pc);
        if (!d || d->cls != ISA_CLASS_BRANCH) {
            snprintf(err, errlen, "--split-list %s:%d: %.200s (0x%08x) is %s, not a conditional branch; "
                     "was the list made for another build of %s? (wpusim --dump-cfg lists the branches)",
                     path, lineno, tok[0], pc, d ? isa_mnemonic(d->op) : "not code", p->path);
            goto out;
        }
        if (k == 2 && strcmp(tok[1], isa_mnemonic(d->op))) {
            snprintf(err, errlen, "--split-list %s:%d: %.200s (0x%08x) is %s, the list says %.60s: the list was made "
                     "for another build of %s; make it again (scripts/splitsel.py)",
                     path, lineno, tok[0], pc, isa_mnemonic(d->op), tok[1], p->path);
            goto out;
        }
        p->code[(pc - p->code_lo) >> 2].flags |= ISA_F_SPLIT;
        marked++;
    }
    rc = marked;
out:
    free(text);
    return rc;
}

/* ---- per-branch profile: [0] executions, [1] divergent ones, [2] the
 * smaller side's threads summed over them, [3] active threads summed ---- */

int wsim_branch_profile(wsim_t *s)
{
    size_t words = (size_t)((s->prog->code_hi - s->prog->code_lo) / 4);
    s->bprof = calloc(words ? words : 1, sizeof *s->bprof);
    return s->bprof ? 0 : -1;
}

void wsim_branch_profile_write(const wsim_t *s, FILE *out)
{
    const program_t *p = s->prog;
    size_t words = (size_t)((p->code_hi - p->code_lo) / 4);
    char a[128], b[128];
    fprintf(out, "# wpusim --branch-profile: one line per conditional branch that ran (docs/dws.md)\n"
                 "# pc where mnemonic execs divergent minority_threads active_threads ipdom distance loop short_pdom\n");
    for (size_t k = 0; k < words; k++) {
        const uint64_t *c = s->bprof[k];
        if (!c[0]) continue;
        const isa_insn_t *d = &p->code[k];
        uint32_t pc = p->code_lo + 4 * (uint32_t)k;
        program_describe_pc(p, pc, a, sizeof a);
        if (d->ipdom == ISA_RPC_EXIT) snprintf(b, sizeof b, "exit");
        else program_describe_pc(p, d->ipdom, b, sizeof b);
        long dist = d->ipdom == ISA_RPC_EXIT ? -1 : ((long)d->ipdom - (long)pc) / 4;
        fprintf(out, "0x%08x %s %s %llu %llu %llu %llu %s %ld %d %d\n", pc, a, isa_mnemonic(d->op),
                (unsigned long long)c[0], (unsigned long long)c[1], (unsigned long long)c[2],
                (unsigned long long)c[3], b, dist, !!(d->flags & ISA_F_LOOP), !!(d->flags & ISA_F_SHORT_PDOM));
    }
}
