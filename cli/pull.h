/* How `perfdelta pull` runs. perfdelta links cli/pull_exec.c, which hands the command line
 * to perfdelta-pull in its own directory, so that only perfdelta-pull loads libcurl and its
 * libraries (7.5 ms at every start of every command); perfdelta-pull links
 * cli/pull_run.c, which pulls. Each binary's pd_cli_puller holds the one way it has. */
#ifndef PD_CLI_PULL_H
#define PD_CLI_PULL_H

#include "core/err.h"
#include "fetch/plan.h"

struct pd_cli_puller {
	/* perfdelta: replaces the process with perfdelta-pull given argv (NULL-ended) as it
	 * is; returns only on failure (negative, err set). NULL in perfdelta-pull. */
	int (*handoff)(char **argv, struct pd_err *err);
	/* perfdelta-pull: pulls what o asks for; 0, or a negative PD_E* with err set. NULL
	 * in perfdelta. */
	int (*pull)(const struct pd_plan_opts *o, struct pd_err *err);
};

extern const struct pd_cli_puller pd_cli_puller;

#endif
