/* Control-flow analysis: function discovery and immediate post-dominators.
 *
 * Run once at load time on the pre-decoded program (and on demand for a
 * function first reached through a pointer). For each conditional branch it
 * stores the re-convergence PC — the immediate post-dominator in the
 * function's instruction-level control-flow graph, or ISA_RPC_EXIT when the
 * paths only meet at the function's return — as GPGPU-Sim does for PTX.
 *
 * Intra-procedural view: a call falls through to the instruction after it; a
 * return, a tail call (a jump to another function's entry, or out of the
 * function's symbol range) and a dead end (illegal word, ebreak) lead to the
 * function's virtual exit. An indirect jump that is neither a return nor an
 * auipc+jalr pair has unbounded targets and is rejected. */
#ifndef WSIM_CFGRAPH_H
#define WSIM_CFGRAPH_H

#include <stdio.h>

#include "program.h"

int cfgraph_analyse_program(program_t *p, char *err, size_t errlen);
int cfgraph_analyse_function(program_t *p, uint32_t entry, char *err, size_t errlen);

/* One line per function and per conditional branch:
 *   func <entry>
 *   ipdom <branch> -> <re-convergence pc | exit>                            */
void cfgraph_dump(const program_t *p, FILE *out);

#endif
