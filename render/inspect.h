/* What perfdelta found in one bundle, for `perfdelta inspect`. */
#ifndef PD_INSPECT_H
#define PD_INSPECT_H

#include "../core/buf.h"
#include "../analyze/timebase.h"
#include "../core/model.h"

/* A human-readable listing, with the run's time base (every input string escaped for a
 * terminal). */
void pd_inspect_text(struct pd_buf *out, const struct pd_run *run,
		     const struct pd_timebase *tb);
/* The same as one JSON document. */
void pd_inspect_json(struct pd_buf *out, const struct pd_run *run,
		     const struct pd_timebase *tb);

#endif
