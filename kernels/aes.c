/* aes.c — AES-128 decryption (CBC) of generated ciphertext, table-based.
 *
 * Benchmark "decrypt" of seed 004 (Narasiman et al., Table 2: "Advanced Encryption
 * Standard decryption algorithm", input "256K AES encrypted bytes"); its source is not
 * published.  This is the classic 32-bit table implementation of FIPS-197 (the
 * equivalent inverse cipher, as in OpenSSL's aes_core.c): per round 16 lookups in four
 * 1 KB tables Td0..Td3 (InvSubBytes + InvShiftRows + InvMixColumns) XORed with the
 * round key, a last round through the inverse S-box.
 *   0. tables and key: the 256 entries of Te0..Te3/Td0..Td3 are built from the S-boxes
 *      (one task per byte value); one task expands the seed's 128-bit key into the
 *      encryption and decryption key schedules (InvMixColumns of rounds 1-9); the
 *      ciphertext blocks and the IV are random words from (seed, block);
 *   1. decrypt: one task per 16-byte block, in CBC mode P_i = D(C_i) ^ C_(i-1) (the IV
 *      before block 0), so blocks are independent;
 *   2. self-check: every CHECK-th block re-encrypted (Te tables) must give C_i back;
 *   3. one task runs FIPS-197 Appendix C.1 (key 000102..0f, plaintext 00112233..ff,
 *      ciphertext 69c4e0d8 6a7b0430 d8cdb780 70b4c55a) both ways.
 * Barriers after phases 0 and 1.
 *
 * Divergence: none in the cipher (straight-line rounds, uniform round loops), as in
 * 004's right-hand benchmarks; item-loop tails and the sampled check.  Memory: every
 * lookup's address depends on the data, so the 32 lanes of a warp read 32 scattered
 * words of a 1 KB table per lookup (memory divergence, though the 8 KB of tables stay
 * in the data cache), and the blocks stream through (16 B per lane).
 *
 * Size: about 1,240 thread instructions per block (the decryption and a quarter of a
 * check encryption), so 004's 256 KB (16,384 blocks) take 20 M thread instructions,
 * below the 100-200 M 004 describes for its runs: arg 2 is 004's input as is, and
 * `--arg 131072` (2 MB, 8x) reaches 004's instruction count (about 160 M).
 * arg: 0 = tiny (512 blocks = 8 KB), 1 = small (4,096 blocks = 64 KB), 2 = paper (16,384
 *      blocks = 256 KB); N >= 3 = N blocks (at most 131,072 = 2 MB).
 * Result: the plaintext words (block i = words 4i..4i+3, big-endian byte order in each
 *      word, as AES's GETU32), then fips = the C.1 ciphertext and plaintext as computed
 *      and a flag word (1: encryption wrong, 2: decryption wrong, 4: a re-encrypted
 *      block differed).
 */
#include "warpsplit.h"

#define NBMAX 131072u
#define CHECK 4u /* re-encrypt every CHECK-th block */

static uint32_t ct[NBMAX * 4u];   /* the ciphertext */
static uint32_t pt[NBMAX * 4u];   /* the plaintext (result) */
static uint32_t Te[4][256], Td[4][256];
static uint32_t ek[44], dk[44];    /* encryption and decryption key schedules */
static uint32_t iv[4];
static uint32_t fips[9];
static uint32_t recheck[NBMAX / CHECK]; /* 1 where a re-encrypted block differs */

WSIM_RESULT(pt);
WSIM_RESULT(fips);

