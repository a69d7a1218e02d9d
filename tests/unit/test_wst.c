/* Unit test of the warp-split table's C model (cmodel/blocks/wst.c) against
 * values worked out by hand from docs/blocks/wst.md. Prints one line per
 * failure; exit status 0 when all pass. */
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

static wmask_t m64(uint64_t v) { wmask_t m = wmask_none(); m.w[0] = v; return m; }

/* one clock: eval with idx/elig, then the operation */
static void step(wst_t *t, wst_in_t *in, wst_out_t *o)
{
    wst_eval(t, in, o);
    wst_clock(t, in, o);
}

static wst_in_t op(int idx) { wst_in_t in; memset(&in, 0, sizeof in); in.idx = (uint8_t)idx; in.op = 1; return in; }

int main(void)
{
    char err[256];
    wst_t t;
    wst_out_t o;
    wst_config_t bad = {1, 8, 1, 32, 16, 16};
    CHECK(wst_init(&t, &bad, err, sizeof err) < 0 && strstr(err, "entries must be 2..64"), "%s", err);
    wst_config_t bad2 = {4, 8, 5, 32, 16, 16};
    CHECK(wst_init(&t, &bad2, err, sizeof err) < 0 && strstr(err, "warps must be 1..entries"), "%s", err);

    wst_config_t c = {8, 8, 2, 32, 3, 6}; /* icnt saturates at 7, MFC fields at 63 */
    CHECK(wst_init(&t, &c, err, sizeof err) == 0, "%s", err);
    wst_in_t in = op(0);
    in.op = 0;
    wst_eval(&t, &in, &o);
    CHECK(o.nfree == 8 && o.free_idx == 0 && o.free2_idx == 1 && o.lag_vec == 0 && !o.latspec, "reset outputs");

    /* launch: warp 0 root in entry 0, warp 1 root in entry 1 */
    in = op(0), in.set = 1, in.warp = 0, in.pc = 0x100, in.mask = m64(0xff), in.lat = 100;
    step(&t, &in, &o);
    in = op(1), in.set = 1, in.warp = 1, in.pc = 0x200, in.mask = m64(0x0f), in.lat = 1000; /* saturates to 63 */
    step(&t, &in, &o);
    CHECK(t.q.e[0].valid && t.q.e[0].lat == 63 && t.q.e[1].lat == 63 && t.q.e[0].icnt == 0, "launch lat %u",
          t.q.e[0].lat);
    in = op(0), in.op = 0;
    wst_eval(&t, &in, &o);
    CHECK(o.nfree == 6 && o.free_idx == 2 && o.free2_idx == 3, "nfree %d free %d/%d", o.nfree, o.free_idx, o.free2_idx);

    /* entry 0 issues and splits: keeps 0x0f at 0x104, the child 0xf0 at 0x140 goes to entry 2 */
    in = op(0), in.pc = 0x104, in.mask = m64(0x0f), in.issue = 1, in.spawn = 1, in.pc_b = 0x140,
    in.mask_b = m64(0xf0), in.st_b = WST_ST_MEM, in.miss = 1, in.lat = 40;
    step(&t, &in, &o);
    CHECK(t.q.e[2].valid && t.q.e[2].warp == 0 && t.q.e[2].pc == 0x140 && t.q.e[2].mask.w[0] == 0xf0 &&
          t.q.e[2].st == WST_ST_MEM && t.q.e[2].icnt == 1 && t.q.e[2].mfc == 1 && t.q.e[2].lat == 40,
          "child icnt %u mfc %u lat %u", t.q.e[2].icnt, t.q.e[2].mfc, t.q.e[2].lat);
    CHECK(t.q.e[0].pc == 0x104 && t.q.e[0].mask.w[0] == 0x0f && t.q.e[0].icnt == 1, "parent");

    /* lag: warp 0 has entries 0 and 2, both icnt 1: the lower index */
    in = op(0), in.op = 0;
    wst_eval(&t, &in, &o);
    CHECK(o.lag_vec == 0x1, "lag_vec %llx", (unsigned long long)o.lag_vec);
    in = op(0), in.pc = 0x108, in.mask = m64(0x0f), in.issue = 1; /* entry 0: icnt 2, mfc 2 */
    step(&t, &in, &o);
    in = op(0), in.op = 0;
    wst_eval(&t, &in, &o);
    CHECK(o.lag_vec == 0x4, "lag_vec %llx after entry 0 ran ahead", (unsigned long long)o.lag_vec);

    /* PC-based merge: entry 2 reaches 0x108; entry 1 (warp 1) is at 0x200 */
    in = op(2), in.pc = 0x108, in.mask = m64(0xf0), in.issue = 1, in.resume = 1; /* resume: sum += mfc 1 */
    step(&t, &in, &o);
    CHECK(t.q.sum_rmfc == 0 && t.q.e[2].rmfc == 0 && t.q.e[2].mfc == 1,
          "resume: sum %u (1 added, 1 taken by the issue) rmfc %u mfc %u", t.q.sum_rmfc, t.q.e[2].rmfc, t.q.e[2].mfc);
    in = op(0), in.elig = 0x6, in.mpc = 0x108, in.op = 0;
    wst_eval(&t, &in, &o);
    CHECK(o.merge_vec == 0x4 && o.merge_mask.w[0] == 0xff, "merge_vec %llx mask %llx", (unsigned long long)o.merge_vec,
          (unsigned long long)o.merge_mask.w[0]);
    in = op(0), in.elig = 0x6, in.mpc = 0x10c, in.op = 0; /* not at that pc */
    wst_eval(&t, &in, &o);
    CHECK(o.merge_vec == 0, "merge at another pc: %llx", (unsigned long long)o.merge_vec);
    in = op(0), in.elig = 0x2, in.mpc = 0x108; /* entry 2 not eligible: no merge */
    in.op = 0;
    wst_eval(&t, &in, &o);
    CHECK(o.merge_vec == 0 && o.merge_mask.w[0] == 0x0f, "ineligible merge_vec %llx", (unsigned long long)o.merge_vec);
    in = op(0), in.elig = 0x6, in.mpc = 0x108, in.merge = 1, in.pc = 0x10c, in.mask = m64(0xff), in.issue = 1;
    step(&t, &in, &o);
    CHECK(!t.q.e[2].valid && t.q.e[0].mask.w[0] == 0xff && t.q.e[0].icnt == 3, "after merge");

    /* saturation: icnt stops at 7 */
    for (int i = 0; i < 10; i++) {
        in = op(0), in.pc = 0x110, in.mask = m64(0xff), in.issue = 1;
        step(&t, &in, &o);
    }
    CHECK(t.q.e[0].icnt == 7 && t.q.e[0].mfc == 13, "icnt %u mfc %u", t.q.e[0].icnt, t.q.e[0].mfc);

    /* latspec: sum 0 + mfc 13 < lat 40 (entry 0's lat from its miss) */
    in = op(0), in.op = 0;
    wst_eval(&t, &in, &o);
    CHECK(o.latspec == 1, "latspec with mfc 13 < lat 40");
    /* resume of entry 0 adds its mfc (13) to sum, then -1: 12; rmfc 12 */
    in = op(0), in.pc = 0x114, in.mask = m64(0xff), in.issue = 1, in.resume = 1;
    step(&t, &in, &o);
    CHECK(t.q.sum_rmfc == 12 && t.q.e[0].rmfc == 12 && t.q.e[0].mfc == 1, "sum %u rmfc %u mfc %u", t.q.sum_rmfc,
          t.q.e[0].rmfc, t.q.e[0].mfc);
    in = op(0), in.op = 0;
    wst_eval(&t, &in, &o);
    CHECK(o.latspec == 1, "12 + 1 < 40");
    in = op(1), in.op = 0; /* entry 1: sum 12 + mfc 0 < lat 63 */
    wst_eval(&t, &in, &o);
    CHECK(o.latspec == 1, "entry 1");
    for (int i = 0; i < 30; i++) { /* entry 0 runs 30 more: mfc 31, sum 0 */
        in = op(0), in.pc = 0x118, in.mask = m64(0xff), in.issue = 1;
        step(&t, &in, &o);
    }
    in = op(0), in.op = 0;
    wst_eval(&t, &in, &o);
    CHECK(t.q.sum_rmfc == 0 && t.q.e[0].mfc == 31 && o.latspec == 1, "sum %u mfc %u", t.q.sum_rmfc, t.q.e[0].mfc);
    for (int i = 0; i < 9; i++) {
        in = op(0), in.pc = 0x118, in.mask = m64(0xff), in.issue = 1;
        step(&t, &in, &o);
    }
    in = op(0), in.op = 0;
    wst_eval(&t, &in, &o);
    CHECK(t.q.e[0].mfc == 40 && o.latspec == 0, "mfc 40 is not below lat 40");

    /* fill the table: spawning from entry 0 six times, the seventh is ignored */
    for (int i = 0; i < 7; i++) {
        in = op(0), in.pc = 0x11c, in.mask = m64(0x01), in.issue = 1, in.spawn = 1, in.pc_b = 0x300 + 4u * (unsigned)i,
        in.mask_b = m64(0x02);
        step(&t, &in, &o);
    }
    in = op(0), in.op = 0;
    wst_eval(&t, &in, &o);
    CHECK(o.nfree == 0 && o.free_idx == 0 && t.q.e[7].pc == 0x314, "full: nfree %d e7 pc %x", o.nfree, t.q.e[7].pc);
    /* free entry 5 */
    in = op(5), in.free = 1, in.pc = 0x999;
    step(&t, &in, &o);
    in = op(0), in.op = 0;
    wst_eval(&t, &in, &o);
    CHECK(o.nfree == 1 && o.free_idx == 5 && o.free2_idx == 0 && !t.q.e[5].valid && t.q.e[5].pc == 0, "after free");
    /* an op with op = 0 changes nothing */
    wst_state_t before = t.q;
    in = op(3), in.op = 0, in.free = 1, in.issue = 1;
    step(&t, &in, &o);
    CHECK(!memcmp(&before, &t.q, sizeof before), "op = 0 changed the state");

    /* an index past a 6-entry table reads as invalid and is not written; a
     * spawn from it still takes the lowest free entry */
    wst_config_t c6 = {6, 8, 2, 32, 16, 16};
    CHECK(wst_init(&t, &c6, err, sizeof err) == 0, "%s", err);
    in = op(7), in.set = 1, in.warp = 1, in.pc = 0x40, in.mask = m64(0x3), in.spawn = 1, in.pc_b = 0x44, in.mask_b = m64(0xc);
    step(&t, &in, &o);
    CHECK(!t.q.e[7].valid && t.q.e[0].valid && t.q.e[0].pc == 0x44 && t.q.e[0].warp == 1, "past the table: e7 valid %d, e0 pc %x",
          t.q.e[7].valid, t.q.e[0].pc);
    in = op(7), in.op = 0, in.elig = 1, in.mpc = 0x44;
    wst_eval(&t, &in, &o);
    CHECK(o.merge_vec == 0 && o.nfree == 5 && !o.latspec, "past the table: merge_vec %llx nfree %d",
          (unsigned long long)o.merge_vec, o.nfree);

    printf("test_wst: %d checks, %d failed\n", checks, fails);
    return fails != 0;
}
