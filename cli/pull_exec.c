/* perfdelta pull in perfdelta: replaces the process with perfdelta-pull, which holds the
 * network code, so that perfdelta itself does not load libcurl. */
#include "cli/exec.h"
#include "cli/pull.h"

static int handoff(char **argv, struct pd_err *err)
{
	return pd_cli_exec("perfdelta-pull", argv, err);
}

const struct pd_cli_puller pd_cli_puller = {.handoff = handoff};
