/* Handing a command line over to a helper binary beside perfdelta (exec.h). */
#include "cli/exec.h"
#include "core/buf.h"
#include "core/file.h"
#include "core/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int pd_cli_exec(const char *helper, char **argv, struct pd_err *err)
{
	struct pd_buf path = PD_BUF_INIT;
	char *self = pd_exe_dir();
	char **args;
	size_t argc = 0;
	int rc;
	if (!self)
		return pd_err_at(err, PD_EIO, "/proc/self/exe", 0, 0,
				 "cannot read it to find %s: %s", helper, strerror(errno));
	pd_buf_addf(&path, "%s/%s", self, helper);
	free(self);
	while (argv[argc])
		argc++;
	args = pd_xcalloc(argc + 1, sizeof(*args));
	args[0] = path.ptr;
	for (size_t i = 1; i < argc; i++)
		args[i] = argv[i];
	execv(path.ptr, args);
	rc = pd_err_at(err, PD_EIO, path.ptr, 0, 0,
		       "cannot run: %s (%s needs %s installed beside perfdelta)",
		       strerror(errno), argc > 1 ? argv[1] : "perfdelta", helper);
	free(args);
	pd_buf_release(&path);
	return rc;
}

int pd_cli_exec_perfdelta(char **argv, struct pd_err *err)
{
	return pd_cli_exec("perfdelta", argv, err);
}

/* Whether flag is among the options (before "--"), spelt as the parsers take it
 * (cli/flags.h: "--flag VALUE", never "--flag=VALUE"). */
static int has_flag(int argc, char **argv, const char *flag)
{
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return 0;
		if (!strcmp(argv[i], flag))
			return 1;
	}
	return 0;
}

int pd_cli_is_history(int argc, char **argv)
{
	if (argc < 2)
		return 0;
	if (!strcmp(argv[1], "history") || !strcmp(argv[1], "signature"))
		return 1;
	if (!strcmp(argv[1], "compare")) /* --db alone: the history's run-to-run spreads */
		return has_flag(argc, argv, "--baseline-history") ||
		       has_flag(argc, argv, "--db");
	if (!strcmp(argv[1], "demo"))
		return has_flag(argc, argv, "--history");
	return 0;
}
