#define _GNU_SOURCE /* mkostemp, pipe2, memfd_create */
#include "plot.h"

#include "../core/file.h"
#include "../core/proc.h"
#include "../core/xalloc.h"
#include "escape.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEFAULT_WIDTH  720
#define DEFAULT_HEIGHT 300
#define MIN_SIZE       120
#define MAX_SIZE       4096
#define ZWSP           "\xe2\x80\x8b" /* U+200B zero-width space */

/* gnuplot's descriptors: 0 the script, 1 /dev/null, 2 its messages, 3 the points, and
 * with sequels 4 the pipe it waits on, 5 and 6 the first sequel's points and script, 7
 * and 8 the second's: part p's points on fd_data(p), its script on fd_data(p) + 1. */
#define CHILD_FDS (5 + 2 * PD_PLOT_SEQUELS)
#define FD_DATA   3
#define FD_PIPE   4
#define SEQ_FDS   (1 + 2 * PD_PLOT_SEQUELS) /* the parent's: the pipe, then each sequel's */

static int fd_data(int part)
{
	return part ? FD_PIPE + 2 * part - 1 : FD_DATA;
}

/* --- decimation ------------------------------------------------------------------- */

static int usable(const double *t, const double *v, size_t i)
{
	return isfinite(t[i]) && isfinite(v[i]);
}

/* Twice the area of the triangle (ta, va), (t[j], v[j]), (tc, vc). */
static double area2(double ta, double va, double tj, double vj, double tc, double vc)
{
	return fabs((ta - tc) * (vj - va) - (ta - tj) * (vc - va));
}

/* First index of bucket i of m - 2 over the inner points 1 .. n - 2 (integers, so the
 * last bucket ends exactly at n - 1). */
static size_t bucket(size_t i, size_t n, size_t m)
{
	size_t b = 1 + i * (n - 2) / (m - 2);
	return b < n ? b : n;
}

/* LTTB of one run of n finite points to m points (n > m >= 3). */
static size_t lttb(double *ot, double *ov, const double *t, const double *v, size_t n, size_t m)
{
	size_t imax = 0, imin = 0, a = 0, k = 0;
	for (size_t j = 1; j < n; j++) {
		imax = v[j] > v[imax] ? j : imax;
		imin = v[j] < v[imin] ? j : imin;
	}
	ot[k] = t[0], ov[k++] = v[0];
	for (size_t i = 0; i < m - 2; i++) {
		size_t lo = bucket(i, n, m), hi = bucket(i + 1, n, m);
		size_t nhi = i + 2 < m - 1 ? bucket(i + 2, n, m) : n;
		double ct = 0, cv = 0;
		for (size_t j = hi; j < nhi; j++)
			ct += t[j], cv += v[j];
		ct /= (double)(nhi - hi), cv /= (double)(nhi - hi);
		/* the run's extremes win their bucket: a triangle can favour a point on a
		 * steep slope over a peak next to it */
		int forced = (imax >= lo && imax < hi) || (imin >= lo && imin < hi);
		size_t best = lo;
		double best_area = -1;
		for (size_t j = lo; j < hi; j++) {
			if (forced && j != imax && j != imin)
				continue;
			double ar = area2(t[a], v[a], t[j], v[j], ct, cv);
			if (ar > best_area)
				best = j, best_area = ar;
		}
		ot[k] = t[best], ov[k++] = v[best];
		a = best;
	}
	ot[k] = t[n - 1], ov[k++] = v[n - 1];
	return k;
}

/* One run (finite points) to at most m points. */
static size_t decimate_run(double *ot, double *ov, const double *t, const double *v, size_t n,
			   size_t m)
{
	if (n <= m) {
		memcpy(ot, t, n * sizeof(*t));
		memcpy(ov, v, n * sizeof(*v));
		return n;
	}
	if (m < 3) {
		ot[0] = t[0], ov[0] = v[0];
		if (m == 2)
			ot[1] = t[n - 1], ov[1] = v[n - 1];
		return m;
	}
	return lttb(ot, ov, t, v, n, m);
}

/* All finite points as one run: used when gaps are too many to keep. */
static size_t decimate_joined(double *out_t, double *out_v, const double *t, const double *v,
			      size_t n, size_t finite, size_t max)
{
	double *ct = pd_xmalloc(finite * sizeof(*ct)), *cv = pd_xmalloc(finite * sizeof(*cv));
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (usable(t, v, i))
			ct[k] = t[i], cv[k++] = v[i];
	k = decimate_run(out_t, out_v, ct, cv, finite, max);
	free(ct);
	free(cv);
	return k;
}

size_t pd_plot_decimate(double *out_t, double *out_v, const double *t, const double *v,
			size_t n, size_t max)
{
	if (n <= max) {
		memcpy(out_t, t, n * sizeof(*t));
		memcpy(out_v, v, n * sizeof(*v));
		return n;
	}
	size_t runs = 0, finite = 0;
	for (size_t i = 0; i < n; i++) {
		if (!usable(t, v, i))
			continue;
		finite++;
		runs += i == 0 || !usable(t, v, i - 1);
	}
	if (max == 0 || finite == 0)
		return 0;
	if (runs - 1 >= max / 2)
		return decimate_joined(out_t, out_v, t, v, n, finite, max);
	size_t avail = max - (runs - 1), k = 0, emitted = 0, gap = 0;
	for (size_t i = 0; i < n;) {
		if (!usable(t, v, i)) {
			i++;
			continue;
		}
		size_t lo = i;
		while (i < n && usable(t, v, i))
			i++;
		/* floor of a proportional share: the shares and separators never pass max */
		size_t share = (size_t)((double)avail * (double)(i - lo) / (double)finite);
		if (share == 0)
			continue;
		if (emitted++) /* the separator sits where the gap after the last run began */
			out_t[k] = t[gap], out_v[k++] = NAN;
		k += decimate_run(out_t + k, out_v + k, t + lo, v + lo, i - lo, share);
		gap = i;
	}
	return k;
}

/* --- script ----------------------------------------------------------------------- */

void pd_plot_quote(struct pd_buf *b, const char *s)
{
	pd_buf_addch(b, '\'');
	while (*s) {
		unsigned cp;
		size_t n = pd_esc_utf8(s, &cp);
		if (!n || cp == 0xfffe || cp == 0xffff || pd_esc_bidi(cp)) {
			pd_buf_adds(b, "\xef\xbf\xbd"); /* U+FFFD */
			s += n ? n : 1;
			continue;
		}
		/* gnuplot's svg terminal escapes & and < but not >, and XML text must not
		 * hold "]]>"; gnuplot 6 turns \U+XXXX into a character, even a control one */
		if (cp == '\'') {
			pd_buf_adds(b, "''");
		} else if (cp == ']' && strncmp(s, "]]>", 3) == 0) {
			pd_buf_adds(b, "]]" ZWSP);
			n = 2;
		} else if (cp == '\\' && s[1] == 'U') {
			pd_buf_adds(b, "\\" ZWSP);
		} else if (cp >= 0x20 && (cp < 0x7f || cp >= 0xa0)) { /* no C0, DEL, C1 */
			pd_buf_add(b, s, n);
		}
		s += n;
	}
	pd_buf_addch(b, '\'');
}

/* Style of each pd_plot_line.style: colour, width, dash type. */
static const struct {
	const char *color;
	double width;
	int dash;
} line_styles[] = {
	{"#5b7fa8", 1.6, 1}, /* baseline: grey-blue */
	{"#e8740c", 1.8, 1}, /* target: orange */
	{"#d62728", 1.6, 2}, /* removed node: red, dashed */
	{"#7b4fa6", 1.6, 1}, /* delta: purple */
};
#define N_STYLES (sizeof(line_styles) / sizeof(line_styles[0]))

/* Phase bands alternate between two pale greys, so neighbours stay apart. */
static const char *const band_fill[] = {"#eef1f5", "#e2e7ee"};

static void num(struct pd_buf *b, double x)
{
	pd_buf_addf(b, "%.9g", x);
}

/* The path of file in dir (NULL or "": the working directory) into path, empty. */
static void chart_path(struct pd_buf *path, const char *dir, const char *file)
{
	/* gnuplot opens "|cmd" as a pipe to a shell and expands "~/": neither may lead */
	const char *lead = dir && *dir ? dir : file;
	if (lead[0] != '/' && lead[0] != '.')
		pd_buf_adds(path, "./");
	if (dir && *dir)
		pd_buf_addf(path, "%s/", dir);
	pd_buf_adds(path, file);
}

