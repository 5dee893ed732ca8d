/* perfdelta pull: a run bundle (docs/reference.md "A run bundle") built from a live Jenkins
 * build and perfdb. The plan says which URLs to fetch and where each body goes, in a staging
 * directory beside the bundle; fetch/transfer.c fetches them; the parse/ readers check them.
 * Every name the servers send that becomes a path is checked; the bundle appears whole at the
 * end or not at all, and never in place of something else. */
#ifndef PD_PLAN_H
#define PD_PLAN_H

#include "transfer.h"
#include "../core/err.h"
#include "../core/src.h"

#include <stddef.h>

/* Start from PD_PLAN_OPTS_INIT, which holds the defaults. */
struct pd_plan_opts {
	const char *out;              /* the bundle directory; must not exist */
	const char *jenkins;          /* build URL ".../job/J/N/", or NULL for no jenkins/ */
	int jenkins_xml;              /* fetch api/xml into build.xml instead of api/json */
	const char *perfdb;           /* "http://HOST:8080"; NULL: the console's report host */
	const char *prometheus;       /* the Prometheus path's store (its HTTP API), or NULL */
	const char *cbmonitor2;       /* cbmonitor2 for the snapshot's window, or NULL */
	const char *const *snapshots; /* NULL: the console's "HTML report:" snapshots */
	size_t n_snapshots;
	const char *perfrunner_dir; /* a perfrunner checkout, or NULL for no perfrunner/ */
	const char *jenkins_user;   /* basic auth for Jenkins requests only, or NULL */
	const char *jenkins_token;
	int netrc;              /* credentials from ~/.netrc (CURLOPT_NETRC) */
	const char *netrc_file; /* credentials from this netrc file instead, or NULL */
	unsigned parallel;      /* transfers at once, 1 to PD_TRANSFER_MAX_PARALLEL */
	unsigned retries;       /* tries after the first on 5xx, 408, 429, connection errors */
	long timeout_s;         /* connect and total time of one try, s; 0: none */
	long backoff_ms;        /* first wait before a retry, doubled each time */
	const struct pd_limits *lim; /* max_file_bytes caps every response; NULL: defaults */
	pd_transfer_progress_fn progress; /* called after each answer, or NULL */
	pd_transfer_note_fn note;         /* retries and oddities worth a line, or NULL */
	void *ctx;                        /* passed to progress and note */
};

#define PD_PLAN_OPTS_INIT                                                                      \
	{                                                                                      \
		.parallel = 8, .retries = 3, .timeout_s = 120, .backoff_ms = 500               \
	}

/* Fetches the build's api/json (or api/xml) and consoleText, the snapshots' perfdb
 * databases (those whose name holds a snapshot name), their metric lists and every
 * series, and copies the spec and test config named by the build's cluster and
 * test_config parameters from the perfrunner checkout; then moves the bundle to o->out
 * if nothing has appeared there meanwhile. Errors: PD_EINVAL for options, PD_EIO naming
 * the URL (without credentials) and the HTTP status or curl error, PD_EPARSE for a list
 * or name the servers should not have sent, PD_ELIMIT for a response over
 * lim->max_file_bytes: then nothing is left. PD_EIO naming o->out when it appeared
 * during the pull: it is left as it was, and the bundle stays staged beside it, in the
 * directory the message names. */
int pd_plan_run(const struct pd_plan_opts *o, struct pd_err *err);

#endif
