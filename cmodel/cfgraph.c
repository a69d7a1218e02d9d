/* Immediate post-dominators by the Cooper-Harvey-Kennedy iterative algorithm
 * ("A Simple, Fast Dominance Algorithm") run on the reversed CFG. */
#include "cfgraph.h"

#include <stdlib.h>
#include <string.h>

#define EXIT_NODE (-2)

typedef struct cfg_work {
    int n, cap;
    uint8_t *returns; /* node -> returns from the function or is a barrier: threads go on */
    uint32_t *pc;   /* node -> pc */
    int (*succ)[2]; /* node -> up to two successors (node, EXIT_NODE or -1) */
    int *node_of;   /* word -> node in the current function, or -1 */
} cfg_work_t;

static size_t word_of(const program_t *p, uint32_t pc) { return (pc - p->code_lo) >> 2; }

static int in_code(const program_t *p, uint32_t pc)
{
    return !(pc & 3) && pc >= p->code_lo && pc < p->code_hi && p->is_exec[word_of(p, pc)];
}

static int is_entry(const program_t *p, uint32_t pc) { return in_code(p, pc) && p->is_func[word_of(p, pc)]; }

static void mark_entry(program_t *p, uint32_t pc)
{
    if (in_code(p, pc) && !p->is_func[word_of(p, pc)]) {
        p->is_func[word_of(p, pc)] = 1;
        p->nfuncs++;
    }
}

/* Constant base registers of jalr, basic block by basic block.
 *
 * Within a basic block (it starts at a branch or jump target, a function
 * symbol or the word after a jump, call or return; a conditional branch's
 * fall-through continues it) the registers that hold a constant built by
 * lui, auipc and addi (li, la = auipc+addi, lui+addi, also with other
 * instructions between) are tracked. A jalr whose base holds one gets
 * ISA_F_PAIRED and its target: a constant jump, call or tail call.
 * jalr x0, 0(t0) whose block never wrote t0 returns through the alternate
 * link register (a millicode call, jal t0); one whose block computed t0
 * otherwise (a table load) stays unbounded and is refused. The targets of
 * paired jumps start blocks too, so the scan repeats until they are stable. */
static int pair_jumps(program_t *p)
{
    size_t words = (p->code_hi - p->code_lo) / 4;
    uint8_t *target = p->is_target = calloc(words ? words : 1, 1);
    uint8_t *entry = calloc(words ? words : 1, 1);
    if (!target || !entry) {
        free(entry);
        return -1;
    }
    for (size_t k = 0; k < words; k++) {
        const isa_insn_t *d = &p->code[k];
        if ((d->cls == ISA_CLASS_BRANCH || d->op == ISA_OP_jal) && in_code(p, d->target))
            target[word_of(p, d->target)] = 1;
    }
    for (int i = 0; i < p->nsym; i++)
        if (p->sym[i].is_func && in_code(p, p->sym[i].addr)) entry[word_of(p, p->sym[i].addr)] = 1;
    if (in_code(p, p->entry)) entry[word_of(p, p->entry)] = 1;

    for (int again = 1; again;) {
        again = 0;
        uint32_t val[32] = {0};
        uint32_t known = 1, written = 0; /* bit r: x[r] holds val[r]; x[r] was set in this block */
        for (size_t k = 0; k < words; k++) {
            isa_insn_t *d = &p->code[k];
            uint32_t pc = p->code_lo + 4 * (uint32_t)k;
            if (!p->is_exec[k] || target[k] || entry[k]) known = 1, written = 0;
            if (!p->is_exec[k]) continue;
            if (d->op == ISA_OP_jalr) {
                d->flags &= (uint8_t)~ISA_F_PAIRED;
                int link_return = d->rd == ISA_X0_SINK && d->rs1 == 5 && d->imm == 0;
                if (link_return && !(written >> 5 & 1)) d->flags |= ISA_F_RETURN;
                else if (link_return) d->flags &= (uint8_t)~ISA_F_RETURN;
                if (!(d->flags & ISA_F_RETURN) && d->rs1 != 0 && (known >> d->rs1 & 1)) {
                    d->flags |= ISA_F_PAIRED;
                    d->target = (val[d->rs1] + d->imm) & ~1u;
                    if (in_code(p, d->target) && !target[word_of(p, d->target)])
                        target[word_of(p, d->target)] = 1, again = 1;
                }
            }
            int rd = isa_xreg_written(d);
            if (d->cls == ISA_CLASS_ECALL) rd = 10; /* write returns its length in a0 */
            if (rd) {
                uint32_t v = 0;
                int konst = 1;
                if (d->op == ISA_OP_lui) v = d->imm;
                else if (d->op == ISA_OP_auipc) v = pc + d->imm;
                else if (d->op == ISA_OP_addi && (known >> d->rs1 & 1)) v = val[d->rs1] + d->imm;
                else konst = 0;
                val[rd] = v;
                known = konst ? known | 1u << rd : known & ~(1u << rd);
                written |= 1u << rd;
            }
            switch (d->cls) { /* the next word is not reached from here with these values */
            case ISA_CLASS_JAL: case ISA_CLASS_JALR: case ISA_CLASS_EBREAK: case ISA_CLASS_ILLEGAL:
                known = 1, written = 0;
                break;
            default:
                break;
            }
        }
    }
    free(entry);
    return 0;
}

