/* What perfdelta found in one bundle, for `perfdelta inspect`. */
#ifndef PD_INSPECT_H
#define PD_INSPECT_H

#include "../core/buf.h"
#include "../tree/tree.h"
#include "../core/model.h"

/* A human-readable listing of run with its facts (pd_facts_of; every input string
 * escaped for a terminal). */
void pd_inspect_text(struct pd_buf *out, const struct pd_run *run, const struct pd_facts *f);
/* The same as one JSON document. */
void pd_inspect_json(struct pd_buf *out, const struct pd_run *run, const struct pd_facts *f);

#endif
