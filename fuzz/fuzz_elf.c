/* Harness: the ELF loader and the control-flow analysis.
 * The input is a whole ELF file. It is loaded into a one-thread machine
 * (wsim_create: headers, segments, placement, control-flow graph and
 * post-dominators, stacks against segments), its analysis is printed
 * (--dump-cfg, to /dev/null) and it runs for a few cycles. Any outcome
 * but a crash or a sanitizer report is fine: most inputs are refused. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "wsim.h"

static wsim_config_t cfg;
static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    char err[512];
    wsim_config_defaults(&cfg);
    /* a tiny machine: what is exercised is the program, not the machine */
    static const char *const tiny[] = {
        "wpus=1", "warps=1", "width=4", "threads=4", "memory=fixed", "mem_latency=2",
        "l1i_size=0", "max_cycles=200", "fault_report_limit=0", "watchdog=1000",
    };
    for (size_t i = 0; i < sizeof tiny / sizeof *tiny; i++)
        if (wsim_config_assign(&cfg, tiny[i], err, sizeof err) < 0) fuzz_fail("config %s: %s", tiny[i], err);
    if (wsim_config_check(&cfg, err, sizeof err) < 0) fuzz_fail("config: %s", err);
    devnull = fopen("/dev/null", "w");
    if (!devnull) fuzz_fail("cannot open /dev/null");
    fuzz_quiet_stdout();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    if (size > (1u << 20)) return 0; /* the loader's size checks are not what is fuzzed here */
    wsim_t *s = wsim_create(&cfg, fuzz_file(data, size), err, sizeof err);
    if (!s) return 0;
    wsim_dump_cfg(s, devnull);
    wsim_status_t st = wsim_run(s);
    if (st == WSIM_CHECK_FAILED) fuzz_fail("--check failed on a loaded program");
    wsim_print_stats(s, devnull, 1);
    wsim_destroy(s);
    return 0;
}
