/* Bulk-synchronous memory (memory = bulksync; 000 Table 4): each L1 D line
 * slot holds its own copy of its line. Loads read it, stores write it, and
 * other WPUs see the bytes only after a write-back (eviction or the flush at
 * a global barrier). Only the bytes written since the fill go back, so two
 * WPUs writing different bytes of one line both land. */
#ifndef WSIM_MEM_BULKSYNC_H
#define WSIM_MEM_BULKSYNC_H

#include <stddef.h>
#include <stdint.h>

#include "dram.h"
#include "l1.h"
#include "mem.h"
#include "xbar.h"

/* Write the dirty bytes of slot k (line address `line`) back to memory. */
void bulksync_writeback(l1_t *l, mem_t *mem, size_t k, uint32_t line);
/* Line `line` just went into slot k, whose previous line (if `had`) was old. */
void bulksync_fill(l1_t *l, mem_t *mem, size_t k, int had, uint32_t old, uint32_t line);
/* The L1's copy of addr (memory's if the line is not there). */
uint32_t bulksync_read(l1_t *l, mem_t *mem, uint32_t addr, int size);
void bulksync_write(l1_t *l, mem_t *mem, uint32_t addr, uint32_t v, int size);
/* Write back every dirty byte to memory, keeping the lines. */
void bulksync_drain(l1_t *l, mem_t *mem);
/* The flush at a global barrier at now: dirty bytes go home, dirty lines
 * over the crossbar to DRAM, every line is invalidated. Returns the cycle
 * the last write-back is done (now if none). */
uint64_t bulksync_flush(l1_t *l, mem_t *mem, xbar_t *x, dram_t *d, uint64_t now);

#endif
