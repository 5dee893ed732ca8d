#include "check_suites.h"

#include "parse/bundle.h"

#include <stdio.h>
#include <stdlib.h>

char *pd_test_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	size_t cap = 1 << 16, n = 0;
	char *p = malloc(cap);
	size_t k;
	while ((k = fread(p + n, 1, cap - n - 1, f)) > 0) {
		n += k;
		if (cap - n < 2)
			p = realloc(p, cap *= 2);
	}
	fclose(f);
	p[n] = '\0';
	if (len)
		*len = n;
	return p;
}

struct pd_run *pd_test_seed(const char *name)
{
	struct pd_run *run = NULL;
	struct pd_err err = PD_ERR_INIT;
	char dir[512];
	snprintf(dir, sizeof(dir), "%s/%s", PD_SEED_DIR, name);
	ck_assert_msg(pd_bundle_load(&run, dir, &pd_limits_default, &err) == 0, "%s: %s", dir,
		      err.msg);
	return run;
}

int main(int argc, char **argv)
{
	SRunner *sr = srunner_create(pd_suite_core());
	srunner_add_suite(sr, pd_suite_perfdb());
	srunner_add_suite(sr, pd_suite_dbname());
	srunner_add_suite(sr, pd_suite_ini());
	srunner_add_suite(sr, pd_suite_jenkins());
	srunner_add_suite(sr, pd_suite_console());
	srunner_add_suite(sr, pd_suite_prom());
	srunner_add_suite(sr, pd_suite_bundle());
	srunner_add_suite(sr, pd_suite_timebase());
	srunner_add_suite(sr, pd_suite_compare());
	srunner_add_suite(sr, pd_suite_render());
	srunner_add_suite(sr, pd_suite_charts());
	srunner_add_suite(sr, pd_suite_nodeshift());
	srunner_add_suite(sr, pd_suite_plot());
	srunner_add_suite(sr, pd_suite_escape());
	srunner_add_suite(sr, pd_suite_stats());
	srunner_add_suite(sr, pd_suite_infer());
	srunner_add_suite(sr, pd_suite_noise());
	srunner_add_suite(sr, pd_suite_configdiff());
	srunner_add_suite(sr, pd_suite_story());
	srunner_add_suite(sr, pd_suite_kpi());
	srunner_add_suite(sr, pd_suite_edivisive());
	srunner_add_suite(sr, pd_suite_signature());
	srunner_add_suite(sr, pd_suite_store());
	srunner_add_suite(sr, pd_suite_latency());
	srunner_add_suite(sr, pd_suite_tails());
	srunner_add_suite(sr, pd_suite_flags());
	if (argc > 1) /* run one suite: check_perfdelta perfdb */
		srunner_run(sr, argv[1], NULL, CK_NORMAL);
	else
		srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
