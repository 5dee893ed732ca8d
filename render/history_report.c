/* The history report's texts and charts (history_report.h). */
#include "history_report.h"

#include "charts.h"
#include "escape.h"
#include "jsonw.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char pd_hist_css[] =
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,"
	"sans-serif;color:#1d2330;margin:0;background:#f6f7f9}\n"
	"main{max-width:1180px;margin:0 auto;padding:24px 28px 48px}\n"
	"h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:32px 0 10px;"
	"border-bottom:1px solid #d9dde5;padding-bottom:4px}\n"
	"h3{font-size:13px;margin:14px 0 4px;font-weight:600}\n"
	".sub{color:#5b6475;margin:0 0 14px}\n"
	".card{background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:14px 16px;"
	"margin:12px 0}\n"
	"table{border-collapse:collapse;width:100%;background:#fff;font-size:13px}\n"
	"th,td{border-bottom:1px solid #e6e9ef;padding:5px 8px;text-align:left;"
	"vertical-align:top}\n"
	"th{background:#eef1f6;font-weight:600}td.n{text-align:right;"
	"font-variant-numeric:tabular-nums;white-space:nowrap}td{overflow-wrap:anywhere}\n"
	"td.run{white-space:nowrap}\n"
	"code{font-size:12px}.worse{color:#c0392b}.better{color:#1e8449}\n"
	".chart img{border:1px solid #eceff3;border-radius:4px;background:#fff;"
	"max-width:100%}\n"
	"footer{margin-top:32px;color:#5b6475;font-size:12px}\n";

void pd_hist_chart_name(struct pd_buf *b, size_t f)
{
	pd_buf_addf(b, "f%zu.svg", f);
}

static const char *build_of(const struct pd_hist_run *run)
{
	return run->version ? run->version : run->key;
}

void pd_hist_run_name(struct pd_buf *b, const struct pd_hist_run *run)
{
	if (run->version && run->number > 0)
		pd_buf_addf(b, "%s #%ld", run->version, run->number);
	else if (run->version)
		pd_buf_addf(b, "%s (%s)", run->version, run->key);
	else
		pd_buf_adds(b, run->key);
}

/* Run i of the report's window, named (pd_hist_run_name) and escaped for HTML. */
static void run_html(struct pd_buf *b, const struct pd_hist_report *r, size_t i)
{
	struct pd_buf name = PD_BUF_INIT;
	pd_hist_run_name(&name, &r->runs[i]);
	pd_esc_html(b, name.ptr);
	pd_buf_release(&name);
}

/* A value of feature f with its unit, as compare's report writes one ("1.77 GiB",
 * "88.0%", "3525 /s"); a count or a number without unit in 4 digits. */
static void value_text(struct pd_buf *b, const struct pd_hist_report *r, size_t f, double v)
{
	enum pd_unit u = r->h->feat[f].unit;
	if (u == PD_UNIT_COUNT || u == PD_UNIT_NONE)
		pd_buf_addf(b, "%.4g", v);
	else
		pd_unit_add(b, v, u);
}

/* The class of a change's cell: worse (red) or better (green) by its feature's way. */
static const char *way_class(const struct pd_hist_change *c)
{
	return c->worse > 0 ? " class=\"worse\"" : c->worse < 0 ? " class=\"better\"" : "";
}

/* The change points of feature f, in run order, into idx (room for h->n_cp). */
static size_t changes_of(size_t *idx, const struct pd_history *h, size_t f)
{
	size_t n = 0;
	for (size_t i = 0; i < h->n_cp; i++)
		if (h->cp[i].feature == f)
			idx[n++] = i;
	for (size_t i = 1; i < n; i++) /* insertion sort by run: a handful */
		for (size_t j = i; j > 0 && h->cp[idx[j]].at < h->cp[idx[j - 1]].at; j--) {
			size_t t = idx[j];
			idx[j] = idx[j - 1], idx[j - 1] = t;
		}
	return n;
}

/* One chart: the feature's values by run (run i of the window at x = i + 1), its
 * segments' means, a band per segment labelled with the build it starts at. */
