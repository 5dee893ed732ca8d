#include "check_suites.h"

Suite *pd_suite_core(void)
{
	Suite *s = suite_create("core");
	return s;
}
