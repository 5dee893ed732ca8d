#include "perfdb_list.h"
#include "json.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

int pd_perfdb_list_parse(struct pd_strv *out, const struct pd_src *src, struct pd_err *err)
{
	cJSON *j, *it;
	int rc = 0;
	size_t nul = pd_json_find_nul(src->data, src->len);
	if (nul < src->len)
		return pd_src_error(err, PD_EPARSE, src, nul, PD_JSON_NUL_MSG);
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
