#include "check_suites.h"

Suite *pd_suite_jenkins(void)
{
	Suite *s = suite_create("jenkins");
	return s;
}
