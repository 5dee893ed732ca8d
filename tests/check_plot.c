#include "check_suites.h"

#include "core/file.h"
#include "render/plot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ZWSP "\xe2\x80\x8b"

static char *quote(const char *s)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_plot_quote(&b, s);
	return pd_buf_detach(&b);
}

START_TEST(test_plot_quote_doubles_quotes_and_leaves_the_rest_literal)
{
	/* inside '...' gnuplot reads \, `, @ and " as themselves; ' is written '' */
	char *q = quote("it's \"x\" `id` @m \\n ; # system('id')");
	ck_assert_str_eq(q, "'it''s \"x\" `id` @m \\n ; # system(''id'')'");
	free(q);
	q = quote("");
	ck_assert_str_eq(q, "''");
	free(q);
}
END_TEST

START_TEST(test_plot_quote_keeps_the_svg_well_formed)
{
	/* control characters (C0, DEL, C1 U+0085) dropped: a newline would end the command */
	char *q = quote("a\nb\rc\x01"
			"d\x7f"
			"e\xc2\x85"
			"f");
	ck_assert_str_eq(q, "'abcdef'");
	free(q);
	/* invalid UTF-8 and U+FFFE become U+FFFD; valid UTF-8 stays */
	q = quote("\xff\xc3 \xef\xbf\xbe caf\xc3\xa9");
	ck_assert_str_eq(q, "'\xef\xbf\xbd\xef\xbf\xbd \xef\xbf\xbd caf\xc3\xa9'");
	free(q);
	/* gnuplot writes '>' raw into SVG text, and gnuplot 6 reads \U+XXXX */
	/* a right-to-left override (U+202E) would reorder an SVG label: U+FFFD */
	q = quote("db\xe2\x80\xae"
		  "1");
	ck_assert_str_eq(q, "'db\xef\xbf\xbd"
			    "1'");
	free(q);
	q = quote("x]]]>y \\U+0001");
	ck_assert_str_eq(q, "'x]]]" ZWSP ">y \\" ZWSP "U+0001'");
	free(q);
}
END_TEST

START_TEST(test_plot_decimate_short_input_is_unchanged)
{
	double t[] = {0, 1, 2, 3, 4}, v[] = {5, NAN, 7, NAN, 9}, ot[5], ov[5];
	ck_assert_uint_eq(pd_plot_decimate(ot, ov, t, v, 5, 5), 5);
	for (int i = 0; i < 5; i++) {
		ck_assert_double_eq(ot[i], t[i]);
		ck_assert(isnan(v[i]) ? isnan(ov[i]) : ov[i] == v[i]);
	}
}
END_TEST

/* n = 8 to m = 5: buckets over 1..6 start at 1 + i*6/3 = 1, 3, 5: {1,2} {3,4} {5,6}.
 * Twice the areas, with a the last kept point and c the next bucket's mean:
 *  {1,2}: a (0,0), c (3.5,0): j=1 |(-3.5)(1) - (-1)(0)| = 3.5, j=2 |(-3.5)(2)| = 7 -> 2
 *  {3,4}: a (2,2), c (5.5,-1): j=3 |(-3.5)(-2) - (-1)(-3)| = 4, j=4 |(-3.5)(-2) - (-2)(-3)| = 1
 *         -> 3
 *  {5,6}: holds the maximum 10 (5) and the minimum -12 (6): one of them wins; a (3,0),
 *         c (7,0): j=5 |(-4)(10)| = 40, j=6 |(-4)(-12)| = 48 -> 6 */
START_TEST(test_plot_decimate_picks_largest_triangles)
{
	double t[] = {0, 1, 2, 3, 4, 5, 6, 7}, v[] = {0, 1, 2, 0, 0, 10, -12, 0};
	double ot[5], ov[5], want[] = {0, 2, 3, 6, 7};
	ck_assert_uint_eq(pd_plot_decimate(ot, ov, t, v, 8, 5), 5);
	for (int i = 0; i < 5; i++)
		ck_assert_double_eq(ot[i], want[i]);
}
END_TEST

/* n = 7 to m = 4: buckets start at 1 + i*5/2 = 1, 3: {1,2} {3,4,5}.
 *  {1,2}: a (0,0), c (4,9): j=1 |(-4)(-10) - (-1)(9)| = 49, j=2 |(-4)(10) - (-2)(9)| = 22:
 *         the triangle picks 1, but 2 holds the run's maximum 10 and wins
 *  {3,4,5}: a (2,10), c is the last point (6,-20): j=3 |(-4)(-1) - (-1)(-30)| = 26,
 *         j=4 |4 - 60| = 56, j=5 |4 - 90| = 86 -> 5 */
START_TEST(test_plot_decimate_extreme_wins_its_bucket)
{
	double t[] = {0, 1, 2, 3, 4, 5, 6}, v[] = {0, -10, 10, 9, 9, 9, -20};
	double ot[4], ov[4], want[] = {0, 2, 5, 6};
	ck_assert_uint_eq(pd_plot_decimate(ot, ov, t, v, 7, 4), 4);
	for (int i = 0; i < 4; i++)
		ck_assert_double_eq(ot[i], want[i]);
}
END_TEST

START_TEST(test_plot_decimate_spike_survives_long_flat_series)
{
	enum { N = 10000, M = 100 };
	double *t = malloc(N * sizeof(*t)), *v = malloc(N * sizeof(*v)), ot[M], ov[M];
	for (int i = 0; i < N; i++)
		t[i] = i * 0.5, v[i] = i == 5003 ? 100 : 1;
	v[7777] = -50; /* and a dip */
	size_t n = pd_plot_decimate(ot, ov, t, v, N, M);
	ck_assert_uint_eq(n, M);
	ck_assert_double_eq(ot[0], 0);
	ck_assert_double_eq(ot[n - 1], (N - 1) * 0.5);
	int spike = 0, dip = 0;
	for (size_t i = 0; i < n; i++) {
		spike |= ov[i] == 100 && ot[i] == 5003 * 0.5;
		dip |= ov[i] == -50 && ot[i] == 7777 * 0.5;
		if (i)
			ck_assert(ot[i] > ot[i - 1]);
	}
	ck_assert(spike && dip);
	free(t);
	free(v);
}
END_TEST

/* 2000 points, a gap at 1000..1099: runs of 1000 and 900 finite points, max 100:
 * 99 points after the one separator, shares floor(99*1000/1900) = 52 and
 * floor(99*900/1900) = 46, so 52 + 1 + 46 = 99 points, the separator at t[1000]. */
START_TEST(test_plot_decimate_keeps_gaps)
{
	enum { N = 2000, M = 100 };
	double t[N], v[N], ot[M], ov[M];
	for (int i = 0; i < N; i++)
		t[i] = i, v[i] = (i >= 1000 && i < 1100) ? NAN : sin(i / 10.0);
	size_t n = pd_plot_decimate(ot, ov, t, v, N, M), gaps = 0, at = 0;
	ck_assert_uint_eq(n, 99);
	for (size_t i = 0; i < n; i++) {
		if (isnan(ov[i]))
			gaps++, at = i;
		if (i)
			ck_assert(ot[i] > ot[i - 1]);
	}
	ck_assert_uint_eq(gaps, 1);
	ck_assert_uint_eq(at, 52);
	ck_assert_double_eq(ot[at], 1000);
	ck_assert_double_eq(ot[at - 1], 999); /* each run keeps its ends */
	ck_assert_double_eq(ot[at + 1], 1100);
	ck_assert_double_eq(ot[0], 0);
	ck_assert_double_eq(ot[n - 1], N - 1);
}
END_TEST

/* 100 points, every other one NaN: 49 gaps >= 10 / 2, so the 50 finite points are joined
 * and decimated as one run to 10, without a NaN. */
START_TEST(test_plot_decimate_joins_when_gaps_are_too_many)
{
	double t[100], v[100], ot[10], ov[10];
	for (int i = 0; i < 100; i++)
		t[i] = i, v[i] = i % 2 ? NAN : i;
	ck_assert_uint_eq(pd_plot_decimate(ot, ov, t, v, 100, 10), 10);
	for (int i = 0; i < 10; i++)
		ck_assert(!isnan(ov[i]) && (i == 0 || ot[i] > ot[i - 1]));
	ck_assert_double_eq(ot[9], 98);
	ck_assert_uint_eq(pd_plot_decimate(ot, ov, t, v, 100, 0), 0);
}
END_TEST

static const double T3[] = {0, 5, 10}, V3[] = {1, NAN, 2.5};

