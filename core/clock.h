/* The one clock for durations: monotonic, so a changed wall clock never shortens or
 * stretches a timeout, a retry delay or a stage's timing. */
#ifndef PD_CLOCK_H
#define PD_CLOCK_H

/* Seconds on CLOCK_MONOTONIC (from an arbitrary origin: only differences mean
 * anything). */
double pd_clock_now(void);

#endif
