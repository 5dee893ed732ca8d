/* A run bundle (docs/reference.md "A run bundle"): a directory, or a .tar, .tar.gz or .zip of
 * one. */
#ifndef PD_BUNDLE_H
#define PD_BUNDLE_H

#include "../core/model.h"
#include "../core/src.h"

/* Reads the bundle at path into *out (caller frees with pd_run_free). Missing optional
 * parts are recorded in run->notes; malformed ones fail with the file and place. */
int pd_bundle_load(struct pd_run **out, const char *path, const struct pd_limits *lim,
		   struct pd_err *err);

/* Reads n bundles at once (each but the last on a thread of its own) into runs[0..n). On
 * failure every runs[i] is NULL and err holds the error of the first path (in order) that
 * failed: the same message whatever the timing. */
int pd_bundle_load_many(struct pd_run **runs, const char *const *paths, size_t n,
			const struct pd_limits *lim, struct pd_err *err);

/* Reads two bundles at once (the baseline on a second thread). On failure both are NULL
 * and err holds the baseline's error if it failed, else the target's: the same message
 * whatever the timing. */
int pd_bundle_load_pair(struct pd_run **base, struct pd_run **target, const char *base_path,
			const char *target_path, const struct pd_limits *lim,
			struct pd_err *err);

#endif
