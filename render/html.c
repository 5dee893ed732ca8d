#include "html.h"
#include "escape.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char css[] =
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe "
	"UI',Roboto,Helvetica,Arial,sans-serif;"
	"color:#1d2330;margin:0;background:#f6f7f9}"
	"main{max-width:2200px;margin:0 auto;padding:24px 2.5vw 48px}"
	"h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:32px 0 10px;"
	"border-bottom:1px solid #d9dde5;padding-bottom:4px}"
	".sub{color:#5b6475;margin:0 0 14px}"
	".verdict{display:inline-block;padding:4px 12px;border-radius:14px;font-weight:600;"
	"font-size:15px;color:#fff;margin-right:8px}"
	".v-regression{background:#c0392b}.v-improvement{background:#1e8449}"
	".v-same{background:#5d6d7e}.v-inconclusive{background:#b9770e}"
	".v-not-comparable{background:#6c3483}"
	".card{background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:14px 16px;"
	"margin:12px 0}"
	".warn{border-color:#b9770e;background:#fdf2e3}"
	".kind{display:inline-block;font-size:12px;font-weight:600;padding:1px 8px;"
	"border-radius:10px;background:#eef1f6;color:#2c3e50;margin-right:6px}"
	".charts{display:flex;flex-wrap:wrap;gap:8px;margin-top:10px}"
	".charts img{border:1px solid #eceff3;border-radius:4px;background:#fff}"
	".charts img.removed{border-color:#d62728}"
	".charts img{max-width:100%;height:auto}"
	".charts img.panels{border:0;border-radius:0;background:none}"
	".metric h3{font-size:13px;margin:14px 0 0;font-weight:600}"
	".swatch{display:inline-block;width:18px;height:0;vertical-align:middle;margin:0 4px "
	"0 10px;border-top:2px solid}"
	"table{border-collapse:collapse;width:100%;background:#fff;font-size:13px}"
	"th,td{border-bottom:1px solid #e6e9ef;padding:5px "
	"8px;text-align:left;vertical-align:top}"
	"th{background:#eef1f6;font-weight:600}td.n{text-align:right;font-variant-numeric:"
	"tabular-nums;"
	"white-space:nowrap}td{overflow-wrap:anywhere}td code{white-space:normal}"
	"#points td:first-child,td.setting{white-space:nowrap}"
	".runs td:first-child{width:160px;color:#5b6475}"
	".up{color:#c0392b}.down{color:#1e8449}"
	".timeline{display:block;width:100%;height:30px;border-radius:6px;margin:8px 0 4px}"
	".timeline text{fill:#fff;font-size:12px}"
	".ph-pre{fill:#5d8aa8}.ph-transient{fill:#d68910}.ph-post{fill:#7d3c98}"
	".ph-whole{fill:#5d8aa8}"
	".sw-base{border-color:#5b7fa8}.sw-target{border-color:#e8740c}"
	".sw-removed{border-color:#d62728;border-top-style:dashed}"
	".sw-event{border-color:#3b3b3b;border-top-style:dashed}"
	".sw-gap{border-color:#9db2cb;border-top-width:5px;width:10px}"
	"details{margin:10px 0}summary{cursor:pointer;font-weight:600}"
	"code{font-size:12.5px;background:#eef1f6;padding:0 4px;border-radius:3px}"
	".agg{color:#6b7585;font-size:11.5px}"
	"table.config td:first-child,td.change{white-space:nowrap}"
	"table.config code{white-space:pre-wrap;overflow-wrap:anywhere}"
	".configs td{width:50%}.configs pre{font-size:12px;margin:0;white-space:pre-wrap;"
	"overflow-wrap:anywhere}"
	"tr.total td{background:#f7f8fb}.badge{font-size:11px;padding:1px 7px;"
	"white-space:nowrap}td:has(.badge){white-space:nowrap}"
	/* beside a verdict, what the tree says of it (verdict_note) wraps under its badge */
	"td:has(.badge) .agg{display:block;white-space:normal}"
	"footer{color:#7b8494;font-size:12px;margin-top:36px}"
	/* the contents: findings and metric groups in columns the width allows */
	".toc ol,.toc ul{margin:4px 0;padding-left:22px}.toc li{margin:1px 0}"
	".toc .cols{columns:28em;column-gap:24px}"
	".toc .groups a{margin-right:10px;white-space:nowrap}"
	".topo{font-size:11px;color:#6b7585;white-space:nowrap}"
	"p.charts-link{margin:6px 0 0;font-size:13px}"
	/* a collector's metrics side by side as the width allows (at 1920 px one
	   metric a row left 40 % empty): a metric of one chart at its own size, a metric of
	   panels (one node a panel, three a row) 860 px at least, growing to its row's
	   width, so that two share a row from about 1800 px; scaled down to 0.81 at worst */
	".grid{display:flex;flex-wrap:wrap;gap:0 24px;align-items:flex-start}"
	".grid>.metric{flex:0 1 auto;min-width:0;max-width:100%}"
	".grid>.metric:has(img.panels){flex:1 1 860px}"
	".grid>.metric img.panels{width:100%}"
	/* a latency metric's percentiles: its chart, and its table beside it where it fits */
	".pctview{display:flex;flex-wrap:wrap;gap:0 24px;align-items:flex-start}"
	".pctview table.pct{width:auto;flex:1 1 560px;margin-top:10px}"
	"table.pct td:first-child{white-space:nowrap}";

const char *pd_html_css(void)
{
	return css;
}

static void esc(struct pd_buf *b, const char *s)
{
	pd_esc_html(b, s ? s : "-");
}

/* An SVG as a data: URI inside a double-quoted attribute: percent-encoded where a URI
 * or the attribute needs it, the rest as is (a quarter smaller than base64). */
static void svg_uri(struct pd_buf *b, const char *svg)
{
	pd_buf_adds(b, "data:image/svg+xml,");
	for (const char *p = svg; *p; p++) {
		switch (*p) {
		case '%':
			pd_buf_adds(b, "%25");
			break;
		case '#':
			pd_buf_adds(b, "%23");
			break;
		case '"':
			pd_buf_adds(b, "%22");
			break;
		case '&':
			pd_buf_adds(b, "&amp;");
			break;
		case '\n':
			pd_buf_adds(b, "%0A");
			break;
		case '\r':
			pd_buf_adds(b, "%0D");
			break;
		default:
			pd_buf_addch(b, *p);
		}
	}
}

/* A chart's image: one SVG for all the panels of a metric (pd_chart.panels), its alt
 * text each panel's, "; " apart. */
static void chart_img(struct pd_buf *b, const struct pd_chart_plan *plan,
		      const char *const *svg, const struct pd_chart *ch)
{
	size_t i = (size_t)(ch - plan->charts);
	if (ch->panel)
		return;
	pd_buf_addf(b, "<img width=\"%d\" height=\"%d\"%s alt=\"",
		    ch->panels > 1 ? ch->grid_w : ch->plot.width,
		    ch->panels > 1 ? ch->grid_h : ch->plot.height,
		    ch->panels > 1 ? " class=\"panels\""
		    : ch->kind == PD_CHART_NODE && ch->lines[0].style == 2
			    ? " class=\"removed\""
			    : "");
	for (size_t k = 0; k < ch->panels; k++) {
		pd_buf_adds(b, k ? "; " : "");
		esc(b, ch[k].alt);
	}
	if (svg && svg[i]) {
		pd_buf_adds(b, "\" src=\"");
		svg_uri(b, svg[i]);
	} else {
		pd_buf_adds(b, "\" src=\"charts/");
		esc(b, ch->file);
	}
	pd_buf_adds(b, "\">");
}

