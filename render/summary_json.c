#include "summary_json.h"
#include "jsonw.h"
#include "render.h"

#include <math.h>

static void run_obj(struct pd_jw *w, const char *k, const struct pd_run *run, const char *label,
		    struct pd_estimate thr)
{
	const struct pd_jenkins *j = &run->jenkins;
	pd_jw_open(w, k, '{');
	pd_jw_str(w, "label", label);
	pd_jw_str(w, "snapshot", pd_run_snapshot(run));
	pd_jw_str(w, "monitoring", run->prometheus ? "prometheus" : "perfdb");
	pd_jw_str(w, "build", pd_run_build(run));
	if (j->present) {
		pd_jw_open(w, "jenkins", '{');
		pd_jw_str(w, "job", j->job);
		pd_jw_int(w, "number", j->number);
		pd_jw_str(w, "result", j->result);
		pd_jw_str(w, "url", j->url);
		pd_jw_close(w, '}');
	} else {
		pd_jw_null(w, "jenkins");
	}
	pd_jw_nodes(w, "nodes", run);
	pd_jw_open(w, "kpis", '[');
	for (size_t i = 0; i < run->n_kpis; i++) {
		pd_jw_open(w, NULL, '{');
		pd_jw_str(w, "metric", run->kpis[i].metric);
		pd_jw_num(w, "value", run->kpis[i].value);
		pd_jw_str(w, "window", run->kpis[i].window);
		pd_jw_close(w, '}');
	}
	pd_jw_close(w, ']');
	pd_jw_num(w, "series_throughput", thr.ok ? thr.value : NAN);
	/* what the run lacks or how it was read: the report's Runs table states it too */
	pd_jw_strv(w, "notes", &run->notes);
	pd_jw_strv(w, "undecoded", &run->undecoded);
	pd_jw_close(w, '}');
}

/* The event the phases are cut at, whichever run holds it. */
static void event_obj(struct pd_jw *w, const struct pd_comparison *c)
{
	const struct pd_timebase *tb = pd_comparison_event(c);
	int none = !c->has_event;
	pd_jw_open(w, "event", '{');
	pd_jw_str(w, "kind", pd_timebase_event_name(none ? PD_EVENT_NONE : tb->event));
	pd_jw_str(w, "node", tb->node);
	pd_jw_num(w, "t_s", c->event_t_s);
	pd_jw_str(w, "source", none ? NULL : pd_timebase_source_name(tb->event_source));
	pd_jw_str(w, "agreement", tb->agreement);
	pd_jw_str(w, "run", none ? NULL : c->event_side < 0 ? "baseline" : "target");
	pd_jw_close(w, '}');
}

static void side(struct pd_jw *w, const char *k, const struct pd_summary *s)
{
	pd_jw_open(w, k, '{');
	pd_jw_int(w, "n", (int64_t)s->n);
	pd_jw_num(w, "median", s->median);
	pd_jw_num(w, "mean", s->mean);
	pd_jw_num(w, "p5", s->p5);
	pd_jw_num(w, "p95", s->p95);
	pd_jw_num(w, "min", s->min);
	pd_jw_num(w, "max", s->max);
	pd_jw_num(w, "slope", s->slope);
	pd_jw_close(w, '}');
}

/* ---- how each delta was judged (analyze/stats/infer.h) ---- */

static void interval_obj(struct pd_jw *w, const char *k, double est, double lo, double hi)
{
	pd_jw_open(w, k, '{');
	pd_jw_num(w, "delta", est);
	pd_jw_open(w, "ci", '[');
	pd_jw_num(w, NULL, lo);
	pd_jw_num(w, NULL, hi);
	pd_jw_close(w, ']');
	pd_jw_close(w, '}');
}

