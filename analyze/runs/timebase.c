#include "timebase.h"
#include "analyze/stats/sampling.h"
#include "analyze/stats/stats.h"
#include "core/buf.h"
#include "core/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t pd_timebase_offset_round(double offset_s)
{
	return (int64_t)llround(offset_s / 900.0) * 900;
}

/* A series' extent without a lone far sample at either end: a tail (head) of fewer
 * samples than the rest that sits more than 64 intervals and more than the rest's whole
 * span away is left out, so that one sample dated a year later is a gap of its series,
 * not the end of a phase (and of every grid sized by it). */
static void series_extent(const struct pd_series *s, int64_t iv, int64_t *first, int64_t *last)
{
	size_t lo = 0, hi = s->n - 1;
	for (size_t j = hi; iv > 0 && j > lo; j--) {
		int64_t step = s->t_ms[j] - s->t_ms[j - 1];
		if (s->n - j < j && step > 64 * iv && step > s->t_ms[j - 1] - s->t_ms[0])
			hi = j - 1;
	}
	for (size_t j = 1; iv > 0 && j <= hi; j++) {
		int64_t step = s->t_ms[j] - s->t_ms[j - 1];
		if (j < hi + 1 - j && step > 64 * iv && step > s->t_ms[hi] - s->t_ms[j])
			lo = j;
	}
	*first = s->t_ms[lo];
	*last = s->t_ms[hi];
}

/* t0 and end: medians of the series' first and last samples, robust to one odd series. */
static void phase_bounds(struct pd_timebase *tb, const struct pd_run *run)
{
	int64_t *first = pd_xmalloc((run->n_series + 1) * sizeof(*first));
	int64_t *last = pd_xmalloc((run->n_series + 1) * sizeof(*last));
	size_t n = 0;
	tb->interval_ms = pd_sampling_run_interval_ms(run);
	for (size_t i = 0; i < run->n_series; i++) {
		const struct pd_series *s = run->series[i];
		if (s->n) {
			series_extent(s, tb->interval_ms, &first[n], &last[n]);
			n++;
		}
	}
	if (n) {
		tb->t0_ms = pd_stats_median_i64(first, n);
		tb->end_ms = pd_stats_median_i64(last, n);
	}
	free(first);
	free(last);
}

/* The rebalance as the active_tasks series saw it: the first sample above 0 and the
 * midpoint between the last sample above 0 and the next one (the task gone). */
struct window {
	int ok, ended;
	int64_t start_ms, end_ms;
};

static struct window series_rebalance(const struct pd_run *run)
{
	struct window w = {0, 0, 0, 0};
	const struct pd_series *s =
		pd_run_series(run, "active_tasks", "rebalance_progress", NULL);
	if (!s) /* the Prometheus path: cm_rebalance_in_progress, > 0 while rebalancing */
		s = pd_run_series(run, "active_tasks", "rebalance_in_progress", NULL);
	size_t i = 0;
	if (!s)
		return w;
	while (i < s->n && !(s->v[i] > 0))
		i++;
	if (i == s->n)
		return w;
	w.ok = 1;
	w.start_ms = s->t_ms[i];
	while (i < s->n && s->v[i] > 0)
		i++;
	w.end_ms = s->t_ms[i - 1];
	if (i < s->n) {
		w.ended = 1;
		w.end_ms = (s->t_ms[i - 1] + s->t_ms[i]) / 2;
	}
	return w;
}

static const struct pd_event *find_event(const struct pd_run *run, enum pd_event_kind kind,
					 int64_t after_s)
{
	for (size_t i = 0; i < run->n_events; i++)
		if (run->events[i].kind == kind && run->events[i].local_s >= after_s)
			return &run->events[i];
	return NULL;
}

static const struct pd_event *find_failover(const struct pd_run *run)
{
	const struct pd_event *h = find_event(run, PD_EV_FAILOVER_HARD, INT64_MIN);
	const struct pd_event *g = find_event(run, PD_EV_FAILOVER_GRACEFUL, INT64_MIN);
	if (h && g)
		return h->line < g->line ? h : g;
	return h ? h : g;
}

/* Offset from the rebalance seen twice: in the console (local) and in the series (UTC).
 * A series sample arrives up to one interval after the moment it reports. */
