// SPDX-License-Identifier: MIT
//
// sc_main.cpp - the `wormcast-sc` program.  SystemC's library owns main() (it sets up
// the kernel and then calls sc_main()), so the command line front end runs from here;
// its rtl and cosim engines are the network tops under the SystemC kernel
// (rtl_configs_sc.cpp).
#include <cstdlib>

#include <systemc>

#include "cli.h"

namespace {

// SystemC prints its banner to stderr from its main(), before sc_main(); a static
// initializer of the program runs earlier.  Without it every error of the CLI would be
// five lines instead of one.  A value the user set is kept.
const int quiet_banner = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);

}  // namespace

int sc_main(int argc, char** argv)
{
    return wormcast_main(argc, argv);
}
