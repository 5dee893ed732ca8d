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
	const char *label; /* legend text, from input: escaped for gnuplot */
	const double *t, *v;
	size_t n;
	int style; /* 0 baseline, 1 target, 2 removed node, 3 delta */
};

/* A shaded interval of the x axis (a phase). */
struct pd_plot_band {
	const char *label;
	double start, end;
};

struct pd_plot_chart {
	const char *file;  /* output file name inside the chart directory: "c012.svg" */
	const char *title; /* from input: escaped */
	const char *ylabel;
	const struct pd_plot_line *lines;
	size_t n_lines;
	const struct pd_plot_band *bands;
	size_t n_bands;
	double event_s;          /* a vertical marker; NaN for none */
	int width, height;       /* pixels; 0 for the defaults 720 x 300 */
	const char *event_label; /* text at the marker, from input: escaped; NULL for "event" */
};

/* Largest-triangle-three-buckets decimation of (t, v)[0..n) to at most max points,
 * written to out_t/out_v (room for max); returns the number written. n <= max copies the
 * input unchanged. Otherwise each run of finite points between gaps (v or t not finite)
 * gets a share of max proportional to its length and keeps its first and last point and
 * one point per bucket: the run's maximum and minimum in their buckets (the one with the
 * larger triangle when a bucket holds both), elsewhere the point that makes the largest
 * triangle with the previous kept point and the next bucket's mean, so peaks survive. Runs
 * are separated by one (t, NaN) point where the gap began; a run whose share is 0 is
 * dropped, and when there are max / 2 gaps or more they are all dropped (joined). For
 * drawing only, never for statistics. */
size_t pd_plot_decimate(double *out_t, double *out_v, const double *t, const double *v,
			size_t n, size_t max);

/* Appends to script the gnuplot commands and inline data that draw chart into
 * dir/chart->file with the svg terminal (dir NULL or "" for the working directory). Lines
 * longer than 2 x width points are decimated with pd_plot_decimate. Strings from input
 * only ever appear as pd_plot_quote strings, so gnuplot can never execute them; a chart
 * without any finite point is drawn as an empty frame saying "no data" (not an error).
 * Same chart, same bytes. */
void pd_plot_script(struct pd_buf *script, const struct pd_plot_chart *chart, const char *dir);

/* Quotes s as a gnuplot single-quoted string (the only kind without backslash escapes,
 * backquote command substitution or @macro expansion; ' is written ''). Control
 * characters are dropped; invalid UTF-8, U+FFFE and U+FFFF become U+FFFD, and a zero-width
 * space goes into "]]>" and "\U" (gnuplot 6 reads \U+XXXX even in single quotes), so the
 * SVG gnuplot writes from it stays well-formed. */
void pd_plot_quote(struct pd_buf *b, const char *s);

/* Runs one gnuplot process on script (fed on stdin): "gnuplot -d" from PATH, with an
 * argument vector and a fixed environment (no user or system init file, no GNUPLOT_LIB),
 * stdout discarded. PD_EIO with gnuplot's first error line when it fails (gnuplot reads
 * on after an error, so the other charts are still written), or when it is missing. */
int pd_plot_run(const char *script, size_t len, struct pd_err *err);

#endif
