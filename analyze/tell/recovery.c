#include "recovery.h"
#include "analyze/opts.h"
#include "analyze/align/scope.h"
#include "finding.h"
#include "analyze/align/window.h"
#include "words.h"
#include "analyze/policy.h"

#include <math.h>
#include <stdlib.h>

/* The grid point of the lowest value of x in the PD_POLICY_DIP_WINDOW_S from point e on. */
static size_t lowest_after(const struct pd_view *v, const double *x, size_t e)
{
	size_t lo = e;
	for (size_t i = e; i < v->n && (double)(i - e) * v->step_s <= PD_POLICY_DIP_WINDOW_S;
	     i++)
		if (!isnan(x[i]) && (isnan(x[lo]) || x[i] < x[lo]))
			lo = i;
	return lo;
}

/* The first grid point from lo on that starts PD_POLICY_RECOVERED_POINTS values of x in a
 * row within thr (a fraction) of ref, or v->n when there is none. */
static size_t back_at(const struct pd_view *v, const double *x, size_t lo, double ref,
		      double thr)
{
	size_t run = 0;
	for (size_t i = lo; i < v->n; i++) {
		run = fabs(x[i] / ref - 1) <= thr ? run + 1 : 0;
		if (run == PD_POLICY_RECOVERED_POINTS)
			return i + 1 - PD_POLICY_RECOVERED_POINTS;
	}
	return v->n;
}

/* One side's dip at the phases' event; from PD_POLICY_EVENT_SLACK points before it, so
 * that a late event time does not start the search after the dip it caused. */
static struct pd_dip measure(const struct pd_comparison *c, const struct pd_view *v,
			     const double *x)
{
	struct pd_dip d = {0};
	double thr = c->threshold_pct / 100, ev = c->event_t_s;
	size_t e = (size_t)ceil(ev / v->step_s);
	d.ref = pd_window_summary(v, x, &c->windows[PD_PHASE_PRE]).median;
	if (!(d.ref > 0) || e >= v->n)
		return d;
	size_t lo =
		lowest_after(v, x, e > PD_POLICY_EVENT_SLACK ? e - PD_POLICY_EVENT_SLACK : 0);
	if (isnan(x[lo]))
		return d;
	d.ok = 1, d.low = x[lo], d.low_s = (double)lo * v->step_s;
	d.pct = 100 * (d.low - d.ref) / d.ref;
	if (d.pct >= -c->threshold_pct)
		return d; /* back_s 0: it never left the threshold */
	size_t back = back_at(v, x, lo, d.ref, thr);
	d.back_s = back < v->n ? fmax((double)back * v->step_s - ev, 0) : NAN;
	return d;
}

/* Whether two back times differ past the policy's slack (one of them NaN: never back). */
static int back_differs(const struct pd_comparison *c, double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) != isnan(b);
	return fabs(a - b) > PD_POLICY_RECOVERY_SLACK_POINTS * c->step_s;
}

/* +1 the target's dip is worse (deeper or slower back) than the baseline's, -1 better, 0
 * the same within the threshold and the slack. */
static int compared(const struct pd_comparison *c)
{
	const struct pd_dip *b = &c->dip[0], *t = &c->dip[1];
	if (t->pct < b->pct - c->threshold_pct)
		return 1;
	if (t->pct > b->pct + c->threshold_pct)
		return -1;
	if (!back_differs(c, t->back_s, b->back_s))
		return 0;
	return isnan(t->back_s) || (!isnan(b->back_s) && t->back_s > b->back_s) ? 1 : -1;
}

/* Appends "was back within 5% of it 45 s after the event" or "had not come back ...". */
static void back_text(struct pd_buf *b, const struct pd_comparison *c, const struct pd_dip *d)
{
	if (isnan(d->back_s))
		pd_buf_addf(b, "had not come back within %.0f%% of it by the end",
			    c->threshold_pct);
	else
		pd_buf_addf(b, "was back within %.0f%% of it %.0f s after the event",
			    c->threshold_pct, d->back_s);
}

/* Whether the event is a failover (hard or graceful), not a rebalance. */
static int is_failover(enum pd_timebase_event e)
{
	return e == PD_EVENT_HARD || e == PD_EVENT_GRACEFUL;
}

