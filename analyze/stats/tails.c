/* Tail deltas and slow-request shares with intervals (the method: tails.h). */
#include "tails.h"
#include "infer.h"
#include "stats.h"
#include "core/buf.h"
#include "core/rng.h"
#include "core/xalloc.h"

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

/* The autocovariance of x[0..n) (centred) at lag k < n, over n (the biased estimate). */
static double acov(const double *x, size_t n, size_t k)
{
	double s = 0;
	for (size_t i = 0; i + k < n; i++)
		s += x[i] * x[i + k];
	return s / (double)n;
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
	double bound = 2 * sqrt(log10((double)n) / (double)n);
	if (max_lag > n - 1)
		max_lag = n - 1;
	double *r = pd_xmalloc((max_lag + 1) * sizeof(*r));
	for (size_t k = 0; k <= max_lag; k++)
		r[k] = acov(x, n, k);
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

/* ---- resamples read through bins: two passes of counting, no copy, no sort ---- */

/* Bins of about equal counts of the stream's values, ordered by value: a resample's order
 * statistic is found by counting its bins, then selected among its values in one bin. */
#define BINS 2048

struct binned {
	const double *v; /* the stream, time order */
	uint16_t *bin;   /* bin[i]: the bin of v[i] */
	size_t n;
};

/* The bin of x: how many edges are no larger (edges[0..BINS - 1), ascending; a binary
 * search without branches, the compiler's conditional moves). */
static uint16_t bin_of(const double *edges, double x)
{
	const double *at = edges;
	for (size_t len = BINS - 1; len > 1;) {
		size_t half = len / 2;
		at = at[half] <= x ? at + half : at;
		len -= half;
	}
	return (uint16_t)((size_t)(at - edges) + (*at <= x));
}

static void binned_of(struct binned *out, const double *v, const double *sorted, size_t n)
{
	double *edges = pd_xmalloc((BINS - 1) * sizeof(*edges));
	for (size_t j = 1; j < BINS; j++)
		edges[j - 1] = sorted[j * n / BINS];
	out->v = v, out->n = n;
	out->bin = pd_xmalloc(n * sizeof(*out->bin));
	for (size_t i = 0; i < n; i++)
		out->bin[i] = bin_of(edges, v[i]);
	free(edges);
}

/* One resample: m samples in blocks of b from random starts, wrapping at the end. */
struct resample {
	size_t *starts; /* ceil(m / b) block starts */
	size_t nb, b, m;
	size_t cnt[BINS]; /* the resample's samples in each bin */
	int slot[BINS];   /* the bins whose values are gathered: their place, else -1 */
	size_t off[2 * PD_TAILS_PCTS + 1], fill[2 * PD_TAILS_PCTS];
	double *buf; /* the gathered values, bin after bin (room for m) */
};

/* The length of block j. */
static size_t block_len(const struct resample *r, size_t j)
{
	return j + 1 < r->nb ? r->b : r->m - j * r->b;
}

static void count_bins(struct resample *r, const struct binned *s)
{
	memset(r->cnt, 0, sizeof(r->cnt));
	for (size_t j = 0; j < r->nb; j++) {
		size_t at = r->starts[j], len = block_len(r, j);
		for (size_t t = 0; t < len; t++, at = at + 1 == s->n ? 0 : at + 1)
			r->cnt[s->bin[at]]++;
	}
}

static void gather_bins(struct resample *r, const struct binned *s)
{
	for (size_t j = 0; j < r->nb; j++) {
		size_t at = r->starts[j], len = block_len(r, j);
		for (size_t t = 0; t < len; t++, at = at + 1 == s->n ? 0 : at + 1) {
			int k = r->slot[s->bin[at]];
			if (k >= 0)
				r->buf[r->off[k] + r->fill[k]++] = s->v[at];
		}
	}
}

/* The values of the resample's ranks[0..nr) (ascending) into x. */
static void order_stats(double *x, struct resample *r, const struct binned *s,
			const size_t *ranks, size_t nr)
{
	size_t c = 0, below = 0, ns = 0, bin_at[2 * PD_TAILS_PCTS], in_bin[2 * PD_TAILS_PCTS];
	int slot_at[2 * PD_TAILS_PCTS];
	r->off[0] = 0;
	for (size_t i = 0; i < nr; i++) { /* the bin of each rank, and its rank there */
		while (below + r->cnt[c] <= ranks[i])
			below += r->cnt[c++];
		bin_at[i] = c, in_bin[i] = ranks[i] - below;
		if (r->slot[c] < 0) {
			r->slot[c] = (int)ns;
			r->off[ns + 1] = r->off[ns] + r->cnt[c];
			r->fill[ns++] = 0;
		}
		slot_at[i] = r->slot[c];
	}
	gather_bins(r, s);
	for (size_t i = 0; i < nr; i++) {
		double *v = r->buf + r->off[slot_at[i]];
		select_k(v, 0, r->cnt[bin_at[i]] - 1, in_bin[i]);
		x[i] = v[in_bin[i]];
	}
	for (size_t i = 0; i < nr; i++)
		r->slot[bin_at[i]] = -1;
}

/* A new resample's percentiles whose status is OK, logged into out (type 7). */
static void resample_logged(double *out, struct resample *r, const struct binned *s,
			    const struct pd_tails_side *side, uint64_t *rng)
{
	size_t ranks[2 * PD_TAILS_PCTS], nr = 0;
	double x[2 * PD_TAILS_PCTS] = {0}, h[PD_TAILS_PCTS] = {0};
	for (size_t j = 0; j < r->nb; j++)
		r->starts[j] = pd_rng_below(rng, s->n);
	count_bins(r, s);
	for (size_t k = 0; k < PD_TAILS_PCTS; k++) {
		if (side->status[k] != PD_TAILS_OK)
			continue;
		h[k] = (double)(r->m - 1) * pd_tails_pcts[k] / 100;
		size_t lo = (size_t)floor(h[k]);
		ranks[nr++] = lo;
		ranks[nr++] = lo + 1 < r->m ? lo + 1 : lo;
	}
	order_stats(x, r, s, ranks, nr);
	for (size_t k = 0, i = 0; k < PD_TAILS_PCTS; k++) {
		if (side->status[k] != PD_TAILS_OK)
			continue;
		out[k] = log(x[i] + (h[k] - (double)ranks[i]) * (x[i + 1] - x[i]));
		i += 2;
	}
}

/* The status and figure of every percentile from sorted[0..n); 1 when one has a figure. */
static int point_of(struct pd_tails_side *out, const double *sorted, size_t n)
{
	int any = 0;
	for (size_t k = 0; k < PD_TAILS_PCTS; k++) {
		out->status[k] = !n                                    ? PD_TAILS_NONE
				 : n < pd_tails_need(pd_tails_pcts[k]) ? PD_TAILS_FEW
								       : PD_TAILS_OK;
		out->ms[k] = out->se_log[k] = NAN;
		if (out->status[k] == PD_TAILS_OK) {
			out->ms[k] =
				pd_stats_quantile_sorted(sorted, n, pd_tails_pcts[k] / 100);
			out->status[k] = out->ms[k] > 0 ? PD_TAILS_OK : PD_TAILS_ZERO;
			any |= out->status[k] == PD_TAILS_OK;
		}
	}
	return any;
}

/* The block length of resamples of m out of v[0..n): the rule on ten stretches of m / 10
 * spread evenly over the stream (the whole stream when m = n), so that choosing costs
 * m (sqrt(m) + 5) whatever n. */
static size_t block_for(const double *v, size_t n, size_t m)
{
	if (m >= n || m < 100)
		return pd_tails_block_of(v, m < n ? m : n);
	size_t len = m / 10;
	double *y = pd_xmalloc(10 * len * sizeof(*y));
	for (size_t j = 0; j < 10; j++)
		memcpy(y + j * len, v + j * ((n - len) / 9), len * sizeof(*y));
	size_t b = pd_tails_block_of(y, 10 * len);
	free(y);
	return b;
}

/* The standard error of each OK percentile's log over the resamples of s. */
static void bootstrap(struct pd_tails_side *out, const struct binned *s,
		      const struct pd_tails_opts *o)
{
	struct resample *r = pd_xmalloc(sizeof(*r));
	double sum[PD_TAILS_PCTS] = {0}, sum2[PD_TAILS_PCTS] = {0}, q[PD_TAILS_PCTS] = {0};
	uint64_t rng = o->seed;
	r->b = out->block, r->m = out->m, r->nb = (out->m + out->block - 1) / out->block;
	r->starts = pd_xmalloc(r->nb * sizeof(*r->starts));
	r->buf = pd_xmalloc(r->m * sizeof(*r->buf));
	memset(r->slot, -1, sizeof(r->slot));
	for (size_t i = 0; i < o->resamples; i++) {
		resample_logged(q, r, s, out, &rng);
		for (size_t k = 0; k < PD_TAILS_PCTS; k++)
			if (out->status[k] == PD_TAILS_OK)
				sum[k] += q[k], sum2[k] += q[k] * q[k];
	}
	double R = (double)o->resamples;
	for (size_t k = 0; k < PD_TAILS_PCTS; k++) {
		if (out->status[k] != PD_TAILS_OK)
			continue;
		double var = (sum2[k] - sum[k] * sum[k] / R) / (R - 1);
		out->se_log[k] = sqrt(fmax(var, 0) * (double)out->m / (double)out->n);
	}
	free(r->starts);
	free(r->buf);
	free(r);
}

void pd_tails_side_of(struct pd_tails_side *out, const double *v, size_t n,
		      const struct pd_tails_opts *o)
{
	*out = (struct pd_tails_side){.n = n};
	double *sorted = pd_xmalloc((n + 1) * sizeof(*sorted));
	if (n) /* (v may be NULL when empty) */
		memcpy(sorted, v, n * sizeof(*sorted));
	pd_stats_sort(sorted, n);
	if (point_of(out, sorted, n)) {
		struct binned s;
		out->m = (size_t)fmin((double)n, o->draws / (double)o->resamples);
		out->block = o->block ? o->block : block_for(v, n, out->m);
		out->resamples = o->resamples;
		binned_of(&s, v, sorted, n);
		bootstrap(out, &s, o);
		free(s.bin);
	}
	free(sorted);
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