static void header(struct pd_buf *b, const struct pd_comparison *c, const struct pd_labels *l)
{
	const char *v = pd_verdict_name(c->verdict);
	pd_buf_adds(b, "<h1>perfdelta: ");
	esc(b, l->target);
	pd_buf_adds(b, " against ");
	esc(b, l->base);
	pd_buf_addf(b, "</h1>\n<p class=\"sub\"><span class=\"verdict v-%s\">%s</span>", v, v);
	pd_buf_add_count(b, c->n_findings, "finding", NULL); /* verdicts: one sentence */
	pd_buf_addf(
		b, ", %zu deltas compared; <a href=\"#method\">how they were judged</a>.</p>\n",
		c->n_deltas);
}

/* How the changes were judged: one sentence, the method a click away. */
static void method(struct pd_buf *b, const struct pd_comparison *c)
{
	pd_buf_adds(b, "<details class=\"sub\" id=\"method\"><summary>How the changes were "
		       "judged: ");
	esc(b, c->judged);
	pd_buf_adds(b, " (docs/report.md in perfdelta explains the report)</summary><p>");
	esc(b, c->method);
	pd_buf_adds(b, "; family: ");
	esc(b, c->family);
	pd_buf_addf(b,
		    ". The interval's level is 1 &minus; %.2g/m, m per phase in summary.json's "
		    "inference.</p></details>\n",
		    c->alpha);
}

/* A finding's short name for the contents: its kind and what it is about. */
static void finding_label(struct pd_buf *b, const struct pd_finding *f)
{
	pd_buf_addf(b, "%s", pd_finding_kind_name(f->kind));
	if (f->metric) {
		pd_buf_adds(b, ": ");
		esc(b, f->metric);
	}
	if (f->scope.name) {
		pd_buf_adds(b, " ");
		esc(b, f->scope.name);
	}
	if (f->has_phase)
		pd_buf_addf(b, " %s", pd_phase_name(f->phase));
}

/* Appends each collector's name once, in the plan's order, as links to their sections. */
static void toc_groups(struct pd_buf *b, const struct pd_comparison *c,
		       const struct pd_chart_plan *plan)
{
	const char *prev = NULL;
	size_t prev_len = 0;
	for (size_t i = 0; i < plan->n; i++) {
		const struct pd_chart *ch = &plan->charts[i];
		if (ch->kind != PD_CHART_METRIC && ch->kind != PD_CHART_NODE)
			continue;
		const char *m = c->views[ch->view].metric;
		size_t len = pd_chart_collector(c, ch);
		if (prev && len == prev_len && !strncmp(prev, m, len))
			continue;
		struct pd_buf name = PD_BUF_INIT;
		pd_buf_add(&name, m, len);
		pd_buf_adds(b, "<a href=\"#collector-");
		esc(b, name.ptr);
		pd_buf_adds(b, "\">");
		esc(b, name.ptr);
		pd_buf_adds(b, "</a> ");
		pd_buf_release(&name);
		prev = m, prev_len = len;
	}
}

/* The contents: every finding and every metric group, one click from the top. */
static void contents(struct pd_buf *b, const struct pd_comparison *c,
		     const struct pd_chart_plan *plan)
{
	pd_buf_adds(b, "<nav class=\"card toc\"><b>Contents</b><ul>");
	pd_buf_addf(b, "<li><a href=\"#findings\">Findings (%zu)</a>", c->n_findings);
	if (c->n_findings)
		pd_buf_adds(b, "<ol class=\"cols\">");
	for (size_t f = 0; f < c->n_findings; f++) {
		pd_buf_addf(b, "<li><a href=\"#finding-%zu\">", f + 1);
		finding_label(b, &c->findings[f]);
		pd_buf_adds(b, "</a></li>");
	}
	pd_buf_adds(b, c->n_findings ? "</ol></li>" : "</li>");
	pd_buf_adds(b, "<li><a href=\"#config-diff\">Config differences</a>, "
		       "<a href=\"#runs\">Runs</a>, <a href=\"#phases\">Phases</a>");
	if (c->shift && c->shift->n)
		pd_buf_adds(b, ", <a href=\"#event-story\">The event within the target</a>");
	pd_buf_adds(b, ", <a href=\"#changes\">Changes</a></li><li><a href=\"#metrics\">"
		       "Metrics</a> by collector: <span class=\"groups\">");
	toc_groups(b, c, plan);
	pd_buf_adds(b, "</span></li>");
	if (c->n_latency_pct)
		pd_buf_adds(b,
			    "<li><a href=\"#latency-percentiles\">Latency percentiles</a> of "
			    "cbagent's per-request samples</li>");
	pd_buf_adds(b, "</ul></nav>\n");
}

/* What the reader most likely did not mean, before anything else. */
static void warnings(struct pd_buf *b, const struct pd_comparison *c)
{
	for (size_t i = 0; i < c->warnings.n; i++) {
		pd_buf_adds(b, "<div class=\"card warn\"><b>Warning:</b> ");
		esc(b, c->warnings.v[i]);
		pd_buf_adds(b, "</div>\n");
	}
}

/* The top card: the event's questions (analyze/tell/questions.c), each answered in an
 * engineer's words by the findings the analysis assigned it, linked to their cards, with
 * what to do where they imply an action. Only runs with an event. */
static void top_card(struct pd_buf *b, const struct pd_comparison *c)
{
	if (!c->n_questions)
		return;
	pd_buf_adds(b, "<div class=\"card\" id=\"points\"><p><b>The questions of this "
		       "event</b></p><table>\n");
	for (size_t p = 0; p < c->n_questions; p++) {
		const struct pd_question *a = &c->questions[p];
		pd_buf_addf(b, "<tr><td>%s</td><td>", a->label);
		esc(b, a->question);
		pd_buf_adds(b, "</td><td>");
		esc(b, a->words);
		for (size_t i = 0; i < a->n; i++)
			pd_buf_addf(b, " <a href=\"#finding-%zu\">#%zu</a>", a->finding[i] + 1,
				    a->finding[i] + 1);
		if (a->advice) {
			pd_buf_adds(b, "<br><b>To do:</b> ");
			esc(b, a->advice);
		}
		pd_buf_adds(b, "</td></tr>\n");
	}
	pd_buf_adds(b, "</table></div>\n");
}

/* "[access] n1ql_shutdown_type", "[clusters] iris: 172.23.100.40", "build", a parameter. */
static void setting_cell(struct pd_buf *b, const struct pd_configdiff_entry *e)
{
	if (e->section) {
		pd_buf_adds(b, "[");
		esc(b, e->section);
		pd_buf_adds(b, "] ");
	}
	esc(b, e->key);
	if (e->item) {
		pd_buf_adds(b, ": ");
		esc(b, e->item);
	}
}

static void value_cell(struct pd_buf *b, const char *v)
{
	pd_buf_adds(b, "<td>");
	if (v) {
		pd_buf_adds(b, "<code>");
		esc(b, v);
		pd_buf_adds(b, "</code>");
	} else {
		pd_buf_adds(b, "<span class=\"agg\">not set</span>");
	}
	pd_buf_adds(b, "</td>");
}

