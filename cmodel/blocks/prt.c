/* Partitioned register table: evaluate and clock steps (see prt.h,
 * docs/blocks/prt.md), and the block interface around them (block.h),
 * from the port table prt.def. */
#include "prt.h"

#include <stdlib.h>

/* ---- the port table ---- */

int prt_port_width(const prt_config_t *c, int port)
{
#define CLOG2(x) block_clog2(x)
#define MAX(a, b) block_max(a, b)
#define BLOCK_PARAM(NAME, member, doc) const int NAME = c->member; (void)NAME;
#define BLOCK_DERIVED(NAME, expr) const int NAME = (expr); (void)NAME;
#include "prt.def"
    switch (port) {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) case PRT_P_##name: return (width);
#define BLOCK_FIELD(field, ctype, width, doc) case PRT_P_ent_##field: return (width);
#include "prt.def"
    default: return 0;
    }
}

static int entries_of(const prt_config_t *c)
{
#define BLOCK_PARAM(NAME, member, doc) const int NAME = c->member; (void)NAME;
#define BLOCK_DERIVED(NAME, expr) const int NAME = (expr); (void)NAME;
#define BLOCK_ENTRIES(expr) return (expr);
#include "prt.def"
#undef CLOG2
#undef MAX
}

#define PRT_OFFSET_CLOCK(name) 0
#define PRT_OFFSET_RESET(name) 0
#define PRT_OFFSET_EARLY(name) offsetof(prt_in_t, name)
#define PRT_OFFSET_LATE(name) offsetof(prt_in_t, name)
#define PRT_OFFSET_COMB(name) offsetof(prt_out_t, name)
#define PRT_OFFSET_REG(name) offsetof(prt_state_t, name)

static const block_port_t prt_ports[PRT_NPORTS] = {
#define BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) \
    {#name, BLOCK_##dir, BLOCK_##timing, BLOCK_CTYPE(ctype), PRT_OFFSET_##timing(name), digits, doc},
#define BLOCK_FIELD(field, ctype, width, doc) \
    {"ent_" #field, BLOCK_OUT, BLOCK_ENTRY, BLOCK_CTYPE(ctype), offsetof(prt_entry_t, field), 0, doc},
#include "prt.def"
};

static const block_param_t prt_params[] = {
#define BLOCK_PARAM(NAME, member, doc) {#NAME, #member, offsetof(prt_config_t, member), doc},
#include "prt.def"
};

/* ---- the block ---- */

int prt_init(prt_t *t, const prt_config_t *c, char *err, size_t errlen)
{
    const char *bad = NULL;
    if (c->parts < 1 || c->parts > PRT_MAX_PARTS) bad = "parts must be 1..32";
    else if (c->regs < 1 || c->regs > PRT_MAX_REGS) bad = "regs must be 1..64";
    else if (c->phys < c->regs || c->phys > PRT_MAX_PHYS) bad = "phys must be regs..2048";
    else if (c->vl_w < 1 || c->vl_w > 16) bad = "vl_w must be 1..16";
    else if (c->ports < 1 || c->ports > PRT_MAX_PORTS) bad = "ports must be 1..32";
    else if (prt_port_width(c, PRT_P_ren_phys) > WSIM_MAX_LANES || prt_port_width(c, PRT_P_ren_reg) > WSIM_MAX_LANES ||
             prt_port_width(c, PRT_P_ren_part) > WSIM_MAX_LANES)
        bad = "ports x field bits exceed this build's widest port (its lane masks)";
    if (bad) {
        snprintf(err, errlen, "partitioned register table: %s (parts=%d regs=%d phys=%d vl_w=%d ports=%d)", bad,
                 c->parts, c->regs, c->phys, c->vl_w, c->ports);
        return -1;
    }
    t->cfg = *c;
    t->part_w = prt_port_width(c, PRT_P_alloc_part);
    t->reg_w = block_max(1, block_clog2(c->regs));
    t->phys_w = prt_port_width(c, PRT_P_alloc_base);
    t->blocks = c->phys / c->regs;
    prt_reset(t);
    return 0;
}

void prt_reset(prt_t *t) { t->q = (prt_state_t){0}; }

/* The lowest register block no valid slot holds, or -1. */
static int free_block(const prt_t *t)
{
    for (int b = 0; b < t->blocks; b++) {
        int used = 0;
        for (int p = 0; p < t->cfg.parts; p++)
            if (t->q.e[p].valid && t->q.e[p].base == b * t->cfg.regs) used = 1;
        if (!used) return b;
    }
    return -1;
}

void prt_eval(const prt_t *t, const prt_in_t *in, prt_out_t *out)
{
    const prt_state_t *q = &t->q;
    out->ren_ok = 0;
    out->ren_phys = wmask_none();
    for (int p = 0; p < t->cfg.ports; p++) {
        if (!((in->ren_v >> p) & 1)) continue;
        uint32_t part = prt_field(&in->ren_part, p, t->part_w), reg = prt_field(&in->ren_reg, p, t->reg_w);
        if (part >= (uint32_t)t->cfg.parts || !q->e[part].valid || reg >= (uint32_t)t->cfg.regs) continue;
        out->ren_ok |= 1u << p;
        prt_set_field(&out->ren_phys, p, t->phys_w, q->e[part].base + reg);
    }
    const int b = free_block(t);
    out->alloc_ok = in->alloc_part < t->cfg.parts && !q->e[in->alloc_part].valid && b >= 0;
    out->alloc_base = (uint16_t)(b >= 0 ? b * t->cfg.regs : 0);
    out->q = q;
}

void prt_clock(prt_t *t, const prt_in_t *in, const prt_out_t *out)
{
    prt_state_t *q = &t->q;
    /* next state: the end frees its slot; the launch takes the block eval found */
    int fr = in->free && in->free_part < t->cfg.parts ? in->free_part : -1;
    int al = in->alloc && out->alloc_ok ? in->alloc_part : -1;
    prt_entry_t nal = {1, out->alloc_base, (uint16_t)(in->alloc_vl & ((1u << t->cfg.vl_w) - 1))};
    /* commit */
    if (fr >= 0) q->e[fr] = (prt_entry_t){0, 0, 0};
    if (al >= 0) q->e[al] = nal;
}

/* ---- the generic interface ---- */

BLOCK_DEFINE_OPS(prt, "partitioned register table", "core = vector",
                 "without core = vector; choose --config vector",
                 PRT_NPORTS, entries_of, offsetof(prt_state_t, e),
                 sizeof(prt_entry_t));
