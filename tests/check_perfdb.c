#include "check_suites.h"

Suite *pd_suite_perfdb(void)
{
	Suite *s = suite_create("perfdb");
	return s;
}
