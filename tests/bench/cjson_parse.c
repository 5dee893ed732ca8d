/* The benchmark's floor: a bare cJSON parse of every .json file under the given
 * directories (no model, no normalization). Prints files, bytes and samples. */
#include <cjson/cJSON.h>

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t files, bytes, samples;
static char *buf;
static size_t cap;

static int visit(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)ftw;
	size_t n = strlen(path);
	if (flag != FTW_F || n < 5 || strcmp(path + n - 5, ".json") ||
	    !strstr(path, "/perfdb/"))
		return 0;
	if ((size_t)st->st_size + 1 > cap) {
		cap = (size_t)st->st_size + 1;
		buf = realloc(buf, cap);
	}
	FILE *f = fopen(path, "rb");
	if (!f || !buf)
		return 1;
	size_t len = fread(buf, 1, (size_t)st->st_size, f);
	fclose(f);
	buf[len] = '\0';
	cJSON *root = cJSON_ParseWithLength(buf, len);
	if (!root) {
		fprintf(stderr, "cjson_parse: %s: not JSON\n", path);
		return 1;
	}
	files++, bytes += len;
	samples += (size_t)cJSON_GetArraySize(root);
	cJSON_Delete(root);
	return 0;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (nftw(argv[i], visit, 16, FTW_PHYS) != 0)
			return 1;
	printf("files=%zu bytes=%zu samples=%zu\n", files, bytes, samples);
	free(buf);
	return 0;
}
