// Port access of any width, shared by the block glue (tb/common/block_glue.inc)
// of the testbenches and of RTL in the loop (sim/rtl_glue.inc).
//
// A Verilated port is CData/SData/IData/QData (up to 64 bits) or VlWide<N>
// (32-bit words); a C port member is uint8_t..uint64_t or wmask_t (up to
// WSIM_MAX_LANES bits). rtl_set drives a whole input port; rtl_get reads
// bits [lsb, lsb + width) of an output port into a member.
#ifndef WS_RTL_PORT_H
#define WS_RTL_PORT_H

#include <cstdint>
#include <type_traits>

#include "verilated.h"

extern "C" {
#include "mask.h"
}

static inline uint64_t rtl_ones(int bits) { return bits >= 64 ? ~0ull : bits <= 0 ? 0 : (1ull << bits) - 1; }

// 64 bits of a port from bit lsb (zeros past its end).
template <class P, typename std::enable_if<std::is_integral<P>::value, int>::type = 0>
static inline uint64_t rtl_chunk(const P &p, int lsb) {
    return lsb >= 64 ? 0 : (uint64_t)p >> lsb;
}
template <std::size_t N> static inline uint64_t rtl_chunk(const VlWide<N> &p, int lsb) {
    std::size_t w = (std::size_t)lsb >> 5;
    int sh = lsb & 31;
    uint64_t a = w < N ? p[w] : 0, b = w + 1 < N ? p[w + 1] : 0, c = w + 2 < N ? p[w + 2] : 0;
    uint64_t lo = a | (b << 32);
    return sh ? (lo >> sh) | (c << (64 - sh)) : lo;
}

template <class P, class T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
static inline void rtl_get(T &dst, const P &p, int lsb, int width) {
    dst = (T)(rtl_chunk(p, lsb) & rtl_ones(width));
}
// (the common case of the entry fields: a field inside one 32-bit word)
template <std::size_t N, class T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
static inline void rtl_get(T &dst, const VlWide<N> &p, int lsb, int width) {
    if ((lsb & 31) + width <= 32 && (std::size_t)(lsb >> 5) < N)
        dst = (T)((p[lsb >> 5] >> (lsb & 31)) & rtl_ones(width));
    else
        dst = (T)(rtl_chunk(p, lsb) & rtl_ones(width));
}
template <class P> static inline void rtl_get(wmask_t &dst, const P &p, int lsb, int width) {
    if (width <= 32) { // (lanes of a narrow machine)
        uint32_t v;
        rtl_get(v, p, lsb, width);
        dst = wmask_none();
        dst.w[0] = v;
        return;
    }
    for (int j = 0; j < WMASK_WORDS; j++) {
        int rem = width - 64 * j;
        dst.w[j] = rem <= 0 ? 0 : rtl_chunk(p, lsb + 64 * j) & rtl_ones(rem);
    }
}

// The low 64 * j.. bits of a member.
template <class T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
static inline uint64_t rtl_word(const T &v, int j) {
    return j == 0 ? (uint64_t)v : 0;
}
static inline uint64_t rtl_word(const wmask_t &v, int j) { return j < WMASK_WORDS ? v.w[j] : 0; }

template <class P, class T, typename std::enable_if<std::is_integral<P>::value, int>::type = 0>
static inline void rtl_set(P &p, const T &v, int width) {
    p = (P)(rtl_word(v, 0) & rtl_ones(width));
}
template <std::size_t N, class T> static inline void rtl_set(VlWide<N> &p, const T &v, int width) {
    for (std::size_t i = 0; i < N; i++) {
        int rem = width - 32 * (int)i;
        uint64_t word = rtl_word(v, (int)i / 2) >> (32 * (i % 2));
        p[i] = (EData)(rem <= 0 ? 0 : word & rtl_ones(rem < 32 ? rem : 32));
    }
}

#endif
