/* A set of byte strings, each with a size_t value: the one hash table of the tree, for
 * readers and analyses that must find a name among many in O(1) (a linear search per item
 * makes hostile or merely large inputs quadratic). */
#ifndef PD_STRMAP_H
#define PD_STRMAP_H

#include <stddef.h>
#include <stdint.h>

/* Open addressing, linear probing, at most half full; keys are copied. The hash is
 * seeded per map, so that an input cannot be made of colliding names. */
struct pd_strmap {
	struct pd_strmap_slot *slot; /* cap slots, NULL key = empty */
	size_t n, cap;               /* keys held, slots (a power of two) */
	uint64_t seed;               /* the hash's, set with the first table */
};
#define PD_STRMAP_INIT                                                                         \
	{                                                                                      \
		NULL, 0, 0, 0                                                                  \
	}

#define PD_STRMAP_NONE ((size_t)-1)

/* The value of key [k, k + len), or PD_STRMAP_NONE. */
size_t pd_strmap_get(const struct pd_strmap *m, const char *k, size_t len);
/* Adds key [k, k + len) with val unless present; returns the value held before, or
 * PD_STRMAP_NONE when the key is new. */
size_t pd_strmap_put(struct pd_strmap *m, const char *k, size_t len, size_t val);
/* The map's hash of [k, k + len) from seed: FNV-1a, then MurmurHash3's fmix64. Seed 0
 * gives a name that is the same in every process (compare's cache names). */
uint64_t pd_strmap_hash(uint64_t seed, const char *k, size_t len);
/* Frees the keys and the table; the map is empty and reusable after. */
void pd_strmap_free(struct pd_strmap *m);

#endif