static void chart(struct pd_plot_job *job, const struct pd_hist_report *r, size_t f,
		  const size_t *idx, size_t k, const char *dir, double *buf)
{
	const struct pd_history *h = r->h;
	size_t n = h->n_runs;
	double *t = buf, *v = buf + n, *m = buf + 2 * n, hi = 0, scale;
	struct pd_plot_band *bands = pd_xcalloc(k + 1, sizeof(*bands));
	struct pd_buf file = PD_BUF_INIT, *label = pd_xcalloc(k + 1, sizeof(*label));
	const char *ylabel;
	for (size_t i = 0; i < n; i++) {
		t[i] = (double)(i + 1), v[i] = r->values[i * h->n_features + f];
		hi = fmax(hi, fabs(v[i])); /* fmax skips NaN */
	}
	scale = pd_chart_unit_scale(h->feat[f].unit, hi, &ylabel);
	for (size_t s = 0; s <= k; s++) {
		size_t a = s ? h->cp[idx[s - 1]].at : 0, b = s < k ? h->cp[idx[s]].at : n;
		double level = s < k ? h->cp[idx[s]].before : h->cp[idx[k - 1]].after;
		for (size_t i = a; i < b; i++)
			m[i] = isnan(v[i]) ? NAN : level / scale;
		label[s] = (struct pd_buf)PD_BUF_INIT;
		pd_hist_run_name(&label[s], &r->runs[a]);
		bands[s] =
			(struct pd_plot_band){label[s].ptr, (double)a + 0.5, (double)b + 0.5};
	}
	for (size_t i = 0; i < n; i++)
		v[i] /= scale;
	struct pd_plot_line lines[2] = {{"each run", t, v, n, 1}, {"segment mean", t, m, n, 3}};
	pd_hist_chart_name(&file, f);
	struct pd_plot_chart c = {.file = file.ptr,
				  .title = r->names[f],
				  .ylabel = ylabel,
				  .lines = lines,
				  .n_lines = 2,
				  .bands = bands,
				  .n_bands = k + 1,
				  .event_s = NAN,
				  .xlabel = "run, in build order",
				  .x_runs = 1};
	pd_plot_script(job, &c, dir);
	pd_buf_release(&file);
	for (size_t s = 0; s <= k; s++)
		pd_buf_release(&label[s]);
	free(label);
	free(bands);
}

void pd_hist_charts(struct pd_plot_job *job, const struct pd_hist_report *r, const char *dir)
{
	const struct pd_history *h = r->h;
	size_t *idx = pd_xmalloc((h->n_cp + 1) * sizeof(*idx));
	double *buf = pd_xmalloc((3 * h->n_runs + 1) * sizeof(*buf));
	for (size_t f = 0; f < h->n_features; f++) {
		size_t k = changes_of(idx, h, f);
		if (k)
			chart(job, r, f, idx, k, dir, buf);
	}
	free(idx);
	free(buf);
}

/* The command that compares the runs either side of change c with the store's run-to-run
 * spread of each feature as its margin (compare --db): with one baseline and nothing
 * else, compare can only assume that spread, and metrics whose level moves from run to
 * run read as changed. */
static void compare_cmd(struct pd_buf *b, const struct pd_hist_report *r,
			const struct pd_hist_change *c)
{
	const struct pd_hist_run *a = &r->runs[c->prev], *z = &r->runs[c->at];
	struct pd_buf out = PD_BUF_INIT;
	pd_buf_adds(b, "perfdelta compare ");
	if (r->db) {
		pd_buf_adds(b, "--db ");
		pd_esc_sh(b, r->db);
		pd_buf_addch(b, ' ');
	}
	pd_esc_sh(b, a->bundle ? a->bundle : a->key);
	pd_buf_addch(b, ' ');
	pd_esc_sh(b, z->bundle ? z->bundle : z->key);
	pd_buf_adds(b, " -o ");
	pd_buf_addf(&out, "compare-%s", build_of(z));
	if (z->number > 0 && z->version)
		pd_buf_addf(&out, "-%ld", z->number);
	pd_esc_sh(b, out.ptr);
	pd_buf_release(&out);
}

static void num_cell(struct pd_buf *b, double v, int digits)
{
	pd_buf_adds(b, "<td class=\"n\">");
	if (isfinite(v))
		pd_buf_addf(b, "%.*g", digits, v);
	else
		pd_buf_adds(b, isinf(v) ? "&infin;" : "&ndash;");
	pd_buf_adds(b, "</td>");
}

static void value_cell(struct pd_buf *b, const struct pd_hist_report *r, size_t f, double v)
{
	if (!isfinite(v)) {
		num_cell(b, v, 4);
		return;
	}
	pd_buf_adds(b, "<td class=\"n\">");
	value_text(b, r, f, v);
	pd_buf_adds(b, "</td>");
}

static void esc_cell(struct pd_buf *b, const char *s, int code)
{
	pd_buf_adds(b, code ? "<td><code>" : "<td>");
	pd_esc_html(b, s);
	pd_buf_adds(b, code ? "</code></td>" : "</td>");
}

