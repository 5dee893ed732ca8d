#include "summary_json.h"
#include "escape.h"

#include <math.h>
#include <string.h>

const char *pd_run_label(const struct pd_run *run, const char *flag)
{
	if (flag)
		return flag;
	if (run->jenkins.present && run->jenkins.full_display_name)
		return run->jenkins.full_display_name;
	return run->dir;
}

/* JSON writing: a comma before every member but the first of its object. */
struct jw {
	struct pd_buf *b;
	int first;
};

static void key(struct jw *w, const char *k)
{
	pd_buf_adds(w->b, w->first ? "" : ",");
	w->first = 0;
	pd_esc_json(w->b, k);
	pd_buf_addch(w->b, ':');
}

static void str(struct jw *w, const char *k, const char *v)
{
	key(w, k);
	if (v)
		pd_esc_json(w->b, v);
	else
		pd_buf_adds(w->b, "null");
}

static void num(struct jw *w, const char *k, double v)
{
	key(w, k);
	pd_esc_json_num(w->b, v);
}

static void open_obj(struct jw *w, const char *k)
{
	if (k)
		key(w, k);
	pd_buf_addch(w->b, '{');
	w->first = 1;
}

static void close_obj(struct jw *w)
{
	pd_buf_addch(w->b, '}');
	w->first = 0;
}

static void open_arr(struct jw *w, const char *k)
{
	key(w, k);
	pd_buf_addch(w->b, '[');
	w->first = 1;
}

static void close_arr(struct jw *w)
{
	pd_buf_addch(w->b, ']');
	w->first = 0;
}

/* An array element separator, for arrays of objects. */
static void elem(struct jw *w)
{
	pd_buf_adds(w->b, w->first ? "" : ",");
	w->first = 1;
}

static void nodes(struct jw *w, const struct pd_run *run)
{
	open_arr(w, "nodes");
	for (size_t i = 0; i < run->n_nodes; i++) {
		const struct pd_node *n = &run->nodes[i];
		pd_buf_adds(w->b, i ? "," : "");
		w->first = 1;
		open_obj(w, NULL);
		str(w, "host", n->host);
		key(w, "services");
		pd_buf_addch(w->b, '[');
		int first = 1;
		for (unsigned bit = 1; bit < (1u << PD_SVC_COUNT); bit <<= 1)
			if (n->services & bit) {
				pd_buf_adds(w->b, first ? "" : ",");
				pd_esc_json(w->b, pd_service_name(bit));
				first = 0;
			}
		pd_buf_addch(w->b, ']');
		str(w, "role", n->role);
		close_obj(w);
	}
	close_arr(w);
}

static void run_obj(struct jw *w, const char *k, const struct pd_run *run, const char *label,
		    const struct pd_timebase *tb)
{
	const struct pd_jenkins *j = &run->jenkins;
	open_obj(w, k);
	str(w, "label", label);
	str(w, "snapshot", run->snapshots.n ? run->snapshots.v[0] : NULL);
	str(w, "build",
	    pd_jenkins_param(j, "version") ? pd_jenkins_param(j, "version")
	    : run->n_kpis                  ? run->kpis[0].build
					   : NULL);
	key(w, "jenkins");
	if (j->present) {
		open_obj(w, NULL);
		str(w, "job", j->job);
		num(w, "number", (double)j->number);
		str(w, "result", j->result);
		str(w, "url", j->url);
		close_obj(w);
	} else {
		pd_buf_adds(w->b, "null");
	}
	nodes(w, run);
	open_arr(w, "kpis");
	for (size_t i = 0; i < run->n_kpis; i++) {
		elem(w);
		open_obj(w, NULL);
		str(w, "metric", run->kpis[i].metric);
		num(w, "value", run->kpis[i].value);
		close_obj(w);
	}
	close_arr(w);
	struct pd_estimate thr = pd_series_throughput(run, tb);
	num(w, "series_throughput", thr.ok ? thr.value : NAN);
	close_obj(w);
}

