// SPDX-License-Identifier: MIT
//
// vl_hooks.cpp - the definitions vl_hooks.h promises, compiled into wormcast beside
// Verilator's runtime (cosim/CMakeLists.txt) and exported to every plugin.
#include "verilated.h"

// Replaces Verilator's vl_stop_maybe (vl_hooks.h), which $error calls after printing
// "Assertion failed in ...": count the error and let the engine end the run at the end
// of the cycle (RtlNetwork::assertion_failed), without the "Verilog $stop" line.
void vl_stop_maybe(const char* filename, int linenum, const char* hier, bool maybe)
{
    (void)filename;
    (void)linenum;
    (void)hier;
    (void)maybe;
    VerilatedContext* c = Verilated::threadContextp();
    c->errorCountInc();
    c->gotError(true);
    c->gotFinish(true);
}
