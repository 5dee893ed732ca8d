/* The policy numbers of the comparison in one table: each says what it decides and why
 * that value. A number a finding, a delta or an output depends on lives here and nowhere
 * else (issue 20, "one owner per fact"). */
#ifndef PD_POLICY_H
#define PD_POLICY_H

/* Events: an event time may be late by this many sampling intervals (its sources agree
 * within one: the console's failover line against the series' rebalance start, 299.8 s
 * against 305 s on the seed). A figure measured "at the event" (the failed requests, the
 * throughput dip) looks back this far before it, over the points where the event's
 * effect already shows, so that it moves by a few percent at most when the event moves
 * within an interval (test_compare_event_errors_hold_when_the_event_moves). */
#define PD_POLICY_EVENT_SLACK 2

/* Data gaps: a hole of this many intervals (three samples or more missing in a row) on a
 * live node is said; a single lost sample is the norm for perfdb and is not. */
#define PD_POLICY_GAP_INTERVALS 4

#endif
