// SPDX-License-Identifier: MIT
//
// vl_hooks.h - forced into every compilation of the Verilated RTL and of its runtime
// (cosim/CMakeLists.txt, -include), before Verilator's headers:
//   - Verilator's own messages, chiefly "Assertion failed in ..." from the RTL's
//     assertions (rtl/wc_assert.vh), go to stderr: stdout holds the run's report or
//     JSON. (The RTL has no $display of its own.)
//   - A failed assertion ($error) marks the context as failed and finished and prints
//     nothing more (vl_stop_maybe, in vl_hooks.cpp): Verilator's default would add a
//     "Verilog $stop" line per failure. The engine ends the run (rtl_engine.cpp).
#ifndef WORMCAST_VL_HOOKS_H
#define WORMCAST_VL_HOOKS_H

#include <cstdio>

#define VL_PRINTF(...) std::fprintf(stderr, __VA_ARGS__)
#define VL_VPRINTF(fmt, args) std::vfprintf(stderr, fmt, args)

#define VL_USER_STOP_MAYBE
void vl_stop_maybe(const char* filename, int linenum, const char* hier, bool maybe);

#endif
