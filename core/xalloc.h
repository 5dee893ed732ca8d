/* Allocation that never returns NULL: out of memory aborts (as in git and cmark). */
#ifndef PD_XALLOC_H
#define PD_XALLOC_H

#include <stddef.h>

void *pd_xmalloc(size_t n);
void *pd_xcalloc(size_t count, size_t size);
void *pd_xrealloc(void *p, size_t n);
char *pd_xstrdup(const char *s);
char *pd_xstrndup(const char *s, size_t n);

/* Grows *ptr (an array of elem-size items, capacity *cap) to hold at least need. */
void pd_grow(void **ptr, size_t *cap, size_t need, size_t elem);

#define PD_GROW(ptr, cap, need) pd_grow((void **)&(ptr), &(cap), (need), sizeof(*(ptr)))

#endif
