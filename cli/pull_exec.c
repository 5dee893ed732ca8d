/* perfdelta pull in perfdelta: replaces the process with perfdelta-pull, which holds the
 * network code, so that perfdelta itself does not load libcurl. */
#include "cli/pull.h"
#include "core/buf.h"
#include "core/file.h"
#include "core/xalloc.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HELPER "perfdelta-pull"

static int handoff(char **argv, struct pd_err *err)
{
	struct pd_buf helper = PD_BUF_INIT;
	char *self = pd_exe_dir();
	char **args;
	size_t argc = 0;
	int rc;
	if (!self)
		return pd_err_at(err, PD_EIO, "/proc/self/exe", 0, 0,
				 "cannot read it to find " HELPER ": %s", strerror(errno));
	pd_buf_addf(&helper, "%s/" HELPER, self);
	free(self);
	while (argv[argc])
		argc++;
	assert(argc >= 2); /* "perfdelta pull" at least */
	args = pd_xcalloc(argc + 1, sizeof(*args));
	args[0] = helper.ptr;
	for (size_t i = 1; i < argc; i++)
		args[i] = argv[i];
	execv(helper.ptr, args);
	rc = pd_err_at(err, PD_EIO, helper.ptr, 0, 0,
		       "cannot run: %s (pull needs " HELPER " installed beside perfdelta)",
		       strerror(errno));
	free(args);
	pd_buf_release(&helper);
	return rc;
}

const struct pd_cli_puller pd_cli_puller = {.handoff = handoff};
