/* The findings in an engineer's words ("the first screen"): one plain sentence
 * per finding ("memcached on the kv nodes used 15 % more CPU for the whole run"), named
 * from core/metric.c's label column, the phase said as the event ("before the failover",
 * "for the whole run"), and the action it implies where there is one (a KPI rule to fix, a
 * product bug to file, a test procedure to change). Made once here; every output reads
 * pd_finding.words and .advice, and pd_question's, which analyze/tell/questions.c makes from
 * them. */
#ifndef PD_WORDS_H
#define PD_WORDS_H

#include "analyze/opts.h"
#include "tree/tree.h"
#include "core/buf.h"

/* Sets words and advice (NULL when nothing is to be done) of every finding of c; called
 * once the findings are ranked and their deltas known. */
void pd_words_findings(struct pd_comparison *c);

/* Appends "for the whole run", "before the failover", "after the rebalance-out", ... */
void pd_words_phase(struct pd_buf *b, const struct pd_comparison *c, enum pd_phase p);

/* The event as an engineer names it: "failover", "graceful failover", "rebalance-out",
 * "rebalance" (seen only in the series, its kind unknown: said in the warnings);
 * _event: the one the phases are cut at (pd_comparison_event). */
const char *pd_words_event_kind(enum pd_timebase_event e);
const char *pd_words_event(const struct pd_comparison *c);

/* Appends a percentage as a sentence says it: "15 %" from 10 up, "4.2 %" below. */
void pd_words_pct(struct pd_buf *b, double pct);

#endif
