/* Charts with gnuplot: scripts are built as text (pure, testable), then one gnuplot
 * process renders many charts (started with an argument vector, never a shell). */
#ifndef PD_PLOT_H
#define PD_PLOT_H

#include "../core/buf.h"
#include "../core/err.h"
#include "../core/proc.h"
#include "../core/strmap.h"

#include <stddef.h>
#include <sys/types.h>

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
	const char *event_label; /* the marker's legend entry, from input: escaped; NULL for
				    "event" (a compact chart has no legend) */
	const char *xlabel;      /* NULL: none, the x ticks say "s" */
	int compact;             /* a small chart: no legend (the page gives it once) */
	int y_zero;              /* the values are >= 0: the y axis starts at 0 */
	const char *frame;       /* a panel's card frame colour ("#d62728"), NULL: grey */
	const char *note;        /* a line in the frame's top right corner ("not in the
				    target"), NULL: none; escaped */
	/* an x axis that is no time: a log scale with a tick at each of xticks[0..n_xticks)
	 * labelled "<x> ms", and the points marked (a distribution of a few points) */
	const double *xticks;
	size_t n_xticks;
	int xtick_pct; /* the ticks are percentiles p at x = 100 / (100 - p) (the nines spread
			  out), labelled "p<p>" instead of "<x> ms" */
	/* an x axis of runs: the points at x = 1, 2, ... n, whole-number ticks with no unit
	 * over [0.5, the last band's end or n + 0.5]; each band's label at its start (a
	 * band is a segment of runs, named by the run it starts at) */
	int x_runs;
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

/* Where the commands of one chart begin: line of the script of part (0, or k for the k-th
 * sequel), 1-based. */
struct pd_plot_mark {
	size_t line;
	int part;
	char file[64];
};

/* One gnuplot process drawing many charts: the commands, and apart from them the points
 * they plot as native float64 (t, v) pairs, which gnuplot reads as binary from a file on
 * one of its descriptors (no number is formatted or parsed as text, and none loses a
 * digit). "/dev/fd/N" opens that file anew with its own position: Linux's behaviour,
 * which this relies on. A job may be started with sequels: charts scripted after the
 * start, which the same gnuplot draws once they are given (pd_plot_follow), each in
 * turn; started with no chart, its gnuplot starts up while they are being computed. */
#define PD_PLOT_SEQUELS 2 /* at most */
struct pd_plot_cards;
struct pd_plot_job {
	struct pd_buf script, data;
	int part;          /* what is scripted now: 0, or k for the k-th sequel */
	int sequels;       /* it was started with */
	int width, height; /* of the terminal set last; 0 before the first chart */
	int fresh; /* every panel of an SVG from "reset" in full, none carried (tests) */
	struct pd_buf carried;      /* the settings of the last panel scripted, when the next
				       may carry them (none after a chart of its own) */
	int carried_unique;         /* no two of its lines have the same key */
	struct pd_plot_mark *marks; /* per chart, to name the one gnuplot failed on */
	size_t n_marks, cap_marks;
	struct pd_plot_cards *cards; /* per SVG: its cards, drawn once gnuplot wrote it */
	size_t n_cards, cap_cards;
	struct pd_strmap card_of;   /* an SVG's path to its cards' index */
	size_t lines, counted;      /* script lines counted so far, up to byte `counted` */
	pid_t pid;                  /* while gnuplot runs */
	struct pd_proc_capture err; /* its stderr (a pipe), while it runs and after */
	int seq_fd[1 + 2 * PD_PLOT_SEQUELS]; /* the pipe, each sequel's points and script */
	double timeout_s; /* gnuplot is ended after this long without progress; 0 never */
};
/* Seconds in which gnuplot neither reads its script or points nor writes a chart, after
 * which pd_plot_wait ends it (its stderr does not count): a chart takes milliseconds, and
 * a 24 h report of 64 nodes keeps gnuplot busy throughout. In all, gnuplot may run
 * PD_PLOT_TOTAL_FACTOR times as long. */
#define PD_PLOT_TIMEOUT_DEFAULT 60
#define PD_PLOT_TOTAL_FACTOR    20
#define PD_PLOT_JOB_INIT                                                                       \
	{                                                                                      \
		.script = PD_BUF_INIT, .data = PD_BUF_INIT, .carried = PD_BUF_INIT,            \
		.err = PD_PROC_CAPTURE_INIT, .seq_fd = {-1, -1, -1, -1, -1},                   \
		.timeout_s = PD_PLOT_TIMEOUT_DEFAULT                                           \
	}

