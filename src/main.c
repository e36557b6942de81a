/* SPDX-License-Identifier: MIT */
/* main.c - the `wormcast` program: the command line front end and nothing else. */
#include "cli.h"

int main(int argc, char **argv)
{
	return wormcast_main(argc, argv);
}
