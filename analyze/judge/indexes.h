/* The index views that moved most (analyze/judge/indexes.c). */
#ifndef PD_ANALYZE_INDEXES_H
#define PD_ANALYZE_INDEXES_H

#include "core/model.h"
#include "tree/tree.h"

#include <stddef.h>
#include <stdint.h>

/* each index metric's cluster view counts its indexes and those that moved,
 * and its PD_POLICY_INDEX_TOP index views that moved most are ranked (pd_view.top); after the
 * deltas. */
void pd_indexes_rank(struct pd_comparison *c);

#endif