/* An ecall that certainly ends the thread: a7 was set to 93 (exit) by an
 * `li a7, 93` earlier in the same straight-line code. */
static int is_exit_ecall(const program_t *p, size_t k)
{
    for (size_t j = k; j-- > 0 && k - j <= 16;) {
        const isa_insn_t *d = &p->code[j];
        if (!p->is_exec[j]) return 0;
        switch (d->cls) {
        case ISA_CLASS_BRANCH: case ISA_CLASS_JAL: case ISA_CLASS_JALR: case ISA_CLASS_ECALL:
        case ISA_CLASS_ILLEGAL:
            return 0;
        default:
            break;
        }
        if (d->rd == 17) return d->op == ISA_OP_addi && d->rs1 == 0 && d->imm == 93;
        if (p->is_target[j]) return 0; /* control may enter here without the earlier code */
    }
    return 0;
}

/* 001 §4.3: a branch may subdivide a warp when its post-dominator is
 * followed by a short basic block — at most 50 instructions up to and
 * including the next control transfer (or the next branch target). */
static int short_block_at(const program_t *p, uint32_t pc)
{
    if (pc == ISA_RPC_EXIT) return 0;
    for (int n = 1; n <= 50; n++, pc += 4) {
        if (!in_code(p, pc)) return 0;
        size_t k = word_of(p, pc);
        if (n > 1 && p->is_target[k]) return 1;
        switch (p->code[k].cls) {
        case ISA_CLASS_BRANCH: case ISA_CLASS_JAL: case ISA_CLASS_JALR: case ISA_CLASS_ECALL:
        case ISA_CLASS_BARRIER: case ISA_CLASS_EBREAK: case ISA_CLASS_ILLEGAL:
            return 1;
        default:
            break;
        }
    }
    return 0;
}

static const prog_symbol_t *func_symbol(const program_t *p, uint32_t entry)
{
    const prog_symbol_t *s = program_symbol_at(p, entry);
    return s && s->addr == entry && s->is_func && s->size ? s : NULL;
}

static int out_of_memory(const program_t *p, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: out of host memory in the control-flow analysis", p->path);
    return -1;
}

/* The node of the instruction at pc, added if new; -1 when out of memory. */
static int add_node(cfg_work_t *w, const program_t *p, uint32_t pc)
{
    size_t k = word_of(p, pc);
    if (w->node_of[k] >= 0) return w->node_of[k];
    if (w->n == w->cap) {
        int cap = w->cap ? 2 * w->cap : 256;
        uint32_t *npc = realloc(w->pc, (size_t)cap * sizeof *w->pc);
        if (npc) w->pc = npc;
        int (*nsucc)[2] = realloc(w->succ, (size_t)cap * sizeof *w->succ);
        if (nsucc) w->succ = nsucc;
        uint8_t *nret = realloc(w->returns, (size_t)cap);
        if (nret) w->returns = nret;
        if (!npc || !nsucc || !nret) return -1;
        w->cap = cap;
    }
    w->returns[w->n] = 0;
    w->pc[w->n] = pc;
    w->succ[w->n][0] = w->succ[w->n][1] = -1;
    w->node_of[k] = w->n;
    return w->n++;
}

