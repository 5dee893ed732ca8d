#include "story.h"
#include "analyze/policy.h"
#include "analyze/stats/sampling.h"
#include "analyze/stats/stats.h"
#include "core/xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const int pd_story_slow_ms[PD_STORY_N_SLOW] = {250, 500, 1000, 5000};

static int64_t at_ms(const struct pd_timebase *tb, double s)
{
	return tb->t0_ms + (int64_t)llround(s * 1000.0);
}

static double to_s(const struct pd_timebase *tb, int64_t t_ms)
{
	return (double)(t_ms - tb->t0_ms) / 1000.0;
}

void pd_story_event_window(struct pd_story_window *out, const struct pd_timebase *tb,
			   double settle_s)
{
	double e = tb->event_s, len = (double)(tb->end_ms - tb->t0_ms) / 1000.0;
	double end = e;
	*out = (struct pd_story_window){0, 0};
	if (tb->event == PD_EVENT_NONE)
		return;
	if (tb->rebalance_end_s.ok && tb->rebalance_end_s.value > e)
		end = tb->rebalance_end_s.value;
	end += settle_s;
	out->start_s = e;
	out->end_s = end < len ? end : len;
}

void pd_story_integrate(struct pd_story_count *out, const struct pd_series *s, int64_t from_ms,
			int64_t to_ms, int64_t interval_ms)
{
	*out = (struct pd_story_count){0};
	if (!s)
		return;
	out->ok = 1;
	if (interval_ms <= 0)
		interval_ms = pd_sampling_interval_ms(s);
	for (size_t i = 0; i < s->n; i++) {
		if (s->t_ms[i] < from_ms || s->t_ms[i] > to_ms)
			continue;
		int64_t dt = i ? s->t_ms[i] - s->t_ms[i - 1] : interval_ms;
		if (2 * dt > 3 * interval_ms) { /* a gap: one interval, never its length */
			dt = interval_ms;
			out->n_gaps++;
		}
		out->count += s->v[i] * (double)dt / 1000.0;
		out->n++;
	}
}

/* The highest sample of s in [from_ms, to_ms]; 0 when there is none. */
static int window_peak(const struct pd_series *s, int64_t from_ms, int64_t to_ms, double *v,
		       int64_t *t_ms)
{
	int found = 0;
	for (size_t i = 0; s && i < s->n; i++)
		if (s->t_ms[i] >= from_ms && s->t_ms[i] <= to_ms && (!found || s->v[i] > *v))
			*v = s->v[i], *t_ms = s->t_ms[i], found = 1;
	return found;
}

/* The errors and slow queries of one run over w (s from tb's t0). */
static void count_run(struct pd_story_count *errors, struct pd_story_count *slow,
		      const struct pd_run *run, const struct pd_timebase *tb,
		      const struct pd_story_window *w)
{
	int64_t from = at_ms(tb, w->start_s), to = at_ms(tb, w->end_s);
	char name[32];
	pd_story_integrate(errors, pd_run_series(run, "n1ql_stats", "query_errors", NULL), from,
			   to, tb->interval_ms);
	for (int k = 0; k < PD_STORY_N_SLOW; k++) {
		snprintf(name, sizeof(name), "query_requests_%dms", pd_story_slow_ms[k]);
		pd_story_integrate(&slow[k], pd_run_series(run, "n1ql_stats", name, NULL), from,
				   to, tb->interval_ms);
	}
}

static void latency_evidence(struct pd_event_errors *out, const struct pd_run *run,
			     const struct pd_timebase *tb, const struct pd_run *other,
			     const struct pd_timebase *tb_other)
{
	const char *m = "query_avg_req_time";
	const struct pd_series *s = pd_run_series(run, "n1ql_stats", m, NULL);
	int64_t t = 0;
	out->has_peak = window_peak(s, at_ms(tb, out->window.start_s),
				    at_ms(tb, out->window.end_s), &out->peak_ms, &t);
	if (out->has_peak)
		out->peak_s = to_s(tb, t);
	out->pre_ms = pd_sampling_window_mean(s, tb->t0_ms, at_ms(tb, out->window.start_s));
	if (!other)
		return;
	s = pd_run_series(other, "n1ql_stats", m, NULL);
	out->has_base_peak =
		window_peak(s, at_ms(tb_other, out->base_window.start_s),
			    at_ms(tb_other, out->base_window.end_s), &out->base_peak_ms, &t);
}

