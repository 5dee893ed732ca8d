#include "compare.h"
#include "../core/buf.h"
#include "../core/xalloc.h"

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

int pd_scope_ref_rank(const struct pd_scope_ref *s)
{
	if (s->kind == PD_AT_CLUSTER || s->kind == PD_AT_SURVIVORS)
		return 0;
	return s->kind == PD_AT_ROLE ? 1 : 2;
}