/* Sources one side lacks: not compared, and said so. */
static void config_missing(struct pd_buf *b, const struct pd_configdiff *d)
{
	for (int s = 0; s < PD_CONFIGDIFF_SOURCES; s++) {
		unsigned bit = 1u << s, base = d->missing_base & bit,
			 tgt = d->missing_target & bit;
		if (!base && !tgt)
			continue;
		pd_buf_addf(b, "<p class=\"sub\">%s: not compared, the %s has none.</p>\n",
			    pd_configdiff_source_name((enum pd_configdiff_source)s),
			    base && tgt ? "baseline nor the target"
			    : base      ? "baseline"
					: "target");
	}
}

/* One run's .test, .spec and Jenkins parameters as the files say them. */
static void config_full(struct pd_buf *b, const struct pd_run *run)
{
	const struct pd_ini *ini[2] = {&run->test, &run->spec};
	pd_buf_adds(b, "<td><pre>");
	for (int k = 0; k < 2; k++) {
		const char *section = NULL;
		if (!ini[k]->path)
			continue;
		pd_buf_adds(b, "# ");
		esc(b, pd_render_file_name(ini[k]->path));
		for (size_t i = 0; i < ini[k]->n; i++) {
			const struct pd_ini_entry *e = &ini[k]->e[i];
			if (!section || strcmp(section, e->section)) {
				pd_buf_adds(b, "\n[");
				esc(b, e->section);
				pd_buf_adds(b, "]");
			}
			section = e->section;
			pd_buf_adds(b, "\n");
			esc(b, e->key);
			pd_buf_adds(b, " = ");
			esc(b, e->value);
		}
		pd_buf_adds(b, "\n\n");
	}
	pd_buf_adds(b, "# Jenkins parameters");
	for (size_t i = 0; i < run->jenkins.n_params; i++) {
		pd_buf_adds(b, "\n");
		esc(b, run->jenkins.params[i].name);
		pd_buf_adds(b, " = ");
		esc(b, run->jenkins.params[i].value);
	}
	pd_buf_adds(b, "</pre></td>");
}

/* The settings that differ between the runs, the full configs a click away. */
static void config_diff(struct pd_buf *b, const struct pd_comparison *c)
{
	const struct pd_configdiff *d = c->config_diff;
	pd_buf_addf(b,
		    "<h2 id=\"config-diff\">Config differences</h2>\n<p class=\"sub\">%zu "
		    "setting%s of the test, the spec, the build and the Jenkins parameters "
		    "differ%s</p>\n",
		    d->n, d->n == 1 ? "" : "s", d->n ? ":" : ".");
	if (d->n)
		pd_buf_adds(b, "<table class=\"config\"><tr><th>source</th><th>setting</th>"
			       "<th>change</th><th>baseline</th><th>target</th></tr>\n");
	for (size_t i = 0; i < d->n; i++) {
		const struct pd_configdiff_entry *e = &d->e[i];
		pd_buf_addf(b, "<tr><td>%s</td><td class=\"setting\">",
			    pd_configdiff_source_name(e->source));
		setting_cell(b, e);
		pd_buf_addf(b, "</td><td class=\"change\">%s</td>",
			    pd_configdiff_change_name(e->change));
		value_cell(b, e->base);
		value_cell(b, e->target);
		pd_buf_adds(b, "</tr>\n");
	}
	pd_buf_adds(b, d->n ? "</table>\n" : "");
	config_missing(b, d);
	pd_buf_adds(b, "<details class=\"configs\"><summary>Full configs</summary><table>"
		       "<tr><th>baseline</th><th>target</th></tr><tr>");
	config_full(b, c->base);
	config_full(b, c->target);
	pd_buf_adds(b, "</tr></table></details>\n");
}

/* Whether the metric charts of the plan draw metric. */
static int has_metric_charts(const struct pd_comparison *c, const struct pd_chart_plan *plan,
			     const char *metric)
{
	for (size_t i = 0; metric && i < plan->n; i++)
		if ((plan->charts[i].kind == PD_CHART_METRIC ||
		     plan->charts[i].kind == PD_CHART_NODE) &&
		    !strcmp(c->views[plan->charts[i].view].metric, metric))
			return 1;
	return 0;
}

/* A finding's link to every chart of its metric, below in Metrics. */
static void charts_link(struct pd_buf *b, const struct pd_comparison *c,
			const struct pd_chart_plan *plan, const char *metric)
{
	if (!has_metric_charts(c, plan, metric))
		return;
	pd_buf_adds(b, "<p class=\"charts-link\"><a href=\"#metric-");
	esc(b, metric);
	pd_buf_adds(b, "\">Every chart of ");
	esc(b, metric);
	pd_buf_adds(b, "</a></p>");
}

static void findings(struct pd_buf *b, const struct pd_comparison *c,
		     const struct pd_chart_plan *plan, const char *const *svg)
{
	pd_buf_adds(b, "<h2 id=\"findings\">Findings</h2>\n");
	if (c->n_findings > c->n_top)
		pd_buf_addf(b,
			    "<p class=\"sub\">%zu findings, most important first; the short "
			    "summaries (summary.md, summary.jira, the terminal) list the first "
			    "%zu and say %zu more.</p>\n",
			    c->n_findings, c->n_top, c->n_findings - c->n_top);
	if (!c->n_findings)
		pd_buf_adds(b,
			    "<p>Nothing worth a reader's attention: every metric stayed within "
			    "the threshold or its change could not be told from noise.</p>\n");
	for (size_t f = 0; f < c->n_findings; f++) {
		pd_buf_addf(b,
			    "<div class=\"card\" id=\"finding-%zu\"><p><b>%zu.</b> "
			    "<span class=\"kind\">%s</span>",
			    f + 1, f + 1, pd_finding_kind_name(c->findings[f].kind));
		esc(b, c->findings[f].text);
		pd_buf_adds(b, "</p>");
		if (c->findings[f].advice) {
			pd_buf_adds(b, "<p><b>To do:</b> ");
			esc(b, c->findings[f].advice);
			pd_buf_adds(b, "</p>");
		}
		charts_link(b, c, plan, c->findings[f].metric);
		int open = 0;
		long owner = c->findings[f].chart;
		if (owner >= 0 && owner != (long)f) /* one chart per fact: drawn once */
			pd_buf_addf(b,
				    "<p class=\"charts-link\">Its chart is with <a "
				    "href=\"#finding-%ld\">finding %ld</a>.</p>",
				    owner + 1, owner + 1);
		for (size_t i = 0; owner == (long)f && i < plan->n; i++) {
			if (plan->charts[i].finding != owner)
				continue;
			pd_buf_adds(b, open ? "" : "<div class=\"charts\">");
			open = 1;
			chart_img(b, plan, svg, &plan->charts[i]);
		}
		pd_buf_adds(b, open ? "</div></div>\n" : "</div>\n");
	}
}

static int safe_url(const char *u)
{
	return u && (!strncmp(u, "http://", 7) || !strncmp(u, "https://", 8));
}

