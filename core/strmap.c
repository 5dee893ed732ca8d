#include "strmap.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct pd_strmap_slot {
	char *key; /* owned; NULL when the slot is empty */
	size_t len, val;
	uint64_t hash;
};

/* FNV-1a from a seeded start, then a 64-bit finalizer (MurmurHash3's fmix64) so that the
 * low bits, which pick the slot, depend on every byte. */
uint64_t pd_strmap_hash(uint64_t seed, const char *k, size_t len)
{
	uint64_t h = 14695981039346656037ull ^ seed;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)k[i]) * 1099511628211ull;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

static uint64_t hash_of(const struct pd_strmap *m, const char *k, size_t len)
{
	return pd_strmap_hash(m->seed, k, len);
}

static struct pd_strmap_slot *find(const struct pd_strmap *m, const char *k, size_t len,
				   uint64_t h)
{
	size_t i = (size_t)h & (m->cap - 1);
	for (;; i = (i + 1) & (m->cap - 1)) {
		struct pd_strmap_slot *s = &m->slot[i];
		if (!s->key || (s->hash == h && s->len == len && !memcmp(s->key, k, len)))
			return s;
	}
}

static void grow(struct pd_strmap *m)
{
	struct pd_strmap old = *m;
	m->cap = old.cap ? 2 * old.cap : 16;
	m->slot = pd_xcalloc(m->cap, sizeof(*m->slot));
	if (!old.cap) /* not secret, only unknown to whoever wrote the input beforehand */
		m->seed = ((uint64_t)time(NULL) << 24) ^ ((uint64_t)getpid() << 8) ^
			  (uint64_t)(uintptr_t)m->slot;
	for (size_t i = 0; i < old.cap; i++)
		if (old.slot[i].key)
			*find(m, old.slot[i].key, old.slot[i].len, old.slot[i].hash) =
				old.slot[i];
	free(old.slot);
}

size_t pd_strmap_get(const struct pd_strmap *m, const char *k, size_t len)
{
	if (!m->n)
		return PD_STRMAP_NONE;
	const struct pd_strmap_slot *s = find(m, k, len, hash_of(m, k, len));
	return s->key ? s->val : PD_STRMAP_NONE;
}

size_t pd_strmap_put(struct pd_strmap *m, const char *k, size_t len, size_t val)
{
	if (2 * (m->n + 1) > m->cap)
		grow(m);
	uint64_t h = hash_of(m, k, len);
	struct pd_strmap_slot *s = find(m, k, len, h);
	if (s->key)
		return s->val;
	s->key = pd_xmalloc(len + 1);
	memcpy(s->key, k, len);
	s->key[len] = '\0';
	*s = (struct pd_strmap_slot){.key = s->key, .len = len, .val = val, .hash = h};
	m->n++;
	return PD_STRMAP_NONE;
}

void pd_strmap_free(struct pd_strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->slot[i].key);
	free(m->slot);
	*m = (struct pd_strmap)PD_STRMAP_INIT;
}