static void change_row(struct pd_buf *b, const struct pd_hist_report *r, size_t i)
{
	const struct pd_hist_change *c = &r->h->cp[i];
	struct pd_buf cmd = PD_BUF_INIT, anchor = PD_BUF_INIT;
	pd_hist_chart_name(&anchor, c->feature);
	pd_buf_addf(b, "<tr><td class=\"n\">%zu</td><td><a href=\"#c-", i + 1);
	pd_buf_add(b, anchor.ptr, anchor.len - 4);
	pd_buf_adds(b, "\">");
	pd_esc_html(b, r->names[c->feature]);
	pd_buf_adds(b, "</a></td>");
	pd_buf_adds(b, "<td class=\"run\">");
	run_html(b, r, c->prev);
	pd_buf_adds(b, "</td><td class=\"run\">");
	run_html(b, r, c->at);
	pd_buf_adds(b, "</td>");
	value_cell(b, r, c->feature, c->before);
	value_cell(b, r, c->feature, c->after);
	pd_buf_addf(b, "<td class=\"n%s\">",
		    c->worse > 0   ? " worse"
		    : c->worse < 0 ? " better"
				   : "");
	if (isfinite(c->change_pct))
		pd_buf_addf(b, "%+.1f%%", c->change_pct);
	pd_buf_adds(b, "</td>");
	num_cell(b, c->size, 2);
	if (c->p_at_floor) /* no permutation reached it: the p-value is at most the floor */
		pd_buf_addf(b, "<td class=\"n\">&le; %.2g (the permutation floor)</td>",
			    c->p_floor);
	else
		num_cell(b, c->p, 2);
	compare_cmd(&cmd, r, c);
	esc_cell(b, cmd.ptr, 1);
	pd_buf_adds(b, "</tr>\n");
	pd_buf_release(&cmd);
	pd_buf_release(&anchor);
}

static void header(struct pd_buf *b, const struct pd_hist_report *r)
{
	const struct pd_history *h = r->h;
	pd_buf_adds(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		       "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
		       "<title>perfdelta history: ");
	pd_esc_html(b, r->test);
	pd_buf_adds(b,
		    "</title><link rel=\"stylesheet\" href=\"style.css\"></head><body><main>\n"
		    "<h1>History of ");
	pd_esc_html(b, r->test);
	pd_buf_addf(b, "</h1>\n<p class=\"sub\">%zu runs in build order", h->n_runs);
	if (r->n_stored > h->n_runs)
		pd_buf_addf(b, " (the newest of %zu stored)", r->n_stored);
	if (h->n_runs) {
		pd_buf_adds(b, ", from ");
		run_html(b, r, 0);
		pd_buf_adds(b, " to ");
		run_html(b, r, h->n_runs - 1);
	}
	pd_buf_addf(b, ". %zu change point%s in %zu features tested", h->n_cp,
		    h->n_cp == 1 ? "" : "s", h->n_tested);
	if (h->n_constant)
		pd_buf_addf(b, " (%zu more constant: the same value in every run, not tested)",
			    h->n_constant);
	pd_buf_adds(b, ".</p>\n");
	pd_buf_addf(
		b,
		"<div class=\"card\">Method: E-Divisive means (Matteson and James 2014), "
		"divergence exponent 1, each split tested by permutation; at least %zu runs "
		"on either side of a change; Bonferroni over the %zu features tested (a "
		"feature whose value is the same in every run is not one of them): each "
		"at %.3g, so that any false change point among them has probability at most "
		"%.3g. Size: the change over the pooled run-to-run standard deviation of the "
		"two segments. The command beside a change compares the runs either side of "
		"it with this store's run-to-run spread of each feature as its margin "
		"(compare --db): one baseline alone cannot measure that spread, and "
		"metrics whose level moves from run to run would read as changed.</div>\n",
		h->min_size, h->n_tested, h->alpha_feature, r->alpha);
}

