/* The crossbar; see xbar.h. */
#include "xbar.h"

int xbar_init(xbar_t *x, uint64_t latency, rate_t rate)
{
    x->latency = latency;
    return calendar_init(&x->data, rate);
}

void xbar_free(xbar_t *x) { calendar_free(&x->data); }