static void inference_of_delta(struct pd_jw *w, const struct pd_delta *d)
{
	static const char *const scales[] = {[PD_INFER_LOG_RATIO] = "log-ratio",
					     [PD_INFER_RATIO] = "ratio",
					     [PD_INFER_ABSOLUTE] = "absolute"};
	const struct pd_infer_result *r = &d->inf;
	pd_jw_str(w, "family", d->drill ? "drill-down" : "top-level");
	pd_jw_int(w, "m", (int64_t)r->m);
	pd_jw_num(w, "level", r->level);
	pd_jw_str(w, "noise", pd_tree_noise_name(r->noise));
	pd_jw_int(w, "baselines", (int64_t)r->k);
	pd_jw_str(w, "scale", scales[r->scale]);
	pd_jw_str(w, "reason", pd_infer_reason_name(r->reason));
	pd_jw_bool(w, "topology", d->topology);
	if (!isnan(d->node_pct))
		interval_obj(w, "per_node", d->node_pct, d->node_lo, d->node_hi);
	else
		pd_jw_null(w, "per_node");
	pd_jw_num(w, "margin_pct", r->margin_pct);
	pd_jw_str(w, "margin_source", pd_tree_margin_name(r->margin_from));
	if (!isnan(d->run_offset_pct))
		pd_jw_num(w, "run_offset_pct", d->run_offset_pct);
	else
		pd_jw_null(w, "run_offset_pct");
	if (r->valid & PD_INFER_HAS_PCT)
		pd_jw_num(w, "mde_pct", r->mde_pct);
	else
		pd_jw_null(w, "mde_pct");
	pd_jw_num(w, "mde_abs", r->mde_abs);
	if (r->baselines_needed)
		pd_jw_int(w, "baselines_needed", (int64_t)r->baselines_needed);
	else
		pd_jw_null(w, "baselines_needed");
	pd_jw_bool(w, "headline", d->headline);
	pd_jw_bool(w, "gates", d->gates);
	if (r->valid & PD_INFER_HAS_ABS)
		interval_obj(w, "abs", r->delta_abs, r->lo_abs, r->hi_abs);
	else
		pd_jw_null(w, "abs");
	if (r->valid & PD_INFER_HAS_COUNT)
		interval_obj(w, "count", r->delta_count, r->lo_count, r->hi_count);
	else
		pd_jw_null(w, "count");
}

static void inference_obj(struct pd_jw *w, const struct pd_comparison *c)
{
	pd_jw_open(w, "inference", '{');
	pd_jw_str(w, "method", c->method);
	pd_jw_str(w, "family", c->family);
	pd_jw_str(w, "judged", c->judged);
	pd_jw_num(w, "alpha", c->alpha);
	pd_jw_open(w, "m", '{');
	for (int p = 0; p < PD_PHASE_COUNT; p++)
		if (pd_comparison_has_phase(c, (enum pd_phase)p))
			pd_jw_int(w, pd_phase_name((enum pd_phase)p), (int64_t)c->family_m[p]);
	pd_jw_close(w, '}');
	pd_jw_str(w, "noise", pd_tree_noise_name(c->noise));
	pd_jw_str(w, "noise_text", pd_infer_noise_text(c->noise));
	pd_jw_close(w, '}');
}

/* Every baseline, the first as "baseline" is. */
static void baselines_arr(struct pd_jw *w, const struct pd_comparison *c,
			  const struct pd_labels *labels)
{
	pd_jw_open(w, "baselines", '[');
	for (size_t j = 0; j < c->n_bases; j++)
		run_obj(w, NULL, c->bases[j],
			j ? pd_render_label(c->bases[j], NULL) : labels->base,
			c->kpi_bases[j].served);
	pd_jw_close(w, ']');
}

/* How the delta's scope aggregates the members it holds in its phase
 * (docs/summary-json.md): one node is that node's series. */
static void agg_keys(struct pd_jw *w, const struct pd_view *v, const struct pd_delta *d)
{
	pd_jw_str(w, "aggregation",
		  pd_agg_name(d->members == 1 && v->members > 1 ? PD_AGG_ONE : v->agg));
	pd_jw_int(w, "members", (int64_t)d->members);
}

