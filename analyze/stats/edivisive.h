/* E-Divisive means (Matteson and James 2014, "A nonparametric approach for multiple change
 * point analysis of multivariate data", JASA 109:505), univariate, with the divergence
 * exponent alpha = 1, as Apache Otava (Hunter) and MongoDB's signal processing use it to
 * find change points in performance history. Pure: no I/O, no global state (the
 * permutations draw from a generator seeded by the caller, so results are reproducible).
 *
 * The statistic. For a segment Z split at tau into X = Z[0, tau) (n values) and
 * Y = Z[tau, N) (m = N - tau values):
 *   E(X, Y) = 2/(n m) sum_ij |x_i - y_j| - 1/C(n,2) sum_{i<k} |x_i - x_k|
 *             - 1/C(m,2) sum_{j<k} |y_j - y_k|,
 *   Q(tau)  = n m / (n + m) E(X, Y),
 * maximised over tau with n, m >= min_size (the paper's kappa, the end of Y, is the end
 * of the segment, as Otava and MongoDB fix it). The sums come from a Fenwick tree over the
 * values' ranks, so every Q(tau) of a segment costs O(N log N) together (the direct
 * double sum is O(N^2) per tau).
 *
 * Hand example (x = 0, 0, 0, 10, 10, 10, split at tau = 3): the cross sum is 9 pairs x 10
 * = 90, so 2/(3*3) * 90 = 20; both within sums are 0; Q = 3*3/6 * 20 = 30. At tau = 2
 * (X = 0,0; Y = 0,10,10,10): cross 2 x (0 + 30) = 60, 2/(2*4) * 60 = 15; within X 0;
 * within Y 3 x 10 = 30 over C(4,2) = 6 pairs: 5; E = 10, Q = 2*4/6 * 10 = 13.33.
 *
 * Significance. The best split over all current segments is tested by permutation (the
 * paper's section 3.2, as ecp's e.divisive does it): each permutation shuffles every
 * segment within itself and takes the largest Q over them; the p-value is (1 + number of
 * permuted maxima >= the observed) / (1 + permutations). The permutations stop early
 * once PD_EDIV_EXCEED of them reach the observed (after Besag and Clifford 1991, with the
 * same (1 + hits) / (1 + permutations) p-value: a split that is plainly not significant
 * costs a few dozen), and run at most max_perms, which must
 * exceed 1 / alpha for a p-value below alpha to be possible. A significant split divides
 * its segment and the search goes on; the first split that is not significant ends it.
 * The caller controls the family of features by the alpha it passes (history report:
 * Bonferroni, alpha / number of features). */
#ifndef PD_EDIVISIVE_H
#define PD_EDIVISIVE_H

#include <stddef.h>
#include <stdint.h>

/* Permutations reaching the observed statistic after which the test stops. */
#define PD_EDIV_EXCEED 10

struct pd_ediv_opts {
	double alpha;     /* significance of each split (already corrected for a family) */
	size_t min_size;  /* values on either side of a split, at least 2 */
	size_t max_perms; /* permutations at most; 0: ceil(2 / alpha) */
	uint64_t seed;    /* of the permutations */
};

struct pd_ediv_cp {
	size_t at;    /* index of the first value after the change */
	double q;     /* the statistic Q at the split (on values scaled to unit sd) */
	double p;     /* its permutation p-value */
	size_t perms; /* permutations run for it */
	int floor;    /* none reached q: p = 1 / (1 + perms), the least this test gives */
};

/* Q(tau) of x[0..n) split at tau (1 <= tau < n; the direct O(n^2) sums, for tests). */
double pd_ediv_q_direct(const double *x, size_t n, size_t tau);

/* The split of x[0..n) with the largest Q among those leaving min_size values a side:
 * *tau and *q; *tau = 0 and *q = -1 when n < 2 min_size. */
void pd_ediv_best(size_t *tau, double *q, const double *x, size_t n, size_t min_size);

/* The significant change points of x[0..n) (no NaN) into out[0..cap), in order of index;
 * returns how many. x is scaled to unit sd first (Q is scale-equivariant, the p-values
 * scale-free); a constant series has none. */
size_t pd_ediv_find(struct pd_ediv_cp *out, size_t cap, const double *x, size_t n,
		    const struct pd_ediv_opts *o);

#endif