static void set_output(struct pd_buf *b, const char *dir, const char *file)
{
	struct pd_buf path = PD_BUF_INIT;
	chart_path(&path, dir, file);
	pd_buf_adds(b, "set output ");
	pd_esc_gnuplot_path(b, path.ptr); /* the user's -o: any legal name */
	pd_buf_addch(b, '\n');
	pd_buf_release(&path);
}

/* gnuplot reads a y of magnitude DBL_MAX / 2 or more as undefined ("all points y value
 * undefined!" at 9e307), and a tick step below the smallest normal double underflows to
 * 0 ("increment must be positive" for subnormal values). A chart whose values reach 1e300,
 * or whose largest magnitude or spread is below 1e-300, is drawn in units of 10^e, e the
 * exponent of its largest magnitude (the axis label ends "×1e<e>"): 8 orders of magnitude from
 * gnuplot's limit either way, so that its margins and ticks stay finite and normal. */
#define Y_HUGE 1e300
#define Y_TINY 1e-300
#define TIMES  "\xc3\x97" /* U+00D7, the multiplication sign */

/* The exponent e of the unit 10^e a chart's values are drawn in: 0 for none. */
static int y_power(const struct pd_plot_chart *c)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < c->n_lines; i++)
		for (size_t j = 0; j < c->lines[i].n; j++)
			if (isfinite(c->lines[i].v[j]) && isfinite(c->lines[i].t[j]))
				lo = fmin(lo, c->lines[i].v[j]),
				hi = fmax(hi, c->lines[i].v[j]);
	if (!(hi >= lo))
		return 0;
	double mag = fmax(fabs(lo), fabs(hi));
	if (mag < Y_HUGE && !(mag > 0 && mag < Y_TINY) && !(hi > lo && hi - lo < Y_TINY))
		return 0;
	return (int)floor(log10(mag));
}

/* v / 10^e, in two steps so that neither factor leaves the normal doubles (10^-308 does
 * not; 10^+-162 does). */
static double in_power(double v, int e)
{
	return v / pow(10, e / 2) / pow(10, e - e / 2);
}

/* The legend, and the room above and below the data. */
static void key_and_range(struct pd_buf *b, const struct pd_plot_chart *c)
{
	if (c->compact)
		pd_buf_adds(b, "unset key\n");
	else /* below the tick labels, a line apart from them */
		pd_buf_adds(b,
			    "set key outside bottom center horizontal Left reverse noautotitle "
			    "samplen 2 spacing 1.3 width 2 height 0.6 "
			    "textcolor rgb '#333333'\n");
	/* room above the data; a chart of values >= 0 starts at its 0 tick */
	pd_buf_addf(b, "set offsets 0, 0, graph 0.08, graph %s\n", c->y_zero ? "0" : "0.04");
	if (c->y_zero)
		pd_buf_adds(b, "set yrange [0:*]\n");
}

/* The line styles as linetypes LT_BASE + 1.. (above gnuplot's own), then their gap marks'
 * (gap_marks(): translucent, 5 wide, solid) as LT_GAP + 1.., set once per script: "reset"
 * keeps linetypes and clears styles, and every number or string gnuplot reads costs it
 * three system calls (its FPE trap around each expression): a mark that named its colour
 * and width cost two more a plot element than its linetype. */
#define LT_BASE 100
#define LT_GAP  (LT_BASE + N_STYLES)
static void line_types(struct pd_buf *b)
{
	for (size_t i = 0; i < N_STYLES; i++) {
		pd_buf_addf(b, "set linetype %zu linecolor rgb '%s' ", LT_BASE + i + 1,
			    line_styles[i].color);
		pd_buf_addf(b, "linewidth %.1f dashtype %d\n", line_styles[i].width,
			    line_styles[i].dash);
	}
	for (size_t i = 0; i < N_STYLES; i++)
		pd_buf_addf(b,
			    "set linetype %zu linecolor rgb '#66%s' linewidth 5 dashtype 1\n",
			    LT_GAP + i + 1, line_styles[i].color + 1);
}

/* The terminal is set once per size: gnuplot's "reset" keeps it, and setting it again
 * for every chart cost an eighth of gnuplot's time. The first of a script sets the line
 * types too. It has no background: gnuplot 5.4 keeps the svg terminal's background once
 * set, even into a terminal set later without one, so a canvas of panels drawn after a
 * chart with one was white between its cards or not by the order of the charts (a chart
 * gets its white background as a card: cards()). */
static void terminal(struct pd_plot_job *job, int w, int h)
{
	if (!job->width)
		line_types(&job->script);
	if (job->width != w || job->height != h)
		pd_buf_addf(&job->script,
			    "set encoding utf8\n"
			    "set terminal svg size %d,%d fixed noenhanced font 'sans-serif,11' "
			    "linewidth 1\n",
			    w, h);
	job->width = w, job->height = h;
}

/* A chart's settings after "reset" and the terminal (see terminal()): title, axes' looks
 * and legend (the line styles are linetypes: line_types()). */
static void settings(struct pd_buf *b, const struct pd_plot_chart *c)
{
	/* the title's looks, then its text (a panel after another sets the text alone);
	 * then the phase labels above the frame (bands()) */
	pd_buf_addf(b,
		    "set title font ',%d' textcolor rgb '#222222' offset 0, -0.2\n"
		    "set title ",
		    c->compact ? 12 : 13);
	pd_plot_quote(b, c->title ? c->title : "");
	pd_buf_adds(b, "\nset tmargin 3.4\n");
	if (c->xlabel) {
		pd_buf_adds(b, "set xlabel ");
		pd_plot_quote(b, c->xlabel);
		pd_buf_addch(b, '\n');
	}
	int e = y_power(c);
	pd_buf_adds(b, "set ylabel ");
	if (e) { /* the unit the values are drawn in (y_power) */
		struct pd_buf label = PD_BUF_INIT;
		pd_buf_addf(&label, "%s%s" TIMES "1e%d", c->ylabel ? c->ylabel : "",
			    c->ylabel && *c->ylabel ? ", " : "", e);
		pd_plot_quote(b, label.ptr);
		pd_buf_release(&label);
	} else
		pd_plot_quote(b, c->ylabel ? c->ylabel : "");
	pd_buf_adds(b, " offset 1, 0\nset border 3 linecolor rgb '#9aa3ad'\n"
		       "set tics nomirror out scale 0.5 textcolor rgb '#444444'\n"
		       "set grid xtics ytics linetype 1 linecolor rgb '#dde1e6' linewidth 0.8\n"
		       "set autoscale xfix\nset autoscale yfix\n");
	key_and_range(b, c);
}

/* The x axis over [0, span], every chart of a report on the same one (a removed node's
 * series that stops early too), with about `want` ticks at a round step, labelled in
 * seconds: the unit every time of the report's text is in (one time unit). */
static void x_axis(struct pd_buf *b, double span, int want)
{
	static const double steps[] = {5,   10,   15,   30,   60,    120,   300,   600,
				       900, 1800, 3600, 7200, 10800, 21600, 43200, 86400};
	size_t k = 0, n = sizeof(steps) / sizeof(*steps);
	if (!(span > 0))
		return;
	while (k + 1 < n && span / steps[k] > want)
		k++;
	double step = steps[k];
	pd_buf_adds(b, "set xrange [0:");
	num(b, span);
	pd_buf_adds(b, "]\n");
	pd_buf_adds(b, "set xtics (");
	for (double t = 0; t <= span + step / 1000; t += step) {
		pd_buf_addf(b, "%s'%.0f%s' ", t > 0 ? ", " : "", t, t > 0 ? " s" : "");
		num(b, t);
	}
	pd_buf_adds(b, ")\n");
}

/* An x axis of runs 1..n over [0.5, span] (pd_plot_chart.x_runs): ticks at 1 and at the
 * multiples of a round step, about `want` of them, labelled with the bare number. */
static void runs_axis(struct pd_buf *b, double span, int want)
{
	static const double steps[] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000};
	size_t k = 0, n = sizeof(steps) / sizeof(*steps);
	if (!(span > 0.5))
		return;
	while (k + 1 < n && span / steps[k] > want)
		k++;
	double step = steps[k];
	pd_buf_adds(b, "set xrange [0.5:");
	num(b, span);
	pd_buf_adds(b, "]\nset xtics ('1' 1"); /* the first run, then the round steps */
	for (double x = step; x <= span; x += step)
		if (x > 1) {
			pd_buf_addf(b, ", '%.0f' ", x);
			num(b, x);
		}
	pd_buf_adds(b, ")\n");
}