static void offset_from_series(struct pd_timebase *tb, const struct pd_run *run)
{
	struct window w = series_rebalance(run);
	const struct pd_event *start = find_event(run, PD_EV_REBALANCE_START, INT64_MIN);
	const struct pd_event *end =
		start ? find_event(run, PD_EV_REBALANCE_END, start->local_s) : NULL;
	double sum = 0, half = (double)tb->interval_ms / 2000.0;
	int n = 0;
	if (!w.ok || !start)
		return;
	sum += (double)start->local_s - ((double)w.start_ms / 1000.0 - half);
	n++;
	if (end && w.ended) {
		sum += (double)end->local_s - (double)w.end_ms / 1000.0;
		n++;
	}
	tb->offset_series = (struct pd_estimate){1, sum / n};
}

/* Offset from the build start: perfrunner's first line comes after it, within 15 min. */
static void offset_from_build(struct pd_timebase *tb, const struct pd_run *run)
{
	if (!run->jenkins.present || !run->jenkins.timestamp_ms || !run->console_first_s)
		return;
	tb->offset_build = (struct pd_estimate){
		1, (double)run->console_first_s - (double)run->jenkins.timestamp_ms / 1000.0};
}

static void resolve_offset(struct pd_timebase *tb, const struct pd_run *run,
			   const struct pd_time_flags *flags)
{
	offset_from_series(tb, run);
	offset_from_build(tb, run);
	tb->has_offset = 1;
	if (flags && flags->has_utc_offset) {
		tb->offset_s = flags->utc_offset_s;
		tb->offset_source = PD_SOURCE_FLAG;
	} else if (tb->offset_series.ok) {
		tb->offset_s = pd_timebase_offset_round(tb->offset_series.value);
		tb->offset_source = PD_SOURCE_SERIES;
	} else if (tb->offset_build.ok) {
		/* the delay is positive: floor onto the grid rather than round */
		tb->offset_s = (int64_t)floor(tb->offset_build.value / 900.0) * 900;
		tb->offset_source = PD_SOURCE_BUILD;
	} else {
		tb->has_offset = 0;
	}
}

static double local_to_t(const struct pd_timebase *tb, int64_t local_s)
{
	return (double)((local_s - tb->offset_s) * 1000 - tb->t0_ms) / 1000.0;
}

static void kind_from_config(struct pd_timebase *tb, const struct pd_run *run)
{
	const char *t = run->cfg.shutdown_type;
	if (!t)
		return;
	if (!strcmp(t, "hard_failover"))
		tb->event = PD_EVENT_HARD;
	else if (!strcmp(t, "graceful_failover"))
		tb->event = PD_EVENT_GRACEFUL;
	else if (!strcmp(t, "rebalance_out"))
		tb->event = PD_EVENT_REBALANCE_OUT;
}

/* perfrunner's N1QL shutdown test takes the last n1ql node of the spec. */
static const char *last_n1ql(const struct pd_run *run)
{
	for (size_t i = run->n_nodes; i-- > 0;)
		if (run->nodes[i].services & PD_SVC_N1QL)
			return run->nodes[i].host;
	return NULL;
}

static void set_node(struct pd_timebase *tb, const char *host)
{
	if (host && host[0] && !tb->node)
		tb->node = pd_xstrdup(host);
}

/* The node an event removes: a failover line's, a rebalance's first ejected; NULL for
 * any other line. */
static const char *removes(const struct pd_event *e)
{
	if (e->kind == PD_EV_FAILOVER_HARD || e->kind == PD_EV_FAILOVER_GRACEFUL)
		return e->node ? e->node : "";
	return e->kind == PD_EV_REBALANCE_START && e->ejected.n ? e->ejected.v[0] : NULL;
}

/* Whether e is a rebalance ejecting a node a failover line before it removed (the
 * failover's own rebalance, not another event). */
static int follows_failover(const struct pd_run *run, const struct pd_event *e)
{
	for (size_t i = 0; e->kind == PD_EV_REBALANCE_START && i < run->n_events; i++) {
		const struct pd_event *f = &run->events[i];
		if (f->line < e->line && f->kind != PD_EV_REBALANCE_START && removes(f) &&
		    !strcmp(removes(f), e->ejected.v[0]))
			return 1;
	}
	return 0;
}

/* The failovers and rebalance-outs after the first one in the phase: the phases come
 * from the first; these are named. */
