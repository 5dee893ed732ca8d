/* Credentials out of what is shown (core/url.h). */
#include "url.h"

#include <string.h>
#include <strings.h>

#define PASSWORD "password="

/* Where the authority starting at auth ends: a '?', '#', a quote or a space. */
static const char *authority_end(const char *auth)
{
	return auth + strcspn(auth, "?#\"' \t\r\n");
}

void pd_url_redact(struct pd_buf *out, const char *text)
{
	const char *p = text;
	while (*p) {
		if (!strncmp(p, "://", 3)) {
			const char *auth = p + 3, *end = authority_end(auth), *at = NULL;
			for (const char *c = auth; c < end; c++)
				if (*c == '@')
					at = c;
			pd_buf_add(out, p, 3);
			p = at ? at + 1 : auth;
		} else if (!strncasecmp(p, PASSWORD, strlen(PASSWORD)) &&
			   (p == text || strchr("?&; \t", p[-1]))) {
			pd_buf_add(out, p, strlen(PASSWORD));
			pd_buf_adds(out, "***");
			p += strlen(PASSWORD);
			p += strcspn(p, "&#\"' \t\r\n");
		} else
			pd_buf_addch(out, *p++);
	}
}
