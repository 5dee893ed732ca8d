/* The tarball reader (parse/tarball.c): the input as a .tar or .tar.gz in memory, under
 * small limits (a member of at most 1 MiB, 4 MiB in all), so that a bomb is stopped at
 * the budget; on success every member is looked up again by its name. */
#include "fuzz.h"
#include "parse/tarball.h"

#include <assert.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct pd_tarball *t = NULL;
	struct pd_err err = PD_ERR_INIT;
	if (pd_tarball_read_mem(&t, data, len, "fuzz.tar", &fuzz_limits, &err) == 0) {
		for (size_t i = 0; i < t->n; i++) {
			assert(pd_tarball_find(t, t->v[i].name) != NULL);
			assert(t->v[i].dir || t->v[i].data[t->v[i].len] == '\0');
		}
		assert(t->total <= fuzz_limits.max_bundle_bytes);
	}
	pd_tarball_free(t);
	return 0;
}
