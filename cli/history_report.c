/* perfdelta-history: `history report`, `compare --baseline-history`, `demo --history`. */
#include "cli/history.h"

int pd_cli_history_report(int argc, char **argv)
{
	(void)argc, (void)argv;
	return PD_HX_USAGE;
}

int pd_cli_baseline_history(int argc, char **argv)
{
	(void)argc, (void)argv;
	return PD_HX_USAGE;
}

int pd_cli_history_demo(int argc, char **argv)
{
	(void)argc, (void)argv;
	return PD_HX_USAGE;
}