static void delta_obj(struct pd_jw *w, const struct pd_comparison *c, const struct pd_delta *d)
{
	const struct pd_view *v = &c->views[d->view];
	pd_jw_open(w, NULL, '{');
	pd_jw_str(w, "metric", v->metric);
	pd_jw_str(w, "scope", v->scope.name);
	pd_jw_str(w, "phase", pd_phase_name(d->phase));
	pd_jw_str(w, "unit", pd_unit_name(v->unit));
	agg_keys(w, v, d);
	pd_jw_str(w, "case_scope", v->case_scope);
	pd_jw_bool(w, "judged_as_role", d->as_role);
	pd_jw_bool(w, "zero_in_both_runs", v->zero);
	side(w, "baseline", &d->base);
	if (d->base_runs) {
		pd_jw_open(w, "baseline_runs", '[');
		for (size_t j = 0; j < c->n_bases; j++)
			pd_jw_num(w, NULL, d->base_runs[j]);
		pd_jw_close(w, ']');
	} else {
		pd_jw_null(w, "baseline_runs");
	}
	side(w, "target", &d->target);
	pd_jw_num(w, "delta_pct", d->delta_pct);
	pd_jw_open(w, "ci_pct", '[');
	pd_jw_num(w, NULL, d->ci_lo);
	pd_jw_num(w, NULL, d->ci_hi);
	pd_jw_close(w, ']');
	pd_jw_num(w, "p_value", d->p_value);
	pd_jw_num(w, "p_adj", d->p_adj);
	pd_jw_str(w, "verdict", pd_verdict_name(d->verdict));
	inference_of_delta(w, d);
	pd_jw_close(w, '}');
}

static void finding_obj(struct pd_jw *w, const struct pd_finding *f)
{
	pd_jw_open(w, NULL, '{');
	pd_jw_str(w, "kind", pd_finding_kind_name(f->kind));
	pd_jw_str(w, "metric", f->metric);
	pd_jw_str(w, "scope", f->scope.name);
	pd_jw_str(w, "phase", f->has_phase ? pd_phase_name(f->phase) : NULL);
	pd_jw_str(w, "direction", f->direction > 0 ? "up" : f->direction < 0 ? "down" : NULL);
	pd_jw_num(w, "delta_pct", f->delta_pct);
	pd_jw_num(w, "value", f->value);
	pd_jw_str(w, "text", f->text);
	pd_jw_str(w, "words", f->words);
	pd_jw_str(w, "recommendation", f->advice);
	pd_jw_close(w, '}');
}

static void missing(struct pd_jw *w, const char *k, unsigned bits)
{
	pd_jw_open(w, k, '[');
	for (int s = 0; s < PD_CONFIGDIFF_SOURCES; s++)
		if (bits & (1u << s))
			pd_jw_str(w, NULL,
				  pd_configdiff_source_name((enum pd_configdiff_source)s));
	pd_jw_close(w, ']');
}

/* The settings that differ between the runs (analyze/runs/configdiff.h). */
static void config_diff_obj(struct pd_jw *w, const struct pd_configdiff *d)
{
	pd_jw_open(w, "config_diff", '{');
	pd_jw_open(w, "entries", '[');
	for (size_t i = 0; i < d->n; i++) {
		const struct pd_configdiff_entry *e = &d->e[i];
		pd_jw_open(w, NULL, '{');
		pd_jw_str(w, "source", pd_configdiff_source_name(e->source));
		pd_jw_str(w, "change", pd_configdiff_change_name(e->change));
		pd_jw_str(w, "section", e->section);
		pd_jw_str(w, "key", e->key);
		pd_jw_str(w, "item", e->item);
		pd_jw_str(w, "baseline", e->base);
		pd_jw_str(w, "target", e->target);
		pd_jw_close(w, '}');
	}
	pd_jw_close(w, ']');
	missing(w, "missing_baseline", d->missing_base);
	missing(w, "missing_target", d->missing_target);
	pd_jw_close(w, '}');
}

