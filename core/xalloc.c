#include "xalloc.h"
#include "cleanup.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *check(void *p, size_t n)
{
	if (!p && n) {
		fprintf(stderr, "perfdelta: out of memory (%zu bytes)\n", n);
		pd_cleanup_run(); /* no temporary output or gnuplot outlives us */
		abort();
	}
	return p;
}

void *pd_xmalloc(size_t n)
{
	return check(malloc(n ? n : 1), n);
}

void *pd_xcalloc(size_t count, size_t size)
{
	return check(calloc(count ? count : 1, size ? size : 1), count * size);
}

void *pd_xrealloc(void *p, size_t n)
{
	return check(realloc(p, n ? n : 1), n);
}

char *pd_xstrndup(const char *s, size_t n)
{
	char *d = pd_xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *pd_xstrdup(const char *s)
{
	return pd_xstrndup(s, strlen(s));
}

void pd_grow(void **ptr, size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap;
	if (need <= c)
		return;
	while (c < need)
		c = c < 8 ? 8 : c + c / 2;
	if (c > SIZE_MAX / elem)
		check(NULL, SIZE_MAX);
	*ptr = pd_xrealloc(*ptr, c * elem);
	*cap = c;
}
