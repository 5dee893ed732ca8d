/* Sampling facts of a normalized series: its interval and where samples are missing. */
#ifndef PD_SAMPLING_H
#define PD_SAMPLING_H

#include "tree/tree.h"
#include "core/model.h"

/* The series' sampling interval in ms: the mean of its time steps within [0.5, 1.5] of
 * their median (jitter averages out, gaps do not count); 0 with < 2 samples. */
int64_t pd_sampling_interval_ms(const struct pd_series *s);

/* Gaps of s against the interval (ms, > 0). */
struct pd_sampling_gaps pd_sampling_gaps(const struct pd_series *s, int64_t interval_ms);

/* 1 when s has two samples or more and they are all equal (a collector that reports a
 * constant, perhaps a dead one); the value in *v. */
int pd_sampling_constant(const struct pd_series *s, double *v);

/* The mean of s's samples with from_ms <= t < to_ms; NaN when none (or s is NULL). */
double pd_sampling_window_mean(const struct pd_series *s, int64_t from_ms, int64_t to_ms);

/* The median (R type 7) of s's samples with from_ms <= t < to_ms into *out and their
 * count into *n_out (may be NULL); returns 0, *out untouched, when there is none. */
int pd_sampling_window_median(double *out, size_t *n_out, const struct pd_series *s,
			      int64_t from_ms, int64_t to_ms);

/* The median of a run's series intervals (the run's sampling interval), or 0. */
int64_t pd_sampling_run_interval_ms(const struct pd_run *run);

#endif
