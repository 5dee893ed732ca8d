#include "inspect.h"
#include "escape.h"
#include "../analyze/normalize.h"

#include <inttypes.h>
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

static void text_nodes(struct pd_buf *b, const struct pd_run *run)
{
	pd_buf_addf(b, "\nnodes (%zu)\n", run->n_nodes);
	for (size_t i = 0; i < run->n_nodes; i++) {
		const struct pd_node *n = &run->nodes[i];
		pd_buf_addf(b, "  %-9s ", n->role);
		pd_esc_text(b, n->host);
		pd_buf_addf(b, "%*s", (int)(18 - (strlen(n->host) < 18 ? strlen(n->host) : 18)),
			    "");
		add_services(b, n->services, ",");
		pd_buf_addch(b, '\n');
	}
}

static void text_series_line(struct pd_buf *b, const struct pd_series *s, int64_t interval)
{
	struct pd_gaps g = pd_series_gaps(s, interval);
	pd_buf_adds(b, "  ");
	pd_esc_text(b, s->collector);
	pd_buf_addch(b, '/');
	pd_esc_text(b, s->metric);
	pd_buf_addf(b, "  %s", pd_scope_name(s->scope));
	if (s->bucket) {
		pd_buf_adds(b, " bucket=");
		pd_esc_text(b, s->bucket);
	}
	if (s->server) {
		pd_buf_adds(b, " server=");
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

static void text_series(struct pd_buf *b, const struct pd_run *run)
{
	int64_t interval = pd_run_interval_ms(run), lo, hi;
	series_range(run, &lo, &hi);
	pd_buf_addf(b, "\nseries (%zu, %zu samples, interval %.1f s)\n", run->n_series,
		    run->n_samples, (double)interval / 1000.0);
	if (lo <= hi) {
		pd_buf_adds(b, "  time range ");
		add_utc(b, lo);
		pd_buf_adds(b, " .. ");
		add_utc(b, hi);
		pd_buf_addf(b, " (%.1f s)\n", (double)(hi - lo) / 1000.0);
	}
	for (size_t i = 0; i < run->n_series; i++)
		text_series_line(b, run->series[i], interval);
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
		pd_buf_addf(b, " = %.1f%s\n", k->value, k->dry_run ? " (dry run)" : "");
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

static void text_timebase(struct pd_buf *b, const struct pd_run *run,
			  const struct pd_timebase *tb)
{
	struct pd_estimate thr = pd_series_throughput(run, tb);
	pd_buf_adds(b, "\ntime base\n  phase start  ");
	add_utc(b, tb->t0_ms);
	pd_buf_addf(b, ", %.1f s long, interval %.1f s\n",
		    (double)(tb->end_ms - tb->t0_ms) / 1000.0,
		    (double)tb->interval_ms / 1000.0);
	pd_buf_adds(b, "  console clock ");
	if (tb->has_offset) {
		add_offset(b, tb->offset_s);
		pd_buf_addf(b, " (from %s", pd_source_name(tb->offset_source));
		if (tb->offset_series.ok)
			pd_buf_addf(b, "; series fit %+.0f s", tb->offset_series.value);
		if (tb->offset_build.ok)
			pd_buf_addf(b, "; build start %+.0f s", tb->offset_build.value);
		pd_buf_adds(b, ")\n");
	} else {
		pd_buf_adds(b, "unknown (no rebalance in the series, no build start)\n");
	}
	pd_buf_addf(b, "  event        %s", pd_event_type_name(tb->event));
	if (tb->event != PD_EVENT_NONE) {
		pd_buf_adds(b, " of ");
		pd_esc_text(b, or_dash(tb->node));
		pd_buf_addf(b, " at %.1f s (from %s)\n  agreement    %s", tb->event_s,
			    pd_source_name(tb->event_source), tb->agreement);
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

void pd_inspect_text(struct pd_buf *out, const struct pd_run *run, const struct pd_timebase *tb)
{
	text_header(out, run);
	text_jenkins(out, run);
	text_timebase(out, run, tb);
	text_nodes(out, run);
	text_series(out, run);
	text_events(out, run);
	text_kpis(out, run);
	text_list(out, "undecoded perfdb databases", &run->undecoded);
	text_list(out, "notes", &run->notes);
}

/* JSON: keys in a fixed order; every string through pd_esc_json. */
static void json_key(struct pd_buf *b, int *first, const char *key)
{
	pd_buf_adds(b, *first ? "" : ",");
	*first = 0;
	pd_esc_json(b, key);
	pd_buf_addch(b, ':');
}

static void json_str(struct pd_buf *b, int *first, const char *key, const char *s)
{
	json_key(b, first, key);
	if (s)
		pd_esc_json(b, s);
	else
		pd_buf_adds(b, "null");
}

static void json_strv(struct pd_buf *b, int *first, const char *key, const struct pd_strv *sv)
{
	json_key(b, first, key);
	pd_buf_addch(b, '[');
	for (size_t i = 0; i < sv->n; i++) {
		pd_buf_adds(b, i ? "," : "");
		pd_esc_json(b, sv->v[i]);
	}
	pd_buf_addch(b, ']');
}

static void json_nodes(struct pd_buf *b, const struct pd_run *run)
{
	pd_buf_adds(b, "[");
	for (size_t i = 0; i < run->n_nodes; i++) {
		const struct pd_node *n = &run->nodes[i];
		int f = 1;
		pd_buf_adds(b, i ? ",{" : "{");
		json_str(b, &f, "host", n->host);
		json_key(b, &f, "services");
		pd_buf_addch(b, '[');
		int first = 1;
		for (unsigned bit = 1; bit < (1u << PD_SVC_COUNT); bit <<= 1)
			if (n->services & bit) {
				pd_buf_addf(b, "%s\"%s\"", first ? "" : ",",
					    pd_service_name(bit));
				first = 0;
			}
		pd_buf_addch(b, ']');
		json_str(b, &f, "role", n->role);
		pd_buf_addch(b, '}');
	}
	pd_buf_adds(b, "]");
}

static void json_series_one(struct pd_buf *b, const struct pd_series *s, int64_t interval)
{
	struct pd_gaps g = pd_series_gaps(s, interval);
	int f = 1;
	pd_buf_addch(b, '{');
	json_str(b, &f, "db", s->db);
	json_str(b, &f, "metric", s->metric);
	json_str(b, &f, "collector", s->collector);
	json_str(b, &f, "scope", pd_scope_name(s->scope));
	json_str(b, &f, "bucket", s->bucket);
	json_str(b, &f, "server", s->server);
	json_str(b, &f, "unit", pd_unit_name(s->unit));
	pd_buf_addf(b, ",\"n\":%zu", s->n);
	if (s->n)
		pd_buf_addf(b, ",\"start_ms\":%" PRId64 ",\"end_ms\":%" PRId64, s->t_ms[0],
			    s->t_ms[s->n - 1]);
	pd_buf_addf(b, ",\"gaps\":%zu,\"missing\":%zu,\"duplicates\":%zu,\"unsorted\":%zu}",
		    g.n_gaps, g.missing, s->n_dup, s->n_unsorted);
}

static void json_events(struct pd_buf *b, const struct pd_run *run)
{
	pd_buf_addch(b, '[');
	for (size_t i = 0; i < run->n_events; i++) {
		const struct pd_event *e = &run->events[i];
		int f = 1;
		pd_buf_adds(b, i ? ",{" : "{");
		json_str(b, &f, "kind", pd_event_kind_name(e->kind));
		pd_buf_addf(b, ",\"local_s\":%" PRId64 ",\"line\":%ld", e->local_s, e->line);
		json_str(b, &f, "node", e->node);
		if (e->kind == PD_EV_REBALANCE_PROGRESS) {
			pd_buf_adds(b, ",\"value\":");
			pd_esc_json_num(b, e->value);
		}
		if (e->kind == PD_EV_REBALANCE_START) {
			json_strv(b, &f, "known", &e->known);
			json_strv(b, &f, "ejected", &e->ejected);
		}
		pd_buf_addch(b, '}');
	}
	pd_buf_addch(b, ']');
}

static void json_kpis(struct pd_buf *b, const struct pd_run *run)
{
	pd_buf_addch(b, '[');
	for (size_t i = 0; i < run->n_kpis; i++) {
		const struct pd_kpi *k = &run->kpis[i];
		int f = 1;
		pd_buf_adds(b, i ? ",{" : "{");
		json_str(b, &f, "metric", k->metric);
		pd_buf_adds(b, ",\"value\":");
		pd_esc_json_num(b, k->value);
		pd_buf_addf(b, ",\"dry_run\":%s,\"local_s\":%" PRId64 ",\"line\":%ld",
			    k->dry_run ? "true" : "false", k->local_s, k->line);
		json_str(b, &f, "build", k->build);
		json_strv(b, &f, "snapshots", &k->snapshots);
		pd_buf_addch(b, '}');
	}
	pd_buf_addch(b, ']');
}

static void json_jenkins(struct pd_buf *b, const struct pd_jenkins *j)
{
	int f = 1;
	if (!j->present) {
		pd_buf_adds(b, "null");
		return;
	}
	pd_buf_addch(b, '{');
	json_str(b, &f, "job", j->job);
	pd_buf_addf(b, ",\"number\":%ld", j->number);
	json_str(b, &f, "id", j->id);
	json_str(b, &f, "result", j->result);
	pd_buf_addf(b, ",\"building\":%s,\"timestamp_ms\":%" PRId64 ",\"duration_ms\":%" PRId64,
		    j->building ? "true" : "false", j->timestamp_ms, j->duration_ms);
	json_str(b, &f, "url", j->url);
	json_str(b, &f, "full_display_name", j->full_display_name);
	json_key(b, &f, "parameters");
	pd_buf_addch(b, '{');
	for (size_t i = 0; i < j->n_params; i++) {
		int g = i == 0;
		json_str(b, &g, j->params[i].name, j->params[i].value);
	}
	pd_buf_adds(b, "}}");
}

static void json_test(struct pd_buf *b, const struct pd_run *run)
{
	int f = 1;
	pd_buf_addch(b, '{');
	json_str(b, &f, "spec", run->spec.path);
	json_str(b, &f, "config", run->test.path);
	json_str(b, &f, "test", run->cfg.test);
	json_str(b, &f, "title", run->cfg.title);
	json_str(b, &f, "shutdown_type", run->cfg.shutdown_type);
	pd_buf_addf(b, ",\"initial_nodes\":%d,\"access_time_s\":%ld,\"stats_interval_s\":%d}",
		    run->cfg.initial_nodes, run->cfg.access_time_s, run->cfg.stats_interval_s);
}

static void json_estimate(struct pd_buf *b, const char *key, struct pd_estimate e)
{
	pd_buf_addf(b, ",\"%s\":", key);
	if (e.ok)
		pd_esc_json_num(b, e.value);
	else
		pd_buf_adds(b, "null");
}

static void json_timebase(struct pd_buf *b, const struct pd_run *run,
			  const struct pd_timebase *tb)
{
	int f = 1;
	pd_buf_addf(b, "{\"t0_ms\":%" PRId64 ",\"end_ms\":%" PRId64 ",\"interval_ms\":%" PRId64,
		    tb->t0_ms, tb->end_ms, tb->interval_ms);
	f = 0;
	if (tb->has_offset)
		pd_buf_addf(b, ",\"utc_offset_s\":%" PRId64, tb->offset_s);
	else
		pd_buf_adds(b, ",\"utc_offset_s\":null");
	json_str(b, &f, "offset_source", pd_source_name(tb->offset_source));
	json_estimate(b, "offset_series_s", tb->offset_series);
	json_estimate(b, "offset_build_s", tb->offset_build);
	pd_buf_adds(b, ",\"event\":{");
	int g = 1;
	json_str(b, &g, "kind", pd_event_type_name(tb->event));
	json_str(b, &g, "node", tb->node[0] ? tb->node : NULL);
	pd_buf_adds(b, ",\"t_s\":");
	if (tb->event != PD_EVENT_NONE)
		pd_esc_json_num(b, tb->event_s);
	else
		pd_buf_adds(b, "null");
	json_str(b, &g, "source", pd_source_name(tb->event_source));
	json_estimate(b, "console_s", tb->ev_console);
	json_estimate(b, "series_s", tb->ev_series);
	json_estimate(b, "config_s", tb->ev_config);
	json_estimate(b, "rebalance_end_s", tb->rebalance_end_s);
	json_str(b, &g, "agreement", tb->agreement[0] ? tb->agreement : NULL);
	pd_buf_addch(b, '}');
	json_estimate(b, "series_throughput", pd_series_throughput(run, tb));
	pd_buf_addch(b, '}');
}

void pd_inspect_json(struct pd_buf *out, const struct pd_run *run, const struct pd_timebase *tb)
{
	int f = 1;
	int64_t interval = pd_run_interval_ms(run);
	pd_buf_addch(out, '{');
	json_str(out, &f, "run", run->dir);
	json_strv(out, &f, "snapshots", &run->snapshots);
	json_str(out, &f, "cluster", run->cluster);
	json_key(out, &f, "test");
	json_test(out, run);
	json_key(out, &f, "jenkins");
	json_jenkins(out, &run->jenkins);
	json_key(out, &f, "timebase");
	json_timebase(out, run, tb);
	json_key(out, &f, "nodes");
	json_nodes(out, run);
	pd_buf_addf(out, ",\"interval_ms\":%" PRId64 ",\"samples\":%zu,\"series\":[", interval,
		    run->n_samples);
	for (size_t i = 0; i < run->n_series; i++) {
		pd_buf_adds(out, i ? "," : "");
		json_series_one(out, run->series[i], interval);
	}
	pd_buf_addch(out, ']');
	json_key(out, &f, "events");
	json_events(out, run);
	json_key(out, &f, "kpis");
	json_kpis(out, run);
	json_str(out, &f, "console_result", run->console_result);
	json_strv(out, &f, "undecoded", &run->undecoded);
	json_strv(out, &f, "notes", &run->notes);
	pd_buf_adds(out, "}\n");
}
