/* The one pseudo-random generator of the analysis: splitmix64 (Steele, Lea and Flood
 * 2014), small and good, seeded by the caller so that every result is reproducible. */
#ifndef PD_RNG_H
#define PD_RNG_H

#include <stddef.h>
#include <stdint.h>

/* The next 64 random bits of the state *s (any seed, 0 included). */
uint64_t pd_rng_next(uint64_t *s);

/* A uniform draw of 0..n-1 (n > 0; the modulo's bias is under n / 2^64). */
size_t pd_rng_below(uint64_t *s, size_t n);

#endif