static void jenkins_cell(struct pd_buf *b, const struct pd_jenkins *j)
{
	if (!j->present) {
		pd_buf_adds(b, "-");
		return;
	}
	if (safe_url(j->url)) {
		pd_buf_adds(b, "<a href=\"");
		esc(b, j->url);
		pd_buf_adds(b, "\">");
	}
	esc(b, j->job);
	pd_buf_addf(b, " #%ld", j->number);
	pd_buf_adds(b, safe_url(j->url) ? "</a> " : " ");
	esc(b, j->building ? "BUILDING" : j->result);
}

static void nodes_cell(struct pd_buf *b, const struct pd_run *run, const char *removed)
{
	for (size_t i = 0; i < run->n_nodes; i++) {
		const struct pd_node *n = &run->nodes[i];
		esc(b, n->role);
		pd_buf_adds(b, " <code>");
		esc(b, n->host);
		pd_buf_adds(b, "</code>");
		if (removed && !strcmp(n->host, removed))
			pd_buf_adds(b, " <b>removed</b>");
		pd_buf_adds(b, "<br>");
	}
	if (!run->n_nodes)
		pd_buf_adds(b, "- (no spec)");
}

static void kpis_cell(struct pd_buf *b, const struct pd_run *run, struct pd_estimate thr)
{
	for (size_t i = 0; i < run->n_kpis; i++) {
		esc(b, run->kpis[i].metric);
		pd_buf_addf(b, " = <b>%.1f</b>%s<br>", run->kpis[i].value,
			    run->kpis[i].dry_run ? " (dry run)" : "");
	}
	if (thr.ok)
		pd_buf_addf(b, "series: n1ql_stats/query_requests mean %.0f req/s", thr.value);
	else if (!run->n_kpis)
		pd_buf_adds(b, "-");
}

static void event_cell(struct pd_buf *b, const struct pd_timebase *tb)
{
	if (tb->event == PD_EVENT_NONE) {
		pd_buf_adds(b, "none");
		return;
	}
	pd_buf_addf(b, "%s of <code>", pd_timebase_event_name(tb->event));
	esc(b, tb->node ? tb->node : "?");
	pd_buf_addf(b, "</code> at <b>%.1f s</b> (from %s)<br>", tb->event_s,
		    pd_timebase_source_name(tb->event_source));
	esc(b, tb->agreement ? tb->agreement : "");
}

static void clock_cell(struct pd_buf *b, const struct pd_timebase *tb)
{
	if (!tb->has_offset) {
		pd_buf_adds(b, "unknown");
		return;
	}
	int64_t a = tb->offset_s < 0 ? -tb->offset_s : tb->offset_s;
	pd_buf_addf(b, "UTC%c%02d:%02d (from %s)", tb->offset_s < 0 ? '-' : '+',
		    (int)(a / 3600), (int)(a % 3600 / 60),
		    pd_timebase_source_name(tb->offset_source));
}

/* The Runs table's columns: every baseline (col < n_bases), then the target. The time
 * base is the first baseline's and the target's; another baseline's is not kept (its
 * cells say so). */
typedef void (*run_cell)(struct pd_buf *b, const struct pd_comparison *c, size_t col);

static const struct pd_run *run_at(const struct pd_comparison *c, size_t col)
{
	return col < c->n_bases ? c->bases[col] : c->target;
}
/* NULL for a baseline after the first */
static const struct pd_timebase *tb_at(const struct pd_comparison *c, size_t col)
{
	return col == 0 ? &c->tb_base : col < c->n_bases ? NULL : &c->tb_target;
}
static void cell_jenkins(struct pd_buf *b, const struct pd_comparison *c, size_t col)
{
	jenkins_cell(b, &run_at(c, col)->jenkins);
}
static void cell_snapshot(struct pd_buf *b, const struct pd_comparison *c, size_t col)
{
	esc(b, pd_run_snapshot(run_at(c, col)));
}
static void cell_build(struct pd_buf *b, const struct pd_comparison *c, size_t col)
{
	esc(b, pd_run_build(run_at(c, col)));
}
static void cell_test(struct pd_buf *b, const struct pd_comparison *c, size_t col)
{
	esc(b, run_at(c, col)->cfg.test);
}
static void cell_nodes(struct pd_buf *b, const struct pd_comparison *c, size_t col)
{
	nodes_cell(b, run_at(c, col),
		   col == 0           ? c->removed_node[0]
		   : col < c->n_bases ? NULL
				      : c->removed_node[1]);
}
static void cell_kpis(struct pd_buf *b, const struct pd_comparison *c, size_t col)
{
	kpis_cell(b, run_at(c, col),
		  col < c->n_bases ? c->kpi_bases[col].served : c->kpi_target.served);
}
static void cell_event(struct pd_buf *b, const struct pd_comparison *c, size_t col)
{
	if (tb_at(c, col))
		event_cell(b, tb_at(c, col));
	else
		pd_buf_adds(b, "aligned as the first baseline");
}
static void cell_clock(struct pd_buf *b, const struct pd_comparison *c, size_t col)
{
	if (tb_at(c, col))
		clock_cell(b, tb_at(c, col));
	else
		pd_buf_adds(b, "-");
}
static void cell_phase(struct pd_buf *b, const struct pd_comparison *c, size_t col)
{
	const struct pd_timebase *tb = tb_at(c, col);
	if (!tb) {
		pd_buf_adds(b, "-");
		return;
	}
	pd_buf_addf(b, "%.0f s, sampled every %.1f s", (double)(tb->end_ms - tb->t0_ms) / 1000,
		    (double)tb->interval_ms / 1000);
}
static void cell_notes(struct pd_buf *b, const struct pd_comparison *c, size_t col)
{
	const struct pd_run *r = run_at(c, col);
	for (size_t i = 0; i < r->notes.n; i++) {
		esc(b, r->notes.v[i]);
		pd_buf_adds(b, "<br>");
	}
	for (size_t i = 0; i < r->undecoded.n; i++) {
		pd_buf_adds(b, "undecoded: ");
		esc(b, r->undecoded.v[i]);
		pd_buf_adds(b, "<br>");
	}
	if (!r->notes.n && !r->undecoded.n)
		pd_buf_adds(b, "-");
}
static void cell_bundle(struct pd_buf *b, const struct pd_comparison *c, size_t col)
{
	esc(b, pd_render_bundle_name(run_at(c, col)));
}

static void row_fn(struct pd_buf *b, const char *label, const struct pd_comparison *c,
		   run_cell fn)
{
	pd_buf_addf(b, "<tr><td>%s</td>", label);
	for (size_t col = 0; col <= c->n_bases; col++) {
		pd_buf_adds(b, "<td>");
		fn(b, c, col);
		pd_buf_adds(b, "</td>");
	}
	pd_buf_adds(b, "</tr>\n");
}

/* Every run the comparison read: each baseline ("baseline", "baseline 2", ..., as
 * summary.md and the terminal name them), then the target. */
