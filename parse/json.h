/* What every JSON reader shares (cJSON stays inside parse/). */
#ifndef PD_JSON_H
#define PD_JSON_H

#include <stddef.h>

/* The offset in [s, s + n) of a JSON escape \u0000, or n when there is none. cJSON keeps
 * strings NUL-terminated, so a \u0000 would cut a name or a label short and hide what
 * follows: every JSON reader refuses it (PD_EPARSE at that place). */
size_t pd_json_find_nul(const char *s, size_t n);

#define PD_JSON_NUL_MSG "refusing a string with a NUL character (U+0000)"

/* A scanner over one JSON text (RFC 8259) that checks values and skips them without
 * building a tree, so that a reader of a large answer keeps only what it needs (a cJSON
 * tree costs ~18x the text). at is the next byte; on an error it is where the text
 * stops making sense. */
struct pd_json_scan {
	const char *s;
	size_t n, at;
	int depth; /* nesting of the value being skipped, at most PD_JSON_MAX_DEPTH */
};
#define PD_JSON_MAX_DEPTH 512

/* The next byte after blanks (consumed: the blanks only), or -1 at the end. */
int pd_json_peek(struct pd_json_scan *sc);
/* Consumes c after blanks: 1; else 0, at on what is there instead. */
int pd_json_eat(struct pd_json_scan *sc, char c);
/* Checks and skips one value: 0, or -1. */
int pd_json_skip(struct pd_json_scan *sc);
/* Checks and skips one string; *out and *len give its bytes between the quotes as
 * written (escapes undecoded): 0, or -1. */
int pd_json_string(struct pd_json_scan *sc, const char **out, size_t *len);
/* Checks and skips one number; *out and *len give its text: 0, or -1. */
int pd_json_number(struct pd_json_scan *sc, const char **out, size_t *len);
/* Whether a string's bytes (as pd_json_string gives them) are exactly word. */
int pd_json_is(const char *s, size_t len, const char *word);

#endif
