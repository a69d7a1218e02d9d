/* Harness: a short run of mutated code, under Conv and under a DWS legend.
 *
 * Input: byte 0 picks a seed kernel (fuzz_seeds, built kernels embedded at
 * build time), byte 1 the machine (bits 0-1 memory: fixed, coherent,
 * bulksync, coherent with 2-cycle DRAM; bit 2 width 4 or 8; bit 3
 * dws_reconv stack or pc), then 6-byte patches: a little-endian 16-bit word
 * index into the kernel's executable segment (modulo its length) and the
 * 32-bit instruction word written there. The patched kernel runs for at most
 * MAX_CYCLES cycles with --check, once under Conv and once under DWS
 * (dws=on, dws_mem=revive, dws_branch=heuristic). Refused programs, faults,
 * deadlocks and max_cycles are fine; a crash, a sanitizer report or a
 * --check failure is a finding. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "wsim.h"

#define MAX_CYCLES "3000"
#define MAX_PATCHES 64

typedef struct fuzz_seed {
    const char *name;
    const uint8_t *data;
    size_t size;
} fuzz_seed_t;
extern const fuzz_seed_t fuzz_seeds[]; /* generated: fuzz/embed.sh; ends with {NULL} */

static int nseeds;
static wsim_config_t cfgs[16][2]; /* [machine byte & 15][0 Conv, 1 DWS] */
static FILE *devnull;

static void set(wsim_config_t *c, const char *a)
{
    char err[512];
    if (wsim_config_assign(c, a, err, sizeof err) < 0) fuzz_fail("config %s: %s", a, err);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    static const char *const base[] = {
        "wpus=1", "warps=2", "arg=1", ("max_cycles=" MAX_CYCLES), "watchdog=2000", "fault_report_limit=0",
        "check=1", "l1i_size=512", "l1i_line=32", "l1i_ways=2",
        "l1d_size=1024", "l1d_ways=2", "l1d_line=32", "l1d_mshrs=4", "l1d_mshr_reqs=4",
        "l2_size=4096", "l2_ways=4", "l2_line=32", "l2_mshrs=8", "l2_mshr_reqs=8", "l2_banks=2",
        "dram_latency=20", "mem_latency=20",
    };
    static const char *const memory[4][2] = {
        {"memory=fixed", "mem_latency=20"}, {"memory=coherent", "dram_latency=20"},
        {"memory=bulksync", "dram_latency=20"}, {"memory=coherent", "dram_latency=2"},
    };
    static const char *const dws[] = {"dws=on", "dws_mem=revive", "dws_branch=heuristic"};
    char err[512];
    for (int m = 0; m < 16; m++)
        for (int d = 0; d < 2; d++) {
            wsim_config_t *c = &cfgs[m][d];
            wsim_config_defaults(c);
            for (size_t i = 0; i < sizeof base / sizeof *base; i++) set(c, base[i]);
            set(c, memory[m & 3][0]), set(c, memory[m & 3][1]);
            set(c, m & 4 ? "width=8" : "width=4");
            set(c, m & 4 ? "threads=16" : "threads=8");
            if (d) {
                for (size_t i = 0; i < sizeof dws / sizeof *dws; i++) set(c, dws[i]);
                set(c, m & 8 ? "dws_reconv=stack" : "dws_reconv=pc");
            }
            if (wsim_config_check(c, err, sizeof err) < 0) fuzz_fail("machine %d/%d: %s", m, d, err);
        }
    while (fuzz_seeds[nseeds].name) nseeds++;
    if (!nseeds) fuzz_fail("no seed kernels embedded");
    devnull = fopen("/dev/null", "w");
    if (!devnull) fuzz_fail("cannot open /dev/null");
    fuzz_quiet_stdout();
    return 0;
}

/* The file range of the first executable PT_LOAD segment: the text. */
static int find_text(const uint8_t *elf, size_t size, size_t *off, size_t *len)
{
    Elf32_Ehdr eh;
    if (size < sizeof eh) return -1;
    memcpy(&eh, elf, sizeof eh);
    for (unsigned i = 0; i < eh.e_phnum; i++) {
        Elf32_Phdr ph;
        size_t at = eh.e_phoff + (size_t)i * sizeof ph;
        if (at + sizeof ph > size) return -1;
        memcpy(&ph, elf + at, sizeof ph);
        if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X) && ph.p_offset + ph.p_filesz <= size && ph.p_filesz >= 4) {
            *off = ph.p_offset, *len = ph.p_filesz / 4;
            return 0;
        }
    }
    return -1;
}

static void run(const wsim_config_t *c, const char *path, const char *seed, const char *legend)
{
    char err[1024];
    wsim_t *s = wsim_create(c, path, err, sizeof err);
    if (!s) return; /* e.g. an indirect jump the control-flow analysis cannot bound */
    wsim_status_t st = wsim_run(s);
    if (st == WSIM_CHECK_FAILED) fuzz_fail("--check failed under %s on mutated %s (message above)", legend, seed);
    wsim_print_stats(s, devnull, 1);
    wsim_print_failures(s, devnull);
    wsim_destroy(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    const fuzz_seed_t *seed = &fuzz_seeds[data[0] % nseeds];
    int m = data[1] & 15;
    size_t off, nwords;
    if (find_text(seed->data, seed->size, &off, &nwords) < 0) fuzz_fail("seed %s has no text segment", seed->name);
    uint8_t *elf = malloc(seed->size);
    if (!elf) return 0;
    memcpy(elf, seed->data, seed->size);
    const uint8_t *p = data + 2;
    for (int n = 0; n < MAX_PATCHES && p + 6 <= data + size; n++, p += 6) {
        size_t word = (size_t)(p[0] | p[1] << 8) % nwords;
        memcpy(elf + off + 4 * word, p + 2, 4); /* little-endian, as the input */
    }
    const char *path = fuzz_file(elf, seed->size);
    free(elf);
    run(&cfgs[m][0], path, seed->name, "Conv");
    run(&cfgs[m][1], path, seed->name, "DWS (revive, heuristic)");
    return 0;
}
