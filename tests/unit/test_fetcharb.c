/* What of the fetch arbiter's C model the hand-worked port traces
 * (tests/blocks/fetcharb/) cannot hold: the parameter checks, and two
 * random-stimulus comparisons over many clocks:
 *   - one fetch group (GROUPS = 1) grants exactly what the group scheduler
 *     (blocks/sched.h, round-robin with the stay rule and retries) grants,
 *     for 1..64 and 256 slots: the claim that plain round-robin is a
 *     configuration of this block, which lets Conv and 2Lev32 agree cycle
 *     for cycle;
 *   - with several groups, a reference written from 004 §3.2-§3.3 in other
 *     terms (an explicit priority list of every slot; the switch target as
 *     the alive group nearest after the prioritized one) agrees on every
 *     output and on the next state.
 * Prints one line per failure; exit status 0 when all pass. */
#include <stdio.h>
#include <string.h>

#include "blocks/fetcharb.h"
#include "blocks/sched.h"

static int fails, checks;
#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        checks++;                                                         \
        if (!(cond)) {                                                    \
            fails++;                                                      \
            printf("FAIL line %d: %s: ", __LINE__, #cond);                \
            printf(__VA_ARGS__);                                          \
            printf("\n");                                                 \
            if (fails > 20) return;                                       \
        }                                                                 \
    } while (0)

static uint32_t lfsr = 0xACE1u;
static uint32_t rnd(void) /* xorshift32 */
{
    lfsr ^= lfsr << 13;
    lfsr ^= lfsr >> 17;
    lfsr ^= lfsr << 5;
    return lfsr;
}

static void params(void)
{
    char err[256];
    fetcharb_t t;
    fetcharb_config_t c[] = {{0, 4, 0}, {33, 1, 0}, {2, 0, 0}, {2, 129, 0}, {4, 8, -1}, {4, 8, 1048577}};
    const char *want[] = {"groups must be 1..32", "groups must be 1..32", "gsize must be 1..256",
                          "groups x gsize must be at most 256", "timeout must be 0..1048576",
                          "timeout must be 0..1048576"};
    for (int i = 0; i < 6; i++)
        CHECK(fetcharb_init(&t, &c[i], err, sizeof err) < 0 && strstr(err, want[i]), "case %d: %s", i, err);
    fetcharb_config_t ok = {32, 8, 1048576};
    CHECK(fetcharb_init(&t, &ok, err, sizeof err) == 0, "%s", err);
    CHECK(fetcharb_block_ops.init(&c[3], err, sizeof err) == NULL && strstr(err, "at most 256"), "generic: %s", err);
}

/* One fetch group against the group scheduler. */
static void one_group(int n)
{
    char err[256];
    fetcharb_t a;
    sched_t b;
    fetcharb_config_t fc = {1, n, 0};
    sched_config_t sc = {n, 0};
    CHECK(fetcharb_init(&a, &fc, err, sizeof err) == 0 && sched_init(&b, &sc, err, sizeof err) == 0, "%s", err);
    uint64_t ready_at[256];
    for (int clk = 0; clk < 20000; clk++) {
        fetcharb_in_t fi = {0};
        sched_in_t si = {.ready_at = ready_at, .now = 1};
        int density = (int)(rnd() % 4); /* sparse to dense */
        for (int k = 0; k < n; k++) {
            int r = (int)(rnd() % 4) < density;
            ready_at[k] = r ? 0 : 2;
            if (r) wmask_set(&fi.ready, k);
        }
        fetcharb_out_t fo;
        sched_out_t so;
        int last = -1;
        for (int tries = 0;; tries++) { /* a grant that does not issue is retried after it */
            fetcharb_eval(&a, &fi, &fo);
            si.retry = last >= 0;
            si.prev = (uint16_t)(last >= 0 ? last : 0);
            sched_eval(&b, &si, &so);
            CHECK(fo.grant == so.grant && (!so.grant || fo.grant_idx == so.grant_idx),
                  "n=%d clock %d try %d: fetcharb %d/%d, sched %d/%d", n, clk, tries, fo.grant, fo.grant_idx,
                  so.grant, so.grant_idx);
            if (!so.grant) break;
            last = so.grant_idx;
            if (rnd() % 4 || tries == 3) break; /* issued */
            ready_at[last] = 2;
            wmask_clear(&fi.ready, last);
        }
        fi.upd = si.upd = last >= 0;
        fi.last = si.last = (uint16_t)(last >= 0 ? last : 0);
        fi.issue = fi.upd;
        fi.stay_we = si.stay_we = (uint8_t)(rnd() & 1);
        fi.stay = si.stay = (uint8_t)(rnd() & 1);
        fetcharb_clock(&a, &fi, &fo);
        sched_clock(&b, &si);
    }
}

