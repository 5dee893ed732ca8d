/* A bundle's files as the loader sees them, whether they sit in a directory or in a
 * tarball read into memory (parse/tarball.h): the loader lists, probes and reads paths
 * relative to the bundle root ("perfdb/<db>/<metric>.json") and never knows which.
 *
 * Only regular files and directories inside the bundle are taken (docs/reference.md "Limits").
 * In a directory a symbolic link anywhere below the root is refused (PD_EIO, "a symbolic
 * link"), as in a tarball: a bundle is an artifact that is copied and unpacked, where a
 * link either dangles or points at someone else's files, and one rule for both forms keeps
 * a tarball equal to its directory. The root itself may be a link: the user named it. */
#ifndef PD_PARSE_TREE_H
#define PD_PARSE_TREE_H

#include "../core/model.h"
#include "../core/src.h"

struct pd_tree;

enum pd_tree_kind { PD_TREE_NONE, PD_TREE_FILE, PD_TREE_DIR };

/* Opens the bundle at path: a directory, or a .tar / .tar.gz / .tgz that is not one
 * (read whole, under lim). The caller frees *out with pd_tree_free. */
int pd_tree_open(struct pd_tree **out, const char *path, const struct pd_limits *lim,
		 struct pd_err *err);
void pd_tree_free(struct pd_tree *t);

/* What rel is: absent (NONE), a regular file or a directory. Anything else there (a
 * symbolic link, FIFO, device, socket) or a failing lstat (EACCES) is PD_EIO naming it:
 * never silently absent. */
int pd_tree_kind(enum pd_tree_kind *out, struct pd_tree *t, const char *rel,
		 struct pd_err *err);

/* The names in directory rel ("" is the root), without dot names, sorted (strcmp). */
int pd_tree_list(struct pd_strv *out, struct pd_tree *t, const char *rel, struct pd_err *err);

/* Reads regular file rel (under lim->max_file_bytes) as *src; src's bytes and path are
 * borrowed from t until the next read. */
int pd_tree_read(struct pd_src *src, struct pd_tree *t, const char *rel, struct pd_err *err);

/* rel as messages name it: "DIR/rel" or "TARBALL:member"; valid until the next call. */
const char *pd_tree_path(struct pd_tree *t, const char *rel);

#endif