/* The event's own story within the target (analyze/tell/nodeshift.h). */
static void story_row(struct pd_jw *w, const struct pd_comparison *c,
		      const struct pd_nodeshift_row *r)
{
	pd_jw_open(w, NULL, '{');
	pd_jw_str(w, "kind", pd_nodeshift_kind_name(r->kind));
	pd_jw_str(w, "host", r->host);
	pd_jw_int(w, "members", (int64_t)r->members);
	pd_jw_num(w, "pre_median", r->pre);
	pd_jw_num(w, "post_median", r->post);
	pd_jw_num(w, "change_pct", r->change_pct);
	pd_jw_num(w, "baseline_post_median", r->base_post);
	pd_jw_num(w, "vs_baseline_pct", r->base_pct);
	pd_jw_str(w, "verdict",
		  r->delta >= 0 ? pd_verdict_name(c->deltas[r->delta].verdict) : NULL);
	pd_jw_close(w, '}');
}

static void story_arr(struct pd_jw *w, const struct pd_comparison *c)
{
	pd_jw_open(w, "event_story", '[');
	for (size_t i = 0; c->shift && i < c->shift->n; i++) {
		const struct pd_nodeshift_metric *m = &c->shift->m[i];
		pd_jw_open(w, NULL, '{');
		pd_jw_str(w, "metric", m->metric);
		pd_jw_str(w, "unit", pd_unit_name(m->unit));
		pd_jw_str(w, "aggregation", pd_agg_name(m->agg));
		pd_jw_open(w, "rows", '[');
		for (size_t k = 0; k < m->n_rows; k++)
			story_row(w, c, &m->rows[k]);
		pd_jw_close(w, ']');
		pd_jw_close(w, '}');
	}
	pd_jw_close(w, ']');
}

/* The event's questions with their answers (docs/summary-json.md "questions"). */
static void questions_arr(struct pd_jw *w, const struct pd_comparison *c)
{
	pd_jw_open(w, "questions", '[');
	for (size_t i = 0; i < c->n_questions; i++) {
		const struct pd_question *q = &c->questions[i];
		pd_jw_open(w, NULL, '{');
		pd_jw_str(w, "kind", pd_question_kind_name(q->kind));
		pd_jw_str(w, "role", q->service ? pd_service_name(q->service) : NULL);
		pd_jw_str(w, "question", q->question);
		pd_jw_bool(w, "answered", q->answered);
		pd_jw_str(w, "answer", q->brief);
		pd_jw_str(w, "words", q->words);
		pd_jw_str(w, "recommendation", q->advice);
		pd_jw_open(w, "findings", '[');
		for (size_t k = 0; k < q->n; k++)
			pd_jw_int(w, NULL, (int64_t)q->finding[k] + 1);
		pd_jw_close(w, ']');
		pd_jw_close(w, '}');
	}
	pd_jw_close(w, ']');
}

/* perfrunner's windowed KPIs, paired (analyze/runs/kpi_windows.c) */
static void kpi_windows_arr(struct pd_jw *w, const struct pd_comparison *c)
{
	pd_jw_open(w, "kpi_windows", '[');
	for (size_t i = 0; i < c->n_kpi_windows; i++) {
		const struct pd_kpi_pair *k = &c->kpi_windows[i];
		pd_jw_open(w, NULL, '{');
		pd_jw_str(w, "metric", k->metric);
		pd_jw_str(w, "window", k->window);
		pd_jw_num(w, "baseline", k->base);
		pd_jw_num(w, "target", k->target);
		pd_jw_num(w, "change_pct", k->change_pct);
		pd_jw_close(w, '}');
	}
	pd_jw_close(w, ']');
}

/* The runs' latency distributions (analyze/align/latency.c). */
static void latency_arr(struct pd_jw *w, const struct pd_comparison *c)
{
	pd_jw_open(w, "latency", '[');
	for (size_t i = 0; i < c->n_latency; i++) {
		const struct pd_latency *l = &c->latency[i];
		pd_jw_open(w, NULL, '{');
		pd_jw_str(w, "metric", l->metric);
		pd_jw_str(w, "phase", pd_phase_name(l->phase));
		pd_jw_open(w, "points", '[');
		for (size_t k = 0; k < l->n; k++) {
			pd_jw_open(w, NULL, '{');
			pd_jw_num(w, "bound_ms", l->x[k]);
			pd_jw_num(w, "baseline_pct", l->base[k]);
			pd_jw_num(w, "target_pct", l->target[k]);
			pd_jw_close(w, '}');
		}
		pd_jw_close(w, ']');
		pd_jw_close(w, '}');
	}
	pd_jw_close(w, ']');
}

