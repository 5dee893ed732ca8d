/* Escaping, one function per target language: every string from an input goes through
 * one of these before it lands in an output. Each appends to b. */
#ifndef PD_ESCAPE_H
#define PD_ESCAPE_H

#include "../core/buf.h"

/* A JSON string literal with its quotes; bytes that are not valid UTF-8 become U+FFFD. */
void pd_esc_json(struct pd_buf *b, const char *s);
/* A JSON number: the shortest of %.15g, %.16g, %.17g that reads back as v; null when v
 * is not finite (JSON has no NaN or infinity). */
void pd_esc_json_num(struct pd_buf *b, double v);
/* HTML text or attribute value (quotes escaped too). */
void pd_esc_html(struct pd_buf *b, const char *s);
/* Text for a terminal: control bytes shown as \xNN, so input cannot move the cursor. */
void pd_esc_text(struct pd_buf *b, const char *s);

#endif