static void runs(struct pd_buf *b, const struct pd_comparison *c, const struct pd_labels *l)
{
	static const struct {
		const char *label;
		run_cell fn;
	} rows[] = {{"Jenkins", cell_jenkins},      {"snapshot", cell_snapshot},
		    {"build", cell_build},          {"test", cell_test},
		    {"nodes", cell_nodes},          {"KPIs", cell_kpis},
		    {"event", cell_event},          {"console clock", cell_clock},
		    {"measured phase", cell_phase}, {"notes", cell_notes},
		    {"bundle", cell_bundle}};
	pd_buf_adds(b, "<h2 id=\"runs\">Runs</h2>\n<table class=\"runs\"><tr><th></th>");
	for (size_t j = 0; j < c->n_bases; j++)
		if (j)
			pd_buf_addf(b, "<th>baseline %zu</th>", j + 1);
		else
			pd_buf_adds(b, "<th>baseline</th>");
	pd_buf_adds(b, "<th>target</th></tr>\n<tr><td>label</td>");
	for (size_t j = 0; j <= c->n_bases; j++) {
		pd_buf_adds(b, "<td>");
		esc(b, j == 0           ? l->base
		       : j < c->n_bases ? pd_render_label(c->bases[j], NULL)
					: l->target);
		pd_buf_adds(b, "</td>");
	}
	pd_buf_adds(b, "</tr>\n");
	for (size_t i = 0; i < sizeof(rows) / sizeof(*rows); i++)
		row_fn(b, rows[i].label, c, rows[i].fn);
	pd_buf_adds(b, "</table>\n");
}

static void matching(struct pd_buf *b, const struct pd_comparison *c)
{
	pd_buf_adds(b, "<details><summary>Node matching (by role and order, not address)"
		       "</summary><ul>");
	for (size_t i = 0; i < c->matching.n; i++) {
		pd_buf_adds(b, "<li>");
		esc(b, c->matching.v[i]);
		pd_buf_adds(b, "</li>");
	}
	pd_buf_adds(b, "</ul></details>\n");
}

/* perfrunner's windowed KPIs, paired by id and window (analyze/runs/kpi_windows.c) */
static void kpi_windows(struct pd_buf *b, const struct pd_comparison *c)
{
	if (!c->n_kpi_windows)
		return;
	pd_buf_adds(b,
		    "<h2>KPIs per latency window (perfrunner's)</h2>\n<table><tr><th>KPI"
		    "</th><th>window</th><th>baseline</th><th>target</th><th>change</th></tr>");
	for (size_t i = 0; i < c->n_kpi_windows; i++) {
		const struct pd_kpi_pair *k = &c->kpi_windows[i];
		pd_buf_adds(b, "<tr><td>");
		esc(b, k->metric);
		pd_buf_adds(b, "</td><td>");
		esc(b, k->window);
		pd_buf_addf(b, "</td><td>%g</td><td>%g</td><td>", k->base, k->target);
		if (isnan(k->change_pct))
			pd_buf_adds(b, "n/a (baseline 0)");
		else
			pd_buf_addf(b, "%+.1f%%", k->change_pct);
		pd_buf_adds(b, "</td></tr>");
	}
	pd_buf_adds(b, "</table>\n");
}

static void timeline(struct pd_buf *b, const struct pd_comparison *c)
{
	double x = 0;
	/* an inline SVG, no style attribute: Jenkins' CSP blocks those */
	pd_buf_adds(b, "<h2 id=\"phases\">Phases</h2>\n<svg class=\"timeline\" role=\"img\" "
		       "xmlns=\"http://www.w3.org/2000/svg\">");
	for (int p = 0; p < PD_PHASE_COUNT; p++) {
		const struct pd_window *w = &c->windows[p];
		if (!pd_comparison_has_phase(c, w->phase) ||
		    (w->phase == PD_PHASE_WHOLE && c->has_event))
			continue;
		double pct =
			c->length_s > 0 ? 100 * (w->end_s - w->start_s) / c->length_s : 100;
		/* a nested <svg> clips its label to its own width */
		pd_buf_addf(b,
			    "<svg x=\"%.2f%%\" width=\"%.2f%%\" height=\"30\"><rect "
			    "class=\"ph-%s\" width=\"100%%\" height=\"30\"/><text x=\"50%%\" "
			    "y=\"19\" text-anchor=\"middle\">%s %.0f&#8211;%.0f s</text></svg>",
			    x, pct, pd_phase_name(w->phase), pd_phase_name(w->phase),
			    w->start_s, w->end_s);
		x += pct;
	}
	pd_buf_adds(b, "</svg>\n<p class=\"sub\">");
	if (c->has_event && c->base_shift_s != 0)
		pd_buf_addf(b,
			    "The baseline has its own event: its series are shifted by %+.1f s "
			    "so that the two events fall together, and cut at the target's "
			    "phases. ",
			    -c->base_shift_s);
	else if (c->has_event)
		pd_buf_addf(b,
			    "Both runs are aligned at the start of the measured phase; the "
			    "%s is cut at the %s's event offsets. ",
			    c->event_side < 0 ? "target" : "baseline",
			    c->event_side < 0 ? "baseline" : "target");
	if (c->post_same_nodes)
		pd_buf_adds(b,
			    "After the rebalance (post) both clusters have the same nodes: a "
			    "difference there is residue of the event.");
	else if (c->has_event)
		pd_buf_adds(b, "After the rebalance (post) the clusters still differ in their "
			       "nodes: a difference there may be the topology's (marked so in "
			       "summary.json's deltas).");
	else
		pd_buf_adds(
			b,
			"No event in either run: the runs are compared over the whole phase.");
	pd_buf_adds(b, "</p>\n");
	matching(b, c);
	kpi_windows(b, c);
}

static void num_cell(struct pd_buf *b, double x, enum pd_unit unit)
{
	struct pd_buf t = PD_BUF_INIT;
	if (isnan(x))
		pd_buf_adds(&t, "-");
	else
		pd_unit_add(&t, x, unit);
	pd_buf_adds(b, "<td class=\"n\">");
	esc(b, t.ptr);
	pd_buf_adds(b, "</td>");
	pd_buf_release(&t);
}

static void pct_cell(struct pd_buf *b, double pct)
{
	if (isnan(pct))
		pd_buf_adds(b, "<td class=\"n\">-</td>");
	else
		pd_buf_addf(b, "<td class=\"n\">%+.1f%%</td>", pct); /* no verdict: no colour */
}

/* Who the row is: a node and its role, or the nodes it adds up or averages. */
static void shift_who(struct pd_buf *b, const struct pd_comparison *c,
		      const struct pd_nodeshift_metric *m, const struct pd_nodeshift_row *r)
{
	const struct pd_node *n = r->host ? pd_run_node(c->target, r->host) : NULL;
	pd_buf_adds(b, "<td class=\"scope\">");
	if (r->host) {
		pd_buf_adds(b, "<code>");
		esc(b, r->host);
		pd_buf_adds(b, "</code> ");
		esc(b, n ? n->role : "?");
		pd_buf_adds(b, r->kind == PD_NODESHIFT_REMOVED ? " <b>removed</b>" : "");
	} else {
		pd_buf_addf(b, "<b>%s</b> <span class=\"agg\">%s of %zu nodes</span>",
			    r->kind == PD_NODESHIFT_ALL ? "all target nodes" : "survivors",
			    pd_agg_name(m->agg), r->members);
	}
	pd_buf_adds(b, "</td>");
}

