/* Tail deltas and slow-request shares with intervals (the method: tails.h). */
#include "tails.h"
#include "infer.h"
#include "stats.h"
#include "../core/rng.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const double pd_tails_pcts[PD_TAILS_PCTS] = {50, 90, 95, 99, 99.9};

size_t pd_tails_need(double p)
{
	return (size_t)llround(PD_POLICY_PCT_BEYOND * 100 / (100 - p));
}

/* ---- the autocovariance, its flat-top sums (Politis and White 2004) ---- */

/* What the flat-top lag window makes of a centred series' autocovariances. */
struct flat_top {
	double g; /* R(0) + 2 sum l(k / M) R(k): the long-run variance */
	double G; /* 2 sum l(k / M) k R(k) */
	size_t M; /* lags with a weight */
};

/* The autocovariance of x[0..n) (centred) at lag k over pairs i = 0, stride, 2 stride, ...
 * (i + k < n): the mean of x_i x_{i+k}, the pairs bounded by the stride. */
static double acov(const double *x, size_t n, size_t k, size_t stride)
{
	double s = 0;
	size_t c = 0;
	for (size_t i = 0; i + k < n; i += stride, c++)
		s += x[i] * x[i + k];
	return c ? s / (double)c : 0;
}

static double flat_weight(double t)
{
	t = fabs(t);
	return t <= 0.5 ? 1 : t <= 1 ? 2 * (1 - t) : 0;
}

/* The flat-top sums of x[0..n) (centred, n >= 2). */
static void flat_top_of(struct flat_top *out, const double *x, size_t n)
{
	size_t kn = (size_t)fmax(5, ceil(sqrt(log10((double)n))));
	size_t max_lag = (size_t)ceil(sqrt((double)n)) + kn;
	size_t pairs = (size_t)(PD_POLICY_TAILS_DRAWS / PD_POLICY_TAILS_RESAMPLES);
	size_t stride = n / pairs + 1;
	double bound = 2 * sqrt(log10((double)n) / (double)n);
	if (max_lag > n - 1)
		max_lag = n - 1;
	double *r = pd_xmalloc((max_lag + 1) * sizeof(*r));
	for (size_t k = 0; k <= max_lag; k++)
		r[k] = acov(x, n, k, stride);
	/* m: the first lag after which kn autocorrelations in a row are small */
	size_t m = max_lag, run = 0;
	for (size_t k = 1; k <= max_lag; k++) {
		run = r[0] > 0 && fabs(r[k] / r[0]) < bound ? run + 1 : 0;
		if (run == kn) {
			m = k - kn;
			break;
		}
	}
	size_t M = 2 * m < max_lag ? 2 * m : max_lag;
	*out = (struct flat_top){.g = r[0], .M = M};
	for (size_t k = 1; k <= M; k++) {
		double w = flat_weight((double)k / (double)M);
		out->g += 2 * w * r[k];
		out->G += 2 * w * (double)k * r[k];
	}
	free(r);
}

/* x[0..n) minus its mean, in place. */
static void centre(double *x, size_t n)
{
	double mean = 0;
	for (size_t i = 0; i < n; i++)
		mean += x[i];
	mean /= (double)n;
	for (size_t i = 0; i < n; i++)
		x[i] -= mean;
}

size_t pd_tails_block_of(const double *x, size_t n)
{
	if (n < 8)
		return 1;
	int logs = 1;
	for (size_t i = 0; i < n && logs; i++)
		logs = x[i] > 0;
	double *c = pd_xmalloc(n * sizeof(*c));
	for (size_t i = 0; i < n; i++)
		c[i] = logs ? log(x[i]) : x[i];
	centre(c, n);
	struct flat_top f;
	flat_top_of(&f, c, n);
	free(c);
	double most = fmin(3 * sqrt((double)n), (double)n / 3);
	if (!(f.g > 0) || f.G == 0)
		return 1;
	double b = cbrt(1.5 * f.G * f.G / (f.g * f.g)) * cbrt((double)n);
	return b < 1 ? 1 : b > most ? (size_t)most : (size_t)ceil(b);
}

/* ---- the block bootstrap of the percentiles ---- */