/* Natural loops, to tell loop branches from the others (000 §5.3, §5.5:
 * splits may pass the conditional branches that delimit loop iterations,
 * and Table 2 counts the rest).
 *
 * Dominators of the function's graph from its entry (node 0), by the same
 * Cooper-Harvey-Kennedy iteration as the post-dominators. An edge u -> h is
 * a back edge when h dominates u (only a retreating edge of the depth-first
 * order can be one, so only those are tested). The natural loop of header h
 * is h and every node that reaches the source of one of h's back edges
 * without passing h. A node gets loop[] = 1 when one of its edges is a back
 * edge, or when it lies in a loop and has two successors of which exactly
 * one is in that loop (the function's exit is outside every loop): a test
 * that ends an iteration or leaves the loop. A cycle with two entries
 * (irreducible) has no header that dominates it and counts as no loop.
 * pred/start: the forward predecessors (start[v] .. start[v + 1] - 1). */
static int mark_loops(program_t *p, const cfg_work_t *w, const int *start, const int *pred, uint8_t *loop)
{
    int n = w->n;
    size_t m = (size_t)n + 1;
    int *po = malloc(m * sizeof *po), *order = malloc(m * sizeof *order), *idom = malloc(m * sizeof *idom);
    int *stack = malloc(m * sizeof *stack), *it = calloc(m, sizeof *it), *mark = calloc(m, sizeof *mark);
    int *body = malloc(m * sizeof *body);
    uint8_t *header = calloc(m, 1);
    int rc = 0;
    if (!po || !order || !idom || !stack || !it || !mark || !body || !header) {
        rc = -1;
        goto out;
    }
    /* post-order of the forward graph by an iterative DFS from the entry */
    for (int v = 0; v < n; v++) po[v] = -1, idom[v] = -1;
    int sp = 0, count = 0;
    stack[sp++] = 0;
    mark[0] = 1; /* mark: seen (reused below as the loop stamp) */
    while (sp) {
        int v = stack[sp - 1];
        if (it[v] < 2) {
            int s = w->succ[v][it[v]++];
            if (s >= 0 && !mark[s]) { mark[s] = 1; stack[sp++] = s; }
        } else {
            sp--;
            po[v] = count;
            order[count++] = v;
        }
    }
    /* reconv = join's priority: the reverse post-order, a topological order of
     * the graph without its back edges (unreached nodes last) */
    for (int v = 0; v < n; v++) p->rpo[word_of(p, w->pc[v])] = po[v] >= 0 ? (uint32_t)(count - 1 - po[v]) : UINT32_MAX - 1;
    idom[0] = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int k = count - 2; k >= 0; k--) { /* reverse post-order, the entry excluded */
            int v = order[k], nd = -1;
            for (int i = start[v]; i < start[v + 1]; i++) {
                int u = pred[i];
                if (idom[u] == -1) continue;
                if (nd == -1) { nd = u; continue; }
                int a = u, b = nd;
                while (a != b) {
                    while (po[a] < po[b]) a = idom[a];
                    while (po[b] < po[a]) b = idom[b];
                }
                nd = a;
            }
            if (nd != -1 && idom[v] != nd) { idom[v] = nd; changed = 1; }
        }
    }
    /* back edges: retreating (po[h] >= po[u]) and h dominates u */
    for (int u = 0; u < n; u++)
        for (int i = 0; i < 2; i++) {
            int h = w->succ[u][i];
            if (h < 0 || po[h] < po[u] || po[u] < 0) continue;
            int x = u;
            while (x != h && x != 0) x = idom[x];
            if (x == h) loop[u] = 1, header[h] = 1;
        }
    memset(mark, 0, m * sizeof *mark);
    for (int h = 0; h < n; h++) {
        if (!header[h]) continue;
        int stamp = h + 1, nb = 0;
        mark[h] = stamp;
        body[nb++] = h;
        sp = 0;
        for (int i = start[h]; i < start[h + 1]; i++) { /* the back edges' sources */
            int u = pred[i], x = u;
            if (po[u] < 0) continue;
            while (x != h && x != 0) x = idom[x];
            if (x == h && mark[u] != stamp) mark[u] = stamp, body[nb++] = u, stack[sp++] = u;
        }
        while (sp) {
            int x = stack[--sp];
            for (int i = start[x]; i < start[x + 1]; i++) {
                int y = pred[i];
                if (mark[y] != stamp) mark[y] = stamp, body[nb++] = y, stack[sp++] = y;
            }
        }
        for (int j = 0; j < nb; j++) {
            int v = body[j], s0 = w->succ[v][0], s1 = w->succ[v][1];
            if (s0 == -1 || s1 == -1) continue;
            int in0 = s0 >= 0 && mark[s0] == stamp, in1 = s1 >= 0 && mark[s1] == stamp;
            if (in0 != in1) loop[v] = 1;
        }
    }