static void baseline_text(struct pd_buf *b, const struct pd_comparison *c, int cmp)
{
	const struct pd_dip *d = &c->dip[0];
	const char *ev = pd_timebase_event_name(c->tb_base.event);
	if (!c->base_event) {
		pd_buf_addf(b,
			    "; the baseline, without an event, was at most %.1f%% below its "
			    "level before that time over the same points.",
			    fmax(-d->pct, 0));
		return;
	}
	pd_buf_addf(b,
		    "; the baseline, at its own %s, dipped %.1f%% (to %.0f req/s, from %.0f) "
		    "and ",
		    ev, fmax(-d->pct, 0), d->low, d->ref);
	if (d->pct >= -c->threshold_pct)
		pd_buf_adds(b, "stayed within the threshold");
	else
		back_text(b, c, d);
	pd_buf_addf(b, ": the %s's effect on the query rate is %s.",
		    is_failover(c->tb_base.event) && is_failover(c->tb_target.event)
			    ? "failover"
			    : "event",
		    cmp > 0 ? "worse, a regression" : "smaller, an improvement");
}

static char *finding_text(const struct pd_comparison *c, int cmp)
{
	const struct pd_dip *d = &c->dip[1];
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_addf(&b,
		    "Query throughput (n1ql_stats/query_requests) dipped %.1f%% below its "
		    "level before the %s (to %.0f req/s at %.0f s, from a median of %.0f "
		    "req/s) and ",
		    fmax(-d->pct, 0), pd_timebase_event_name(c->tb_target.event), d->low,
		    d->low_s, d->ref);
	if (d->pct >= -c->threshold_pct)
		pd_buf_adds(&b, "stayed within the threshold");
	else
		back_text(&b, c, d);
	baseline_text(&b, c, cmp);
	return pd_buf_detach(&b);
}

void pd_recovery_build(struct pd_comparison *c)
{
	long vi = pd_comparison_view(c, "n1ql_stats/query_requests", PD_AT_CLUSTER, 0, NULL);
	c->dip[0] = c->dip[1] = (struct pd_dip){0};
	if (vi < 0 || !c->event_side)
		return;
	const struct pd_view *v = &c->views[vi];
	c->dip[0] = measure(c, v, v->base), c->dip[1] = measure(c, v, v->target);
	if (c->event_side < 0)
		return; /* the baseline's own dip: pd_recovery_no_change says it */
	const struct pd_dip *t = &c->dip[1];
	if (!t->ok || !c->dip[0].ok)
		return;
	int cmp = c->base_event ? compared(c) : (t->pct < -c->threshold_pct);
	if (!cmp)
		return;
	struct pd_finding *f = pd_finding_add(
		c, PD_FIND_RECOVERY, v->metric, &v->scope, vi,
		fabs(t->pct - (c->base_event ? c->dip[0].pct : 0)) / c->threshold_pct);
	f->has_phase = 1, f->phase = PD_PHASE_TRANSIENT;
	f->direction = -1;
	f->delta_pct = t->pct;
	f->value = t->back_s;
	f->regresses = c->base_event && cmp > 0;
	f->text = finding_text(c, cmp);
}

int pd_recovery_no_change(struct pd_buf *b, const struct pd_comparison *c)
{
	const struct pd_dip *t = &c->dip[1], *s = &c->dip[0];
	if (!t->ok || !s->ok)
		return 0;
	if (c->event_side < 0) { /* the failover run given as the baseline */
		pd_buf_addf(b,
			    "no finding about the target, which has no event: the baseline's "
			    "query rate dipped ");
		pd_words_pct(b, fmax(-s->pct, 0));
		pd_buf_addf(b, " at its %s (to %.0f req/s, from %.0f) and ", pd_words_event(c),
			    s->low, s->ref);
		if (s->pct >= -c->threshold_pct)
			pd_buf_adds(b, "stayed within the threshold");
		else
			back_text(b, c, s);
		pd_buf_addf(b,
			    "; the target was at most %.1f %% below its level over the same "
			    "points",
			    fmax(-t->pct, 0));
		return 1;
	}
	if (!c->base_event || t->pct >= -c->threshold_pct) {
		pd_buf_addf(b,
			    "no finding: the query rate stayed within %.0f %% of its level "
			    "before the %s (at most %.1f %% below it)",
			    c->threshold_pct, pd_words_event(c), fmax(-t->pct, 0));
		return 1;
	}
	pd_buf_addf(b, "no finding: both runs dipped at their %s (", pd_words_event(c));
	pd_words_pct(b, s->pct);
	pd_buf_adds(b, " in the baseline, ");
	pd_words_pct(b, t->pct);
	pd_buf_adds(b, " in the target) and ");
	if (isnan(t->back_s) && isnan(s->back_s))
		pd_buf_adds(b, "neither came back by the end");
	else
		pd_buf_addf(b, "were back within %.0f %% after %.0f s and %.0f s",
			    c->threshold_pct, s->back_s, t->back_s);
	return 1;
}
