/* The terminal's summary of a comparison: the verdict, the ticket's points and the top
 * findings, escaped for a terminal (render/escape.c's pd_esc_text). */
#ifndef PD_TERMINAL_H
#define PD_TERMINAL_H

#include "../core/buf.h"
#include "../tree/tree.h"

/* Appends the summary of c to b; report is where the report went (a directory, or one
 * file when is_file). */
void pd_terminal_summary(struct pd_buf *b, const struct pd_comparison *c, const char *report,
			 int is_file);

#endif
