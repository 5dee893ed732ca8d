#include "tarball.h"
#include "../core/buf.h"
#include "../core/file.h"
#include "../core/xalloc.h"

#include <archive.h>
#include <archive_entry.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One reading: the archive, the index being filled, and the names for messages. */
struct reader {
	struct archive *a;
	struct pd_tarball *t;
	const char *tarball;
	const struct pd_limits *lim;
	struct pd_err *err;
	struct pd_buf where; /* "TARBALL:member" of the member being read */
	size_t unpacked;     /* member bytes that the format itself inflated (zip's methods) */
};

/* Sets err on "TARBALL:member" (the member's name as the archive spells it). */
static int member_error(struct reader *r, int code, const char *member, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int member_error(struct reader *r, int code, const char *member, const char *fmt, ...)
{
	struct pd_buf msg = PD_BUF_INIT; /* whole: pd_err keeps its end if it must cut */
	va_list ap;
	va_start(ap, fmt);
	pd_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	pd_buf_truncate(&r->where, 0);
	pd_buf_addf(&r->where, "%s:%s", r->tarball, member);
	pd_err_at(r->err, code, r->where.ptr, 0, 0, "%s", msg.ptr);
	pd_buf_release(&msg);
	return code;
}

/* The archive's own complaint (a damaged or truncated stream), on the tarball. */
static int archive_failed(struct reader *r, const char *member)
{
	const char *why = archive_error_string(r->a);
	if (member)
		return member_error(r, PD_EPARSE, member, "cannot read the member: %s",
				    why ? why : "damaged archive");
	return pd_err_at(r->err, PD_EPARSE, r->tarball, 0, 0,
			 "not a readable .tar or .tar.gz: %s", why ? why : "damaged archive");
}

/* perfdb series compress 4-10 times (a seed bundle 3.6, a constant series 8); gzip cannot
 * pass about 1030. A stream past 64 MiB that has inflated over 200 times is a bomb: refused
 * in a fraction of a second whatever --max-bundle-size allows. One bound for every format:
 * what inflates is a filter's output (gzip around a tar) or a format's own members (zip
 * deflates, bzip2s or xzs each member inside the format, under no filter). */
enum { BOMB_AFTER = 64 << 20, BOMB_RATIO = 200 };

/* Whether the format decompresses its members itself: the bytes it delivers are then
 * inflated ones (tar delivers its members as stored; a sparse member's holes were never
 * compressed and count against the budget only). */
static int format_inflates(struct archive *a)
{
	return (archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) == ARCHIVE_FORMAT_ZIP;
}

/* What a member costs besides its bytes: its 512-byte header, its index entry and its
 * name. Charged to the budget, so that half a million empty members cannot take more
 * memory than the budget allows. */
static size_t member_overhead(const char *member)
{
	return 512 + sizeof(struct pd_tar_entry) + strlen(member) + 1;
}

static int over_budget(struct reader *r, const char *member)
{
	return member_error(r, PD_ELIMIT, member,
			    "the tarball holds more than %zu bytes uncompressed "
			    "(see --max-bundle-size)",
			    r->lim->max_bundle_bytes);
}

/* The budget counts what the members deliver (t->total: their bytes and overheads, a
 * sparse member's holes included, which gzip never produced) and, in case headers alone
 * inflate, what the decompressor has produced (archive_filter_bytes of filter 0). */
static int check_budget(struct reader *r, const char *member)
{
	la_int64_t n = archive_filter_bytes(r->a, 0), raw = archive_filter_bytes(r->a, -1);
	size_t inflated = (n > 0 ? (size_t)n : 0) + r->unpacked;
	if (r->t->total > r->lim->max_bundle_bytes || inflated > r->lim->max_bundle_bytes)
		return over_budget(r, member);
	if (inflated > BOMB_AFTER && raw > 0 && inflated / (size_t)raw > BOMB_RATIO)
		return member_error(r, PD_ELIMIT, member,
				    "the tarball inflates more than %d times past %d MiB: a "
				    "decompression bomb, not a run bundle",
				    BOMB_RATIO, BOMB_AFTER >> 20);
	return 0;
}

/* "a//./b/" is "a/b"; absolute names and ".." components are refused (1); the top
 * itself ("." or "./") is "" . */
static int normalize(struct pd_buf *out, const char *name)
{
	const char *p = name;
	if (*name == '/')
		return 1;
	while (*p) {
		size_t n = strcspn(p, "/");
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return 1;
		if (n && !(n == 1 && p[0] == '.')) {
			if (out->len)
				pd_buf_addch(out, '/');
			pd_buf_add(out, p, n);
		}
		p += n;
		while (*p == '/')
			p++;
	}
	return 0;
}

static void add_entry(struct pd_tarball *t, char *name, char *data, size_t len, int dir)
{
	PD_GROW(t->v, t->cap, t->n + 1);
	t->v[t->n++] =
		(struct pd_tar_entry){.name = name, .data = data, .len = len, .dir = dir};
}

enum { CHUNK = 1 << 20 };

/* Room for at least one more byte and the NUL in *data (capacity *cap, len bytes used). */
static void make_room(char **data, size_t *cap, size_t len)
{
	if (len + 1 < *cap)
		return;
	*cap = *cap < 4096 ? 4096 : *cap + *cap / 2;
	*data = pd_xrealloc(*data, *cap);
}

/* Reads the member's bytes into *out (NUL-terminated, *len bytes) under the per-file limit
 * and the bundle budget, each byte charged as delivered. The buffer is sized from the
 * declared size (declared < 0: unknown), which tar never exceeds, and shrunk to fit. */
static int read_data(struct reader *r, const char *member, la_int64_t declared, char **out,
		     size_t *len)
{
	size_t cap = declared >= 0 ? (size_t)declared + 1 : 0;
	char *data = pd_xmalloc(cap ? cap : 1);
	int rc = 0;
	for (*len = 0; rc == 0 && (declared < 0 || *len < (size_t)declared);) {
		make_room(&data, &cap, *len);
		/* archive_read_data fills what it is given: a chunk at a time, so that the
		 * budget is checked as a bomb inflates */
		size_t room = cap - *len - 1;
		la_ssize_t n =
			archive_read_data(r->a, data + *len, room < CHUNK ? room : CHUNK);
		if (n <= 0) {
			rc = n < 0 ? archive_failed(r, member) : 0;
			break;
		}
		*len += (size_t)n;
		r->t->total += (size_t)n;
		if (format_inflates(r->a))
			r->unpacked += (size_t)n;
		if (*len > r->lim->max_file_bytes)
			rc = member_error(
				r, PD_ELIMIT, member,
				"file larger than the limit of %zu bytes (see --max-file-size)",
				r->lim->max_file_bytes);
		else
			rc = check_budget(r, member);
	}
	data[*len] = '\0';
	*out = rc < 0 ? (free(data), NULL) : pd_xrealloc(data, *len + 1);
	return rc;
}

static const char *refused_type(struct archive_entry *e)
{
	if (archive_entry_hardlink(e))
		return "a hard link";
	switch (archive_entry_filetype(e)) {
	case AE_IFREG:
	case AE_IFDIR:
		return NULL;
	case AE_IFLNK:
		return "a symbolic link";
	case AE_IFIFO:
		return "a FIFO";
	case AE_IFSOCK:
		return "a socket";
	case AE_IFCHR:
	case AE_IFBLK:
		return "a device";
	default:
		return "not a regular file or directory";
	}
}

/* Refuses a member that is not a plain file or directory inside the bundle, or whose
 * declared size passes a limit; charges its overhead to the budget. */
static int check_member(struct reader *r, struct archive_entry *e, const char *member,
			struct pd_buf *name, int dir)
{
	const char *bad = refused_type(e);
	la_int64_t size = !dir && archive_entry_size_is_set(e) ? archive_entry_size(e) : 0;
	int rc;
	if (bad)
		return member_error(r, PD_EPARSE, member,
				    "%s: only regular files and directories are read", bad);
	if (normalize(name, member))
		return member_error(r, PD_EPARSE, member,
				    "an absolute name or a '..' component: expected a "
				    "name inside the bundle");
	if (size > (la_int64_t)r->lim->max_file_bytes)
		return member_error(r, PD_ELIMIT, member,
				    "file of %lld bytes is larger than the limit of %zu bytes "
				    "(see --max-file-size)",
				    (long long)size, r->lim->max_file_bytes);
	r->t->total += member_overhead(member);
	if ((rc = check_budget(r, member)) < 0)
		return rc;
	/* check_budget holds total <= the budget, so the difference does not wrap */
	if (size > (la_int64_t)(r->lim->max_bundle_bytes - r->t->total))
		return over_budget(r, member);
	return 0;
}

static int read_member(struct reader *r, struct archive_entry *e)
{
	const char *member = archive_entry_pathname(e);
	struct pd_buf name = PD_BUF_INIT;
	char *data = NULL;
	size_t len = 0;
	int dir = archive_entry_filetype(e) == AE_IFDIR, rc;
	if (!member)
		return archive_failed(r, NULL);
	if ((rc = check_member(r, e, member, &name, dir)) == 0 && !dir)
		rc = read_data(r, member,
			       archive_entry_size_is_set(e) ? archive_entry_size(e) : -1, &data,
			       &len);
	if (rc == 0 && name.len) {
		size_t n = name.len;
		add_entry(r->t, pd_xrealloc(pd_buf_detach(&name), n + 1), data, len, dir);
		data = NULL;
	}
	free(data);
	pd_buf_release(&name);
	return rc;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct pd_tar_entry *)a)->name,
		      ((const struct pd_tar_entry *)b)->name);
}

