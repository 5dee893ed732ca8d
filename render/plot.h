/* Charts with gnuplot: scripts are built as text (pure, testable), then one gnuplot
 * process renders many charts (started with an argument vector, never a shell). */
#ifndef PD_PLOT_H
#define PD_PLOT_H

#include "../core/buf.h"
#include "../core/err.h"

#include <stddef.h>

/* One line of a chart. t in seconds from the phase start, NaN values are gaps (drawn
 * as breaks). Arrays are borrowed. */
struct pd_plot_line {
	const char *label;  /* legend text, from input: escaped for gnuplot */
	const double *t, *v;
	size_t n;
	int style;          /* 0 baseline, 1 target, 2 removed node, 3 delta */
};

/* A shaded interval of the x axis (a phase). */
struct pd_plot_band {
	const char *label;
	double start, end;
};

struct pd_plot_chart {
	const char *file;   /* output file name inside the chart directory: "c012.svg" */
	const char *title;  /* from input: escaped */
	const char *ylabel;
	const struct pd_plot_line *lines;
	size_t n_lines;
	const struct pd_plot_band *bands;
	size_t n_bands;
	double event_s;     /* a vertical marker; NaN for none */
	int width, height;  /* pixels; 0 for the defaults 720 x 300 */
};

/* Largest-triangle-three-buckets decimation of (t, v)[0..n) to at most max points
 * (keeping the first and last, and each bucket's most significant point, so peaks
 * survive), written to out_t/out_v (room for max); NaN gaps are kept as gaps. Returns
 * the number of points written. For drawing only, never for statistics. */
size_t pd_plot_decimate(double *out_t, double *out_v, const double *t, const double *v,
			size_t n, size_t max);

/* Appends to script the gnuplot commands and inline data that draw chart into
 * dir/chart->file with the svg terminal. Strings from input are quoted so that gnuplot
 * can never execute them. */
void pd_plot_script(struct pd_buf *script, const struct pd_plot_chart *chart, const char *dir);

/* Quotes s as a gnuplot single-quoted string (the only kind without escapes or
 * backquote command substitution), dropping control characters. */
void pd_plot_quote(struct pd_buf *b, const char *s);

/* Runs one gnuplot process on script (fed on stdin). PD_EIO with gnuplot's first error
 * line when it fails or is missing. */
int pd_plot_run(const char *script, size_t len, struct pd_err *err);

#endif
