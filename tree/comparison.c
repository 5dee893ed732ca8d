/* The one view lookup: a hash of (metric, scope) to the first view with it, built once
 * with the views, so that finding a view costs O(1) and not a pass over every view (20 000
 * series made that quadratic). The deltas are found by binary search: they are made in
 * (view, phase) order. */
#include "tree.h"
#include "../core/buf.h"
#include "../core/strmap.h"
#include "../core/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The project's one hash table (core/strmap.h: seeded, so names in an input cannot be
 * made to collide) keyed by the parts of a scope that tell views of one metric apart. */
struct pd_view_index {
	struct pd_strmap map; /* key -> view index */
};

/* key: the scope kind; for a role its service; the metric and its NUL; for a node or an
 * index its host (one removed view per metric: its host is not part of the key). The
 * metric holds no NUL, so two keys are equal only for equal parts. */
static void make_key(struct pd_buf *key, const char *metric, enum pd_scope_kind kind,
		     unsigned service, const char *host)
{
	pd_buf_truncate(key, 0);
	pd_buf_addch(key, (char)kind);
	if (kind == PD_AT_ROLE)
		pd_buf_add(key, &service, sizeof(service));
	pd_buf_add(key, metric, strlen(metric) + 1);
	if ((kind == PD_AT_NODE || kind == PD_AT_INDEX) && host)
		pd_buf_adds(key, host);
}

void pd_comparison_index(struct pd_comparison *c)
{
	pd_comparison_unindex(c);
	struct pd_view_index *ix = pd_xmalloc(sizeof(*ix));
	struct pd_buf key = PD_BUF_INIT;
	*ix = (struct pd_view_index){PD_STRMAP_INIT};
	for (size_t i = 0; i < c->n_views; i++) {
		const struct pd_view *v = &c->views[i];
		make_key(&key, v->metric, v->scope.kind, v->scope.service, v->scope.host);
		pd_strmap_put(&ix->map, key.ptr, key.len, i); /* keeps the first */
	}
	pd_buf_release(&key);
	c->view_index = ix;
}

void pd_comparison_unindex(struct pd_comparison *c)
{
	if (c->view_index)
		pd_strmap_free(&c->view_index->map);
	free(c->view_index);
	c->view_index = NULL;
}

long pd_comparison_view(const struct pd_comparison *c, const char *metric,
			enum pd_scope_kind kind, unsigned service, const char *host)
{
	if (!c->view_index || !metric)
		return -1;
	struct pd_buf key = PD_BUF_INIT; /* local: the statistics' threads look views up */
	make_key(&key, metric, kind, service, host);
	size_t v = pd_strmap_get(&c->view_index->map, key.ptr, key.len);
	pd_buf_release(&key);
	return v == PD_STRMAP_NONE ? -1 : (long)v;
}

const struct pd_delta *pd_comparison_delta(const struct pd_comparison *c, size_t view,
					   enum pd_phase phase)
{
	size_t lo = 0, hi = c->n_deltas;
	while (lo < hi) { /* the first delta at or after (view, phase) */
		size_t mid = lo + (hi - lo) / 2;
		const struct pd_delta *d = &c->deltas[mid];
		if (d->view < view || (d->view == view && d->phase < phase))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->n_deltas && c->deltas[lo].view == view && c->deltas[lo].phase == phase
		       ? &c->deltas[lo]
		       : NULL;
}