static const uint8_t S[256] = {
    0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76,
    0xca, 0x82, 0xc9, 0x7d, 0xfa, 0x59, 0x47, 0xf0, 0xad, 0xd4, 0xa2, 0xaf, 0x9c, 0xa4, 0x72, 0xc0,
    0xb7, 0xfd, 0x93, 0x26, 0x36, 0x3f, 0xf7, 0xcc, 0x34, 0xa5, 0xe5, 0xf1, 0x71, 0xd8, 0x31, 0x15,
    0x04, 0xc7, 0x23, 0xc3, 0x18, 0x96, 0x05, 0x9a, 0x07, 0x12, 0x80, 0xe2, 0xeb, 0x27, 0xb2, 0x75,
    0x09, 0x83, 0x2c, 0x1a, 0x1b, 0x6e, 0x5a, 0xa0, 0x52, 0x3b, 0xd6, 0xb3, 0x29, 0xe3, 0x2f, 0x84,
    0x53, 0xd1, 0x00, 0xed, 0x20, 0xfc, 0xb1, 0x5b, 0x6a, 0xcb, 0xbe, 0x39, 0x4a, 0x4c, 0x58, 0xcf,
    0xd0, 0xef, 0xaa, 0xfb, 0x43, 0x4d, 0x33, 0x85, 0x45, 0xf9, 0x02, 0x7f, 0x50, 0x3c, 0x9f, 0xa8,
    0x51, 0xa3, 0x40, 0x8f, 0x92, 0x9d, 0x38, 0xf5, 0xbc, 0xb6, 0xda, 0x21, 0x10, 0xff, 0xf3, 0xd2,
    0xcd, 0x0c, 0x13, 0xec, 0x5f, 0x97, 0x44, 0x17, 0xc4, 0xa7, 0x7e, 0x3d, 0x64, 0x5d, 0x19, 0x73,
    0x60, 0x81, 0x4f, 0xdc, 0x22, 0x2a, 0x90, 0x88, 0x46, 0xee, 0xb8, 0x14, 0xde, 0x5e, 0x0b, 0xdb,
    0xe0, 0x32, 0x3a, 0x0a, 0x49, 0x06, 0x24, 0x5c, 0xc2, 0xd3, 0xac, 0x62, 0x91, 0x95, 0xe4, 0x79,
    0xe7, 0xc8, 0x37, 0x6d, 0x8d, 0xd5, 0x4e, 0xa9, 0x6c, 0x56, 0xf4, 0xea, 0x65, 0x7a, 0xae, 0x08,
    0xba, 0x78, 0x25, 0x2e, 0x1c, 0xa6, 0xb4, 0xc6, 0xe8, 0xdd, 0x74, 0x1f, 0x4b, 0xbd, 0x8b, 0x8a,
    0x70, 0x3e, 0xb5, 0x66, 0x48, 0x03, 0xf6, 0x0e, 0x61, 0x35, 0x57, 0xb9, 0x86, 0xc1, 0x1d, 0x9e,
    0xe1, 0xf8, 0x98, 0x11, 0x69, 0xd9, 0x8e, 0x94, 0x9b, 0x1e, 0x87, 0xe9, 0xce, 0x55, 0x28, 0xdf,
    0x8c, 0xa1, 0x89, 0x0d, 0xbf, 0xe6, 0x42, 0x68, 0x41, 0x99, 0x2d, 0x0f, 0xb0, 0x54, 0xbb, 0x16};

