/* Credentials out of what is shown (core/url.h). */
#include "url.h"

#include <string.h>
#include <strings.h>

#define PASSWORD "password="

/* The '@' that ends the credentials of the authority starting at auth (its last before a
 * '?', '#', a quote or a space), or NULL. */
static const char *credentials_end(const char *auth)
{
	const char *end = auth + strcspn(auth, "?#\"' \t\r\n"), *at = NULL;
	for (const char *c = auth; c < end; c++)
		if (*c == '@')
			at = c;
	return at;
}

/* "password=" at p, as a query parameter or a libpq keyword. */
static int password_at(const char *text, const char *p)
{
	return !strncasecmp(p, PASSWORD, strlen(PASSWORD)) &&
	       (p == text || strchr("?&; \t", p[-1]));
}

void pd_url_redact(struct pd_buf *out, const char *text)
{
	const char *p = text;
	while (*p) {
		if (!strncmp(p, "://", 3)) {
			const char *auth = p + 3, *at = credentials_end(auth);
			pd_buf_add(out, p, 3);
			p = at ? at + 1 : auth;
		} else if (password_at(text, p)) {
			pd_buf_add(out, p, strlen(PASSWORD));
			pd_buf_adds(out, "***");
			p += strlen(PASSWORD);
			p += strcspn(p, "&#\"' \t\r\n");
		} else
			pd_buf_addch(out, *p++);
	}
}

int pd_url_has_password(const char *text)
{
	for (const char *p = text; *p; p++) {
		const char *at = strncmp(p, "://", 3) ? NULL : credentials_end(p + 3);
		if ((at && memchr(p + 3, ':', (size_t)(at - (p + 3)))) || password_at(text, p))
			return 1;
	}
	return 0;
}

void pd_url_unpassword(struct pd_buf *out, const char *url)
{
	const char *p = url;
	while (*p) {
		if (!strncmp(p, "://", 3)) {
			const char *auth = p + 3, *at = credentials_end(auth), *colon;
			colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
			pd_buf_add(out, p, colon ? (size_t)(colon - p) : 3);
			p = colon ? at : auth;
		} else if (password_at(url, p)) {
			p += strlen(PASSWORD);
			p += strcspn(p, "&#\"' \t\r\n");
			if (out->len && strchr("& \t", out->ptr[out->len - 1]))
				pd_buf_truncate(out, out->len - 1); /* its separator before */
			else if (*p == '&' || *p == ' ')
				p++; /* the first: the separator after it */
		} else
			pd_buf_addch(out, *p++);
	}
	if (out->len && out->ptr[out->len - 1] == '?') /* its only parameter */
		pd_buf_truncate(out, out->len - 1);
}
