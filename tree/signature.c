/* A run's signature as data: its features' list, the KPI rules' names (signature.h). */
#include "signature.h"

#include "tree.h"

#include "../core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const rule_names[PD_KPI_N_RULES] = {
	[PD_KPI_FIRST_NODE] = "first-node",
	[PD_KPI_EVERY_NODE] = "every-node",
	[PD_KPI_ACTIVE_NODES] = "active-nodes",
};

const char *pd_signature_rule_name(int rule)
{
	return rule >= 0 && rule < PD_KPI_N_RULES ? rule_names[rule] : NULL;
}

void pd_signature_add(struct pd_signature *s, const char *name, double value, double se)
{
	if (!isfinite(value))
		return;
	PD_GROW(s->f, s->cap, s->n + 1);
	s->f[s->n++] = (struct pd_sig_feature){
		.name = pd_xstrdup(name), .value = value, .se = isfinite(se) ? se : NAN};
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct pd_sig_feature *)a)->name,
		      ((const struct pd_sig_feature *)b)->name);
}

void pd_signature_sort(struct pd_signature *s)
{
	size_t k = 0;
	if (!s->n)
		return;
	qsort(s->f, s->n, sizeof(*s->f), by_name);
	for (size_t i = 1; i < s->n; i++) {
		if (!strcmp(s->f[i].name, s->f[k].name))
			free(s->f[i].name);
		else
			s->f[++k] = s->f[i];
	}
	s->n = k + 1;
}

const struct pd_sig_feature *pd_signature_find(const struct pd_signature *s, const char *name)
{
	struct pd_sig_feature key = {.name = (char *)name};
	return s->n ? bsearch(&key, s->f, s->n, sizeof(*s->f), by_name) : NULL;
}

void pd_signature_free(struct pd_signature *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->f[i].name);
	free(s->f);
	free(s->key), free(s->job), free(s->version), free(s->test_config);
	free(s->spec), free(s->cluster), free(s->snapshot), free(s->event_node);
	free(s->kpi_metric);
	free(s);
}