/* An x axis of bounds in ms (or percentiles) on a log scale, one tick at each
 * (pd_plot_chart.xticks). */
static void ms_axis(struct pd_buf *b, const struct pd_plot_chart *c)
{
	double lo = c->xticks[0], hi = c->xticks[c->n_xticks - 1];
	pd_buf_adds(b, "set logscale x\nset xrange [");
	num(b, lo / 1.4);
	pd_buf_addch(b, ':');
	num(b, hi * 1.4);
	pd_buf_adds(b, "]\nset xtics (");
	for (size_t k = 0; k < c->n_xticks; k++) {
		if (c->xtick_pct)
			pd_buf_addf(b, "%s'p%g' ", k ? ", " : "", 100 - 100 / c->xticks[k]);
		else
			pd_buf_addf(b, "%s'%g ms' ", k ? ", " : "", c->xticks[k]);
		num(b, c->xticks[k]);
	}
	pd_buf_adds(b, ")\n");
}

/* A round step for about `want` ticks over range: 1, 2, 2.5 or 5 times a power of 10. */
static double nice_step(double range, int want)
{
	double raw = range / want, p = pow(10, floor(log10(raw)));
	static const double mult[] = {1, 2, 2.5, 5, 10};
	for (size_t i = 0; i < sizeof(mult) / sizeof(*mult); i++)
		if (mult[i] * p >= raw)
			return mult[i] * p;
	return 10 * p;
}

/* The y ticks: gnuplot's own choice ignores the font, and a chart 90 pixels high got
 * ten labels of 11 px, one on another; at most one per 30 pixels of the frame. In units
 * of 10^power (y_power). */
static void ytics(struct pd_buf *b, const struct pd_plot_chart *c, int power)
{
	double lo = c->y_zero ? 0 : INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < c->n_lines; i++)
		for (size_t j = 0; j < c->lines[i].n; j++)
			if (isfinite(c->lines[i].v[j]) && isfinite(c->lines[i].t[j]))
				lo = fmin(lo, c->lines[i].v[j]),
				hi = fmax(hi, c->lines[i].v[j]);
	if (power)
		lo = in_power(lo, power), hi = in_power(hi, power);
	if (!(hi > lo) || !isfinite(hi - lo))
		return;
	int frame = (c->height > 0 ? c->height : DEFAULT_HEIGHT) - (c->compact ? 75 : 110);
	int want = frame / 30 < 2 ? 2 : frame / 30;
	pd_buf_adds(b, "set ytics ");
	num(b, nice_step(hi - lo, want));
	pd_buf_addch(b, '\n');
}

/* The right end of the x axis: the last band's end, else the last time of any line. */
static double span_of(const struct pd_plot_chart *c)
{
	double hi = 0;
	for (size_t i = 0; i < c->n_bands; i++)
		if (isfinite(c->bands[i].end))
			hi = fmax(hi, c->bands[i].end);
	for (size_t i = 0; i < c->n_lines; i++)
		for (size_t j = c->lines[i].n; j-- > 0;)
			if (isfinite(c->lines[i].t[j])) {
				hi = fmax(hi, c->lines[i].t[j]);
				break;
			}
	return hi;
}

/* The tags of the objects, labels and arrow of a chart, fixed so that the next panel of an
 * SVG redefines each in place (carry()); gnuplot draws them in the order of their tags.
 * Objects: the bands from TAG_BAND on (the card and its frame are ours: cards());
 * labels: the note, the bands' names from TAG_BAND on, "no data" after them; the arrow:
 * the event. */
#define TAG_NOTE  1
#define TAG_EVENT 1
#define TAG_BAND  2

/* Whether band i of a chart of runs is the last and too narrow for its name at its start
 * (about 7 pixels a character over a frame about 100 pixels narrower than the chart). */
static int name_past_end(const struct pd_plot_chart *c, size_t i)
{
	const struct pd_plot_band *bd = &c->bands[i];
	double lo = 0.5, hi = bd->end;
	int w = c->width > 0 ? c->width : DEFAULT_WIDTH;
	if (i + 1 < c->n_bands || !(hi > lo))
		return 0;
	return (bd->end - bd->start) / (hi - lo) * (w - 100) < 7.0 * (double)strlen(bd->label);
}

/* The phases shaded, their names above the frame, where no data runs under them: the
 * first at its start, the last flush with its end, so that a narrow middle band's name
 * runs into neither. A chart of runs (x_runs) names each segment at its start, the run
 * it starts at, but the last one flush with its end where its name would pass the axis. */
static void bands(struct pd_buf *b, const struct pd_plot_chart *c)
{
	for (size_t i = 0; i < c->n_bands; i++) {
		const struct pd_plot_band *bd = &c->bands[i];
		int last = i + 1 == c->n_bands && i > 0 &&
			   (!c->x_runs || (bd->label && name_past_end(c, i)));
		if (!isfinite(bd->start) || !isfinite(bd->end) || bd->end <= bd->start)
			continue;
		pd_buf_addf(b, "set object %zu rectangle from first ", TAG_BAND + i);
		num(b, bd->start);
		pd_buf_adds(b, ", graph 0 to first ");
		num(b, bd->end);
		pd_buf_addf(b, ", graph 1 behind fillcolor rgb '%s' ", band_fill[i % 2]);
		pd_buf_adds(b, "fillstyle solid 1.0 noborder\n");
		if (!bd->label || !*bd->label)
			continue;
		pd_buf_addf(b, "set label %zu ", TAG_BAND + i);
		pd_plot_quote(b, bd->label);
		pd_buf_adds(b, " at first ");
		num(b, last ? bd->end : bd->start);
		pd_buf_addf(b,
			    ", graph 1 %s offset character %s, 0.55 "
			    "textcolor rgb '#5f6b78' front\n",
			    last ? "right" : "left", last ? "-0.3" : "0.3");
	}
}

static void event(struct pd_buf *b, const struct pd_plot_chart *c)
{
	if (!isfinite(c->event_s))
		return;
	/* the dashed line; the legend names it (event_key), not a label over the data */
	pd_buf_addf(b, "set arrow %d from first ", TAG_EVENT);
	num(b, c->event_s);
	pd_buf_adds(b, ", graph 0 to first ");
	num(b, c->event_s);
	pd_buf_adds(
		b, ", graph 1 nohead linecolor rgb '#3b3b3b' linewidth 1.2 dashtype 2 front\n");
}

/* Where a line's points sit in the job's data: records from byte skip. */
struct extent {
	size_t skip, records;
};

/* The height of the gap marks on the y2 axis held to [0, 1]. */
#define GAP_Y 0.02

/* Appends one gap [a, z] (at least px wide) to the data: (a, GAP_Y), (z, GAP_Y), after a
 * (NaN, NaN) break from the gap before (none before the first); returns the records. The
 * height is in the points, not a "using" expression gnuplot would evaluate at each. */
static size_t gap_pair(struct pd_buf *data, double a, double z, double px, int first)
{
	if (z - a < px)
		a = (a + z - px) / 2, z = a + px;
	double rec[6] = {NAN, NAN, a, GAP_Y, z, GAP_Y};
	pd_buf_add(data, (const char *)(first ? rec + 2 : rec),
		   (first ? 4 : 6) * sizeof(double));
	return first ? 2 : 3;
}

/* Where line l has no sample between two it has, as segments in the data (gap_pair) from
 * the last sample before to the first after; gaps less than a pixel (px) apart are one.
 * Before its first sample and after its last there is no gap: the series is absent. */
static struct extent add_gaps(struct pd_buf *data, const struct pd_plot_line *l, double px)
{
	struct extent e = {data->len, 0};
	double last = NAN, start = NAN, a = NAN, z = NAN;
	for (size_t i = 0; i < l->n; i++) {
		if (!isfinite(l->t[i]) || !isfinite(l->v[i])) {
			start = isnan(start) ? last : start; /* NaN until a sample was seen */
			continue;
		}
		if (!isnan(start) && !isnan(a) && start - z <= px)
			z = l->t[i]; /* joins the pending gap */
		else if (!isnan(start)) {
			if (!isnan(a))
				e.records += gap_pair(data, a, z, px, !e.records);
			a = start, z = l->t[i];
		}
		last = l->t[i], start = NAN;
	}
	if (!isnan(a))
		e.records += gap_pair(data, a, z, px, !e.records);
	return e;
}

