/* The ranked findings of a comparison (analyze/tell/findings.c). */
#ifndef PD_ANALYZE_FINDINGS_H
#define PD_ANALYZE_FINDINGS_H

#include "analyze/opts.h"
#include "core/model.h"
#include "tree/tree.h"

#include <stddef.h>
#include <stdint.h>

/* the ranked findings of c. */
void pd_findings_build(struct pd_comparison *c, const struct pd_compare_opts *opts);

#endif
