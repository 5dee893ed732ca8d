/* The growable string buffer: ptr is never NULL and always NUL-terminated. */
#ifndef PD_BUF_H
#define PD_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

struct pd_buf {
	char *ptr;    /* never NULL; "" until something is added */
	size_t len;   /* bytes before the terminating NUL */
	size_t alloc; /* 0 while ptr points at the shared empty string */
};

extern char pd_buf_empty[];
#define PD_BUF_INIT                                                                            \
	{                                                                                      \
		pd_buf_empty, 0, 0                                                             \
	}

void pd_buf_grow(struct pd_buf *b, size_t extra);
void pd_buf_add(struct pd_buf *b, const void *data, size_t len);
void pd_buf_adds(struct pd_buf *b, const char *s);
void pd_buf_addch(struct pd_buf *b, char c);
void pd_buf_addf(struct pd_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pd_buf_vaddf(struct pd_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* The sentence code's grammar, in one place: "a regression", "an improvement" (the article
 * by the word's first letter), and "1 finding", "2 findings" (plural: one_s's plural, NULL
 * for one_s + "s"). */
void pd_buf_add_a(struct pd_buf *b, const char *word);
void pd_buf_add_count(struct pd_buf *b, size_t n, const char *one_s, const char *plural);
/* "p 0.0012" or, below what a double's arithmetic resolves (1e-15), "p < 1e-15": an
 * adjusted p of 0 or 2e-320 says nothing more and reads as a bug. */
void pd_buf_add_p(struct pd_buf *b, double p);
/* v in decimal as printf's %lld writes it, without printf's cost (JSON writes tens of
 * thousands). */
void pd_buf_add_int(struct pd_buf *b, int64_t v);
void pd_buf_truncate(struct pd_buf *b, size_t len);
/* Returns the string (caller frees) and leaves b empty. */
char *pd_buf_detach(struct pd_buf *b);
/* Frees the memory and leaves b empty and reusable. */
void pd_buf_release(struct pd_buf *b);

/* 1 when s ends with suffix. */
int pd_str_ends_with(const char *s, const char *suffix);

#endif
