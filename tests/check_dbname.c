#include "check_suites.h"

Suite *pd_suite_dbname(void)
{
	Suite *s = suite_create("dbname");
	return s;
}
