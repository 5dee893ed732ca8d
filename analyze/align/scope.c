#include "scope.h"
#include "analyze/opts.h"
#include "core/buf.h"
#include "core/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The one place a scope's string form is made. */
static char *scope_name(const struct pd_scope_ref *s)
{
	struct pd_buf b = PD_BUF_INIT;
	switch (s->kind) {
	case PD_AT_NONE:
		return NULL;
	case PD_AT_CLUSTER:
		pd_buf_adds(&b, "cluster");
		break;
	case PD_AT_SURVIVORS:
		pd_buf_adds(&b, "survivors");
		break;
	case PD_AT_ROLE:
		pd_buf_addf(&b, "role:%s", pd_service_name(s->service));
		break;
	case PD_AT_NODE:
		pd_buf_addf(&b, "node:%s", s->host);
		break;
	case PD_AT_REMOVED:
		pd_buf_adds(&b, "removed");
		break;
	case PD_AT_INDEX:
		pd_buf_addf(&b, "index:%s", s->host);
		break;
	}
	return pd_buf_detach(&b);
}

void pd_scope_ref_set(struct pd_scope_ref *s, enum pd_scope_kind kind, unsigned service,
		      const char *host)
{
	free(s->host);
	free(s->name);
	s->kind = kind;
	s->service = kind == PD_AT_ROLE ? service : 0;
	s->host = (kind == PD_AT_NODE || kind == PD_AT_REMOVED || kind == PD_AT_INDEX) && host
			  ? pd_xstrdup(host)
			  : NULL;
	s->name = scope_name(s);
}

void pd_scope_ref_copy(struct pd_scope_ref *dst, const struct pd_scope_ref *src)
{
	pd_scope_ref_set(dst, src->kind, src->service, src->host);
}

void pd_scope_ref_free(struct pd_scope_ref *s)
{
	free(s->host);
	free(s->name);
	s->host = s->name = NULL;
}

int pd_scope_ref_eq(const struct pd_scope_ref *a, const struct pd_scope_ref *b)
{
	return a->kind == b->kind && a->service == b->service &&
	       !strcmp(a->host ? a->host : "", b->host ? b->host : "");
}

/* v's node list without host ("a,b,c" less "b"), or NULL when it does not hold host. */
static char *without(const char *nodes, const char *host)
{
	struct pd_buf b = PD_BUF_INIT;
	size_t n = strlen(host);
	int found = 0;
	for (const char *p = nodes; *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && !strncmp(p, host, n))
			found = 1;
		else
			pd_buf_addf(&b, "%s%.*s", b.len ? "," : "", (int)len, p);
		p += len + (e != NULL);
	}
	if (!found) {
		pd_buf_release(&b);
		return NULL;
	}
	return pd_buf_detach(&b);
}

/* The roles that hold the node the target's event removed: their survivors. */
static void roles_after(struct pd_comparison *c)
{
	const char *gone = c->event_side > 0 ? c->removed_node[1] : NULL;
	for (size_t i = 0; gone && i < c->n_views; i++) {
		struct pd_view *v = &c->views[i];
		if (v->scope.kind != PD_AT_ROLE || v->members < 2 || !v->nodes ||
		    !(v->nodes_after = without(v->nodes, gone)))
			continue;
		v->members_after = v->members - 1;
	}
}

static int same_level(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* A role of one survivor is that node after the event: its node's delta of the phase
 * states the role's judgment (one series, one verdict; the role's is the question's). */
static void one_node(struct pd_comparison *c, const struct pd_delta *role)
{
	const struct pd_view *v = &c->views[role->view];
	long vi = pd_comparison_view(c, v->metric, PD_AT_NODE, 0, role->nodes);
	const struct pd_delta *d =
		vi < 0 ? NULL : pd_comparison_delta(c, (size_t)vi, role->phase);
	/* the same series in both runs (the baseline's role may hold another count) */
	if (!d || !same_level(d->base.mean, role->base.mean) ||
	    !same_level(d->target.mean, role->target.mean))
		return;
	struct pd_delta *n = &c->deltas[d - c->deltas];
	n->inf = role->inf, n->stated = role->stated;
	n->delta_pct = role->delta_pct, n->ci_lo = role->ci_lo, n->ci_hi = role->ci_hi;
	n->p_value = role->p_value, n->p_adj = role->p_adj, n->verdict = role->verdict;
	n->run_offset_pct = role->run_offset_pct;
	n->as_role = 1;
}

void pd_scope_phases(struct pd_comparison *c)
{
	roles_after(c);
	for (size_t i = 0; i < c->n_deltas; i++) {
		struct pd_delta *d = &c->deltas[i];
		const struct pd_view *v = &c->views[d->view];
		int after = d->phase == PD_PHASE_TRANSIENT || d->phase == PD_PHASE_POST;
		d->members = after && v->nodes_after ? v->members_after : v->members;
		d->nodes = after && v->nodes_after ? v->nodes_after : v->nodes;
	}
	for (size_t i = 0; i < c->n_deltas; i++)
		if (c->deltas[i].members == 1 && c->views[c->deltas[i].view].nodes_after)
			one_node(c, &c->deltas[i]);
}

int pd_scope_ref_rank(const struct pd_scope_ref *s)
{
	if (s->kind == PD_AT_CLUSTER || s->kind == PD_AT_SURVIVORS)
		return 0;
	return s->kind == PD_AT_ROLE ? 1 : 2;
}
