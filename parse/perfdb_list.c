#include "perfdb_list.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* A JSON escape \u0000: cJSON would cut the string there, hiding what follows. */
static int has_nul_escape(const char *s, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		if (s[i] != '\\')
			continue;
		if (s[i + 1] == 'u' && i + 5 < n && !memcmp(s + i + 2, "0000", 4))
			return 1;
		i++; /* the escaped character, so that "\\u0000" is text */
	}
	return 0;
}

int pd_perfdb_list_parse(struct pd_strv *out, const struct pd_src *src, struct pd_err *err)
{
	cJSON *j, *it;
	int rc = 0;
	if (has_nul_escape(src->data, src->len))
		return pd_err_at(err, PD_EPARSE, src->path, 0, 0,
				 "refusing a name with a NUL character");
	j = cJSON_ParseWithLength(src->data, src->len);
	if (!j || !cJSON_IsArray(j)) {
		rc = pd_err_at(err, PD_EPARSE, src->path, 0, 0,
			       "expected a JSON array of names");
		goto done;
	}
	cJSON_ArrayForEach(it, j)
	{
		if (!cJSON_IsString(it)) {
			rc = pd_err_at(err, PD_EPARSE, src->path, 0, 0,
				       "expected a JSON array of names, found a non-string");
			goto done;
		}
		pd_strv_add(out, it->valuestring);
	}
	pd_strv_sort_unique(out);
done:
	cJSON_Delete(j);
	return rc;
}
