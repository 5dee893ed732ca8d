/* Handing a command line over to a helper binary installed beside perfdelta
 * (perfdelta-pull, perfdelta-history), so that perfdelta itself loads neither libcurl
 * nor libpq. */
#ifndef PD_CLI_EXEC_H
#define PD_CLI_EXEC_H

#include "core/err.h"

/* Replaces the process with helper (a file name beside the running binary) given argv
 * (NULL-ended) with argv[0] replaced; returns only on failure (negative, err set). */
int pd_cli_exec(const char *helper, char **argv, struct pd_err *err);

/* Replaces the process with perfdelta beside the running binary, given argv. */
int pd_cli_exec_perfdelta(char **argv, struct pd_err *err);

/* 1 when argv (perfdelta's) is a history command: `history`, `signature`, `compare
 * --baseline-history`, `demo --history`. */
int pd_cli_is_history(int argc, char **argv);

#endif
