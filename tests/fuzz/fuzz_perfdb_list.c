/* perfdb's list answers (GET / and GET /DB: a JSON array of names): pd_perfdb_list_parse. */
#include "fuzz.h"
#include "parse/perfdb_list.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct pd_src src;
	struct pd_err err = PD_ERR_INIT;
	struct pd_strv names = {0};
	char *copy = fuzz_src(&src, data, len, "http://127.0.0.1/");
	pd_perfdb_list_parse(&names, &src, &err);
	pd_strv_free(&names);
	free(copy);
	return 0;
}
