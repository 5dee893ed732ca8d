/* Times the readers' growth: each case parses an input of n elements, then of
 * 4n, and prints the time per element at both and the ratio of the times (4 for a linear
 * reader, 16 for a quadratic one). Best of five runs each, in CPU time. The cases: INI options
 * in one section (the duplicate check), console lines each naming a distinct snapshot, seriesly
 * samples. Last, the INI interpolation bomb (1.7 KB, nine levels of ten references):
 * its time and the process's peak RSS.
 * usage: pd_bench_readers [N]   (default 20000) */
#include "core/buf.h"
#include "core/model.h"
#include "core/xalloc.h"
#include "parse/console.h"
#include "parse/ini.h"
#include "parse/perfdb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); /* CPU: the machine may be loaded */
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void make_ini(struct pd_buf *b, size_t n)
{
	pd_buf_adds(b, "[s]\n");
	for (size_t i = 0; i < n; i++)
		pd_buf_addf(b, "option_%zu = %zu\n", i, i);
}

static void make_console(struct pd_buf *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		pd_buf_addf(
			b,
			"2026-11-02T10:40:05 [INFO] HTML report: "
			"http://cbmonitor/reports/html/?snapshot=iris_710-1345_access_%zu\n",
			i);
}

static void make_seriesly(struct pd_buf *b, size_t n)
{
	pd_buf_addch(b, '{');
	for (size_t i = 0; i < n; i++)
		pd_buf_addf(b, "%s\"%zu\": [%zu.5]", i ? ", " : "", 1700000000000 + 1000 * i,
			    i);
	pd_buf_addch(b, '}');
}

/* One parse of b by the case's reader; its time in s, or -1 on a parse error. */
static double parse_once(const char *kind, const struct pd_buf *b)
{
	struct pd_src src = {b->ptr, b->len, "bench", &pd_limits_default};
	struct pd_err err = PD_ERR_INIT;
	double t0 = now();
	int rc;
	if (!strcmp(kind, "ini")) {
		struct pd_ini ini = {0};
		rc = pd_ini_parse(&ini, &src, &err);
		pd_ini_free(&ini);
	} else if (!strcmp(kind, "console")) {
		struct pd_run *run = pd_run_new("");
		rc = pd_console_parse(run, &src, &err);
		pd_run_free(run);
	} else {
		struct pd_series *s = pd_xcalloc(1, sizeof(*s));
		rc = pd_seriesly_parse(s, &src, &err);
		pd_series_free(s);
	}
	if (rc < 0)
		fprintf(stderr, "pd_bench_readers: %s: %s\n", kind, err.msg);
	return rc < 0 ? -1 : now() - t0;
}

static double best_of_5(const char *kind, size_t n)
{
	struct pd_buf b = PD_BUF_INIT;
	double best = -1;
	if (!strcmp(kind, "ini"))
		make_ini(&b, n);
	else if (!strcmp(kind, "console"))
		make_console(&b, n);
	else
		make_seriesly(&b, n);
	for (int r = 0; r < 5; r++) {
		double t = parse_once(kind, &b);
		if (t < 0)
			exit(1);
		if (best < 0 || t < best)
			best = t;
	}
	pd_buf_release(&b);
	return best;
}

static void one_case(const char *kind, const char *what, size_t n)
{
	double a = best_of_5(kind, n), b = best_of_5(kind, 4 * n);
	printf("%-34s n=%-7zu %8.1f ns/elem  4n=%-7zu %8.1f ns/elem  time ratio %5.2f\n", what,
	       n, a / (double)n * 1e9, 4 * n, b / (double)(4 * n) * 1e9, b / a);
}

/* [DEFAULT] x0 = 1000 A, then xN = %(xN-1)s ten times, nine levels: 1e10 bytes if
 * interpolated in full. */
static void bomb(void)
{
	struct pd_buf b = PD_BUF_INIT;
	struct rusage ru;
	pd_buf_adds(&b, "[DEFAULT]\nx0 = ");
	for (int i = 0; i < 1000; i++)
		pd_buf_addch(&b, 'A');
	for (int k = 1; k <= 9; k++) {
		pd_buf_addf(&b, "\nx%d =", k);
		for (int i = 0; i < 10; i++)
			pd_buf_addf(&b, " %%(x%d)s", k - 1);
	}
	pd_buf_adds(&b, "\n[s]\nk = 1\n");
	double t = parse_once("ini", &b);
	getrusage(RUSAGE_SELF, &ru);
	printf("%-34s %zu bytes: %.3f s, peak RSS of the process %.1f MB\n",
	       "INI interpolation bomb", b.len, t, (double)ru.ru_maxrss / 1024);
	pd_buf_release(&b);
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 20000;
	setvbuf(stdout, NULL, _IOLBF, 0); /* each line out before the bomb */
	one_case("ini", "INI options (one section)", n);
	one_case("console", "console lines, distinct snapshots", n);
	one_case("seriesly", "seriesly samples", n);
	bomb();
	return 0;
}
