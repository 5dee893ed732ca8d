#include "json.h"

#include <string.h>

size_t pd_json_find_nul(const char *s, size_t n)
{
	for (const char *p = memchr(s, '\\', n); p; p = memchr(p, '\\', n - (size_t)(p - s))) {
		size_t i = (size_t)(p - s);
		if (i + 5 < n && s[i + 1] == 'u' && !memcmp(s + i + 2, "0000", 4))
			return i;
		p += 2; /* past the escaped character, so that "\\u0000" is text */
		if ((size_t)(p - s) >= n)
			break;
	}
	return n;
}
