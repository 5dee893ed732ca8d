/* The perfrunner console (Jenkins consoleText): snapshot names, failover and rebalance
 * events, showfast benchmark posts and the final result. Every other line is skipped. */
#ifndef PD_CONSOLE_H
#define PD_CONSOLE_H

#include "../core/model.h"
#include "../core/src.h"

/* Appends to run->events, run->kpis and run->snapshots; sets run->console_result.
 * A perfrunner line whose payload is malformed (a benchmark post that is not JSON) is
 * PD_EPARSE at path:line; lines longer than lim->max_line are PD_ELIMIT. */
int pd_console_parse(struct pd_run *run, const struct pd_src *src, struct pd_err *err);

#endif
