// SPDX-License-Identifier: MIT
//
// sc_bits.h - vl_bits.h for the SystemC types Verilator's --sc gives a port wider than
// 64 bits (sc_bv<N>), so that SystemCNetwork reads and writes fields as NetworkTop does.
// The integral types of narrower ports (bool, uint32_t, uint64_t) use vl_bits.h.
#ifndef WORMCAST_SC_BITS_H
#define WORMCAST_SC_BITS_H

#include <cstdint>

#include <systemc>

#include "vl_bits.h"

// A field of up to 64 bits spans at most three 32-bit words (sc_digit) of an sc_bv.
// Word access, not range(): this runs for every port of every router in every cycle.
template <int N>
inline uint64_t get_bits(const sc_dt::sc_bv<N>& sig, int lsb, int width)
{
    constexpr int words = (N + 31) / 32;
    const int w = lsb >> 5, sh = lsb & 31;
    uint64_t v = static_cast<uint64_t>(sig.get_word(w)) >> sh;
    int got = 32 - sh;
    if (got < width && w + 1 < words) {
        v |= static_cast<uint64_t>(sig.get_word(w + 1)) << got;
        got += 32;
        if (got < width && w + 2 < words) v |= static_cast<uint64_t>(sig.get_word(w + 2)) << got;
    }
    return v & field_mask(width);
}

template <int N>
inline void set_bits(sc_dt::sc_bv<N>& sig, int lsb, int width, uint64_t value)
{
    unsigned bit = static_cast<unsigned>(lsb);
    unsigned left = static_cast<unsigned>(width);
    while (left) {
        const int w = static_cast<int>(bit >> 5);
        const unsigned sh = bit & 31;
        const unsigned take = left < 32 - sh ? left : 32 - sh;
        const uint32_t m = static_cast<uint32_t>(field_mask(static_cast<int>(take)) << sh);
        const uint32_t old = static_cast<uint32_t>(sig.get_word(w));
        sig.set_word(w, (old & ~m) | (static_cast<uint32_t>(value << sh) & m));
        value >>= take;
        bit += take;
        left -= take;
    }
}

template <int N>
inline void clear_bits(sc_dt::sc_bv<N>& sig)
{
    for (int w = 0; w < (N + 31) / 32; ++w) sig.set_word(w, 0);
}

#endif