/* The gaps of each line (gap[i]): a thick mark along the bottom of the frame under each,
 * in the line's colour, drawn on the y2 axis held to [0, 1], so that a break reads as
 * missing samples and never as the dashes of the removed node or the event.
 * One plot element and one SVG path per line, whatever its number of gaps: gnuplot's
 * cost is per command and per byte it writes (a polygon each cost a tenth of a 16-node
 * report's CPU). */
static void gap_marks(struct pd_buf *b, const struct pd_plot_chart *c, const struct extent *gap,
		      int fd, int titled)
{
	for (size_t i = 0; i < c->n_lines; i++) {
		int st = c->lines[i].style >= 0 && (size_t)c->lines[i].style < N_STYLES
				 ? c->lines[i].style
				 : 0;
		if (!gap[i].records)
			continue;
		pd_buf_addf(b,
			    ", \\\n    '/dev/fd/%d' binary skip=%zu record=%zu "
			    "format='%%float64%%float64' axes x1y2 with lines linetype %zu %s",
			    fd, gap[i].skip, gap[i].records, LT_GAP + (size_t)st + 1,
			    titled ? "title 'no sample'" : "notitle");
		titled = 0;
	}
}

/* Appends line l to the data as (t, v) float64 pairs, a (NaN, NaN) pair where a gap
 * begins (gnuplot breaks the line there: never first, last or twice); returns where they
 * are, records 0 when no point is finite; values in units of 10^power (y_power). */
static struct extent add_points(struct pd_buf *data, const struct pd_plot_line *l, size_t max,
				int power, double *dt, double *dv)
{
	size_t n = pd_plot_decimate(dt, dv, l->t, l->v, l->n, max);
	struct extent e = {data->len, 0};
	int gap = 1;
	for (size_t j = 0; j < n; j++) {
		int ok = isfinite(dt[j]) && isfinite(dv[j]);
		if (!ok && gap)
			continue;
		double pair[2] = {ok ? dt[j] : NAN, ok ? dv[j] : NAN};
		if (power)
			pair[1] = in_power(pair[1], power);
		pd_buf_add(data, (const char *)pair, sizeof(pair));
		e.records++, gap = !ok;
	}
	if (gap && e.records) /* the trailing separator */
		pd_buf_truncate(data, data->len - sizeof(double[2])), e.records--;
	return e;
}

/* The lines that have points, each read from the points file gnuplot has on fd. */
static void plot(struct pd_buf *b, const struct pd_plot_chart *c, const struct extent *e,
		 int fd, const struct extent *gap)
{
	const char *sep = "plot";
	for (size_t i = 0; i < c->n_lines; i++) {
		const struct pd_plot_line *l = &c->lines[i];
		int st = l->style >= 0 && (size_t)l->style < N_STYLES ? l->style : 0;
		if (!e[i].records)
			continue;
		/* no "using 1:2" (the default of two fields), nor a title no legend shows:
		 * every expression gnuplot reads costs it three system calls */
		pd_buf_addf(b,
			    "%s '/dev/fd/%d' binary skip=%zu record=%zu "
			    "format='%%float64%%float64' with %s linetype %d%s %s",
			    sep, fd, e[i].skip, e[i].records,
			    c->n_xticks ? "linespoints" : "lines", LT_BASE + st + 1,
			    c->n_xticks ? " pointtype 7 pointsize 0.8" : "",
			    c->compact ? "notitle" : "title ");
		if (!c->compact)
			pd_plot_quote(b, l->label ? l->label : "");
		sep = ", \\\n    ";
	}
	if (isfinite(c->event_s) && !c->compact) { /* the event's dashed line, in the legend */
		pd_buf_addf(b,
			    "%s NaN with lines linecolor rgb '#3b3b3b' linewidth 1.2 "
			    "dashtype 2 title ",
			    sep);
		pd_plot_quote(b, c->event_label ? c->event_label : "event");
	}
	gap_marks(b, c, gap, fd, !c->compact);
	pd_buf_addch(b, '\n');
}

/* --- cards ------------------------------------------------------------------------ */

/* A chart's size, within gnuplot's bounds. */
static void chart_size(const struct pd_plot_chart *c, int *w, int *h)
{
	*w = c->width > 0 ? c->width : DEFAULT_WIDTH;
	*h = c->height > 0 ? c->height : DEFAULT_HEIGHT;
	*w = *w < MIN_SIZE ? MIN_SIZE : *w > MAX_SIZE ? MAX_SIZE : *w;
	*h = *h < MIN_SIZE ? MIN_SIZE : *h > MAX_SIZE ? MAX_SIZE : *h;
}

/* What perfdelta draws into an SVG gnuplot wrote, once it is written (pd_plot_wait):
 * white cards behind gnuplot's drawing, their frames in front of it. gnuplot drew them as
 * objects, and every number or string of an object costs it an evaluation (three system
 * calls): the card and frame of a panel were 13 of its 44. */
struct pd_plot_cards {
	char *path;                  /* the SVG */
	struct pd_buf behind, front; /* SVG elements: after its <svg ...>, before </svg> */
	int keep_defs;               /* it draws points: its <defs> are used */
};

/* Panel k's card: its left and top edges in pixels on the canvas, cols to a row. */
static void card_at(int *x, int *y, size_t k, size_t cols, int w, int h)
{
	*x = (int)(k % cols) * (w + PD_PLOT_PANEL_GAP);
	*y = (int)(k / cols) * (h + PD_PLOT_PANEL_GAP);
}

/* Whether s is a colour "#rrggbb" (a frame's colour goes into the SVG as it is). */
static int hex_color(const char *s)
{
	size_t n = strspn(s + (*s == '#'), "0123456789abcdefABCDEF");
	return *s == '#' && n == 6 && !s[7];
}

/* Whether no panel before k has the frame colour of panel k. */
static int first_frame(const struct pd_plot_chart *const *charts, size_t k)
{
	for (size_t j = 0; j < k; j++)
		if (charts[j]->frame && !strcmp(charts[j]->frame, charts[k]->frame))
			return 0;
	return 1;
}

/* The frames of charts[0..n) of one colour (NULL: grey, a hairline) as one path, into b;
 * half a pixel inside each card, so that the whole line is on the canvas. */
static void frames(struct pd_buf *b, const struct pd_plot_chart *const *charts, size_t n,
		   size_t cols, int w, int h, const char *color)
{
	size_t start = b->len;
	pd_buf_addf(b, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"%d\" d=\"",
		    color ? color : "#dfe3e8", color ? 2 : 1);
	size_t head = b->len;
	for (size_t k = 0; k < n; k++) {
		const char *c = charts[k]->frame && hex_color(charts[k]->frame)
					? charts[k]->frame
					: NULL;
		int x, y;
		if (color ? !c || strcmp(c, color) : c != NULL) /* another colour's */
			continue;
		card_at(&x, &y, k, cols, w, h);
		pd_buf_addf(b, "M%d.5 %d.5h%dv%dh-%dz", x, y, w - 1, h - 1, w - 1);
	}
	if (b->len == head)
		pd_buf_truncate(b, start);
	else
		pd_buf_adds(b, "\"/>");
}

/* Notes the cards of the SVG of charts[0..n) (cols to a row, each at charts[0]'s size, in
 * dir), framed or not, for pd_plot_wait to draw; the last noted for a file wins. */