static char *small_script(const char *dir)
{
	struct pd_plot_line lines[] = {{"base 'a'", T3, V3, 3, 0}};
	struct pd_plot_band bands[] = {{"pre", 0, 5}, {"post", 5, NAN}};
	struct pd_plot_chart c = {.file = "c001.svg",
				  .title = "cpu",
				  .ylabel = "%",
				  .lines = lines,
				  .n_lines = 1,
				  .bands = bands,
				  .n_bands = 2,
				  .event_s = 5,
				  .event_label = "failover"};
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	pd_plot_script(&job, &c, dir);
	/* the points, by hand: (0, 1), a (NaN, NaN) break for the gap, (10, 2.5); then the
	 * gap's mark, from the sample before it to the one after, at the mark's height on the
	 * y2 axis: (0, 0.02), (10, 0.02) */
	const double *d = (const double *)job.data.ptr;
	ck_assert_uint_eq(job.data.len, 10 * sizeof(double));
	ck_assert(d[0] == 0 && d[1] == 1 && isnan(d[2]) && isnan(d[3]) && d[4] == 10 &&
		  d[5] == 2.5 && d[6] == 0 && d[7] == 0.02 && d[8] == 10 && d[9] == 0.02);
	char *script = pd_buf_detach(&job.script);
	pd_plot_discard(&job);
	return script;
}

static void has(const char *s, const char *want)
{
	if (!strstr(s, want)) /* the script can be longer than a check message */
		fprintf(stderr, "script:\n%s\n", s);
	ck_assert_msg(strstr(s, want) != NULL, "missing \"%s\"", want);
}

static int count_str(const char *s, const char *want);

START_TEST(test_plot_script_small_chart)
{
	char *s = small_script("out/charts");
	has(s, "set terminal svg size 720,300 fixed noenhanced");
	has(s, "\nset title 'cpu'");
	has(s, "\nset ylabel '%' offset 1, 0\n");
	/* one axis for every chart, [0, the last point or band end], ticks at round steps */
	has(s, "\nset xrange [0:10]\nset xtics ('0' 0, '5 s' 5, '10 s' 10)\n");
	/* 1 .. 2.5 over about 6 ticks (190 px of frame, one per 30): 0.25 */
	has(s, "\nset ytics 0.25\n");
	/* the legend below the tick labels, no 0 forced under values that are not all >= 0 */
	has(s, "\nset key outside bottom center ");
	ck_assert_ptr_null(strstr(s, "set yrange"));
	has(s, "\nset output \"./out/charts/c001.svg\"\n");
	/* the band with a NaN end is left out */
	has(s, "\nset object 2 rectangle from first 0, graph 0 to first 5, graph 1 behind ");
	/* the band: the only object (the white background is drawn into the SVG after
	 * gnuplot, the gap is marked by a plot element, below) */
	ck_assert_int_eq(count_str(s, "set object"), 1);
	ck_assert_ptr_null(strstr(s, "background"));
	/* phase names above the frame, never over the data */
	has(s, "\nset label 2 'pre' at first 0, graph 1 left offset character 0.3, 0.55 ");
	has(s, "\nset arrow 1 from first 5, graph 0 to first 5, graph 1 nohead ");
	/* the points are read as binary from gnuplot's fd 3: 3 records of 16 bytes */
	/* the event's dashed line is named in the legend, not over the data */
	has(s, "\nplot '/dev/fd/3' binary skip=0 record=3 format='%float64%float64' "
	       "with lines linetype 101 title 'base ''a''', \\\n    "
	       " NaN with lines linecolor rgb '#3b3b3b' linewidth 1.2 dashtype 2 title "
	       "'failover', \\\n    '/dev/fd/3' binary skip=48 record=2 "
	       "format='%float64%float64' axes x1y2 with lines linetype 105 "
	       "title 'no sample'\nunset output\n");
	/* the baseline's gap marks: translucent, thick, solid, as a linetype set once */
	has(s, "\nset linetype 105 linecolor rgb '#665b7fa8' linewidth 5 dashtype 1\n");
	char *again = small_script("out/charts");
	ck_assert_str_eq(s, again); /* same chart, same bytes */
	free(again);
	free(s);
}
END_TEST

/* A compact chart of values >= 0: no legend (nor the event in it), the y axis from 0, the
 * last phase's name flush with its end. */
START_TEST(test_plot_script_compact_from_zero)
{
	double t[] = {0, 600, 1200}, v[] = {71, 72, 70};
	struct pd_plot_line line = {"removed", t, v, 3, 2};
	struct pd_plot_band bands[] = {{"pre", 0, 300}, {"post", 300, 1200}};
	struct pd_plot_chart c = {.file = "n1.svg",
				  .lines = &line,
				  .n_lines = 1,
				  .bands = bands,
				  .n_bands = 2,
				  .event_s = 300,
				  .width = 364,
				  .height = 180,
				  .compact = 1,
				  .y_zero = 1};
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	pd_plot_script(&job, &c, "");
	const char *s = job.script.ptr;
	has(s, "set terminal svg size 364,180 ");
	has(s, "\nunset key\n");
	has(s, "\nset yrange [0:*]\n");
	has(s, "\nset offsets 0, 0, graph 0.08, graph 0\n");
	/* 0 .. 72 over 3 ticks (105 px of frame, one per 30): a step of 25 */
	has(s, "\nset ytics 25\n");
	/* 1200 s over about 4 ticks: every 300 s, in seconds as the report's text says times */
	has(s, "\nset xtics ('0' 0, '300 s' 300, '600 s' 600, '900 s' 900, '1200 s' 1200)\n");
	has(s, "\nset label 3 'post' at first 1200, graph 1 right ");
	ck_assert_ptr_null(strstr(s, "NaN with lines"));
	pd_plot_discard(&job);
}
END_TEST

START_TEST(test_plot_script_output_cannot_be_a_pipe_or_home)
{
	char *s = small_script("|touch pwned");
	has(s, "\nset output \"./\\174touch\\040pwned/c001.svg\"\n"); /* '|' ' ' */
	free(s);
	s = small_script("~/x");
	has(s, "\nset output \"./\\176/x/c001.svg\"\n"); /* '~' */
	free(s);
	s = small_script("/abs");
	has(s, "\nset output \"/abs/c001.svg\"\n");
	free(s);
	s = small_script(NULL);
	has(s, "\nset output \"./c001.svg\"\n");
	free(s);
}
END_TEST

START_TEST(test_plot_script_decimates_long_lines)
{
	enum { N = 5000 };
	double *t = malloc(N * sizeof(*t)), *v = malloc(N * sizeof(*v));
	for (int i = 0; i < N; i++)
		t[i] = i, v[i] = i % 7;
	struct pd_plot_line l = {"x", t, v, N, 1};
	struct pd_plot_chart c = {.file = "c.svg",
				  .title = "t",
				  .ylabel = "y",
				  .lines = &l,
				  .n_lines = 1,
				  .event_s = NAN,
				  .width = 200,
				  .height = 150};
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	pd_plot_script(&job, &c, "d");
	has(job.script.ptr, "set terminal svg size 200,150 ");
	ck_assert_ptr_null(strstr(job.script.ptr, "set arrow")); /* no event */
	has(job.script.ptr, " binary skip=0 record=400 ");       /* 2 x width */
	ck_assert_uint_eq(job.data.len, 400 * 2 * sizeof(double));
	/* a second chart of the same size: the terminal is not set again, and its
	 * points follow the first chart's (400 x 16 bytes) */
	pd_plot_script(&job, &c, "d");
	ck_assert_ptr_null(strstr(strstr(job.script.ptr, "set terminal") + 1, "set terminal"));
	has(job.script.ptr, " binary skip=6400 record=400 ");
	pd_plot_discard(&job);
	free(t);
	free(v);
}
END_TEST

/* Counts the <text> elements of the SVG whose text is want. */
static int svg_count_text(xmlNodePtr n, const char *want)
{
	int count = 0;
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (strcmp((const char *)n->name, "text") == 0) {
			xmlChar *c = xmlNodeGetContent(n);
			count += strcmp((const char *)c, want) == 0;
			xmlFree(c);
		}
		count += svg_count_text(n->children, want);
	}
	return count;
}

static int count_str(const char *s, const char *want)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, want)); p++)
		n++;
	return n;
}

