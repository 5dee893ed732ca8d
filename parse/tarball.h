/* A tarball's (or a zip's) regular files, read in process with libarchive into memory
 * (docs/reference.md "Limits"): no external tar, no temporary directory. Only regular files and
 * directories are taken; a symbolic or hard link, a device, a FIFO or a socket, an absolute
 * name or a ".." component is refused, naming "TARBALL:member". Each member is held to
 * lim->max_file_bytes and the whole archive to lim->max_bundle_bytes, both counted as the
 * members deliver their bytes (a sparse member's holes too), so a gzip bomb stops at the
 * budget; each member also costs 512 bytes plus its name, so that the memory held stays under
 * about the budget however many members there are. */
#ifndef PD_TARBALL_H
#define PD_TARBALL_H

#include "../core/src.h"

/* One member; names are normalized ("./a//b" is "a/b"); a directory may also be implied
 * only by the names below it (tar need not store it). data is NUL-terminated at data[len]; NULL
 * for a directory. */
struct pd_tar_entry {
	char *name;
	char *data;
	size_t len;
	int dir;
};

/* The members sorted by name (strcmp); a file's name once. */
struct pd_tarball {
	struct pd_tar_entry *v;
	size_t n, cap;
	size_t total; /* charged to the budget: the bytes members delivered, plus 512 bytes,
		       * the entry and the name per member */
};

/* Reads the .tar, .tar.gz or .zip at path (a regular file: pd_file_open) into *out (caller
 * frees with pd_tarball_free). PD_EPARSE for a damaged archive or a refused member, PD_ELIMIT
 * over a limit, PD_EIO when path cannot be read; on error *out is NULL. */
int pd_tarball_read(struct pd_tarball **out, const char *path, const struct pd_limits *lim,
		    struct pd_err *err);

/* The same from len bytes in memory; name is the tarball's name in messages. */
int pd_tarball_read_mem(struct pd_tarball **out, const void *data, size_t len, const char *name,
			const struct pd_limits *lim, struct pd_err *err);

/* The member called name (normalized), or NULL; borrowed from t. */
const struct pd_tar_entry *pd_tarball_find(const struct pd_tarball *t, const char *name);

/* The index of the first member whose name is >= name (t->n if none). */
size_t pd_tarball_lower_bound(const struct pd_tarball *t, const char *name);

void pd_tarball_free(struct pd_tarball *t);

#endif