static void cards(struct pd_plot_job *job, const struct pd_plot_chart *const *charts, size_t n,
		  size_t cols, const char *dir, int framed)
{
	struct pd_buf path = PD_BUF_INIT;
	int w, h;
	chart_path(&path, dir, charts[0]->file);
	chart_size(charts[0], &w, &h);
	size_t i = pd_strmap_put(&job->card_of, path.ptr, path.len, job->n_cards);
	if (i == PD_STRMAP_NONE) {
		i = job->n_cards;
		PD_GROW(job->cards, job->cap_cards, job->n_cards + 1);
		job->cards[job->n_cards++] =
			(struct pd_plot_cards){.path = pd_buf_detach(&path),
					       .behind = PD_BUF_INIT,
					       .front = PD_BUF_INIT};
	}
	struct pd_plot_cards *c = &job->cards[i];
	pd_buf_truncate(&c->behind, 0);
	pd_buf_truncate(&c->front, 0);
	c->keep_defs = 0;
	pd_buf_adds(&c->behind, "<path fill=\"#ffffff\" d=\"");
	for (size_t k = 0; k < n; k++) {
		int x, y;
		card_at(&x, &y, k, cols, w, h);
		pd_buf_addf(&c->behind, "M%d %dh%dv%dh-%dz", x, y, w, h, w);
		c->keep_defs |= charts[k]->n_xticks > 0; /* points are drawn from <defs> */
	}
	pd_buf_adds(&c->behind, "\"/>");
	for (size_t k = 0; framed && k < n; k++) /* each colour at its first panel */
		if (charts[k]->frame && hex_color(charts[k]->frame) && first_frame(charts, k))
			frames(&c->front, charts, n, cols, w, h, charts[k]->frame);
	if (framed)
		frames(&c->front, charts, n, cols, w, h, NULL);
	pd_buf_release(&path);
}

/* Nothing to draw: an empty frame over the bands (or 0..1) that says so; its settings into
 * b, its plot into cmd. */
static void no_data(struct pd_buf *b, struct pd_buf *cmd, const struct pd_plot_chart *c)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < c->n_bands; i++) {
		if (isfinite(c->bands[i].start) && isfinite(c->bands[i].end))
			lo = fmin(lo, c->bands[i].start), hi = fmax(hi, c->bands[i].end);
	}
	if (!(lo < hi))
		lo = 0, hi = 1;
	pd_buf_adds(b, "set xrange [");
	num(b, lo);
	pd_buf_addch(b, ':');
	num(b, hi);
	pd_buf_addf(b,
		    "]\nset yrange [0:1]\nset ytics format ''\nunset key\n"
		    "set label %zu 'no data' at graph 0.5, graph 0.5 center "
		    "textcolor rgb '#888888'\n",
		    TAG_BAND + c->n_bands);
	pd_buf_adds(cmd, "plot NaN notitle\n");
}

/* Notes the script line where the commands of the chart drawn into file begin. */
static void mark(struct pd_plot_job *job, const char *file)
{
	for (; job->counted < job->script.len; job->counted++)
		job->lines += job->script.ptr[job->counted] == '\n';
	PD_GROW(job->marks, job->cap_marks, job->n_marks + 1);
	struct pd_plot_mark *m = &job->marks[job->n_marks++];
	m->line = job->lines + 1;
	m->part = job->part;
	snprintf(m->file, sizeof(m->file), "%s", file);
}

/* The settings (into set, after settings()) and the plot command (into cmd) of one chart,
 * its points into the job's data: its axes, phases, event and lines, or "no data". */
static void draw(struct pd_plot_job *job, const struct pd_plot_chart *chart, int w,
		 struct pd_buf *set, struct pd_buf *cmd)
{
	size_t max = 2 * (size_t)w, drawn = 0;
	double *dt = pd_xmalloc(max * sizeof(*dt)), *dv = pd_xmalloc(max * sizeof(*dv));
	struct extent *ext = pd_xcalloc(2 * chart->n_lines + 1, sizeof(*ext));
	struct extent *gap = ext + chart->n_lines;
	double span = span_of(chart);
	int gaps = 0, power = y_power(chart);
	if (chart->n_xticks)
		ms_axis(set, chart);
	else
		(chart->x_runs ? runs_axis : x_axis)(set, span, chart->compact ? 4 : 6);
	if (chart->note) {
		pd_buf_addf(set, "set label %d ", TAG_NOTE);
		pd_plot_quote(set, chart->note);
		pd_buf_adds(set,
			    " at graph 0.98, graph 0.88 right front textcolor rgb '#5f6b78'\n");
	}
	bands(set, chart);
	event(set, chart);
	for (size_t i = 0; i < chart->n_lines; i++) {
		ext[i] = add_points(&job->data, &chart->lines[i], max, power, dt, dv);
		drawn += ext[i].records > 0;
	}
	for (size_t i = 0; i < chart->n_lines; i++)
		gaps += (gap[i] = add_gaps(&job->data, &chart->lines[i], span / w)).records > 0;
	ytics(set, chart, power);
	if (gaps)
		pd_buf_adds(set, "set y2range [0:1]\n");
	if (drawn)
		plot(cmd, chart, ext, fd_data(job->part), gap);
	else
		no_data(set, cmd, chart);
	free(ext);
	free(dt);
	free(dv);
}

void pd_plot_script(struct pd_plot_job *job, const struct pd_plot_chart *chart, const char *dir)
{
	assert(chart->file);
	int w, h;
	struct pd_buf set = PD_BUF_INIT, cmd = PD_BUF_INIT;
	chart_size(chart, &w, &h);
	mark(job, chart->file);
	pd_buf_adds(&job->script, "reset\n");
	pd_buf_truncate(&job->carried, 0); /* nothing of a panel carries past this */
	terminal(job, w, h);
	settings(&job->script, chart);
	set_output(&job->script, dir, chart->file);
	cards(job, &chart, 1, 1, dir, 0); /* its white background, the whole canvas */
	draw(job, chart, w, &set, &cmd);
	pd_buf_add(&job->script, set.ptr, set.len);
	pd_buf_add(&job->script, cmd.ptr, cmd.len);
	pd_buf_adds(&job->script, "unset output\n");
	pd_buf_release(&set);
	pd_buf_release(&cmd);
}

void pd_plot_panels_size(int *w, int *h, int panel_w, int panel_h, size_t n, size_t cols)
{
	size_t rows = (n + cols - 1) / cols, c = n < cols ? n : cols;
	*w = (int)c * panel_w + ((int)c - 1) * PD_PLOT_PANEL_GAP;
	*h = (int)rows * panel_h + ((int)rows - 1) * PD_PLOT_PANEL_GAP;
}

/* Panel k's place on the canvas of W x H: gnuplot's origin and size in screen fractions
 * (its card and frame are drawn by cards()). */
static void place(struct pd_buf *b, size_t k, size_t cols, int w, int h, int W, int H)
{
	/* in whole pixels from the bottom left, then fractions: no -0 at an edge */
	int left, top;
	card_at(&left, &top, k, cols, w, h);
	int bottom = H - top - h;
	double x0 = (double)left / W, y0 = (double)bottom / H;
	double x1 = (double)(left + w) / W, y1 = (double)(bottom + h) / H;
	pd_buf_addf(b, "set origin %.6f, %.6f\nset size %.6f, %.6f\n", x0, y0, x1 - x0,
		    y1 - y0);
}

/* The length of the key of settings line s: its words up to the first that is not a name,
 * with the tag of an object, label or arrow ("set autoscale yfix", "set ytics", "set
 * label 2"): what a later line with the same key sets anew. */
static size_t key_len(const char *s)
{
	size_t n = strcspn(s, " \n");
	int tagged = !strncmp(s, "set object ", 11) || !strncmp(s, "set label ", 10) ||
		     !strncmp(s, "set arrow ", 10);
	for (int word = 1; s[n] == ' '; word++) {
		int name = isalpha((unsigned char)s[n + 1]);
		if (!name && !(tagged && word == 2 && isdigit((unsigned char)s[n + 1])))
			break;
		n += 1 + strcspn(s + n + 1, " \n");
	}
	return n;
}

/* Whether no two lines of settings b have the same key (a panel of "no data" sets its
 * ranges again: the last of two lines would be left as it was). */
static int unique_keys(const char *b)
{
	for (const char *p = b; *p; p = strchr(p, '\n') + 1) {
		size_t kp = key_len(p);
		for (const char *q = b; q < p; q = strchr(q, '\n') + 1)
			if (key_len(q) == kp && !strncmp(q, p, kp))
				return 0;
	}
	return 1;
}

/* Whether settings a and b have the same keys in the same order. */
static int same_keys(const char *a, const char *b)
{
	while (*a || *b) {
		size_t ka = key_len(a), kb = key_len(b);
		if (ka != kb || strncmp(a, b, ka))
			return 0;
		a += strcspn(a, "\n") + 1, b += strcspn(b, "\n") + 1;
	}
	return 1;
}

