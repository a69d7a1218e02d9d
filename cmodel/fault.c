/* Faulting threads: one line each on stderr (up to fault_report_limit),
 * with thread, WPU, warp, lane, PC and cycle. Called by the functional core;
 * calls nothing above it: taking the thread off its warp is the pipeline's. */
#include <stdarg.h>

#include "core.h"

int fault_report(struct wsim *s, const warp_t *w, int lane, uint32_t pc, const char *fmt, ...)
{
    uint32_t tid = w->meta[lane].tid;
    if (s->tstate[tid] == TS_FAULTED) return 0;
    s->tstate[tid] = TS_FAULTED;
    s->exit_code[tid] = -1;
    s->faults_total++;
    if (s->faults_reported < s->cfg.fault_report_limit) {
        char where[128], msg[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        program_describe_pc(s->prog, pc, where, sizeof where);
        fprintf(stderr, "wpusim: thread %u (WPU %d warp %d lane %d) fault at pc 0x%08x (%s), cycle %llu: %s\n",
                tid, w->wpu, w->slot, lane, pc, where, (unsigned long long)s->cycle, msg);
        if (++s->faults_reported == s->cfg.fault_report_limit)
            fprintf(stderr, "wpusim: further faults are counted, not shown (fault_report_limit)\n");
    }
    return 1;
}
