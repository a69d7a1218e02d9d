/* interp.c — a bytecode interpreter running a different random program in every item.
 *
 * Work item i generates its own stack-machine program (12..40 instructions of 16 bits:
 * opcode byte, operand byte) and runs it on a small stack with a step budget (fuel).
 * The dispatch is a switch (a compare chain: kernels are built with -fno-jump-tables);
 * CALLN calls one of eight native functions through a function-pointer table, so
 * neighbouring threads call different functions, each with its own data-dependent loop.
 *
 * Divergence: per-thread programs mean per-thread control flow at every step: the
 * switch case, taken/not-taken jumps and loops, the native called through the table,
 * early returns on stack underflow/overflow, illegal opcodes and HALT, `continue` for
 * NOP, `break` when the fuel runs out.
 *
 * arg: number of work items (0 = 256), at most NMAX.
 */
#include "warpsplit.h"

#define NMAX 16384u
#define N_DEFAULT 256u
#define MAXLEN 40u
#define STACK 8u

enum status { ST_HALT = 1, ST_END, ST_FUEL, ST_UNDERFLOW, ST_OVERFLOW, ST_ILLEGAL };

enum opcode {
    OP_PUSH, OP_ADD, OP_SUB, OP_MUL, OP_XOR, OP_SHR, OP_DUP, OP_SWAP,
    OP_DROP, OP_SETC, OP_LOOP, OP_JZ, OP_CALLN, OP_NOP, OP_HALT,
    OP_COUNT /* opcodes >= OP_COUNT are illegal */
};

static uint32_t result[NMAX];  /* top of stack at the end (0 if empty) */
static uint32_t status[NMAX];  /* enum status | depth << 8 */
static uint32_t executed[NMAX]; /* instructions executed */
static uint32_t checksum[NMAX]; /* hash of the final stack */

WSIM_RESULT(result);
WSIM_RESULT(status);
WSIM_RESULT(executed);
WSIM_RESULT(checksum);

/* ---- native functions, called through a table ---------------------------------------- */

