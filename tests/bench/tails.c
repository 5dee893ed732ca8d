/* The tails' estimator at a 12 h run's scale (scripts/bench): one side's block bootstrap
 * of a per-request latency stream of 12 h at RATE requests a second (AR(1) log latency),
 * and one slow-request share over 12 h of 5 s intervals. Prints
 * "rate=R samples=N block=B m=M side_s=X share_s=Y" per rate.
 * usage: pd_bench_tails RATE... */
#include "analyze/stats/tails.h"
#include "core/clock.h"
#include "core/rng.h"
#include "core/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define HOURS 12

static double uniform(uint64_t *s)
{
	return ((double)(pd_rng_next(s) >> 11) + 0.5) / 9007199254740992.0;
}

/* exp(0.5 y), y an AR(1) at 0.9 of unit variance (Box-Muller draws) */
static void stream(double *v, size_t n, uint64_t seed)
{
	double y = 0;
	for (size_t i = 0; i < n; i++) {
		double e = sqrt(-2 * log(uniform(&seed))) *
			   cos(6.283185307179586 * uniform(&seed));
		y = 0.9 * y + sqrt(1 - 0.81) * e;
		v[i] = exp(0.5 * y);
	}
}

static void shares(double *slow, double *all, size_t n, uint64_t seed)
{
	for (size_t i = 0; i < n; i++) {
		all[i] = 200 + 20 * uniform(&seed);
		slow[i] = all[i] * 0.02 * (uniform(&seed) < 0.1 ? 5 : 1);
	}
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return fprintf(stderr, "usage: pd_bench_tails RATE...\n"), 2;
	size_t n_iv = HOURS * 3600 / 5;
	double *slow = pd_xmalloc(n_iv * sizeof(*slow)), *all = pd_xmalloc(n_iv * sizeof(*all));
	shares(slow, all, n_iv, 7);
	double t = pd_clock_now();
	struct pd_tails_share sh;
	pd_tails_share_of(&sh, slow, all, n_iv, 5);
	double share_s = pd_clock_now() - t;
	for (int a = 1; a < argc; a++) {
		double rate = strtod(argv[a], NULL);
		size_t n = (size_t)(rate * HOURS * 3600);
		double *v = pd_xmalloc((n + 1) * sizeof(*v));
		stream(v, n, 11);
		struct pd_tails_opts o = PD_TAILS_OPTS_INIT;
		struct pd_tails_side side;
		t = pd_clock_now();
		pd_tails_side_of(&side, v, n, &o);
		printf("rate=%g samples=%zu block=%zu m=%zu side_s=%.3f share_s=%.4f\n", rate,
		       n, side.block, side.m, pd_clock_now() - t, share_s);
		free(v);
	}
	free(slow);
	free(all);
	return 0;
}
