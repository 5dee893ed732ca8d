/* A run's signature as JSON: identity, event, features (signature.h). */
#include "signature_json.h"

#include "jsonw.h"
#include "../tree/tree.h"

static void identity(struct pd_jw *w, const struct pd_signature *s)
{
	pd_jw_str(w, "key", s->key);
	pd_jw_open(w, "jenkins", '{');
	pd_jw_str(w, "job", s->job);
	if (s->number > 0)
		pd_jw_int(w, "number", s->number);
	else
		pd_jw_null(w, "number");
	pd_jw_close(w, '}');
	pd_jw_str(w, "version", s->version);
	pd_jw_str(w, "test_config", s->test_config);
	pd_jw_str(w, "spec", s->spec);
	pd_jw_str(w, "cluster", s->cluster);
	pd_jw_str(w, "snapshot", s->snapshot);
	if (s->time_ms > 0)
		pd_jw_int(w, "time_ms", s->time_ms);
	else
		pd_jw_null(w, "time_ms");
}

static void event(struct pd_jw *w, const struct pd_signature *s)
{
	pd_jw_open(w, "event", '{');
	pd_jw_str(w, "kind", s->event_kind);
	pd_jw_str(w, "node", s->event_node);
	pd_jw_num(w, "t_s", s->event_s);
	pd_jw_close(w, '}');
	pd_jw_open(w, "kpi", '{');
	pd_jw_str(w, "metric", s->kpi_metric);
	pd_jw_str(w, "rule", pd_signature_rule_name(s->kpi_rule));
	pd_jw_open(w, "rules_matching", '[');
	for (int r = 0; r < PD_KPI_N_RULES; r++)
		if (s->kpi_match & (1u << r))
			pd_jw_str(w, NULL, pd_signature_rule_name(r));
	pd_jw_close(w, ']');
	pd_jw_close(w, '}');
}

void pd_signature_json(struct pd_buf *b, const struct pd_signature *s)
{
	struct pd_jw w = PD_JW_INIT(b);
	pd_jw_open(&w, NULL, '{');
	pd_jw_str(&w, "tool", "perfdelta");
	pd_jw_str(&w, "kind", "signature");
	pd_jw_int(&w, "schema", 1);
	identity(&w, s);
	event(&w, s);
	pd_jw_open(&w, "features", '[');
	for (size_t i = 0; i < s->n; i++) {
		pd_jw_open(&w, NULL, '{');
		pd_jw_str(&w, "name", s->f[i].name);
		pd_jw_num(&w, "value", s->f[i].value);
		pd_jw_num(&w, "se", s->f[i].se);
		pd_jw_close(&w, '}');
	}
	pd_jw_close(&w, ']');
	pd_jw_close(&w, '}');
	pd_buf_addch(b, '\n');
}
