#include "render.h"

#include <string.h>

const char *pd_render_bundle_name(const struct pd_run *run)
{
	const char *dir = run->dir ? run->dir : "";
	size_t len = strlen(dir);
	while (len > 1 && dir[len - 1] == '/') /* "runs/base/" is named "base/" */
		len--;
	const char *name = dir + len;
	while (name > dir && name[-1] != '/')
		name--;
	return *name ? name : dir;
}

const char *pd_render_label(const struct pd_run *run, const char *flag)
{
	if (flag)
		return flag;
	if (run->jenkins.present && run->jenkins.full_display_name)
		return run->jenkins.full_display_name;
	return pd_render_bundle_name(run);
}
