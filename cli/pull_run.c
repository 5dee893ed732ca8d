/* perfdelta pull in perfdelta-pull: the pull itself (fetch/plan.c, over libcurl). */
#include "cli/pull.h"

const struct pd_cli_puller pd_cli_puller = {.pull = pd_plan_run};
