#include "tails_slow.h"
#include "analyze/align/latency.h"
#include "analyze/align/window.h"

size_t pd_tails_slow_of(struct pd_tails_slow *out, const struct pd_comparison *c,
			enum pd_phase phase, double z)
{
	long views[PD_STORY_N_SLOW], all = pd_latency_slow_views(c, views);
	size_t n = 0, from, to;
	if (all < 0 || !pd_comparison_has_phase(c, phase))
		return 0;
	const struct pd_view *va = &c->views[all];
	pd_window_range(va, &c->windows[phase], &from, &to);
	for (size_t k = 0; k < PD_STORY_N_SLOW; k++) {
		if (views[k] < 0)
			continue;
		const struct pd_view *v = &c->views[views[k]];
		struct pd_tails_slow *o = &out[n++];
		o->bound_ms = pd_story_slow_ms[k];
		pd_tails_share_of(&o->base, v->base + from, va->base + from, to - from,
				  v->step_s);
		pd_tails_share_of(&o->target, v->target + from, va->target + from, to - from,
				  v->step_s);
		pd_tails_share_delta_of(&o->delta, &o->base, &o->target, z);
	}
	return n;
}
