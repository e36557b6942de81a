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

template <std::size_t N>
inline uint64_t get_bits(const VlWide<N>& sig, int lsb, int width)
{
    uint64_t v = 0;
    for (int got = 0; got < width;) {
        int bit = lsb + got;
        int take = 32 - bit % 32;
        if (take > width - got) take = width - got;
        uint64_t part = (static_cast<uint64_t>(sig[bit / 32]) >> (bit % 32)) & field_mask(take);
        v |= part << got;
        got += take;
    }
    return v;
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
    for (int put = 0; put < width;) {
        int bit = lsb + put;
        int take = 32 - bit % 32;
        if (take > width - put) take = width - put;
        uint32_t m = static_cast<uint32_t>(field_mask(take) << (bit % 32));
        uint32_t v = static_cast<uint32_t>(((value >> put) & field_mask(take)) << (bit % 32));
        sig[bit / 32] = (sig[bit / 32] & ~m) | v;
        put += take;
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