static uint32_t nat_gcd(uint32_t a, uint32_t b) {
    while (b != 0) {
        uint32_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static uint32_t nat_isqrt(uint32_t a, uint32_t b) {
    uint32_t x = a ^ b, y;
    if (x < 2)
        return x;
    y = x / 2 + 1; /* integer Newton iteration from above */
    while (y < x) {
        x = y;
        y = (x + (a ^ b) / x) / 2;
    }
    return x;
}

static uint32_t nat_popcount(uint32_t a, uint32_t b) {
    uint32_t n = 0;
    for (; a != 0; a &= a - 1)
        n++;
    for (; b != 0; b &= b - 1)
        n += 2;
    return n;
}

static uint32_t nat_rotl(uint32_t a, uint32_t b) {
    uint32_t s = b & 31u;
    return s == 0 ? a : (a << s) | (a >> (32 - s));
}

static uint32_t nat_hail(uint32_t a, uint32_t b) {
    uint32_t n = (a | 1u) & 0xFFFFu, k;
    for (k = 0; k < 40u + (b & 31u) && n != 1; k++)
        n = (n & 1) ? 3 * n + 1 : n / 2;
    return k;
}

static uint32_t nat_mulhi(uint32_t a, uint32_t b) {
    return (uint32_t)(((uint64_t)a * b) >> 32) + a * b;
}

static uint32_t nat_fib(uint32_t a, uint32_t b) {
    uint32_t x = a, y = 1, k;
    for (k = 0; k < (b & 15u); k++) {
        uint32_t t = x + y;
        x = y;
        y = t;
    }
    return y;
}

static uint32_t nat_absdiff(uint32_t a, uint32_t b) { return a < b ? b - a : a - b; }

typedef uint32_t (*native_fn)(uint32_t, uint32_t);

static const native_fn natives[8] = {
    nat_gcd, nat_isqrt, nat_popcount, nat_rotl, nat_hail, nat_mulhi, nat_fib, nat_absdiff,
};

/* ---- the interpreter -------------------------------------------------------------------- */

struct vm {
    uint32_t stack[STACK];
    uint32_t sp;      /* number of entries */
    uint32_t counter; /* loop counter register */
    uint32_t steps;
};

#define NEED(k)                                                                           \
    do {                                                                                  \
        if (vm->sp < (k))                                                                 \
            return ST_UNDERFLOW;                                                          \
    } while (0)
#define ROOM()                                                                            \
    do {                                                                                  \
        if (vm->sp >= STACK)                                                              \
            return ST_OVERFLOW;                                                           \
    } while (0)

static enum status run(struct vm *vm, const uint16_t *prog, uint32_t len, uint32_t fuel) {
    uint32_t pc = 0;
    while (pc < len) {
        uint32_t op = prog[pc] >> 8, imm = prog[pc] & 0xFFu, a, b;
        if (vm->steps == fuel)
            break;
        vm->steps++;
        pc++;
        switch (op) {
        case OP_PUSH:
            ROOM();
            vm->stack[vm->sp++] = imm;
            break;
        case OP_ADD:
        case OP_SUB:
        case OP_MUL:
        case OP_XOR:
            NEED(2);
            b = vm->stack[--vm->sp];
            a = vm->stack[vm->sp - 1];
            if (op == OP_ADD)
                a += b;
            else if (op == OP_SUB)
                a -= b;
            else if (op == OP_MUL)
                a *= b;
            else
                a ^= b;
            vm->stack[vm->sp - 1] = a;
            break;
        case OP_SHR:
            NEED(1);
            vm->stack[vm->sp - 1] >>= imm & 31u;
            break;
        case OP_DUP:
            NEED(1);
            ROOM();
            vm->stack[vm->sp] = vm->stack[vm->sp - 1];
            vm->sp++;
            break;
        case OP_SWAP:
            NEED(2);
            a = vm->stack[vm->sp - 1];
            vm->stack[vm->sp - 1] = vm->stack[vm->sp - 2];
            vm->stack[vm->sp - 2] = a;
            break;
        case OP_DROP:
            NEED(1);
            vm->sp--;
            break;
        case OP_SETC:
            vm->counter = imm & 7u;
            break;
        case OP_LOOP: /* while the counter is nonzero: decrement and jump */
            if (vm->counter == 0)
                continue;
            vm->counter--;
            pc = imm % len;
            break;
        case OP_JZ:
            NEED(1);
            if (vm->stack[--vm->sp] == 0)
                pc = imm % len;
            break;
        case OP_CALLN:
            NEED(2);
            b = vm->stack[--vm->sp];
            a = vm->stack[vm->sp - 1];
            vm->stack[vm->sp - 1] = natives[imm & 7u](a, b); /* indirect call */
            break;
        case OP_NOP:
            continue;
        case OP_HALT:
            return ST_HALT;
        default:
            return ST_ILLEGAL;
        }
    }
    return pc >= len ? ST_END : ST_FUEL;
}

/* Random program: mostly pushes and arithmetic, some control flow and native calls. */
static uint32_t generate(wsim_rng *r, uint16_t *prog) {
    uint32_t len = 12 + wsim_rand_below(r, MAXLEN - 11), k;
    for (k = 0; k < len; k++) {
        uint32_t x = wsim_rand(r), op, imm = x & 0xFFu, pick = (x >> 8) & 63u;
        if (pick < 16)
            op = OP_PUSH;
        else if (pick < 28)
            op = OP_ADD + (pick & 3u);
        else if (pick < 44)
            op = OP_CALLN;
        else if (pick < 62)
            op = OP_SHR + (pick - 44) % (OP_COUNT - OP_SHR - 1); /* SHR..NOP */
        else
            op = pick == 62 ? OP_HALT : OP_COUNT + (x >> 16) % 4u; /* halt or illegal */
        if (op == OP_LOOP || op == OP_JZ)
            imm = wsim_rand_below(r, len);
        prog[k] = (uint16_t)(op << 8 | imm);
    }
    return len;
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t items = wsim_arg() ? wsim_arg() : N_DEFAULT;
    uint32_t seed = wsim_seed();
    uint32_t i, k;

    if (items > NMAX)
        items = NMAX;
    for (i = tid; i < items; i += nthreads) {
        wsim_rng r = wsim_rng_init(seed, i);
        uint16_t prog[MAXLEN];
        struct vm vm;
        uint32_t len = generate(&r, prog), h = 0;
        uint32_t fuel = 16 + wsim_rand_below(&r, 48);
        enum status st;

        for (k = 0; k < 3; k++) /* a few inputs on the stack */
            vm.stack[k] = wsim_rand(&r) >> (8 * k);
        vm.sp = 3;
        vm.counter = 0;
        vm.steps = 0;
        st = run(&vm, prog, len, fuel);
        for (k = 0; k < vm.sp; k++)
            h = wsim_mix32(h ^ vm.stack[k]);
        result[i] = vm.sp ? vm.stack[vm.sp - 1] : 0;
        status[i] = (uint32_t)st | vm.sp << 8;
        executed[i] = vm.steps;
        checksum[i] = h;
    }
    return 0;
}
