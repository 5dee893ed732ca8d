#include "check_suites.h"

Suite *pd_suite_console(void)
{
	Suite *s = suite_create("console");
	return s;
}
