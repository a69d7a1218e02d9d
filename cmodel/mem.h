/* Sparse 32-bit physical memory, allocated on touch in 64 KiB pages.
 *
 * Reads of memory nobody wrote return zero without allocating. Accesses are
 * naturally aligned (the executor faults misaligned ones before they get
 * here), so an access never straddles two pages. */
#ifndef WSIM_MEM_H
#define WSIM_MEM_H

#include <stdint.h>
#include <string.h>

#define MEM_PAGE_BITS 16
#define MEM_PAGE_SIZE (1u << MEM_PAGE_BITS)
#define MEM_PAGES (1u << (32 - MEM_PAGE_BITS))

typedef struct mem {
    uint8_t *page[MEM_PAGES];
    uint64_t pages_allocated;
} mem_t;

mem_t *mem_create(void);
void mem_destroy(mem_t *m);
uint8_t *mem_page_alloc(mem_t *m, uint32_t addr); /* the page holding addr, allocated if needed */

/* Copy out / in byte ranges of any length and alignment (loader, syscalls, dumps). */
void mem_read_bytes(const mem_t *m, uint32_t addr, void *dst, uint32_t len);
void mem_write_bytes(mem_t *m, uint32_t addr, const void *src, uint32_t len);
/* Make [addr, addr+len) read as zero without allocating pages. */
void mem_zero(mem_t *m, uint32_t addr, uint32_t len);

static inline uint32_t mem_read(const mem_t *m, uint32_t addr, int size)
{
    const uint8_t *p = m->page[addr >> MEM_PAGE_BITS];
    if (!p) return 0;
    p += addr & (MEM_PAGE_SIZE - 1);
    switch (size) {
    case 1: return p[0];
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    default: { uint32_t v; memcpy(&v, p, 4); return v; }
    }
}

static inline void mem_write(mem_t *m, uint32_t addr, uint32_t v, int size)
{
    uint8_t *p = m->page[addr >> MEM_PAGE_BITS];
    if (!p) p = mem_page_alloc(m, addr);
    p += addr & (MEM_PAGE_SIZE - 1);
    switch (size) {
    case 1: p[0] = (uint8_t)v; break;
    case 2: { uint16_t h = (uint16_t)v; memcpy(p, &h, 2); break; }
    default: memcpy(p, &v, 4); break;
    }
}

#endif
