#include "mem.h"

#include <stdio.h>
#include <stdlib.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "wsim's memory model assumes a little-endian host, like RISC-V"
#endif

/* Out of host memory: the simulation cannot go on (exit status 2, as for
 * any other resource the run cannot have). */
static void out_of_memory(const char *what)
{
    fprintf(stderr, "wpusim: out of host memory allocating %s\n", what);
    exit(2);
}

mem_t *mem_create(void)
{
    mem_t *m = calloc(1, sizeof(mem_t));
    if (!m) out_of_memory("the page table of simulated memory");
    return m;
}

void mem_destroy(mem_t *m)
{
    if (!m) return;
    for (uint32_t i = 0; i < MEM_PAGES; i++) free(m->page[i]);
    free(m);
}

uint8_t *mem_page_alloc(mem_t *m, uint32_t addr)
{
    uint32_t i = addr >> MEM_PAGE_BITS;
    if (!m->page[i]) {
        m->page[i] = calloc(1, MEM_PAGE_SIZE);
        if (!m->page[i]) {
            char what[48];
            snprintf(what, sizeof what, "simulated page 0x%08x", i << MEM_PAGE_BITS);
            out_of_memory(what);
        }
        m->pages_allocated++;
    }
    return m->page[i];
}

void mem_read_bytes(const mem_t *m, uint32_t addr, void *dst, uint32_t len)
{
    uint8_t *d = dst;
    while (len) {
        uint32_t off = addr & (MEM_PAGE_SIZE - 1);
        uint32_t n = MEM_PAGE_SIZE - off;
        if (n > len) n = len;
        const uint8_t *p = m->page[addr >> MEM_PAGE_BITS];
        if (p) memcpy(d, p + off, n);
        else memset(d, 0, n);
        d += n, addr += n, len -= n;
    }
}

void mem_write_bytes(mem_t *m, uint32_t addr, const void *src, uint32_t len)
{
    const uint8_t *s = src;
    while (len) {
        uint32_t off = addr & (MEM_PAGE_SIZE - 1);
        uint32_t n = MEM_PAGE_SIZE - off;
        if (n > len) n = len;
        memcpy(mem_page_alloc(m, addr) + off, s, n);
        s += n, addr += n, len -= n;
    }
}

void mem_zero(mem_t *m, uint32_t addr, uint32_t len)
{
    while (len) {
        uint32_t off = addr & (MEM_PAGE_SIZE - 1);
        uint32_t n = MEM_PAGE_SIZE - off;
        if (n > len) n = len;
        uint8_t *p = m->page[addr >> MEM_PAGE_BITS];
        if (p) memset(p + off, 0, n);
        addr += n, len -= n;
    }
}