static void shift_row(struct pd_buf *b, const struct pd_comparison *c,
		      const struct pd_nodeshift_metric *m, const struct pd_nodeshift_row *r)
{
	pd_buf_adds(b, r->kind >= PD_NODESHIFT_SURVIVORS ? "<tr class=\"total\">" : "<tr>");
	shift_who(b, c, m, r);
	num_cell(b, r->pre, m->unit);
	num_cell(b, r->post, m->unit);
	pct_cell(b, r->change_pct);
	num_cell(b, r->base_post, m->unit);
	pct_cell(b, r->base_pct);
	if (r->delta >= 0) {
		const char *v = pd_verdict_name(c->deltas[r->delta].verdict);
		pd_buf_addf(b, "<td><span class=\"verdict v-%s badge\">%s</span></td></tr>\n",
			    v, v);
	} else {
		pd_buf_adds(b, "<td>-</td></tr>\n");
	}
}

/* The event within the target: per node before against after, beside the baseline. */
static void event_story(struct pd_buf *b, const struct pd_comparison *c)
{
	if (!c->shift || !c->shift->n)
		return;
	pd_buf_adds(
		b, "<h2 id=\"event-story\">The event within the target</h2>\n<p class=\"sub\">"
		   "Each metric the removed node carries, per target node: its median before "
		   "the event (pre) against after it (post), so that load moving from the "
		   "removed node onto the others shows, beside the comparison with the "
		   "baseline after the event (its twin by role; the tested verdict where there "
		   "is one). The totals add up (or average) the survivors, then every target "
		   "node, the removed one included.</p>\n");
	for (size_t i = 0; i < c->shift->n; i++) {
		const struct pd_nodeshift_metric *m = &c->shift->m[i];
		pd_buf_addf(b, "<details class=\"story\"%s><summary>", m->open ? " open" : "");
		esc(b, m->metric);
		pd_buf_adds(b, "</summary><table><tr><th>node</th><th>target pre</th>"
			       "<th>target post</th><th>post vs pre</th><th>baseline post</th>"
			       "<th>target vs baseline, post</th><th>verdict</th></tr>\n");
		for (size_t k = 0; k < m->n_rows; k++)
			shift_row(b, c, m, &m->rows[k]);
		pd_buf_adds(b, "</table></details>\n");
	}
}

/* A view's scope with how it aggregates its members ("role:kv" over "mean of 4 nodes"). */
static void scope_cell(struct pd_buf *b, const struct pd_view *v)
{
	struct pd_buf agg = PD_BUF_INIT;
	pd_render_agg(&agg, v);
	esc(b, v->scope.name);
	pd_buf_adds(b, "<br><span class=\"agg\">");
	esc(b, agg.ptr);
	pd_buf_adds(b, "</span>");
	pd_buf_release(&agg);
}

/* What the tree says beside a verdict: the topology's mark and a total's per-node change,
 * the run-to-run margin, the runs' own difference before the event when it is larger than
 * that margin assumes, an inconclusive delta's minimum detectable effect. */
static void verdict_note(struct pd_buf *b, const struct pd_delta *d)
{
	const struct pd_infer_result *r = &d->inf;
	if (d->topology)
		pd_buf_adds(b, " <span class=\"topo\">the topology's</span>");
	if (!isnan(d->node_pct))
		pd_buf_addf(b, " <span class=\"agg\">per node %+.1f%%</span>", d->node_pct);
	if (r->reason == PD_INFER_RUN_MARGIN)
		pd_buf_addf(b,
			    " <span class=\"agg\">within the run-to-run margin %.1f%%</span>",
			    r->margin_pct);
	if (!isnan(d->run_offset_pct))
		pd_buf_addf(b,
			    " <span class=\"agg\">the runs differed %+.1f%% before the "
			    "event</span>",
			    d->run_offset_pct);
	if (d->verdict != PD_VERDICT_INCONCLUSIVE || !(r->valid & PD_INFER_HAS_PCT))
		return;
	pd_buf_addf(b, " <span class=\"agg\">detectable &plusmn;%.1f%%", r->mde_pct);
	if (r->baselines_needed)
		pd_buf_addf(b, "; %zu baselines for &plusmn;threshold", r->baselines_needed);
	pd_buf_adds(b, "</span>");
}

static void delta_row(struct pd_buf *b, const struct pd_comparison *c, const struct pd_delta *d)
{
	const struct pd_view *v = &c->views[d->view];
	const struct pd_stated *s = &d->stated;
	struct pd_buf x = PD_BUF_INIT;
	pd_buf_adds(b, "<tr><td>");
	esc(b, v->metric);
	pd_buf_adds(b, "</td><td class=\"scope\">");
	scope_cell(b, v);
	pd_buf_addf(b, "</td><td>%s</td><td class=\"n\">", pd_phase_name(d->phase));
	pd_unit_add(&x, s->base, v->unit);
	esc(b, x.ptr);
	pd_buf_truncate(&x, 0);
	pd_buf_adds(b, "</td><td class=\"n\">");
	pd_unit_add(&x, s->target, v->unit);
	esc(b, x.ptr);
	pd_buf_truncate(&x, 0);
	pd_render_stated(&x, s);
	pd_buf_addf(b, "</td><td class=\"n %s\">", s->value > 0 ? "up" : "down");
	esc(b, x.ptr);
	pd_buf_truncate(&x, 0);
	pd_render_stated_ci(&x, s);
	pd_buf_adds(b, "</td><td class=\"n\">");
	esc(b, x.ptr);
	pd_buf_release(&x);
	pd_buf_addf(b,
		    "</td><td class=\"n\">%.2g</td><td><span class=\"verdict v-%s "
		    "badge\">%s</span>",
		    d->p_adj, pd_verdict_name(d->verdict), pd_verdict_name(d->verdict));
	verdict_note(b, d);
	pd_buf_adds(b, "</td></tr>\n");
}

static void delta_table_head(struct pd_buf *b)
{
	pd_buf_adds(b, "<table><tr><th>metric</th><th>scope</th><th>phase</th><th>baseline "
		       "mean</th><th>target mean</th><th>change of means</th><th>simultaneous "
		       "interval</th><th>p (Bonferroni)</th><th>verdict</th></tr>\n");
}

/* Which part of the Changes a delta falls in: the top-level regressions and improvements
 * first (open), then folded: those of single nodes and drill-downs, the topology's, and
 * the inconclusive, same and not comparable ones of each phase. */
enum delta_part { PART_MAIN, PART_DRILL, PART_TOPOLOGY, PART_REST };

static enum delta_part delta_part(const struct pd_delta *d)
{
	if (d->topology)
		return PART_TOPOLOGY;
	if (d->verdict != PD_VERDICT_REGRESSION && d->verdict != PD_VERDICT_IMPROVEMENT)
		return PART_REST;
	return d->drill ? PART_DRILL : PART_MAIN;
}

/* The ordered deltas of one part (and for PART_REST one verdict and phase): a table, folded
 * under title unless it is the main one; nothing when none. */
static void delta_part_table(struct pd_buf *b, const struct pd_comparison *c,
			     const struct pd_delta *const *order, enum delta_part part,
			     int verdict, int phase, const char *title)
{
	size_t n = 0;
	for (size_t k = 0; k < c->n_deltas; k++)
		n += delta_part(order[k]) == part &&
		     (part != PART_REST ||
		      ((int)order[k]->verdict == verdict && (int)order[k]->phase == phase));
	if (!n && part != PART_MAIN)
		return;
	if (part != PART_MAIN)
		pd_buf_addf(b, "<details><summary>%s (%zu)</summary>", title, n);
	delta_table_head(b);
	for (size_t k = 0; k < c->n_deltas; k++)
		if (delta_part(order[k]) == part &&
		    (part != PART_REST ||
		     ((int)order[k]->verdict == verdict && (int)order[k]->phase == phase)))
			delta_row(b, c, order[k]);
	pd_buf_adds(b, part != PART_MAIN ? "</table></details>\n" : "</table>\n");
}

