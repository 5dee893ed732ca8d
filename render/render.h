/* What every renderer of a comparison shares: the tree it reads and the runs' labels. */
#ifndef PD_RENDER_H
#define PD_RENDER_H

#include "../analyze/compare.h"

/* Labels of the two runs as the user or the inputs name them. */
struct pd_labels {
	const char *base, *target;
};

/* A run's label: the flag, else Jenkins' full display name, else the bundle path. */
const char *pd_render_label(const struct pd_run *run, const char *flag);

#endif