static xmlDocPtr read_svg(const char *path)
{
	return xmlReadFile(path, NULL,
			   XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
}

/* The attack: quotes, system() and backquotes in every string that reaches
 * gnuplot. The real gnuplot renders it; nothing runs, and the text comes out as text. */
START_TEST(test_plot_run_hostile_strings_stay_text)
{
	char dir[] = "/tmp/pd-plot-XXXXXX", pwn1[64], pwn2[64], evil[512], svg[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(pwn1, sizeof(pwn1), "%s/pwned1", dir);
	snprintf(pwn2, sizeof(pwn2), "%s/pwned2", dir);
	snprintf(evil, sizeof(evil),
		 "it's \"m\" '; system(\"touch %s\"); ' `touch %s` @x <b>&amp; ]]> \\U+0001 \n"
		 "set output '%s/x'",
		 pwn1, pwn2, dir);
	double t[] = {0, 10, 20}, v[] = {1, 2, 1.5}, nan3[] = {NAN, NAN, NAN};
	struct pd_plot_line lines[] = {{evil, t, v, 3, 0}, {evil, t, v, 3, 7}};
	struct pd_plot_band bands[] = {{evil, 0, 10}};
	struct pd_plot_chart c = {.file = "c1.svg",
				  .title = evil,
				  .ylabel = evil,
				  .lines = lines,
				  .n_lines = 2,
				  .bands = bands,
				  .n_bands = 1,
				  .event_s = 10,
				  .event_label = evil};
	struct pd_plot_line empty = {"none", t, nan3, 3, 1};
	struct pd_plot_chart c2 = {.file = "c2.svg",
				   .title = evil,
				   .ylabel = "y",
				   .lines = &empty,
				   .n_lines = 1,
				   .event_s = NAN};
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	struct pd_err err = PD_ERR_INIT;
	pd_plot_script(&job, &c, dir);
	pd_plot_script(&job, &c2, dir);
	ck_assert_int_eq(pd_plot_run(&job, &err), 0);
	ck_assert_int_eq(access(pwn1, F_OK), -1);
	ck_assert_int_eq(access(pwn2, F_OK), -1);

	/* by hand: the newline dropped, "]]>" and "\U" split by a zero-width space */
	char want[512];
	snprintf(want, sizeof(want),
		 "it's \"m\" '; system(\"touch %s\"); ' `touch %s` @x <b>&amp; ]]" ZWSP
		 "> \\" ZWSP "U+0001 set output '%s/x'",
		 pwn1, pwn2, dir);
	snprintf(svg, sizeof(svg), "%s/c1.svg", dir);
	xmlDocPtr x = read_svg(svg);
	ck_assert_msg(x != NULL, "%s is not well-formed XML", svg);
	/* title, y label, phase label, event label and the two legend entries */
	ck_assert_int_eq(svg_count_text(xmlDocGetRootElement(x), want), 6);
	ck_assert_int_eq(svg_count_text(xmlDocGetRootElement(x), "20 s"), 1); /* a tic */
	xmlFreeDoc(x);
	/* trimmed, the same SVG is well-formed and holds the same texts and lines */
	struct pd_buf whole = PD_BUF_INIT;
	ck_assert_int_eq(pd_file_read(&whole, svg, 1 << 20, &err), 0);
	size_t before = whole.len;
	/* the point symbols of <defs> were drawn over by the card (nothing uses them) and
	 * trimming drops what is left of them, spaces; every line drawn stays */
	ck_assert_ptr_null(strstr(whole.ptr, "<defs>"));
	int paths = count_str(whole.ptr, "<path"), texts = count_str(whole.ptr, "<text");
	pd_plot_svg_trim(&whole);
	ck_assert_uint_lt(whole.len, before * 3 / 4);
	ck_assert_int_eq(count_str(whole.ptr, "<path"), paths);
	ck_assert_int_eq(count_str(whole.ptr, "<text"), texts);
	ck_assert_ptr_null(strstr(whole.ptr, "<defs>"));
	x = xmlReadMemory(whole.ptr, (int)whole.len, "trimmed.svg", NULL, XML_PARSE_NONET);
	ck_assert_ptr_nonnull(x);
	ck_assert_int_eq(svg_count_text(xmlDocGetRootElement(x), want), 6);
	ck_assert_int_eq(svg_count_text(xmlDocGetRootElement(x), "20 s"), 1);
	xmlFreeDoc(x);
	pd_buf_release(&whole);
	snprintf(svg, sizeof(svg), "%s/c2.svg", dir);
	x = read_svg(svg);
	ck_assert_ptr_nonnull(x);
	ck_assert_int_eq(svg_count_text(xmlDocGetRootElement(x), "no data"), 1);
	xmlFreeDoc(x);

	snprintf(svg, sizeof(svg), "%s/c1.svg", dir);
	unlink(svg);
	snprintf(svg, sizeof(svg), "%s/c2.svg", dir);
	unlink(svg);
	ck_assert_int_eq(rmdir(dir), 0); /* nothing else was written there */
}
END_TEST

/* Runs gnuplot on a script written by hand, with no points. */
static int run_raw(const char *script, struct pd_err *err)
{
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	pd_buf_adds(&job.script, script);
	return pd_plot_run(&job, err);
}

START_TEST(test_plot_run_reports_gnuplot_error)
{
	static const char script[] = "set terminal svg\nset output '/dev/null'\n"
				     "set nonsense 'line 9: not this'\nplot x\n";
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(run_raw(script, &err), PD_EIO);
	ck_assert_int_eq(err.code, PD_EIO);
	/* gnuplot 5.4: "line 0: unrecognized option - see 'help set'." after the echo */
	ck_assert_msg(strncmp(err.msg, "gnuplot failed: unrecognized option", 35) == 0, "%s",
		      err.msg);
	ck_assert_ptr_null(strchr(err.msg, '\n'));
}
END_TEST

START_TEST(test_plot_run_reports_missing_gnuplot)
{
	static const char script[] = "print 1\n";
	struct pd_err err = PD_ERR_INIT;
	/* PATH put back before any assertion: with CK_FORK=no (valgrind) the suite's later
	 * tests run in this process and start the real gnuplot */
	char *path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	setenv("PATH", "/nonexistent", 1);
	int rc = run_raw(script, &err);
	setenv("PATH", path, 1);
	free(path);
	ck_assert_int_eq(rc, PD_EIO);
	ck_assert_str_eq(err.msg, "gnuplot not found: install gnuplot-nox");
}
END_TEST

/* gnuplot quits on the first line: the charts after it are missing, which is an error
 * (the script reaches gnuplot as a file; nothing is left pending or blocked). */
START_TEST(test_plot_run_survives_gnuplot_quitting_early)
{
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	pd_buf_adds(&job.script, "exit\n");
	while (job.script.len < (4 << 20))
		pd_buf_adds(&job.script,
			    "# padding padding padding padding padding padding padding\n");
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(pd_plot_run(&job, &err), PD_EIO);
	ck_assert_str_eq(err.msg, "gnuplot stopped before the end of its script");
	sigset_t cur, pending;
	pthread_sigmask(SIG_BLOCK, NULL, &cur);
	ck_assert(!sigismember(&cur, SIGPIPE));
	sigpending(&pending);
	ck_assert(!sigismember(&pending, SIGPIPE));
	ck_assert_uint_eq(job.script.len, 0); /* the job let go of its buffers */
}
END_TEST

/* Lines without a finite point are left out of the plot command and take no bytes; NaN
 * at the ends of a line is trimmed, so the second line's points start at byte 0 and
 * hold exactly its two finite points. No line at all is a "no data" frame. */
START_TEST(test_plot_script_skips_empty_lines_and_trims_gaps)
{
	double t[] = {0, 1, 2, 3}, nan4[] = {NAN, NAN, NAN, NAN}, v[] = {NAN, 4, 5, NAN};
	struct pd_plot_line lines[] = {{"empty", t, nan4, 4, 0}, {"two", t, v, 4, 1}};
	struct pd_plot_chart c = {
		.file = "c.svg", .lines = lines, .n_lines = 2, .event_s = NAN};
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	pd_plot_script(&job, &c, "d");
	has(job.script.ptr, "\nplot '/dev/fd/3' binary skip=0 record=2 ");
	has(job.script.ptr, " title 'two'\n");
	ck_assert_ptr_null(strstr(job.script.ptr, "'empty'"));
	const double *d = (const double *)job.data.ptr;
	ck_assert_uint_eq(job.data.len, 4 * sizeof(double));
	ck_assert(d[0] == 1 && d[1] == 4 && d[2] == 2 && d[3] == 5);
	pd_plot_discard(&job);
	c.n_lines = 0;
	pd_plot_script(&job, &c, "d");
	has(job.script.ptr, "\nplot NaN notitle\n");
	ck_assert_uint_eq(job.data.len, 0);
	pd_plot_discard(&job);
}
END_TEST

/* A chart of one line, no title, no event. */
static struct pd_plot_chart one_line(const char *file, const struct pd_plot_line *l)
{
	return (struct pd_plot_chart){.file = file, .lines = l, .n_lines = 1, .event_s = NAN};
}

/* A compact panel of 364 x 180 (three to a row make an SVG 1108 wide) of one line. */
static struct pd_plot_chart panel_of(const char *file, const char *title,
				     const struct pd_plot_line *l)
{
	struct pd_plot_chart c = one_line(file, l);
	c.title = title, c.width = 364, c.height = 180, c.compact = 1;
	return c;
}

/* The terminal is set again when the size changes, and only then. */
START_TEST(test_plot_script_sets_terminal_per_size)
{
	double t[] = {0, 1}, v[] = {1, 2};
	struct pd_plot_line l = {"x", t, v, 2, 0};
	struct pd_plot_chart c = one_line("c.svg", &l);
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	pd_plot_script(&job, &c, "d");
	pd_plot_script(&job, &c, "d");
	c.width = 300;
	pd_plot_script(&job, &c, "d");
	const char *first = strstr(job.script.ptr, "set terminal svg size 720,300 ");
	ck_assert_ptr_nonnull(first);
	const char *second = strstr(first + 1, "set terminal");
	ck_assert_ptr_nonnull(second);
	ck_assert(strncmp(second, "set terminal svg size 300,300 ", 30) == 0);
	ck_assert_ptr_null(strstr(second + 1, "set terminal"));
	pd_plot_discard(&job);
}
END_TEST

/* The line styles are linetypes, set once in a script, with its first chart's terminal
 * (a later "reset" keeps linetypes), not again for each chart. */
START_TEST(test_plot_script_sets_line_types_once)
{
	double t[] = {0, 1}, v[] = {1, 2};
	struct pd_plot_line l = {"x", t, v, 2, 3};
	struct pd_plot_chart c = one_line("c.svg", &l);
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	for (int i = 0; i < 3; i++)
		pd_plot_script(&job, &c, "d");
	const char *s = job.script.ptr;
	/* the four styles, then their gap marks' */
	ck_assert_int_eq(count_str(s, "set linetype "), 8);
	ck_assert_int_eq(count_str(s, "set style line"), 0);
	ck_assert(strstr(s, "set linetype 101 ") < strstr(s, "set terminal"));
	has(s, "\nset linetype 104 linecolor rgb '#7b4fa6' linewidth 1.6 dashtype 1\n");
	ck_assert_int_eq(count_str(s, "with lines linetype 104 title 'x'"), 3);
	pd_plot_discard(&job);
}
END_TEST

/* The value of attribute name of the first element called tag whose attribute key is
 * val, searched depth first (caller frees), or NULL. */
static char *svg_attr(xmlNodePtr n, const char *tag, const char *key, const char *val,
		      const char *name)
{
	for (; n; n = n->next) {
		if (n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, tag)) {
			xmlChar *k = xmlGetProp(n, (const xmlChar *)key);
			int hit = k && !strcmp((const char *)k, val);
			xmlFree(k);
			if (hit)
				return (char *)xmlGetProp(n, (const xmlChar *)name);
		}
		char *found = svg_attr(n->children, tag, key, val, name);
		if (found)
			return found;
	}
	return NULL;
}

static int count_char(const char *s, char c)
{
	int n = 0;
	for (; *s; s++)
		n += *s == c;
	return n;
}

/* The real gnuplot breaks a line at the binary (NaN, NaN) pair: the baseline's path is
 * the legend sample (M L) and two pieces (M L, M L), where a joined line would be one
 * M and four L. */
START_TEST(test_plot_run_breaks_lines_at_gaps)
{
	char dir[] = "/tmp/pd-plot-XXXXXX", svg[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	double t[] = {0, 1, 2, 3, 4}, v[] = {1, 2, NAN, 3, 4};
	struct pd_plot_line l = {"b", t, v, 5, 0};
	struct pd_plot_chart c = one_line("g.svg", &l);
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	struct pd_err err = PD_ERR_INIT;
	pd_plot_script(&job, &c, dir);
	ck_assert_int_eq(pd_plot_run(&job, &err), 0);
	snprintf(svg, sizeof(svg), "%s/g.svg", dir);
	xmlDocPtr x = read_svg(svg);
	ck_assert_ptr_nonnull(x);
	/* line style 1 is #5b7fa8: gnuplot writes it as rgb( 91, 127, 168) */
	char *d =
		svg_attr(xmlDocGetRootElement(x), "path", "stroke", "rgb( 91, 127, 168)", "d");
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(count_char(d, 'M'), 3);
	ck_assert_int_eq(count_char(d, 'L'), 3);
	xmlFree(d);
	xmlFreeDoc(x);
	unlink(svg);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* Values gnuplot cannot draw as they are (it reads |y| >= DBL_MAX / 2 as undefined: "all
 * points y value undefined!"; a tick step under the smallest normal double is 0:
 * "increment must be positive") are drawn by the real gnuplot in units of 10^e, e the
 * exponent of the largest magnitude, and the y axis names the unit; each failed before.
 * Ordinary values keep their unit and their bytes. */
START_TEST(test_plot_run_draws_extreme_values_in_a_unit)
{
#define TIMES "\xc3\x97" /* U+00D7 */
	static const struct {
		double v[3];
		const char *unit; /* the y label, NULL: as it was */
	} cases[] = {
		{{DBL_MAX, 1.7e308, DBL_MAX}, "%, " TIMES "1e308"},
		{{9e307, 8.99e307, 9e307}, "%, " TIMES "1e307"},
		{{-DBL_MAX, DBL_MAX, 0}, "%, " TIMES "1e308"},
		{{0x1p-1074, 0x1p-1073, 0x3p-1074}, "%, " TIMES "1e-323"},
		{{0, 3e-320, 2e-320}, "%, " TIMES "1e-320"},
		/* a subnormal spread above a normal value */
		{{1e-299, 1e-299 + 1e-314, 1e-299}, "%, " TIMES "1e-299"},
		{{1e300, 1.5e300, 1e300}, "%, " TIMES "1e300"},
		{{1e299, 1e-299, -3}, NULL},
		{{0, 0, 0}, NULL},
	};
	char dir[] = "/tmp/pd-plot-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (size_t k = 0; k < sizeof(cases) / sizeof(*cases); k++) {
		double t[] = {0, 5, 10};
		struct pd_plot_line l = {"b", t, cases[k].v, 3, 0};
		struct pd_plot_chart c = one_line("x.svg", &l);
		struct pd_plot_job job = PD_PLOT_JOB_INIT;
		struct pd_err err = PD_ERR_INIT;
		struct pd_buf want = PD_BUF_INIT;
		c.ylabel = "%";
		pd_plot_script(&job, &c, dir);
		pd_buf_addf(&want, "\nset ylabel '%s' offset",
			    cases[k].unit ? cases[k].unit : "%");
		has(job.script.ptr, want.ptr);
		/* drawn: the values in the unit, finite, within 10 of 0 */
		const double *d = (const double *)job.data.ptr;
		for (size_t i = 0; cases[k].unit && i < 3; i++)
			ck_assert_msg(isfinite(d[2 * i + 1]) && fabs(d[2 * i + 1]) < 10,
				      "case %zu: %g", k, d[2 * i + 1]);
		ck_assert_msg(pd_plot_run(&job, &err) == 0, "case %zu: %s", k, err.msg);
		pd_buf_release(&want);
		pd_plot_discard(&job);
	}
	char svg[64];
	snprintf(svg, sizeof(svg), "%s/x.svg", dir);
	unlink(svg);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* A chart of runs (a history's feature by run): the x axis counts runs 1..n with bare
 * whole-number ticks (it read "30 s, 60 s" for run positions), and each segment's name
 * sits at its start, where the segment's first run is; a last segment too narrow for its
 * name has it flush with its end, inside the frame. */
START_TEST(test_plot_script_runs_axis_names_segments_at_their_start)
{
	double t[100], v[100];
	for (int i = 0; i < 100; i++)
		t[i] = i + 1, v[i] = i < 30 ? 1 : 2;
	struct pd_plot_line l = {"each run", t, v, 100, 1};
	struct pd_plot_band wide[2] = {{"7.6.0-1000", 0.5, 30.5}, {"7.6.0-1210", 30.5, 100.5}};
	struct pd_plot_band narrow[2] = {{"7.6.0-1000", 0.5, 96.5},
					 {"7.6.0-1693", 96.5, 100.5}};
	struct pd_plot_chart c = one_line("h.svg", &l);
	c.x_runs = 1, c.bands = wide, c.n_bands = 2;
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	pd_plot_script(&job, &c, "out");
	has(job.script.ptr, "\nset xrange [0.5:100.5]\nset xtics ('1' 1, '20' 20, '40' 40, "
			    "'60' 60, '80' 80, '100' 100)\n");
	ck_assert_ptr_null(strstr(job.script.ptr, " s'"));
	has(job.script.ptr, "\nset label 2 '7.6.0-1000' at first 0.5, graph 1 left ");
	has(job.script.ptr, "\nset label 3 '7.6.0-1210' at first 30.5, graph 1 left ");
	pd_plot_discard(&job);
	job = (struct pd_plot_job)PD_PLOT_JOB_INIT;
	c.bands = narrow;
	pd_plot_script(&job, &c, "out");
	has(job.script.ptr, "\nset label 3 '7.6.0-1693' at first 100.5, graph 1 right ");
	pd_plot_discard(&job);
}
END_TEST

/* Panels: four charts of 364 x 180 three to a row are one SVG of 3 x 364 + 2 x 8 = 1108
 * by 2 x 180 + 8 = 368 pixels, one output and one terminal; the fourth panel opens the
 * second row at the left edge (origin 0, 0); the framed one gets its colour. gnuplot
 * draws them into one well-formed file holding the four titles. */
START_TEST(test_plot_panels_one_svg)
{
	char dir[] = "/tmp/pd-plot-XXXXXX", svg[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	double t[] = {0, 600, 1200}, v[] = {1, 2, 3};
	struct pd_plot_line l = {"x", t, v, 3, 1};
	static const char *const titles[] = {"p-one", "p-two", "p-three", "p-four"};
	struct pd_plot_chart c[4];
	const struct pd_plot_chart *pc[4];
	for (int k = 0; k < 4; k++) {
		c[k] = panel_of("g.svg", titles[k], &l);
		pc[k] = &c[k];
	}
	c[3].frame = "#d62728";
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	struct pd_err err = PD_ERR_INIT;
	pd_plot_script_panels(&job, pc, 4, 3, dir);
	const char *s = job.script.ptr;
	ck_assert_int_eq(count_str(s, "set output "), 1);
	ck_assert_int_eq(count_str(s, "set terminal "), 1);
	has(s, "set terminal svg size 1108,368 ");
	ck_assert_int_eq(count_str(s, "\nset multiplot\n"), 1);
	ck_assert_int_eq(count_str(s, "\nset origin "), 4);
	has(s, "\nset origin 0.000000, 0.000000\n");
	ck_assert_ptr_null(strstr(s, "set object")); /* cards and frames: drawn after */
	ck_assert_int_eq(pd_plot_run(&job, &err), 0);
	snprintf(svg, sizeof(svg), "%s/g.svg", dir);
	xmlDocPtr x = read_svg(svg);
	ck_assert_ptr_nonnull(x);
	/* the fourth card, at (0, 180 + 8), framed in red 2 wide half a pixel inside */
	char *d = svg_attr(xmlDocGetRootElement(x), "path", "stroke", "#d62728", "d");
	ck_assert_str_eq(d, "M0.5 188.5h363v179h-363z");
	xmlFree(d);
	for (int k = 0; k < 4; k++)
		ck_assert_int_eq(svg_count_text(xmlDocGetRootElement(x), titles[k]), 1);
	xmlFreeDoc(x);
	unlink(svg);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* Where gnuplot put the <text> want: its group's translate(x, y); 0 when none. */
static int text_at(xmlNodePtr n, const char *want, double *x, double *y)
{
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (!strcmp((const char *)n->name, "text") && n->parent) {
			xmlChar *c = xmlNodeGetContent(n);
			xmlChar *tr = xmlGetProp(n->parent, (const xmlChar *)"transform");
			int hit = !strcmp((const char *)c, want) && tr &&
				  sscanf((const char *)tr, "translate(%lf,%lf)", x, y) == 2;
			xmlFree(c);
			xmlFree(tr);
			if (hit)
				return 1;
		}
		if (text_at(n->children, want, x, y))
			return 1;
	}
	return 0;
}

/* The cards and frames perfdelta draws into gnuplot's SVG: five panels of 364 x 180,
 * three to a row, 8 apart: cards at (0, 0), (372, 0), (744, 0), (0, 188), (372, 188)
 * (x = column x (364 + 8), y = row x (180 + 8), from the top left), white, under
 * everything gnuplot drew (before its first group); frames half a pixel inside each card
 * (363 x 179 from x + 0.5, y + 0.5), grey and 1 wide, the framed second panel red and 2
 * wide, over everything (last before </svg>). Each panel's title, drawn by gnuplot, lies
 * inside its card; nothing refers to the <defs> the cards were written over. */
START_TEST(test_plot_panels_cards_sit_under_their_panels)
{
	char dir[] = "/tmp/pd-plot-XXXXXX", path[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	double t[] = {0, 600, 1200}, v[] = {1, 2, 3};
	struct pd_plot_line l = {"x", t, v, 3, 0};
	static const char *const titles[] = {"c-0", "c-1", "c-2", "c-3", "c-4"};
	static const int at[5][2] = {{0, 0}, {372, 0}, {744, 0}, {0, 188}, {372, 188}};
	struct pd_plot_chart c[5];
	const struct pd_plot_chart *pc[5];
	for (int k = 0; k < 5; k++) {
		c[k] = panel_of("g.svg", titles[k], &l);
		pc[k] = &c[k];
	}
	c[1].frame = "#d62728";
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	struct pd_err err = PD_ERR_INIT;
	struct pd_buf svg = PD_BUF_INIT;
	pd_plot_script_panels(&job, pc, 5, 3, dir);
	ck_assert_int_eq(pd_plot_run(&job, &err), 0);
	snprintf(path, sizeof(path), "%s/g.svg", dir);
	ck_assert_int_eq(pd_file_read(&svg, path, 1 << 24, &err), 0);
	const char *card = strstr(svg.ptr, "<path fill=\"#ffffff\" d=\"M0 0h364v180h-364z"
					   "M372 0h364v180h-364zM744 0h364v180h-364z"
					   "M0 188h364v180h-364zM372 188h364v180h-364z\"/>");
	const char *red =
		strstr(svg.ptr, "<path fill=\"none\" stroke=\"#d62728\" "
				"stroke-width=\"2\" d=\"M372.5 0.5h363v179h-363z\"/>");
	static const char grey_frames[] =
		"<path fill=\"none\" stroke=\"#dfe3e8\" stroke-width=\"1\" d=\"M0.5 "
		"0.5h363v179h-363zM744.5 0.5h363v179h-363zM0.5 188.5h363v179h-363zM372.5 "
		"188.5h363v179h-363z\"/></svg>\n";
	const char *grey = strstr(svg.ptr, grey_frames);
	ck_assert_msg(card && red && grey, "cards or frames missing or misplaced");
	ck_assert_int_eq(count_str(svg.ptr, "#ffffff"), 1);
	/* the last element */
	ck_assert_ptr_eq(grey + strlen(grey_frames), svg.ptr + svg.len);
	/* in gnuplot's canvas, before the first group it draws; the frames after all */
	ck_assert(strstr(svg.ptr, "<g id=\"gnuplot_canvas\">") < card);
	ck_assert(strstr(svg.ptr, "<g ") == strstr(svg.ptr, "<g id=\"gnuplot_canvas\">"));
	ck_assert(strstr(card, "<g ") && strstr(card, "<g ") < red && red < grey);
	ck_assert_ptr_null(strstr(svg.ptr, "<defs>"));
	ck_assert_ptr_null(strstr(svg.ptr, "xlink:href"));
	ck_assert_ptr_null(strstr(svg.ptr, "url(#"));
	xmlDocPtr x = xmlReadMemory(svg.ptr, (int)svg.len, "g.svg", NULL, XML_PARSE_NONET);
	ck_assert_ptr_nonnull(x);
	for (int k = 0; k < 5; k++) {
		double tx = -1, ty = -1;
		ck_assert(text_at(xmlDocGetRootElement(x), titles[k], &tx, &ty));
		ck_assert_msg(tx > at[k][0] && tx < at[k][0] + 364 && ty > at[k][1] &&
				      ty < at[k][1] + 180,
			      "%s at (%g, %g), outside its card", titles[k], tx, ty);
	}
	xmlFreeDoc(x);
	pd_buf_release(&svg);
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* A chart that draws points keeps the <defs> they refer to: its card goes in before them
 * (the SVG rewritten), white over the whole 720 x 300, and every point's symbol is
 * there. */
START_TEST(test_plot_card_keeps_the_point_symbols)
{
	char dir[] = "/tmp/pd-plot-XXXXXX", path[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	double t[] = {1, 10, 100}, v[] = {5, 6, 7}, ticks[] = {1, 10, 100};
	struct pd_plot_line l = {"x", t, v, 3, 0};
	struct pd_plot_chart c = one_line("p.svg", &l);
	c.xticks = ticks, c.n_xticks = 3;
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	struct pd_err err = PD_ERR_INIT;
	struct pd_buf svg = PD_BUF_INIT;
	pd_plot_script(&job, &c, dir);
	ck_assert_int_eq(pd_plot_run(&job, &err), 0);
	snprintf(path, sizeof(path), "%s/p.svg", dir);
	ck_assert_int_eq(pd_file_read(&svg, path, 1 << 24, &err), 0);
	const char *card = strstr(svg.ptr, "<path fill=\"#ffffff\" d=\"M0 0h720v300h-720z\"/>");
	ck_assert_ptr_nonnull(card);
	ck_assert_ptr_eq(strstr(svg.ptr, "<defs>"),
			 card + strlen("<path fill=\"#ffffff\" "
				       "d=\"M0 0h720v300h-720z\"/>"));
	ck_assert_int_ge(count_str(svg.ptr, "xlink:href='#gpPt6'"), 3); /* the points */
	ck_assert_ptr_nonnull(strstr(svg.ptr, "id='gpPt6'"));
	ck_assert_str_eq(svg.ptr + svg.len - 7, "</svg>\n");
	pd_buf_release(&svg);
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* A canvas of panels is clear between its cards (as the page is) also when a chart with its
 * white background came before it in the same gnuplot (gnuplot 5.4 keeps a terminal's
 * background into every later terminal: a canvas after a chart was white); the chart
 * is white under everything. */
START_TEST(test_plot_panels_clear_after_a_chart)
{
	char dir[] = "/tmp/pd-plot-XXXXXX", path[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	double t[] = {0, 600, 1200}, v[] = {1, 2, 3};
	struct pd_plot_line l = {"x", t, v, 3, 1};
	struct pd_plot_chart one = one_line("one.svg", &l), c[2];
	const struct pd_plot_chart *pc[2] = {&c[0], &c[1]};
	for (int k = 0; k < 2; k++)
		c[k] = panel_of("two.svg", "p", &l);
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	struct pd_err err = PD_ERR_INIT;
	pd_plot_script(&job, &one, dir);
	pd_plot_script_panels(&job, pc, 2, 3, dir);
	ck_assert_int_eq(pd_plot_run(&job, &err), 0);
	/* one.svg: white over its whole 720 x 300; two.svg, 2 x 364 + 8 = 736 wide: a
	 * canvas of no colour (gnuplot's), white under its two cards only */
	static const char *const want[][2] = {
		{"<rect x=\"0\" y=\"0\" width=\"720\" height=\"300\" fill=\"none\"/>",
		 "<path fill=\"#ffffff\" d=\"M0 0h720v300h-720z\"/>"},
		{"<rect x=\"0\" y=\"0\" width=\"736\" height=\"180\" fill=\"none\"/>",
		 "<path fill=\"#ffffff\" d=\"M0 0h364v180h-364zM372 0h364v180h-364z\"/>"}};
	static const char *const files[] = {"one.svg", "two.svg"};
	for (int i = 0; i < 2; i++) {
		struct pd_buf svg = PD_BUF_INIT;
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		ck_assert_int_eq(pd_file_read(&svg, path, 1 << 24, &err), 0);
		for (int k = 0; k < 2; k++)
			ck_assert_msg(strstr(svg.ptr, want[i][k]) != NULL, "%s lacks %s",
				      files[i], want[i][k]);
		ck_assert_int_eq(count_str(svg.ptr, "#ffffff"), 1);
		ck_assert_ptr_null(strstr(svg.ptr, "255, 255, 255"));
		pd_buf_release(&svg);
		unlink(path);
	}
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* Draws the panels into dir/g.svg (fresh: each from "reset" in full); its text into svg,
 * the number of "reset" commands returned. */
static int draw_panels(struct pd_buf *svg, const struct pd_plot_chart *const *pc, size_t n,
		       const char *dir, int fresh)
{
	char path[64];
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	struct pd_err err = PD_ERR_INIT;
	job.fresh = fresh;
	pd_plot_script_panels(&job, pc, n, 3, dir);
	int resets = count_str(job.script.ptr, "\nreset\n");
	ck_assert_int_eq(pd_plot_run(&job, &err), 0);
	snprintf(path, sizeof(path), "%s/g.svg", dir);
	ck_assert_int_eq(pd_file_read(svg, path, 1 << 24, &err), 0);
	unlink(path);
	return resets;
}

/* A panel after one that sets the same kinds of settings gets only the lines that
 * changed (gnuplot keeps the rest), else "reset" and all of them; the real gnuplot draws
 * the SVG byte for byte as from "reset" every panel. Panels: 0 from zero with a note and
 * a gap; 1 the same kinds (carried); 2 negative values, no note, no gap, another unit
 * (reset: no yrange, note or y2range); 3 like 2 (carried); 4 no data (reset); 5 like 3
 * after it (reset); 6 like 5, framed (carried): 4 resets against 7. */
START_TEST(test_plot_panels_carry_draws_as_from_reset)
{
	char dir[] = "/tmp/pd-plot-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	double t[] = {0, 300, 600, 900, 1200}, a[] = {1, 2, NAN, 3, 4}, b[] = {5, 1, NAN, 8, 3},
	       m[] = {-1, 2, -3, 4, -5}, z[] = {-10, 20, -30, 40, 50},
	       none[] = {NAN, NAN, NAN, NAN, NAN};
	const double *v[] = {a, b, m, z, none, m, z};
	static const char *const units[] = {"%", "%", "MiB", "GiB", "%", "GiB", "MiB"};
	struct pd_plot_band bands[] = {{"pre", 0, 500}, {"post", 500, 1200}};
	struct pd_plot_line l[7];
	struct pd_plot_chart c[7];
	const struct pd_plot_chart *pc[7];
	for (int k = 0; k < 7; k++) {
		l[k] = (struct pd_plot_line){"x", t, v[k], 5, k % 2};
		c[k] = (struct pd_plot_chart){.file = "g.svg",
					      .title = units[k],
					      .ylabel = units[k],
					      .lines = &l[k],
					      .n_lines = 1,
					      .bands = bands,
					      .n_bands = 2,
					      .event_s = 500,
					      .width = 364,
					      .height = 180,
					      .compact = 1,
					      .y_zero = k < 2,
					      .note = k < 2 ? "not in the target run" : NULL};
		pc[k] = &c[k];
	}
	c[6].frame = "#d62728";
	struct pd_buf carried = PD_BUF_INIT, fresh = PD_BUF_INIT;
	ck_assert_int_eq(draw_panels(&carried, pc, 7, dir, 0), 4);
	ck_assert_int_eq(draw_panels(&fresh, pc, 7, dir, 1), 7);
	ck_assert_uint_eq(carried.len, fresh.len);
	ck_assert(memcmp(carried.ptr, fresh.ptr, fresh.len) == 0);
	ck_assert_int_eq(count_str(carried.ptr, "not in the target run"), 2);
	pd_buf_release(&carried);
	pd_buf_release(&fresh);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* The panels of an SVG carry the settings of the last panel of the SVG before (gnuplot
 * keeps settings across outputs and terminals): after the two panels of a.svg (736 x 180),
 * the three of b.svg (1108 x 180, a new terminal) need no "reset", and the real gnuplot
 * draws b.svg byte for byte as when it is drawn alone; after a chart of its own ("reset"
 * and its settings), the next SVG's first panel starts from "reset" again. */
START_TEST(test_plot_panels_carry_from_the_svg_before)
{
	char dir[] = "/tmp/pd-plot-XXXXXX", path[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	double t[] = {0, 300, 600, 900, 1200}, m[] = {-1, 2, -3, 4, -5},
	       z[] = {-10, 20, -30, 40, 50};
	static const char *const titles[] = {"a0", "a1", "b0", "b1", "b2"};
	struct pd_plot_band bands[] = {{"pre", 0, 500}, {"post", 500, 1200}};
	struct pd_plot_line l[5];
	struct pd_plot_chart c[5];
	const struct pd_plot_chart *pc[5];
	for (int k = 0; k < 5; k++) {
		l[k] = (struct pd_plot_line){"x", t, k % 2 ? z : m, 5, k % 2};
		c[k] = (struct pd_plot_chart){.file = k < 2 ? "a.svg" : "b.svg",
					      .title = titles[k],
					      .ylabel = k % 2 ? "GiB" : "MiB",
					      .lines = &l[k],
					      .n_lines = 1,
					      .bands = bands,
					      .n_bands = 2,
					      .event_s = 500,
					      .width = 364,
					      .height = 180,
					      .compact = 1};
		pc[k] = &c[k];
	}
	struct pd_plot_job job = PD_PLOT_JOB_INIT, alone = PD_PLOT_JOB_INIT,
			   after = PD_PLOT_JOB_INIT;
	struct pd_err err = PD_ERR_INIT;
	struct pd_buf carried = PD_BUF_INIT, fresh = PD_BUF_INIT;
	pd_plot_script_panels(&job, pc, 2, 3, dir);
	pd_plot_script_panels(&job, pc + 2, 3, 3, dir);
	ck_assert_int_eq(count_str(job.script.ptr, "\nreset\n"), 1);
	ck_assert_int_eq(count_str(job.script.ptr, "\nset terminal "), 2);
	ck_assert_int_eq(pd_plot_run(&job, &err), 0);
	snprintf(path, sizeof(path), "%s/b.svg", dir);
	ck_assert_int_eq(pd_file_read(&carried, path, 1 << 24, &err), 0);
	pd_plot_script_panels(&alone, pc + 2, 3, 3, dir);
	ck_assert_int_eq(pd_plot_run(&alone, &err), 0);
	ck_assert_int_eq(pd_file_read(&fresh, path, 1 << 24, &err), 0);
	ck_assert_uint_eq(carried.len, fresh.len);
	ck_assert(memcmp(carried.ptr, fresh.ptr, fresh.len) == 0);
	ck_assert_int_eq(count_str(carried.ptr, ">b2</text>"), 1); /* its last title */
	pd_plot_script_panels(&after, pc, 2, 3, dir);
	pd_plot_script(&after, &c[0], dir);
	pd_plot_script_panels(&after, pc + 2, 3, 3, dir);
	ck_assert_int_eq(count_str(after.script.ptr, "\nreset\n"), 3);
	pd_plot_discard(&after);
	pd_buf_release(&carried);
	pd_buf_release(&fresh);
	unlink(path);
	snprintf(path, sizeof(path), "%s/a.svg", dir);
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* The gap marks of a script: the (start, end) of each mark of its element in colour
 * (segments (a, 0), (z, 0) apart by (NaN, NaN) breaks), read from the job's points into
 * out (at most max / 2 marks); returns how many. */
static size_t gap_pairs(const struct pd_plot_job *job, const char *color, double *out,
			size_t max)
{
	char want[64];
	int lt = 0; /* the linetype set to the colour at 40 % (#66) */
	snprintf(want, sizeof(want), "linecolor rgb '#66%s' linewidth 5 ", color + 1);
	const char *def = strstr(job->script.ptr, want);
	while (def && def > job->script.ptr && def[-1] != '\n')
		def--;
	if (!def || sscanf(def, "set linetype %d ", &lt) != 1)
		return 0;
	snprintf(want, sizeof(want), "axes x1y2 with lines linetype %d ", lt);
	const char *p = strstr(job->script.ptr, want), *q = p;
	size_t skip = 0, records = 0, k = 0;
	while (q && q > job->script.ptr && strncmp(q, "'/dev/fd/", 9))
		q--;
	if (!p || !q ||
	    sscanf(q, "'/dev/fd/%*d' binary skip=%zu record=%zu", &skip, &records) != 2)
		return 0;
	const double *d = (const double *)(job->data.ptr + skip);
	for (size_t r = 0; r + 1 < records && k + 1 < max; r++)
		if (!isnan(d[2 * r]) && !isnan(d[2 * r + 2]))
			out[k++] = d[2 * r], out[k++] = d[2 * r + 2], r++;
	return k / 2;
}

/* A missing sample is a gap, marked along the bottom of the frame in the line's colour,
 * from the last sample before it to the first after (never a dash pattern: dashes are the
 * removed node and the event); before the first sample and after the last there is no
 * gap; two gaps less than a pixel apart (1200 s / 720 px = 1.67 s) are one mark, and the
 * legend names the marks. One plot element draws them all (gnuplot's cost is per
 * command and per byte), a thick line on the y2 axis held to [0, 1]. */
START_TEST(test_plot_gap_is_marked_not_dashed)
{
	double t[] = {0, 5, 10, 15, 20, 21, 22, 23, 600, 1200, 1205};
	double v[] = {NAN, 1, NAN, 2, 3, NAN, 3.5, 4, NAN, 5, NAN};
	struct pd_plot_line l = {"base", t, v, 11, 0};
	struct pd_plot_chart c = one_line("g.svg", &l);
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	pd_plot_script(&job, &c, "");
	const char *s = job.script.ptr;
	double g[8];
	/* 5..15; 20..22 and 23..1200 are 1 s apart: one mark; 15 to 20 is 5 s: two */
	ck_assert_uint_eq(gap_pairs(&job, "#5b7fa8", g, 8), 2);
	ck_assert(g[0] == 5 && g[1] == 15 && g[2] == 20 && g[3] == 1200);
	ck_assert_int_eq(count_str(s, "axes x1y2"), 1);
	has(s, "\nset y2range [0:1]\n");
	has(s, "' axes x1y2 with lines linetype 105 title 'no sample'");
	has(s, "set linetype 105 linecolor rgb '#665b7fa8' linewidth 5 dashtype 1\n");
	has(s, "linetype 101 title 'base'");
	has(s, "set linetype 101 linecolor rgb '#5b7fa8' linewidth 1.6 dashtype 1\n");
	/* the marks' height, 0.02 of the y2 axis, is in the points (no using expression) */
	size_t skip = 0, records = 0;
	const char *q = strstr(s, "axes x1y2");
	while (q > s && strncmp(q, "'/dev/fd/", 9))
		q--;
	ck_assert(sscanf(q, "'/dev/fd/%*d' binary skip=%zu record=%zu", &skip, &records) == 2);
	const double *d = (const double *)(job.data.ptr + skip);
	for (size_t r = 0; r < records; r++)
		ck_assert(isnan(d[2 * r]) ? isnan(d[2 * r + 1]) : d[2 * r + 1] == 0.02);
	pd_plot_discard(&job);
}
END_TEST

/* gnuplot's error names the chart it was drawing: the second chart's output directory
 * does not exist. */
START_TEST(test_plot_run_names_the_failing_chart)
{
	char dir[] = "/tmp/pd-plot-XXXXXX", svg[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	double t[] = {0, 1}, v[] = {1, 2};
	struct pd_plot_line l = {"x", t, v, 2, 0};
	struct pd_plot_chart c1 = one_line("one.svg", &l);
	struct pd_plot_chart c2 = one_line("two.svg", &l);
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	struct pd_err err = PD_ERR_INIT;
	pd_plot_script(&job, &c1, dir);
	pd_plot_script(&job, &c2, "/nonexistent/pd-plot");
	ck_assert_int_eq(pd_plot_run(&job, &err), PD_EIO);
	/* gnuplot 5.4: "cannot open file; output not changed" */
	ck_assert_msg(
		strncmp(err.msg, "gnuplot failed drawing two.svg: cannot open file", 48) == 0,
		"%s", err.msg);
	snprintf(svg, sizeof(svg), "%s/one.svg", dir);
	ck_assert_int_eq(unlink(svg), 0); /* the first chart was drawn */
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

static int open_fds(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/fd");
	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* A running gnuplot is killed and reaped at once, and no descriptor stays open. */
START_TEST(test_plot_discard_stops_a_running_gnuplot)
{
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	struct pd_err err = PD_ERR_INIT;
	int before = open_fds();
	pd_buf_adds(&job.script, "pause 60\n");
	ck_assert_int_eq(pd_plot_start(&job, 0, &err), 0);
	pid_t pid = job.pid;
	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(kill(pid, 0), 0); /* running */
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pd_plot_discard(&job);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ck_assert_int_lt(t1.tv_sec - t0.tv_sec, 5);
	ck_assert_int_eq(waitpid(pid, NULL, WNOHANG), -1); /* reaped: not our child now */
	ck_assert_int_eq(errno, ECHILD);
	ck_assert_int_eq(open_fds(), before);
	ck_assert_int_eq(job.pid, 0);
}
END_TEST

/* One gnuplot, two parts: a chart scripted before the start and one after, given with
 * pd_plot_follow; the second reads its points from the sequel's file (fd 5). */
START_TEST(test_plot_sequel_draws_after_the_start)
{
	char dir[] = "/tmp/pd-plot-XXXXXX", svg[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	double t[] = {0, 1}, v[] = {1, 2}, w[] = {5, 7};
	struct pd_plot_line l1 = {"first", t, v, 2, 0}, l2 = {"second", t, w, 2, 1};
	struct pd_plot_chart c1 = one_line("one.svg", &l1);
	struct pd_plot_chart c2 = one_line("two.svg", &l2);
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	struct pd_err err = PD_ERR_INIT;
	pd_plot_script(&job, &c1, dir);
	has(job.script.ptr, "'/dev/fd/3' binary skip=0 record=2 ");
	ck_assert_int_eq(pd_plot_start(&job, 1, &err), 0);
	pd_plot_script(&job, &c2, dir);
	has(job.script.ptr, "set terminal svg size 720,300 "); /* a new script sets it */
	has(job.script.ptr, "'/dev/fd/5' binary skip=0 record=2 ");
	ck_assert_int_eq(pd_plot_follow(&job, &err), 0);
	ck_assert_int_eq(pd_plot_wait(&job, &err), 0);
	const char *names[] = {"one.svg", "two.svg"}, *texts[] = {"first", "second"};
	for (int i = 0; i < 2; i++) {
		snprintf(svg, sizeof(svg), "%s/%s", dir, names[i]);
		xmlDocPtr x = read_svg(svg);
		ck_assert_msg(x != NULL, "%s missing or not XML", svg);
		ck_assert_int_eq(svg_count_text(xmlDocGetRootElement(x), texts[i]), 1);
		xmlFreeDoc(x);
		unlink(svg);
	}
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* Started with no chart and two sequels (gnuplot starts up while they are computed): each
 * sequel reads its points from its own file (fd 5, then 7), both are drawn, and an error
 * in the second names the second's chart by the line of its own script. */
START_TEST(test_plot_two_sequels_after_an_empty_start)
{
	char dir[] = "/tmp/pd-plot-XXXXXX", svg[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	double t[] = {0, 1}, v[] = {1, 2}, w[] = {5, 7};
	struct pd_plot_line l1 = {"first", t, v, 2, 0}, l2 = {"second", t, w, 2, 1};
	struct pd_plot_chart c1 = one_line("one.svg", &l1), c2 = one_line("two.svg", &l2);
	struct pd_plot_chart c3 = one_line("three.svg", &l2);
	for (int broken = 0; broken < 2; broken++) {
		struct pd_plot_job job = PD_PLOT_JOB_INIT;
		struct pd_err err = PD_ERR_INIT;
		ck_assert_int_eq(pd_plot_start(&job, 2, &err), 0);
		pd_plot_script(&job, &c1, dir);
		has(job.script.ptr, "'/dev/fd/5' binary skip=0 record=2 ");
		ck_assert_int_eq(pd_plot_follow(&job, &err), 0);
		pd_plot_script(&job, &c2, dir);
		if (broken)
			pd_plot_script(&job, &c3, "/nonexistent/pd-plot");
		has(job.script.ptr, "'/dev/fd/7' binary skip=0 record=2 ");
		ck_assert_int_eq(pd_plot_follow(&job, &err), 0);
		ck_assert_int_eq(pd_plot_wait(&job, &err), broken ? PD_EIO : 0);
		if (broken)
			ck_assert_msg(
				strncmp(err.msg,
					"gnuplot failed drawing three.svg: cannot open file",
					50) == 0,
				"%s", err.msg);
		const char *names[] = {"one.svg", "two.svg"}, *texts[] = {"first", "second"};
		for (int i = 0; i < 2; i++) {
			snprintf(svg, sizeof(svg), "%s/%s", dir, names[i]);
			xmlDocPtr x = read_svg(svg);
			ck_assert_msg(x != NULL, "%s missing or not XML", svg);
			ck_assert_int_eq(svg_count_text(xmlDocGetRootElement(x), texts[i]), 1);
			xmlFreeDoc(x);
			unlink(svg);
		}
	}
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* A sequel promised but never given: the wait ends gnuplot's wait and says the script
 * stopped short, instead of hanging. */
START_TEST(test_plot_sequel_never_given_is_an_error)
{
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	struct pd_err err = PD_ERR_INIT;
	pd_buf_adds(&job.script, "print 1\n");
	ck_assert_int_eq(pd_plot_start(&job, 1, &err), 0);
	ck_assert_int_eq(pd_plot_wait(&job, &err), PD_EIO);
	ck_assert_str_eq(err.msg, "gnuplot stopped before the end of its script");
}
END_TEST

/* An error in the sequel names the sequel's chart, by the line of its own script. */
START_TEST(test_plot_sequel_error_names_its_chart)
{
	char dir[] = "/tmp/pd-plot-XXXXXX", svg[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	double t[] = {0, 1}, v[] = {1, 2};
	struct pd_plot_line l = {"x", t, v, 2, 0};
	struct pd_plot_chart c1 = one_line("one.svg", &l);
	struct pd_plot_chart c2 = one_line("two.svg", &l);
	struct pd_plot_chart c3 = one_line("three.svg", &l);
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	struct pd_err err = PD_ERR_INIT;
	pd_plot_script(&job, &c1, dir);
	pd_plot_script(&job, &c2, dir);
	ck_assert_int_eq(pd_plot_start(&job, 1, &err), 0);
	pd_plot_script(&job, &c1, dir);
	pd_plot_script(&job, &c3, "/nonexistent/pd-plot");
	ck_assert_int_eq(pd_plot_follow(&job, &err), 0);
	ck_assert_int_eq(pd_plot_wait(&job, &err), PD_EIO);
	ck_assert_msg(
		strncmp(err.msg, "gnuplot failed drawing three.svg: cannot open file", 50) == 0,
		"%s", err.msg);
	const char *names[] = {"one.svg", "two.svg"};
	for (int i = 0; i < 2; i++) {
		snprintf(svg, sizeof(svg), "%s/%s", dir, names[i]);
		ck_assert_int_eq(unlink(svg), 0);
	}
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* gnuplot gone before the sequel is given: the write to its pipe fails with EPIPE, no
 * SIGPIPE kills us or stays pending, and the wait says what happened. */
START_TEST(test_plot_sequel_to_a_dead_gnuplot)
{
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	struct pd_err err = PD_ERR_INIT;
	pd_buf_adds(&job.script, "exit\n");
	ck_assert_int_eq(pd_plot_start(&job, 1, &err), 0);
	siginfo_t info;
	ck_assert_int_eq(waitid(P_PID, (id_t)job.pid, &info, WEXITED | WNOWAIT), 0);
	ck_assert_int_eq(pd_plot_follow(&job, &err), 0);
	sigset_t cur, pending;
	pthread_sigmask(SIG_BLOCK, NULL, &cur);
	ck_assert(!sigismember(&cur, SIGPIPE));
	sigpending(&pending);
	ck_assert(!sigismember(&pending, SIGPIPE));
	ck_assert_int_eq(pd_plot_wait(&job, &err), PD_EIO);
	ck_assert_str_eq(err.msg, "gnuplot stopped before the end of its script");
}
END_TEST

/* gnuplot gets its descriptors 0 to 6 and nothing else of ours: a descriptor left open
 * without close-on-exec (fd 20 here) does not reach it. The script, ours, lists what a
 * shell that gnuplot starts has open. */
START_TEST(test_plot_child_gets_no_stray_descriptor)
{
	char dir[] = "/tmp/pd-plot-XXXXXX", list[64], script[256], got[256] = "";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	int stray = fcntl(open("/dev/null", O_RDONLY), F_DUPFD, 20);
	ck_assert_int_eq(stray, 20);
	snprintf(list, sizeof(list), "%s/fds", dir);
	snprintf(script, sizeof(script),
		 "set print '%s'\nprint system('ls /proc/self/fd | sort -n | tr \"\\n\" \" "
		 "\"')\nset print\n", /* then back to stderr, for the end-of-script mark */
		 list);
	struct pd_plot_job job = PD_PLOT_JOB_INIT;
	struct pd_err err = PD_ERR_INIT;
	pd_buf_adds(&job.script, script);
	ck_assert_int_eq(pd_plot_run(&job, &err), 0);
	FILE *f = fopen(list, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(got, sizeof(got), f));
	fclose(f);
	/* the shell's 0-6 from gnuplot, and the one ls opens to read the directory */
	ck_assert_msg(strstr(got, " 20 ") == NULL && strncmp(got, "0 1 2 3 ", 8) == 0, "%s",
		      got);
	close(stray);
	unlink(list);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

Suite *pd_suite_plot(void)
{
	Suite *s = suite_create("plot");
	TCase *tc = tcase_create("plot");
	tcase_add_test(tc, test_plot_quote_doubles_quotes_and_leaves_the_rest_literal);
	tcase_add_test(tc, test_plot_script_compact_from_zero);
	tcase_add_test(tc, test_plot_quote_keeps_the_svg_well_formed);
	tcase_add_test(tc, test_plot_decimate_short_input_is_unchanged);
	tcase_add_test(tc, test_plot_decimate_picks_largest_triangles);
	tcase_add_test(tc, test_plot_decimate_extreme_wins_its_bucket);
	tcase_add_test(tc, test_plot_decimate_spike_survives_long_flat_series);
	tcase_add_test(tc, test_plot_decimate_keeps_gaps);
	tcase_add_test(tc, test_plot_decimate_joins_when_gaps_are_too_many);
	tcase_add_test(tc, test_plot_script_small_chart);
	tcase_add_test(tc, test_plot_script_output_cannot_be_a_pipe_or_home);
	tcase_add_test(tc, test_plot_script_decimates_long_lines);
	tcase_add_test(tc, test_plot_run_hostile_strings_stay_text);
	tcase_add_test(tc, test_plot_run_reports_gnuplot_error);
	tcase_add_test(tc, test_plot_run_reports_missing_gnuplot);
	tcase_add_test(tc, test_plot_run_survives_gnuplot_quitting_early);
	tcase_add_test(tc, test_plot_script_skips_empty_lines_and_trims_gaps);
	tcase_add_test(tc, test_plot_script_sets_terminal_per_size);
	tcase_add_test(tc, test_plot_run_breaks_lines_at_gaps);
	tcase_add_test(tc, test_plot_run_names_the_failing_chart);
	tcase_add_test(tc, test_plot_discard_stops_a_running_gnuplot);
	tcase_add_test(tc, test_plot_sequel_draws_after_the_start);
	tcase_add_test(tc, test_plot_two_sequels_after_an_empty_start);
	tcase_add_test(tc, test_plot_sequel_never_given_is_an_error);
	tcase_add_test(tc, test_plot_sequel_error_names_its_chart);
	tcase_add_test(tc, test_plot_sequel_to_a_dead_gnuplot);
	tcase_add_test(tc, test_plot_child_gets_no_stray_descriptor);
	tcase_add_test(tc, test_plot_panels_one_svg);
	tcase_add_test(tc, test_plot_panels_cards_sit_under_their_panels);
	tcase_add_test(tc, test_plot_card_keeps_the_point_symbols);
	tcase_add_test(tc, test_plot_panels_carry_draws_as_from_reset);
	tcase_add_test(tc, test_plot_panels_carry_from_the_svg_before);
	tcase_add_test(tc, test_plot_panels_clear_after_a_chart);
	tcase_add_test(tc, test_plot_gap_is_marked_not_dashed);
	tcase_add_test(tc, test_plot_script_sets_line_types_once);
	tcase_add_test(tc, test_plot_run_draws_extreme_values_in_a_unit);
	tcase_add_test(tc, test_plot_script_runs_axis_names_segments_at_their_start);
	suite_add_tcase(s, tc);
	return s;
}
