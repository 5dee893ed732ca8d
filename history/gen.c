/* A generated history of failover runs (gen.h). */
#include "gen.h"

#include "../core/buf.h"
#include "../core/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const struct pd_gen_plant pd_gen_plants[PD_GEN_N_PLANTS] = {
	{"event/connections_left", 30, 2, 70},
	{"event/recovery_s", 55, 45, 95},
	{"event/failed_requests", 70, 20, 160},
};

/* Named features: their base level and relative run-to-run sd. */
static const struct {
	const char *name;
	double level, sd;
} named[] = {
	{"event/connections_left", 2, 0.15},
	{"event/recovery_s", 45, 0.08},
	{"event/failed_requests", 20, 0.3},
	{"event/throughput_dip_pct", -35, 0.1},
	{"kpi/throughput", 3525, 0.02},
	{"n1ql_stats/query_requests|cluster|pre", 3916, 0.02},
	{"n1ql_stats/query_requests|cluster|post", 3525, 0.02},
	{"atop/memcached_cpu|role:kv|pre", 251, 0.03},
	{"atop/memcached_cpu|role:kv|post", 262, 0.03},
	{"atop/cbq-engine_rss|role:n1ql|post", 1.9e9, 0.01},
	{"net/ESTABLISHED|role:index|post", 410, 0.04},
	{"ns_server/cpu_utilization_rate|cluster|post", 88, 0.02},
};
#define N_NAMED (sizeof(named) / sizeof(*named))

/* A standard normal draw from a splitmix64 state (Box-Muller). */
static double normal(uint64_t *s)
{
	double u[2];
	for (int k = 0; k < 2; k++) {
		uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		u[k] = ((double)((z ^ (z >> 31)) >> 11) + 0.5) / 9007199254740992.0;
	}
	return sqrt(-2 * log(u[0])) * cos(6.283185307179586 * u[1]);
}

static double level(const struct pd_gen_opts *o, const char *name, double base, size_t i)
{
	for (size_t k = 0; k < PD_GEN_N_PLANTS && o->plant; k++)
		if (!strcmp(pd_gen_plants[k].feature, name) && i >= pd_gen_plants[k].at)
			return pd_gen_plants[k].after;
	return base;
}

static void identity(struct pd_signature *s, const struct pd_gen_opts *o, size_t i)
{
	struct pd_buf b = PD_BUF_INIT;
	s->job = pd_xstrdup("iris-multi-client");
	s->number = 20000 + (long)i;
	pd_buf_addf(&b, "%s#%ld", s->job, s->number);
	s->key = pd_buf_detach(&b);
	pd_buf_addf(&b, "7.6.0-%zu", 1000 + 7 * i);
	s->version = pd_buf_detach(&b);
	s->test_config = pd_xstrdup(o->test);
	s->spec = pd_xstrdup("iris_extra_n1ql");
	s->cluster = pd_xstrdup("iris");
	s->time_ms = 1700000000000LL + (int64_t)i * 7 * 86400000LL;
	s->event_kind = "hard-failover";
	s->event_node = pd_xstrdup("172.23.100.40");
	s->event_s = 300;
	s->kpi_rule = 2;
}

struct pd_signature *pd_gen_run(const struct pd_gen_opts *o, size_t i)
{
	struct pd_signature *s = pd_xcalloc(1, sizeof(*s));
	uint64_t rng = o->seed * 0x2545F4914F6CDD1DULL + i * 0x9E3779B97F4A7C15ULL;
	struct pd_buf name = PD_BUF_INIT;
	identity(s, o, i);
	for (size_t k = 0; k < N_NAMED; k++) {
		double m = level(o, named[k].name, named[k].level, i);
		pd_signature_add(s, named[k].name, m + fabs(m) * named[k].sd * normal(&rng),
				 NAN);
	}
	/* the rest: per-node metrics of a large cluster, each its own level and 1-4 % sd */
	for (size_t k = N_NAMED; k < o->n_features; k++) {
		double base = 10 + (double)(k * 37 % 1000),
		       sd = 0.01 + 0.03 * (double)(k % 7) / 6;
		pd_buf_truncate(&name, 0);
		pd_buf_addf(&name, "atop/proc%zu_cpu|node:172.23.%zu.%zu|%s", k % 40, k / 200,
			    k % 200,
			    k % 3 == 0   ? "pre"
			    : k % 3 == 1 ? "transient"
					 : "post");
		pd_signature_add(s, name.ptr, base * (1 + sd * normal(&rng)), base * sd / 8);
	}
	pd_buf_release(&name);
	pd_signature_sort(s);
	return s;
}