void pd_story_event_errors(struct pd_event_errors *out, const struct pd_run *run,
			   const struct pd_timebase *tb, const struct pd_run *other,
			   const struct pd_timebase *tb_other, const struct pd_story_window *w,
			   double shift_s)
{
	memset(out, 0, sizeof(*out));
	if (w)
		out->window = *w;
	else
		pd_story_event_window(&out->window, tb, 60.0);
	out->base_window = (struct pd_story_window){out->window.start_s + shift_s,
						    out->window.end_s + shift_s};
	count_run(&out->errors, out->slow, run, tb, &out->window);
	if (other && tb_other)
		count_run(&out->base_errors, out->base_slow, other, tb_other,
			  &out->base_window);
	else
		other = NULL;
	latency_evidence(out, run, tb, other, tb_other);
	out->min_count = PD_POLICY_ERRORS_BASE_X * out->base_errors.count;
	if (out->min_count < PD_POLICY_ERRORS_MIN)
		out->min_count = PD_POLICY_ERRORS_MIN;
	out->significant = out->errors.ok && out->errors.count >= out->min_count;
}

static const struct pd_event *first_failover(const struct pd_run *run)
{
	const struct pd_event *f = NULL;
	for (size_t i = 0; i < run->n_events; i++) {
		const struct pd_event *e = &run->events[i];
		if ((e->kind == PD_EV_FAILOVER_HARD || e->kind == PD_EV_FAILOVER_GRACEFUL) &&
		    (!f || e->line < f->line))
			f = e;
	}
	return f;
}

static int ejects_node(const struct pd_run *run)
{
	for (size_t i = 0; i < run->n_events; i++)
		if (run->events[i].kind == PD_EV_REBALANCE_START && run->events[i].ejected.n)
			return 1;
	return 0;
}

/* Hard or not: the console's first failover line, else a console rebalance that ejects
 * a node (a rebalance-out), else the test config. Sets kind_source and, from the line,
 * host. */
static int is_hard(struct pd_live_node *out, const struct pd_run *run)
{
	const struct pd_event *f = first_failover(run);
	const char *type = run->cfg.shutdown_type;
	if (f) {
		out->kind_source = PD_SOURCE_CONSOLE;
		if (f->node && f->node[0])
			out->host = pd_xstrdup(f->node);
		return f->kind == PD_EV_FAILOVER_HARD;
	}
	if (ejects_node(run)) {
		out->kind_source = PD_SOURCE_CONSOLE;
		return 0;
	}
	if (!type)
		return 0;
	out->kind_source = PD_SOURCE_CONFIG;
	return !strcmp(type, "hard_failover");
}

static int host_series(const struct pd_series *s, const char *collector, const char *host)
{
	return s->server && !strcmp(s->collector, collector) && !strcmp(s->server, host);
}

/* The latest sample at or before until_ms over the host's series of collector. */
static int last_sample(int64_t *t_ms, const struct pd_run *run, const char *collector,
		       const char *host, int64_t until_ms)
{
	int found = 0;
	for (size_t i = 0; i < run->n_series; i++) {
		const struct pd_series *s = run->series[i];
		if (!host_series(s, collector, host))
			continue;
		for (size_t k = s->n; k-- > 0;)
			if (s->t_ms[k] <= until_ms) {
				if (!found || s->t_ms[k] > *t_ms)
					*t_ms = s->t_ms[k], found = 1;
				break;
			}
	}
	return found;
}

/* The host's last REST-read sample at or before until_ms: ns_server_system's, and on the
 * Prometheus path every scraped series of it (they stop when it leaves, as REST's do). */
static int last_rest(int64_t *t_ms, const struct pd_run *run, const char *host,
		     int64_t until_ms)
{
	int64_t t2 = 0;
	int found = last_sample(t_ms, run, "ns_server_system", host, until_ms);
	if (run->prometheus && last_sample(&t2, run, "prometheus", host, until_ms) &&
	    (!found || t2 > *t_ms))
		*t_ms = t2, found = 1;
	return found;
}

static void rest_and_ssh(struct pd_live_node *out, const struct pd_run *run,
			 const struct pd_timebase *tb)
{
	int64_t ev = at_ms(tb, out->event_s), t = 0, t2 = 0;
	out->has_rest = last_rest(&t, run, out->host, ev);
	if (out->has_rest) {
		out->rest_last_s = to_s(tb, t);
		out->rest_before_s = out->event_s - out->rest_last_s;
	}
	if (run->prometheus && last_rest(&t, run, out->host, INT64_MAX))
		out->scraped_after_s = to_s(tb, t) - out->event_s;
	int atop = last_sample(&t, run, "atop", out->host, INT64_MAX);
	int net = last_sample(&t2, run, "net", out->host, INT64_MAX);
	out->has_ssh = atop || net;
	if (out->has_ssh) {
		out->ssh_last_s = to_s(tb, !atop ? t2 : !net ? t : t > t2 ? t : t2);
		out->ssh_after_s = out->ssh_last_s - out->event_s;
	}
}

