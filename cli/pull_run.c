/* perfdelta pull in perfdelta-pull: the pull itself (parse/pull.c, over libcurl). */
#include "cli/pull.h"

int pd_cli_pull(const struct pd_pull_opts *o, char **argv, struct pd_err *err)
{
	(void)argv; /* already parsed into o */
	return pd_pull(o, err);
}
