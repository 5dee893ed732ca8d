/* The time base of one run: the start of its measured phase, the console clock's offset
 * from UTC, and the event (failover) time with the source it came from. */
#ifndef PD_TIMEBASE_H
#define PD_TIMEBASE_H

#include "tree/tree.h"
#include "core/err.h"
#include "core/model.h"

/* Frees what tb owns (its node and agreement); tb may be NULL. */
void pd_timebase_release(struct pd_timebase *tb);

/* Resolves the time base of run (the caller releases it, even after a failure). PD_EINVAL when
 * a flag contradicts the run (an event time outside the phase); a run without an event gets
 * event PD_EVENT_NONE. */
int pd_timebase_resolve(struct pd_timebase *out, const struct pd_run *run,
			const struct pd_time_flags *flags, struct pd_err *err);

/* Appends to out one sentence for each thing a reader must know about tb's event before
 * any figure: its sources disagree (naming the one used), an estimate outside the phase
 * was dropped, the failover line's node was not the one used, more events followed the
 * first. who names the run ("target", "baseline"). Nothing for a run without an event. */
void pd_timebase_notes(struct pd_strv *out, const struct pd_timebase *tb, const char *who);

/* Rounds an offset in seconds to the 15-minute grid of real time zones. */
int64_t pd_timebase_offset_round(double offset_s);

#endif