static void event_obj(struct jw *w, const struct pd_timebase *tb)
{
	int none = tb->event == PD_EVENT_NONE;
	open_obj(w, "event");
	str(w, "kind", pd_event_type_name(tb->event));
	str(w, "node", tb->node[0] ? tb->node : NULL);
	num(w, "t_s", none ? NAN : tb->event_s);
	str(w, "source", none ? NULL : pd_source_name(tb->event_source));
	str(w, "agreement", tb->agreement[0] ? tb->agreement : NULL);
	close_obj(w);
}

static void side(struct jw *w, const char *k, const struct pd_summary *s)
{
	open_obj(w, k);
	num(w, "n", (double)s->n);
	num(w, "median", s->median);
	num(w, "mean", s->mean);
	num(w, "p5", s->p5);
	num(w, "p95", s->p95);
	num(w, "min", s->min);
	num(w, "max", s->max);
	num(w, "slope", s->slope);
	close_obj(w);
}

static void delta_obj(struct jw *w, const struct pd_comparison *c, const struct pd_delta *d)
{
	const struct pd_view *v = &c->views[d->view];
	open_obj(w, NULL);
	str(w, "metric", v->metric);
	str(w, "scope", v->scope);
	str(w, "phase", pd_phase_name(d->phase));
	str(w, "unit", pd_unit_name(v->unit));
	side(w, "baseline", &d->base);
	side(w, "target", &d->target);
	num(w, "delta_pct", d->delta_pct);
	key(w, "ci_pct");
	pd_buf_addch(w->b, '[');
	pd_esc_json_num(w->b, d->ci_lo);
	pd_buf_addch(w->b, ',');
	pd_esc_json_num(w->b, d->ci_hi);
	pd_buf_addch(w->b, ']');
	num(w, "p_value", d->p_value);
	num(w, "p_adj", d->p_adj);
	str(w, "verdict", pd_verdict_name(d->verdict));
	close_obj(w);
}

static void finding_obj(struct jw *w, const struct pd_finding *f)
{
	open_obj(w, NULL);
	str(w, "kind", pd_finding_kind_name(f->kind));
	str(w, "metric", f->metric);
	str(w, "scope", f->scope);
	str(w, "phase", f->has_phase ? pd_phase_name(f->phase) : NULL);
	str(w, "direction", f->direction > 0 ? "up" : f->direction < 0 ? "down" : NULL);
	num(w, "delta_pct", f->delta_pct);
	num(w, "value", f->value);
	str(w, "text", f->text);
	close_obj(w);
}

static void strv(struct jw *w, const char *k, const struct pd_strv *sv)
{
	open_arr(w, k);
	for (size_t i = 0; i < sv->n; i++) {
		pd_buf_adds(w->b, i ? "," : "");
		pd_esc_json(w->b, sv->v[i]);
	}
	close_arr(w);
}

void pd_summary_json(struct pd_buf *out, const struct pd_comparison *c,
		     const struct pd_labels *labels)
{
	struct jw w = {out, 1};
	open_obj(&w, NULL);
	str(&w, "tool", "perfdelta");
	str(&w, "version", PD_VERSION);
	str(&w, "verdict", pd_verdict_name(c->verdict));
	num(&w, "threshold_pct", c->threshold_pct);
	str(&w, "correction", c->correction);
	run_obj(&w, "baseline", c->base, labels->base, &c->tb_base);
	run_obj(&w, "target", c->target, labels->target, &c->tb_target);
	event_obj(&w, &c->tb_target);
	open_arr(&w, "phases");
	for (size_t i = 0; i < c->n_windows; i++) {
		elem(&w);
		open_obj(&w, NULL);
		str(&w, "name", pd_phase_name(c->windows[i].phase));
		num(&w, "start_s", c->windows[i].start_s);
		num(&w, "end_s", c->windows[i].end_s);
		close_obj(&w);
	}
	close_arr(&w);
	open_arr(&w, "deltas");
	for (size_t i = 0; i < c->n_deltas; i++) {
		elem(&w);
		delta_obj(&w, c, &c->deltas[i]);
	}
	close_arr(&w);
	open_arr(&w, "findings");
	for (size_t i = 0; i < c->n_findings; i++) {
		elem(&w);
		finding_obj(&w, &c->findings[i]);
	}
	close_arr(&w);
	strv(&w, "not_comparable", &c->reasons);
	strv(&w, "matching", &c->matching);
	close_obj(&w);
	pd_buf_addch(out, '\n');
}
