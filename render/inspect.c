#include "inspect.h"
#include "escape.h"
#include "jsonw.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <time.h>

/* ISO 8601 UTC with milliseconds: 2026-11-02T18:20:00.123Z. */
static void add_utc(struct pd_buf *b, int64_t ms)
{
	time_t s = (time_t)(ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
	struct tm tm;
	char tmp[32];
	gmtime_r(&s, &tm);
	strftime(tmp, sizeof(tmp), "%Y-%m-%dT%H:%M:%S", &tm);
	pd_buf_addf(b, "%s.%03dZ", tmp, (int)(ms - (int64_t)s * 1000));
}

/* A console time (local wall-clock stored as if UTC), without a zone. */
static void add_local(struct pd_buf *b, int64_t local_s)
{
	time_t s = (time_t)local_s;
	struct tm tm;
	char tmp[32];
	gmtime_r(&s, &tm);
	strftime(tmp, sizeof(tmp), "%Y-%m-%dT%H:%M:%S", &tm);
	pd_buf_adds(b, tmp);
}

static void add_services(struct pd_buf *b, unsigned services, const char *sep)
{
	int first = 1;
	for (unsigned bit = 1; bit < (1u << PD_SVC_COUNT); bit <<= 1) {
		if (!(services & bit))
			continue;
		pd_buf_addf(b, "%s%s", first ? "" : sep, pd_service_name(bit));
		first = 0;
	}
}

static const char *or_dash(const char *s)
{
	return s && *s ? s : "-";
}

static void text_str(struct pd_buf *b, const char *label, const char *s)
{
	pd_buf_addf(b, "%-12s ", label);
	pd_esc_text(b, or_dash(s));
	pd_buf_addch(b, '\n');
}

static void text_header(struct pd_buf *b, const struct pd_run *run)
{
	text_str(b, "run", run->dir);
	for (size_t i = 0; i < run->snapshots.n; i++)
		text_str(b, i ? "" : "snapshot", run->snapshots.v[i]);
	if (!run->snapshots.n)
		text_str(b, "snapshot", NULL);
	text_str(b, "cluster", run->cluster);
	text_str(b, "spec", run->spec.path);
	text_str(b, "test config", run->test.path);
	text_str(b, "test", run->cfg.test);
	if (run->cfg.access_time_s)
		pd_buf_addf(b, "%-12s %ld s\n", "access time", run->cfg.access_time_s);
	if (run->cfg.shutdown_type)
		text_str(b, "shutdown", run->cfg.shutdown_type);
}

static void text_jenkins(struct pd_buf *b, const struct pd_run *run)
{
	const struct pd_jenkins *j = &run->jenkins;
	if (!j->present) {
		text_str(b, "jenkins", NULL);
		return;
	}
	pd_buf_addf(b, "%-12s ", "jenkins");
	pd_esc_text(b, or_dash(j->job));
	pd_buf_addf(b, " #%ld ", j->number);
	pd_esc_text(b, j->building ? "BUILDING" : or_dash(j->result));
	pd_buf_adds(b, ", started ");
	add_utc(b, j->timestamp_ms);
	pd_buf_addf(b, ", %.0f s\n", (double)j->duration_ms / 1000.0);
	text_str(b, "url", j->url);
	for (size_t i = 0; i < j->n_params; i++) {
		pd_buf_addf(b, "%-12s ", i ? "" : "parameters");
		pd_esc_text(b, j->params[i].name);
		pd_buf_adds(b, " = ");
		pd_esc_text(b, j->params[i].value);
		pd_buf_addch(b, '\n');
	}
}

static void text_list(struct pd_buf *b, const char *title, const struct pd_strv *sv);

static void text_nodes(struct pd_buf *b, const struct pd_run *run)
{
	size_t width = 18; /* the host column: FQDNs widen it, never run into the services */
	for (size_t i = 0; i < run->n_nodes; i++)
		if (strlen(run->nodes[i].host) + 2 > width)
			width = strlen(run->nodes[i].host) + 2;
	pd_buf_addf(b, "\nnodes (%zu)\n", run->n_nodes);
	for (size_t i = 0; i < run->n_nodes; i++) {
		const struct pd_node *n = &run->nodes[i];
		pd_buf_addf(b, "  %-9s ", n->role);
		pd_esc_text(b, n->host);
		pd_buf_addf(b, "%*s", (int)(width - strlen(n->host)), "");
		add_services(b, n->services, ",");
		pd_buf_addch(b, '\n');
	}
	if (run->clients.n)
		text_list(b, "clients", &run->clients); /* series scope "client" */
	if (run->others.n)
		text_list(b, "other clusters of the spec", &run->others);
}

static void text_series_line(struct pd_buf *b, const struct pd_series *s,
			     const struct pd_series_facts *sf)
{
	struct pd_sampling_gaps g = sf->gaps;
	pd_buf_adds(b, "  ");
	pd_esc_text(b, s->collector);
	pd_buf_addch(b, '/');
	pd_esc_text(b, s->metric);
	pd_buf_addf(b, "  %s", pd_scope_name(s->scope));
	if (s->bucket) {
		pd_buf_adds(b, " bucket=");
		pd_esc_text(b, s->bucket);
	}
	if (s->index) {
		pd_buf_adds(b, " index=");
		pd_esc_text(b, s->index);
	}
	if (s->server) {
		pd_buf_adds(b, s->scope == PD_SCOPE_CLIENT ? " client=" : " server=");
		pd_esc_text(b, s->server);
	}
	pd_buf_addf(b, "  n=%zu", s->n);
	if (s->n) {
		pd_buf_adds(b, " ");
		add_utc(b, s->t_ms[0]);
		pd_buf_addf(b, " +%.1f s", (double)(s->t_ms[s->n - 1] - s->t_ms[0]) / 1000.0);
	}
	if (g.n_gaps)
		pd_buf_addf(b, " gaps=%zu missing=%zu", g.n_gaps, g.missing);
	if (s->n_dup || s->n_unsorted)
		pd_buf_addf(b, " duplicates=%zu unsorted=%zu", s->n_dup, s->n_unsorted);
	if (sf->constant) {
		pd_buf_adds(b, " constant=");
		pd_esc_json_num(b, sf->constant_value);
	}
	pd_buf_addch(b, '\n');
}

static void series_range(const struct pd_run *run, int64_t *lo, int64_t *hi)
{
	*lo = INT64_MAX, *hi = INT64_MIN;
	for (size_t i = 0; i < run->n_series; i++) {
		const struct pd_series *s = run->series[i];
		if (!s->n)
			continue;
		if (s->t_ms[0] < *lo)
			*lo = s->t_ms[0];
		if (s->t_ms[s->n - 1] > *hi)
			*hi = s->t_ms[s->n - 1];
	}
}

static void text_series(struct pd_buf *b, const struct pd_run *run, const struct pd_facts *f)
{
	int64_t interval = f->interval_ms, lo, hi;
	series_range(run, &lo, &hi);
	size_t constant = f->n_constant;
	pd_buf_addf(b, "\nseries (%zu, %zu samples, interval %.1f s", run->n_series,
		    run->n_samples, (double)interval / 1000.0);
	if (constant)
		pd_buf_addf(b, "; %zu constant: every sample the same", constant);
	pd_buf_adds(b, ")\n");
	if (lo <= hi) {
		pd_buf_adds(b, "  time range ");
		add_utc(b, lo);
		pd_buf_adds(b, " .. ");
		add_utc(b, hi);
		pd_buf_addf(b, " (%.1f s)\n", (double)(hi - lo) / 1000.0);
	}
	for (size_t i = 0; i < run->n_series; i++)
		text_series_line(b, run->series[i], &f->series[i]);
}

static void text_events(struct pd_buf *b, const struct pd_run *run)
{
	pd_buf_addf(b, "\nconsole events (%zu, local time of the console)\n", run->n_events);
	for (size_t i = 0; i < run->n_events; i++) {
		const struct pd_event *e = &run->events[i];
		pd_buf_adds(b, "  ");
		add_local(b, e->local_s);
		pd_buf_addf(b, "  line %-6ld %s", e->line, pd_event_kind_name(e->kind));
		if (e->kind == PD_EV_REBALANCE_PROGRESS)
			pd_buf_addf(b, " %.1f %%", e->value);
		if (e->node) {
			pd_buf_addch(b, ' ');
			pd_esc_text(b, e->node);
		}
		for (size_t k = 0; k < e->ejected.n; k++) {
			pd_buf_adds(b, k ? "," : " ejected=");
			pd_esc_text(b, e->ejected.v[k]);
		}
		pd_buf_addch(b, '\n');
	}
	text_str(b, "result", run->console_result);
}

static void text_kpis(struct pd_buf *b, const struct pd_run *run)
{
	pd_buf_addf(b, "\nKPIs (%zu)\n", run->n_kpis);
	for (size_t i = 0; i < run->n_kpis; i++) {
		const struct pd_kpi *k = &run->kpis[i];
		pd_buf_adds(b, "  ");
		pd_esc_text(b, k->metric);
		pd_buf_addf(b, " = %.1f%s", k->value, k->dry_run ? " (dry run)" : "");
		if (k->window) {
			pd_buf_adds(b, " (latency window ");
			pd_esc_text(b, k->window);
			pd_buf_addf(b, ", %ld samples)", k->window_samples);
		}
		pd_buf_addch(b, '\n');
	}
}

static void text_list(struct pd_buf *b, const char *title, const struct pd_strv *sv)
{
	if (!sv->n)
		return;
	pd_buf_addf(b, "\n%s (%zu)\n", title, sv->n);
	for (size_t i = 0; i < sv->n; i++) {
		pd_buf_adds(b, "  ");
		pd_esc_text(b, sv->v[i]);
		pd_buf_addch(b, '\n');
	}
}

static void add_offset(struct pd_buf *b, int64_t off)
{
	int64_t a = off < 0 ? -off : off;
	pd_buf_addf(b, "UTC%c%02d:%02d", off < 0 ? '-' : '+', (int)(a / 3600),
		    (int)(a % 3600 / 60));
}

static void text_timebase(struct pd_buf *b, const struct pd_facts *f)
{
	const struct pd_timebase *tb = &f->tb;
	struct pd_estimate thr = f->throughput;
	pd_buf_adds(b, "\ntime base\n  phase start  ");
	add_utc(b, tb->t0_ms);
	pd_buf_addf(b, ", %.1f s long, interval %.1f s\n",
		    (double)(tb->end_ms - tb->t0_ms) / 1000.0,
		    (double)tb->interval_ms / 1000.0);
	pd_buf_adds(b, "  console clock ");
	if (tb->has_offset) {
		add_offset(b, tb->offset_s);
		pd_buf_addf(b, " (from %s", pd_timebase_source_name(tb->offset_source));
		if (tb->offset_series.ok)
			pd_buf_addf(b, "; series fit %+.0f s", tb->offset_series.value);
		if (tb->offset_build.ok)
			pd_buf_addf(b, "; build start %+.0f s", tb->offset_build.value);
		pd_buf_adds(b, ")\n");
	} else {
		pd_buf_adds(b, "unknown (no rebalance in the series, no build start)\n");
	}
	pd_buf_addf(b, "  event        %s", pd_timebase_event_name(tb->event));
	if (tb->event != PD_EVENT_NONE) {
		pd_buf_adds(b, " of ");
		pd_esc_text(b, or_dash(tb->node));
		pd_buf_addf(b, " at %.1f s (from %s)\n  agreement    %s", tb->event_s,
			    pd_timebase_source_name(tb->event_source),
			    tb->agreement ? tb->agreement : "-");
		if (tb->rebalance_end_s.ok)
			pd_buf_addf(b, "\n  rebalance    ends at %.1f s",
				    tb->rebalance_end_s.value);
	}
	pd_buf_addch(b, '\n');
	if (thr.ok)
		pd_buf_addf(b,
			    "  throughput   n1ql_stats/query_requests mean %.1f req/s over the "
			    "phase\n",
			    thr.value);
}

void pd_inspect_text(struct pd_buf *out, const struct pd_run *run, const struct pd_facts *f)
{
	text_header(out, run);
	text_jenkins(out, run);
	text_timebase(out, f);
	text_nodes(out, run);
	text_series(out, run, f);
	text_events(out, run);
	text_kpis(out, run);
	text_list(out, "undecoded perfdb databases", &run->undecoded);
	text_list(out, "notes", &run->notes);
}

/* JSON: keys in a fixed order, through the shared writer. */
static void json_series_one(struct pd_jw *w, const struct pd_series *s,
			    const struct pd_series_facts *sf)
{
	struct pd_sampling_gaps g = sf->gaps;
	pd_jw_open(w, NULL, '{');
	pd_jw_str(w, "db", s->db);
	pd_jw_str(w, "metric", s->metric);
	pd_jw_str(w, "collector", s->collector);
	pd_jw_str(w, "scope", pd_scope_name(s->scope));
	pd_jw_str(w, "bucket", s->bucket);
	pd_jw_str(w, "index", s->index);
	pd_jw_str(w, "server", s->server);
	pd_jw_str(w, "unit", pd_unit_name(s->unit));
	pd_jw_int(w, "n", (int64_t)s->n);
	if (s->n) {
		pd_jw_int(w, "start_ms", s->t_ms[0]);
		pd_jw_int(w, "end_ms", s->t_ms[s->n - 1]);
	}
	pd_jw_int(w, "gaps", (int64_t)g.n_gaps);
	pd_jw_int(w, "missing", (int64_t)g.missing);
	pd_jw_int(w, "duplicates", (int64_t)s->n_dup);
	pd_jw_int(w, "unsorted", (int64_t)s->n_unsorted);
	pd_jw_bool(w, "constant", sf->constant);
	pd_jw_close(w, '}');
}

static void json_events(struct pd_jw *w, const struct pd_run *run)
{
	pd_jw_open(w, "events", '[');
	for (size_t i = 0; i < run->n_events; i++) {
		const struct pd_event *e = &run->events[i];
		pd_jw_open(w, NULL, '{');
		pd_jw_str(w, "kind", pd_event_kind_name(e->kind));
		pd_jw_int(w, "local_s", e->local_s);
		pd_jw_int(w, "line", e->line);
		pd_jw_str(w, "node", e->node);
		if (e->kind == PD_EV_REBALANCE_PROGRESS)
			pd_jw_num(w, "value", e->value);
		if (e->kind == PD_EV_REBALANCE_START) {
			pd_jw_strv(w, "known", &e->known);
			pd_jw_strv(w, "ejected", &e->ejected);
		}
		pd_jw_close(w, '}');
	}
	pd_jw_close(w, ']');
}

static void json_kpis(struct pd_jw *w, const struct pd_run *run)
{
	pd_jw_open(w, "kpis", '[');
	for (size_t i = 0; i < run->n_kpis; i++) {
		const struct pd_kpi *k = &run->kpis[i];
		pd_jw_open(w, NULL, '{');
		pd_jw_str(w, "metric", k->metric);
		pd_jw_num(w, "value", k->value);
		pd_jw_bool(w, "dry_run", k->dry_run);
		pd_jw_int(w, "local_s", k->local_s);
		pd_jw_int(w, "line", k->line);
		pd_jw_str(w, "build", k->build);
		pd_jw_strv(w, "snapshots", &k->snapshots);
		pd_jw_str(w, "window", k->window);
		pd_jw_int(w, "window_samples", k->window_samples);
		pd_jw_close(w, '}');
	}
	pd_jw_close(w, ']');
}

static void json_jenkins(struct pd_jw *w, const struct pd_jenkins *j)
{
	if (!j->present) {
		pd_jw_null(w, "jenkins");
		return;
	}
	pd_jw_open(w, "jenkins", '{');
	pd_jw_str(w, "job", j->job);
	pd_jw_int(w, "number", j->number);
	pd_jw_str(w, "id", j->id);
	pd_jw_str(w, "result", j->result);
	pd_jw_bool(w, "building", j->building);
	pd_jw_int(w, "timestamp_ms", j->timestamp_ms);
	pd_jw_int(w, "duration_ms", j->duration_ms);
	pd_jw_str(w, "url", j->url);
	pd_jw_str(w, "full_display_name", j->full_display_name);
	pd_jw_open(w, "parameters", '{');
	for (size_t i = 0; i < j->n_params; i++)
		pd_jw_str(w, j->params[i].name, j->params[i].value);
	pd_jw_close(w, '}');
	pd_jw_close(w, '}');
}

static void json_test(struct pd_jw *w, const struct pd_run *run)
{
	pd_jw_open(w, "test", '{');
	pd_jw_str(w, "spec", run->spec.path);
	pd_jw_str(w, "config", run->test.path);
	pd_jw_str(w, "test", run->cfg.test);
	pd_jw_str(w, "title", run->cfg.title);
	pd_jw_str(w, "shutdown_type", run->cfg.shutdown_type);
	pd_jw_int(w, "initial_nodes", run->cfg.initial_nodes);
	pd_jw_int(w, "access_time_s", run->cfg.access_time_s);
	pd_jw_int(w, "stats_interval_s", run->cfg.stats_interval_s);
	pd_jw_close(w, '}');
}

static void json_estimate(struct pd_jw *w, const char *key, struct pd_estimate e)
{
	pd_jw_num(w, key, e.ok ? e.value : NAN);
}

static void json_timebase(struct pd_jw *w, const struct pd_facts *f)
{
	const struct pd_timebase *tb = &f->tb;
	pd_jw_open(w, "timebase", '{');
	pd_jw_int(w, "t0_ms", tb->t0_ms);
	pd_jw_int(w, "end_ms", tb->end_ms);
	pd_jw_int(w, "interval_ms", tb->interval_ms);
	if (tb->has_offset)
		pd_jw_int(w, "utc_offset_s", tb->offset_s);
	else
		pd_jw_null(w, "utc_offset_s");
	pd_jw_str(w, "offset_source", pd_timebase_source_name(tb->offset_source));
	json_estimate(w, "offset_series_s", tb->offset_series);
	json_estimate(w, "offset_build_s", tb->offset_build);
	pd_jw_open(w, "event", '{');
	pd_jw_str(w, "kind", pd_timebase_event_name(tb->event));
	pd_jw_str(w, "node", tb->node);
	pd_jw_num(w, "t_s", tb->event != PD_EVENT_NONE ? tb->event_s : NAN);
	pd_jw_str(w, "source", pd_timebase_source_name(tb->event_source));
	json_estimate(w, "console_s", tb->ev_console);
	json_estimate(w, "series_s", tb->ev_series);
	json_estimate(w, "config_s", tb->ev_config);
	json_estimate(w, "rebalance_end_s", tb->rebalance_end_s);
	pd_jw_str(w, "agreement", tb->agreement);
	pd_jw_close(w, '}');
	json_estimate(w, "series_throughput", f->throughput);
	pd_jw_close(w, '}');
}

void pd_inspect_json(struct pd_buf *out, const struct pd_run *run, const struct pd_facts *f)
{
	struct pd_jw w = PD_JW_INIT(out);
	int64_t interval = f->interval_ms;
	pd_jw_open(&w, NULL, '{');
	pd_jw_str(&w, "run", run->dir);
	pd_jw_strv(&w, "snapshots", &run->snapshots);
	pd_jw_str(&w, "cluster", run->cluster);
	json_test(&w, run);
	json_jenkins(&w, &run->jenkins);
	json_timebase(&w, f);
	pd_jw_nodes(&w, "nodes", run);
	pd_jw_str(&w, "spec_name", run->spec_name);
	pd_jw_strv(&w, "clients", &run->clients);
	pd_jw_strv(&w, "other_clusters", &run->others);
	pd_jw_strv(&w, "other_cluster_dbs", &run->other_dbs);
	pd_jw_int(&w, "interval_ms", interval);
	pd_jw_int(&w, "samples", (int64_t)run->n_samples);
	pd_jw_open(&w, "series", '[');
	for (size_t i = 0; i < run->n_series; i++)
		json_series_one(&w, run->series[i], &f->series[i]);
	pd_jw_close(&w, ']');
	json_events(&w, run);
	json_kpis(&w, run);
	pd_jw_str(&w, "console_result", run->console_result);
	pd_jw_strv(&w, "undecoded", &run->undecoded);
	pd_jw_strv(&w, "notes", &run->notes);
	pd_jw_close(&w, '}');
	pd_buf_addch(out, '\n');
}
