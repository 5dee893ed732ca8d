/* Descriptive statistics, Mann-Whitney, the interval of a change of medians, multiple-test
 * adjustment (DESIGN section 4). */
#include "analyze/stats.h"

#include "core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Doubles as unsigned keys in the same order (negative ones bit-flipped). */
static uint64_t key_of(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof(u));
	return (u >> 63) ? ~u : u | (1ull << 63);
}

static double value_of(uint64_t k)
{
	uint64_t u = (k >> 63) ? k & ~(1ull << 63) : ~k;
	double d;
	memcpy(&d, &u, sizeof(d));
	return d;
}

/* LSD radix sort of keys on 8-bit digits: one pass fills all eight histograms, and a
 * digit that every key shares is skipped (most of a series' keys share their top bytes). */
static void radix_sort(uint64_t *a, uint64_t *b, size_t n)
{
	static const size_t zero[8][256];
	size_t(*count)[256] = pd_xmalloc(sizeof(zero));
	memcpy(count, zero, sizeof(zero));
	for (size_t i = 0; i < n; i++)
		for (unsigned d = 0; d < 8; d++)
			count[d][(a[i] >> (8 * d)) & 255]++;
	for (unsigned d = 0; d < 8; d++) {
		size_t *c = count[d], sum = 0, shift = 8 * d;
		if (c[(a[0] >> shift) & 255] == n)
			continue;
		for (size_t k = 0; k < 256; k++) {
			size_t x = c[k];
			c[k] = sum;
			sum += x;
		}
		for (size_t i = 0; i < n; i++)
			b[c[(a[i] >> shift) & 255]++] = a[i];
		memcpy(a, b, n * sizeof(*a));
	}
	free(count);
}

void pd_stats_sort(double *v, size_t n)
{
	if (n < 64) { /* qsort wins on a few dozen */
		qsort(v, n, sizeof(*v), cmp_double);
		return;
	}
	uint64_t *a = pd_xmalloc(n * sizeof(*a)), *b = pd_xmalloc(n * sizeof(*b));
	for (size_t i = 0; i < n; i++)
		a[i] = key_of(v[i]);
	radix_sort(a, b, n);
	for (size_t i = 0; i < n; i++)
		v[i] = value_of(a[i]);
	free(a);
	free(b);
}

