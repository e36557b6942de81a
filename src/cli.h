/* SPDX-License-Identifier: MIT */
/*
 * cli.h - the command line front end as a function, so that more than one program can
 * own main(): src/main.c for `wormcast`, and a SystemC program, whose library wants to
 * call the user's sc_main() from its own main(), for the SystemC harness.
 */
#ifndef WORMCAST_CLI_H
#define WORMCAST_CLI_H

#ifdef __cplusplus
extern "C" {
#endif

/* Runs "wormcast run|sweep|traffic|list ..."; returns the process exit code. */
int wormcast_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