/* Several groups against a reference written from the paper's words. */
static void groups(int G, int S, int timeout)
{
    char err[256];
    fetcharb_t a;
    fetcharb_config_t fc = {G, S, timeout};
    CHECK(fetcharb_init(&a, &fc, err, sizeof err) == 0, "%s", err);
    /* the reference's state */
    int prio = 0, rr[32], lgrant = G * S - 1, lstay = 0;
    uint32_t cnt = 0, cmax = (1u << fetcharb_port_width(&fc, FETCHARB_P_cnt)) - 1;
    for (int g = 0; g < G; g++) rr[g] = S - 1;
    for (int clk = 0; clk < 20000; clk++) {
        fetcharb_in_t in = {0};
        int bias = (int)(rnd() % 8);
        for (int k = 0; k < G * S; k++) {
            int st = (int)(rnd() % 8) < bias;             /* stalled warps are never ready */
            if (st) wmask_set(&in.stall, k);
            else if (rnd() % 3 == 0) wmask_set(&in.ready, k);
        }
        fetcharb_out_t o;
        fetcharb_eval(&a, &in, &o);
        /* the grant: stay, else the first ready slot of the list of every
         * slot in priority order (groups from prio, members after rr) */
        int want = -1;
        if (lstay && wmask_test(&in.ready, lgrant)) want = lgrant;
        for (int i = 0; i < G * S && want < 0; i++) {
            int g = (prio + i / S) % G, m = (rr[g] + 1 + i % S) % S;
            if (wmask_test(&in.ready, g * S + m)) want = g * S + m;
        }
        CHECK(o.grant == (want >= 0) && (want < 0 || o.grant_idx == want), "G=%d S=%d clock %d: grant %d/%d, want %d",
              G, S, clk, o.grant, o.grant_idx, want);
        for (int i = 0; i < G; i++)
            CHECK(fetcharb_ord(&fc, &o, i) == (prio + i) % G, "clock %d: rank %d", clk, i);
        /* the switch: to the alive group nearest after prio */
        int alive[32], best = -1;
        for (int g = 0; g < G; g++) {
            alive[g] = 0;
            for (int m = 0; m < S; m++) alive[g] |= !wmask_test(&in.stall, g * S + m);
        }
        int need = !alive[prio] || (timeout > 0 && cnt >= (uint32_t)timeout);
        for (int d = G - 1; d >= 1; d--)
            if (alive[(prio + d) % G]) best = (prio + d) % G;
        int sw = need && best >= 0;
        CHECK(o.sw == sw && o.nprio == (sw ? best : prio) && o.tmo == (sw && alive[prio]),
              "G=%d S=%d clock %d: sw %d tmo %d nprio %d, want %d %d %d", G, S, clk, o.sw, o.tmo, o.nprio, sw,
              sw && alive[prio], sw ? best : prio);
        in.upd = want >= 0 && rnd() % 8;
        in.last = (uint16_t)(in.upd ? want : 0);
        in.issue = in.upd && rnd() % 4;
        in.stay_we = (uint8_t)(rnd() & 1);
        in.stay = (uint8_t)(rnd() & 1);
        fetcharb_clock(&a, &in, &o);
        /* the reference's next state */
        if (sw) prio = best, cnt = 0;
        else if (in.issue && cnt < cmax) cnt++;
        if (in.upd) lgrant = in.last, rr[in.last / S] = in.last % S;
        if (in.stay_we) lstay = in.stay;
        CHECK(a.q.prio == prio && a.q.cnt == cnt && a.q.lgrant == lgrant && a.q.lstay == lstay,
              "G=%d S=%d clock %d: state", G, S, clk);
    }
}

int main(void)
{
    params();
    for (int n = 1; n <= 64; n++) one_group(n);
    one_group(256);
    groups(2, 4, 0);
    groups(4, 8, 0);
    groups(4, 8, 5);
    groups(4, 1, 3);
    groups(32, 1, 0);
    groups(3, 5, 2);
    groups(32, 8, 100);
    printf("test_fetcharb: %d checks, %d failed\n", checks, fails);
    return fails != 0;
}
