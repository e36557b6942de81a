// SPDX-License-Identifier: MIT
//
// vl_vcd_file.h - where Verilator's VCD writer writes: a stdio stream the front end
// opened (util/outfile.h: a temporary file renamed at the end, or a device), instead
// of the file Verilator would open by name itself.
//
// Why: when a write fails (a full disk, /dev/full), Verilator 5's VerilatedVcd::
// bufferFlush() calls VL_FATAL_MT while it holds the trace's mutex; the fatal path runs
// the flush callbacks, whose first act is to take that same mutex again: the process
// hangs forever (`run --engine rtl --vcd /dev/full` did).  This file never reports a
// failure to Verilator: it keeps the first error, drops the rest of the data, and
// the engine reports the error after the run (and the waveform is not committed).
#ifndef WORMCAST_VL_VCD_FILE_H
#define WORMCAST_VL_VCD_FILE_H

#include <cerrno>
#include <cstdio>
#include <string>

#include "verilated_vcd_c.h"

class StreamVcdFile final : public VerilatedVcdFile {
public:
    explicit StreamVcdFile(FILE* f) : f_(f) {}

    // Verilator opens by name: the stream is already open.
    bool open(const std::string&) override { return true; }

    void close() override
    {
        if (!error_ && fflush(f_)) error_ = errno ? errno : EIO;
    }

    ssize_t write(const char* buf, ssize_t len) override
    {
        if (!error_ && fwrite(buf, 1, static_cast<size_t>(len), f_) != static_cast<size_t>(len))
            error_ = errno ? errno : EIO;
        return len;  // never a failure to Verilator (see above)
    }

    // The first write error (an errno value), 0 if none.
    int error() const { return error_; }

private:
    FILE* f_;
    int error_ = 0;
};

#endif