static void feature_section(struct pd_buf *b, const struct pd_hist_report *r, size_t f,
			    const size_t *idx, size_t k)
{
	struct pd_buf file = PD_BUF_INIT;
	pd_hist_chart_name(&file, f);
	pd_buf_adds(b, "<div class=\"card chart\" id=\"c-");
	pd_buf_add(b, file.ptr, file.len - 4);
	pd_buf_adds(b, "\"><h3>");
	pd_esc_html(b, r->names[f]);
	pd_buf_adds(b, "</h3>");
	for (size_t i = 0; i < k; i++) {
		const struct pd_hist_change *c = &r->h->cp[idx[i]];
		pd_buf_adds(b, "<p>Changed between ");
		run_html(b, r, c->prev);
		pd_buf_adds(b, " and ");
		run_html(b, r, c->at);
		pd_buf_addf(b, ": <span%s>", way_class(c));
		value_text(b, r, c->feature, c->before);
		pd_buf_adds(b, " &rarr; ");
		value_text(b, r, c->feature, c->after);
		pd_buf_adds(b, "</span>.</p>");
	}
	pd_buf_adds(b, "<img src=\"charts/");
	pd_buf_add(b, file.ptr, file.len);
	pd_buf_adds(b, "\" alt=\"");
	pd_esc_html(b, r->names[f]);
	pd_buf_adds(b, " across builds\" width=\"720\" height=\"300\"></div>\n");
	pd_buf_release(&file);
}

void pd_hist_html(struct pd_buf *b, const struct pd_hist_report *r)
{
	const struct pd_history *h = r->h;
	size_t *idx = pd_xmalloc((h->n_cp + 1) * sizeof(*idx));
	header(b, r);
	pd_buf_adds(b, "<h2>Change points, largest first</h2>\n");
	if (!h->n_cp)
		pd_buf_adds(b, "<p>No feature changed significantly over these runs.</p>\n");
	else
		pd_buf_adds(b, "<table><tr><th>#</th><th>feature</th><th>last run before</th>"
			       "<th>first run after</th><th>before</th><th>after</th>"
			       "<th>change</th><th>size (sd)</th><th>p</th>"
			       "<th>compare them</th></tr>\n");
	for (size_t i = 0; i < h->n_cp; i++)
		change_row(b, r, i);
	pd_buf_adds(b, h->n_cp ? "</table>\n<h2>Features that changed</h2>\n" : "");
	/* in the table's order, each feature at its largest change */
	for (size_t i = 0; i < h->n_cp; i++) {
		size_t f = h->cp[i].feature, seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = h->cp[j].feature == f;
		if (!seen)
			feature_section(b, r, f, idx, changes_of(idx, h, f));
	}
	pd_buf_addf(b,
		    "<footer>perfdelta %s. The same history gives the same report "
		    "(permutations seeded by each feature's name).</footer>\n</main></body>"
		    "</html>\n",
		    PD_VERSION);
	free(idx);
}

/* "changed from 2 to 70 between RUN and RUN" for change c. */
static void change_text(struct pd_buf *b, const struct pd_hist_report *r,
			const struct pd_hist_change *c)
{
	pd_buf_adds(b, "changed from ");
	value_text(b, r, c->feature, c->before);
	pd_buf_adds(b, " to ");
	value_text(b, r, c->feature, c->after);
	pd_buf_adds(b, " between ");
	pd_hist_run_name(b, &r->runs[c->prev]);
	pd_buf_adds(b, " and ");
	pd_hist_run_name(b, &r->runs[c->at]);
}

void pd_hist_terminal(struct pd_buf *b, const struct pd_hist_report *r)
{
	for (size_t i = 0; i < r->h->n_top; i++) {
		const struct pd_hist_change *c = &r->h->cp[i];
		pd_buf_addf(b, "  %zu. %s ", i + 1, r->names[c->feature]);
		change_text(b, r, c);
		pd_buf_adds(b, c->worse > 0 ? " (worse)" : c->worse < 0 ? " (better)" : "");
		pd_buf_adds(b, "\n     compare: ");
		compare_cmd(b, r, c);
		pd_buf_addch(b, '\n');
	}
	if (r->h->n_cp > r->h->n_top)
		pd_buf_addf(b, "  and %zu more in the report\n", r->h->n_cp - r->h->n_top);
}