static const uint8_t Si[256] = {
    0x52, 0x09, 0x6a, 0xd5, 0x30, 0x36, 0xa5, 0x38, 0xbf, 0x40, 0xa3, 0x9e, 0x81, 0xf3, 0xd7, 0xfb,
    0x7c, 0xe3, 0x39, 0x82, 0x9b, 0x2f, 0xff, 0x87, 0x34, 0x8e, 0x43, 0x44, 0xc4, 0xde, 0xe9, 0xcb,
    0x54, 0x7b, 0x94, 0x32, 0xa6, 0xc2, 0x23, 0x3d, 0xee, 0x4c, 0x95, 0x0b, 0x42, 0xfa, 0xc3, 0x4e,
    0x08, 0x2e, 0xa1, 0x66, 0x28, 0xd9, 0x24, 0xb2, 0x76, 0x5b, 0xa2, 0x49, 0x6d, 0x8b, 0xd1, 0x25,
    0x72, 0xf8, 0xf6, 0x64, 0x86, 0x68, 0x98, 0x16, 0xd4, 0xa4, 0x5c, 0xcc, 0x5d, 0x65, 0xb6, 0x92,
    0x6c, 0x70, 0x48, 0x50, 0xfd, 0xed, 0xb9, 0xda, 0x5e, 0x15, 0x46, 0x57, 0xa7, 0x8d, 0x9d, 0x84,
    0x90, 0xd8, 0xab, 0x00, 0x8c, 0xbc, 0xd3, 0x0a, 0xf7, 0xe4, 0x58, 0x05, 0xb8, 0xb3, 0x45, 0x06,
    0xd0, 0x2c, 0x1e, 0x8f, 0xca, 0x3f, 0x0f, 0x02, 0xc1, 0xaf, 0xbd, 0x03, 0x01, 0x13, 0x8a, 0x6b,
    0x3a, 0x91, 0x11, 0x41, 0x4f, 0x67, 0xdc, 0xea, 0x97, 0xf2, 0xcf, 0xce, 0xf0, 0xb4, 0xe6, 0x73,
    0x96, 0xac, 0x74, 0x22, 0xe7, 0xad, 0x35, 0x85, 0xe2, 0xf9, 0x37, 0xe8, 0x1c, 0x75, 0xdf, 0x6e,
    0x47, 0xf1, 0x1a, 0x71, 0x1d, 0x29, 0xc5, 0x89, 0x6f, 0xb7, 0x62, 0x0e, 0xaa, 0x18, 0xbe, 0x1b,
    0xfc, 0x56, 0x3e, 0x4b, 0xc6, 0xd2, 0x79, 0x20, 0x9a, 0xdb, 0xc0, 0xfe, 0x78, 0xcd, 0x5a, 0xf4,
    0x1f, 0xdd, 0xa8, 0x33, 0x88, 0x07, 0xc7, 0x31, 0xb1, 0x12, 0x10, 0x59, 0x27, 0x80, 0xec, 0x5f,
    0x60, 0x51, 0x7f, 0xa9, 0x19, 0xb5, 0x4a, 0x0d, 0x2d, 0xe5, 0x7a, 0x9f, 0x93, 0xc9, 0x9c, 0xef,
    0xa0, 0xe0, 0x3b, 0x4d, 0xae, 0x2a, 0xf5, 0xb0, 0xc8, 0xeb, 0xbb, 0x3c, 0x83, 0x53, 0x99, 0x61,
    0x17, 0x2b, 0x04, 0x7e, 0xba, 0x77, 0xd6, 0x26, 0xe1, 0x69, 0x14, 0x63, 0x55, 0x21, 0x0c, 0x7d};

static uint32_t xt(uint32_t a) { return ((a << 1) ^ ((a >> 7) * 0x11bu)) & 0xffu; }

/* a * b in GF(2^8) (b small: 2..14). */
static uint32_t gmul(uint32_t a, uint32_t b) {
    uint32_t r = 0;
    while (b != 0) {
        if (b & 1u)
            r ^= a;
        a = xt(a);
        b >>= 1;
    }
    return r;
}

static uint32_t ror8(uint32_t x) { return x >> 8 | x << 24; }

/* Table entries for byte value x (OpenSSL's Te0/Td0 and their rotations). */
static void make_tables(uint32_t x) {
    uint32_t s = S[x], si = Si[x], e, d, k;
    e = xt(s) << 24 | s << 16 | s << 8 | (xt(s) ^ s);
    d = gmul(si, 14) << 24 | gmul(si, 9) << 16 | gmul(si, 13) << 8 | gmul(si, 11);
    for (k = 0; k < 4u; k++) {
        Te[k][x] = e;
        Td[k][x] = d;
        e = ror8(e);
        d = ror8(d);
    }
}

static uint32_t sub_word(uint32_t w) {
    return (uint32_t)S[w >> 24] << 24 | (uint32_t)S[(w >> 16) & 255u] << 16 |
           (uint32_t)S[(w >> 8) & 255u] << 8 | S[w & 255u];
}

/* InvMixColumns of one column word (bytes a0..a3, a0 the most significant). */
static uint32_t inv_mix(uint32_t w) {
    uint32_t a0 = w >> 24, a1 = (w >> 16) & 255u, a2 = (w >> 8) & 255u, a3 = w & 255u;
    return (gmul(a0, 14) ^ gmul(a1, 11) ^ gmul(a2, 13) ^ gmul(a3, 9)) << 24 |
           (gmul(a0, 9) ^ gmul(a1, 14) ^ gmul(a2, 11) ^ gmul(a3, 13)) << 16 |
           (gmul(a0, 13) ^ gmul(a1, 9) ^ gmul(a2, 14) ^ gmul(a3, 11)) << 8 |
           (gmul(a0, 11) ^ gmul(a1, 13) ^ gmul(a2, 9) ^ gmul(a3, 14));
}

/* FIPS-197 §5.2 key expansion (Nk = 4, 10 rounds) and the equivalent inverse cipher's
 * schedule (§5.3.5): rounds in reverse order, InvMixColumns applied to rounds 1-9. */
