/* Scopes (analyze/align/scope.c): what a view, a delta or a finding is about (the cluster, the
 * survivors, a role, a node, an index), and which nodes a scope holds in each phase. */
#ifndef PD_ANALYZE_SCOPE_H
#define PD_ANALYZE_SCOPE_H

#include "tree/tree.h"

void pd_scope_ref_set(struct pd_scope_ref *s, enum pd_scope_kind kind, unsigned service,
		      const char *host);
void pd_scope_ref_copy(struct pd_scope_ref *dst, const struct pd_scope_ref *src);
void pd_scope_ref_free(struct pd_scope_ref *s);
/* 1 when a and b are the same scope. */
int pd_scope_ref_eq(const struct pd_scope_ref *a, const struct pd_scope_ref *b);
/* How broad a scope is: 0 for the cluster and the survivors (the broad scopes), 1 for a
 * role, 2 for one node (the removed one too). A finding stands at the broadest. */
int pd_scope_ref_rank(const struct pd_scope_ref *s);
/* Each delta's members and nodes in its phase (a role loses the node the target's event
 * removed from the event on); a role left with one node judges that node's delta of the
 * phase too, where the two are one series (one verdict). After the deltas are judged. */
void pd_scope_phases(struct pd_comparison *c);

#endif
