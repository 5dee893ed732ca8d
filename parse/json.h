/* What every JSON reader shares (cJSON stays inside parse/). */
#ifndef PD_JSON_H
#define PD_JSON_H

#include <stddef.h>

/* The offset in [s, s + n) of a JSON escape \u0000, or n when there is none. cJSON keeps
 * strings NUL-terminated, so a \u0000 would cut a name or a label short and hide what
 * follows: every JSON reader refuses it (PD_EPARSE at that place). */
size_t pd_json_find_nul(const char *s, size_t n);

#define PD_JSON_NUL_MSG "refusing a string with a NUL character (\\u0000)"

#endif
