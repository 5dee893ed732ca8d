#include "report.h"
#include "charts.h"
#include "html.h"
#include "../core/outdir.h"
#include "plot.h"
#include "text.h"
#include "../core/file.h"
#include "../core/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Points per line of a chart: ample for 720 pixels, small for a ticket attachment. */
#define CHART_POINTS 360
/* A gnuplot SVG is a few dozen kB: anything larger than this is not ours. */
#define SVG_LIMIT ((size_t)8 << 20)

int pd_report_is_file(const struct pd_report_opts *o)
{
	return o->single_file && pd_str_ends_with(o->out, ".html");
}

static void progress(const struct pd_report_opts *o, const char *what)
{
	if (o->progress)
		fprintf(stderr, "perfdelta: %s\n", what);
}

/* Draws every chart of plan with one gnuplot process into dir. */
static int draw(const struct pd_chart_plan *plan, const char *dir, struct pd_err *err)
{
	struct pd_buf script = PD_BUF_INIT;
	int rc = 0;
	for (size_t i = 0; i < plan->n; i++)
		pd_plot_script(&script, &plan->charts[i].plot, dir);
	if (plan->n)
		rc = pd_plot_run(script.ptr, script.len, err);
	pd_buf_release(&script);
	return rc;
}

/* The SVG text of every chart, for a single file. */
static int read_svgs(char ***out, const struct pd_chart_plan *plan, const char *dir,
		     struct pd_err *err)
{
	char **svg = pd_xcalloc(plan->n + 1, sizeof(*svg));
	int rc = 0;
	for (size_t i = 0; i < plan->n && rc == 0; i++) {
		struct pd_buf b = PD_BUF_INIT, path = PD_BUF_INIT;
		pd_buf_addf(&path, "%s/%s", dir, plan->charts[i].file);
		rc = pd_file_read(&b, path.ptr, SVG_LIMIT, err);
		svg[i] = pd_buf_detach(&b);
		pd_buf_release(&path);
	}
	*out = svg;
	return rc;
}

static void free_svgs(char **svg, size_t n)
{
	for (size_t i = 0; svg && i < n; i++)
		free(svg[i]);
	free(svg);
}

typedef void (*text_fn)(struct pd_buf *, const struct pd_comparison *,
			const struct pd_labels *);

static int write_text(struct pd_outdir *out, const char *name, text_fn fn,
		      const struct pd_comparison *c, const struct pd_labels *l,
		      struct pd_err *err)
{
	struct pd_buf b = PD_BUF_INIT;
	fn(&b, c, l);
	int rc = pd_outdir_write(out, name, b.ptr, b.len, err);
	pd_buf_release(&b);
	return rc;
}

static int write_html(struct pd_outdir *out, const struct pd_comparison *c,
		      const struct pd_chart_plan *plan, const struct pd_report_opts *o,
		      struct pd_err *err)
{
	char *dir = pd_outdir_path(out, "charts");
	char **svg = NULL;
	struct pd_buf b = PD_BUF_INIT;
	int rc;
	if ((rc = pd_outdir_mkdir(out, "charts", err)) < 0 || (rc = draw(plan, dir, err)) < 0 ||
	    (o->single_file && (rc = read_svgs(&svg, plan, dir, err)) < 0))
		goto done;
	pd_html_report(&b, c, plan, (const char *const *)svg, &o->labels);
	rc = pd_outdir_write(out, "index.html", b.ptr, b.len, err);
done:
	free_svgs(svg, plan->n);
	pd_buf_release(&b);
	free(dir);
	return rc;
}

static int write_all(struct pd_outdir *out, const struct pd_comparison *c,
		     const struct pd_report_opts *o, struct pd_err *err)
{
	struct pd_chart_plan plan;
	int rc;
	progress(o, "drawing charts");
	pd_chart_plan_build(&plan, c, CHART_POINTS);
	rc = write_html(out, c, &plan, o, err);
	pd_chart_plan_free(&plan);
	if (rc < 0 || pd_report_is_file(o))
		return rc;
	progress(o, "writing summaries");
	if ((rc = write_text(out, "summary.json", pd_summary_json, c, &o->labels, err)) < 0 ||
	    (rc = write_text(out, "junit.xml", pd_junit_xml, c, &o->labels, err)) < 0 ||
	    (rc = write_text(out, "summary.md", pd_summary_md, c, &o->labels, err)) < 0 ||
	    (rc = write_text(out, "summary.jira", pd_summary_jira, c, &o->labels, err)) < 0)
		return rc;
	if (o->single_file) /* everything is in index.html: no charts/ beside it */
		pd_outdir_remove(out, "charts");
	return 0;
}

int pd_report_write(const struct pd_comparison *c, const struct pd_report_opts *o,
		    struct pd_err *err)
{
	struct pd_outdir out;
	int rc, file = pd_report_is_file(o);
	if ((rc = pd_outdir_begin(&out, o->out, file, err)) < 0)
		return rc;
	if ((rc = write_all(&out, c, o, err)) < 0) {
		pd_outdir_abort(&out);
		return rc;
	}
	return file ? pd_outdir_commit_file(&out, "index.html", err)
		    : pd_outdir_commit(&out, err);
}
