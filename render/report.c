#include "report.h"
#include "charts.h"
#include "html.h"
#include "../core/outdir.h"
#include "plot.h"
#include "junit.h"
#include "markup.h"
#include "../core/file.h"
#include "../core/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Points per line of a finding's chart: ample for its 552 pixels, small for a ticket
 * attachment; of a per-series chart: one in three pixels of its 364, for there are a few
 * hundred of them (the demo's single file stays under 3 MiB). */
#define CHART_POINTS 360
#define SMALL_POINTS 120
/* gnuplots at most, and charts each at least (render/report.c jobs_for) */
#define MAX_JOBS     4
#define CHARTS_A_JOB 24
/* A gnuplot SVG is a few dozen kB: anything larger than this is not ours. */
#define SVG_LIMIT ((size_t)8 << 20)

int pd_report_is_file(const struct pd_report_opts *o)
{
	return pd_str_ends_with(o->out, ".html");
}

static void progress(const struct pd_report_opts *o, const char *what)
{
	if (o->progress)
		fprintf(stderr, "perfdelta: %s\n", what);
}

static void free_svgs(char **svg, size_t n)
{
	for (size_t i = 0; svg && i < n; i++)
		free(svg[i]);
	free(svg);
}

/* Whether text looks like a whole SVG document: an XML declaration or an <svg> root
 * first, </svg> last (whitespace around allowed). A gnuplot that died mid-chart, or
 * something else on PATH called gnuplot, writes neither. */
static int whole_svg(const char *text, size_t len)
{
	while (len && strchr(" \t\r\n", text[len - 1]))
		len--;
	size_t lead = strspn(text, " \t\r\n");
	text += lead, len -= len < lead ? len : lead;
	return (!strncmp(text, "<?xml", 5) || !strncmp(text, "<svg", 4)) && len >= 6 &&
	       !memcmp(text + len - 6, "</svg>", 6);
}

/* Whether the file at path is a whole SVG by its first and last 64 bytes (its start and
 * end past any whitespace lie in them): then whole_svg() says so of all of it; 0 is
 * "read it all" (a few megabytes of charts, read only to be checked, cost a tenth of a
 * 16-node report's own time). */
static int svg_ends(const char *path)
{
	unsigned char b[128]; /* bytes, compared as such */
	struct stat st;
	int fd;
	struct pd_err ignored = PD_ERR_INIT;
	if (pd_file_open(&fd, path, 0, &ignored) < 0)
		return 0;
	int ok = fstat(fd, &st) == 0 && st.st_size >= 128 && (size_t)st.st_size <= SVG_LIMIT &&
		 pread(fd, b, 64, 0) == 64 && pread(fd, b + 64, 64, st.st_size - 64) == 64;
	close(fd);
	size_t lead = 0, end = 128;
	while (ok && lead < 64 && memchr(" \t\r\n", b[lead], 4))
		lead++;
	while (ok && end > 64 && memchr(" \t\r\n", b[end - 1], 4))
		end--;
	return ok && lead + 5 <= 64 && end >= 64 + 6 &&
	       (!memcmp(b + lead, "<?xml", 5) || !memcmp(b + lead, "<svg", 4)) &&
	       !memcmp(b + end - 6, "</svg>", 6);
}

/* Reads and checks every chart gnuplot drew; their text goes to *out for a single file
 * (out NULL: checked only, by their ends when they look whole). */
static int read_svgs(char ***out, const struct pd_chart_plan *plan, const char *dir,
		     struct pd_err *err)
{
	char **svg = pd_xcalloc(plan->n + 1, sizeof(*svg));
	int rc = 0;
	for (size_t i = 0; i < plan->n && rc == 0; i++) {
		struct pd_buf b = PD_BUF_INIT, path = PD_BUF_INIT;
		if (plan->charts[i].panel) /* the SVG of its first panel */
			continue;
		pd_buf_addf(&path, "%s/%s", dir, plan->charts[i].file);
		if (!out && svg_ends(path.ptr)) {
			pd_buf_release(&path);
			continue;
		}
		rc = pd_file_read(&b, path.ptr, SVG_LIMIT, err);
		if (rc == 0 && !whole_svg(b.ptr, b.len))
			rc = pd_err_set(
				err, PD_EIO,
				"gnuplot wrote no valid SVG for chart %s (%zu bytes that do "
				"not hold <svg ...>...</svg>)",
				plan->charts[i].file, b.len);
		if (rc == 0 && out) /* inlined: every byte counts in a single file */
			pd_plot_svg_trim(&b);
		svg[i] = pd_buf_detach(&b);
		pd_buf_release(&path);
	}
	if (out)
		*out = svg;
	else
		free_svgs(svg, plan->n);
	return rc;
}

struct pd_report {
	const struct pd_comparison *c;
	struct pd_report_opts o;
	struct pd_outdir out;
	char *dir; /* charts/ inside the output */
	struct pd_chart_plan plan;
	/* one gnuplot per core: each draws a run of the plan's metric charts, then a run of
	 * its finding charts (as its sequel), the runs of about the same cost (split()) */
	struct pd_plot_job job[MAX_JOBS];
	size_t n_jobs;
};

/* How many gnuplots draw the n metric charts: one per core (at most MAX_JOBS), each with
 * CHARTS_A_JOB at least (a gnuplot's start costs about as much as that many charts). */
static size_t jobs_for(size_t n)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	size_t k = cores > 1 ? (size_t)cores : 1;
	k = k < MAX_JOBS ? k : MAX_JOBS;
	while (k > 1 && n / k < CHARTS_A_JOB)
		k--;
	return k;
}

