#include "render.h"

const char *pd_render_label(const struct pd_run *run, const char *flag)
{
	if (flag)
		return flag;
	if (run->jenkins.present && run->jenkins.full_display_name)
		return run->jenkins.full_display_name;
	return run->dir;
}
