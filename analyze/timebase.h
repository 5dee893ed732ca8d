/* The time base of one run: the start of its measured phase, the console clock's offset
 * from UTC, and the event (failover) time with the source it came from. */
#ifndef PD_TIMEBASE_H
#define PD_TIMEBASE_H

#include "../core/err.h"
#include "../core/model.h"

/* The disruption a run's phases are cut at, resolved from every source (not to be
 * confused with enum pd_event_kind, the kind of one console line that is evidence of it). */
enum pd_timebase_event {
	PD_EVENT_NONE,
	PD_EVENT_HARD,
	PD_EVENT_GRACEFUL,
	PD_EVENT_REBALANCE_OUT
};
const char *pd_timebase_event_name(enum pd_timebase_event t); /* "none", "hard-failover", ... */

/* Where a time base quantity came from. */
enum pd_source {
	PD_SOURCE_NONE,
	PD_SOURCE_CONSOLE,
	PD_SOURCE_SERIES,
	PD_SOURCE_CONFIG,
	PD_SOURCE_BUILD,
	PD_SOURCE_FLAG
};
const char *pd_timebase_source_name(enum pd_source s); /* "none", "console", "series", ... */

/* What the user forces on the command line. */
struct pd_time_flags {
	int has_event_time;
	double event_time_s; /* --event-time: seconds from the start of the phase */
	int has_utc_offset;
	int64_t utc_offset_s;   /* --console-utc-offset: local = UTC + offset */
	const char *event_flag; /* the event flag's name in messages; NULL: --event-time */
};

/* One estimate of a quantity from one source. */
struct pd_estimate {
	int ok;
	double value;
};

/* How many further events of a run a time base names. */
#define PD_TIMEBASE_MORE 4

struct pd_timebase {
	int64_t t0_ms;  /* start of the measured phase (median of the series' first samples) */
	int64_t end_ms; /* its end (median of the series' last samples) */
	int64_t interval_ms; /* sampling interval */

	int has_offset;
	int64_t offset_s;                 /* console local time = UTC + offset_s */
	enum pd_source offset_source;     /* series, build or flag */
	struct pd_estimate offset_series; /* raw offset from rebalance lines vs the series, s */
	struct pd_estimate offset_build;  /* raw offset from the first line vs build start, s */

	enum pd_timebase_event event;
	char node[64];  /* the node failed over or removed, "" if unknown */
	double event_s; /* seconds from t0 */
	enum pd_source event_source;
	struct pd_estimate ev_console, ev_series, ev_config; /* each source's event time, s */
	struct pd_estimate rebalance_end_s; /* end of the rebalance, s from t0 */
	char agreement[320];                /* one line: how the sources agree, or where not */

	/* what was not used, and why (pd_timebase_notes says it in sentences) */
	int disagree;       /* a source lies more than one interval from event_s */
	unsigned dropped;   /* bits 1 << enum pd_source: estimates outside the phase */
	char line_node[64]; /* the failover line's node when it was not used (not in the
			       spec, or not the rebalance's ejected node), else "" */
	int line_in_spec;   /* with line_node: it is in the spec (the ejected node differs) */
	size_t n_more;      /* failovers and rebalance-outs in the phase after the first */
	struct {
		double t_s;       /* s from t0 (the console's), NaN when unknown */
		char node[64];    /* the node it removed, "" if unknown */
	} more[PD_TIMEBASE_MORE]; /* the first PD_TIMEBASE_MORE of them */
};

/* Resolves the time base of run. PD_EINVAL when a flag contradicts the run (an event time
 * outside the phase); a run without an event gets event PD_EVENT_NONE. */
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
