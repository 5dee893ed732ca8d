/* The config diff: which settings differ between two runs, the first thing a reviewer
 * checks before trusting an A/B comparison. Pure: reads two struct pd_run, no I/O.
 *
 * Compared, in this order of sources:
 *   test     every key of the .test (run->test), by [section] key: the test class
 *            ([test_case] test), [cluster] initial_nodes, [access] n1ql_shutdown_type,
 *            [access] workers, ... as the files spell them (no perfrunner defaults are
 *            filled in: a key written in one file and left to its default in the other
 *            is added or removed);
 *   spec     every key of the .spec (run->spec); the values of [clusters] are read as
 *            one server per line ("host:services[:group]") and compared per host, so that
 *            an extra node is one added entry (item = its host); when the servers both
 *            lists share come in another order, one more changed entry (item NULL) holds
 *            both whole lists, since the run's cluster is the first initial_nodes of them;
 *   build    the build under test: the Jenkins parameter "version", else the build of
 *            the first showfast KPI (the rule of summary.json's "build");
 *   jenkins  the build's parameters by name ("cluster", "test_config", "dry_run", ...),
 *            "version" left out (it is the build entry).
 * A source that one side lacks (no .test, no .spec, no Jenkins build) is not compared
 * (every key would differ): its bit is set in missing_base or missing_target instead.
 *
 * Order (deterministic, the order a person reads the files in): by source; within one,
 * sections in the order they first appear in the baseline, then the target's others;
 * within a section, keys (and server lines) in the baseline's file order, then the
 * target's others in its order. A key repeated in one section counts once, its first
 * value (as pd_ini_get reads it). Cost: O(n log n) in the entries. */
#ifndef PD_CONFIGDIFF_H
#define PD_CONFIGDIFF_H

#include "tree/tree.h"
#include "core/model.h"

#include <stddef.h>

/* The differences between base's and target's configs into *out (never NULL; caller
 * frees with pd_configdiff_free). Cannot fail (out of memory aborts). */
void pd_configdiff_build(struct pd_configdiff **out, const struct pd_run *base,
			 const struct pd_run *target);
/* Frees d and every string of it; NULL is a no-op. */
void pd_configdiff_free(struct pd_configdiff *d);

#endif