static void more_events(struct pd_timebase *tb, const struct pd_run *run,
			const struct pd_event *first)
{
	double len = (double)(tb->end_ms - tb->t0_ms) / 1000.0;
	for (size_t i = 0; first && i < run->n_events; i++) {
		const struct pd_event *e = &run->events[i];
		const char *node = removes(e);
		double t = tb->has_offset ? local_to_t(tb, e->local_s) : NAN;
		if (!node || e->line <= first->line || follows_failover(run, e) ||
		    (e->kind == PD_EV_REBALANCE_START && tb->node && !strcmp(node, tb->node)) ||
		    (!isnan(t) && (t < 0 || t > len)))
			continue;
		if (tb->n_more < PD_TIMEBASE_MORE) {
			tb->more[tb->n_more].t_s = t;
			tb->more[tb->n_more].node = node;
		}
		tb->n_more++;
	}
}

/* The first rebalance from after_s on that ejects a node (a rebalance-out), or NULL. */
static const struct pd_event *ejecting(const struct pd_run *run, int64_t after_s)
{
	for (size_t i = 0; i < run->n_events; i++)
		if (run->events[i].kind == PD_EV_REBALANCE_START && run->events[i].ejected.n &&
		    run->events[i].local_s >= after_s)
			return &run->events[i];
	return NULL;
}

/* The node the event removed: the failover line's when it is in the spec and is the node
 * the rebalance after it ejects; else the ejected node (the line's kept, to be said). */
static void event_node(struct pd_timebase *tb, const struct pd_run *run,
		       const struct pd_event *fo)
{
	const char *line = fo && fo->kind != PD_EV_REBALANCE_START ? fo->node : NULL;
	const struct pd_event *rb = ejecting(run, fo ? fo->local_s : INT64_MIN);
	const char *ejected = rb ? rb->ejected.v[0] : NULL;
	int in_spec = line && (!run->n_nodes || pd_run_node(run, line));
	if (line && in_spec && (!ejected || !strcmp(line, ejected))) {
		set_node(tb, line);
		return;
	}
	if (line && ejected) {
		tb->line_node = line;
		tb->line_in_spec = in_spec;
	}
	set_node(tb, ejected ? ejected : line);
}

static void event_candidates(struct pd_timebase *tb, const struct pd_run *run)
{
	const struct pd_event *fo = find_failover(run);
	const struct pd_event *rb = ejecting(run, INT64_MIN);
	struct window w = series_rebalance(run);
	if (fo)
		tb->event = fo->kind == PD_EV_FAILOVER_HARD ? PD_EVENT_HARD : PD_EVENT_GRACEFUL;
	else if (rb)
		tb->event = PD_EVENT_REBALANCE_OUT, fo = rb;
	event_node(tb, run, fo);
	if (fo && tb->has_offset)
		tb->ev_console = (struct pd_estimate){1, local_to_t(tb, fo->local_s)};
	if (w.ok)
		tb->ev_series =
			(struct pd_estimate){1, (double)(w.start_ms - tb->t0_ms) / 1000.0};
	if (w.ok && w.ended)
		tb->rebalance_end_s =
			(struct pd_estimate){1, (double)(w.end_ms - tb->t0_ms) / 1000.0};
	if (run->cfg.shutdown_type && run->cfg.access_time_s > 0) {
		tb->ev_config = (struct pd_estimate){1, (double)(run->cfg.access_time_s / 4)};
		if (tb->event == PD_EVENT_NONE)
			kind_from_config(tb, run);
		set_node(tb, last_n1ql(run));
	}
	if (tb->event == PD_EVENT_NONE && w.ok) /* a failover is followed by a rebalance too */
		tb->event = PD_EVENT_REBALANCE;
	more_events(tb, run, fo);
}

static void console_rebalance_end(struct pd_timebase *tb, const struct pd_run *run)
{
	const struct pd_event *rb = find_event(run, PD_EV_REBALANCE_START, INT64_MIN);
	const struct pd_event *end =
		rb ? find_event(run, PD_EV_REBALANCE_END, rb->local_s) : NULL;
	if (!tb->rebalance_end_s.ok && end && tb->has_offset)
		tb->rebalance_end_s = (struct pd_estimate){1, local_to_t(tb, end->local_s)};
}

static void add_estimate(char *out, size_t n, const char *name, struct pd_estimate e)
{
	size_t len = strlen(out);
	if (e.ok && len < n)
		snprintf(out + len, n - len, "%s%s %.1f s", len ? ", " : "", name, e.value);
}

