/* perfdb's list answers (cbmonitor's REST API): GET / lists the databases, GET /DB the
 * metrics of one, each as a JSON array of names. */
#ifndef PD_PERFDB_LIST_H
#define PD_PERFDB_LIST_H

#include "../core/model.h"
#include "../core/src.h"

/* Appends the names of the array in src to out, sorted, each once. PD_EPARSE naming
 * src->path when src is not an array of strings or a name holds a NUL (\u0000, which
 * would cut it short and hide what follows). */
int pd_perfdb_list_parse(struct pd_strv *out, const struct pd_src *src, struct pd_err *err);

#endif
