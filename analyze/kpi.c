#include "kpi.h"

#include <math.h>

static const char *const rule_text[] = {
	[PD_KPI_FIRST_NODE] = "the first n1ql node of the spec only (2017 to July 2022)",
	[PD_KPI_EVERY_NODE] =
		"every n1ql node of the spec, removed ones included (July to August 2022)",
	[PD_KPI_ACTIVE_NODES] = "the active n1ql nodes only (from August 2022)",
};

/* The first node's share is known when it is the removed one or the only survivor. */
static double first_node(const struct pd_kpi_in *in)
{
	if (in->removed_is_first)
		return in->removed;
	return in->n_active == 1 ? in->total - in->removed : NAN;
}

void pd_kpi_reconcile(struct pd_kpi_rules *out, const struct pd_kpi_in *in, double kpi,
		      double tol_pct)
{
	double best = INFINITY;
	out->est[PD_KPI_FIRST_NODE] = first_node(in);
	out->est[PD_KPI_EVERY_NODE] = in->total;
	out->est[PD_KPI_ACTIVE_NODES] = in->total - in->removed;
	out->match = 0;
	out->nearest = -1;
	for (int r = 0; r < PD_KPI_N_RULES; r++) {
		double e = out->est[r];
		out->off_pct[r] = isfinite(e) && e > 0 ? 100 * (kpi - e) / e : NAN;
		if (isnan(out->off_pct[r]))
			continue;
		if (fabs(out->off_pct[r]) <= tol_pct)
			out->match |= 1u << r;
		if (fabs(out->off_pct[r]) < best) {
			best = fabs(out->off_pct[r]);
			out->nearest = r;
		}
	}
}

static void list_matches(struct pd_buf *b, const struct pd_kpi_rules *r)
{
	int k = 0;
	for (int i = 0; i < PD_KPI_N_RULES; i++)
		if (r->match & (1u << i))
			pd_buf_addf(b, "%s%s (%.0f req/s, %.1f%% from the KPI)",
				    k++ ? " and over " : "", rule_text[i], r->est[i],
				    r->off_pct[i]);
}

void pd_kpi_describe(struct pd_buf *b, const struct pd_kpi_rules *r)
{
	if (r->match) {
		pd_buf_adds(b, " It matches perfrunner summing requests.count over ");
		list_matches(b, r);
		pd_buf_adds(b, ".");
		return;
	}
	pd_buf_adds(b, " No rule of perfrunner's three reproduces it:");
	for (int i = 0, k = 0; i < PD_KPI_N_RULES; i++)
		if (!isnan(r->off_pct[i]))
			pd_buf_addf(b, "%s %s gives %.0f req/s", k++ ? ";" : "", rule_text[i],
				    r->est[i]);
	if (r->nearest >= 0)
		pd_buf_addf(b, "; the nearest is %.1f%% from the KPI", r->off_pct[r->nearest]);
	pd_buf_adds(b, ".");
}
