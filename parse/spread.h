/* The history's run-to-run spreads handed to compare (--run-spread FILE, written by
 * perfdelta-history for compare --db URL: docs/history.md): one line a feature,
 * "<feature>\t<relative sd>\t<runs>\n", the feature named as analyze/signature.c names
 * window features ("metric|scope|phase"). */
#ifndef PD_SPREAD_H
#define PD_SPREAD_H

#include "../core/model.h"
#include "../core/src.h"

struct pd_spreads {
	struct pd_run_spread *v; /* sorted by feature, each once */
	size_t n;
	char *text; /* the features' storage */
};

/* Reads src into out: a line that is not such a line (a relative sd that is not a finite
 * number >= 0, a count that is not a whole number, a feature twice) is PD_EPARSE at its
 * line. Free with pd_spread_free (also after an error). */
int pd_spread_parse(struct pd_spreads *out, const struct pd_src *src, struct pd_err *err);
void pd_spread_free(struct pd_spreads *s);

#endif
