/* E-Divisive means, alpha = 1 (edivisive.h). */
#include "edivisive.h"

#include "core/xalloc.h"
#include "core/rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double pd_ediv_q_direct(const double *x, size_t n, size_t tau)
{
	double cross = 0, wa = 0, wb = 0, a = (double)tau, b = (double)(n - tau);
	for (size_t i = 0; i < n; i++)
		for (size_t k = i + 1; k < n; k++) {
			double d = fabs(x[i] - x[k]);
			if (k < tau)
				wa += d;
			else if (i >= tau)
				wb += d;
			else
				cross += d;
		}
	double e = 2 * cross / (a * b) - (tau > 1 ? wa / (a * (a - 1) / 2) : 0) -
		   (n - tau > 1 ? wb / (b * (b - 1) / 2) : 0);
	return a * b / (a + b) * e;
}

/* A value and its rank within its segment (ties ranked in any order: |a - a| = 0 on
 * whichever side). */
struct item {
	double v;
	size_t r;
};

/* Scratch for one segment of up to cap values. */
struct work {
	size_t cap;
	double *cnt, *sum; /* Fenwick trees over ranks, 1-based */
	double *left;      /* left[t] = sum_{i<t} |x_t - x_i| */
	double *right;     /* right[t] = sum_{j>t} |x_t - x_j| */
};

static void fen_add(double *f, size_t n, size_t i, double v)
{
	for (i++; i <= n; i += i & (~i + 1))
		f[i] += v;
}

static double fen_sum(const double *f, size_t i) /* over ranks < i */
{
	double s = 0;
	for (; i > 0; i -= i & (~i + 1))
		s += f[i];
	return s;
}

/* dev[t] = sum of |x_t - x_j| over the j before t (forward) or after it (backward). */
static void sweep(struct work *w, double *dev, const struct item *it, size_t n, int forward)
{
	double k = 0, total = 0;
	memset(w->cnt, 0, (n + 1) * sizeof(double));
	memset(w->sum, 0, (n + 1) * sizeof(double));
	for (size_t s = 0; s < n; s++) {
		size_t t = forward ? s : n - 1 - s;
		double v = it[t].v, c = fen_sum(w->cnt, it[t].r), sl = fen_sum(w->sum, it[t].r);
		dev[t] = v * c - sl + (total - sl) - v * (k - c);
		fen_add(w->cnt, n, it[t].r, 1);
		fen_add(w->sum, n, it[t].r, v);
		k += 1, total += v;
	}
}

/* The best split of it[0..n) as pd_ediv_best. */
static void best_of(size_t *tau, double *q, struct work *w, const struct item *it, size_t n,
		    size_t min_size)
{
	double wa = 0, wb = 0, cross = 0;
	*tau = 0, *q = -1;
	if (n < 2 * min_size)
		return;
	sweep(w, w->left, it, n, 1);
	sweep(w, w->right, it, n, 0);
	for (size_t t = 0; t < n; t++)
		wb += w->right[t];
	for (size_t t = 1; t + min_size <= n; t++) {
		/* it[t - 1] moves from Y to X */
		cross += w->right[t - 1] - w->left[t - 1];
		wa += w->left[t - 1];
		wb -= w->right[t - 1];
		if (t < min_size)
			continue;
		double a = (double)t, b = (double)(n - t);
		double e =
			2 * cross / (a * b) - wa / (a * (a - 1) / 2) - wb / (b * (b - 1) / 2);
		if (a * b / (a + b) * e > *q)
			*q = a * b / (a + b) * e, *tau = t;
	}
}

static int by_value(const void *a, const void *b)
{
	double x = ((const struct item *)a)->v, y = ((const struct item *)b)->v;
	return (x > y) - (x < y);
}

/* Ranks it[0..n) by value, in place (order restored). */
static void rank_items(struct item *it, size_t n)
{
	struct item *tmp = pd_xmalloc((n ? n : 1) * sizeof(*tmp));
	for (size_t i = 0; i < n; i++)
		tmp[i] = (struct item){it[i].v, i};
	qsort(tmp, n, sizeof(*tmp), by_value);
	for (size_t i = 0; i < n; i++)
		it[tmp[i].r].r = i;
	free(tmp);
}

static void work_init(struct work *w, size_t n)
{
	w->cap = n;
	w->cnt = pd_xcalloc(n + 1, sizeof(double));
	w->sum = pd_xcalloc(n + 1, sizeof(double));
	w->left = pd_xcalloc(n + 1, sizeof(double));
	w->right = pd_xcalloc(n + 1, sizeof(double));
}

static void work_free(struct work *w)
{
	free(w->cnt), free(w->sum), free(w->left), free(w->right);
}

