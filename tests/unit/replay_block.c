/* replay_block: runs a port trace through a block's C model (any block,
 * through block_ops_t; the trace's first line names it) and checks the
 * outputs the trace or its .expect file gives.
 *
 *   replay_block TRACE [EXPECT]     check; exit 0 pass, 1 mismatch, 2 bad input
 *   replay_block --print TRACE      write the C model's outputs as an .expect
 *   replay_block --print-regs TRACE ... with every registered read port
 *
 * TRACE is a recorded trace (inputs | outputs per line: wpusim
 * --record-block, a testbench's +log) or a test's .in file (inputs only);
 * EXPECT a test's .expect (c= u= | outputs, optionally registered read
 * ports). Each unit's lines are applied from reset on consecutive clocks,
 * units in order of first appearance (docs/blocks/wst.md, Traces); a line's
 * outputs are checked after its eval, its registered ports too (they show
 * the state the previous lines left), then the clock edge. The same files
 * run on the RTL: tb/<block>_tb +replay=TRACE +expect=EXPECT. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocks/block.h"

static int usage(void)
{
    fprintf(stderr, "usage: replay_block TRACE [EXPECT]\n       replay_block --print|--print-regs TRACE\n");
    return 2;
}

int main(int argc, char **argv)
{
    int regs = argc > 1 && !strcmp(argv[1], "--print-regs");
    int print = regs || (argc > 1 && !strcmp(argv[1], "--print"));
    if (argc - print < 2 || argc - print > 3 || (print && argc != 3)) return usage();
    const char *path = argv[1 + print], *xpath = argc - print == 3 ? argv[2 + print] : NULL;
    char err[512];
    block_trace_t t, x;
    if (block_trace_read(path, &t, err, sizeof err) < 0) {
        fprintf(stderr, "replay_block: %s\n", err);
        return 2;
    }
    if (xpath) {
        int r = block_trace_read(xpath, &x, err, sizeof err);
        if (r == 0) {
            r = block_trace_expect(&t, &x, xpath, err, sizeof err);
            block_trace_free(&x);
        }
        if (r < 0) {
            fprintf(stderr, "replay_block: %s\n", err);
            block_trace_free(&t);
            return 2;
        }
    }
    const block_ops_t *b = t.ops;
    void *blk = b->init(t.cfg, err, sizeof err);
    if (!blk) {
        fprintf(stderr, "replay_block: %s: %s\n", path, err);
        block_trace_free(&t);
        return 2;
    }
    void *out = calloc(1, b->out_size);
    /* --print: the outputs in file order (and the registered images) */
    unsigned char *got = print ? calloc(t.n ? t.n : 1, b->out_size) : NULL;
    unsigned char *img = regs ? calloc(t.n ? t.n : 1, b->state_size) : NULL;
    /* units in order of first appearance, each from reset */
    size_t nunits = 0, checked = 0, *order = block_trace_order(&t, &nunits);
    int rc = 0;
    if (!order || !out || (print && !got) || (regs && !img)) {
        fprintf(stderr, "replay_block: %s: out of memory\n", path);
        rc = 2;
    }
    for (size_t k = 0; k < t.n && !rc; k++) {
        size_t i = order[k];
        const block_row_t *row = &t.row[i];
        if (k == 0 || row->unit != t.row[order[k - 1]].unit) b->reset(blk);
        if (!row->has_in) {
            fprintf(stderr, "replay_block: %s:%ld: no inputs on this line\n", path, row->lineno);
            rc = 2;
            break;
        }
        const void *in = block_trace_in(&t, i);
        b->eval(blk, in, out);
        block_mismatch_t mm;
        int bad = row->has_out && block_compare(b, t.cfg, block_trace_out(&t, i), out, BLOCK_CMP_COMB, &mm);
        if (!bad && t.chk[i]) bad = block_check_regs(b, t.cfg, t.chk[i], b->regs(out), &mm);
        if (bad) {
            fprintf(stderr, "replay_block: %s:%ld: c=%llx u=%x: port %s\n  expected %s\n  actual   %s\n",
                    xpath ? xpath : path, row->out_lineno, (unsigned long long)row->cycle, row->unit, mm.name,
                    mm.exp, mm.act);
            rc = 1;
            break;
        }
        checked += row->has_out;
        if (print) memcpy(got + i * b->out_size, out, b->out_size);
        if (regs) memcpy(img + i * b->state_size, b->regs(out), b->state_size);
        b->clock(blk, in, out);
    }
    free(order);
    if (!rc && print) {
        block_trace_header(b, t.cfg, stdout);
        for (size_t i = 0; i < t.n; i++)
            block_trace_line(b, t.cfg, t.row[i].cycle, t.row[i].unit, NULL, got + i * b->out_size,
                             regs ? img + i * b->state_size : NULL, stdout);
    }
    free(got);
    free(img);
    if (!rc && !print)
        printf("replay_block: %zu clocks of %zu unit(s) from %s, %zu with outputs checked: all match\n", t.n, nunits,
               path, checked);
    free(out);
    b->free(blk);
    block_trace_free(&t);
    return rc;
}
