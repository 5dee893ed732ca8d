/* The questions of an event ("the questions come from the run"): what a reader
 * asks of a failover or a rebalance-out, built from the event's kind and the runs' roles
 * (requests lost at the event, connections kept by the removed node, what changed before
 * and after on each role and on the cluster, what the KPI counts, recovery), each answered
 * from the ranked findings, or "not answered" with why when its inputs are missing: absence
 * is never agreement. The seed's ticket is one instance of them. */
#ifndef PD_QUESTIONS_H
#define PD_QUESTIONS_H

#include "analyze/opts.h"
#include "tree/tree.h"

/* Builds and answers c->questions from c's ranked findings; none when no run of c has an
 * event. Called once, after the ranking. */
void pd_questions_build(struct pd_comparison *c);

/* Frees c->questions (and their strings). */
void pd_questions_free(struct pd_comparison *c);

#endif
