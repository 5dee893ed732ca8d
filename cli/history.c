/* perfdelta-history: the history commands (perfdelta hands them over, cli/exec.h).
 *   perfdelta signature RUN
 *   perfdelta history add RUN... [--db URL]
 *   perfdelta history report --test CONFIG [--db URL] -o DIR [--window N] [--alpha A]
 *                            [--min-size K]
 *   perfdelta compare --baseline-history N [--db URL] [compare's options] TARGET
 *   perfdelta demo --history [-o DIR]
 * Arguments to options, options to the history code, errors to exit codes (0, 2 usage,
 * 3 input). */
#include "cli/history.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "signature"))
		return pd_cli_signature(argc - 1, argv + 1);
	if (argc >= 3 && !strcmp(argv[1], "history") && !strcmp(argv[2], "add"))
		return pd_cli_history_add(argc - 2, argv + 2);
	if (argc >= 3 && !strcmp(argv[1], "history") && !strcmp(argv[2], "report"))
		return pd_cli_history_report(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "compare"))
		return pd_cli_baseline_history(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "demo"))
		return pd_cli_history_demo(argc - 1, argv + 1);
	pd_cli_hx_help(argc >= 3 && !strcmp(argv[2], "--help") ? stdout : stderr);
	return argc >= 3 && !strcmp(argv[2], "--help") ? 0 : PD_EXIT_USAGE;
}
