#include "render.h"

#include <string.h>

const char *pd_render_bundle_name(const struct pd_run *run)
{
	return pd_render_file_name(run->dir);
}

const char *pd_render_file_name(const char *path)
{
	const char *dir = path ? path : "";
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

void pd_render_agg(struct pd_buf *b, const struct pd_view *v)
{
	int cluster = v->scope.kind == PD_AT_CLUSTER;
	if (v->agg == PD_AGG_ONE || v->members < 2) {
		pd_buf_adds(b, cluster ? "one series" : "one node");
		return;
	}
	pd_buf_addf(b, "%s of %zu %s", pd_agg_name(v->agg), v->members,
		    cluster ? "buckets" : "nodes");
	if (v->members_after) /* a role that loses the removed node at the event */
		pd_buf_addf(b, ", %zu after the event", v->members_after);
}

void pd_render_stated(struct pd_buf *b, const struct pd_stated *s)
{
	switch (s->kind) {
	case PD_STATED_PCT:
		pd_buf_addf(b, "%+.1f%%", s->value);
		break;
	case PD_STATED_COUNT:
		pd_buf_addf(b, "%+.0f events", s->value);
		break;
	case PD_STATED_ABS:
		pd_buf_addf(b, "%+.4g", s->value);
		break;
	case PD_STATED_NONE:
		pd_buf_adds(b, "-");
		break;
	}
}

void pd_render_stated_ci(struct pd_buf *b, const struct pd_stated *s)
{
	switch (s->kind) {
	case PD_STATED_PCT:
		pd_buf_addf(b, "%+.1f%% to %+.1f%%", s->lo, s->hi);
		break;
	case PD_STATED_COUNT:
		pd_buf_addf(b, "%+.0f to %+.0f", s->lo, s->hi);
		break;
	case PD_STATED_ABS:
		pd_buf_addf(b, "%+.4g to %+.4g", s->lo, s->hi);
		break;
	case PD_STATED_NONE:
		pd_buf_adds(b, "-");
		break;
	}
}