/* Sorts the members and refuses a name given twice (a later copy would silently win in
 * tar -x); a directory given twice is harmless. Directories implied by deeper names are
 * not added: pd_tree finds them by prefix. */
static int finish_index(struct reader *r)
{
	struct pd_tarball *t = r->t;
	if (t->n > 1)
		qsort(t->v, t->n, sizeof(*t->v), cmp_entry);
	for (size_t i = 1; i < t->n; i++)
		if (!strcmp(t->v[i - 1].name, t->v[i].name) &&
		    !(t->v[i - 1].dir && t->v[i].dir))
			return member_error(r, PD_EPARSE, t->v[i].name,
					    "the name is in the archive twice");
	return 0;
}

/* The members, one header at a time, until the end of the archive or the first refusal. */
static int read_members(struct reader *r)
{
	struct archive_entry *e;
	int rc, ar;
	while ((ar = archive_read_next_header(r->a, &e)) == ARCHIVE_OK || ar == ARCHIVE_WARN) {
		if ((rc = read_member(r, e)) < 0)
			return rc;
	}
	if (ar != ARCHIVE_EOF)
		return archive_failed(r, NULL);
	return finish_index(r);
}

static struct archive *new_archive(void)
{
	struct archive *a = archive_read_new();
	if (!a)
		abort(); /* out of memory, as pd_xmalloc */
	/* tar (ustar, pax, GNU) and gzip, what docs/reference.md "A run bundle" promises, and
	 * zip (Jenkins' "all files in zip" of a build's artifacts); nothing else is tried */
	archive_read_support_filter_gzip(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_zip(a);
	return a;
}

static int finish(struct pd_tarball **out, struct reader *r, int rc)
{
	archive_read_free(r->a);
	pd_buf_release(&r->where);
	if (rc < 0) {
		pd_tarball_free(r->t);
		r->t = NULL;
	}
	*out = r->t;
	return rc;
}

int pd_tarball_read(struct pd_tarball **out, const char *path, const struct pd_limits *lim,
		    struct pd_err *err)
{
	struct reader r = {.tarball = path, .lim = lim, .err = err, .where = PD_BUF_INIT};
	int fd, rc;
	*out = NULL;
	if ((rc = pd_file_open(&fd, path, 0, err)) < 0)
		return rc;
	r.a = new_archive();
	r.t = pd_xcalloc(1, sizeof(*r.t));
	if (archive_read_open_fd(r.a, fd, 1 << 16) != ARCHIVE_OK)
		rc = archive_failed(&r, NULL);
	else
		rc = read_members(&r);
	rc = finish(out, &r, rc);
	close(fd);
	return rc;
}

int pd_tarball_read_mem(struct pd_tarball **out, const void *data, size_t len, const char *name,
			const struct pd_limits *lim, struct pd_err *err)
{
	struct reader r = {.a = new_archive(),
			   .t = pd_xcalloc(1, sizeof(*r.t)),
			   .tarball = name,
			   .lim = lim,
			   .err = err,
			   .where = PD_BUF_INIT};
	int rc;
	/* libarchive wants a non-NULL buffer even for an empty input */
	if (archive_read_open_memory(r.a, len ? data : "", len) != ARCHIVE_OK)
		rc = archive_failed(&r, NULL);
	else
		rc = read_members(&r);
	return finish(out, &r, rc);
}

size_t pd_tarball_lower_bound(const struct pd_tarball *t, const char *name)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(t->v[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct pd_tar_entry *pd_tarball_find(const struct pd_tarball *t, const char *name)
{
	size_t i = pd_tarball_lower_bound(t, name);
	return i < t->n && !strcmp(t->v[i].name, name) ? &t->v[i] : NULL;
}

void pd_tarball_free(struct pd_tarball *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].name);
		free(t->v[i].data);
	}
	free(t->v);
	free(t);
}
