/* What of the warp-split table's C model the port-trace data cannot hold:
 * the parameter checks of wst_init and of the generic init, and the read
 * ports' contract (out.q is the block's registered image, not a copy). The
 * table's behaviour worked by hand is data, run on the C model and the RTL:
 * the .in and .expect files of tests/blocks/wst/ (tests/unit/replay_block.c,
 * tb/wst_tb.cpp). Prints
 * one line per failure; exit status 0 when all pass. */
#include <stdio.h>
#include <string.h>

#include "blocks/wst.h"

static int fails, checks;
#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        checks++;                                                         \
        if (!(cond)) {                                                    \
            fails++;                                                      \
            printf("FAIL line %d: %s: ", __LINE__, #cond);                \
            printf(__VA_ARGS__);                                          \
            printf("\n");                                                 \
        }                                                                 \
    } while (0)

int main(void)
{
    char err[256];
    wst_t t;
    wst_config_t bad = {1, 8, 1, 32, 16, 16};
    CHECK(wst_init(&t, &bad, err, sizeof err) < 0 && strstr(err, "entries must be 2..64"), "%s", err);
    wst_config_t bad2 = {4, 8, 5, 32, 16, 16};
    CHECK(wst_init(&t, &bad2, err, sizeof err) < 0 && strstr(err, "warps must be 1..entries"), "%s", err);
    wst_config_t bad3 = {8, 8, 2, 1, 16, 16};
    CHECK(wst_init(&t, &bad3, err, sizeof err) < 0 && strstr(err, "pc_bits must be 2..32"), "%s", err);
    err[0] = 0;
    CHECK(wst_block_ops.init(&bad2, err, sizeof err) == NULL && strstr(err, "warps must be 1..entries"),
          "generic init: %s", err);

    /* The registered read ports are the registers themselves, through the
     * output: they change at the clock edge only. */
    wst_config_t c = {8, 8, 2, 32, 3, 6};
    CHECK(wst_init(&t, &c, err, sizeof err) == 0, "%s", err);
    wst_in_t in;
    wst_out_t o;
    memset(&in, 0, sizeof in);
    in.op = 1, in.set = 1, in.warp = 1, in.pc = 0x100, in.mask.w[0] = 0xff;
    wst_eval(&t, &in, &o);
    CHECK(o.q == &t.q, "out.q is not the block's registered image");
    CHECK(!o.q->e[0].valid, "entry 0 valid before the clock edge");
    wst_clock(&t, &in, &o);
    CHECK(o.q->e[0].valid && o.q->e[0].pc == 0x100 && o.q->e[0].warp == 1, "entry 0 after the edge");

    /* The port table's widths (docs/blocks/wst.md, derived parameters). */
    wst_config_t c12 = {12, 8, 3, 6, 4, 3};
    CHECK(wst_port_width(&c12, WST_P_idx) == 4 && wst_port_width(&c12, WST_P_warp) == 2 &&
              wst_port_width(&c12, WST_P_nfree) == 4 && wst_port_width(&c12, WST_P_ent_lat) == 3 &&
              wst_block_ops.entries(&c12) == 12,
          "widths of the 12-entry set");
    wst_config_t c2 = {2, 1, 1, 2, 1, 1};
    CHECK(wst_port_width(&c2, WST_P_idx) == 1 && wst_port_width(&c2, WST_P_warp) == 1 &&
              wst_port_width(&c2, WST_P_nfree) == 2,
          "widths of the smallest table");

    printf("test_wst: %d checks, %d failed\n", checks, fails);
    return fails != 0;
}