/* Appends to job the gnuplot commands and the points that draw chart into dir/chart->file
 * with the svg terminal (dir NULL or "" for the working directory), on a white card that
 * pd_plot_wait draws into the SVG once gnuplot has written it. Lines longer than
 * 2 x width points are decimated with pd_plot_decimate. Strings from input only ever
 * appear as pd_plot_quote strings, so gnuplot can never execute them; a line without a
 * finite point is left out, and a chart without any is drawn as an empty frame saying
 * "no data" (not an error). Same chart after the same charts, same bytes. */
void pd_plot_script(struct pd_plot_job *job, const struct pd_plot_chart *chart,
		    const char *dir);

/* The pixels between two panels of one SVG. */
#define PD_PLOT_PANEL_GAP 8

/* Appends the commands and points that draw charts[0..n) as the panels of one SVG,
 * dir/charts[0].file: cols to a row, each at the size of charts[0] on a white card framed
 * in grey (or its frame colour, "#rrggbb"), which pd_plot_wait draws into the SVG once
 * gnuplot has written it, PD_PLOT_PANEL_GAP pixels apart (one file and one terminal for many
 * charts: a chart file cost gnuplot more in the kernel than its drawing). n == 1 is
 * pd_plot_script. The canvas is not held to the bounds of one chart: a 64-node metric is 22
 * rows high. */
void pd_plot_script_panels(struct pd_plot_job *job, const struct pd_plot_chart *const *charts,
			   size_t n, size_t cols, const char *dir);

/* The size of the SVG pd_plot_script_panels draws n panels of w x h into. */
void pd_plot_panels_size(int *w, int *h, int panel_w, int panel_h, size_t n, size_t cols);

/* Quotes s as a gnuplot single-quoted string (the only kind without backslash escapes,
 * backquote command substitution or @macro expansion; ' is written ''). Control
 * characters are dropped; invalid UTF-8, U+FFFE and U+FFFF become U+FFFD, and a zero-width
 * space goes into "]]>" and "\U" (gnuplot 6 reads \U+XXXX even in single quotes), so the
 * SVG gnuplot writes from it stays well-formed. */
void pd_plot_quote(struct pd_buf *b, const char *s);

/* Starts gnuplot on job's charts and returns without waiting: "gnuplot -d" from PATH,
 * with an argument vector and a fixed environment (no user or system init file, no
 * GNUPLOT_LIB), stdout discarded; the script and points go through unlinked temporary
 * files, and the job's buffers are emptied. With sequels (at most PD_PLOT_SEQUELS),
 * gnuplot then waits for the charts scripted onto job from now on, until pd_plot_follow
 * gives them, as many times (or pd_plot_wait gives up on them). PD_EIO when it cannot
 * start (or is missing). */
int pd_plot_start(struct pd_plot_job *job, int sequels, struct pd_err *err);

/* Gives a job started with sequels the charts scripted onto it since the start or the
 * last sequel: its next sequel. PD_EIO when they cannot be written; a gnuplot that has
 * died is reported by pd_plot_wait. */
int pd_plot_follow(struct pd_plot_job *job, struct pd_err *err);

/* Waits for a started job (0 at once for one that is not running), then draws the cards
 * of its charts into the SVGs gnuplot wrote: white behind gnuplot's drawing, their frames
 * in front (gnuplot cost three system calls for each number of an object; a file that
 * does not end as an SVG is left for the caller to refuse). PD_EIO when gnuplot
 * neither read its input nor wrote a chart for job->timeout_s seconds, or ran
 * PD_PLOT_TOTAL_FACTOR times as long in all (it is killed and reaped then), with
 * gnuplot's first error line, and the chart it was drawing, when it failed (gnuplot stops at
 * the first error of a script: the charts after it are not drawn), or when it stopped before
 * the end of its script (a sequel never given is such an end), or when a card cannot be
 * written. */
int pd_plot_wait(struct pd_plot_job *job, struct pd_err *err);

/* Makes an SVG that gnuplot wrote smaller, for inlining, and draws it the same: the
 * whitespace between tags goes (never inside a <text>), then every group that holds
 * nothing (gnuplot opens one per setting of colour or width), then the <defs> of point
 * symbols and text boxes when nothing outside them refers to one. A quarter to a half of
 * a chart of few points. */
void pd_plot_svg_trim(struct pd_buf *svg);

/* Kills a running job and waits for it; releases what the job holds. */
void pd_plot_discard(struct pd_plot_job *job);

/* pd_plot_start without sequels, then pd_plot_wait. */
int pd_plot_run(struct pd_plot_job *job, struct pd_err *err);

#endif
