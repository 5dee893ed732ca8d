/* Moved to fetch/plan.h (the pull plan) and fetch/transfer.h (the transfer engine): this
 * header keeps the old names for cli/main.c and cli/pull.h until they use the new ones. */
#ifndef PD_PULL_H
#define PD_PULL_H

#include "../fetch/plan.h"

#define pd_pull_opts      pd_plan_opts
#define pd_pull_progress  pd_transfer_progress
#define PD_PULL_OPTS_INIT PD_PLAN_OPTS_INIT

#endif
