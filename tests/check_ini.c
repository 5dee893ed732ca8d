#include "check_suites.h"

Suite *pd_suite_ini(void)
{
	Suite *s = suite_create("ini");
	return s;
}
