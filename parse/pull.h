/* perfdelta pull: a run bundle (DESIGN 3.2) built from a live Jenkins build and perfdb,
 * over HTTP with libcurl. Every name the servers send that becomes a path is checked;
 * the bundle is written atomically, so a failed pull leaves nothing. */
#ifndef PD_PULL_H
#define PD_PULL_H

#include "../core/err.h"
#include "../core/src.h"

#include <stddef.h>

struct pd_pull_progress {
	size_t done;    /* requests answered */
	size_t total;   /* requests known so far (it grows as the lists arrive) */
	size_t bytes;   /* body bytes received */
	size_t retries; /* requests tried again so far */
	int finished;   /* 1 on the last call */
};

typedef void (*pd_pull_progress_fn)(void *ctx, const struct pd_pull_progress *p);
typedef void (*pd_pull_note_fn)(void *ctx, const char *msg);

/* NULL or 0 means the default in parentheses (retries: 0 means none). */
struct pd_pull_opts {
	const char *out;              /* the bundle directory; must not exist yet */
	const char *jenkins;          /* build URL ".../job/J/N/", or NULL for no jenkins/ */
	int jenkins_xml;              /* fetch api/xml into build.xml instead of api/json */
	const char *perfdb;           /* "http://HOST:8080"; NULL: the console's report host */
	const char *const *snapshots; /* NULL: the console's "HTML report:" snapshots */
	size_t n_snapshots;
	const char *perfrunner_dir; /* a perfrunner checkout, or NULL for no perfrunner/ */
	const char *jenkins_user;   /* basic auth for Jenkins requests only, or NULL */
	const char *jenkins_token;
	int netrc;                    /* credentials from ~/.netrc (CURLOPT_NETRC) */
	unsigned parallel;            /* transfers at once (8, at most 64) */
	unsigned retries;             /* tries after the first on 5xx, 408, 429 and connection
					 errors (3; PD_PULL_OPTS_INIT sets it) */
	long timeout_s;               /* connect and total time of one try, s (120) */
	long backoff_ms;              /* first wait before a retry, doubled each time (500) */
	const struct pd_limits *lim;  /* max_file_bytes caps every response (NULL: defaults) */
	pd_pull_progress_fn progress; /* called after each answer, or NULL */
	pd_pull_note_fn note;         /* retries and oddities worth a line, or NULL */
	void *ctx;                    /* passed to progress and note */
};

#define PD_PULL_OPTS_INIT                                                                      \
	{                                                                                      \
		NULL, NULL, 0, NULL, NULL, 0, NULL, NULL, NULL, 0, 8, 3, 120, 500, NULL, NULL, \
			NULL, NULL                                                             \
	}

/* Fetches the build's api/json (or api/xml) and consoleText, the snapshots' perfdb
 * databases (those whose name holds a snapshot name), their metric lists and every
 * series, and the spec and test config named by the build's cluster and test_config
 * parameters from the perfrunner checkout; writes them into o->out. Errors: PD_EINVAL
 * for options, PD_EIO naming the URL (without credentials) and the HTTP status or curl
 * error, PD_EPARSE for a list or name the servers should not have sent, PD_ELIMIT for a
 * response over lim->max_file_bytes. On error nothing is left at o->out. */
int pd_pull(const struct pd_pull_opts *o, struct pd_err *err);

#endif
