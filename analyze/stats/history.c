/* Change points over a test's history (history.h). */
#include "history.h"

#include "analyze/opts.h"
#include "edivisive.h"
#include "core/buf.h"
#include "core/metric.h"
#include "core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a of a name: each feature's own permutation stream. */
static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/* One feature's series: its values and the runs they come from. */
struct series {
	double *x;
	size_t *run;
	size_t n;
};

static void gather(struct series *s, const double *values, size_t n_runs, size_t n_features,
		   size_t f)
{
	s->n = 0;
	for (size_t r = 0; r < n_runs; r++)
		if (!isnan(values[r * n_features + f]))
			s->x[s->n] = values[r * n_features + f], s->run[s->n++] = r;
}

static void mean_sd(double *mean, double *ss, const double *x, size_t a, size_t b)
{
	double m = 0, q = 0;
	for (size_t i = a; i < b; i++)
		m += x[i];
	m /= (double)(b - a);
	for (size_t i = a; i < b; i++)
		q += (x[i] - m) * (x[i] - m);
	*mean = m, *ss = q;
}

/* The levels and size of the change at cp[k] of a feature, segments bounded by its
 * neighbours. */
static void levels(struct pd_hist_change *c, const struct series *s,
		   const struct pd_ediv_cp *cp, size_t k, size_t n_cp)
{
	size_t a = k ? cp[k - 1].at : 0, m = cp[k].at, b = k + 1 < n_cp ? cp[k + 1].at : s->n;
	double ss1, ss2;
	mean_sd(&c->before, &ss1, s->x, a, m);
	mean_sd(&c->after, &ss2, s->x, m, b);
	double sd = sqrt((ss1 + ss2) / (double)(b - a - 2));
	c->change_pct = c->before != 0 ? 100 * (c->after - c->before) / fabs(c->before) : NAN;
	c->size = sd > 0 ? fabs(c->after - c->before) / sd : INFINITY;
	c->at = s->run[m], c->prev = s->run[m - 1];
	c->p = cp[k].p;
	c->p_floor = 1 / (1 + (double)cp[k].perms);
	c->p_at_floor = cp[k].floor;
}

/* Which way of feature name is worse: its metric's ("collector/metric|scope|phase", or
 * "event/pre_post_pct|collector/metric|scope"); 0 for an event's own number or the KPI,
 * whose direction no metric rule names. */
static int worse_way(const char *name)
{
	struct pd_buf collector = PD_BUF_INIT;
	const char *m = name, *slash, *bar;
	int way = 0;
	if (!strncmp(name, "event/", strlen("event/")))
		m = strchr(name, '|') ? strchr(name, '|') + 1 : NULL;
	if (m && (slash = strchr(m, '/')) && (bar = strchr(m, '|')) && slash < bar &&
	    strncmp(name, "kpi/", strlen("kpi/"))) {
		struct pd_buf metric = PD_BUF_INIT;
		pd_buf_add(&collector, m, (size_t)(slash - m));
		pd_buf_add(&metric, slash + 1, (size_t)(bar - slash - 1));
		way = pd_metric_worse(collector.ptr, metric.ptr);
		pd_buf_release(&metric);
	}
	pd_buf_release(&collector);
	return way;
}

static int by_size(const void *pa, const void *pb)
{
	const struct pd_hist_change *a = pa, *b = pb;
	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	if (a->feature != b->feature)
		return a->feature < b->feature ? -1 : 1;
	return (a->at > b->at) - (a->at < b->at);
}

static size_t tested(const double *values, size_t n_runs, size_t n_features, size_t min_size)
{
	size_t m = 0;
	for (size_t f = 0; f < n_features; f++) {
		size_t n = 0;
		for (size_t r = 0; r < n_runs; r++)
			n += !isnan(values[r * n_features + f]);
		m += n >= 2 * min_size;
	}
	return m;
}

