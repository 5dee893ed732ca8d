#include "bundle.h"
/* placeholder: being written */
int pd_bundle_load(struct pd_run **out, const char *path, const struct pd_limits *lim,
		   struct pd_err *err)
{
	(void)lim;
	*out = NULL;
	return pd_err_set(err, PD_EINVAL, "%s: bundle reader not written yet", path);
}
