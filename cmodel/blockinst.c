/* A machine's block instances (docs/architecture.md, blocks/block.h): each
 * mechanism asks here for its blocks when the machine is created, and gets
 * the C model, or what the machine's block hook makes instead (build/wpusim-rtl:
 * a Verilated RTL block alone, or in lockstep with the C model;
 * sim/rtl_loop.cpp). Apart from machine.c so that the mechanisms, which the
 * machine calls, do not call back into it. */
#include <stdio.h>

#include "core.h"

void *block_new(struct wsim *s, const block_ops_t *c_model, const void *cfg, int unit, const block_ops_t **ops,
                char *err, size_t errlen)
{
    if (s->block_hook.create && !s->block_err[0]) {
        void *b = s->block_hook.create(s->block_hook.ctx, c_model, cfg, unit, ops, s->block_err, sizeof s->block_err);
        if (b) return b;
        if (!s->block_err[0]) snprintf(s->block_err, sizeof s->block_err, "%s: a block could not be created", c_model->name);
    }
    *ops = c_model;
    return c_model->init(cfg, err, errlen);
}
