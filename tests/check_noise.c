#include "check_suites.h"

#include "analyze/infer.h"

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Calibration on real monitoring noise (fixtures/noise/README.md: the series, their
 * sources and licences). The construction, for a window of n samples:
 *  - each real series is standardized (mean 0, sd 1 over its whole trimmed stretch): its
 *    shape is kept (memory, drift, daily cycle, spikes), its unit and level dropped;
 *  - a run's window is level (1 + sd x_i) over a stretch x of n consecutive points, sd
 *    3 % of the level (the seed's CPU noise is 2-4 %), level 100;
 *  - A/A: the baseline and the target are two disjoint stretches of one series at random
 *    offsets (which one comes first at random): what differs is only the noise, its slow
 *    part included (a drift or a daily cycle between the stretches stands for the level a
 *    run takes from one run to the next);
 *  - planted step: the A/A target times 1.10 (+10 %, twice the threshold): the interval
 *    covers the step when it holds log 1.1 - the truth the construction knows - and the
 *    step is found when the verdict is a regression;
 *  - the synthetic rows put AR(1) windows (lag-1 phi, sd 3 %) through the same code.
 * Every delta is judged as one baseline against the target (pd_infer_judge), threshold
 * 5 %, the run-to-run margin of CPU (2.77 %), in a family of m = 40 (each interval at
 * 1 - 0.05 / 40: nominal exclusion of 0 under the null, 0.125 %). */

#define MAX_SERIES 16
#define MAX_POINTS 4096

struct series {
	char name[256];
	double x[MAX_POINTS];
	size_t n;
};

static struct series *all;
static int n_all;

static uint64_t rng;
static double uniform(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return ((double)((z ^ (z >> 31)) >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	double u, v, r;
	do {
		u = 2 * uniform() - 1, v = 2 * uniform() - 1, r = u * u + v * v;
	} while (r >= 1 || r == 0);
	return u * sqrt(-2 * log(r) / r);
}

/* "time,value" lines after a "# kind" comment and a header. */
static void read_series(struct series *s, const char *path)
{
	char line[256];
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s", path);
	s->n = 0;
	while (fgets(line, sizeof(line), f) && s->n < MAX_POINTS) {
		char *comma = strchr(line, ',');
		if (line[0] == '#' || !comma || !strncmp(line, "time,", 5))
			continue;
		s->x[s->n++] = strtod(comma + 1, NULL);
	}
	fclose(f);
	double m = 0, ss = 0;
	for (size_t i = 0; i < s->n; i++)
		m += s->x[i] / (double)s->n;
	for (size_t i = 0; i < s->n; i++)
		ss += (s->x[i] - m) * (s->x[i] - m);
	for (size_t i = 0; i < s->n; i++)
		s->x[i] = (s->x[i] - m) / sqrt(ss / (double)(s->n - 1));
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct series *)a)->name, ((const struct series *)b)->name);
}

static void load_all(void)
{
	char path[1024];
	DIR *d = opendir(PD_SOURCE_DIR "/fixtures/noise");
	struct dirent *e;
	ck_assert_ptr_nonnull(d);
	all = calloc(MAX_SERIES, sizeof(*all));
	n_all = 0;
	while ((e = readdir(d)) && n_all < MAX_SERIES) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 4, ".csv"))
			continue;
		snprintf(path, sizeof(path), "%s/fixtures/noise/%s", PD_SOURCE_DIR, e->d_name);
		snprintf(all[n_all].name, sizeof(all[n_all].name), "%s", e->d_name);
		read_series(&all[n_all++], path);
	}
	closedir(d);
	qsort(all, (size_t)n_all, sizeof(*all), by_name); /* readdir's order is the disk's */
	ck_assert_int_ge(n_all, 10);
}

struct tally {
	int pairs, excl0, false_found, covered, found;
};

static void side_of(struct pd_infer_side *out, const double *v, size_t n)
{
	struct pd_sample s;
	double *sorted = malloc(n * sizeof(*sorted));
	pd_stats_sample_prepare(&s, v, v, n, sorted);
	pd_infer_side_of(out, &s);
	free(sorted);
}

static const struct pd_infer_rule rule_cpu = {
	.threshold_pct = 5, .worse = 1, .nonneg = 1, .margin_pct = 2.7718, .run_sd = 0.01};

/* The model judged (the calibration prints one row set per mode): before issue 23 (AR(1),
 * no margin), issue 23's first model (no run floor), the run floor (today's), and the run
 * floor with Student t at 21 df (the alternative, two sides of 1.5 (8 - 1) df each: the
 * degrees of freedom of batch means of n / 8, Welch's sum), and today's without the
 * run-to-run margin (what the margin costs and what it prevents). */
