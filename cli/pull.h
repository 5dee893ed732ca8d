/* How `perfdelta pull` runs. perfdelta links cli/pull_exec.c, which runs perfdelta-pull
 * from its own directory with the same arguments, so that only perfdelta-pull loads
 * libcurl and its libraries (7.5 ms at every start of every command); perfdelta-pull links
 * cli/pull_run.c, which pulls. */
#ifndef PD_CLI_PULL_H
#define PD_CLI_PULL_H

#include "core/err.h"
#include "parse/pull.h"

/* Pulls what o asks for; argv is the command line that o was parsed from (NULL-ended).
 * Returns 0, or a negative PD_E* with err set. pull_exec.c returns only on failure: on
 * success perfdelta-pull replaces the process and its exit status is pull's. */
int pd_cli_pull(const struct pd_pull_opts *o, char **argv, struct pd_err *err);

#endif
