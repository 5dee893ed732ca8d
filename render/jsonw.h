/* A JSON writer: members and elements in call order, commas where they belong, every
 * string through pd_esc_json and every double the shortest that reads back. */
#ifndef PD_JSONW_H
#define PD_JSONW_H

#include "../core/buf.h"
#include "../core/model.h"

#include <stdint.h>

struct pd_jw {
	struct pd_buf *b;
	int first; /* no comma before the next member or element */
};

#define PD_JW_INIT(buf)                                                                        \
	{                                                                                      \
		(buf), 1                                                                       \
	}

/* A member's key (k) or, with k NULL, an array element's separator. */
void pd_jw_key(struct pd_jw *w, const char *k);
void pd_jw_str(struct pd_jw *w, const char *k, const char *v); /* NULL is null */
void pd_jw_num(struct pd_jw *w, const char *k, double v);      /* NaN is null */
void pd_jw_int(struct pd_jw *w, const char *k, int64_t v);
void pd_jw_bool(struct pd_jw *w, const char *k, int v);
void pd_jw_null(struct pd_jw *w, const char *k);
/* Opens an object ('{') or an array ('[') as member k (or element, k NULL). */
void pd_jw_open(struct pd_jw *w, const char *k, char bracket);
void pd_jw_close(struct pd_jw *w, char bracket);
void pd_jw_strv(struct pd_jw *w, const char *k, const struct pd_strv *sv);
/* The run's nodes: [{"host", "services": [...], "role"}, ...]. */
void pd_jw_nodes(struct pd_jw *w, const char *k, const struct pd_run *run);

#endif
