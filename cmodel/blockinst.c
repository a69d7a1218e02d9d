/* A machine's block instances (docs/architecture.md, blocks/block.h): each
 * mechanism asks here for its blocks when the machine is created, and gets
 * the C model, or what the machine's block hook makes instead (build/wpusim-rtl:
 * a Verilated RTL block alone, or in lockstep with the C model;
 * sim/rtl_loop.cpp). The machine lists every instance, so that any block
 * is recorded through it (block_record: --record-block NAME=FILE). Apart
 * from machine.c so that the mechanisms, which the machine calls, do not
 * call back into it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

int block_new(struct wsim *s, block_inst_t *b, const block_ops_t *c_model, const void *cfg, int unit, char *err,
              size_t errlen)
{
    *b = (block_inst_t){.name = c_model->name, .cfg = cfg, .unit = unit};
    if (s->nblocks == s->capblocks) {
        int cap = s->capblocks ? 2 * s->capblocks : 16;
        block_inst_t **l = realloc(s->blocks, (size_t)cap * sizeof *l);
        if (!l) {
            snprintf(err, errlen, "%s: out of memory", c_model->name);
            return -1;
        }
        s->blocks = l, s->capblocks = cap;
    }
    if (s->block_hook.create && !s->block_err[0]) {
        b->blk = s->block_hook.create(s->block_hook.ctx, c_model, cfg, unit, &b->ops, s->block_err,
                                      sizeof s->block_err);
        if (!b->blk && !s->block_err[0])
            snprintf(s->block_err, sizeof s->block_err, "%s: a block could not be created", c_model->name);
    }
    if (!b->blk) {
        b->ops = c_model;
        if (!(b->blk = c_model->init(cfg, err, errlen))) return -1;
    }
    s->blocks[s->nblocks++] = b;
    return 0;
}

void block_free(block_inst_t *b)
{
    if (b->blk) b->ops->free(b->blk);
    b->blk = NULL;
}

int block_record(struct wsim *s, const char *name, FILE *out)
{
    int n = 0;
    for (int i = 0; i < s->nblocks; i++) {
        block_inst_t *b = s->blocks[i];
        if (strcmp(b->name, name)) continue;
        if (out && !n) block_trace_header(b->ops, b->cfg, out);
        if (out) b->rec = out;
        n++;
    }
    return n;
}
