/* A generated history for tests, the demo and the bench: weekly runs of one
 * failover test across builds, each a signature with realistic run-to-run noise (every
 * feature its own relative sd, 1 to 4 %, the event features more) and planted changes in
 * the event's features at known builds. Deterministic: the same seed, the same history. */
#ifndef PD_HISTORY_GEN_H
#define PD_HISTORY_GEN_H

#include "../analyze/signature.h"

#include <stddef.h>
#include <stdint.h>

/* The planted changes: feature, the first run (index) after it, and the level after
 * (the level before is the feature's base). */
struct pd_gen_plant {
	const char *feature;
	size_t at;
	double before, after;
};

#define PD_GEN_N_PLANTS 3
/* connections left on the removed node 2 -> 70 from run 30, recovery 45 s -> 95 s from
 * run 55, failed requests 20 -> 160 from run 70 (histories shorter than a plant's run
 * do not have it) */
extern const struct pd_gen_plant pd_gen_plants[PD_GEN_N_PLANTS];

struct pd_gen_opts {
	const char *test;  /* test config stem */
	size_t n_features; /* at least the planted and named ones (about 20) */
	uint64_t seed;
	int plant; /* 0: a stationary history (no change anywhere) */
};

/* The signature of run i of the history (caller frees with pd_signature_free). */
struct pd_signature *pd_gen_run(const struct pd_gen_opts *o, size_t i);

#endif