/* Appends the settings of the next panel (set, emptied) to the script: after panel
 * settings prev with the same keys, none twice (*unique, found at the last reset), only
 * the lines that changed (gnuplot keeps the rest: a quarter of its time went into reading
 * the same settings again), else "reset" and all of them. A line set anew never undoes
 * another line's setting (the line types, tics and grid stay as set), which check_plot
 * verifies against the real gnuplot. The previous panel may be the last of the SVG before
 * (gnuplot keeps settings across outputs and terminals too). */
static void carry(struct pd_plot_job *job, struct pd_buf *set)
{
	struct pd_buf *script = &job->script, *prev = &job->carried;
	int *unique = &job->carried_unique;
	if (job->fresh || !prev->len || !*unique || !same_keys(prev->ptr, set->ptr)) {
		pd_buf_adds(script, "reset\n"); /* keeps the terminal and the multiplot */
		pd_buf_add(script, set->ptr, set->len);
		*unique = unique_keys(set->ptr);
	} else {
		for (const char *a = prev->ptr, *b = set->ptr; *b;) {
			size_t la = strcspn(a, "\n") + 1, lb = strcspn(b, "\n") + 1;
			if (la != lb || memcmp(a, b, lb))
				pd_buf_add(script, b, lb);
			a += la, b += lb;
		}
	}
	struct pd_buf t = *prev;
	*prev = *set;
	*set = t;
	pd_buf_truncate(set, 0);
}

void pd_plot_script_panels(struct pd_plot_job *job, const struct pd_plot_chart *const *charts,
			   size_t n, size_t cols, const char *dir)
{
	assert(n > 0 && cols > 0 && charts[0]->file);
	if (n == 1) {
		pd_plot_script(job, charts[0], dir);
		return;
	}
	int w, h, W, H;
	chart_size(charts[0], &w, &h);
	pd_plot_panels_size(&W, &H, w, h, n, cols);
	mark(job, charts[0]->file);
	terminal(job, W, H); /* the canvas's: clear between the cards, as the page is */
	set_output(&job->script, dir, charts[0]->file);
	cards(job, charts, n, cols, dir, 1);
	pd_buf_adds(&job->script, "set multiplot\n");
	struct pd_buf set = PD_BUF_INIT, cmd = PD_BUF_INIT;
	for (size_t k = 0; k < n; k++) {
		settings(&set, charts[k]);
		place(&set, k, cols, w, h, W, H);
		draw(job, charts[k], w, &set, &cmd);
		carry(job, &set);
		pd_buf_add(&job->script, cmd.ptr, cmd.len);
		pd_buf_truncate(&cmd, 0);
	}
	pd_buf_adds(&job->script, "unset multiplot\nunset output\n");
	pd_buf_release(&set);
	pd_buf_release(&cmd);
}

/* --- drawing the cards into gnuplot's SVG ---------------------------------------- */

/* gnuplot's SVG begins with its <svg ...> tag, a canvas and the <defs> of its point
 * symbols (about 2 kB, ending within the first 3 kB) and ends with "</svg>\n". */
#define SVG_HEAD 4096
#define SVG_TAIL 64

/* The last occurrence of needle in s[0..n), else NULL. */
static const unsigned char *last_of(const unsigned char *s, size_t n, const char *needle)
{
	const unsigned char *found = NULL, *p = s;
	size_t k = strlen(needle);
	while ((p = memmem(p, n - (size_t)(p - s), needle, k)))
		found = p++;
	return found;
}

/* Writes len bytes of p into fd at off: 0, or -errno. */
static int write_at(int fd, off_t off, const char *p, size_t len)
{
	if (lseek(fd, off, SEEK_SET) != off)
		return -errno;
	return pd_file_write_all(fd, p, len);
}

/* The SVG of fd, size bytes whose "</svg>" is at end, rewritten whole: the cards before
 * its <defs> (else its first group), their frames before "</svg>". */
static int rewrite(int fd, size_t size, size_t end, const struct pd_plot_cards *c)
{
	struct pd_buf svg = PD_BUF_INIT, out = PD_BUF_INIT;
	struct pd_err ignored = PD_ERR_INIT;
	int rc = lseek(fd, 0, SEEK_SET) == 0 ? 0 : -errno;
	if (rc == 0 && pd_file_read_fd(&svg, fd, c->path, size + 1, &ignored) < 0)
		rc = -EIO;
	const char *at = NULL;
	if (rc == 0 && svg.len == size)
		at = strstr(svg.ptr, "<defs>") ? strstr(svg.ptr, "<defs>")
					       : strstr(svg.ptr, "<g");
	if (at && (size_t)(at - svg.ptr) < end) { /* else not gnuplot's: left as it is */
		pd_buf_add(&out, svg.ptr, (size_t)(at - svg.ptr));
		pd_buf_add(&out, c->behind.ptr, c->behind.len);
		pd_buf_add(&out, at, end - (size_t)(at - svg.ptr));
		pd_buf_add(&out, c->front.ptr, c->front.len);
		pd_buf_adds(&out, "</svg>\n");
		rc = write_at(fd, 0, out.ptr, out.len);
		if (rc == 0 && ftruncate(fd, (off_t)out.len) < 0)
			rc = -errno;
	}
	pd_buf_release(&svg);
	pd_buf_release(&out);
	return rc;
}

/* The cards, in place of the <defs> when nothing uses them and they hold the cards (the
 * rest padded with spaces), their frames before "</svg>": a few hundred bytes written
 * where a rewrite of every chart cost a 16-node report 5 ms. */
static int in_place(int fd, const unsigned char *head, size_t nh, size_t end,
		    const struct pd_plot_cards *c)
{
	const unsigned char *d = memmem(head, nh, "<defs>", 6);
	const unsigned char *e = d ? memmem(d, nh - (size_t)(d - head), "</defs>", 7) : NULL;
	size_t room = e ? (size_t)(e + 7 - d) : 0;
	if (c->keep_defs || c->behind.len > room)
		return 1;
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_add(&b, c->behind.ptr, c->behind.len);
	while (b.len < room)
		pd_buf_addch(&b, ' ');
	int rc = write_at(fd, (off_t)(d - head), b.ptr, b.len);
	pd_buf_truncate(&b, 0);
	pd_buf_add(&b, c->front.ptr, c->front.len);
	pd_buf_adds(&b, "</svg>\n");
	if (rc == 0)
		rc = write_at(fd, (off_t)end, b.ptr, b.len);
	if (rc == 0 && ftruncate(fd, (off_t)(end + b.len)) < 0)
		rc = -errno;
	pd_buf_release(&b);
	return rc;
}

/* Draws c's cards and frames into the SVG gnuplot wrote: 0, or -errno. A file that is
 * missing or does not end as gnuplot's SVG does is left alone (the report says it is no
 * SVG). */
static int draw_cards(const struct pd_plot_cards *c)
{
	unsigned char head[SVG_HEAD], tail[SVG_TAIL]; /* bytes, compared as such */
	struct stat st;
	int fd = open(c->path, O_RDWR | O_CLOEXEC), rc = 0;
	if (fd < 0 || fstat(fd, &st) < 0) {
		rc = errno == ENOENT ? 0 : -errno;
		if (fd >= 0)
			close(fd);
		return rc;
	}
	size_t size = (size_t)st.st_size, nt = size < SVG_TAIL ? size : SVG_TAIL;
	ssize_t nh = pread(fd, head, SVG_HEAD, 0);
	const unsigned char *end =
		nh >= 0 && pread(fd, tail, nt, (off_t)(size - nt)) == (ssize_t)nt
			? last_of(tail, nt, "</svg>")
			: NULL;
	if (end) {
		size_t at = size - nt + (size_t)(end - tail);
		rc = in_place(fd, head, (size_t)nh, at, c);
		rc = rc == 1 ? rewrite(fd, size, at, c) : rc;
	}
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	return rc;
}

/* --- trimming its output ---------------------------------------------------------- */

/* Whether the output so far ends with an open "<g ...>" tag: its start, else -1. */
static long open_group(const struct pd_buf *b)
{
	if (!b->len || b->ptr[b->len - 1] != '>')
		return -1;
	const char *lt = memrchr(b->ptr, '<', b->len);
	return lt && !strncmp(lt, "<g ", 3) && !memchr(lt, '/', (size_t)(b->ptr + b->len - lt))
		       ? (long)(lt - b->ptr)
		       : -1;
}