/* Orders v[lo..hi] so that v[k] is the value of rank k, those before it no larger and
 * those after it no smaller (Hoare's selection, middle pivot: resamples are random). */
static void select_k(double *v, size_t lo, size_t hi, size_t k)
{
	while (lo < hi) {
		double pivot = v[lo + (hi - lo) / 2];
		size_t i = lo, j = hi;
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				double t = v[i];
				v[i] = v[j], v[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

/* The type 7 quantiles of v[0..m) at the percentiles whose status is OK (ascending),
 * logged into out; v is reordered. */
static void quantiles_logged(double *out, double *v, size_t m, const struct pd_tails_side *s)
{
	size_t from = 0;
	for (size_t k = 0; k < PD_TAILS_PCTS; k++) {
		if (s->status[k] != PD_TAILS_OK)
			continue;
		double h = (double)(m - 1) * pd_tails_pcts[k] / 100;
		size_t lo = (size_t)floor(h);
		select_k(v, from, m - 1, lo);
		double x = v[lo], next = x;
		if (lo + 1 < m) { /* rank lo + 1: the least of those after lo */
			next = v[lo + 1];
			for (size_t i = lo + 2; i < m; i++)
				next = v[i] < next ? v[i] : next;
		}
		out[k] = log(x + (h - (double)lo) * (next - x));
		from = lo;
	}
}

/* One circular block resample of v[0..n) into out[0..m), blocks of b. */
static void resample(double *out, size_t m, const double *v, size_t n, size_t b, uint64_t *rng)
{
	for (size_t filled = 0; filled < m;) {
		size_t at = pd_rng_below(rng, n), len = b < m - filled ? b : m - filled;
		for (size_t j = 0; j < len; j++, at = at + 1 == n ? 0 : at + 1)
			out[filled + j] = v[at];
		filled += len;
	}
}

/* The status and figure of every percentile of v[0..n) (sorted here into a copy). */
static int point_of(struct pd_tails_side *out, const double *v, size_t n)
{
	int any = 0;
	double *sorted = n ? pd_xmalloc(n * sizeof(*sorted)) : NULL;
	if (n) {
		memcpy(sorted, v, n * sizeof(*sorted));
		pd_stats_sort(sorted, n);
	}
	for (size_t k = 0; k < PD_TAILS_PCTS; k++) {
		out->status[k] = !n                                    ? PD_TAILS_NONE
				 : n < pd_tails_need(pd_tails_pcts[k]) ? PD_TAILS_FEW
								       : PD_TAILS_OK;
		out->ms[k] = out->se_log[k] = NAN;
		if (out->status[k] == PD_TAILS_OK) {
			out->ms[k] =
				pd_stats_quantile_sorted(sorted, n, pd_tails_pcts[k] / 100);
			any = 1;
		}
	}
	free(sorted);
	return any;
}

/* The percentiles whose figure is not positive have no log: they keep their figure, and
 * their interval is said to lack samples (a latency of 0 ms is no measurement). */
static void drop_nonpositive(struct pd_tails_side *out)
{
	for (size_t k = 0; k < PD_TAILS_PCTS; k++)
		if (out->status[k] == PD_TAILS_OK && !(out->ms[k] > 0))
			out->status[k] = PD_TAILS_FEW;
}

void pd_tails_side_of(struct pd_tails_side *out, const double *v, size_t n,
		      const struct pd_tails_opts *o)
{
	*out = (struct pd_tails_side){.n = n};
	if (!point_of(out, v, n))
		return;
	drop_nonpositive(out);
	size_t m = (size_t)fmin((double)n, o->draws / (double)o->resamples);
	size_t b = o->block ? o->block : pd_tails_block_of(v, n);
	if (m < n) /* m out of n: the block shrinks as m^(1/3) */
		b = (size_t)fmax(1, round((double)b * cbrt((double)m / (double)n)));
	out->block = b, out->m = m, out->resamples = o->resamples;
	double *buf = pd_xmalloc(m * sizeof(*buf)), sum[PD_TAILS_PCTS] = {0},
	       sum2[PD_TAILS_PCTS] = {0}, q[PD_TAILS_PCTS];
	uint64_t rng = o->seed;
	for (size_t r = 0; r < o->resamples; r++) {
		resample(buf, m, v, n, b, &rng);
		quantiles_logged(q, buf, m, out);
		for (size_t k = 0; k < PD_TAILS_PCTS; k++)
			if (out->status[k] == PD_TAILS_OK)
				sum[k] += q[k], sum2[k] += q[k] * q[k];
	}
	free(buf);
	double R = (double)o->resamples;
	for (size_t k = 0; k < PD_TAILS_PCTS; k++) {
		if (out->status[k] != PD_TAILS_OK)
			continue;
		double var = (sum2[k] - sum[k] * sum[k] / R) / (R - 1);
		out->se_log[k] = sqrt(fmax(var, 0) * (double)m / (double)n);
	}
}

void pd_tails_delta_of(struct pd_tails_delta *out, const struct pd_tails_side *base,
		       const struct pd_tails_side *target, double z)
{
	for (size_t k = 0; k < PD_TAILS_PCTS; k++) {
		enum pd_tails_status b = base->status[k], t = target->status[k];
		out[k] = (struct pd_tails_delta){
			.status = b < t ? b : t, .pct = NAN, .lo_pct = NAN, .hi_pct = NAN};
		if (out[k].status != PD_TAILS_OK)
			continue;
		double d = log(target->ms[k] / base->ms[k]);
		double se = hypot(base->se_log[k], target->se_log[k]);
		out[k].pct = 100 * expm1(d);
		out[k].lo_pct = 100 * expm1(d - z * se);
		out[k].hi_pct = 100 * expm1(d + z * se);
	}
}

/* ---- slow-request shares ---- */

/* The variance of the sum of e[0..n) (n >= 2): n^2 times the variance of their mean by
 * the means' noise model (infer.h: the largest of AR(1), AR(p) and batch means). */
static double sum_variance(const double *e, size_t n)
{
	struct pd_sample s;
	struct pd_infer_side side;
	pd_stats_sample_prepare(&s, NULL, e, n, pd_xmalloc(n * sizeof(double)));
	pd_infer_side_of(&side, &s);
	free(s.sorted);
	double se = pd_infer_se_mean(&side) * (double)n;
	return se * se;
}

void pd_tails_share_of(struct pd_tails_share *out, const double *slow, const double *all,
		       size_t n, double step_s)
{
	*out = (struct pd_tails_share){.share = NAN, .se = NAN};
	double *e = pd_xmalloc((n + 1) * sizeof(*e)), *a = pd_xmalloc((n + 1) * sizeof(*a));
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(slow[i]) || !isfinite(all[i]))
			continue;
		e[out->n] = slow[i] * step_s, a[out->n] = all[i] * step_s;
		out->slow_n += e[out->n], out->all_n += a[out->n];
		out->n++;
	}
	if (out->all_n > 0) {
		double R = out->slow_n / out->all_n, V = 0;
		for (size_t i = 0; i < out->n; i++)
			e[i] -= R * a[i]; /* the residuals sum to 0: centred */
		if (out->n >= 2)
			V = sum_variance(e, out->n);
		V = fmax(V, (out->slow_n + 1) * fmax(1 - R, 0));
		out->ok = 1, out->share = R, out->se = sqrt(V) / out->all_n;
	}
	free(e);
	free(a);
}

void pd_tails_share_delta_of(struct pd_tails_share_delta *out,
			     const struct pd_tails_share *base,
			     const struct pd_tails_share *target, double z)
{
	*out = (struct pd_tails_share_delta){.pts = NAN,
					     .lo_pts = NAN,
					     .hi_pts = NAN,
					     .pct = NAN,
					     .lo_pct = NAN,
					     .hi_pct = NAN};
	if (!base->ok || !target->ok)
		return;
	double se = hypot(base->se, target->se), d = target->share - base->share;
	out->ok = 1;
	out->pts = 100 * d, out->lo_pts = 100 * (d - z * se), out->hi_pts = 100 * (d + z * se);
	if (!(base->share > z * base->se) || !(target->share > 0))
		return;
	double l = log(target->share / base->share);
	double sl = hypot(base->se / base->share, target->se / target->share);
	out->has_pct = 1;
	out->pct = 100 * expm1(l);
	out->lo_pct = 100 * expm1(l - z * sl), out->hi_pct = 100 * expm1(l + z * sl);
}