void pd_ediv_best(size_t *tau, double *q, const double *x, size_t n, size_t min_size)
{
	struct work w;
	struct item *it = pd_xmalloc((n ? n : 1) * sizeof(*it));
	for (size_t i = 0; i < n; i++)
		it[i].v = x[i];
	rank_items(it, n);
	work_init(&w, n);
	best_of(tau, q, &w, it, n, min_size < 2 ? 2 : min_size);
	work_free(&w);
	free(it);
}

static void shuffle(struct item *it, size_t n, uint64_t *rng)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = pd_rng_below(rng, i);
		struct item t = it[i - 1];
		it[i - 1] = it[j], it[j] = t;
	}
}

/* The search: the values (ranked within their segments), the segments' bounds. */
struct search {
	struct item *it, *perm;
	size_t n;
	size_t *bounds; /* segment k is [bounds[k], bounds[k + 1]) */
	size_t n_seg;
	struct work w;
	size_t min_size;
};

/* The largest best Q over the segments of items (its segment in *seg, split in *tau). */
static double max_q(struct search *s, const struct item *items, size_t *seg, size_t *tau)
{
	double top = -1;
	for (size_t k = 0; k < s->n_seg; k++) {
		size_t a = s->bounds[k], t;
		double q;
		best_of(&t, &q, &s->w, items + a, s->bounds[k + 1] - a, s->min_size);
		if (q > top)
			top = q, *seg = k, *tau = a + t;
	}
	return top;
}

/* The permutation p-value of the observed maximum q into c (p, perms, floor). */
static void perm_p(struct pd_ediv_cp *c, struct search *s, double q,
		   const struct pd_ediv_opts *o, uint64_t *rng)
{
	size_t reps = o->max_perms ? o->max_perms : (size_t)ceil(2 / o->alpha), hits = 0, r,
	       seg, tau;
	memcpy(s->perm, s->it, s->n * sizeof(*s->perm));
	for (r = 1; r <= reps; r++) {
		for (size_t k = 0; k < s->n_seg; k++)
			shuffle(s->perm + s->bounds[k], s->bounds[k + 1] - s->bounds[k], rng);
		if (max_q(s, s->perm, &seg, &tau) >= q && ++hits >= PD_EDIV_EXCEED) {
			*c = (struct pd_ediv_cp){.p = (double)(hits + 1) / (double)(r + 1),
						 .perms = r};
			return;
		}
	}
	*c = (struct pd_ediv_cp){
		.p = (double)(1 + hits) / (double)(1 + reps), .perms = reps, .floor = !hits};
}

/* Splits segment k at tau and ranks both halves afresh. */
static void split(struct search *s, size_t k, size_t tau)
{
	memmove(s->bounds + k + 2, s->bounds + k + 1, (s->n_seg - k) * sizeof(*s->bounds));
	s->bounds[k + 1] = tau;
	s->n_seg++;
	rank_items(s->it + s->bounds[k], tau - s->bounds[k]);
	rank_items(s->it + tau, s->bounds[k + 2] - tau);
}

/* x scaled to unit sd into s->it; 0 when x is constant. */
static int scaled(struct search *s, const double *x, size_t n)
{
	double mean = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		mean += x[i];
	mean /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	double sd = sqrt(ss / (double)n);
	if (!(sd > 0) || !isfinite(sd))
		return 0;
	for (size_t i = 0; i < n; i++)
		s->it[i].v = (x[i] - mean) / sd;
	rank_items(s->it, n);
	return 1;
}

static int by_at(const void *a, const void *b)
{
	size_t x = ((const struct pd_ediv_cp *)a)->at, y = ((const struct pd_ediv_cp *)b)->at;
	return (x > y) - (x < y);
}

size_t pd_ediv_find(struct pd_ediv_cp *out, size_t cap, const double *x, size_t n,
		    const struct pd_ediv_opts *o)
{
	struct search s = {.n = n, .min_size = o->min_size < 2 ? 2 : o->min_size};
	size_t found = 0, seg, tau;
	uint64_t rng = o->seed;
	if (n < 2 * s.min_size || !cap)
		return 0;
	s.it = pd_xmalloc(n * sizeof(*s.it));
	s.perm = pd_xmalloc(n * sizeof(*s.perm));
	s.bounds = pd_xmalloc((n + 1) * sizeof(*s.bounds));
	s.bounds[0] = 0, s.bounds[1] = n, s.n_seg = 1;
	work_init(&s.w, n);
	while (found < cap && (found || scaled(&s, x, n))) {
		double q = max_q(&s, s.it, &seg, &tau);
		if (q <= 0)
			break;
		struct pd_ediv_cp c;
		perm_p(&c, &s, q, o, &rng);
		if (c.p > o->alpha)
			break;
		c.at = tau, c.q = q;
		out[found++] = c;
		split(&s, seg, tau);
	}
	qsort(out, found, sizeof(*out), by_at);
	work_free(&s.w);
	free(s.it), free(s.perm), free(s.bounds);
	return found;
}
