#include "check_suites.h"

Suite *pd_suite_plot(void)
{
	Suite *s = suite_create("plot");
	TCase *tc = tcase_create("plot");
	suite_add_tcase(s, tc);
	return s;
}