static void change_json(struct pd_jw *w, const struct pd_hist_report *r, size_t i)
{
	const struct pd_hist_change *c = &r->h->cp[i];
	struct pd_buf cmd = PD_BUF_INIT, name = PD_BUF_INIT, prev = PD_BUF_INIT;
	compare_cmd(&cmd, r, c);
	pd_hist_run_name(&name, &r->runs[c->at]);
	pd_hist_run_name(&prev, &r->runs[c->prev]);
	pd_jw_open(w, NULL, '{');
	pd_jw_str(w, "feature", r->names[c->feature]);
	pd_jw_str(w, "build", build_of(&r->runs[c->at]));
	pd_jw_str(w, "run", r->runs[c->at].key);
	pd_jw_str(w, "run_name", name.ptr);
	pd_jw_str(w, "previous_build", build_of(&r->runs[c->prev]));
	pd_jw_str(w, "previous_run", r->runs[c->prev].key);
	pd_jw_str(w, "previous_run_name", prev.ptr);
	pd_jw_str(w, "unit", pd_unit_name(r->h->feat[c->feature].unit));
	pd_jw_num(w, "before", c->before);
	pd_jw_num(w, "after", c->after);
	pd_jw_num(w, "change_pct", c->change_pct);
	pd_jw_num(w, "size_sd", isinf(c->size) ? NAN : c->size);
	pd_jw_num(w, "p_value", c->p);
	pd_jw_bool(w, "p_value_at_floor", c->p_at_floor);
	pd_jw_bool(w, "recent", c->recent);
	pd_jw_str(w, "worse", c->worse > 0 ? "worse" : c->worse < 0 ? "better" : "unknown");
	pd_jw_str(w, "compare", cmd.ptr);
	pd_jw_close(w, '}');
	pd_buf_release(&cmd);
	pd_buf_release(&name);
	pd_buf_release(&prev);
}

void pd_hist_summary_json(struct pd_buf *b, const struct pd_hist_report *r)
{
	struct pd_jw w = PD_JW_INIT(b);
	const struct pd_history *h = r->h;
	pd_jw_open(&w, NULL, '{');
	pd_jw_str(&w, "tool", "perfdelta");
	pd_jw_str(&w, "version", PD_VERSION);
	pd_jw_str(&w, "kind", "history");
	pd_jw_str(&w, "test", r->test);
	pd_jw_int(&w, "runs", (int64_t)h->n_runs);
	pd_jw_int(&w, "runs_stored", (int64_t)r->n_stored);
	pd_jw_open(&w, "method", '{');
	pd_jw_str(&w, "algorithm", "e-divisive-means");
	pd_jw_num(&w, "divergence_alpha", 1);
	pd_jw_int(&w, "min_size", (int64_t)h->min_size);
	pd_jw_str(&w, "correction", "bonferroni");
	pd_jw_int(&w, "features_tested", (int64_t)h->n_tested);
	pd_jw_int(&w, "features_constant", (int64_t)h->n_constant);
	pd_jw_num(&w, "alpha", r->alpha);
	pd_jw_num(&w, "alpha_per_feature", h->alpha_feature);
	pd_jw_close(&w, '}');
	pd_jw_open(&w, "change_points", '[');
	for (size_t i = 0; i < h->n_cp; i++)
		change_json(&w, r, i);
	pd_jw_close(&w, ']');
	pd_jw_close(&w, '}');
	pd_buf_addch(b, '\n');
}

/* A feature's testcase: it fails on its last change when that is recent and did not go
 * the feature's better way (a throughput gain fails no test). */
static void junit_case(struct pd_buf *b, const struct pd_hist_report *r, size_t f,
		       const size_t *idx, size_t k)
{
	const struct pd_hist_change *c = k ? &r->h->cp[idx[k - 1]] : NULL;
	pd_buf_adds(b, "    <testcase classname=\"perfdelta.history\" name=\"");
	pd_esc_xml(b, r->names[f]);
	if (!c || !c->recent || c->worse < 0) {
		pd_buf_adds(b, "\"/>\n");
		return;
	}
	struct pd_buf msg = PD_BUF_INIT;
	change_text(&msg, r, c);
	pd_buf_adds(b, "\"><failure type=\"change-point\" message=\"");
	pd_esc_xml(b, msg.ptr);
	pd_buf_adds(b, "\">");
	pd_esc_xml(b, msg.ptr);
	pd_buf_adds(b, "</failure></testcase>\n");
	pd_buf_release(&msg);
}

void pd_hist_junit(struct pd_buf *b, const struct pd_hist_report *r)
{
	const struct pd_history *h = r->h;
	size_t *idx = pd_xmalloc((h->n_cp + 1) * sizeof(*idx)), failed = 0;
	for (size_t i = 0; i < h->n_cp; i++) /* only a feature's last change can be recent */
		failed += h->cp[i].recent && h->cp[i].worse >= 0;
	pd_buf_adds(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite "
		       "name=\"perfdelta.history.");
	pd_esc_xml(b, r->test);
	pd_buf_addf(b, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n", h->n_features,
		    failed);
	for (size_t f = 0; f < h->n_features; f++)
		junit_case(b, r, f, idx, changes_of(idx, h, f));
	pd_buf_adds(b, "  </testsuite>\n</testsuites>\n");
	free(idx);
}