/* Removes every occurrence of s from b. */
static void cut_all(struct pd_buf *b, const char *s)
{
	size_t n = strlen(s), k = 0;
	for (size_t i = 0; i < b->len;) {
		if (!strncmp(b->ptr + i, s, n)) {
			i += n;
			continue;
		}
		b->ptr[k++] = b->ptr[i++];
	}
	b->ptr[k] = '\0';
	b->len = k;
}

/* Copies svg without the whitespace between tags and without empty groups. */
static void trim_tags(struct pd_buf *out, const char *s)
{
	while (*s) {
		const char *w = s + strspn(s, " \t\r\n");
		if (w > s && *w == '<' && out->len && out->ptr[out->len - 1] == '>') {
			s = w; /* between two tags: never a <text>'s content */
			continue;
		}
		long g;
		if (!strncmp(s, "</g>", 4) && (g = open_group(out)) >= 0) {
			pd_buf_truncate(out, (size_t)g); /* "<g ...></g>": nothing drawn */
			s += 4;
			continue;
		}
		pd_buf_addch(out, *s++);
	}
}

void pd_plot_svg_trim(struct pd_buf *svg)
{
	struct pd_buf out = PD_BUF_INIT;
	trim_tags(&out, svg->ptr);
	char *d = strstr(out.ptr, "<defs>"), *e = d ? strstr(d, "</defs>") : NULL;
	if (e) {
		e += strlen("</defs>");
		int used = strstr(e, "xlink:href") || strstr(e, "url(#");
		for (char *p = out.ptr; !used && p < d; p++)
			used = !strncmp(p, "xlink:href", 10) || !strncmp(p, "url(#", 5);
		if (!used)
			memmove(d, e, strlen(e) + 1), out.len -= (size_t)(e - d);
	}
	/* SVG's own defaults: dropped where nothing in the drawing sets another */
	if (!strstr(out.ptr, "\"round\"") && !strstr(out.ptr, "'round'"))
		cut_all(&out, " stroke-linecap=\"butt\" stroke-linejoin=\"miter\"");
	pd_buf_release(svg);
	*svg = out;
}

/* --- running gnuplot -------------------------------------------------------------- */

/* Copies s into out (size bytes), cut short when it does not fit. */
static void copy_str(char *out, size_t size, const char *s)
{
	size_t n = strnlen(s, size - 1);
	memcpy(out, s, n);
	out[n] = '\0';
}

/* The part whose script gnuplot names at the start of msg ("\"/dev/fd/6\" line 3: ..."
 * is the first sequel's), 0 for its first script. */
static int script_part(const char *msg)
{
	int fd = 0, used = 0;
	if (sscanf(msg, "\"/dev/fd/%d\"%n", &fd, &used) < 1 || !used)
		return 0;
	for (int part = 1; part <= PD_PLOT_SEQUELS; part++)
		if (fd == fd_data(part) + 1)
			return part;
	return 0;
}

/* The message of gnuplot's first error in its stderr: the text after "line N: " (or
 * "\"file\" line N: ") at the start of a line that is not a warning, with N in *at, else
 * the first line that is not an echo, a caret or a warning (*at 0). */
static void first_error(char *out, size_t size, long *at, int *part, FILE *f)
{
	char line[512], fallback[512] = "";
	out[0] = '\0';
	*at = 0, *part = 0;
	int split = 0;
	while (fgets(line, sizeof(line), f)) {
		int rest = split; /* the rest of a line longer than line[]: never a message */
		split = !strchr(line, '\n');
		if (rest)
			continue;
		char *p = line + strspn(line, " \t");
		if (strncmp(p, "gnuplot>", 8) == 0) /* the echo of the command: input text */
			continue;
		/* the message: "line N: ..." at the start, after the script's quoted name */
		const char *msg = p;
		int in_part = script_part(msg);
		if (*msg == '"' && strchr(msg + 1, '"'))
			msg = strchr(msg + 1, '"') + 1 + strspn(strchr(msg + 1, '"') + 1, " ");
		msg = strncmp(msg, "line ", 5) ? NULL : msg;
		long n;
		int used = 0;
		if (msg && sscanf(msg, "line %ld: %n", &n, &used) >= 1 && used > 0) {
			msg += used;
			if (strncmp(msg, "warning:", 8) == 0)
				continue;
			copy_str(out, size, msg);
			*at = n, *part = in_part;
			break;
		}
		if (!fallback[0] && *p && *p != '\n' && *p != '^' &&
		    strncasecmp(p, "warning", 7))
			copy_str(fallback, sizeof(fallback), p);
	}
	if (!out[0])
		copy_str(out, size, fallback);
	for (char *p = out; *p; p++) /* one printable line */
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = *p == '\n' || *p == '\r' ? '\0' : '?';
}

/* Where the temporary files go: $TMPDIR when it is a sane absolute path, else /tmp. */
static const char *temp_dir(void)
{
	const char *dir = getenv("TMPDIR");
	return dir && dir[0] == '/' && strlen(dir) <= 200 ? dir : "/tmp";
}

/* Moves fd above the descriptors the child is given (CHILD_FDS), close-on-exec, so that
 * setting the child's 0 to 6 never overwrites one that is still to be copied. */
static int high_fd(int fd)
{
	if (fd < 0)
		return -1;
	int high = fcntl(fd, F_DUPFD_CLOEXEC, CHILD_FDS);
	close(fd);
	return high;
}

/* A temporary file for gnuplot's input or points: an anonymous one in memory (nothing to
 * name, create or remove in a directory: a file made in a busy /tmp cost a fifth of a
 * millisecond), else an unlinked one in temp_dir(). */
static int temp_fd(void)
{
	int mem = memfd_create("pd-gnuplot", MFD_CLOEXEC);
	if (mem >= 0)
		return high_fd(mem);
	char path[256];
	snprintf(path, sizeof(path), "%s/pd-gnuplot-XXXXXX", temp_dir());
	int fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	return high_fd(fd);
}

/* A temporary file holding len bytes of p (and of q), positioned at its start. */
static int temp_file(const char *p, size_t len, const char *q, size_t qlen)
{
	int fd = temp_fd();
	if (fd >= 0 && (pd_file_write_all(fd, p, len) < 0 ||
			pd_file_write_all(fd, q, qlen) < 0 || lseek(fd, 0, SEEK_SET) != 0)) {
		int e = errno;
		close(fd);
		errno = e;
		fd = -1;
	}
	return fd;
}

/* gnuplot reads the script as a file named on its command line (a pipe on its stdin is
 * read one byte per read(2): 3 times slower); fds[i] becomes its descriptor i (fds[1] is
 * /dev/null, -1 leaves one unset). */
static int spawn(pid_t *pid, int fds[CHILD_FDS])
{
	static char *const argv[] = {"gnuplot", "-d", "/dev/stdin", NULL};
	static char *const envp[] = {"HOME=/nonexistent", "PATH=/usr/bin:/bin", "LC_ALL=C",
				     NULL};
	fds[1] = PD_PROC_DEVNULL;
	const struct pd_proc_spec spec = {
		.file = "gnuplot", .argv = argv, .envp = envp, .fds = fds, .n_fds = CHILD_FDS};
	return pd_proc_start(pid, &spec);
}

/* The last line of every run: gnuplot prints it on stderr once all charts are drawn. */
#define DONE_MARK "pd-plot-done"
#define DONE_CMD  "\nprint '" DONE_MARK "'\n"
/* The end of a script that sequels follow: gnuplot reads on from the pipe on its fd 4,
 * which is given, once each sequel is ready, the line that loads its script. */
#define LOAD_PIPE "\nload '/dev/fd/4'\n"

static int finished(const struct pd_proc_capture *err)
{
	return strstr(err->tail, DONE_MARK) != NULL;
}

static void close_sequel(struct pd_plot_job *job)
{
	for (int i = 0; i < SEQ_FDS; i++) {
		if (job->seq_fd[i] >= 0)
			close(job->seq_fd[i]);
		job->seq_fd[i] = -1;
	}
}

/* Empties the script, points and marks for what comes next (part 0 or the sequel). */
static void reset_part(struct pd_plot_job *job, int part)
{
	pd_buf_release(&job->script);
	pd_buf_release(&job->data);
	job->part = part;
	job->width = job->height = 0;
	job->lines = job->counted = 0;
}