/* Scripts the charts of the plan [first, last) into job j, each SVG with its panels;
 * gnuplot writes them, the marker lists them. */
static void script_range(struct pd_report *r, size_t j, size_t first, size_t last)
{
	const struct pd_plot_chart **panels = NULL;
	size_t cap = 0;
	for (size_t i = first; i < last; i++) {
		const struct pd_chart *ch = &r->plan.charts[i];
		struct pd_buf name = PD_BUF_INIT;
		if (ch->panel)
			continue;
		PD_GROW(panels, cap, ch->panels);
		for (size_t k = 0; k < ch->panels; k++)
			panels[k] = &ch[k].plot;
		pd_plot_script_panels(&r->job[j], panels, ch->panels, PD_CHART_COLS, r->dir);
		pd_buf_addf(&name, "charts/%s", ch->file);
		pd_outdir_claim(&r->out, name.ptr);
		pd_buf_release(&name);
	}
	free(panels);
}

/* gnuplot's cost of a chart (or panel), in points: each point it draws, and as many
 * again for its axes, ticks, labels and frame (measured on the 16-node bench pairs: a
 * panel cost as much as 300 points). */
#define CHART_COST 300

static size_t cost(const struct pd_chart *ch)
{
	size_t points = CHART_COST;
	for (size_t k = 0; k < ch->plot.n_lines; k++)
		points += ch->lines[k].n;
	return points;
}

/* The n_jobs + 1 bounds of the plan's charts [first, last) that give each gnuplot about
 * the same cost: each bound begins an SVG, never inside its panels. */
static void split(size_t *bound, const struct pd_chart_plan *plan, size_t first, size_t last,
		  size_t n_jobs)
{
	size_t total = 0, sum = 0, j = 1;
	for (size_t i = first; i < last; i++)
		total += cost(&plan->charts[i]);
	bound[0] = first;
	for (size_t i = first; i < last && j < n_jobs; i++) {
		if (!plan->charts[i].panel && sum * n_jobs >= total * j)
			bound[j++] = i;
		sum += cost(&plan->charts[i]);
	}
	while (j <= n_jobs)
		bound[j++] = last;
}

static void discard_jobs(struct pd_report *r)
{
	for (size_t j = 0; j < MAX_JOBS; j++)
		pd_plot_discard(&r->job[j]);
}

static void report_free(struct pd_report *r)
{
	discard_jobs(r);
	pd_chart_plan_free(&r->plan);
	free(r->dir);
	free(r);
}

static int fail(struct pd_report *r, int rc)
{
	discard_jobs(r); /* before the directory goes: gnuplot writes there */
	pd_outdir_abort(&r->out);
	report_free(r);
	return rc;
}

int pd_report_start(struct pd_report **out, const struct pd_report_opts *o, size_t n_series,
		    struct pd_err *err)
{
	struct pd_report *r = pd_xcalloc(1, sizeof(*r));
	int rc;
	*out = NULL;
	r->o = *o;
	r->o.single_file |= pd_report_is_file(o);
	for (size_t j = 0; j < MAX_JOBS; j++) {
		r->job[j] = (struct pd_plot_job)PD_PLOT_JOB_INIT;
		r->job[j].timeout_s = o->gnuplot_timeout_s;
	}
	if ((rc = pd_outdir_begin(&r->out, o->out, pd_report_is_file(o), err)) < 0) {
		report_free(r);
		return rc;
	}
	r->out.marked = 1; /* a later report may replace this one */
	r->dir = pd_outdir_path(&r->out, "charts");
	/* about a chart a series; each gnuplot draws its share of the metric charts, then
	 * of the finding charts */
	for (size_t j = 0; j < jobs_for(n_series) && rc == 0; j++)
		rc = pd_plot_start(&r->job[j], 2, err);
	if (rc < 0)
		return fail(r, rc);
	*out = r;
	return 0;
}

void pd_report_abort(struct pd_report *r)
{
	if (r)
		fail(r, 0);
}

/* Gives job j the metric charts scripted onto it: to its gnuplot started ahead, else to a
 * new one; its share of the finding charts follows. */
static int give(struct pd_report *r, size_t j, struct pd_err *err)
{
	if (r->job[j].pid > 0)
		return pd_plot_follow(&r->job[j], err);
	return pd_plot_start(&r->job[j], 1, err);
}