enum mode { MODE_AR1, MODE_NO_FLOOR, MODE_FLOOR, MODE_FLOOR_T, MODE_NO_MARGIN, MODE_N };
static enum mode mode;
static const double *run_rest; /* the baseline run after its window, run_n points */
static size_t run_n;

/* The method before issue 23, for the comparison: the AR(1) variance of the mean alone
 * (s^2 F(phi, n) / n, s^2 = n_eff var_mean) and no run-to-run margin. */
static void as_ar1(struct pd_infer_side *s)
{
	double s2 = s->n_eff * s->var_mean;
	s->var_mean = s2 * pd_infer_ar1_factor(s->phi, s->n) / (double)s->n;
}

/* One A/A pair and its +10 % twin. */
static void judge(struct tally *t, const double *bx, const double *tx, size_t n)
{
	double b[MAX_POINTS], a[MAX_POINTS], s[MAX_POINTS];
	for (size_t i = 0; i < n; i++) {
		b[i] = 100 * (1 + 0.03 * bx[i]);
		a[i] = 100 * (1 + 0.03 * tx[i]);
		s[i] = 1.10 * a[i];
	}
	struct pd_infer_side sb, sa, ss;
	struct pd_infer_result r;
	const struct pd_infer_family fam = {40, 0.05};
	struct pd_infer_rule rule = rule_cpu;
	side_of(&sb, b, n), side_of(&sa, a, n), side_of(&ss, s, n);
	if (mode == MODE_AR1)
		as_ar1(&sb), as_ar1(&sa), as_ar1(&ss), rule.margin_pct = 0;
	if (mode == MODE_NO_MARGIN)
		rule.margin_pct = 0;
	if ((mode == MODE_FLOOR || mode == MODE_FLOOR_T || mode == MODE_NO_MARGIN) &&
	    run_rest) { /* as analyze/deltas.c: the run's other phase */
		double rest[MAX_POINTS];
		struct pd_infer_floor f = {0};
		for (size_t i = 0; i < run_n; i++)
			rest[i] = 100 * (1 + 0.03 * run_rest[i]);
		pd_infer_floor_add(&f, rest, run_n, n);
		pd_infer_side_floor(&sb, pd_infer_floor_of(&f));
		pd_infer_side_floor(&sa, pd_infer_floor_of(&f));
		pd_infer_side_floor(&ss, pd_infer_floor_of(&f));
	}
	if (mode == MODE_FLOOR_T) { /* t at 21 df: the interval wider by qt / qnorm */
		double h = 0.05 / 80, c = pd_infer_qt(1 - h, 21) / pd_infer_qnorm(1 - h);
		sb.var_mean *= c * c, sa.var_mean *= c * c, ss.var_mean *= c * c;
	}
	pd_infer_judge(&r, &sb, &sa, &rule, &fam);
	t->pairs++;
	t->excl0 += r.lo_pct > 0 || r.hi_pct < 0;
	t->false_found += r.verdict == PD_INFER_REGRESSION || r.verdict == PD_INFER_IMPROVEMENT;
	pd_infer_judge(&r, &sb, &ss, &rule, &fam);
	t->covered += r.lo_pct <= 10 && 10 <= r.hi_pct;
	t->found += r.verdict == PD_INFER_REGRESSION;
}

#define RUN 360 /* samples of a run: one hour at 10 s, as the seed's */

/* 40 A/A pairs a series (one set of seeds): the baseline's window is the first n samples of
 * a run of RUN consecutive points (a pre-event phase; the run's rest is its post phase), the
 * target's window n points outside that run, at random. */
static void real_pairs(struct tally *t, size_t n, int diurnal)
{
	for (int s = 0; s < n_all; s++) {
		const struct series *x = &all[s];
		/* the Microsoft request and ingress series are 1-min samples: n of them hold a
		 * slice of a daily cycle (kept apart: see README.md) */
		int is_diurnal = strstr(x->name, "rps") || strstr(x->name, "ingress");
		if (is_diurnal != diurnal || x->n < RUN + 2 * n + 2)
			continue;
		rng = 2000 + (uint64_t)s;
		for (int k = 0; k < 40; k++) {
			size_t c = (size_t)(uniform() * (double)(x->n - RUN - n));
			size_t before = c >= n ? c - n + 1 : 0, after = x->n - n - c - RUN + 1;
			size_t j = (size_t)(uniform() * (double)(before + after));
			size_t b = j < before ? j : c + RUN + (j - before);
			run_rest = x->x + c + n, run_n = RUN - n;
			judge(t, x->x + c, x->x + b, n);
		}
	}
}

