/* rt_write.c — runtime self-test: the write ecall and the print helpers.
 *
 * Thread 0 prints one line to stdout and one to stderr; writes to fd 3 must return -1.
 * Other threads print nothing (their order would depend on scheduling).
 * stdout: "rt_write: tid 0 of N, seed 0x%08x, arg A\n"; stderr: "rt_write: stderr ok\n".
 */
#include "warpsplit.h"

static uint32_t status[2];
WSIM_RESULT(status);

int kernel_main(unsigned tid, unsigned nthreads) {
    int ok = 1;
    if (tid != 0)
        return 0;
    ok &= wsim_puts("rt_write: tid ") == 14;
    ok &= wsim_put_udec(1, tid) == 1;
    wsim_puts(" of ");
    wsim_put_udec(1, nthreads);
    wsim_puts(", seed ");
    ok &= wsim_put_hex(1, wsim_seed()) == 10;
    wsim_puts(", arg ");
    wsim_put_udec(1, wsim_arg());
    wsim_puts("\n");
    ok &= wsim_write(2, "rt_write: stderr ok\n", 20) == 20;
    ok &= wsim_write(3, "x", 1) == -1;
    status[0] = (uint32_t)ok;
    status[1] = 0x600du;
    return ok ? 0 : 1;
}
