/* compare given the ticket's links (docs/reference.md, "Comparing from URLs"): a Jenkins
 * build URL in place of a bundle is pulled first into the cache directory, and a cbmonitor
 * comparison URL (/reports/html/?snapshot=A&snapshot=B) stands for its snapshots. */
#ifndef PD_CLI_FETCH_ARGS_H
#define PD_CLI_FETCH_ARGS_H

#include "core/err.h"
#include "core/model.h"
#include "fetch/plan.h"

/* Replaces every URL among args[0..n) by the bundle it is pulled into (out owns the
 * strings): a build URL gives CACHE/builds/<url made a name>, a comparison URL one
 * CACHE/snapshots/<name> per snapshot (from its host's perfdb, port 8080, unless
 * po->perfdb). A bundle already there is reused; else perfdelta-pull (beside perfdelta)
 * pulls it with po's options. CACHE is $PERFDELTA_CACHE, else $XDG_CACHE_HOME/perfdelta,
 * else $HOME/.cache/perfdelta. */
int pd_fetch_args(struct pd_strv *out, const char *const *args, size_t n,
		  const struct pd_plan_opts *po, int quiet, struct pd_err *err);

#endif
