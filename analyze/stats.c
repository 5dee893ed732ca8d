/* Descriptive statistics, Mann-Whitney, block-bootstrap delta CI, multiple-test
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

void pd_stats_summary(struct pd_summary *out, const double *t, const double *v, size_t n)
{
	out->n = n;
	out->slope = 0;
	if (n == 0) {
		out->mean = out->median = out->p5 = out->p95 = out->min = out->max = NAN;
		return;
	}
	double *s = pd_xmalloc(n * sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	out->mean = sum / (double)n;
	out->median = pd_stats_quantile_sorted(s, n, 0.5);
	out->p5 = pd_stats_quantile_sorted(s, n, 0.05);
	out->p95 = pd_stats_quantile_sorted(s, n, 0.95);
	out->min = s[0];
	out->max = s[n - 1];
	if (n >= 2)
		out->slope = ols_slope(t, v, n, out->mean);
	free(s);
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

struct tagged {
	double v;
	int from_x;
};

static int cmp_tagged(const void *a, const void *b)
{
	return cmp_double(&((const struct tagged *)a)->v, &((const struct tagged *)b)->v);
}

/* Rank sum of x in the pooled sample (midranks for ties); *ties gets sum(t^3 - t). */
static double rank_sum_x(const double *x, size_t nx, const double *y, size_t ny, double *ties)
{
	size_t n = nx + ny;
	struct tagged *a = pd_xmalloc(n * sizeof(*a));
	for (size_t i = 0; i < nx; i++)
		a[i] = (struct tagged){x[i], 1};
	for (size_t i = 0; i < ny; i++)
		a[nx + i] = (struct tagged){y[i], 0};
	qsort(a, n, sizeof(*a), cmp_tagged);
	double rx = 0;
	*ties = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1, in_x = 0;
		while (j < n && a[j].v == a[i].v)
			j++;
		double t = (double)(j - i), midrank = (double)(i + 1 + j) / 2;
		for (size_t k = i; k < j; k++)
			in_x += (size_t)a[k].from_x;
		rx += midrank * (double)in_x;
		*ties += t * t * t - t;
		i = j;
	}
	free(a);
	return rx;
}

