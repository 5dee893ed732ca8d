/* Credentials out of what is shown: a URL or a connection string in a message. */
#ifndef PD_URL_H
#define PD_URL_H

#include "buf.h"

/* Appends text to out without the credentials it may hold: each "SCHEME://user:pass@"
 * loses its "user:pass@" (the last '@' before '?', '#', a quote, a space or the end, so
 * that a '/' in a password hides nothing), each "password=VALUE" (a query parameter or a
 * libpq keyword, any case) becomes "password=***". Text with none is appended as is. */
void pd_url_redact(struct pd_buf *out, const char *text);

/* 1 when text holds a password that pd_url_redact would hide: "SCHEME://user:pass@" (a
 * ':' before the authority's last '@') or "password=VALUE"; 0 for none, or a user alone. */
int pd_url_has_password(const char *text);

/* Appends url (or a libpq connection string) without its password, the user kept, so
 * that a command it is put in still reaches the same database as the same user, its
 * password from the environment (PGPASSWORD, ~/.pgpass): "SCHEME://user:pass@" becomes
 * "SCHEME://user@", a "password=VALUE" parameter or keyword is left out with its
 * separator. A URL with no password is appended as is. */
void pd_url_unpassword(struct pd_buf *out, const char *url);

#endif
