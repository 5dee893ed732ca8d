/* The exit codes of every binary (perfdelta, perfdelta-pull, perfdelta-history): the one
 * table the programs return, --help states and the man page's EXIT STATUS lists
 * (tests/e2e/manpage.sh holds the three together). */
#ifndef PD_CLI_EXIT_H
#define PD_CLI_EXIT_H

enum pd_exit {
	PD_EXIT_OK = 0,         /* no regression; a command done */
	PD_EXIT_REGRESSION = 1, /* a regression found, with --fail-on regression */
	PD_EXIT_USAGE = 2,      /* a usage error: an unknown flag, a malformed value */
	PD_EXIT_INPUT = 3,      /* an input or output error: one line names the file */
	PD_EXIT_NOTCMP = 4      /* the runs are not comparable */
	/* 128 + the signal on SIGINT (130), SIGQUIT (131), SIGTERM (143), SIGHUP (129):
	 * core/cleanup.h */
};

#endif
