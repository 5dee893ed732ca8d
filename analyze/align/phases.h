/* The phases of a comparison (analyze/align/phases.c). */
#ifndef PD_ANALYZE_PHASES_H
#define PD_ANALYZE_PHASES_H

#include "core/model.h"
#include "tree/tree.h"

#include <stddef.h>
#include <stdint.h>

/* sets c->windows from the event of the run that has one, on either side (pre,
 * transient, post, whole; only whole without an event). */
void pd_phases_set(struct pd_comparison *c, double settle_s);

#endif