void pd_history_analyze(struct pd_history *out, const double *values, size_t n_runs,
			size_t n_features, const char *const *names,
			const struct pd_hist_opts *o)
{
	size_t cap = 0, min = o->min_size < 2 ? 2 : o->min_size;
	struct series s = {pd_xmalloc((n_runs + 1) * sizeof(double)),
			   pd_xmalloc((n_runs + 1) * sizeof(size_t)), 0};
	struct pd_ediv_cp *cp = pd_xmalloc((n_runs / min + 1) * sizeof(*cp));
	*out = (struct pd_history){.n_runs = n_runs, .n_features = n_features, .min_size = min};
	out->n_tested = tested(values, n_runs, n_features, min);
	out->alpha_feature = out->n_tested ? o->alpha / (double)out->n_tested : o->alpha;
	for (size_t f = 0; f < n_features; f++) {
		gather(&s, values, n_runs, n_features, f);
		struct pd_ediv_opts eo = {.alpha = out->alpha_feature,
					  .min_size = min,
					  .max_perms = o->max_perms,
					  .seed = o->seed ^ name_hash(names[f])};
		size_t k = pd_ediv_find(cp, n_runs / min + 1, s.x, s.n, &eo);
		PD_GROW(out->cp, cap, out->n_cp + k);
		for (size_t i = 0; i < k; i++) {
			struct pd_hist_change *c = &out->cp[out->n_cp++];
			c->feature = f;
			levels(c, &s, cp, i, k);
			c->worse = worse_way(names[f]) *
				   ((c->after > c->before) - (c->after < c->before));
			c->recent = c->at + min >= n_runs;
		}
	}
	if (out->n_cp)
		qsort(out->cp, out->n_cp, sizeof(*out->cp), by_size);
	free(s.x), free(s.run), free(cp);
}

void pd_history_release(struct pd_history *h)
{
	free(h->cp);
	*h = (struct pd_history){0};
}

void pd_history_spread(struct pd_hist_spread *out, const struct pd_history *h,
		       const double *values, size_t f)
{
	double sum = 0, ss = 0;
	*out = (struct pd_hist_spread){.sd = NAN, .rel_sd = NAN};
	for (size_t i = 0; i < h->n_cp; i++)
		if (h->cp[i].feature == f && h->cp[i].at > out->from)
			out->from = h->cp[i].at;
	for (size_t r = out->from; r < h->n_runs; r++) {
		double v = values[r * h->n_features + f];
		if (!isnan(v))
			sum += v, out->n++;
	}
	out->mean = out->n ? sum / (double)out->n : NAN;
	for (size_t r = out->from; r < h->n_runs; r++) {
		double v = values[r * h->n_features + f];
		if (!isnan(v))
			ss += (v - out->mean) * (v - out->mean);
	}
	if (out->n >= 2)
		out->sd = sqrt(ss / (double)(out->n - 1));
	if (out->n >= 2 && out->mean != 0)
		out->rel_sd = out->sd / fabs(out->mean);
}

static int by_feature(const void *key, const void *elem)
{
	return strcmp(key, ((const struct pd_run_spread *)elem)->feature);
}

double pd_history_run_sd(const struct pd_compare_opts *opts, const struct pd_view *v,
			 enum pd_phase p)
{
	struct pd_buf name = PD_BUF_INIT;
	const struct pd_run_spread *s;
	if (!opts->n_run_spread)
		return NAN;
	pd_buf_addf(&name, "%s|%s|%s", v->metric, v->scope.name, pd_phase_name(p));
	s = bsearch(name.ptr, opts->run_spread, opts->n_run_spread, sizeof(*s), by_feature);
	pd_buf_release(&name);
	return s && s->n >= PD_HISTORY_MIN_RUNS && isfinite(s->rel_sd) && s->rel_sd >= 0
		       ? s->rel_sd
		       : NAN;
}

int pd_history_earlier(const struct pd_hist_when *r, const struct pd_hist_when *t)
{
	int c = strcmp(r->order, t->order);
	if (!strcmp(r->key, t->key) || strcmp(r->build_line, t->build_line))
		return 0;
	if (c || r->time_ms != t->time_ms)
		return c < 0 || (c == 0 && r->time_ms < t->time_ms);
	return r->number < t->number; /* the same build started at once: by build number */
}