int pd_report_begin(struct pd_report *r, const struct pd_comparison *c, struct pd_err *err)
{
	r->c = c;
	progress(&r->o, "drawing charts");
	pd_chart_plan_metrics(&r->plan, c, SMALL_POINTS);
	r->n_jobs = jobs_for(r->plan.n);
	size_t bound[MAX_JOBS + 1];
	split(bound, &r->plan, 0, r->plan.n, r->n_jobs);
	int rc = pd_outdir_mkdir(&r->out, "charts", err);
	for (size_t j = 0; j < r->n_jobs && rc == 0;
	     j++) { /* each draws while the next is scripted */
		script_range(r, j, bound[j], bound[j + 1]);
		rc = give(r, j, err);
	}
	for (size_t j = r->n_jobs; j < MAX_JOBS; j++) /* started ahead, not needed */
		pd_plot_discard(&r->job[j]);
	return rc < 0 ? fail(r, rc) : 0;
}

typedef void (*text_fn)(struct pd_buf *, const struct pd_comparison *,
			const struct pd_labels *);

static int write_text(struct pd_report *r, const char *name, text_fn fn, struct pd_err *err)
{
	struct pd_buf b = PD_BUF_INIT;
	fn(&b, r->c, &r->o.labels);
	int rc = pd_outdir_write(&r->out, name, b.ptr, b.len, err);
	pd_buf_release(&b);
	return rc;
}

/* The summaries beside index.html (none when the output is one file). */
static int write_texts(struct pd_report *r, struct pd_err *err)
{
	int rc = 0;
	if (pd_report_is_file(&r->o))
		return 0;
	progress(&r->o, "writing summaries");
	if ((rc = write_text(r, "summary.json", pd_summary_json, err)) < 0 ||
	    (rc = write_text(r, "junit.xml", pd_junit_xml, err)) < 0 ||
	    (rc = write_text(r, "summary.md", pd_markup_md, err)) < 0)
		return rc;
	return write_text(r, "summary.jira", pd_markup_jira, err);
}

/* index.html (its charts' text inlined from svg, or NULL: linked), and its style sheet
 * beside it unless it is one file. */
static int write_page(struct pd_report *r, const char *const *svg, struct pd_err *err)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_html_report(&b, r->c, &r->plan, svg, &r->o.labels);
	if (pd_report_is_file(&r->o)) /* what a later run may replace */
		pd_buf_adds(&b, PD_OUTDIR_FILE_MARK);
	int rc = pd_outdir_write(&r->out, "index.html", b.ptr, b.len, err);
	if (rc == 0 && !r->o.single_file)
		rc = pd_outdir_write(&r->out, PD_HTML_CSS_FILE, pd_html_css(),
				     strlen(pd_html_css()), err);
	pd_buf_release(&b);
	return rc;
}

/* The page of a report with its charts inlined, once gnuplot has drawn them: their text
 * goes into index.html, and charts/ goes. */
static int write_single(struct pd_report *r, struct pd_err *err)
{
	char **svg = NULL;
	int rc = read_svgs(&svg, &r->plan, r->dir, err);
	if (rc == 0)
		rc = write_page(r, (const char *const *)svg, err);
	if (rc == 0) /* everything is in index.html */
		pd_outdir_remove(&r->out, "charts");
	free_svgs(svg, r->plan.n);
	return rc;
}

/* Waits for every gnuplot; the first failure is the error (fail() ends the others). */
static int wait_jobs(struct pd_report *r, struct pd_err *err)
{
	int rc = 0;
	for (size_t j = 0; j < r->n_jobs && rc == 0; j++)
		rc = pd_plot_wait(&r->job[j], err);
	return rc;
}

int pd_report_finish(struct pd_report *r, struct pd_err *err)
{
	int rc = 0, file = pd_report_is_file(&r->o), single = r->o.single_file;
	size_t first = pd_chart_plan_findings(&r->plan, r->c, CHART_POINTS),
	       bound[MAX_JOBS + 1];
	split(bound, &r->plan, first, r->plan.n, r->n_jobs);
	/* the summaries, and a page that links its charts, are written while gnuplot draws;
	 * the charts are checked once drawn */
	for (size_t j = 0; j < r->n_jobs && rc == 0; j++) {
		script_range(r, j, bound[j], bound[j + 1]);
		rc = pd_plot_follow(&r->job[j], err);
	}
	if (rc < 0 || (rc = write_texts(r, err)) < 0 ||
	    (!single && (rc = write_page(r, NULL, err)) < 0) || (rc = wait_jobs(r, err)) < 0 ||
	    (rc = single ? write_single(r, err) : read_svgs(NULL, &r->plan, r->dir, err)) < 0)
		return fail(r, rc);
	rc = file ? pd_outdir_commit_file(&r->out, "index.html", err)
		  : pd_outdir_commit(&r->out, err);
	report_free(r);
	return rc;
}
