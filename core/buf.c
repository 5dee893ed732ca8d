#include "buf.h"
#include "xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char pd_buf_empty[1];

void pd_buf_grow(struct pd_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;
	if (need <= b->alloc)
		return;
	size_t n = b->alloc ? b->alloc : 64;
	while (n < need)
		n += n / 2;
	if (b->alloc) {
		b->ptr = pd_xrealloc(b->ptr, n);
	} else {
		b->ptr = pd_xmalloc(n);
		b->ptr[0] = '\0';
	}
	b->alloc = n;
}

void pd_buf_add(struct pd_buf *b, const void *data, size_t len)
{
	if (!len)
		return;
	pd_buf_grow(b, len);
	memcpy(b->ptr + b->len, data, len);
	b->len += len;
	b->ptr[b->len] = '\0';
}

void pd_buf_adds(struct pd_buf *b, const char *s)
{
	pd_buf_add(b, s, strlen(s));
}

void pd_buf_addch(struct pd_buf *b, char c)
{
	pd_buf_add(b, &c, 1);
}

void pd_buf_vaddf(struct pd_buf *b, const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(b->ptr + b->len, b->alloc ? b->alloc - b->len : 0, fmt, ap);
	if (n >= 0 && b->len + (size_t)n + 1 > b->alloc) {
		pd_buf_grow(b, (size_t)n);
		vsnprintf(b->ptr + b->len, b->alloc - b->len, fmt, again);
	}
	va_end(again);
	if (n >= 0)
		b->len += (size_t)n;
}

void pd_buf_addf(struct pd_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pd_buf_vaddf(b, fmt, ap);
	va_end(ap);
}

void pd_buf_truncate(struct pd_buf *b, size_t len)
{
	if (len < b->len) {
		b->len = len;
		b->ptr[len] = '\0';
	}
}

char *pd_buf_detach(struct pd_buf *b)
{
	char *s = b->alloc ? b->ptr : pd_xstrdup("");
	b->ptr = pd_buf_empty;
	b->len = b->alloc = 0;
	return s;
}

void pd_buf_release(struct pd_buf *b)
{
	if (b->alloc)
		free(b->ptr);
	b->ptr = pd_buf_empty;
	b->len = b->alloc = 0;
}

int pd_str_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

void pd_buf_add_a(struct pd_buf *b, const char *word)
{
	pd_buf_addf(b, "%s %s", word[0] && strchr("aeiouAEIOU", word[0]) ? "an" : "a", word);
}

void pd_buf_add_count(struct pd_buf *b, size_t n, const char *one_s, const char *plural)
{
	if (n == 1)
		pd_buf_addf(b, "1 %s", one_s);
	else if (plural)
		pd_buf_addf(b, "%zu %s", n, plural);
	else
		pd_buf_addf(b, "%zu %ss", n, one_s);
}

void pd_buf_add_int(struct pd_buf *b, int64_t v)
{
	/* the magnitude unsigned: INT64_MIN's has no int64 */
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	size_t n = 1 + (v < 0);
	for (uint64_t x = u; x >= 10; x /= 10)
		n++;
	pd_buf_grow(b, n);
	char *p = b->ptr + b->len + n; /* the digits written backwards from the end */
	*p = '\0';
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	b->len += n;
}

void pd_buf_add_p(struct pd_buf *b, double p)
{
	if (p < 1e-15)
		pd_buf_adds(b, "p < 1e-15");
	else
		pd_buf_addf(b, "p %.2g", p);
}