double pd_stats_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
                             int inflate, double *u_out)
{
	if (u_out)
		*u_out = 0;
	if (nx == 0 || ny == 0)
		return 1;
	double ties, dx = (double)nx, dy = (double)ny, n = dx + dy;
	double u = rank_sum_x(x, nx, y, ny, &ties) - dx * (dx + 1) / 2;
	if (u_out)
		*u_out = u;
	double var = dx * dy / 12 * ((n + 1) - ties / (n * (n - 1)));
	if (inflate) {
		double fx = dx / pd_stats_neff(nx, pd_stats_lag1(x, nx));
		double fy = dy / pd_stats_neff(ny, pd_stats_lag1(y, ny));
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

/* ---- block bootstrap ---- */

struct rng {
	uint64_t s[4];
};

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256** (Blackman and Vigna). */
static uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* Uniform in [0, m), m > 0, without modulo bias (rejection of the short tail). */
static uint64_t rng_below(struct rng *r, uint64_t m)
{
	uint64_t limit = (UINT64_MAX % m + 1) % m; /* 2^64 mod m */
	uint64_t x;
	do
		x = rng_next(r);
	while (x < limit);
	return x % m;
}

/* One series prepared for resampling. A resample only repeats the series' own values,
 * so its k-th smallest is sorted[k-th smallest rank]: counting ranks finds it in O(n)
 * with no comparisons: 6-7x faster than a quickselect of the values (about 1.3 against
 * 9 ms for 240 + 240 samples and 1000 reps at -O2), with bit-identical results. */
struct boot {
	size_t n, l;    /* samples, block length */
	double *sorted; /* the values in increasing order */
	size_t *rank;   /* rank[i]: position of v[i] in sorted */
};

static size_t block_len(size_t n)
{
	size_t l = 1;
	while (l * l * l < n) /* ceil(cbrt(n)) in integers: exact at cubes */
		l++;
	return l;
}

static void boot_init(struct boot *b, const double *v, size_t n)
{
	struct ranked *r = sort_ranked(v, n);
	b->n = n;
	b->l = block_len(n);
	b->sorted = pd_xmalloc(n * sizeof(*b->sorted));
	b->rank = pd_xmalloc(n * sizeof(*b->rank));
	for (size_t k = 0; k < n; k++) {
		b->sorted[k] = r[k].v;
		b->rank[r[k].i] = k;
	}
	free(r);
}

static void boot_release(struct boot *b)
{
	free(b->sorted);
	free(b->rank);
}

/* The value of the k-th smallest rank counted in cnt[0..n). */
static double kth_counted(const struct boot *b, const size_t *cnt, size_t k)
{
	size_t seen = 0, i = 0;
	while ((seen += cnt[i]) <= k)
		i++;
	return b->sorted[i];
}

/* Type-7 median of one moving-block resample: blocks of b->l consecutive samples from
 * uniform starts in [0, n - l], concatenated and cut at n. cnt has room for n counts. */
static double boot_median(const struct boot *b, size_t *cnt, struct rng *r)
{
	size_t n = b->n, l = b->l;
	memset(cnt, 0, n * sizeof(*cnt));
	for (size_t len = 0; len < n;) {
		const size_t *rk = b->rank + rng_below(r, n - l + 1);
		size_t take = n - len < l ? n - len : l;
		for (size_t j = 0; j < take; j++)
			cnt[rk[j]]++;
		len += take;
	}
	size_t k = (n - 1) / 2;
	double lo = kth_counted(b, cnt, k);
	if (n % 2)
		return lo;
	return lo + 0.5 * (kth_counted(b, cnt, k + 1) - lo); /* as pd_stats_quantile_sorted */
}

/* Fills deltas with the resampled deltas whose baseline median is not 0; returns how
 * many. y is drawn even for a skipped rep, so one stream serves both series. */
static size_t boot_deltas(double *deltas, const struct boot *bx, const struct boot *by,
                          unsigned reps, uint64_t seed)
{
	size_t *cnt = pd_xmalloc((bx->n > by->n ? bx->n : by->n) * sizeof(*cnt));
	struct rng r;
	size_t kept = 0;
	rng_seed(&r, seed);
	for (unsigned i = 0; i < reps; i++) {
		double mx = boot_median(bx, cnt, &r);
		double my = boot_median(by, cnt, &r);
		if (mx != 0)
			deltas[kept++] = 100 * (my - mx) / fabs(mx);
	}
	free(cnt);
	return kept;
}

struct pd_delta_ci pd_stats_delta_ci(const double *x, size_t nx, const double *y, size_t ny,
                                     unsigned reps, double alpha, uint64_t seed)
{
	struct pd_delta_ci ci = {NAN, NAN, NAN};
	if (nx == 0 || ny == 0)
		return ci;
	struct boot bx, by;
	double *deltas = NULL;
	boot_init(&bx, x, nx);
	boot_init(&by, y, ny);
	double mx = pd_stats_quantile_sorted(bx.sorted, nx, 0.5);
	double my = pd_stats_quantile_sorted(by.sorted, ny, 0.5);
	if (mx == 0)
		goto done;
	ci.delta_pct = 100 * (my - mx) / fabs(mx);
	if (reps == 0)
		goto done;
	deltas = pd_xmalloc(reps * sizeof(*deltas));
	size_t kept = boot_deltas(deltas, &bx, &by, reps, seed);
	if (kept * 2 < reps) /* mostly zero baselines: no interval worth reporting */
		goto done;
	qsort(deltas, kept, sizeof(*deltas), cmp_double);
	ci.lo_pct = pd_stats_quantile_sorted(deltas, kept, alpha / 2);
	ci.hi_pct = pd_stats_quantile_sorted(deltas, kept, 1 - alpha / 2);
done:
	free(deltas);
	boot_release(&bx);
	boot_release(&by);
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