static void expand_key(const uint32_t key[4], uint32_t *e, uint32_t *d) {
    uint32_t i, rcon = 1u, r, c;
    for (i = 0; i < 4u; i++)
        e[i] = key[i];
    for (i = 4; i < 44u; i++) {
        uint32_t t = e[i - 1u];
        if (i % 4u == 0) {
            t = sub_word(t << 8 | t >> 24) ^ rcon << 24;
            rcon = xt(rcon);
        }
        e[i] = e[i - 4u] ^ t;
    }
    for (r = 0; r <= 10u; r++)
        for (c = 0; c < 4u; c++) {
            uint32_t w = e[4u * (10u - r) + c];
            d[4u * r + c] = r == 0 || r == 10u ? w : inv_mix(w);
        }
}

/* Both block functions are inlined: as calls their prologues save a dozen registers
 * on the thread's stack per block (at 1,024 threads the stacks, 16 KiB apart, share a
 * few L1 sets). */
static inline __attribute__((always_inline)) void encrypt_block(const uint32_t *rk, const uint32_t in[4], uint32_t out[4]) {
    uint32_t s0 = in[0] ^ rk[0], s1 = in[1] ^ rk[1], s2 = in[2] ^ rk[2], s3 = in[3] ^ rk[3];
    uint32_t t0, t1, t2, t3, r;
    for (r = 1; r < 10u; r++) {
        rk += 4;
        t0 = Te[0][s0 >> 24] ^ Te[1][(s1 >> 16) & 255u] ^ Te[2][(s2 >> 8) & 255u] ^ Te[3][s3 & 255u] ^ rk[0];
        t1 = Te[0][s1 >> 24] ^ Te[1][(s2 >> 16) & 255u] ^ Te[2][(s3 >> 8) & 255u] ^ Te[3][s0 & 255u] ^ rk[1];
        t2 = Te[0][s2 >> 24] ^ Te[1][(s3 >> 16) & 255u] ^ Te[2][(s0 >> 8) & 255u] ^ Te[3][s1 & 255u] ^ rk[2];
        t3 = Te[0][s3 >> 24] ^ Te[1][(s0 >> 16) & 255u] ^ Te[2][(s1 >> 8) & 255u] ^ Te[3][s2 & 255u] ^ rk[3];
        s0 = t0;
        s1 = t1;
        s2 = t2;
        s3 = t3;
    }
    rk += 4;
    out[0] = sub_word((s0 & 0xff000000u) | (s1 & 0xff0000u) | (s2 & 0xff00u) | (s3 & 255u)) ^ rk[0];
    out[1] = sub_word((s1 & 0xff000000u) | (s2 & 0xff0000u) | (s3 & 0xff00u) | (s0 & 255u)) ^ rk[1];
    out[2] = sub_word((s2 & 0xff000000u) | (s3 & 0xff0000u) | (s0 & 0xff00u) | (s1 & 255u)) ^ rk[2];
    out[3] = sub_word((s3 & 0xff000000u) | (s0 & 0xff0000u) | (s1 & 0xff00u) | (s2 & 255u)) ^ rk[3];
}

static uint32_t inv_sub_word(uint32_t w) {
    return (uint32_t)Si[w >> 24] << 24 | (uint32_t)Si[(w >> 16) & 255u] << 16 |
           (uint32_t)Si[(w >> 8) & 255u] << 8 | Si[w & 255u];
}