out:
    free(po), free(order), free(idom), free(stack), free(it), free(mark), free(body), free(header);
    return rc;
}

int cfgraph_analyse_function(program_t *p, uint32_t entry, char *err, size_t errlen)
{
    if (!in_code(p, entry)) {
        snprintf(err, errlen, "%s: function at 0x%08x is outside the program's code", p->path, entry);
        return -1;
    }
    mark_entry(p, entry);
    const prog_symbol_t *fs = func_symbol(p, entry);
    uint64_t lo = fs ? fs->addr : 0, hi = fs ? (uint64_t)fs->addr + fs->size : 0x100000000ull;

    size_t words = (p->code_hi - p->code_lo) / 4;
    cfg_work_t w = {0};
    if (!p->cfg_node_of) { /* word -> node map, kept all -1 between calls */
        p->cfg_node_of = malloc((words ? words : 1) * sizeof *p->cfg_node_of);
        if (!p->cfg_node_of) return out_of_memory(p, err, errlen);
        for (size_t k = 0; k < words; k++) p->cfg_node_of[k] = -1;
    }
    w.node_of = p->cfg_node_of;

    /* Discover the function's instructions and edges (worklist = node order). */
    int rc = add_node(&w, p, entry) < 0 ? out_of_memory(p, err, errlen) : 0;
    for (int u = 0; u < w.n && rc == 0; u++) {
        uint32_t pc = w.pc[u];
        const isa_insn_t *d = &p->code[word_of(p, pc)];
        uint32_t next[2];
        int nn = 0, to_exit = 0, ret = 0;
        switch (d->cls) {
        case ISA_CLASS_BRANCH:
            next[nn++] = pc + 4;
            if (d->target != pc + 4) next[nn++] = d->target;
            break;
        case ISA_CLASS_JAL:
            if (d->flags & ISA_F_CALL) next[nn++] = pc + 4;
            else next[nn++] = d->target;
            break;
        case ISA_CLASS_JALR:
            if (d->flags & ISA_F_CALL) next[nn++] = pc + 4;
            else if (d->flags & ISA_F_RETURN) to_exit = ret = 1;
            else if (d->flags & ISA_F_PAIRED) next[nn++] = d->target;
            else {
                char where[96], dis[64];
                program_describe_pc(p, pc, where, sizeof where);
                isa_disasm(d, pc, dis, sizeof dis);
                snprintf(err, errlen,
                         "%s: indirect jump at 0x%08x (%s: %s) has targets the control-flow analysis "
                         "cannot bound (a jump table?); compile with -fno-jump-tables "
                         "(and -fno-optimize-sibling-calls if it is an indirect tail call)",
                         p->path, pc, where, dis);
                rc = -1;
            }
            break;
        case ISA_CLASS_ILLEGAL: case ISA_CLASS_EBREAK:
            to_exit = 1; /* dead end: the thread faults here */
            break;
        case ISA_CLASS_ECALL:
            if (is_exit_ecall(p, word_of(p, pc))) to_exit = 1; /* the thread ends here */
            else next[nn++] = pc + 4;
            break;
        default:
            next[nn++] = pc + 4;
            ret = d->cls == ISA_CLASS_BARRIER;
            break;
        }
        int ns = 0;
        if (to_exit) w.succ[u][ns++] = EXIT_NODE;
        for (int i = 0; i < nn; i++) {
            uint32_t t = next[i];
            int leaves = !in_code(p, t) || t < lo || t >= hi || (t != entry && is_entry(p, t));
            if (leaves) {
                /* tail call, fall into another function, or a bad target (faults at run time) */
                if (in_code(p, t)) ret = 1;
                if (ns == 0 || w.succ[u][0] != EXIT_NODE) w.succ[u][ns++] = EXIT_NODE;
            } else {
                int v = add_node(&w, p, t); /* may move w.succ: index after */
                if (v < 0) { rc = out_of_memory(p, err, errlen); break; }
                w.succ[u][ns++] = v;
            }
        }
        w.returns[u] = (uint8_t)ret;
    }

    if (rc == 0) {
        /* Post-dominators: dominators of the reversed graph rooted at EXIT.
         * Index n stands for EXIT. Reverse-graph successors are the original
         * predecessors. */
        int n = w.n;
        size_t m = (size_t)n + 2;
        int *npred = calloc(m, sizeof *npred), *start = malloc(m * sizeof *start);
        int *pred = malloc(2 * m * sizeof *pred), *fill = calloc(m, sizeof *fill); /* <= 2 edges a node */
        int *po = malloc(m * sizeof *po);       /* node -> postorder number, -1 unvisited */
        int *order = malloc(m * sizeof *order); /* postorder number -> node */
        int *stack = malloc(m * sizeof *stack), *it = calloc(m, sizeof *it), *idom = malloc(m * sizeof *idom);
        uint8_t *seen = calloc(m, 1), *can_ret = calloc(m, 1), *loop = calloc(m, 1);
        if (!npred || !start || !pred || !fill || !po || !order || !stack || !it || !idom || !seen || !can_ret ||
            !loop) {
            rc = out_of_memory(p, err, errlen);
        } else {
            for (int u = 0; u < n; u++)
                for (int i = 0; i < 2; i++) {
                    int v = w.succ[u][i];
                    if (v == -1) continue;
                    npred[v == EXIT_NODE ? n : v]++;
                }
            start[0] = 0;
            for (int v = 0; v <= n; v++) start[v + 1] = start[v] + npred[v];
            for (int u = 0; u < n; u++)
                for (int i = 0; i < 2; i++) {
                    int v = w.succ[u][i];
                    if (v == -1) continue;
                    int vv = v == EXIT_NODE ? n : v;
                    pred[start[vv] + fill[vv]++] = u;
                }

            /* Post-order numbering of the reversed graph by an iterative DFS from EXIT. */
            for (int v = 0; v <= n; v++) po[v] = -1;
            int sp = 0, count = 0;
            stack[sp++] = n;
            seen[n] = 1;
            while (sp) {
                int v = stack[sp - 1];
                if (it[v] < npred[v]) {
                    int u = pred[start[v] + it[v]++];
                    if (!seen[u]) { seen[u] = 1; stack[sp++] = u; }
                } else {
                    sp--;
                    po[v] = count;
                    order[count++] = v;
                }
            }
            for (int v = 0; v <= n; v++) idom[v] = -1;
            idom[n] = n;
            for (int changed = 1; changed;) {
                changed = 0;
                for (int k = count - 2; k >= 0; k--) { /* reverse post-order, EXIT excluded */
                    int v = order[k], nd = -1;
                    for (int i = 0; i < 2; i++) {
                        int s = w.succ[v][i];
                        if (s == -1) continue;
                        s = s == EXIT_NODE ? n : s;
                        if (idom[s] == -1) continue;
                        if (nd == -1) { nd = s; continue; }
                        int a = s, b = nd;
                        while (a != b) {
                            while (po[a] < po[b]) a = idom[a];
                            while (po[b] < po[a]) b = idom[b];
                        }
                        nd = a;
                    }
                    if (nd != -1 && idom[v] != nd) { idom[v] = nd; changed = 1; }
                }
            }
            if (mark_loops(p, &w, start, pred, loop) < 0) rc = out_of_memory(p, err, errlen);
            /* Which nodes can still reach a return or a barrier (rather than only
             * end their thread). */
            int qn = 0;
            for (int v = 0; v < n; v++)
                if (w.returns[v]) can_ret[v] = 1, stack[qn++] = v;
            while (qn) {
                int v = stack[--qn];
                for (int i = start[v]; i < start[v + 1]; i++)
                    if (!can_ret[pred[i]]) can_ret[pred[i]] = 1, stack[qn++] = pred[i];
            }
            for (int v = 0; v < n; v++) {
                size_t k = word_of(p, w.pc[v]);
                isa_insn_t *d = &p->code[k];
                if (d->cls == ISA_CLASS_BRANCH) {
                    /* A node that cannot reach the exit (an endless loop) has no
                     * post-dominator: re-converge at the return, always safe. */
                    uint32_t r = (idom[v] == -1 || idom[v] == n) ? ISA_RPC_EXIT : w.pc[idom[v]];
                    /* One side only ends threads (exit, trap), the other can still
                     * return or reach a barrier: the ending side can never reach
                     * the other's start, so join there. The ending threads go
                     * first and leave, and a barrier after the branch sees only
                     * the threads that stay. */
                    int s0 = w.succ[v][0], s1 = w.succ[v][1];
                    if (s0 >= 0 && s1 >= 0 && can_ret[s0] != can_ret[s1]) r = w.pc[can_ret[s0] ? s0 : s1];
                    /* An instruction shared by two functions with different
                     * answers falls back to the always-safe exit. */
                    if (p->analysed[k] && d->ipdom != r) r = ISA_RPC_EXIT;
                    d->ipdom = r;
                    if (r != ISA_RPC_EXIT && in_code(p, r)) p->join_at[word_of(p, r)] = 1; /* a JOIN node */
                    d->flags &= (uint8_t)~ISA_F_SHORT_PDOM;
                    if (short_block_at(p, r)) d->flags |= ISA_F_SHORT_PDOM;
                    /* shared by two functions: a loop branch in either view */
                    if (!p->analysed[k]) d->flags &= (uint8_t)~ISA_F_LOOP;
                    if (loop[v]) d->flags |= ISA_F_LOOP;
                }
                /* a call's return address is a JOIN node: lanes that return
                 * from different depths or functions meet there */
                if ((d->flags & ISA_F_CALL) && in_code(p, w.pc[v] + 4)) p->join_at[word_of(p, w.pc[v] + 4)] = 1;
                p->analysed[k] = 1;
            }
        }
        free(npred), free(start), free(pred), free(fill), free(po), free(order);
        free(stack), free(it), free(seen), free(idom), free(can_ret), free(loop);
    }
    for (int v = 0; v < w.n; v++) w.node_of[word_of(p, w.pc[v])] = -1;
    free(w.pc), free(w.succ), free(w.returns);
    return rc;
}

