/* perfdelta pull in perfdelta: replaces the process with perfdelta-pull, which holds the
 * network code, so that perfdelta itself does not load libcurl. */
#include "cli/pull.h"
#include "core/buf.h"
#include "core/xalloc.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HELPER "perfdelta-pull"

/* The running executable's path (caller frees), or NULL with errno set. From
 * /proc/self/exe rather than argv[0], which may be a bare name found on PATH. */
static char *self_path(void)
{
	for (size_t cap = 256;; cap *= 2) {
		char *p = pd_xmalloc(cap);
		ssize_t n = readlink("/proc/self/exe", p, cap);
		int e = errno;
		if (n >= 0 && (size_t)n < cap) {
			p[n] = '\0';
			return p;
		}
		free(p);
		if (n < 0) {
			errno = e;
			return NULL;
		}
	}
}

int pd_cli_pull(const struct pd_pull_opts *o, char **argv, struct pd_err *err)
{
	struct pd_buf helper = PD_BUF_INIT;
	char *self = self_path(), *slash;
	char **args;
	size_t argc = 0;
	int rc;
	(void)o; /* perfdelta-pull parses the same options from argv */
	if (!self)
		return pd_err_at(err, PD_EIO, "/proc/self/exe", 0, 0,
				 "cannot read it to find " HELPER ": %s", strerror(errno));
	slash = strrchr(self, '/');
	pd_buf_add(&helper, self, slash ? (size_t)(slash - self + 1) : 0);
	pd_buf_adds(&helper, HELPER);
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