static void load_before(struct pd_live_node *out, const struct pd_run *run,
			const struct pd_timebase *tb, int intervals)
{
	int64_t to = at_ms(tb, out->event_s);
	int64_t from = to - (int64_t)llround(intervals * out->interval_s * 1000.0);
	out->has_cpu = pd_sampling_window_median(
		&out->cpu, &out->cpu_n, pd_run_series(run, "atop", "cbq-engine_cpu", out->host),
		from, to);
	out->has_conn = pd_sampling_window_median(
		&out->conn, NULL, pd_run_series(run, "net", "ESTABLISHED", out->host), from,
		to);
	out->has_req = pd_sampling_window_median(
		&out->req, NULL, pd_run_series(run, "prometheus", "n1ql_requests", out->host),
		from, to);
}

static enum pd_live_verdict live_verdict(const struct pd_live_node *ln,
					 const struct pd_live_opts *o)
{
	double recent = o->rest_intervals * ln->interval_s;
	if (!ln->has_rest || ln->rest_before_s > recent)
		return PD_LIVE_SILENT;
	/* serving: clients connected, or (no net on the Prometheus path) its own counter
	 * counting requests */
	int serving = (ln->has_conn && ln->conn > 0) || (ln->has_req && ln->req > 0);
	if (!ln->has_cpu || ln->cpu < o->cpu_floor || !serving)
		return PD_LIVE_IDLE;
	if (!ln->has_ssh || ln->ssh_after_s <= recent)
		return PD_LIVE_SSH_STOPPED;
	return PD_LIVE_YES;
}

void pd_story_live_release(struct pd_live_node *ln)
{
	free(ln->host);
	ln->host = NULL;
}

void pd_story_live_node(struct pd_live_node *out, const struct pd_run *run,
			const struct pd_timebase *tb, const struct pd_live_opts *opts)
{
	static const struct pd_live_opts defaults = PD_LIVE_OPTS_INIT;
	const struct pd_live_opts *o = opts ? opts : &defaults;
	memset(out, 0, sizeof(*out));
	out->event_s = tb->event_s;
	out->interval_s = tb->interval_ms > 0 ? (double)tb->interval_ms / 1000.0 : 5.0;
	if (tb->event == PD_EVENT_NONE) {
		out->verdict = PD_LIVE_NO_EVENT;
		return;
	}
	int hard = is_hard(out, run);
	if (!out->host && tb->node)
		out->host = pd_xstrdup(tb->node);
	if (!out->host) {
		out->verdict = hard ? PD_LIVE_NO_NODE : PD_LIVE_NOT_HARD;
		return;
	}
	out->prometheus = run->prometheus;
	rest_and_ssh(out, run, tb);
	load_before(out, run, tb, o->rest_intervals);
	out->verdict = hard ? live_verdict(out, o) : PD_LIVE_NOT_HARD;
}

/* A configparser value read as Python's int() would for a plain count: optional blanks
 * around decimal digits, at most PD_STORY_MAX_COUNT (so that the product of three cannot
 * overflow); dflt when absent, -1 when not such a number. */
static long ini_count(const struct pd_ini *ini, const char *section, const char *key, long dflt)
{
	const char *v = pd_ini_get(ini, section, key);
	char *end;
	if (!v)
		return dflt;
	while (*v == ' ' || *v == '\t')
		v++;
	if (*v < '0' || *v > '9')
		return -1;
	errno = 0;
	long n = strtol(v, &end, 10);
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	return errno || *end || n > PD_STORY_MAX_COUNT ? -1 : n;
}

/* [access] n1ql_throughput: perfrunner's default is float('inf'), no pacing. */
static int throttled(const struct pd_run *run)
{
	const char *v = pd_ini_get(&run->test, "access", "n1ql_throughput");
	char *end;
	if (!v)
		return 0;
	double d = strtod(v, &end);
	return end != v && isfinite(d) && d > 0;
}

void pd_story_closed_loop(struct pd_closed_loop *out, const struct pd_run *run,
			  const struct pd_timebase *tb, struct pd_estimate served,
			  double tol_pct)
{
	const struct pd_series *lat =
		pd_run_series(run, "n1ql_stats", "query_avg_req_time", NULL);
	memset(out, 0, sizeof(*out));
	out->tol_pct = tol_pct;
	out->n1ql_workers = ini_count(&run->test, "access", "n1ql_workers", 0);
	out->instances = ini_count(&run->test, "access", "workload_instances", 1);
	out->buckets = ini_count(&run->test, "cluster", "num_buckets", 1);
	out->throttled = throttled(run);
	out->latency_ms = pd_sampling_window_mean(lat, tb->t0_ms, tb->end_ms + 1);
	out->served = served.ok ? served.value : NAN;
	if (out->n1ql_workers <= 0 || out->instances <= 0 || out->buckets <= 0 || !served.ok ||
	    !(served.value > 0) || !(out->latency_ms > 0))
		return;
	out->ok = 1;
	out->workers = out->n1ql_workers * out->instances * out->buckets;
	out->predicted = (double)out->workers / (out->latency_ms / 1000.0);
	out->diff_pct = 100.0 * (out->predicted - out->served) / out->served;
	out->closed = !out->throttled && fabs(out->diff_pct) <= tol_pct;
}
