/* What every libFuzzer harness shares: the readers assume data[len] == '\0' (a file read by
 * pd_file_read is NUL-terminated), so each input is copied into a buffer one byte longer,
 * and read under small limits, so that one input stays fast and the limit checks are
 * reached by inputs of a few KiB (scripts/fuzz runs with -max_len=65536). */
#ifndef PD_FUZZ_H
#define PD_FUZZ_H

#include "core/src.h"
#include "core/xalloc.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static const struct pd_limits fuzz_limits = {
	.max_file_bytes = (size_t)1 << 20,
	.max_samples = 1000,
	.max_series = 1000,
	.max_line = 4096,
	.max_depth = 16,
	.max_bundle_bytes = (size_t)4 << 20,
};

/* A NUL-terminated copy of the input (caller frees) described as src. */
static inline char *fuzz_src(struct pd_src *src, const uint8_t *data, size_t len,
			     const char *path)
{
	char *copy = pd_xmalloc(len + 1);
	if (len)
		memcpy(copy, data, len);
	copy[len] = '\0';
	*src = (struct pd_src){copy, len, path, &fuzz_limits};
	return copy;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

#endif
