#include "jsonw.h"
#include "escape.h"

void pd_jw_key(struct pd_jw *w, const char *k)
{
	if (!w->first)
		pd_buf_addch(w->b, ',');
	w->first = 0;
	if (k) {
		pd_esc_json(w->b, k);
		pd_buf_addch(w->b, ':');
	}
}

void pd_jw_str(struct pd_jw *w, const char *k, const char *v)
{
	pd_jw_key(w, k);
	if (v)
		pd_esc_json(w->b, v);
	else
		pd_buf_adds(w->b, "null");
}

void pd_jw_num(struct pd_jw *w, const char *k, double v)
{
	pd_jw_key(w, k);
	pd_esc_json_num(w->b, v);
}

void pd_jw_int(struct pd_jw *w, const char *k, int64_t v)
{
	pd_jw_key(w, k);
	pd_buf_add_int(w->b, v);
}

void pd_jw_bool(struct pd_jw *w, const char *k, int v)
{
	pd_jw_key(w, k);
	pd_buf_adds(w->b, v ? "true" : "false");
}

void pd_jw_null(struct pd_jw *w, const char *k)
{
	pd_jw_key(w, k);
	pd_buf_adds(w->b, "null");
}

void pd_jw_open(struct pd_jw *w, const char *k, char bracket)
{
	pd_jw_key(w, k);
	pd_buf_addch(w->b, bracket);
	w->first = 1;
}

void pd_jw_close(struct pd_jw *w, char bracket)
{
	pd_buf_addch(w->b, bracket);
	w->first = 0;
}

void pd_jw_strv(struct pd_jw *w, const char *k, const struct pd_strv *sv)
{
	pd_jw_open(w, k, '[');
	for (size_t i = 0; i < sv->n; i++)
		pd_jw_str(w, NULL, sv->v[i]);
	pd_jw_close(w, ']');
}

void pd_jw_nodes(struct pd_jw *w, const char *k, const struct pd_run *run)
{
	pd_jw_open(w, k, '[');
	for (size_t i = 0; i < run->n_nodes; i++) {
		const struct pd_node *n = &run->nodes[i];
		pd_jw_open(w, NULL, '{');
		pd_jw_str(w, "host", n->host);
		pd_jw_open(w, "services", '[');
		for (unsigned bit = 1; bit < (1u << PD_SVC_COUNT); bit <<= 1)
			if (n->services & bit)
				pd_jw_str(w, NULL, pd_service_name(bit));
		pd_jw_close(w, ']');
		pd_jw_str(w, "role", n->role);
		pd_jw_close(w, '}');
	}
	pd_jw_close(w, ']');
}
