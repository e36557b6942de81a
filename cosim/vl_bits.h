// SPDX-License-Identifier: MIT
//
// vl_bits.h - read and write a bit field of a Verilated port, whatever C++ type
// Verilator chose for it (CData/SData/IData/QData up to 64 bits, VlWide above).
#ifndef WORMCAST_VL_BITS_H
#define WORMCAST_VL_BITS_H

#include <cstdint>
#include <type_traits>

#include "verilated.h"

inline uint64_t field_mask(int width)
{
    return width >= 64 ? ~0ULL : (1ULL << width) - 1;
}

template <typename T>
inline uint64_t get_bits(const T& sig, int lsb, int width)
{
    static_assert(std::is_integral<T>::value, "integral port");
    return (static_cast<uint64_t>(sig) >> lsb) & field_mask(width);
}

// A field of up to 64 bits spans at most three 32-bit words of a VlWide. These run for
// every port of every router in every cycle, hence the unrolled, division-free form.
template <std::size_t N>
inline uint64_t get_bits(const VlWide<N>& sig, int lsb, int width)
{
    const unsigned w = static_cast<unsigned>(lsb) >> 5, sh = static_cast<unsigned>(lsb) & 31;
    const unsigned want = static_cast<unsigned>(width);
    uint64_t v = static_cast<uint64_t>(sig[w]) >> sh;
    unsigned got = 32 - sh;
    if (got < want && w + 1 < N) {
        v |= static_cast<uint64_t>(sig[w + 1]) << got;
        got += 32;
        if (got < want && w + 2 < N) v |= static_cast<uint64_t>(sig[w + 2]) << got;
    }
    return v & field_mask(width);
}

template <typename T>
inline void set_bits(T& sig, int lsb, int width, uint64_t value)
{
    static_assert(std::is_integral<T>::value, "integral port");
    uint64_t m = field_mask(width) << lsb;
    sig = static_cast<T>((static_cast<uint64_t>(sig) & ~m) | ((value << lsb) & m));
}

template <std::size_t N>
inline void set_bits(VlWide<N>& sig, int lsb, int width, uint64_t value)
{
    unsigned bit = static_cast<unsigned>(lsb);
    unsigned left = static_cast<unsigned>(width);
    while (left) {
        const unsigned w = bit >> 5, sh = bit & 31;
        const unsigned take = left < 32 - sh ? left : 32 - sh;
        const uint32_t m = static_cast<uint32_t>(field_mask(static_cast<int>(take)) << sh);
        sig[w] = (sig[w] & ~m) | (static_cast<uint32_t>(value << sh) & m);
        value >>= take;
        bit += take;
        left -= take;
    }
}

template <typename T>
inline void clear_bits(T& sig)
{
    sig = 0;
}

template <std::size_t N>
inline void clear_bits(VlWide<N>& sig)
{
    for (std::size_t k = 0; k < N; ++k) sig[k] = 0;
}

#endif
