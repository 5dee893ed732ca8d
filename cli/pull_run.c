/* perfdelta pull in perfdelta-pull: the pull itself (fetch/plan.c, over libcurl), for
 * `perfdelta pull` and for compare's URLs alike. */
#include "cli/pull.h"
#include "core/buf.h"
#include "core/url.h"
#include "render/escape.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A password in a URL of the command line is in every user's `ps`: said, once per URL
 * (its text shown without it), with the ways that keep it off the command line. */
static void warn_exposed(const struct pd_plan_opts *o)
{
	const char *const urls[] = {o->jenkins, o->perfdb, o->prometheus, o->cbmonitor2};
	for (size_t i = 0; i < sizeof(urls) / sizeof(*urls); i++) {
		struct pd_buf shown = PD_BUF_INIT, line = PD_BUF_INIT;
		if (!urls[i] || !pd_url_has_password(urls[i]))
			continue;
		pd_url_redact(&shown, urls[i]);
		pd_esc_text(&line, shown.ptr);
		fprintf(stderr,
			"perfdelta: warning: %s was given with its password, which any user of "
			"this machine can read in the process list: put it in a netrc file "
			"(--netrc, or PERFDELTA_NETRC=FILE) or, for Jenkins, in "
			"PERFDELTA_JENKINS_USER and PERFDELTA_JENKINS_TOKEN\n",
			line.ptr);
		pd_buf_release(&shown), pd_buf_release(&line);
	}
}

static int pull(const struct pd_plan_opts *o, struct pd_err *err)
{
	struct pd_plan_opts p = *o;
	const char *netrc = getenv("PERFDELTA_NETRC");
	warn_exposed(o);
	if (netrc && *netrc) {
		if (access(netrc, R_OK) < 0)
			return pd_err_at(err, PD_EINVAL, netrc, 0, 0,
					 "cannot read the netrc file PERFDELTA_NETRC names: %s",
					 strerror(errno));
		p.netrc_file = netrc;
	}
	return pd_plan_run(&p, err);
}

const struct pd_cli_puller pd_cli_puller = {.pull = pull};
