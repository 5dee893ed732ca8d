#include "kpi.h"
#include "analyze/stats/infer.h"
#include "analyze/stats/sampling.h"
#include "core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const rule_text[] = {
	[PD_KPI_FIRST_NODE] = "the first n1ql node of the spec only (2017 to July 2022)",
	[PD_KPI_EVERY_NODE] =
		"every n1ql node of the spec, removed ones included (July to August 2022)",
	[PD_KPI_ACTIVE_NODES] = "the active n1ql nodes only (from August 2022)",
};

const char *pd_kpi_rule_words(enum pd_kpi_rule r)
{
	static const char *const words[] = {
		[PD_KPI_FIRST_NODE] = "the first query node only",
		[PD_KPI_EVERY_NODE] = "every query node",
		[PD_KPI_ACTIVE_NODES] = "the query nodes still in the cluster at the end only",
	};
	return words[r];
}

/* The first node's share is known from its own counter, else when it is the removed one
 * or the only survivor. */
static double first_node(const struct pd_kpi_in *in)
{
	if (in->per_node)
		return in->first;
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
	out->tol_pct = tol_pct;
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

/* The rules of bits, "A and B" (each rule's text). */
static void list_rules(struct pd_buf *b, unsigned bits)
{
	int k = 0;
	for (int i = 0; i < PD_KPI_N_RULES; i++)
		if (bits & (1u << i))
			pd_buf_addf(b, "%s%s", k++ ? " and over " : "", rule_text[i]);
}

/* The rules as near to the KPI as the nearest one (equal estimates: one figure). */
static unsigned nearest_rules(const struct pd_kpi_rules *r)
{
	unsigned bits = 0;
	for (int i = 0; r->nearest >= 0 && i < PD_KPI_N_RULES; i++)
		if (r->est[i] == r->est[r->nearest])
			bits |= 1u << i;
	return bits;
}

void pd_kpi_describe(struct pd_buf *b, const struct pd_kpi_rules *r)
{
	if (r->match) {
		int m = 0;
		while (!(r->match & (1u << m)))
			m++;
		pd_buf_adds(b, " It matches perfrunner summing requests.count over ");
		list_rules(b, r->match);
		pd_buf_addf(b,
			    " (%.0f req/s, %.1f%% from the KPI, within the %.1f%% the "
			    "measurement leaves open).",
			    r->est[m], r->off_pct[m], r->tol_pct);
		return;
	}
	pd_buf_adds(b, " No rule of perfrunner's three reproduces it");
	if (!isnan(r->tol_pct))
		pd_buf_addf(b,
			    " within the %.1f%% the measurement leaves open (the served "
			    "rate's noise and the KPI's rounding)",
			    r->tol_pct);
	if (r->nearest < 0) {
		pd_buf_adds(b, ".");
		return;
	}
	pd_buf_adds(b, ": the closest, summing requests.count over ");
	list_rules(b, nearest_rules(r));
	pd_buf_addf(b, ", gives %.0f req/s, %.1f%% off.", r->est[r->nearest],
		    fabs(r->off_pct[r->nearest]));
}

const struct pd_kpi *pd_kpi_throughput(const struct pd_run *run)
{
	for (size_t i = 0; i < run->n_kpis; i++)
		if (run->kpis[i].metric && strstr(run->kpis[i].metric, PD_KPI_FORM) &&
		    isfinite(run->kpis[i].value))
			return &run->kpis[i];
	return NULL;
}

struct pd_estimate pd_kpi_served(const struct pd_run *run, const struct pd_timebase *tb)
{
	const struct pd_series *s = pd_run_series(run, "n1ql_stats", "query_requests", NULL);
	double m = pd_sampling_window_mean(s, tb->t0_ms, tb->end_ms + 1);
	return isnan(m) ? (struct pd_estimate){0, 0} : (struct pd_estimate){1, m};
}

static int64_t at_ms(const struct pd_timebase *tb, double s)
{
	return tb->t0_ms + (int64_t)llround(s * 1000.0);
}

/* The share of the n1ql nodes' summed median cbq-engine CPU before the event that host
 * had (each node counted once: the nodes of the run, not a role view that may already
 * hold the removed node); NaN when a node lacks the series there. */
static double cpu_share(const struct pd_run *run, const struct pd_timebase *tb,
			const char *host)
{
	int64_t to = at_ms(tb, tb->event_s);
	double mine = NAN, sum = 0, v;
	for (size_t i = 0; i < run->n_nodes; i++) {
		const struct pd_node *n = &run->nodes[i];
		if (!(n->services & PD_SVC_N1QL))
			continue;
		if (!pd_sampling_window_median(
			    &v, NULL, pd_run_series(run, "atop", "cbq-engine_cpu", n->host),
			    tb->t0_ms, to))
			return NAN;
		sum += v;
		if (!strcmp(n->host, host))
			mine = v;
	}
	return sum > 0 ? mine / sum : NAN;
}

/* The requests a node's own counter counted with from_ms < t <= to_ms: each rate of
 * prometheus/n1ql_requests times the step it covers (the counter's increase; the first
 * rate covers one sampling interval). */
static double counted(const struct pd_series *s, int64_t from_ms, int64_t to_ms)
{
	double sum = 0;
	int64_t step = pd_sampling_interval_ms(s);
	for (size_t i = 0; i < s->n; i++)
		if (s->t_ms[i] > from_ms && s->t_ms[i] <= to_ms)
			sum += s->v[i] * (double)(i ? s->t_ms[i] - s->t_ms[i - 1] : step) /
			       1000.0;
	return sum;
}

/* The Prometheus path's scope: which node served what, from every n1ql node's
 * own n1ql_requests series (a removed node's stops when it leaves), spread over the run
 * as perfrunner divides requests.count by the access time; 0 when a node lacks one. */
static int per_node(struct pd_kpi_in *out, double *share, const struct pd_run *run,
		    const struct pd_timebase *tb, double len)
{
	int64_t ev = tb->event == PD_EVENT_NONE ? tb->end_ms : at_ms(tb, tb->event_s);
	double pre_all = 0, pre_removed = 0, first = NAN, removed = 0;
	for (size_t i = 0; i < run->n_nodes; i++) {
		const char *h = run->nodes[i].host;
		const struct pd_series *s =
			pd_run_series(run, "prometheus", "n1ql_requests", h);
		if (!(run->nodes[i].services & PD_SVC_N1QL))
			continue;
		if (!s)
			return 0;
		double all = counted(s, tb->t0_ms - 1, tb->end_ms) / len;
		double pre = counted(s, tb->t0_ms - 1, ev);
		pre_all += pre;
		if (run->spec_n1ql.n && !strcmp(run->spec_n1ql.v[0], h))
			first = all;
		if (tb->node && !strcmp(tb->node, h))
			removed = all, pre_removed = pre;
	}
	*share = pre_all > 0 && tb->node ? pre_removed / pre_all : NAN;
	out->first = first, out->removed = removed;
	return out->per_node = 1;
}

/* The perfdb path's scope: n1ql_stats is cluster-wide, so the removed node's requests are
 * its share of cbq-engine CPU times the query rate before the event. */
static void by_cpu(struct pd_kpi_in *out, double *share, const struct pd_run *run,
		   const struct pd_timebase *tb, double len)
{
	double pre = pd_sampling_window_mean(
		pd_run_series(run, "n1ql_stats", "query_requests", NULL), tb->t0_ms,
		at_ms(tb, tb->event_s));
	*share = cpu_share(run, tb, tb->node);
	if (isfinite(*share) && isfinite(pre))
		out->removed = *share * pre * tb->event_s / len;
}

int pd_kpi_inputs(struct pd_kpi_in *out, double *share_out, const struct pd_run *run,
		  const struct pd_timebase *tb, struct pd_estimate served)
{
	size_t n1ql = 0;
	double len = (double)(tb->end_ms - tb->t0_ms) / 1000.0, share = NAN;
	int event = tb->event != PD_EVENT_NONE && tb->node;
	memset(out, 0, sizeof(*out));
	out->first = NAN;
	if (share_out)
		*share_out = NAN;
	if (!served.ok)
		return 0;
	for (size_t i = 0; i < run->n_nodes; i++)
		n1ql += (run->nodes[i].services & PD_SVC_N1QL) != 0;
	out->total = served.value;
	out->n_active = n1ql;
	if (!(len > 0))
		return 1;
	if (event) {
		out->n_active = n1ql ? n1ql - 1 : 0;
		out->removed_is_first =
			run->spec_n1ql.n && !strcmp(run->spec_n1ql.v[0], tb->node);
	}
	if (!(run->prometheus && per_node(out, &share, run, tb, len)) && event)
		by_cpu(out, &share, run, tb, len);
	if (share_out && event)
		*share_out = share;
	return 1;
}

double pd_kpi_tolerance(const struct pd_run *run, const struct pd_timebase *tb, double kpi)
{
	const struct pd_series *s = pd_run_series(run, "n1ql_stats", "query_requests", NULL);
	size_t n = 0;
	double *t = pd_xmalloc((s ? s->n : 0) * sizeof(*t) + 1),
	       *v = pd_xmalloc((s ? s->n : 0) * sizeof(*v) + 1),
	       *sorted = pd_xmalloc((s ? s->n : 0) * sizeof(*sorted) + 1), tol = NAN;
	for (size_t i = 0; s && i < s->n; i++)
		if (s->t_ms[i] >= tb->t0_ms && s->t_ms[i] <= tb->end_ms && isfinite(s->v[i]))
			t[n] = (double)(s->t_ms[i] - tb->t0_ms) / 1000.0, v[n++] = s->v[i];
	if (n >= 2) {
		struct pd_sample x;
		struct pd_infer_side side;
		pd_stats_sample_prepare(&x, t, v, n, sorted);
		pd_infer_side_of(&side, &x);
		if (side.mean > 0)
			tol = 100 * pd_infer_qnorm(0.995) * sqrt(side.var_mean) / side.mean +
			      100 * 0.05 / fabs(kpi);
	}
	free(t), free(v), free(sorted);
	return tol;
}

void pd_kpi_facts_of(struct pd_kpi_facts *out, const struct pd_run *run,
		     const struct pd_timebase *tb)
{
	memset(out, 0, sizeof(*out));
	out->kpi = pd_kpi_throughput(run);
	out->served = pd_kpi_served(run, tb);
	out->has_in = pd_kpi_inputs(&out->in, &out->removed_share, run, tb, out->served);
	out->has_rules = out->kpi && out->has_in;
	if (out->has_rules)
		pd_kpi_reconcile(&out->rules, &out->in, out->kpi->value,
				 pd_kpi_tolerance(run, tb, out->kpi->value));
}

static double pct_change(double from, double to)
{
	return from != 0 ? 100.0 * (to - from) / from : NAN;
}

/* The baselines' mean served rate and KPI (over those that have one) into out. */
static void base_levels(struct pd_kpi_change *out, const struct pd_kpi_facts *bases, size_t n)
{
	size_t n_served = 0;
	double served = 0, kpi = 0;
	out->same_id = 1;
	for (size_t j = 0; j < n; j++) {
		if (bases[j].served.ok)
			served += bases[j].served.value, n_served++;
		if (!bases[j].kpi)
			continue;
		if (!out->base_id)
			out->base_id = bases[j].kpi->metric;
		out->same_id &= !strcmp(out->base_id, bases[j].kpi->metric);
		kpi += bases[j].kpi->value, out->n_base_kpi++;
	}
	out->base_served.ok = n_served > 0;
	out->base_served.value = n_served ? served / (double)n_served : 0;
	out->base_kpi = out->n_base_kpi ? kpi / (double)out->n_base_kpi : 0;
}

void pd_kpi_change(struct pd_kpi_change *out, const struct pd_kpi_facts *bases, size_t n,
		   const struct pd_kpi_facts *target)
{
	memset(out, 0, sizeof(*out));
	out->kpi_pct = out->served_pct = out->lo_pct = out->hi_pct = NAN;
	out->verdict = PD_INFER_INCONCLUSIVE;
	out->delta = -1;
	base_levels(out, bases, n);
	out->target_served = target->served;
	if (out->base_served.ok && target->served.ok && out->base_served.value > 0)
		out->served_pct = pct_change(out->base_served.value, target->served.value);
	out->target_id = target->kpi ? target->kpi->metric : NULL;
	if (!out->n_base_kpi || !target->kpi)
		return;
	out->ok = 1;
	out->same_id &= !strcmp(out->base_id, target->kpi->metric);
	out->target_kpi = target->kpi->value;
	out->kpi_pct = pct_change(out->base_kpi, out->target_kpi);
}

void pd_kpi_judge(struct pd_kpi_change *k, const struct pd_delta *served, long di,
		  double threshold_pct)
{
	k->delta = served ? di : -1;
	if (!k->ok || isnan(k->kpi_pct) || !served || !(served->inf.valid & PD_INFER_HAS_PCT) ||
	    !(k->kpi_pct > -100))
		return;
	/* the served interval's ends as log ratios to its estimate, around the KPI's */
	const struct pd_infer_result *r = &served->inf;
	double at = log1p(r->delta_pct / 100), kpi = log1p(k->kpi_pct / 100);
	k->lo_pct = 100 * expm1(kpi + log1p(fmax(r->lo_pct, -99.999) / 100) - at);
	k->hi_pct = 100 * expm1(kpi + log1p(r->hi_pct / 100) - at);
	k->verdict = pd_infer_decide(k->lo_pct, k->hi_pct, threshold_pct, -1);
}
