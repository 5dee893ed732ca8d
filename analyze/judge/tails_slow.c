#include "tails_slow.h"
#include "core/buf.h"

/* The grid points [*from, *to) of v inside w (t = i step_s, start_s <= t < end_s). */
static void window_span(size_t *from, size_t *to, const struct pd_view *v,
			const struct pd_window *w)
{
	*from = *to = 0;
	while (*from < v->n && (double)*from * v->step_s < w->start_s)
		(*from)++;
	for (*to = *from; *to < v->n && (double)*to * v->step_s < w->end_s;)
		(*to)++;
}

size_t pd_tails_slow_of(struct pd_tails_slow *out, const struct pd_comparison *c,
			enum pd_phase phase, double z)
{
	long all = pd_comparison_view(c, "n1ql_stats/query_requests", PD_AT_CLUSTER, 0, NULL);
	struct pd_buf name = PD_BUF_INIT;
	size_t n = 0, from, to;
	if (all < 0 || !pd_comparison_has_phase(c, phase))
		return 0;
	const struct pd_view *va = &c->views[all];
	window_span(&from, &to, va, &c->windows[phase]);
	for (size_t k = 0; k < PD_STORY_N_SLOW; k++) {
		pd_buf_truncate(&name, 0);
		pd_buf_addf(&name, "n1ql_stats/query_requests_%dms", pd_story_slow_ms[k]);
		long vi = pd_comparison_view(c, name.ptr, PD_AT_CLUSTER, 0, NULL);
		if (vi < 0 || c->views[vi].n != va->n)
			continue;
		const struct pd_view *v = &c->views[vi];
		struct pd_tails_slow *o = &out[n++];
		o->bound_ms = pd_story_slow_ms[k];
		pd_tails_share_of(&o->base, v->base + from, va->base + from, to - from,
				  v->step_s);
		pd_tails_share_of(&o->target, v->target + from, va->target + from, to - from,
				  v->step_s);
		pd_tails_share_delta_of(&o->delta, &o->base, &o->target, z);
	}
	pd_buf_release(&name);
	return n;
}
