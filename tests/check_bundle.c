#include "check_suites.h"

Suite *pd_suite_bundle(void)
{
	Suite *s = suite_create("bundle");
	return s;
}
