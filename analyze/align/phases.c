#include "phases.h"
#include "analyze/opts.h"
#include "scope.h"

#include <math.h>

/* The run with the event defines the phases, on either side (docs/report.md "Phases"); on the
 * baseline's side its times are moved onto the common grid (by base_shift_s, 0 then). */
void pd_phases_set(struct pd_comparison *c, double settle_s)
{
	const struct pd_timebase *tb = pd_comparison_event(c);
	double len = c->length_s, shift = c->event_side < 0 ? c->base_shift_s : 0;
	double e = tb->event_s - shift, te;
	for (int p = 0; p < PD_PHASE_COUNT; p++)
		c->windows[p] = (struct pd_window){.phase = (enum pd_phase)p};
	c->windows[PD_PHASE_WHOLE] = (struct pd_window){PD_PHASE_WHOLE, 0, len};
	c->has_event = c->event_side != 0;
	c->event_t_s = c->has_event ? e : NAN;
	if (!c->has_event)
		return;
	te = (tb->rebalance_end_s.ok && tb->rebalance_end_s.value > tb->event_s
		      ? tb->rebalance_end_s.value - shift
		      : e) +
	     settle_s;
	if (te > len)
		te = len;
	c->windows[PD_PHASE_PRE] = (struct pd_window){PD_PHASE_PRE, 0, e};
	c->windows[PD_PHASE_TRANSIENT] = (struct pd_window){PD_PHASE_TRANSIENT, e, te};
	c->windows[PD_PHASE_POST] = (struct pd_window){PD_PHASE_POST, te, len};
}
