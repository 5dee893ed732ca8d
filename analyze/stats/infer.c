/* One inference per delta: AR(1) noise model, change on a log, ratio or absolute scale,
 * Bonferroni family, verdict; moderated run-to-run variance (method in infer.h). */
#include "infer.h"

#include "core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PHI_CAP 0.99
#define D0_CAP  1e4

/* ---- distributions ---- */

/* Acklam's rational approximation (relative error 1.15e-9), then one Halley step on erfc
 * for full double precision. */
static double qnorm_acklam(double p)
{
	static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
				   -2.759285104469687e+02, 1.383577518672690e+02,
				   -3.066479806614716e+01, 2.506628277459239e+00};
	static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
				   -1.556989798598866e+02, 6.680131188771972e+01,
				   -1.328068155288572e+01};
	static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
				   -2.400758277161838e+00, -2.549732539343734e+00,
				   4.374664141464968e+00,  2.938163982698783e+00};
	static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
				   2.445134137142996e+00, 3.754408661907416e+00};
	double q, r;
	if (p < 0.02425 || p > 1 - 0.02425) {
		q = sqrt(-2 * log(p < 0.5 ? p : 1 - p));
		double x =
			(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
			((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
		return p < 0.5 ? x : -x;
	}
	q = p - 0.5;
	r = q * q;
	return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
	       (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

double pd_infer_qnorm(double p)
{
	if (!(p > 0))
		return -40;
	if (!(p < 1))
		return 40;
	double x = qnorm_acklam(p);
	double e = 0.5 * erfc(-x / sqrt(2.0)) - p, u = e * sqrt(2 * M_PI) * exp(x * x / 2);
	return x - u / (1 + x * u / 2);
}

/* Continued fraction of the regularized incomplete beta (modified Lentz). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	d = fabs(d) < tiny ? tiny : d;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		for (int odd = 0; odd < 2; odd++) {
			double num = odd ? -(a + m) * (a + b + m) * x /
						     ((a + 2 * m) * (a + 2 * m + 1))
					 : m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
			d = 1 + num * d;
			d = fabs(d) < tiny ? tiny : d;
			c = 1 + num / c;
			c = fabs(c) < tiny ? tiny : c;
			d = 1 / d;
			h *= d * c;
			if (odd && fabs(d * c - 1) < 1e-15)
				return h;
		}
	}
	return h;
}

/* I_x(a, b), 0 <= x <= 1. */
static double ibeta(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double lf = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lf) * beta_cf(a, b, x) / a;
	return 1 - exp(lf) * beta_cf(b, a, 1 - x) / b;
}

double pd_infer_t_tail2(double t, double df)
{
	t = fabs(t);
	return ibeta(df / 2, 0.5, df / (df + t * t));
}

double pd_infer_qt(double p, double df)
{
	if (p == 0.5)
		return 0;
	double tail = 2 * (p < 0.5 ? p : 1 - p), lo = 0, hi = 1;
	while (pd_infer_t_tail2(hi, df) > tail && hi < 1e300)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) { /* the tail falls in t */
		double mid = (lo + hi) / 2;
		if (pd_infer_t_tail2(mid, df) > tail)
			lo = mid;
		else
			hi = mid;
	}
	double q = (lo + hi) / 2;
	return p < 0.5 ? -q : q;
}

/* ---- digamma, trigamma (recurrence up to 10, then the asymptotic series) ---- */

double pd_infer_digamma(double x)
{
	double r = 0;
	for (; x < 10; x++)
		r -= 1 / x;
	double f = 1 / (x * x);
	return r + log(x) - 0.5 / x -
	       f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}

double pd_infer_trigamma(double x)
{
	double r = 0;
	for (; x < 10; x++)
		r += 1 / (x * x);
	double f = 1 / (x * x);
	return r + 1 / x + f / 2 +
	       f / x *
		       (1.0 / 6 -
			f * (1.0 / 30 - f * (1.0 / 42 - f * (1.0 / 30 - f * 5 / 66))));
}

/* psi''(x), for Newton's step below. */
static double tetragamma(double x)
{
	double r = 0;
	for (; x < 10; x++)
		r -= 2 / (x * x * x);
	double f = 1 / (x * x);
	return r - f * (1 + 1 / x + f * (0.5 - f * (1.0 / 6 - f * (1.0 / 6 - f * 0.3))));
}

/* limma's trigammaInverse: Newton's method from x = 0.5 + 1 / y. */
double pd_infer_trigamma_inv(double y)
{
	if (y > 1e7)
		return 1 / sqrt(y);
	if (y < 1e-6)
		return 1 / y;
	double x = 0.5 + 1 / y;
	for (int i = 0; i < 50; i++) {
		double tri = pd_infer_trigamma(x), dif = tri * (1 - tri / y) / tetragamma(x);
		x += dif;
		if (-dif / x < 1e-8)
			break;
	}
	return x;
}

/* ---- the noise model of one window ---- */

double pd_infer_ar1_factor(double phi, size_t n)
{
	if (phi <= 0 || n < 2)
		return 1;
	double dn = (double)n, f = (1 + phi) / (1 - phi);
	f -= 2 * phi * (1 - pow(phi, dn)) / (dn * (1 - phi) * (1 - phi));
	return f < 1 ? 1 : f;
}

static double min_gap(const double *sorted, size_t n)
{
	double g = 0;
	for (size_t i = 1; i < n; i++) {
		double d = sorted[i] - sorted[i - 1];
		if (d > 0 && (g == 0 || d < g))
			g = d;
	}
	return g;
}

/* The most lags the AR(p) fit reads (arp_lrv's PMAX). */
#define MAX_LAG 16

/* The lag-k autocovariances g[k] = sum (v_i - mean)(v_{i+k} - mean) / n for k <= kmax
 * (<= MAX_LAG), in one pass: each sum adds its terms in the order of i as a pass per lag
 * would (the same bits), the lags' sums independent of each other (not one chain of
 * additions); with all MAX_LAG lags (n >= 170), a fixed count the compiler unrolls. */
static void autocovs(double *g, const double *v, size_t n, double mean, size_t kmax)
{
	double *d = pd_xmalloc(n * sizeof(*d)), acc[MAX_LAG + 1] = {0};
	size_t body = n > kmax ? n - kmax : 0; /* where every lag has its term */
	for (size_t i = 0; i < n; i++)
		d[i] = v[i] - mean;
	for (size_t i = 0; kmax == MAX_LAG && i < body; i++)
		for (size_t k = 0; k <= MAX_LAG; k++)
			acc[k] += d[i] * d[i + k];
	for (size_t i = 0; kmax < MAX_LAG && i < body; i++)
		for (size_t k = 0; k <= kmax; k++)
			acc[k] += d[i] * d[i + k];
	for (size_t i = body; i < n; i++)
		for (size_t k = 0; k < n - i; k++)
			acc[k] += d[i] * d[i + k];
	for (size_t k = 0; k <= kmax; k++)
		g[k] = acc[k] / (double)n;
	free(d);
}

/* The AR(p) long-run variance of one value, p <= min(16, n / 10) chosen by AIC (p = 0,
 * white noise, competes): Levinson-Durbin on the biased autocovariances g, sigma_p^2 /
 * (1 - sum a_j)^2, 1 - sum a_j floored at 0.01 (phi 0.99's). 0 when g0 is 0. */
static double arp_lrv(const double *v, size_t n, double mean)
{
	enum { PMAX = MAX_LAG };
	double g[PMAX + 1], a[PMAX + 1] = {0}, prev[PMAX + 1];
	size_t pmax = n / 10 < PMAX ? n / 10 : PMAX;
	autocovs(g, v, n, mean, pmax);
	if (!(g[0] > 0))
		return 0;
	double e = g[0], best = log(e), lrv = g[0];
	for (size_t p = 1; p <= pmax && e > 0; p++) {
		double acc = g[p], sum = 0;
		for (size_t j = 1; j < p; j++)
			acc -= a[j] * g[p - j];
		double refl = acc / e;
		memcpy(prev, a, sizeof(a));
		a[p] = refl;
		for (size_t j = 1; j < p; j++)
			a[j] = prev[j] - refl * prev[p - j];
		e *= 1 - refl * refl;
		if (!(e > 0) || log(e) + 2.0 * (double)p / (double)n >= best)
			continue;
		best = log(e) + 2.0 * (double)p / (double)n;
		for (size_t j = 1; j <= p; j++)
			sum += a[j];
		lrv = e / fmax(1 - sum, 0.01) / fmax(1 - sum, 0.01);
	}
	return lrv * (double)n / (double)(n - 1); /* on s^2's scale, as the AR(1) model */
}

/* Overlapping batch means (Meketon and Schmeiser 1984), batches of b: the variance of
 * the mean, n b / ((n - b)(n - b + 1)) sum_j (batch mean_j - mean)^2 / n. */
static double obm_var_mean(const double *v, size_t n, double mean, size_t b)
{
	double w = 0, ss = 0;
	for (size_t i = 0; i < b; i++)
		w += v[i];
	for (size_t j = 0;; j++) {
		double d = w / (double)b - mean;
		ss += d * d;
		if (j + b >= n)
			break;
		w += v[j + b] - v[j];
	}
	double nb = (double)n, bb = (double)b;
	return bb * ss / ((nb - bb) * (nb - bb + 1));
}

/* The model of n values v (sorted: the same, in order), on their own scale. */
static void fit_side(struct pd_infer_side *out, const double *v, const double *sorted, size_t n)
{
	double sum = 0, ss = 0, lag = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	out->mean = sum / (double)n;
	out->gap = min_gap(sorted, n);
	if (n < 2)
		return;
	for (size_t i = 0; i < n; i++) {
		double d = v[i] - out->mean;
		ss += d * d;
		if (i + 1 < n)
			lag += d * (v[i + 1] - out->mean);
	}
	double r = ss > 0 ? lag / ss : 0;
	r += (1 + 3 * r) / (double)n; /* Kendall (1954): E r = phi - (1 + 3 phi) / n */
	out->phi = r < 0 || ss == 0 ? 0 : r > PHI_CAP ? PHI_CAP : r;
	double s2 = ss / (double)(n - 1), f = pd_infer_ar1_factor(out->phi, n);
	/* the largest of three readings (infer.h, "The model") */
	out->var_mean = s2 * f / (double)n;
	out->var_mean = fmax(out->var_mean, arp_lrv(v, n, out->mean) / (double)n);
	if (n / 8 >= 2)
		out->var_mean = fmax(out->var_mean, obm_var_mean(v, n, out->mean, n / 8));
	out->n_eff = out->var_mean > 0 ? s2 / out->var_mean : (double)n;
}

/* The exponent a window of largest magnitude a is read at: 0 inside 2^-200..2^200 (its
 * squares and sums of squares are finite and normal), else a's own (scaled, the largest
 * value is in [0.5, 1)). */
static int exp2_of(double a)
{
	int e = 0;
	if (a > 0 && isfinite(a))
		frexp(a, &e);
	return e > 200 || e < -200 ? e : 0;
}

void pd_infer_side_of(struct pd_infer_side *out, const struct pd_sample *s)
{
	size_t n = s->n;
	*out = (struct pd_infer_side){.n = n, .n_eff = (double)n};
	if (n == 0)
		return;
	out->exp2 = exp2_of(fmax(fabs(s->sorted[0]), fabs(s->sorted[n - 1])));
	if (!out->exp2) {
		fit_side(out, s->v, s->sorted, n);
		return;
	}
	/* a copy times 2^-exp2: exact (a power of two), so only the scale changes */
	double *v = pd_xmalloc(2 * n * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = ldexp(s->v[i], -out->exp2), v[n + i] = ldexp(s->sorted[i], -out->exp2);
	fit_side(out, v, v + n, n);
	free(v);
}

double pd_infer_level(const struct pd_infer_side *s)
{
	return ldexp(s->mean, s->exp2);
}

double pd_infer_se_mean(const struct pd_infer_side *s)
{
	return ldexp(sqrt(s->var_mean), s->exp2);
}

/* ---- the run floor of short windows ---- */

void pd_infer_floor_add(struct pd_infer_floor *f, const double *x, size_t N, size_t n)
{
	double mean = 0, w = 0, ss = 0;
	if (n < 2 || N < 2 * n)
		return;
	for (size_t i = 0; i < N; i++)
		mean += x[i] / (double)N;
	if (!(mean > 0) || !isfinite(mean))
		return;
	for (size_t i = 0; i < n; i++)
		w += x[i] / mean;
	for (size_t j = 0;; j++) { /* w: the sum of block j, relative to the mean */
		double d = w / (double)n - 1;
		ss += d * d;
		if (j + n >= N)
			break;
		w += (x[j + n] - x[j]) / mean;
	}
	/* Meketon and Schmeiser's Var(block mean), N ss / ((N - n)(N - n + 1)), times the
	 * stretch's N - n + 1 blocks (its weight in the pool) */
	double nb = (double)N, bb = (double)n;
	if (!isfinite(ss))
		return;
	f->sum += nb * ss / (nb - bb);
	f->blocks += nb - bb + 1;
}

double pd_infer_floor_of(const struct pd_infer_floor *f)
{
	return f->blocks > 0 ? f->sum / f->blocks : 0;
}

void pd_infer_side_floor(struct pd_infer_side *s, double rel)
{
	double v = rel * s->mean * s->mean;
	if (!(v > s->var_mean) || !isfinite(v))
		return;
	s->n_eff = s->n_eff * s->var_mean / v;
	s->var_mean = v;
}

/* ---- a run offset beyond the margin ---- */

int pd_infer_run_offset(const struct pd_infer_side *base, const struct pd_infer_side *target,
			double run_sd, struct pd_infer_offset *out)
{
	const double z = PD_INFER_Z95;
	double mb = base->mean, mt = target->mean;
	*out = (struct pd_infer_offset){NAN, 0};
	if (!(mb > z * sqrt(base->var_mean)) || !(mt > z * sqrt(target->var_mean)))
		return 0;
	/* the ratio of the levels in the unit: the means times 2^(exp2_t - exp2_b) */
	double d = log(mt / mb) + (double)(target->exp2 - base->exp2) * log(2.0);
	double v = base->var_mean / (mb * mb) + target->var_mean / (mt * mt);
	if (!(fabs(d) > z * sqrt(2 * run_sd * run_sd + v)) || !isfinite(d))
		return 0;
	*out = (struct pd_infer_offset){100 * expm1(d), 100 * (fabs(d) + z * sqrt(v))};
	return 1;
}

/* ---- judging ---- */

/* The one statistic a verdict reads: estimate and standard error on a scale. */
struct estimate {
	enum pd_infer_scale scale;
	double est, se, df;  /* df 0: normal */
	double base, target; /* levels */
	double seconds;      /* the target window, for counts */
	int exp2;            /* levels and absolute figures are of the values times 2^-exp2 */
};

static double quantile_of(double p, double df)
{
	return df > 0 ? pd_infer_qt(p, df) : pd_infer_qnorm(p);
}

static double tail2_of(double stat, double df)
{
	return df > 0 ? pd_infer_t_tail2(stat, df) : erfc(fabs(stat) / sqrt(2.0));
}

/* One baseline (infer.h, "Verdicts"): the interval of the change between two runs holds
 * the run-to-run margin M in quadrature with the within-run half-width h on each side,
 * est -+ sqrt(h^2 + M^2) (0 without a margin). */
static void widen(struct pd_infer_result *out)
{
	double est = out->delta_pct, M = out->margin_pct;
	if (!(M > 0))
		return;
	out->lo_pct = est - hypot(est - out->lo_pct, M);
	out->hi_pct = est + hypot(out->hi_pct - est, M);
}

/* Fills the intervals from est +- q se on e's scale, every one a transform of it (the
 * percentages widened by the run-to-run margin). */
static void fill_intervals(struct pd_infer_result *out, const struct estimate *e, double q,
			   const struct pd_infer_rule *rule)
{
	double lo = e->est - q * e->se, hi = e->est + q * e->se, b = e->base;
	if (e->scale == PD_INFER_ABSOLUTE) {
		out->valid = PD_INFER_HAS_ABS;
		out->delta_abs = e->est, out->lo_abs = lo, out->hi_abs = hi;
	} else {
		double k = 100;
		if (e->scale == PD_INFER_LOG_RATIO)
			out->delta_pct = k * expm1(e->est), out->lo_pct = k * expm1(lo),
			out->hi_pct = k * expm1(hi);
		else
			out->delta_pct = k * e->est, out->lo_pct = k * lo, out->hi_pct = k * hi;
		widen(out);
		if (rule->nonneg && out->lo_pct < -100)
			out->lo_pct = -100;
		out->valid = PD_INFER_HAS_PCT | PD_INFER_HAS_ABS;
		out->delta_abs = fabs(b) * out->delta_pct / 100;
		out->lo_abs = fabs(b) * out->lo_pct / 100,
		out->hi_abs = fabs(b) * out->hi_pct / 100;
	}
	if (rule->rate) {
		out->valid |= PD_INFER_HAS_COUNT;
		out->delta_count = out->delta_abs * e->seconds;
		out->lo_count = out->lo_abs * e->seconds,
		out->hi_count = out->hi_abs * e->seconds;
	}
}

/* Same, regression, improvement or inconclusive from [lo, hi] against +-thr. */
static void decide(struct pd_infer_result *out, double lo, double hi, double thr, int worse)
{
	out->reason = PD_INFER_DECIDED;
	if (lo >= -thr && hi <= thr)
		out->verdict = PD_INFER_SAME;
	else if (lo > thr || hi < -thr)
		out->verdict =
			(lo > thr) == (worse > 0) ? PD_INFER_REGRESSION : PD_INFER_IMPROVEMENT;
	else
		out->verdict = PD_INFER_INCONCLUSIVE, out->reason = PD_INFER_STRADDLES;
}

enum pd_infer_verdict pd_infer_decide(double lo, double hi, double thr, int worse)
{
	struct pd_infer_result r;
	decide(&r, lo, hi, thr, worse);
	return r.verdict;
}

static void verdict_of(struct pd_infer_result *out, const struct pd_infer_rule *rule)
{
	if (out->scale != PD_INFER_ABSOLUTE)
		decide(out, out->lo_pct, out->hi_pct, rule->threshold_pct, rule->worse);
	else if (!rule->has_abs)
		out->verdict = PD_INFER_INCONCLUSIVE, out->reason = PD_INFER_ZERO_BASELINE;
	else if (rule->rate)
		decide(out, out->lo_count, out->hi_count, rule->abs_threshold, rule->worse);
	else
		decide(out, out->lo_abs, out->hi_abs, rule->abs_threshold, rule->worse);
}

/* With a run-to-run margin M (widen()): the statistic of the interval stated, the estimate
 * over its half-width toward 0 in units of q, so that p_adj < alpha exactly when that
 * interval excludes 0; an interval of within-run noise alone wholly past the threshold
 * while the stated one is not: inconclusive because of the margin. */
static void margin_apply(struct pd_infer_result *out, const struct estimate *e, double q,
			 const struct pd_infer_rule *rule)
{
	double lo = e->est - q * e->se, hi = e->est + q * e->se, d = out->delta_pct;
	if (!(out->margin_pct > 0) || e->scale == PD_INFER_ABSOLUTE)
		return;
	if (e->scale == PD_INFER_LOG_RATIO)
		lo = expm1(lo), hi = expm1(hi);
	lo *= 100, hi *= 100;
	out->stat = q * d / hypot(d > 0 ? d - lo : hi - d, out->margin_pct);
	out->p = tail2_of(out->stat, e->df);
	out->p_adj = fmin(1, (double)out->m * out->p);
	out->mde_pct = hypot(out->mde_pct, out->margin_pct);
	out->mde_abs = fabs(e->base) * out->mde_pct / 100;
	if (out->reason == PD_INFER_STRADDLES &&
	    (lo > rule->threshold_pct || hi < -rule->threshold_pct))
		out->reason = PD_INFER_RUN_MARGIN;
	out->within_same = lo >= -rule->threshold_pct && hi <= rule->threshold_pct;
}

/* Zeroes every non-finite double and drops its group's flag (never expected: the inputs
 * are finite and every division is guarded; this is the module's promise kept). */
static void sanitize(struct pd_infer_result *out)
{
	double *groups[][3] = {{&out->delta_pct, &out->lo_pct, &out->hi_pct},
			       {&out->delta_abs, &out->lo_abs, &out->hi_abs},
			       {&out->delta_count, &out->lo_count, &out->hi_count}};
	double *rest[] = {&out->base_level, &out->target_level, &out->stat, &out->df,
			  &out->p,          &out->p_adj,        &out->level};
	unsigned dropped = 0;
	for (unsigned g = 0; g < 3; g++)
		for (unsigned i = 0; i < 3; i++)
			if (!isfinite(*groups[g][i])) {
				dropped |= out->valid & (1u << g);
				out->valid &= ~(1u << g);
				*groups[g][0] = *groups[g][1] = *groups[g][2] = 0;
			}
	for (size_t i = 0; i < sizeof(rest) / sizeof(*rest); i++)
		if (!isfinite(*rest[i]))
			*rest[i] = 0;
	unsigned need = out->scale == PD_INFER_ABSOLUTE ? PD_INFER_HAS_ABS : PD_INFER_HAS_PCT;
	if (dropped & need) /* its change overflowed a double: there is no estimate to judge */
		out->verdict = PD_INFER_INCONCLUSIVE, out->reason = PD_INFER_NO_ESTIMATE;
	else if (!(out->valid & need) && out->verdict != PD_INFER_INCONCLUSIVE)
		out->verdict = PD_INFER_INCONCLUSIVE, out->reason = PD_INFER_FEW_SAMPLES;
}

/* The figures in the metric's unit, from the values times 2^-exp2 they were computed on
 * (exact: a power of two; past the largest double they are dropped by sanitize()). */
static void unscale(struct pd_infer_result *out, int exp2)
{
	double *unit[] = {&out->base_level, &out->target_level, &out->delta_abs,
			  &out->lo_abs,     &out->hi_abs,       &out->delta_count,
			  &out->lo_count,   &out->hi_count,     &out->mde_abs};
	for (size_t i = 0; exp2 && i < sizeof(unit) / sizeof(*unit); i++)
		*unit[i] = ldexp(*unit[i], exp2);
}

/* From the estimate to the interval, the p-value and the verdict. */
static void finish(struct pd_infer_result *out, const struct estimate *e,
		   const struct pd_infer_rule *rule, const struct pd_infer_family *fam)
{
	double a = fam->alpha / (double)out->m;
	double q = quantile_of(1 - a / 2, e->df);
	out->scale = e->scale;
	out->df = e->df;
	out->base_level = e->base, out->target_level = e->target;
	out->stat = e->se > 0 ? e->est / e->se : 0;
	out->p = e->se > 0 ? tail2_of(out->stat, e->df) : e->est == 0 ? 1 : 0;
	out->p_adj = fmin(1, (double)out->m * out->p);
	fill_intervals(out, e, q, rule);
	out->mde_abs = q * e->se;
	if (e->scale != PD_INFER_ABSOLUTE) {
		out->mde_pct =
			100 * (e->scale == PD_INFER_LOG_RATIO ? expm1(q * e->se) : q * e->se);
		out->mde_abs = fabs(e->base) * out->mde_pct / 100;
	}
	verdict_of(out, rule);
	out->within_same = out->verdict == PD_INFER_SAME;
	margin_apply(out, e, q, rule);
	unscale(out, e->exp2);
	sanitize(out);
}

/* The fewest baselines k (2 to 64) whose interval half-width on the log scale,
 * q_k sqrt(runs (1 + 1/k) + extra), is under the threshold; 0 when none is. runs: one run's
 * level variance (relative, squared: run-to-run and within-run of a baseline), extra: the
 * target's own noise beyond a baseline's; q_k the two-sided quantile at a of Student t
 * with the df k baselines give, d0 + k - 1 (d0 the prior's, as pd_infer_judge_reps reads
 * them), or of the normal when d0 < 0 (one baseline: the kind's sd taken as known, as its
 * interval takes it). */
static size_t baselines_for(double runs, double extra, double a, double d0, double thr_pct)
{
	for (size_t k = 2; k <= 64; k++) {
		double q = quantile_of(1 - a / 2, d0 < 0 ? 0 : d0 + (double)k - 1);
		if (100 * expm1(q * sqrt(runs * (1 + 1 / (double)k) + extra)) <= thr_pct)
			return k;
	}
	return 0;
}

static void start(struct pd_infer_result *out, const struct pd_infer_family *fam, size_t k)
{
	size_t m = fam->m ? fam->m : 1;
	*out = (struct pd_infer_result){
		.m = m,
		.level = 1 - fam->alpha / (double)m,
		.p = 1,
		.p_adj = 1,
		.k = k,
		.noise = k >= 2 ? PD_INFER_NOISE_RUNS : PD_INFER_NOISE_WITHIN,
		.verdict = PD_INFER_INCONCLUSIVE,
		.reason = PD_INFER_FEW_SAMPLES,
	};
}

/* The variance floor of a mean on a grid of step g: rounding of half a step. */
static double floor_of(double g)
{
	return g * g / 48;
}

static double pooled_gap(double a, double b)
{
	return a > 0 && b > 0 ? fmin(a, b) : a > 0 ? a : b;
}

/* The scale: log when both levels' intervals exclude 0 on the positive side, the ratio
 * when only the baseline's does, else absolute. */
/* Whether the interval of a change read as a ratio says nothing: it holds both a halving
 * and a doubling (-50 % and +100 %), as a rare counter's does in a short window. */
static int ratio_says_nothing(const struct estimate *e, double q)
{
	double lo = e->est - q * e->se, hi = e->est + q * e->se;
	if (e->scale == PD_INFER_LOG_RATIO)
		lo = expm1(lo), hi = expm1(hi);
	return lo <= -0.5 && hi >= 1;
}

static void choose_scale(struct estimate *e, double vb, double vt, double q)
{
	double b = e->base, t = e->target;
	int base_clear = fabs(b) > q * sqrt(vb), target_clear = t > q * sqrt(vt);
	if (b > 0 && base_clear && target_clear) {
		e->scale = PD_INFER_LOG_RATIO;
		e->est = log(t / b);
		e->se = sqrt(vt / (t * t) + vb / (b * b));
	} else if (base_clear) {
		double r = t / b;
		e->scale = PD_INFER_RATIO;
		e->est = (t - b) / fabs(b);
		e->se = sqrt(vt + r * r * vb) / fabs(b);
	}
	if (!base_clear || ratio_says_nothing(e, q)) {
		e->scale = PD_INFER_ABSOLUTE;
		e->est = t - b;
		e->se = sqrt(vt + vb);
	}
}

/* A rate whose baseline window is 0 throughout: no event in it. A stationary noise model
 * fitted to the target's burst of events (errors at a failover) would call the burst its
 * own noise; against silence the question is how many events there are, and a count of N
 * events has the Poisson standard error sqrt(N) (sqrt(N + 1): never 0). */
static int silent_base(const struct pd_infer_side *base, const struct pd_infer_rule *rule)
{
	return rule->rate && base->mean == 0 && base->gap == 0;
}

/* Events against silence: the count's own (Poisson) noise, sqrt(N + 1) of N events. */
static void count_against_silence(struct estimate *e)
{
	e->scale = PD_INFER_ABSOLUTE;
	e->est = e->target;
	e->base = 0;
	double events = ldexp(e->target * e->seconds, e->exp2); /* in the unit */
	e->se = ldexp(sqrt(fmax(events, 0) + 1), -e->exp2) / e->seconds;
}

static size_t min_n_of(const struct pd_infer_rule *rule)
{
	return rule->min_n ? rule->min_n : 10;
}

/* pd_infer_judge on two windows read at one exponent (base->exp2 = target->exp2). */
static void judge_at(struct pd_infer_result *out, const struct pd_infer_side *base,
		     const struct pd_infer_side *target, const struct pd_infer_rule *rule,
		     const struct pd_infer_family *fam)
{
	start(out, fam, 1);
	if (base->n < 2 || target->n < 2)
		return;
	double g = pooled_gap(base->gap, target->gap);
	if (g == 0)
		g = fabs(target->mean - base->mean); /* each side constant */
	struct estimate e = {.base = base->mean,
			     .target = target->mean,
			     .seconds = (double)target->n * rule->step_s,
			     .exp2 = target->exp2};
	double vb = fmax(base->var_mean, floor_of(g)), vt = fmax(target->var_mean, floor_of(g));
	double q = pd_infer_qnorm(1 - fam->alpha / (double)out->m / 2);
	if (silent_base(base, rule) && e.seconds > 0) {
		count_against_silence(&e);
	} else {
		choose_scale(&e, vb, vt, q);
	}
	out->margin_pct = rule->margin_pct;
	if (rule->margin_pct > 0)
		out->margin_from = rule->margin_from ? rule->margin_from : PD_INFER_MARGIN_KIND;
	finish(out, &e, rule, fam);
	if ((out->valid & PD_INFER_HAS_PCT) && e.scale == PD_INFER_LOG_RATIO)
		out->baselines_needed = baselines_for(
			rule->run_sd * rule->run_sd + vb / (e.base * e.base),
			fmax(0, vt / (e.target * e.target) - vb / (e.base * e.base)),
			fam->alpha / (double)out->m, -1, rule->threshold_pct);
	if (g == 0) /* one same value throughout both windows */
		out->verdict = PD_INFER_SAME, out->reason = PD_INFER_CONSTANT;
	else if (base->n < min_n_of(rule) || target->n < min_n_of(rule))
		out->verdict = PD_INFER_INCONCLUSIVE, out->reason = PD_INFER_FEW_SAMPLES;
	if (g == 0 || out->reason == PD_INFER_FEW_SAMPLES)
		out->within_same = out->verdict == PD_INFER_SAME;
}

/* The exponent two windows are compared at: the larger of theirs, leaving out a window
 * that holds only zeros (it has no scale). */
static int exp2_join(int a, int a_zero, int b, int b_zero)
{
	if (a_zero || b_zero)
		return a_zero ? (b_zero ? 0 : b) : a;
	return a > b ? a : b;
}

static int side_zero(const struct pd_infer_side *s)
{
	return s->mean == 0 && s->gap == 0;
}

/* s read at exponent e: mean, var_mean and gap of its values times 2^-e. */
static struct pd_infer_side side_at(const struct pd_infer_side *s, int e)
{
	struct pd_infer_side r = *s;
	r.mean = ldexp(s->mean, s->exp2 - e);
	r.var_mean = ldexp(s->var_mean, 2 * (s->exp2 - e));
	r.gap = ldexp(s->gap, s->exp2 - e);
	r.exp2 = e;
	return r;
}

void pd_infer_judge(struct pd_infer_result *out, const struct pd_infer_side *base,
		    const struct pd_infer_side *target, const struct pd_infer_rule *rule,
		    const struct pd_infer_family *fam)
{
	int e = exp2_join(base->exp2, side_zero(base), target->exp2, side_zero(target));
	struct pd_infer_side b = side_at(base, e), t = side_at(target, e);
	struct pd_infer_rule r = *rule;
	r.abs_threshold = ldexp(rule->abs_threshold, -e);
	judge_at(out, &b, &t, &r, fam);
}

/* ---- replicated baselines ---- */

/* The exponent k windows are read at together (exp2_join over them). */
static int exp2_of_sides(const struct pd_infer_side *s, size_t k)
{
	int e = 0, zero = 1;
	for (size_t i = 0; i < k; i++) {
		e = exp2_join(e, zero, s[i].exp2, side_zero(&s[i]));
		zero &= side_zero(&s[i]);
	}
	return e;
}

/* A baseline's run statistic: log(mean) on the log scale, else its mean. */
static double run_stat(const struct pd_infer_side *b, int log_scale)
{
	return log_scale ? log(b->mean) : b->mean;
}

void pd_infer_spread_of(struct pd_infer_spread *out, const struct pd_infer_side *base, size_t k)
{
	*out = (struct pd_infer_spread){.k = k, .log_scale = k > 0, .n_min = k ? base[0].n : 0};
	out->exp2 = exp2_of_sides(base, k);
	size_t n_all = 0;
	for (size_t i = 0; i < k; i++)
		n_all += base[i].n;
	for (size_t i = 0; i < k; i++) {
		struct pd_infer_side b = side_at(&base[i], out->exp2);
		out->log_scale &= b.mean > 0;
		out->gap = pooled_gap(out->gap, b.gap);
		out->n_min = base[i].n < out->n_min ? base[i].n : out->n_min;
		/* the baselines' level: the mean of all their samples (the summary's mean) */
		out->base_level += n_all ? b.mean * (double)b.n / (double)n_all : 0;
	}
	double sum = 0, ss = 0;
	for (size_t i = 0; i < k; i++) {
		struct pd_infer_side b = side_at(&base[i], out->exp2);
		double w = fmax(b.var_mean, floor_of(out->gap));
		sum += run_stat(&b, out->log_scale);
		out->within_abs += w / (double)k;
		out->within += (out->log_scale ? w / (b.mean * b.mean) : w) / (double)k;
	}
	out->center = k ? sum / (double)k : 0;
	for (size_t i = 0; i < k; i++) {
		struct pd_infer_side b = side_at(&base[i], out->exp2);
		double x = run_stat(&b, out->log_scale);
		ss += (x - out->center) * (x - out->center);
	}
	out->s2 = k >= 2 ? ss / (double)(k - 1) : 0;
}

double pd_infer_moderate(const struct pd_infer_prior *prior, double s2, double d)
{
	if (!(prior->d0 > 0))
		return s2;
	return (prior->d0 * prior->s0sq + d * s2) / (prior->d0 + d);
}

/* The moment estimates of limma's fitFDist on the log variances x[0..n) with d[0..n) df. */
static void fit_moments(struct pd_infer_prior *out, const double *x, const double *d, size_t n)
{
	double emean = 0, evar = 0, tri = 0;
	for (size_t i = 0; i < n; i++)
		emean += (x[i] - pd_infer_digamma(d[i] / 2) + log(d[i] / 2)) / (double)n;
	for (size_t i = 0; i < n; i++) {
		double e = x[i] - pd_infer_digamma(d[i] / 2) + log(d[i] / 2) - emean;
		evar += e * e / (double)(n - 1);
		tri += pd_infer_trigamma(d[i] / 2) / (double)n;
	}
	evar -= tri;
	if (evar > 0) {
		out->d0 = fmin(2 * pd_infer_trigamma_inv(evar), D0_CAP);
		out->s0sq = exp(emean + pd_infer_digamma(out->d0 / 2) - log(out->d0 / 2));
	} else { /* the variances vary no more than chance: an infinite prior */
		out->d0 = D0_CAP;
		out->s0sq = exp(emean);
	}
}

void pd_infer_prior_fit(struct pd_infer_prior *out, const struct pd_infer_spread *spreads,
			size_t n)
{
	*out = (struct pd_infer_prior){0};
	double *x = pd_xmalloc((n + 1) * sizeof(*x)), *d = pd_xmalloc((n + 1) * sizeof(*d));
	double *sorted = pd_xmalloc((n + 1) * sizeof(*sorted));
	size_t used = 0;
	for (size_t i = 0; i < n; i++)
		if (spreads[i].log_scale && spreads[i].k >= 2) {
			sorted[used] = spreads[i].s2;
			d[used] = (double)(spreads[i].k - 1);
			x[used++] = spreads[i].s2;
		}
	if (used >= 3) {
		pd_stats_sort(sorted, used);
		double med = pd_stats_quantile_sorted(sorted, used, 0.5);
		double lo = 1e-5 * (med > 0 ? med : 1); /* limma's floor of zero variances */
		for (size_t i = 0; i < used; i++)
			x[i] = log(fmax(x[i], lo));
		fit_moments(out, x, d, used);
	}
	free(x), free(d), free(sorted);
}

/* The estimate against k >= 2 baselines on the log (or ratio) scale: the target is a new
 * run, so the moderated between-run variance counts (1 + 1/k) times. */
static void estimate_rel(struct estimate *e, const struct pd_infer_spread *sp,
			 const struct pd_infer_prior *prior, double vt, double a)
{
	double d = (double)(sp->k - 1), s2 = pd_infer_moderate(prior, sp->s2, d);
	double runs = s2 * (1 + 1 / (double)sp->k), t = e->target;
	e->df = prior->d0 > 0 ? prior->d0 + d : d;
	e->base = sp->base_level; /* the level the outputs state: the change's sign is theirs */
	if (t > quantile_of(1 - a / 2, e->df) * sqrt(vt)) {
		e->scale = PD_INFER_LOG_RATIO;
		e->est = log(t / e->base);
		e->se = sqrt(runs + fmax(0, vt / (t * t) - sp->within));
	} else { /* the target's level holds 0: the ratio to the baselines' level */
		e->scale = PD_INFER_RATIO;
		e->est = t / e->base - 1;
		e->se = sqrt(runs + fmax(0, vt / (e->base * e->base) - sp->within));
	}
}

/* The same in the metric's unit (some baseline level not positive): not moderated. */
static void estimate_abs(struct estimate *e, const struct pd_infer_spread *sp, double vt)
{
	double k = (double)sp->k;
	e->scale = PD_INFER_ABSOLUTE;
	e->base = sp->base_level;
	e->est = e->target - sp->base_level;
	if (sp->s2 > 0) {
		e->df = k - 1;
		e->se = sqrt(sp->s2 * (1 + 1 / k) + fmax(0, vt - sp->within_abs));
	} else { /* the baselines agree exactly (all zero): within-run noise only */
		e->df = 0;
		e->se = sqrt(vt + sp->within_abs / k);
	}
}

/* pd_infer_judge_reps on a spread and a target read at one exponent (k >= 2). */
static void judge_reps_at(struct pd_infer_result *out, const struct pd_infer_spread *spread,
			  const struct pd_infer_prior *prior,
			  const struct pd_infer_side *target, const struct pd_infer_rule *rule,
			  const struct pd_infer_family *fam)
{
	start(out, fam, spread->k);
	if (spread->n_min < 2 || target->n < 2)
		return;
	double g = pooled_gap(spread->gap, target->gap);
	double vt = fmax(target->var_mean, floor_of(g)), a = fam->alpha / (double)out->m;
	struct estimate e = {.target = target->mean,
			     .seconds = (double)target->n * rule->step_s,
			     .exp2 = target->exp2};
	if (rule->rate && spread->base_level == 0 && spread->gap == 0 && spread->s2 == 0 &&
	    e.seconds > 0)
		count_against_silence(&e); /* every baseline silent: as one silent baseline */
	else if (spread->log_scale)
		estimate_rel(&e, spread, prior, vt, a);
	else
		estimate_abs(&e, spread, vt);
	finish(out, &e, rule, fam);
	if (e.scale == PD_INFER_LOG_RATIO)
		out->baselines_needed = baselines_for(
			pd_infer_moderate(prior, spread->s2, (double)(spread->k - 1)),
			fmax(0, vt / (e.target * e.target) - spread->within), a, prior->d0,
			rule->threshold_pct);
	if (spread->n_min < min_n_of(rule) || target->n < min_n_of(rule))
		out->verdict = PD_INFER_INCONCLUSIVE, out->reason = PD_INFER_FEW_SAMPLES;
	out->within_same = out->verdict == PD_INFER_SAME;
}

/* sp read at exponent e (as side_at). */
static struct pd_infer_spread spread_at(const struct pd_infer_spread *sp, int e)
{
	struct pd_infer_spread r = *sp;
	int d = sp->exp2 - e;
	r.base_level = ldexp(sp->base_level, d);
	r.gap = ldexp(sp->gap, d);
	r.within_abs = ldexp(sp->within_abs, 2 * d);
	if (!sp->log_scale)
		r.center = ldexp(sp->center, d), r.s2 = ldexp(sp->s2, 2 * d);
	else if (d)
		r.center += (double)d * 0.6931471805599453; /* log 2 */
	r.exp2 = e;
	return r;
}

void pd_infer_judge_reps(struct pd_infer_result *out, const struct pd_infer_spread *spread,
			 const struct pd_infer_prior *prior, const struct pd_infer_side *target,
			 const struct pd_infer_rule *rule, const struct pd_infer_family *fam)
{
	if (spread->k < 2) {
		struct pd_infer_side b = {.n = spread->n_min,
					  .mean = spread->base_level,
					  .var_mean = spread->within_abs,
					  .gap = spread->gap,
					  .exp2 = spread->exp2};
		pd_infer_judge(out, &b, target, rule, fam);
		return;
	}
	int zero = spread->base_level == 0 && spread->gap == 0 && spread->s2 == 0;
	int e = exp2_join(spread->exp2, zero, target->exp2, side_zero(target));
	struct pd_infer_spread sp = spread_at(spread, e);
	struct pd_infer_side t = side_at(target, e);
	struct pd_infer_rule r = *rule;
	r.abs_threshold = ldexp(rule->abs_threshold, -e);
	judge_reps_at(out, &sp, prior, &t, &r, fam);
}