static void ar1(double *v, size_t n, double phi)
{
	double x = gauss(), e = sqrt(1 - phi * phi);
	for (size_t i = 0; i < n; i++)
		v[i] = x, x = phi * x + e * gauss();
}

/* The same on AR(1) noise: a baseline run of RUN and a target window. */
static void synthetic_pairs(struct tally *t, size_t n, double phi, int pairs)
{
	double run[RUN], a[MAX_POINTS];
	rng = 77;
	for (int k = 0; k < pairs; k++) {
		ar1(run, RUN, phi), ar1(a, n, phi);
		run_rest = run + n, run_n = RUN - n;
		judge(t, run, a, n);
	}
}

static void print_row(const char *what, size_t n, const struct tally *t)
{
	printf("noise %-26s n=%3zu: A/A false findings %2d/%d, intervals excluding 0 %5.2f %% "
	       "(nominal 0.125 %%); +10 %% covered %3d/%d, found %3d/%d\n",
	       what, n, t->false_found, t->pairs, 100.0 * t->excl0 / t->pairs, t->covered,
	       t->pairs, t->found, t->pairs);
}

/* The table of the final report: `CK_FORK=no CK_RUN_SUITE=noise build/check_perfdelta`
 * prints it. Asserted on today's model (the run floor): no false finding on any A/A set
 * (real, diurnal, synthetic); +10 % covered in at least 95 % of the real 240-sample pairs
 * and 90 % of the 90-sample ones, 95 % of the synthetic; found in at least 60 % of the real
 * 240-sample pairs. Null exclusion of 0 on the real set: at most 3 of 280 pairs at 240
 * samples (measured 3; nominal 0.35 expected, P(3 or more) = 0.005 under Poisson(0.35): so
 * 1.1 % is the bound the evidence allows, not nominal) and at most 5 % at 90 (measured 5.0 %,
 * 11.4 % without the floor): both guard the measured figures, and infer.h "Short windows"
 * says why nominal is out of reach for one window of real noise. */
START_TEST(test_noise_calibration_real_and_synthetic)
{
	static const char *names[] = {"AR(1), no margin (before issue 23)",
				      "max of three + margin, no run floor",
				      "+ run floor (today's)", "+ run floor, t at 21 df",
				      "+ run floor, no margin (the margin's cost)"};
	const size_t ns[] = {240, 90};
	load_all();
	for (int m = 0; m < MODE_N; m++)
		for (int i = 0; i < 2; i++) {
			struct tally real = {0}, diurnal = {0}, s5 = {0}, s9 = {0};
			mode = (enum mode)m;
			real_pairs(&real, ns[i], 0);
			real_pairs(&diurnal, ns[i], 1);
			synthetic_pairs(&s5, ns[i], 0.5, 320);
			synthetic_pairs(&s9, ns[i], 0.9, 320);
			printf("noise: %s\n", names[m]);
			print_row("real (NAB, MS latency)", ns[i], &real);
			print_row("real diurnal (MS 1-min)", ns[i], &diurnal);
			print_row("synthetic AR(1) phi 0.5", ns[i], &s5);
			print_row("synthetic AR(1) phi 0.9", ns[i], &s9);
			if (mode != MODE_FLOOR)
				continue;
			ck_assert_int_eq(real.false_found + diurnal.false_found, 0);
			ck_assert_int_eq(s5.false_found + s9.false_found, 0);
			ck_assert_int_ge(real.covered,
					 (ns[i] == 240 ? 95 : 90) * real.pairs / 100);
			ck_assert_int_ge(s5.covered, 95 * s5.pairs / 100);
			ck_assert_int_ge(s9.covered, 95 * s9.pairs / 100);
			if (ns[i] == 240) {
				ck_assert_int_le(real.excl0, 3);
				ck_assert_int_ge(real.found, 60 * real.pairs / 100);
			} else {
				ck_assert_int_le(real.excl0, 5 * real.pairs / 100);
			}
		}
	mode = MODE_FLOOR;
	free(all);
}
END_TEST

Suite *pd_suite_noise(void)
{
	Suite *s = suite_create("noise");
	TCase *tc = tcase_create("noise");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_noise_calibration_real_and_synthetic);
	suite_add_tcase(s, tc);
	return s;
}
