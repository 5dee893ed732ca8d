/* compare given the ticket's links (docs/reference.md, "Comparing from URLs"): a Jenkins
 * build URL in place of a bundle is pulled first into the cache directory, and a cbmonitor
 * comparison URL (/reports/html/?snapshot=A&snapshot=B) stands for its snapshots. */
#ifndef PD_CLI_FETCH_ARGS_H
#define PD_CLI_FETCH_ARGS_H

#include "core/err.h"
#include "core/model.h"
#include "fetch/plan.h"

/* compare's --jenkins URLs: the builds of a comparison URL's snapshots, in order. */
struct pd_fetch_builds {
	const char *const *v;
	size_t n;
};

/* Replaces every URL among args[0..n) by the bundle it is pulled into (out owns the
 * strings): a build URL gives CACHE/builds/<url made a name>, a comparison URL one
 * CACHE/snapshots/<name> per snapshot (from its host's perfdb, port 8080, unless
 * po->perfdb), or, with builds (one per snapshot, else PD_EINVAL), the snapshot pulled
 * with its build's Jenkins outputs into CACHE/builds/<build>_snapshot_<name>. A bundle
 * already there is reused; else perfdelta-pull (beside perfdelta) pulls it with po's
 * options, under an flock of CACHE/locks/<kind>_<name>.lock so that concurrent compares pull an
 * entry once. CACHE is $PERFDELTA_CACHE, else $XDG_CACHE_HOME/perfdelta, else
 * $HOME/.cache/perfdelta. */
int pd_fetch_args(struct pd_strv *out, const char *const *args, size_t n,
		  const struct pd_plan_opts *po, const struct pd_fetch_builds *builds,
		  int quiet, struct pd_err *err);

#endif
