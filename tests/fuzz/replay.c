/* Replays saved inputs through one libFuzzer harness (tests/fuzz/fuzz_<reader>.c) without
 * libFuzzer, so that ctest runs every fuzzer's corpus and regressions in any build, with
 * the build's sanitizers: each regular file of each DIR (in name order) is one call of
 * LLVMFuzzerTestOneInput. A crash, an assertion or a sanitizer's report ends the program;
 * a DIR that does not exist holds no inputs (a reader without regressions), and a run
 * that replayed nothing at all fails, for it checked nothing.
 * usage: pd_replay_<reader> DIR... */
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/* The file at path, whole, into *data (caller frees); -1 when it cannot be read. */
static int read_file(uint8_t **data, size_t *len, const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0, got;
	uint8_t *buf;
	if (!f)
		return -1;
	buf = pd_xmalloc(cap);
	while ((got = fread(buf + n, 1, cap - n, f)) > 0)
		if ((n += got) == cap)
			buf = pd_xrealloc(buf, cap *= 2);
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		return -1;
	}
	*data = buf, *len = n;
	return 0;
}

static int replay_dir(const char *dir, size_t *count)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort), rc = 0;
	if (n < 0) {
		if (errno == ENOENT) {
			printf("%s: none\n", dir);
			return 0;
		}
		fprintf(stderr, "replay: cannot read '%s'\n", dir);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;
		uint8_t *data;
		size_t len;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (rc == 0 && names[i]->d_name[0] != '.' && stat(path, &st) == 0 &&
		    S_ISREG(st.st_mode)) {
			if (read_file(&data, &len, path) < 0) {
				fprintf(stderr, "replay: cannot read '%s'\n", path);
				rc = -1;
			} else {
				/* named before it runs: a crash's report follows its input's
				 * name */
				printf("%s\n", path);
				fflush(stdout);
				LLVMFuzzerTestOneInput(data, len);
				free(data);
				(*count)++;
			}
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	size_t count = 0;
	if (argc < 2) {
		fprintf(stderr, "usage: %s DIR...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++)
		if (replay_dir(argv[i], &count) < 0)
			return 1;
	printf("replayed %zu inputs\n", count);
	if (count == 0) {
		fprintf(stderr, "replay: no inputs in %s...\n", argv[1]);
		return 1;
	}
	return 0;
}
