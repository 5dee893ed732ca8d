/* One suite per module; check_main.c runs them all. */
#ifndef PD_CHECK_SUITES_H
#define PD_CHECK_SUITES_H

#include <check.h>

Suite *pd_suite_core(void);
Suite *pd_suite_perfdb(void);
Suite *pd_suite_dbname(void);
Suite *pd_suite_ini(void);
Suite *pd_suite_jenkins(void);
Suite *pd_suite_console(void);
Suite *pd_suite_prom(void);
Suite *pd_suite_bundle(void);
Suite *pd_suite_timebase(void);
Suite *pd_suite_compare(void);
Suite *pd_suite_render(void);
Suite *pd_suite_charts(void);
Suite *pd_suite_nodeshift(void);
Suite *pd_suite_plot(void);
Suite *pd_suite_escape(void);
Suite *pd_suite_stats(void);
Suite *pd_suite_infer(void);
Suite *pd_suite_noise(void);
Suite *pd_suite_configdiff(void);
Suite *pd_suite_story(void);
Suite *pd_suite_kpi(void);
Suite *pd_suite_edivisive(void);
Suite *pd_suite_signature(void);
Suite *pd_suite_store(void);
Suite *pd_suite_latency(void);
Suite *pd_suite_tails(void);
Suite *pd_suite_flags(void);

/* Reads a file of the test tree into a NUL-terminated string (caller frees); aborts
 * the test when it is missing. */
char *pd_test_slurp(const char *path, size_t *len);

struct pd_run;
/* Loads the seed bundle name ("baseline", "failover", ...) of the build tree (caller
 * frees with pd_run_free); aborts the test when it does not load. */
struct pd_run *pd_test_seed(const char *name);

#endif
