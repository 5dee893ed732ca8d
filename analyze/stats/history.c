/* Change points over a test's history (history.h). */
#include "history.h"

#include "analyze/opts.h"
#include "edivisive.h"
#include "analyze/policy.h"
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

/* The event's own features and the KPI (signature.h): their unit and which way is
 * worse, as no metric rule names them. */
static const struct {
	const char *name;
	enum pd_unit unit;
	int way;
} own[] = {
	{"event/failed_requests", PD_UNIT_COUNT, +1},
	{"event/throughput_dip_pct", PD_UNIT_PERCENT, -1}, /* a deeper dip is more negative */
	{"event/recovery_s", PD_UNIT_NONE, +1},            /* seconds, as its name says */
	{"event/connections_left", PD_UNIT_COUNT, +1},
	{"kpi/throughput", PD_UNIT_PER_SEC, -1},
};

/* The unit and worse way of feature name: its metric's ("collector/metric|scope|phase"),
 * or for "event/pre_post_pct|collector/metric|scope" a percentage that goes its metric's
 * way; own[]'s for the event's own numbers and the KPI; else a count of unknown way. */
static void facts_of(struct pd_hist_feature *out, const char *name)
{
	const char *m = name, *slash, *bar;
	*out = (struct pd_hist_feature){.unit = PD_UNIT_COUNT};
	for (size_t i = 0; i < sizeof(own) / sizeof(*own); i++)
		if (!strcmp(name, own[i].name)) {
			out->unit = own[i].unit, out->way = own[i].way;
			return;
		}
	if (!strncmp(name, "event/", strlen("event/"))) {
		m = strchr(name, '|') ? strchr(name, '|') + 1 : NULL;
		out->unit = PD_UNIT_PERCENT;
	}
	if (!m || !(slash = strchr(m, '/')) || !(bar = strchr(m, '|')) || slash > bar)
		return;
	struct pd_buf collector = PD_BUF_INIT, metric = PD_BUF_INIT;
	pd_buf_add(&collector, m, (size_t)(slash - m));
	pd_buf_add(&metric, slash + 1, (size_t)(bar - slash - 1));
	out->way = pd_metric_worse(collector.ptr, metric.ptr);
	if (m == name)
		out->unit = pd_metric_unit(collector.ptr, metric.ptr);
	pd_buf_release(&collector);
	pd_buf_release(&metric);
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

/* Marks the features with at least 2 x min_size values that are all equal (constant:
 * nothing to find, and not one of the family's m), counts them and the features tested. */
static void tested(struct pd_history *h, const double *values, size_t min_size)
{
	for (size_t f = 0; f < h->n_features; f++) {
		size_t n = 0, equal = 0;
		double first = NAN;
		for (size_t r = 0; r < h->n_runs; r++) {
			double v = values[r * h->n_features + f];
			if (isnan(v))
				continue;
			first = n++ ? first : v;
			equal += v == first;
		}
		h->feat[f].constant = n >= 2 * min_size && equal == n;
		h->n_constant += (size_t)h->feat[f].constant;
		h->n_tested += n >= 2 * min_size && equal < n;
	}
}

void pd_history_analyze(struct pd_history *out, const double *values, size_t n_runs,
			size_t n_features, const char *const *names,
			const struct pd_hist_opts *o)
{
	size_t cap = 0, min = o->min_size < 2 ? 2 : o->min_size;
	struct series s = {pd_xmalloc((n_runs + 1) * sizeof(double)),
			   pd_xmalloc((n_runs + 1) * sizeof(size_t)), 0};
	struct pd_ediv_cp *cp = pd_xmalloc((n_runs / min + 1) * sizeof(*cp));
	*out = (struct pd_history){.n_runs = n_runs,
				   .n_features = n_features,
				   .min_size = min,
				   .feat = pd_xcalloc(n_features + 1, sizeof(*out->feat))};
	for (size_t f = 0; f < n_features; f++)
		facts_of(&out->feat[f], names[f]);
	tested(out, values, min);
	out->alpha_feature = out->n_tested ? o->alpha / (double)out->n_tested : o->alpha;
	for (size_t f = 0; f < n_features; f++) {
		if (out->feat[f].constant)
			continue;
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
			c->worse = out->feat[f].way *
				   ((c->after > c->before) - (c->after < c->before));
			c->recent = c->at + min >= n_runs;
		}
	}
	if (out->n_cp)
		qsort(out->cp, out->n_cp, sizeof(*out->cp), by_size);
	out->n_top = out->n_cp < PD_POLICY_TOP_FINDINGS ? out->n_cp : PD_POLICY_TOP_FINDINGS;
	free(s.x), free(s.run), free(cp);
}

void pd_history_release(struct pd_history *h)
{
	free(h->cp);
	free(h->feat);
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
