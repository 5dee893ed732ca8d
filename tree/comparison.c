/* The one view lookup: a hash of (metric, scope) to the first view with it, built once
 * with the views, so that finding a view costs O(1) and not a pass over every view (20 000
 * series made that quadratic). The deltas are found by binary search: they are made in
 * (view, phase) order. */
#include "tree.h"
#include "../core/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct pd_view_index {
	size_t *slot; /* view index + 1; 0 empty */
	size_t mask;
};

static uint64_t mix(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/* The parts of a scope that tell views of one metric apart: the service of a role, the
 * host of a node or an index (one removed view per metric: its host is not part of the
 * key). */
static uint64_t key_hash(const char *metric, enum pd_scope_kind kind, unsigned service,
			 const char *host)
{
	uint64_t h = mix(0xcbf29ce484222325ULL, metric);
	h = (h ^ (uint64_t)kind) * 0x100000001b3ULL;
	h = (h ^ (kind == PD_AT_ROLE ? service : 0)) * 0x100000001b3ULL;
	return kind == PD_AT_NODE || kind == PD_AT_INDEX ? mix(h ^ 0xff, host) : h;
}

static int key_eq(const struct pd_view *v, const char *metric, enum pd_scope_kind kind,
		  unsigned service, const char *host)
{
	if (v->scope.kind != kind || strcmp(v->metric, metric))
		return 0;
	if (kind == PD_AT_ROLE)
		return v->scope.service == service;
	if (kind == PD_AT_NODE || kind == PD_AT_INDEX)
		return host && v->scope.host && !strcmp(v->scope.host, host);
	return 1;
}

static size_t *probe(const struct pd_comparison *c, const char *metric, enum pd_scope_kind kind,
		     unsigned service, const char *host)
{
	const struct pd_view_index *ix = c->view_index;
	size_t i = (size_t)key_hash(metric, kind, service, host) & ix->mask;
	while (ix->slot[i] && !key_eq(&c->views[ix->slot[i] - 1], metric, kind, service, host))
		i = (i + 1) & ix->mask;
	return &ix->slot[i];
}

void pd_comparison_index(struct pd_comparison *c)
{
	size_t cap = 16;
	pd_comparison_unindex(c);
	while (cap < 2 * c->n_views)
		cap *= 2;
	c->view_index = pd_xmalloc(sizeof(*c->view_index));
	c->view_index->slot = pd_xcalloc(cap, sizeof(size_t));
	c->view_index->mask = cap - 1;
	for (size_t i = 0; i < c->n_views; i++) {
		const struct pd_view *v = &c->views[i];
		size_t *s = probe(c, v->metric, v->scope.kind, v->scope.service, v->scope.host);
		if (!*s) /* the first view with the key, as a pass in order finds */
			*s = i + 1;
	}
}

void pd_comparison_unindex(struct pd_comparison *c)
{
	if (c->view_index)
		free(c->view_index->slot);
	free(c->view_index);
	c->view_index = NULL;
}

long pd_comparison_view(const struct pd_comparison *c, const char *metric,
			enum pd_scope_kind kind, unsigned service, const char *host)
{
	if (!c->view_index || !metric)
		return -1;
	return (long)*probe(c, metric, kind, service, host) - 1;
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
