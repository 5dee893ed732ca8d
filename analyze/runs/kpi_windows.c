#include "kpi_windows.h"
#include "core/xalloc.h"

#include <math.h>
#include <string.h>

static const struct pd_kpi *find(const struct pd_run *run, const struct pd_kpi *k)
{
	for (size_t i = 0; i < run->n_kpis; i++)
		if (run->kpis[i].window && !strcmp(run->kpis[i].window, k->window) &&
		    !strcmp(run->kpis[i].metric, k->metric))
			return &run->kpis[i];
	return NULL;
}

void pd_kpi_windows_pair(struct pd_comparison *c)
{
	const struct pd_run *t = c->target;
	c->n_kpi_windows = 0;
	c->kpi_windows = pd_xcalloc(t->n_kpis + 1, sizeof(*c->kpi_windows));
	for (size_t i = 0; i < t->n_kpis; i++) {
		const struct pd_kpi *k = &t->kpis[i], *b = k->window ? find(c->base, k) : NULL;
		if (!b)
			continue;
		c->kpi_windows[c->n_kpi_windows++] = (struct pd_kpi_pair){
			.metric = k->metric,
			.window = k->window,
			.base = b->value,
			.target = k->value,
			.change_pct = b->value != 0
					      ? (k->value - b->value) / fabs(b->value) * 100
					      : NAN,
			.base_samples = b->window_samples,
			.target_samples = k->window_samples};
	}
}