static void release(struct pd_plot_job *job)
{
	reset_part(job, 0);
	pd_buf_release(&job->carried);
	for (size_t i = 0; i < job->n_cards; i++) {
		free(job->cards[i].path);
		pd_buf_release(&job->cards[i].behind);
		pd_buf_release(&job->cards[i].front);
	}
	free(job->cards);
	job->cards = NULL;
	job->n_cards = job->cap_cards = 0;
	pd_strmap_free(&job->card_of);
	free(job->marks);
	job->marks = NULL;
	job->n_marks = job->cap_marks = 0;
	close_sequel(job);
	pd_proc_capture_release(&job->err);
	job->pid = 0;
	job->sequels = 0;
}

/* The pipe and the two files of each of n sequels: fds[4..] for the child, the parent's
 * ends in job->seq_fd. */
static int open_sequels(struct pd_plot_job *job, int n, int fds[CHILD_FDS])
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	fds[FD_PIPE] = high_fd(p[0]);
	job->seq_fd[0] = high_fd(p[1]);
	if (fds[FD_PIPE] < 0 || job->seq_fd[0] < 0)
		return -1; /* errno from the call that failed */
	for (int i = 1; i <= 2 * n; i++)
		if ((fds[FD_PIPE + i] = job->seq_fd[i] = temp_fd()) < 0)
			return -1;
	return 0;
}

/* gnuplot's stderr: a pipe that pd_plot_wait drains (a temporary file grew by gigabytes
 * under a flood of warnings); fds[2] its write end, job->err.fd its read end. */
static void err_pipe(struct pd_plot_job *job, int fds[CHILD_FDS])
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return;
	job->err.fd = high_fd(p[0]);
	fds[2] = high_fd(p[1]);
	if (fds[2] < 0 && job->err.fd >= 0) {
		close(job->err.fd);
		job->err.fd = -1;
	}
}

int pd_plot_start(struct pd_plot_job *job, int sequels, struct pd_err *err)
{
	assert(sequels >= 0 && sequels <= PD_PLOT_SEQUELS);
	const char *tail = sequels ? LOAD_PIPE : DONE_CMD;
	int fds[CHILD_FDS], rc = 0, sp;
	for (int i = 0; i < CHILD_FDS; i++)
		fds[i] = -1;
	fds[0] = temp_file(job->script.ptr, job->script.len, tail, strlen(tail));
	fds[FD_DATA] = fds[0] < 0 ? -1 : temp_file(job->data.ptr, job->data.len, "", 0);
	const char *what = fds[0] < 0 ? "script" : fds[FD_DATA] < 0 ? "points" : "messages";
	if (fds[FD_DATA] >= 0)
		err_pipe(job, fds);
	if (job->err.fd < 0 || (sequels && open_sequels(job, sequels, fds) < 0))
		rc = pd_err_set(err, PD_EIO, "cannot make gnuplot's %s (a file in %s): %s",
				job->err.fd < 0 ? what : "sequel", temp_dir(), strerror(errno));
	else if ((sp = spawn(&job->pid, fds)) == ENOENT)
		rc = pd_err_set(err, PD_EIO, "gnuplot not found: install gnuplot-nox");
	else if (sp)
		rc = pd_err_set(err, PD_EIO, "cannot run gnuplot: %s", strerror(sp));
	for (int i = 0; i < CHILD_FDS; i++) /* the child's copies; ours stay in job */
		if (fds[i] >= 0 && (i <= FD_PIPE || rc < 0))
			close(fds[i]);
	if (rc < 0) {
		for (int i = 1; i < SEQ_FDS; i++) /* closed just above */
			job->seq_fd[i] = -1;
		release(job);
		return rc;
	}
	job->sequels = sequels;
	reset_part(job, sequels ? 1 : 0);
	return 0;
}

/* Writes to the pipe with SIGPIPE blocked: a gnuplot that died turns into EPIPE here
 * (and its own error at the wait) instead of killing us. */
static int write_pipe(int fd, const char *s, size_t len)
{
	sigset_t pipe_set, old;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	int rc = pd_file_write_all(fd, s, len);
	if (rc == -EPIPE) {
		struct timespec zero = {0, 0};
		sigtimedwait(&pipe_set, NULL, &zero);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int pd_plot_follow(struct pd_plot_job *job, struct pd_err *err)
{
	int part = job->part, rc = 0;
	assert(part >= 1 && part <= job->sequels && job->seq_fd[0] >= 0);
	int *fd = &job->seq_fd[2 * part - 1]; /* its points, then its script */
	struct pd_buf load = PD_BUF_INIT;
	pd_buf_addf(&load, "load '/dev/fd/%d'%s", fd_data(part) + 1,
		    part == job->sequels ? DONE_CMD : "\n");
	if (pd_file_write_all(fd[0], job->data.ptr, job->data.len) < 0 ||
	    pd_file_write_all(fd[1], job->script.ptr, job->script.len) < 0)
		rc = pd_err_set(err, PD_EIO,
				"cannot write gnuplot's sequel to a file in %s: %s", temp_dir(),
				strerror(errno));
	else /* EPIPE: gnuplot is gone, and pd_plot_wait says why */
		write_pipe(job->seq_fd[0], load.ptr, load.len);
	pd_buf_release(&load);
	for (int i = 0; i < 2; i++) /* gnuplot has its own */
		close(fd[i]), fd[i] = -1;
	if (rc < 0 || part == job->sequels)
		close_sequel(job);
	reset_part(job, part + 1);
	return rc;
}

/* The chart whose commands hold line `at` (1-based) of the script of part, or "". */
static const char *chart_at(const struct pd_plot_job *job, int part, long at)
{
	const char *file = "";
	for (size_t i = 0; i < job->n_marks && at > 0; i++)
		if (job->marks[i].part == part && job->marks[i].line <= (size_t)at)
			file = job->marks[i].file;
	return file;
}

/* gnuplot's failure as one line: its first error message and the chart it was drawing,
 * else its exit status. */
static int failure(struct pd_plot_job *job, int status, struct pd_err *err)
{
	char msg[200] = "";
	long at = 0;
	int part = 0;
	FILE *f =
		job->err.head.len ? fmemopen(job->err.head.ptr, job->err.head.len, "r") : NULL;
	if (f) {
		first_error(msg, sizeof(msg), &at, &part, f);
		fclose(f);
	}
	if (!msg[0])
		snprintf(msg, sizeof(msg), WIFEXITED(status) ? "exit status %d" : "signal %d",
			 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	const char *file = chart_at(job, part, at);
	return pd_err_set(err, PD_EIO, "gnuplot failed%s%s: %s", *file ? " drawing " : "", file,
			  msg);
}

int pd_plot_wait(struct pd_plot_job *job, struct pd_err *err)
{
	int status = 0, rc = 0;
	if (job->pid <= 0)
		return 0;
	close_sequel(job); /* a sequel never given: gnuplot reads the end of the pipe */
	const struct pd_proc_watch watch = {.idle_s = job->timeout_s,
					    .total_s = PD_PLOT_TOTAL_FACTOR * job->timeout_s,
					    .capture = &job->err};
	int w = pd_proc_wait(job->pid, &status, &watch);
	if (w < 0)
		rc = pd_err_set(err, PD_EIO, "cannot wait for gnuplot: %s", strerror(errno));
	else if (w == PD_PROC_IDLE)
		rc = pd_err_set(err, PD_EIO,
				"gnuplot made no progress for %g s and was ended "
				"(--gnuplot-timeout sets the limit)",
				job->timeout_s);
	else if (w == PD_PROC_OVERTIME)
		rc = pd_err_set(err, PD_EIO,
				"gnuplot ran for %g s and was ended (at most %d times "
				"--gnuplot-timeout)",
				watch.total_s, PD_PLOT_TOTAL_FACTOR);
	else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		rc = failure(job, status, err);
	else if (!finished(&job->err)) /* it quit early ("exit" in the script) */
		rc = pd_err_set(err, PD_EIO, "gnuplot stopped before the end of its script");
	for (size_t i = 0; i < job->n_cards && rc == 0; i++) {
		int e = draw_cards(&job->cards[i]);
		if (e < 0)
			rc = pd_err_set(err, PD_EIO, "cannot draw the cards into %s: %s",
					job->cards[i].path, strerror(-e));
	}
	release(job);
	return rc;
}

void pd_plot_discard(struct pd_plot_job *job)
{
	pd_proc_kill(job->pid);
	release(job);
}

int pd_plot_run(struct pd_plot_job *job, struct pd_err *err)
{
	int rc = pd_plot_start(job, 0, err);
	return rc < 0 ? rc : pd_plot_wait(job, err);
}