static void deltas(struct pd_buf *b, const struct pd_comparison *c)
{
	static const enum pd_verdict rest[] = {PD_VERDICT_INCONCLUSIVE, PD_VERDICT_SAME,
					       PD_VERDICT_NOT_COMPARABLE};
	const struct pd_delta **order = pd_xmalloc((c->n_deltas + 1) * sizeof(*order));
	for (size_t k = 0; k < c->n_deltas; k++)
		order[k] = &c->deltas[c->delta_order[k]];
	pd_buf_adds(b,
		    "<h2 id=\"changes\">Changes</h2>\n<p class=\"sub\">The mean of each "
		    "phase, baseline against target. First the regressions and improvements "
		    "of the top-level deltas (the cluster, the survivors, a role); folded "
		    "below: those of single nodes and drill-downs, the changes the topology "
		    "explains (a role's total that differs by its number of nodes: no verdict "
		    "counts), then the rest by verdict and phase.</p>\n");
	method(b, c);
	delta_part_table(b, c, order, PART_MAIN, 0, 0, NULL);
	delta_part_table(b, c, order, PART_DRILL, 0, 0,
			 "Regressions and improvements of single nodes and drill-downs");
	delta_part_table(b, c, order, PART_TOPOLOGY, 0, 0, "Explained by the topology");
	for (size_t r = 0; r < sizeof(rest) / sizeof(*rest); r++)
		for (int ph = 0; ph < PD_PHASE_COUNT; ph++) {
			struct pd_buf t = PD_BUF_INIT;
			pd_buf_addf(&t, "%s, %s",
				    r == 0   ? "Inconclusive"
				    : r == 1 ? "Same"
					     : "Not comparable",
				    pd_phase_name((enum pd_phase)ph));
			delta_part_table(b, c, order, PART_REST, (int)rest[r], ph, t.ptr);
			pd_buf_release(&t);
		}
	free(order);
}

/* The charts' legend, once for all of them. */
static void legend(struct pd_buf *b)
{
	pd_buf_adds(b, "<p class=\"sub\">"
		       "<span class=\"swatch sw-base\"></span>baseline"
		       "<span class=\"swatch sw-target\"></span>target"
		       "<span class=\"swatch sw-removed\"></span>removed node (target)"
		       "<span class=\"swatch sw-event\"></span>event"
		       "<span class=\"swatch sw-gap\"></span>no sample (a gap: the line "
		       "breaks)</p>\n");
}

/* Opens the section of a collector: "atop (63 charts)". */
static void collector_open(struct pd_buf *b, const struct pd_comparison *c,
			   const struct pd_chart_plan *plan, size_t first)
{
	const struct pd_chart *ch = &plan->charts[first];
	const char *m = c->views[ch->view].metric;
	size_t len = pd_chart_collector(c, ch), n = 0;
	for (size_t i = first; i < plan->n; i++) {
		const struct pd_chart *o = &plan->charts[i];
		if (o->kind != PD_CHART_NODE && o->kind != PD_CHART_METRIC)
			continue;
		if (pd_chart_collector(c, o) != len ||
		    strncmp(c->views[o->view].metric, m, len))
			break;
		n++;
	}
	struct pd_buf name = PD_BUF_INIT;
	pd_buf_add(&name, m, len);
	pd_buf_adds(b, "<details class=\"collector\" id=\"collector-");
	esc(b, name.ptr);
	pd_buf_adds(b, "\"><summary>");
	esc(b, name.ptr);
	pd_buf_addf(b,
		    " <span class=\"agg\">(%zu chart%s)</span></summary>\n<div "
		    "class=\"grid\">\n",
		    n, n == 1 ? "" : "s");
	pd_buf_release(&name);
}

/* An index metric's line: how many indexes moved, which are drawn (analyze/judge/indexes.c). */
static void index_summary(struct pd_buf *b, const struct pd_view *v)
{
	if (!v->indexes)
		return;
	pd_buf_addf(b,
		    "<p class=\"sub\">%zu index%s, %zu moved (a regression or an "
		    "improvement); ",
		    v->indexes, v->indexes == 1 ? "" : "es", v->moved);
	if (v->moved)
		pd_buf_addf(b,
			    "charted: the total and the %zu that moved most. Every index's "
			    "change is in summary.json.</p>",
			    v->charted);
	else
		pd_buf_adds(b,
			    "charted: the total. Every index's change is in summary.json.</p>");
}

/* The series zero in both runs, in one line instead of their charts (pd_view.zero). */
static void zero_line(struct pd_buf *b, const struct pd_comparison *c,
		      const struct pd_chart_plan *plan)
{
	if (!plan->n_folded)
		return;
	pd_buf_adds(b, "<p class=\"sub\" id=\"zero\">Zero in both runs (not charted): ");
	for (size_t i = 0; i < plan->n_folded; i++) {
		const struct pd_view *v = &c->views[plan->folded[i].view];
		const char *host = plan->folded[i].host;
		const struct pd_node *n = host ? pd_run_node(c->target, host) : NULL;
		pd_buf_adds(b, i ? ", " : "");
		/* a metric with no chart left: its anchor (junit.xml's links) is here */
		int anchor =
			!has_metric_charts(c, plan, v->metric) &&
			(!i || strcmp(c->views[plan->folded[i - 1].view].metric, v->metric));
		if (anchor) {
			pd_buf_adds(b, "<span id=\"metric-");
			esc(b, v->metric);
			pd_buf_adds(b, "\">");
		}
		esc(b, v->metric);
		pd_buf_adds(b, anchor ? "</span>" : "");
		pd_buf_adds(b, host ? " on " : " (");
		esc(b, host ? host : v->scope.name);
		if (n) {
			pd_buf_adds(b, " (");
			esc(b, n->role);
		}
		pd_buf_adds(b, host && !n ? "" : ")");
	}
	pd_buf_adds(b, ".</p>\n");
}

/* The runs' latency distributions (pd_comparison.latency), before the series. */
static void latency_charts(struct pd_buf *b, const struct pd_chart_plan *plan,
			   const char *const *svg)
{
	for (size_t i = 0; i < plan->n; i++) {
		if (plan->charts[i].kind != PD_CHART_LATENCY)
			continue;
		pd_buf_adds(b,
			    "<div class=\"metric\" id=\"latency\"><h3>Query latency: the share "
			    "of requests slower than each bound</h3>"
			    "<p class=\"sub\">The share of requests slower than each bound "
			    "(n1ql_stats/query_requests_&lt;bound&gt;ms over query_requests), "
			    "baseline against target: the lower the line, the faster the "
			    "queries.</p><div class=\"charts\">");
		chart_img(b, plan, svg, &plan->charts[i]);
		pd_buf_adds(b, "</div></div>\n");
	}
}

/* One side of a percentile: its latency, or why there is none. */
static void pct_side(struct pd_buf *b, const struct pd_latency_run *r, size_t k)
{
	struct pd_buf t = PD_BUF_INIT;
	if (r->status[k] == PD_LATENCY_OK)
		pd_unit_add(&t, r->ms[k], PD_UNIT_MS);
	else
		pd_buf_adds(&t, pd_latency_status_name(r->status[k]));
	esc(b, t.ptr);
	pd_buf_release(&t);
}