/* An estimate that was not dropped for lying outside the phase. */
static int kept(const struct pd_timebase *tb, struct pd_estimate e, enum pd_source src)
{
	return e.ok && !(tb->dropped & (1u << src));
}

/* Whether the series' rebalance start agrees with event_s: its first sample above 0 comes
 * up to one interval after the task started, which starts lag s after the failover (a
 * hard failover's rebalance-out; a graceful failover is its own rebalance task: 0). */
static int series_agrees(const struct pd_timebase *tb, const struct pd_run *run, double tol)
{
	const struct pd_event *fo = find_failover(run);
	const struct pd_event *rb = find_event(run, PD_EV_REBALANCE_START, INT64_MIN);
	double lag = 0, start;
	if (fo && rb && rb->local_s >= fo->local_s && fo->kind != PD_EV_FAILOVER_GRACEFUL)
		lag = (double)(rb->local_s - fo->local_s);
	start = tb->ev_series.value - lag;
	return tb->event_s >= start - 2 * tol && tb->event_s <= start + tol;
}

/* One line on how the sources agree: a source more than one interval from the chosen
 * time (the series: from the interval its rebalance start lies in) is named. */
static void describe_agreement(struct pd_timebase *tb, const struct pd_run *run)
{
	char list[200] = "";
	struct pd_buf b = PD_BUF_INIT;
	double tol = (double)tb->interval_ms / 1000.0;
	int agree = 1;
	add_estimate(list, sizeof(list), "console", tb->ev_console);
	add_estimate(list, sizeof(list), "series (rebalance start)", tb->ev_series);
	add_estimate(list, sizeof(list), "config", tb->ev_config);
	if (kept(tb, tb->ev_console, PD_SOURCE_CONSOLE) &&
	    fabs(tb->ev_console.value - tb->event_s) > tol)
		agree = 0;
	if (kept(tb, tb->ev_series, PD_SOURCE_SERIES) && !series_agrees(tb, run, tol))
		agree = 0;
	if (kept(tb, tb->ev_config, PD_SOURCE_CONFIG) &&
	    fabs(tb->ev_config.value - tb->event_s) > tol)
		agree = 0;
	tb->disagree = !agree;
	pd_buf_addf(&b, "%s within one interval (%.0f s): %s",
		    agree ? "sources agree" : "sources DISAGREE by more than", tol,
		    list[0] ? list : "no source");
	free(tb->agreement);
	tb->agreement = pd_buf_detach(&b);
}

/* An estimate the event can be taken from: inside the phase; one outside is dropped
 * (and said, pd_timebase_notes) so that the next source is used. */
static int usable(struct pd_timebase *tb, struct pd_estimate e, enum pd_source src)
{
	double len = (double)(tb->end_ms - tb->t0_ms) / 1000.0;
	if (!e.ok)
		return 0;
	if (e.value >= 0 && e.value <= len)
		return 1;
	tb->dropped |= 1u << src;
	return 0;
}

static int choose_event(struct pd_timebase *tb, const struct pd_time_flags *flags,
			struct pd_err *err)
{
	double len = (double)(tb->end_ms - tb->t0_ms) / 1000.0;
	if (flags && flags->has_event_time) {
		if (flags->event_time_s < 0 || flags->event_time_s > len)
			return pd_err_set(
				err, PD_EINVAL, "%s %.1f is outside the phase (0 to %.1f s)",
				flags->event_flag ? flags->event_flag : "--event-time",
				flags->event_time_s, len);
		tb->event_s = flags->event_time_s, tb->event_source = PD_SOURCE_FLAG;
		if (tb->event == PD_EVENT_NONE)
			tb->event = PD_EVENT_HARD;
	} else if (tb->event == PD_EVENT_NONE) {
		return 0;
	} else if (usable(tb, tb->ev_console, PD_SOURCE_CONSOLE)) {
		tb->event_s = tb->ev_console.value, tb->event_source = PD_SOURCE_CONSOLE;
	} else if (usable(tb, tb->ev_series, PD_SOURCE_SERIES)) {
		tb->event_s = tb->ev_series.value, tb->event_source = PD_SOURCE_SERIES;
	} else if (usable(tb, tb->ev_config, PD_SOURCE_CONFIG)) {
		tb->event_s = tb->ev_config.value, tb->event_source = PD_SOURCE_CONFIG;
	} else {
		tb->event = PD_EVENT_NONE; /* no time inside the phase: no event */
	}
	return 0;
}

