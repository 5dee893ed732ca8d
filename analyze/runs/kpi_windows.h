/* perfrunner's windowed KPIs (tests/rebalance.py, latency_reporting_windows) paired
 * across the runs. */
#ifndef PD_KPI_WINDOWS_H
#define PD_KPI_WINDOWS_H

#include "tree/tree.h"

/* Fills c->kpi_windows: each target KPI with a window and the baseline's KPI of the same
 * id and window, in the target's order. A KPI only one run posted is left out. */
void pd_kpi_windows_pair(struct pd_comparison *c);

#endif