static inline __attribute__((always_inline)) void decrypt_block(const uint32_t *rk, const uint32_t in[4], uint32_t out[4]) {
    uint32_t s0 = in[0] ^ rk[0], s1 = in[1] ^ rk[1], s2 = in[2] ^ rk[2], s3 = in[3] ^ rk[3];
    uint32_t t0, t1, t2, t3, r;
    for (r = 1; r < 10u; r++) {
        rk += 4;
        t0 = Td[0][s0 >> 24] ^ Td[1][(s3 >> 16) & 255u] ^ Td[2][(s2 >> 8) & 255u] ^ Td[3][s1 & 255u] ^ rk[0];
        t1 = Td[0][s1 >> 24] ^ Td[1][(s0 >> 16) & 255u] ^ Td[2][(s3 >> 8) & 255u] ^ Td[3][s2 & 255u] ^ rk[1];
        t2 = Td[0][s2 >> 24] ^ Td[1][(s1 >> 16) & 255u] ^ Td[2][(s0 >> 8) & 255u] ^ Td[3][s3 & 255u] ^ rk[2];
        t3 = Td[0][s3 >> 24] ^ Td[1][(s2 >> 16) & 255u] ^ Td[2][(s1 >> 8) & 255u] ^ Td[3][s0 & 255u] ^ rk[3];
        s0 = t0;
        s1 = t1;
        s2 = t2;
        s3 = t3;
    }
    rk += 4;
    out[0] = inv_sub_word((s0 & 0xff000000u) | (s3 & 0xff0000u) | (s2 & 0xff00u) | (s1 & 255u)) ^ rk[0];
    out[1] = inv_sub_word((s1 & 0xff000000u) | (s0 & 0xff0000u) | (s3 & 0xff00u) | (s2 & 255u)) ^ rk[1];
    out[2] = inv_sub_word((s2 & 0xff000000u) | (s1 & 0xff0000u) | (s0 & 0xff00u) | (s3 & 255u)) ^ rk[2];
    out[3] = inv_sub_word((s3 & 0xff000000u) | (s2 & 0xff0000u) | (s1 & 0xff00u) | (s0 & 255u)) ^ rk[3];
}

static uint32_t nblocks(uint32_t arg) {
    if (arg == 0)
        return 512u;
    if (arg == 1)
        return 4096u;
    if (arg == 2)
        return 16384u;
    return arg < NBMAX ? arg : NBMAX;
}

int kernel_main(unsigned tid, unsigned nthreads) {
    uint32_t seed = wsim_seed(), nb = nblocks(wsim_arg()), i, k;
    int bad = 0;

    /* Phase 0: tables, key schedules, IV and ciphertext. */
    for (i = tid; i < 256u; i += nthreads)
        make_tables(i);
    for (i = tid; i < 1u; i += nthreads) {
        uint32_t key[4];
        for (k = 0; k < 4u; k++) {
            key[k] = wsim_hash3(seed, 0xae5u, k);
            iv[k] = wsim_hash3(seed, 0x1au, k);
        }
        expand_key(key, ek, dk);
    }
    for (i = tid; i < 4u * nb; i += nthreads)
        ct[i] = wsim_hash3(seed, i, 0xc1u);
    wsim_roi_begin(); /* the measured phase: the decryption */

    /* Phase 1: CBC decryption, one block per task. */
    for (i = tid; i < nb; i += nthreads) {
        const uint32_t *prev = i == 0 ? iv : ct + 4u * (i - 1u);
        uint32_t *p = pt + 4u * i;
        decrypt_block(dk, ct + 4u * i, p);
        for (k = 0; k < 4u; k++)
            p[k] ^= prev[k];
    }
    wsim_roi_end();

    /* Phase 2: every CHECK-th block re-encrypted (a task per sampled block, so that
     * whole warps check together). */
    for (i = tid; i * CHECK < nb; i += nthreads) {
        uint32_t b = i * CHECK, x[4], y[4], d = 0;
        const uint32_t *prev = b == 0 ? iv : ct + 4u * (b - 1u);
        for (k = 0; k < 4u; k++)
            x[k] = pt[4u * b + k] ^ prev[k];
        encrypt_block(ek, x, y);
        for (k = 0; k < 4u; k++)
            d |= y[k] ^ ct[4u * b + k];
        recheck[i] = d != 0;
        bad |= d != 0;
    }

    /* Phase 3: FIPS-197 Appendix C.1 both ways (one task). */
    for (i = tid; i < 1u; i += nthreads) {
        static const uint32_t key[4] = {0x00010203u, 0x04050607u, 0x08090a0bu, 0x0c0d0e0fu};
        static const uint32_t plain[4] = {0x00112233u, 0x44556677u, 0x8899aabbu, 0xccddeeffu};
        static const uint32_t want[4] = {0x69c4e0d8u, 0x6a7b0430u, 0xd8cdb780u, 0x70b4c55au};
        uint32_t e[44], d[44], c[4], p[4], flag = 0;
        expand_key(key, e, d);
        encrypt_block(e, plain, c);
        decrypt_block(d, c, p);
        for (k = 0; k < 4u; k++) {
            fips[k] = c[k];
            fips[4u + k] = p[k];
            flag |= (c[k] != want[k]) | (p[k] != plain[k]) << 1;
        }
        fips[8] = flag;
        bad |= flag != 0;
    }
    return bad;
}
