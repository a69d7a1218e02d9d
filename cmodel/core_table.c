/* This build's machine functions as a table (wsim.h, wsim_core): what
 * wpusim drives, whichever mask width the build has; and wsim_reads_csr,
 * a look-up in csr.def and the program's code. */
#include <string.h>

#include "core.h"

const wsim_core_t wsim_core = {
    .max_lanes = WSIM_MAX_LANES,
    .create_with = wsim_create_with,
    .destroy = wsim_destroy,
    .set_trace = wsim_set_trace,
    .set_record = wsim_set_record,
    .run = wsim_run,
    .run_until = wsim_run_until,
    .request_stop = wsim_request_stop,
    .all_passed = wsim_all_passed,
    .print_failures = wsim_print_failures,
    .print_stats = wsim_print_stats,
    .has_results = wsim_has_results,
    .dump_results = wsim_dump_results,
    .dump_cfg = wsim_dump_cfg,
    .cycles = wsim_cycles,
    .split_list = wsim_split_list,
    .branch_profile = wsim_branch_profile,
    .branch_profile_write = wsim_branch_profile_write,
    .thread_insts = wsim_thread_insts,
    .set_timeline = wsim_set_timeline,
    .timeline_close = wsim_timeline_close,
    .set_warp_sizes = wsim_set_warp_sizes,
    .set_input = wsim_set_input,
    .prepare = wsim_prepare,
    .grid_threads = wsim_grid_threads,
    .reads_csr = wsim_reads_csr,
};

int wsim_reads_csr(const wsim_t *s, const char *name)
{
    for (uint32_t csr = 0; csr < 4096; csr++) {
        const char *n = isa_csr_name(csr);
        if (n && !strcmp(n, name)) return program_reads_csr(s->prog, csr);
    }
    return 0;
}