void pd_timebase_release(struct pd_timebase *tb)
{
	if (!tb)
		return;
	free(tb->node);
	free(tb->agreement);
	tb->node = tb->agreement = NULL;
}

int pd_timebase_resolve(struct pd_timebase *out, const struct pd_run *run,
			const struct pd_time_flags *flags, struct pd_err *err)
{
	int rc;
	memset(out, 0, sizeof(*out));
	phase_bounds(out, run);
	resolve_offset(out, run, flags);
	event_candidates(out, run);
	console_rebalance_end(out, run);
	if ((rc = choose_event(out, flags, err)) < 0)
		return rc;
	if (out->event != PD_EVENT_NONE)
		describe_agreement(out, run);
	return 0;
}

/* "the target's console event time (3899.0 s) lies outside its measured phase ..." for
 * each estimate dropped. */
static void dropped_notes(struct pd_strv *out, const struct pd_timebase *tb, const char *who)
{
	const struct {
		enum pd_source src;
		struct pd_estimate e;
	} est[] = {{PD_SOURCE_CONSOLE, tb->ev_console},
		   {PD_SOURCE_SERIES, tb->ev_series},
		   {PD_SOURCE_CONFIG, tb->ev_config}};
	double len = (double)(tb->end_ms - tb->t0_ms) / 1000.0;
	for (size_t i = 0; i < sizeof(est) / sizeof(*est); i++)
		if (tb->dropped & (1u << est[i].src))
			pd_strv_addf(
				out,
				"the %s's event time from the %s (%.1f s) lies outside its "
				"measured phase (0 to %.0f s): not used; %s%s",
				who, pd_timebase_source_name(est[i].src), est[i].e.value, len,
				tb->event == PD_EVENT_NONE
					? "no source is left: no event"
					: "the event time is taken from the ",
				tb->event == PD_EVENT_NONE
					? ""
					: pd_timebase_source_name(tb->event_source));
}

/* "...: 172.23.100.41 at 610 s, 172.23.100.55 at 900 s" */
static void more_notes(struct pd_strv *out, const struct pd_timebase *tb, const char *who)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_addf(&b,
		    "the %s has %zu more failover(s) or rebalance-out(s) in its measured phase "
		    "after the first:",
		    who, tb->n_more);
	for (size_t i = 0; i < tb->n_more && i < PD_TIMEBASE_MORE; i++) {
		pd_buf_addf(&b, "%s %s", i ? "," : "",
			    tb->more[i].node[0] ? tb->more[i].node : "a node");
		if (!isnan(tb->more[i].t_s))
			pd_buf_addf(&b, " at %.0f s", tb->more[i].t_s);
	}
	pd_buf_addf(&b, "%s; the phases come from the first (%s at %.0f s)",
		    tb->n_more > PD_TIMEBASE_MORE ? " ..." : "", tb->node ? tb->node : "a node",
		    tb->event_s);
	pd_strv_add(out, b.ptr);
	pd_buf_release(&b);
}

void pd_timebase_notes(struct pd_strv *out, const struct pd_timebase *tb, const char *who)
{
	dropped_notes(out, tb, who);
	if (tb->event == PD_EVENT_NONE)
		return;
	const char *list = tb->agreement ? strstr(tb->agreement, "): ") : NULL;
	if (tb->event == PD_EVENT_REBALANCE)
		pd_strv_addf(out,
			     "the %s's event is a rebalance (kind unknown without the console: "
			     "its series show only that a rebalance started, and a failover is "
			     "followed by one too); the node it removed is %s",
			     who, tb->node ? tb->node : "unknown");
	if (tb->disagree)
		pd_strv_addf(out,
			     "the %s's event sources disagree by more than one interval (%.0f "
			     "s): %s; the event time is taken from the %s, %.1f s",
			     who, (double)tb->interval_ms / 1000,
			     list            ? list + 3
			     : tb->agreement ? tb->agreement
					     : "",
			     pd_timebase_source_name(tb->event_source), tb->event_s);
	if (tb->line_node)
		pd_strv_addf(
			out,
			"the %s's failover line names %s, %s: the removed node is taken to "
			"be %s, the one the rebalance ejects",
			who, tb->line_node,
			tb->line_in_spec ? "which is not the node its rebalance ejects"
					 : "which is not in the spec",
			tb->node ? tb->node : "unknown");
	if (tb->n_more)
		more_notes(out, tb, who);
}