struct ranked {
	double v;
	size_t i; /* index in the input */
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	int c = cmp_double(&x->v, &y->v);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* v[0..n) paired with indices, sorted by value (ties by index); caller frees. */
static struct ranked *sort_ranked(const double *v, size_t n)
{
	struct ranked *r = pd_xmalloc(n * sizeof(*r));
	for (size_t i = 0; i < n; i++)
		r[i] = (struct ranked){v[i], i};
	qsort(r, n, sizeof(*r), cmp_ranked);
	return r;
}

double pd_stats_quantile_sorted(const double *sorted, size_t n, double q)
{
	double h = (double)(n - 1) * q;
	size_t lo = (size_t)floor(h);
	if (lo >= n - 1) /* q = 1 (or rounding): no upper neighbour */
		return sorted[n - 1];
	return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

/* Least-squares slope of v on t; 0 when the times do not vary. */
static double ols_slope(const double *t, const double *v, size_t n, double vmean)
{
	double tmean = 0, sxy = 0, sxx = 0;
	for (size_t i = 0; i < n; i++)
		tmean += t[i];
	tmean /= (double)n;
	for (size_t i = 0; i < n; i++) {
		sxy += (t[i] - tmean) * (v[i] - vmean);
		sxx += (t[i] - tmean) * (t[i] - tmean);
	}
	return sxx > 0 ? sxy / sxx : 0;
}

void pd_stats_sample_prepare(struct pd_sample *s, const double *t, const double *v, size_t n,
			     double *sorted)
{
	s->t = t;
	s->v = v;
	s->n = n;
	s->sorted = sorted;
	if (n) /* v may be NULL when empty, and memcpy's arguments must not be */
		memcpy(sorted, v, n * sizeof(*sorted));
	pd_stats_sort(sorted, n);
	s->lag1 = pd_stats_lag1(v, n);
}

void pd_stats_summary_of(struct pd_summary *out, const struct pd_sample *s)
{
	size_t n = s->n;
	out->n = n;
	out->slope = 0;
	if (n == 0) {
		out->mean = out->median = out->p5 = out->p95 = out->min = out->max = NAN;
		return;
	}
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += s->v[i];
	out->mean = sum / (double)n;
	out->median = pd_stats_quantile_sorted(s->sorted, n, 0.5);
	out->p5 = pd_stats_quantile_sorted(s->sorted, n, 0.05);
	out->p95 = pd_stats_quantile_sorted(s->sorted, n, 0.95);
	out->min = s->sorted[0];
	out->max = s->sorted[n - 1];
	if (n >= 2)
		out->slope = ols_slope(s->t, s->v, n, out->mean);
}

void pd_stats_summary(struct pd_summary *out, const double *t, const double *v, size_t n)
{
	struct pd_sample s;
	pd_stats_sample_prepare(&s, t, v, n, pd_xmalloc((n + 1) * sizeof(double)));
	pd_stats_summary_of(out, &s);
	free(s.sorted);
}

double pd_stats_lag1(const double *v, size_t n)
{
	if (n < 3)
		return 0;
	double mean = 0, num = 0, den = 0;
	for (size_t i = 0; i < n; i++)
		mean += v[i];
	mean /= (double)n;
	for (size_t i = 0; i < n; i++) {
		den += (v[i] - mean) * (v[i] - mean);
		if (i + 1 < n)
			num += (v[i] - mean) * (v[i + 1] - mean);
	}
	if (!(den > 0))
		return 0;
	double r = num / den;
	return r < 0 ? 0 : r > 0.99 ? 0.99 : r;
}

double pd_stats_neff(size_t n, double r)
{
	if (n == 0)
		return 0;
	double ne = (double)n * (1 - r) / (1 + r);
	return ne < 1 ? 1 : ne;
}

/* ---- Mann-Whitney ---- */

/* Rank sum of x in the pooled sample (midranks for ties); *ties gets sum(t^3 - t).
 * The two sorted samples are merged: O(n). */
static double rank_sum_x(const double *a, size_t nx, const double *b, size_t ny, double *ties)
{
	double rx = 0;
	size_t i = 0, j = 0, rank = 0; /* ranks before the current group */
	*ties = 0;
	while (i < nx || j < ny) {
		double v = j >= ny || (i < nx && a[i] <= b[j]) ? a[i] : b[j];
		size_t in_x = 0, in_y = 0;
		while (i < nx && a[i] == v)
			i++, in_x++;
		while (j < ny && b[j] == v)
			j++, in_y++;
		double t = (double)(in_x + in_y), midrank = (double)rank + (t + 1) / 2;
		rx += midrank * (double)in_x;
		*ties += t * t * t - t;
		rank += in_x + in_y;
	}
	return rx;
}

double pd_stats_mann_whitney_of(const struct pd_sample *x, const struct pd_sample *y,
				int inflate, double *u_out)
{
	size_t nx = x->n, ny = y->n;
	if (u_out)
		*u_out = 0;
	if (nx == 0 || ny == 0)
		return 1;
	double ties, dx = (double)nx, dy = (double)ny, n = dx + dy;
	double u = rank_sum_x(x->sorted, nx, y->sorted, ny, &ties) - dx * (dx + 1) / 2;
	if (u_out)
		*u_out = u;
	double var = dx * dy / 12 * ((n + 1) - ties / (n * (n - 1)));
	if (inflate) {
		double fx = dx / pd_stats_neff(nx, x->lag1);
		double fy = dy / pd_stats_neff(ny, y->lag1);
		var *= (fx + fy) / 2;
	}
	if (!(var > 0)) /* every value tied: no evidence of a shift */
		return 1;
	/* Continuity correction toward the mean, never past it (R would overshoot when
	 * |U - mean| < 0.5; clamping gives p = 1 there instead). */
	double d = fabs(u - dx * dy / 2) - 0.5;
	double z = d > 0 ? d / sqrt(var) : 0;
	double p = erfc(z / sqrt(2.0)); /* 2 (1 - Phi(z)) */
	return p > 1 ? 1 : p;
}

double pd_stats_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
			     int inflate, double *u_out)
{
	struct pd_sample a, b;
	pd_stats_sample_prepare(&a, x, x, nx, pd_xmalloc((nx + 1) * sizeof(double)));
	pd_stats_sample_prepare(&b, y, y, ny, pd_xmalloc((ny + 1) * sizeof(double)));
	double p = pd_stats_mann_whitney_of(&a, &b, inflate, u_out);
	free(a.sorted);
	free(b.sorted);
	return p;
}

/* ---- the interval of a change of medians ---- */

/* The z of a two-sided interval of level 1 - alpha: erfc^-1(alpha) by Newton's method on
 * erfc (alpha in (0, 1)); 0.05 gives 1.3859 (z = 1.95996). */
static double erfc_inv(double alpha)
{
	double x = 1.0;
	for (int i = 0; i < 50; i++) {
		double f = erfc(x) - alpha, d = -2 / sqrt(M_PI) * exp(-x * x);
		double step = f / d;
		x -= step;
		if (fabs(step) < 1e-15)
			break;
	}
	return x;
}

/* The median of a sample with its standard error under AR(1): the distribution-free
 * interval of the median for n_eff samples, x_(n/2 -+ z sqrt(n)/2), read as the
 * quantiles 0.5 -+ z / (2 sqrt(n_eff)) of the n samples, halved over z. */
static void median_se(double *median, double *se, const struct pd_sample *s)
{
	double z = 1.959963984540054, ne = pd_stats_neff(s->n, s->lag1), h = z / (2 * sqrt(ne));
	double lo = pd_stats_quantile_sorted(s->sorted, s->n, fmax(0, 0.5 - h));
	double hi = pd_stats_quantile_sorted(s->sorted, s->n, fmin(1, 0.5 + h));
	*median = pd_stats_quantile_sorted(s->sorted, s->n, 0.5);
	*se = (hi - lo) / (2 * z);
}

/* The delta method on the ratio of medians (on the log scale when both are positive, so
 * the interval is not symmetric around a large change). */
struct pd_delta_ci pd_stats_delta_ci_of(const struct pd_sample *x, const struct pd_sample *y,
					double alpha)
{
	struct pd_delta_ci ci = {NAN, NAN, NAN};
	if (x->n == 0 || y->n == 0)
		return ci;
	double mx, sx, my, sy, z = sqrt(2.0) * erfc_inv(alpha);
	median_se(&mx, &sx, x);
	median_se(&my, &sy, y);
	if (mx == 0)
		return ci;
	ci.delta_pct = 100 * (my - mx) / fabs(mx);
	if (mx > 0 && my > 0) {
		double rel = sqrt((sx / mx) * (sx / mx) + (sy / my) * (sy / my));
		ci.lo_pct = 100 * (my / mx * exp(-z * rel) - 1);
		ci.hi_pct = 100 * (my / mx * exp(z * rel) - 1);
	} else {
		double se = 100 * sqrt(sy * sy + (my / mx) * (my / mx) * sx * sx) / fabs(mx);
		ci.lo_pct = ci.delta_pct - z * se;
		ci.hi_pct = ci.delta_pct + z * se;
	}
	return ci;
}

struct pd_delta_ci pd_stats_delta_ci(const double *x, size_t nx, const double *y, size_t ny,
				     double alpha)
{
	struct pd_sample a, b;
	pd_stats_sample_prepare(&a, x, x, nx, pd_xmalloc((nx + 1) * sizeof(double)));
	pd_stats_sample_prepare(&b, y, y, ny, pd_xmalloc((ny + 1) * sizeof(double)));
	struct pd_delta_ci ci = pd_stats_delta_ci_of(&a, &b, alpha);
	free(a.sorted);
	free(b.sorted);
	return ci;
}

/* ---- multiple testing ---- */

void pd_stats_holm(double *adj, const double *p, size_t n)
{
	if (n == 0)
		return;
	struct ranked *r = sort_ranked(p, n);
	double run = 0; /* running maximum keeps the adjusted values monotone */
	for (size_t k = 0; k < n; k++) {
		double a = (double)(n - k) * r[k].v;
		if (a > run)
			run = a;
		adj[r[k].i] = run < 1 ? run : 1;
	}
	free(r);
}

void pd_stats_bh(double *adj, const double *p, size_t n)
{
	if (n == 0)
		return;
	struct ranked *r = sort_ranked(p, n);
	double run = 1; /* running minimum from the largest p down */
	for (size_t k = n; k-- > 0;) {
		double a = (double)n / (double)(k + 1) * r[k].v;
		if (a < run)
			run = a;
		adj[r[k].i] = run;
	}
	free(r);
}