/* A cell of a metric's percentile table: percentile k of one phase, baseline -> target
 * (change). */
static void pct_cell_of(struct pd_buf *b, const struct pd_latency_pct *l, size_t k)
{
	pd_buf_adds(b, "<td>");
	pct_side(b, &l->base, k);
	pd_buf_adds(b, " &rarr; ");
	pct_side(b, &l->target, k);
	if (!isnan(l->change_pct[k]))
		pd_buf_addf(b, " <span class=\"%s\">(%+.1f%%)</span>",
			    l->change_pct[k] > 0 ? "up" : "down", l->change_pct[k]);
	pd_buf_adds(b, "</td>");
}

/* The table of the metric whose entries are latency_pct[i..j): a column per phase (its
 * samples in the heading), a row per percentile (the samples it needs). */
static void pct_table(struct pd_buf *b, const struct pd_comparison *c, size_t i, size_t j)
{
	const struct pd_latency_pct *l = &c->latency_pct[i];
	pd_buf_adds(b, "<table class=\"pct\"><tr><th>percentile</th>");
	for (size_t e = i; e < j; e++)
		pd_buf_addf(b,
			    "<th>%s <span class=\"agg\">(%zu &rarr; %zu samples)</span></th>",
			    pd_phase_name(c->latency_pct[e].phase), c->latency_pct[e].base.n,
			    c->latency_pct[e].target.n);
	pd_buf_adds(b, "</tr>");
	for (size_t k = 0; k < PD_LATENCY_PCTS; k++) {
		pd_buf_addf(
			b, "<tr><td>p%g <span class=\"agg\">(%zu samples at least)</span></td>",
			l->p[k], l->need[k]);
		for (size_t e = i; e < j; e++)
			pct_cell_of(b, &c->latency_pct[e], k);
		pd_buf_adds(b, "</tr>");
	}
	pd_buf_adds(b, "</table>");
}

/* The percentiles of the per-request latency collectors (pd_comparison.latency_pct): per
 * metric its chart and a table of every phase. */
static void latency_pct_section(struct pd_buf *b, const struct pd_comparison *c,
				const struct pd_chart_plan *plan, const char *const *svg)
{
	if (!c->n_latency_pct)
		return;
	pd_buf_adds(b, "<h3 id=\"latency-percentiles\">Latency percentiles of cbagent's "
		       "per-request samples</h3><p class=\"sub\">Each request's latency as "
		       "the workers sampled it (spring_latency, spring_query_latency; every "
		       "bucket's), baseline &rarr; target (change): numpy's percentile, as "
		       "perfrunner computes its latency KPIs; the whole phase is every "
		       "sample. A percentile without one sample beyond it says so instead of "
		       "a number.</p>\n<div class=\"grid\">\n");
	for (size_t i = 0, j; i < c->n_latency_pct; i = j) {
		for (j = i + 1; j < c->n_latency_pct &&
				!strcmp(c->latency_pct[j].metric, c->latency_pct[i].metric);
		     j++)
			;
		pd_buf_adds(b, "<div class=\"metric\" id=\"latency-");
		esc(b, c->latency_pct[i].metric);
		pd_buf_adds(b, "\"><h3>");
		esc(b, c->latency_pct[i].metric);
		pd_buf_adds(b, ": latency at each percentile</h3><div class=\"pctview\"><div "
			       "class=\"charts\">");
		for (size_t k = 0; k < plan->n; k++)
			if (plan->charts[k].kind == PD_CHART_LATENCY_PCT &&
			    plan->charts[k].view >= i && plan->charts[k].view < j)
				chart_img(b, plan, svg, &plan->charts[k]);
		pd_buf_adds(b, "</div>");
		pct_table(b, c, i, j);
		pd_buf_adds(b, "</div></div>\n");
	}
	pd_buf_adds(b, "</div>\n");
}

static void metric_charts(struct pd_buf *b, const struct pd_comparison *c,
			  const struct pd_chart_plan *plan, const char *const *svg)
{
	const char *prev = NULL;
	pd_buf_addf(
		b,
		"<h2 id=\"metrics\">Metrics</h2>\n<p class=\"sub\">Every series as cbmonitor "
		"draws it, "
		"grouped by collector: a per-node metric once per node (its address and "
		"role in the title), the target node against its baseline twin by role; the "
		"removed node apart, target only; both runs aligned %s, phases shaded, the "
		"event dashed; seconds from the start of the measured phase.</p>\n",
		c->base_shift_s != 0 ? "on their events (the time axis is the target's)"
				     : "at the start of the phase");
	legend(b);
	zero_line(b, c, plan);
	latency_charts(b, plan, svg);
	latency_pct_section(b, c, plan, svg);
	for (size_t i = 0; i < plan->n; i++) {
		const struct pd_chart *ch = &plan->charts[i];
		const char *m = c->views[ch->view].metric;
		if (ch->kind != PD_CHART_METRIC && ch->kind != PD_CHART_NODE)
			continue;
		if (!prev || strcmp(prev, m)) {
			size_t len = pd_chart_collector(c, ch);
			int same = prev && !strncmp(prev, m, len) && prev[len] == '/';
			pd_buf_adds(b, prev ? "</div></div>\n" : "");
			if (prev && !same)
				pd_buf_adds(b, "</div></details>\n");
			if (!same)
				collector_open(b, c, plan, i);
			pd_buf_adds(b, "<div class=\"metric\" id=\"metric-");
			esc(b, m);
			pd_buf_adds(b, "\"><h3>");
			esc(b, m);
			pd_buf_adds(b, "</h3>");
			index_summary(b, &c->views[ch->view]);
			pd_buf_adds(b, "<div class=\"charts\">");
			prev = m;
		}
		chart_img(b, plan, svg, ch);
	}
	pd_buf_adds(b, prev ? "</div></div>\n</div></details>\n" : "");
}

void pd_html_report(struct pd_buf *out, const struct pd_comparison *c,
		    const struct pd_chart_plan *plan, const char *const *svg,
		    const struct pd_labels *labels)
{
	pd_buf_adds(out,
		    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		    "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
		    "<title>perfdelta: ");
	esc(out, labels->target);
	pd_buf_adds(out, " against ");
	esc(out, labels->base);
	/* a directory links its stylesheet (Jenkins' CSP blocks inline style), a single file
	 * holds it */
	if (svg)
		pd_buf_addf(out, "</title><style>%s</style>", css);
	else
		pd_buf_adds(out,
			    "</title><link rel=\"stylesheet\" href=\"" PD_HTML_CSS_FILE "\">");
	pd_buf_adds(out, "</head><body><main>\n");
	header(out, c, labels);
	warnings(out, c);
	top_card(out, c);
	contents(out, c, plan);
	config_diff(out, c);
	findings(out, c, plan, svg);
	runs(out, c, labels);
	timeline(out, c);
	event_story(out, c);
	deltas(out, c);
	metric_charts(out, c, plan, svg);
	pd_buf_addf(out,
		    "<footer>perfdelta %s. Deterministic: the same inputs and flags give the "
		    "same report. Charts decimated for drawing only (largest triangle three "
		    "buckets); statistics use every sample.</footer>\n</main></body></html>\n",
		    PD_VERSION);
}
