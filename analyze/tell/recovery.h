/* The query rate at the event, the one owner of the dip and the recovery ("one
 * fact, one place"): each run's pd_dip (pd_comparison.dip), the recovery finding that
 * compares them, and the words of a recovery question without a finding. The history's
 * signature reads the target's dip from here. */
#ifndef PD_RECOVERY_H
#define PD_RECOVERY_H

#include "analyze/opts.h"
#include "tree/tree.h"
#include "core/buf.h"

/* Measures c->dip[0] and [1] (the target's event defines the phases) and adds the recovery
 * finding when the target dipped past the threshold against a baseline without an event,
 * or when the runs' own dips or recoveries differ (two failover runs): a slower or deeper
 * one regresses. */
void pd_recovery_build(struct pd_comparison *c);

/* Appends what the query rate did at the event when no finding states it ("both runs
 * dipped ... and were back ..."); returns 0 and appends nothing when there is no dip to
 * tell of. */
int pd_recovery_no_change(struct pd_buf *b, const struct pd_comparison *c);

#endif
