/* SPDX-License-Identifier: MIT */
/*
 * cli.c - the command line: which command, its options, its help, and the one place
 * where an error is printed and the exit status decided (failure.h).
 */
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "failure.h"
#include "help.h"
#include "options.h"
#include "outfile.h"

/*
 * The signal that asked the run to stop, 0 if none: the program's one global, as a
 * signal handler may set nothing else.  The cycle loop reads it (sim_config.stop).
 */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/*
 * Ctrl-C (SIGINT) and SIGTERM end a run cleanly at the next cycle, with a partial
 * report marked interrupted; SA_RESETHAND: a second one kills at once.
 */
static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESETHAND };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* docs/config.md into path, atomically (util/outfile.h). */
static int write_markdown(const char *path, struct failure *f)
{
	struct outfile *out = outfile_open(path);

	if (!out)
		return errno == ENOMEM ? fail_no_memory(f)
				       : failf(f, EXIT_USAGE, "cannot write '%s': %s", path,
					       strerror(errno));
	help_markdown(outfile_stream(out));
	if (outfile_commit(out))
		return failf(f, EXIT_FAILED, "cannot write '%s': %s", path, strerror(errno));
	return EXIT_PASSED;
}

/*
 * "wormcast help", "wormcast help COMMAND", "wormcast help --markdown [FILE]" (the
 * options' page, docs/config.md, on stdout or into FILE).
 */
static int cmd_help(int argc, char **argv, struct failure *f)
{
	int c;

	if (argc == 2) {
		help_overview(stdout);
		return EXIT_PASSED;
	}
	if ((argc == 3 || argc == 4) && !strcmp(argv[2], "--markdown")) {
		if (argc == 4)
			return write_markdown(argv[3], f);
		help_markdown(stdout);
		return EXIT_PASSED;
	}
	c = argc == 3 ? command_find(argv[2]) : -1;
	if (c < 0)
		return failf(f, EXIT_USAGE, "usage: wormcast help [COMMAND | --markdown [FILE]]");
	help_command(stdout, (enum command)c);
	return EXIT_PASSED;
}

/* "run, sweep, ... or list": the commands, from the table. */
static const char *commands_text(char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (int c = 0; c < N_COMMANDS && k < len; c++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s", c == 0 ? "" : c == N_COMMANDS - 1
								 ? " or " : ", ",
				      command_name((enum command)c));
	return buf;
}

static int dispatch(int argc, char **argv, struct failure *f)
{
	struct options o;
	char names[256];
	bool help;
	int c;

	if (argc < 2)
		return failf(f, EXIT_USAGE, "no command (%s; see 'wormcast --help')",
			     commands_text(names, sizeof(names)));
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		help_overview(stdout);
		return EXIT_PASSED;
	}
	if (!strcmp(argv[1], "help"))
		return cmd_help(argc, argv, f);
	c = command_find(argv[1]);
	if (c < 0)
		return failf(f, EXIT_USAGE, "unknown command '%s' (expected %s; see 'wormcast "
			     "--help')", argv[1], commands_text(names, sizeof(names)));
	if (options_parse(&o, (enum command)c, argc - 1, argv + 1, &help, f))
		return -1;
	if (help) {
		help_command(stdout, (enum command)c);
		return EXIT_PASSED;
	}
	catch_signals();
	return command_run(&o, &stop_signal, f);
}

/*
 * Standard output carries the report: a report that did not reach it (a full disk,
 * a closed pipe) is a failure, not a success.
 */
static int flush_stdout(struct failure *f)
{
	/* errno is that of the first write: the buffer holds everything until here. */
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	return failf(f, EXIT_FAILED, "cannot write the standard output%s%s",
		     errno ? ": " : "", errno ? strerror(errno) : "");
}

/*
 * Standard output, unless it is a terminal (a sweep shows its rows as they come),
 * keeps the whole report in one large buffer: the first write that fails is then the
 * final flush, whose errno says why (stdio forgets the reason of an earlier failure).
 */
static void buffer_stdout(void)
{
	const size_t size = 1 << 20;
	char *buf;

	if (isatty(STDOUT_FILENO))
		return;
	buf = malloc(size);
	if (buf)
		setvbuf(stdout, buf, _IOFBF, size);
}

int wormcast_main(int argc, char **argv)
{
	struct failure f = { 0 }, out = { 0 };
	int status;

	buffer_stdout();
	status = dispatch(argc, argv, &f);

	if (status < 0) {
		fprintf(stderr, "wormcast: %s\n", f.msg);
		status = f.status;
	}
	if (flush_stdout(&out)) {
		fprintf(stderr, "wormcast: %s\n", out.msg);
		if (status == EXIT_PASSED)
			status = out.status;
	}
	return status;
}