int cfgraph_analyse_program(program_t *p, char *err, size_t errlen)
{
    if (pair_jumps(p) < 0) return out_of_memory(p, err, errlen);
    size_t words = (p->code_hi - p->code_lo) / 4;
    p->join_at = calloc(words ? words : 1, 1);
    p->rpo = calloc(words ? words : 1, sizeof *p->rpo);
    if (!p->join_at || !p->rpo) return out_of_memory(p, err, errlen);
    mark_entry(p, p->entry);
    for (int i = 0; i < p->nsym; i++)
        if (p->sym[i].is_func) mark_entry(p, p->sym[i].addr);
    for (size_t k = 0; k < words; k++) {
        const isa_insn_t *d = &p->code[k];
        if (!p->is_exec[k]) continue;
        if ((d->op == ISA_OP_jal && (d->flags & ISA_F_CALL)) ||
            (d->op == ISA_OP_jalr && (d->flags & ISA_F_PAIRED) && (d->flags & ISA_F_CALL)))
            mark_entry(p, d->target);
    }
    for (size_t k = 0; k < words; k++) {
        const isa_insn_t *d = &p->code[k];
        /* an auipc+jalr x0 pair to a known entry is a tail call */
        if (d->op == ISA_OP_jalr && (d->flags & ISA_F_PAIRED) && !(d->flags & ISA_F_CALL) &&
            program_symbol_at(p, d->target) && func_symbol(p, d->target))
            mark_entry(p, d->target);
    }
    for (size_t k = 0; k < words; k++)
        if (p->is_func[k] && cfgraph_analyse_function(p, p->code_lo + 4 * (uint32_t)k, err, errlen) < 0)
            return -1;
    return 0;
}

void cfgraph_dump(const program_t *p, FILE *out)
{
    size_t words = (p->code_hi - p->code_lo) / 4;
    char a[128], b[128];
    for (size_t k = 0; k < words; k++) {
        uint32_t pc = p->code_lo + 4 * (uint32_t)k;
        const isa_insn_t *d = &p->code[k];
        if (p->is_func[k]) {
            program_describe_pc(p, pc, a, sizeof a);
            fprintf(out, "func %s\n", a);
        }
        if (p->analysed[k] && d->cls == ISA_CLASS_BRANCH) {
            program_describe_pc(p, pc, a, sizeof a);
            if (d->ipdom == ISA_RPC_EXIT) snprintf(b, sizeof b, "exit");
            else program_describe_pc(p, d->ipdom, b, sizeof b);
            fprintf(out, "ipdom %s -> %s%s\n", a, b, d->flags & ISA_F_LOOP ? " loop" : "");
        }
    }
}
