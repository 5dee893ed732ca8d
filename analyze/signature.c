/* A run's signature from its comparison with itself (signature.h). */
#include "signature.h"

#include "analyze/stats/infer.h"
#include "analyze/runs/story.h"
#include "analyze/tell/findings.h"
#include "analyze/policy.h"
#include "../core/buf.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *v)
{
	return v && *v ? pd_xstrdup(v) : NULL;
}

/* The file stem of a path: "dir/n1ql_thr.test" -> "n1ql_thr". */
static char *stem(const char *path)
{
	if (!path || !*path)
		return NULL;
	const char *base = strrchr(path, '/'), *dot;
	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_add(&b, base, dot && dot > base ? (size_t)(dot - base) : strlen(base));
	return pd_buf_detach(&b);
}

static void identity(struct pd_signature *s, const struct pd_run *run)
{
	const struct pd_jenkins *j = &run->jenkins;
	const char *tc = j->present ? pd_jenkins_param(j, "test_config") : NULL;
	s->job = j->present ? dup_or_null(j->job) : NULL;
	s->number = j->present ? j->number : 0;
	s->version = dup_or_null(pd_run_build(run));
	s->test_config = stem(tc ? tc : run->test.path);
	s->spec = dup_or_null(run->spec_name);
	s->cluster = dup_or_null(run->cluster);
	s->time_ms = j->present ? j->timestamp_ms : 0;
	s->snapshot = dup_or_null(pd_run_snapshot(run));
	struct pd_buf b = PD_BUF_INIT;
	if (s->job && s->number > 0)
		pd_buf_addf(&b, "%s#%ld", s->job, s->number);
	else
		pd_buf_addf(&b, "%s|%s|%s", s->test_config ? s->test_config : "",
			    s->version ? s->version : "", s->snapshot ? s->snapshot : "");
	s->key = pd_buf_detach(&b);
}

/* The target's window mean of view vi in phase p from its delta, or NaN. */
static double phase_mean(const struct pd_comparison *c, long vi, enum pd_phase p)
{
	for (size_t i = 0; i < c->n_deltas && vi >= 0; i++)
		if (c->deltas[i].view == (size_t)vi && c->deltas[i].phase == p &&
		    c->deltas[i].side_target.n)
			return pd_infer_level(&c->deltas[i].side_target);
	return NAN;
}

/* Every window's mean and standard error, named metric|scope|phase: the whole run's too
 * in a run with an event, so that compare --db has a run-to-run spread for whole-run
 * deltas as for the phases'. */
static void window_features(struct pd_signature *s, const struct pd_comparison *c)
{
	struct pd_buf name = PD_BUF_INIT;
	for (size_t i = 0; i < c->n_deltas; i++) {
		const struct pd_delta *d = &c->deltas[i];
		const struct pd_view *v = &c->views[d->view];
		if (!d->side_target.n)
			continue;
		pd_buf_truncate(&name, 0);
		pd_buf_addf(&name, "%s|%s|%s", v->metric, v->scope.name,
			    pd_phase_name(d->phase));
		pd_signature_add(s, name.ptr, pd_infer_level(&d->side_target),
				 pd_infer_se_mean(&d->side_target));
	}
	pd_buf_release(&name);
}

/* The dip of the cluster's query rate at the event and the time back within the
 * threshold of its level before it (analyze/tell/recovery.c's, the run's own); a rate that had
 * not come back counts to the end of the run. */
static void recovery_features(struct pd_signature *s, const struct pd_comparison *c)
{
	const struct pd_dip *d = &c->dip[1];
	if (!d->ok)
		return;
	pd_signature_add(s, "event/throughput_dip_pct", d->pct, NAN);
	pd_signature_add(s, "event/recovery_s",
			 isnan(d->back_s) ? c->length_s - c->event_t_s : d->back_s, NAN);
}

/* Each role's (and total's) post-phase mean against its pre-phase mean. */
static void pre_post_features(struct pd_signature *s, const struct pd_comparison *c)
{
	struct pd_buf name = PD_BUF_INIT;
	for (size_t i = 0; i < c->n_views && c->has_event; i++) {
		const struct pd_view *v = &c->views[i];
		if (v->drill || (v->scope.kind != PD_AT_ROLE && v->scope.kind != PD_AT_CLUSTER))
			continue;
		double pre = phase_mean(c, (long)i, PD_PHASE_PRE),
		       post = phase_mean(c, (long)i, PD_PHASE_POST);
		if (!(pre > 0) || isnan(post))
			continue;
		pd_buf_truncate(&name, 0);
		pd_buf_addf(&name, "event/pre_post_pct|%s|%s", v->metric, v->scope.name);
		pd_signature_add(s, name.ptr, 100 * (post - pre) / pre, NAN);
	}
	pd_buf_release(&name);
}

static void event_features(struct pd_signature *s, const struct pd_comparison *c,
			   const struct pd_run *run, const struct pd_compare_opts *opts)
{
	const struct pd_timebase *tb = &c->tb_target;
	s->event_kind = pd_timebase_event_name(tb->event);
	s->event_s = tb->event != PD_EVENT_NONE ? tb->event_s : NAN;
	s->event_node = dup_or_null(tb->event != PD_EVENT_NONE ? tb->node : NULL);
	if (tb->event != PD_EVENT_NONE) {
		struct pd_story_window w;
		struct pd_event_errors ee;
		pd_story_event_window(&w, tb, opts->settle_s);
		pd_story_event_errors(&ee, run, tb, NULL, NULL, &w, 0);
		if (ee.errors.ok)
			pd_signature_add(s, "event/failed_requests", ee.errors.count, NAN);
		long vi;
		struct pd_summary left = pd_findings_left_after(c, &vi);
		pd_signature_add(s, "event/connections_left",
				 left.n >= PD_POLICY_MIN_SAMPLES ? left.median : NAN, NAN);
	}
	recovery_features(s, c);
	pre_post_features(s, c);
}

/* The run's KPI facts, as the comparison made them once (analyze/runs/kpi.c): c compares the
 * run with itself, so they are c's target's. */
static void kpi_features(struct pd_signature *s, const struct pd_comparison *c)
{
	const struct pd_kpi_facts *k = &c->kpi_target;
	s->kpi_rule = -1;
	if (!k->kpi)
		return;
	s->kpi_metric = pd_xstrdup(k->kpi->metric);
	pd_signature_add(s, "kpi/throughput", k->kpi->value, NAN);
	if (!k->has_rules)
		return;
	s->kpi_rule = k->rules.nearest;
	s->kpi_match = k->rules.match;
}

int pd_signature_of(struct pd_signature **out, const struct pd_run *run,
		    const struct pd_compare_opts *opts, struct pd_err *err)
{
	static const struct pd_compare_opts defaults = PD_COMPARE_OPTS_INIT;
	struct pd_compare_opts o = opts ? *opts : defaults;
	struct pd_comparison *c = NULL;
	int rc;
	*out = NULL;
	o.more_base = NULL, o.n_more_base = 0;
	o.time_base = o.time;
	if ((rc = pd_compare(&c, run, run, &o, err)) < 0)
		return rc;
	struct pd_signature *s = pd_xcalloc(1, sizeof(*s));
	identity(s, run);
	window_features(s, c);
	event_features(s, c, run, &o);
	kpi_features(s, c);
	pd_signature_sort(s);
	pd_comparison_free(c);
	*out = s;
	return 0;
}