/* The percentiles of the per-request latency collectors (analyze/align/latency.c). */
static void latency_pct_obj(struct pd_jw *w, const struct pd_latency_pct *l)
{
	pd_jw_open(w, NULL, '{');
	pd_jw_str(w, "metric", l->metric);
	pd_jw_str(w, "phase", pd_phase_name(l->phase));
	pd_jw_str(w, "unit", "ms");
	pd_jw_int(w, "baseline_n", (int64_t)l->base.n);
	pd_jw_int(w, "target_n", (int64_t)l->target.n);
	pd_jw_bool(w, "charted", l->drawn);
	pd_jw_open(w, "points", '[');
	for (size_t k = 0; k < PD_LATENCY_PCTS; k++) {
		pd_jw_open(w, NULL, '{');
		pd_jw_num(w, "p", l->p[k]);
		pd_jw_int(w, "min_samples", (int64_t)l->need[k]);
		pd_jw_num(w, "baseline_ms", l->base.ms[k]);
		pd_jw_num(w, "target_ms", l->target.ms[k]);
		pd_jw_num(w, "change_pct", l->change_pct[k]);
		pd_jw_str(w, "baseline_status", pd_latency_status_name(l->base.status[k]));
		pd_jw_str(w, "target_status", pd_latency_status_name(l->target.status[k]));
		pd_jw_close(w, '}');
	}
	pd_jw_close(w, ']');
	pd_jw_close(w, '}');
}

void pd_summary_json(struct pd_buf *out, const struct pd_comparison *c,
		     const struct pd_labels *labels)
{
	struct pd_jw w = PD_JW_INIT(out);
	pd_jw_open(&w, NULL, '{');
	pd_jw_str(&w, "tool", "perfdelta");
	pd_jw_str(&w, "version", PD_VERSION);
	pd_jw_str(&w, "verdict", pd_verdict_name(c->verdict));
	pd_jw_num(&w, "threshold_pct", c->threshold_pct);
	pd_jw_str(&w, "correction", c->correction);
	pd_jw_strv(&w, "warnings", &c->warnings);
	inference_obj(&w, c);
	run_obj(&w, "baseline", c->base, labels->base, c->kpi_bases[0].served);
	baselines_arr(&w, c, labels);
	run_obj(&w, "target", c->target, labels->target, c->kpi_target.served);
	event_obj(&w, c);
	config_diff_obj(&w, c->config_diff);
	questions_arr(&w, c);
	story_arr(&w, c);
	pd_jw_open(&w, "phases", '[');
	for (int p = 0; p < PD_PHASE_COUNT; p++) {
		if (!pd_comparison_has_phase(c, (enum pd_phase)p))
			continue;
		pd_jw_open(&w, NULL, '{');
		pd_jw_str(&w, "name", pd_phase_name(c->windows[p].phase));
		pd_jw_num(&w, "start_s", c->windows[p].start_s);
		pd_jw_num(&w, "end_s", c->windows[p].end_s);
		pd_jw_close(&w, '}');
	}
	pd_jw_close(&w, ']');
	pd_jw_open(&w, "deltas", '[');
	for (size_t i = 0; i < c->n_deltas; i++)
		delta_obj(&w, c, &c->deltas[i]);
	pd_jw_close(&w, ']');
	pd_jw_open(&w, "findings", '[');
	for (size_t i = 0; i < c->n_findings; i++)
		finding_obj(&w, &c->findings[i]);
	pd_jw_close(&w, ']');
	kpi_windows_arr(&w, c);
	latency_arr(&w, c);
	pd_jw_open(&w, "latency_percentiles", '[');
	for (size_t i = 0; i < c->n_latency_pct; i++)
		latency_pct_obj(&w, &c->latency_pct[i]);
	pd_jw_close(&w, ']');
	pd_jw_strv(&w, "not_comparable", &c->reasons);
	pd_jw_strv(&w, "matching", &c->matching);
	pd_jw_close(&w, '}');
	pd_buf_addch(out, '\n');
}
