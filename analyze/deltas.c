#include "compare_impl.h"
#include "../core/xalloc.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The non-NaN points of one side of a view inside a window, with their times. */
struct sample {
	double *t, *v, *sorted;
	size_t n;
};

static void collect(struct sample *out, const double *side, const struct pd_view *view,
		    const struct pd_window *w)
{
	out->n = 0;
	for (size_t i = 0; i < view->n; i++) {
		double t = (double)i * view->step_s;
		if (t < w->start_s || t >= w->end_s || isnan(side[i]))
			continue;
		out->t[out->n] = t;
		out->v[out->n++] = side[i];
	}
}

static size_t count_in(const double *side, const struct pd_view *view,
		       const struct pd_window *w)
{
	size_t n = 0;
	for (size_t i = 0; i < view->n; i++) {
		double t = (double)i * view->step_s;
		n += t >= w->start_s && t < w->end_s && !isnan(side[i]);
	}
	return n;
}

/* The (view, window) pairs with enough samples on both sides, in a fixed order. */
static void plan_deltas(struct pd_comparison *c)
{
	for (size_t vi = 0; vi < c->n_views; vi++)
		for (int w = 0; w < PD_PHASE_COUNT; w++) {
			const struct pd_view *v = &c->views[vi];
			if (!pd_comparison_has_phase(c, (enum pd_phase)w) ||
			    count_in(v->base, v, &c->windows[w]) < 10 ||
			    count_in(v->target, v, &c->windows[w]) < 10)
				continue;
			PD_GROW(c->deltas, c->cap_deltas, c->n_deltas + 1);
			struct pd_delta *d = &c->deltas[c->n_deltas++];
			memset(d, 0, sizeof(*d));
			d->view = vi;
			d->phase = c->windows[w].phase;
		}
}

static void fill_delta(const struct pd_comparison *c, struct pd_delta *d, struct sample *b,
		       struct sample *t)
{
	const struct pd_view *v = &c->views[d->view];
	struct pd_sample x, y;
	collect(b, v->base, v, &c->windows[d->phase]);
	collect(t, v->target, v, &c->windows[d->phase]);
	pd_stats_sample_prepare(&x, b->t, b->v, b->n, b->sorted);
	pd_stats_sample_prepare(&y, t->t, t->v, t->n, t->sorted);
	pd_stats_summary_of(&d->base, &x);
	pd_stats_summary_of(&d->target, &y);
	struct pd_delta_ci ci = pd_stats_delta_ci_of(&x, &y, 0.05);
	d->delta_pct = ci.delta_pct;
	d->ci_lo = ci.lo_pct;
	d->ci_hi = ci.hi_pct;
	d->p_value = pd_stats_mann_whitney_of(&x, &y, 1, NULL);
}

/* One worker fills every k-th delta from its first; workers share nothing but reads, and
 * a delta's numbers do not depend on which worker computed it. */
struct worker {
	pthread_t thread;
	struct pd_comparison *c;
	size_t first, stride, grid;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	size_t n = w->grid;
	struct sample b = {pd_xmalloc(n * sizeof(double)), pd_xmalloc(n * sizeof(double)),
			   pd_xmalloc(n * sizeof(double)), 0};
	struct sample t = {pd_xmalloc(n * sizeof(double)), pd_xmalloc(n * sizeof(double)),
			   pd_xmalloc(n * sizeof(double)), 0};
	for (size_t k = w->first; k < w->c->n_deltas; k += w->stride)
		fill_delta(w->c, &w->c->deltas[k], &b, &t);
	free(b.t), free(b.v), free(b.sorted), free(t.t), free(t.v), free(t.sorted);
	return NULL;
}

/* Threads for the statistics: one per online core, at most 8. */
static size_t thread_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 8 ? 8 : (size_t)n;
}

static void judge(struct pd_comparison *c, const struct pd_compare_opts *opts)
{
	double *p = pd_xmalloc((c->n_deltas + 1) * sizeof(*p));
	double *adj = pd_xmalloc((c->n_deltas + 1) * sizeof(*adj));
	for (size_t i = 0; i < c->n_deltas; i++)
		p[i] = c->deltas[i].p_value;
	pd_stats_holm(adj, p, c->n_deltas);
	c->correction = "holm";
	for (size_t i = 0; i < c->n_deltas; i++) {
		struct pd_delta *d = &c->deltas[i];
		const struct pd_view *v = &c->views[d->view];
		d->p_adj = adj[i];
		d->verdict =
			pd_verdict_of(d->delta_pct, d->ci_lo, d->ci_hi, d->p_adj, opts->alpha,
				      pd_compare_threshold(opts, v->metric), v->worse);
		d->outcome =
			d->verdict == PD_VERDICT_REGRESSION ? PD_OUTCOME_FAIL : PD_OUTCOME_PASS;
	}
	free(p);
	free(adj);
}

void pd_deltas_compute(struct pd_comparison *c, const struct pd_compare_opts *opts)
{
	size_t grid = 1, nt = thread_count();
	struct worker w[8];
	for (size_t i = 0; i < c->n_views; i++)
		if (c->views[i].n > grid)
			grid = c->views[i].n;
	plan_deltas(c);
	for (size_t i = 0; i < nt; i++) {
		w[i] = (struct worker){0, c, i, nt, grid};
		/* a thread that cannot start leaves its share to the caller */
		if (i && pthread_create(&w[i].thread, NULL, work, &w[i]) != 0)
			w[i].stride = 0;
	}
	work(&w[0]);
	for (size_t i = 1; i < nt; i++) {
		if (w[i].stride)
			pthread_join(w[i].thread, NULL);
		else
			work(&(struct worker){0, c, i, nt, grid});
	}
	judge(c, opts);
}
