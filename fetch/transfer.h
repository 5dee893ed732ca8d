/* A queue of HTTP(S) GETs run by libcurl a few at a time, each body streamed into its own
 * file as it arrives (memory stays a few buffers per transfer, whatever the server
 * sends), with retries after a growing wait for what may pass: 5xx, 408, 429 and
 * connection errors. Generic: it knows URLs and files, not what they hold. */
#ifndef PD_TRANSFER_H
#define PD_TRANSFER_H

#include "../core/err.h"

#include <stddef.h>

#define PD_TRANSFER_MAX_PARALLEL 64

struct pd_transfer_progress {
	size_t done;    /* requests answered */
	size_t total;   /* requests known so far (it grows as answers add more) */
	size_t bytes;   /* body bytes received */
	size_t retries; /* requests tried again so far */
	int finished;   /* 1 on the last call */
};

typedef void (*pd_transfer_progress_fn)(void *ctx, const struct pd_transfer_progress *p);
typedef void (*pd_transfer_note_fn)(void *ctx, const char *msg);

/* Every field is used as given: callers start from their own defaults. */
struct pd_transfer_opts {
	unsigned parallel;                /* transfers at once, 1 to PD_TRANSFER_MAX_PARALLEL */
	unsigned retries;                 /* tries after the first */
	long timeout_s;                   /* connect and total time of one try, s */
	long backoff_ms;                  /* first wait before a retry, doubled each time */
	size_t max_bytes;                 /* a longer body fails the run (PD_ELIMIT) */
	size_t max_total_bytes;           /* so do more bytes of all bodies; 0: no bound */
	int netrc;                        /* credentials from ~/.netrc (CURLOPT_NETRC) */
	const char *netrc_file;           /* from this netrc file instead, or NULL */
	pd_transfer_progress_fn progress; /* called after each answer, or NULL */
	pd_transfer_note_fn note;         /* retries, or NULL */
	void *ctx;                        /* passed to progress and note */
};

/* A body that arrived whole, in d->path (closed), for the GET's done function. */
struct pd_transfer_done {
	const char *shown; /* the URL without credentials, for messages */
	const char *path;  /* the file holding the body */
	const char *name;  /* the GET's name, or NULL */
	size_t bytes;
	const char *type; /* the Content-Type the server gave, or NULL */
};

/* Called in the run loop, one at a time; may add GETs. A negative return (with err
 * set) ends the run with it. */
typedef int (*pd_transfer_done_fn)(void *ctx, const struct pd_transfer_done *d,
				   struct pd_err *err);

/* One GET; the strings are copied. path is created at the first try (never through a
 * symlink, never over an existing file) and truncated for a retry. */
struct pd_transfer_get {
	const char *url;
	const char *path;
	const char *user, *password; /* basic auth for this GET only, or NULL */
	const char *name;            /* handed back in d->name, or NULL */
	pd_transfer_done_fn done;    /* or NULL */
	void *ctx;                   /* passed to done */
};

struct pd_transfer;

/* A new, empty queue with the options o (kept by pointer: o outlives it). PD_EIO when
 * libcurl cannot start. Free with pd_transfer_free. */
int pd_transfer_new(struct pd_transfer **out, const struct pd_transfer_opts *o,
		    struct pd_err *err);

/* Queues g; the run starts it. */
void pd_transfer_add(struct pd_transfer *t, const struct pd_transfer_get *g);

/* Runs the queue until every GET is answered and done (done functions may queue more)
 * or one fails: PD_EIO naming the URL and the HTTP status or the curl error (after the
 * retries), PD_ELIMIT for a body over max_bytes (the transfer is cut there), PD_EIO
 * naming the file when a body cannot be written, or what a done function returned. */
int pd_transfer_run(struct pd_transfer *t, struct pd_err *err);

/* A line for the user through the note function (nothing without one). */
void pd_transfer_note(struct pd_transfer *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The counts so far, for a last progress line. */
struct pd_transfer_progress pd_transfer_stats(const struct pd_transfer *t);

/* s percent-encoded as one URL path segment; the caller frees. */
char *pd_transfer_escape(const char *s);

/* Ends the transfers still running (their files stay, partial, for the caller to
 * remove) and frees t; NULL is a no-op. */
void pd_transfer_free(struct pd_transfer *t);

#endif
