/* The transfer queue over libcurl's multi interface: up to parallel easy handles run at
 * once; a GET that may pass later waits in `later` until its time, then rejoins the
 * queue. Bodies go straight to their files, so a hostile server costs disk up to the
 * limit, never memory. */
#include "transfer.h"
#include "../core/clock.h"
#include "../core/buf.h"
#include "../core/url.h"
#include "../core/xalloc.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_BACKOFF_MS     30000L
#define MAX_RETRY_AFTER_MS 60000L

/* One GET; it lives from pd_transfer_add to its last try. body is open while a try runs. */
struct req {
	char *url, *shown, *path, *user, *password, *name;
	char *type; /* the last try's Content-Type, or NULL */
	pd_transfer_done_fn done;
	void *ctx;        /* for done */
	unsigned attempt; /* tries made */
	double due;       /* monotonic time before which a retry waits */
	size_t bytes;     /* body bytes of this try */
	int too_big;      /* the body passed max_bytes */
	int over_total;   /* the bodies of the run passed max_total_bytes */
	int write_errno;  /* why the body's file could not be written, or 0 */
	size_t slot;      /* index in slots while running */
	FILE *body;
	CURL *easy;
	char errbuf[CURL_ERROR_SIZE];
	struct pd_transfer *t;
};

/* Invariant: running counts the non-NULL slots; queue[head..n) are ready to start. */
struct pd_transfer {
	const struct pd_transfer_opts *o;
	struct pd_err *err; /* the run's, while it runs */
	CURLM *multi;
	struct req *slots[PD_TRANSFER_MAX_PARALLEL];
	size_t running;
	struct req **queue;
	size_t head, n, cap;
	size_t received;    /* body bytes of every try so far */
	struct req **later; /* waiting for a retry */
	size_t n_later, cap_later;
	struct pd_transfer_progress prog;
};

void pd_transfer_note(struct pd_transfer *t, const char *fmt, ...)
{
	struct pd_buf msg = PD_BUF_INIT;
	va_list ap;
	if (!t->o->note)
		return;
	va_start(ap, fmt);
	pd_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	t->o->note(t->o->ctx, msg.ptr);
	pd_buf_release(&msg);
}

/* url without its credentials (core/url.h). */
static char *redact(const char *url)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_url_redact(&b, url);
	return pd_buf_detach(&b);
}

char *pd_transfer_escape(const char *s)
{
	char *e = curl_easy_escape(NULL, s, 0);
	char *copy;
	if (!e)
		abort(); /* out of memory, as pd_xmalloc does */
	copy = pd_xstrdup(e);
	curl_free(e);
	return copy;
}

int pd_transfer_new(struct pd_transfer **out, const struct pd_transfer_opts *o,
		    struct pd_err *err)
{
	struct pd_transfer *t;
	*out = NULL;
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return pd_err_set(err, PD_EIO, "cannot initialize libcurl");
	t = pd_xcalloc(1, sizeof(*t));
	t->o = o;
	if (!(t->multi = curl_multi_init())) {
		free(t);
		curl_global_cleanup();
		return pd_err_set(err, PD_EIO, "cannot initialize libcurl");
	}
	*out = t;
	return 0;
}

static char *dup_or_null(const char *s)
{
	return s ? pd_xstrdup(s) : NULL;
}

void pd_transfer_add(struct pd_transfer *t, const struct pd_transfer_get *g)
{
	struct req *r = pd_xmalloc(sizeof(*r));
	*r = (struct req){.url = pd_xstrdup(g->url),
			  .shown = redact(g->url),
			  .path = pd_xstrdup(g->path),
			  .user = dup_or_null(g->user),
			  .password = dup_or_null(g->password),
			  .name = dup_or_null(g->name),
			  .done = g->done,
			  .ctx = g->ctx,
			  .t = t};
	PD_GROW(t->queue, t->cap, t->n + 1);
	t->queue[t->n++] = r;
	t->prog.total++;
}

static void req_free(struct req *r)
{
	if (!r)
		return;
	if (r->easy)
		curl_easy_cleanup(r->easy);
	if (r->body)
		fclose(r->body);
	free(r->url);
	free(r->shown);
	free(r->path);
	free(r->type);
	free(r->user);
	free(r->password);
	free(r->name);
	free(r);
}

/* Appends what arrived to the body's file, and cuts the transfer at the limit. */
static size_t on_data(char *data, size_t size, size_t n, void *ctx)
{
	struct req *r = ctx;
	size_t len = size * n;
	if (len > r->t->o->max_bytes - r->bytes) {
		r->too_big = 1;
		return 0; /* curl stops with CURLE_WRITE_ERROR */
	}
	if (r->t->o->max_total_bytes && len > r->t->o->max_total_bytes - r->t->received) {
		r->over_total = 1;
		return 0;
	}
	if (fwrite(data, 1, len, r->body) != len) {
		r->write_errno = errno ? errno : ENOSPC;
		return 0;
	}
	r->bytes += len;
	r->t->received += len;
	return len;
}

static void set_options(struct req *r)
{
	const struct pd_transfer_opts *o = r->t->o;
	CURL *e = r->easy;
	curl_easy_setopt(e, CURLOPT_URL, r->url);
	curl_easy_setopt(e, CURLOPT_PRIVATE, r);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, r);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, r->errbuf);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT, o->timeout_s);
	curl_easy_setopt(e, CURLOPT_TIMEOUT, o->timeout_s);
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(e, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)o->max_bytes);
	curl_easy_setopt(e, CURLOPT_USERAGENT, "perfdelta/" PD_VERSION);
	if (o->netrc || o->netrc_file)
		curl_easy_setopt(e, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
	if (o->netrc_file)
		curl_easy_setopt(e, CURLOPT_NETRC_FILE, o->netrc_file);
	if (r->user) {
		curl_easy_setopt(e, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
		curl_easy_setopt(e, CURLOPT_USERNAME, r->user);
		curl_easy_setopt(e, CURLOPT_PASSWORD, r->password ? r->password : "");
	}
}

/* The body's file for this try: new at the first, emptied for a retry. */
static int open_body(struct req *r, struct pd_err *err)
{
	int fd = open(r->path,
		      O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC |
			      (r->attempt ? O_TRUNC : O_EXCL),
		      0644);
	if (fd < 0 || !(r->body = fdopen(fd, "wb"))) {
		int rc = pd_err_at(err, PD_EIO, r->path, 0, 0, "cannot create: %s",
				   strerror(errno));
		if (fd >= 0)
			close(fd);
		return rc;
	}
	return 0;
}

/* Starts r in a free slot; from here the slot holds it (pd_transfer_free frees it). */
static int start(struct pd_transfer *t, struct req *r)
{
	size_t s = 0;
	int rc;
	while (t->slots[s])
		s++;
	t->slots[s] = r;
	r->slot = s;
	t->running++;
	r->errbuf[0] = '\0';
	r->too_big = r->over_total = r->write_errno = 0;
	r->bytes = 0;
	if ((rc = open_body(r, t->err)) < 0)
		return rc;
	if (!(r->easy = curl_easy_init()))
		return pd_err_at(t->err, PD_EIO, r->shown, 0, 0, "cannot start a transfer");
	set_options(r);
	if (curl_multi_add_handle(t->multi, r->easy) != CURLM_OK)
		return pd_err_at(t->err, PD_EIO, r->shown, 0, 0, "cannot start a transfer");
	return 0;
}

/* The answers worth another try: the server or the network may be better later. */
static int may_pass(CURLcode rc, long status)
{
	if (rc == CURLE_OK)
		return status >= 500 || status == 429 || status == 408;
	return rc == CURLE_COULDNT_CONNECT || rc == CURLE_OPERATION_TIMEDOUT ||
	       rc == CURLE_GOT_NOTHING || rc == CURLE_RECV_ERROR || rc == CURLE_SEND_ERROR ||
	       rc == CURLE_PARTIAL_FILE;
}

static void retry_later(struct pd_transfer *t, struct req *r, const char *why,
			long retry_after_s)
{
	long ms = t->o->backoff_ms;
	for (unsigned i = 1; i < r->attempt && ms < MAX_BACKOFF_MS; i++)
		ms *= 2;
	if (ms > MAX_BACKOFF_MS)
		ms = MAX_BACKOFF_MS;
	if (retry_after_s > 0 && retry_after_s * 1000 > ms)
		ms = retry_after_s * 1000 < MAX_RETRY_AFTER_MS ? retry_after_s * 1000
							       : MAX_RETRY_AFTER_MS;
	r->due = pd_clock_now() + (double)ms / 1000;
	pd_transfer_note(t, "%s: %s, try %u of %u in %.1f s", r->shown, why, r->attempt + 1,
			 t->o->retries + 1, (double)ms / 1000);
	PD_GROW(t->later, t->cap_later, t->n_later + 1);
	t->later[t->n_later++] = r;
	t->prog.retries++;
}

/* Takes r out of its slot and out of curl, and closes its file. */
static void end_try(struct pd_transfer *t, struct req *r, long *status, curl_off_t *retry_after)
{
	curl_easy_getinfo(r->easy, CURLINFO_RESPONSE_CODE, status);
	curl_easy_getinfo(r->easy, CURLINFO_RETRY_AFTER, retry_after);
	char *type = NULL; /* libcurl's, good until the handle goes */
	curl_easy_getinfo(r->easy, CURLINFO_CONTENT_TYPE, &type);
	free(r->type);
	r->type = type ? pd_xstrdup(type) : NULL;
	curl_multi_remove_handle(t->multi, r->easy);
	curl_easy_cleanup(r->easy);
	r->easy = NULL;
	t->slots[r->slot] = NULL;
	t->running--;
	r->attempt++;
	errno = 0;
	if (fclose(r->body) != 0 && !r->write_errno)
		r->write_errno = errno ? errno : EIO; /* the last buffered bytes */
	r->body = NULL;
}

/* The body arrived whole: its done function takes it from the file. */
static int deliver(struct pd_transfer *t, struct req *r)
{
	struct pd_transfer_done d = {r->shown, r->path, r->name, r->bytes, r->type};
	int rc = 0;
	t->prog.done++;
	t->prog.bytes += r->bytes;
	if (r->done)
		rc = r->done(r->ctx, &d, t->err);
	req_free(r);
	return rc;
}

/* The try failed with an answer or a curl error: another try later, or the error. */
static int failed(struct pd_transfer *t, struct req *r, CURLcode rc, long status,
		  curl_off_t retry_after)
{
	char why[CURL_ERROR_SIZE + 32];
	int ret;
	if (rc == CURLE_OK)
		snprintf(why, sizeof(why), "HTTP %ld", status);
	else
		snprintf(why, sizeof(why), "%s",
			 r->errbuf[0] ? r->errbuf : curl_easy_strerror(rc));
	if (may_pass(rc, status) && r->attempt <= t->o->retries) {
		retry_later(t, r, why, (long)retry_after);
		return 0;
	}
	if (r->attempt > 1)
		ret = pd_err_at(t->err, PD_EIO, r->shown, 0, 0, "%s after %u tries", why,
				r->attempt);
	else
		ret = pd_err_at(t->err, PD_EIO, r->shown, 0, 0, "%s", why);
	req_free(r);
	return ret;
}

/* A try ended: hands the body on, schedules a retry, or fails naming the URL. */
static int finish(struct pd_transfer *t, struct req *r, CURLcode rc)
{
	long status = 0;
	curl_off_t retry_after = 0;
	int ret;
	end_try(t, r, &status, &retry_after);
	if (r->too_big || rc == CURLE_FILESIZE_EXCEEDED)
		ret = pd_err_at(t->err, PD_ELIMIT, r->shown, 0, 0,
				"response over the limit of %zu bytes (--max-file-size)",
				t->o->max_bytes);
	else if (r->over_total)
		ret = pd_err_at(
			t->err, PD_ELIMIT, r->shown, 0, 0,
			"the servers sent more than %zu bytes in all (--max-bundle-size)",
			t->o->max_total_bytes);
	else if (r->write_errno)
		ret = pd_err_at(t->err, PD_EIO, r->path, 0, 0, "cannot write: %s",
				strerror(r->write_errno));
	else if (rc == CURLE_OK && status >= 200 && status < 300)
		return deliver(t, r);
	else
		return failed(t, r, rc, status, retry_after);
	req_free(r);
	return ret;
}

/* Moves the retries whose wait is over to the queue; returns ms to the next one, or -1. */
static long promote(struct pd_transfer *t)
{
	double now = pd_clock_now(), next = -1;
	size_t k = 0;
	for (size_t i = 0; i < t->n_later; i++) {
		struct req *r = t->later[i];
		if (r->due <= now) {
			PD_GROW(t->queue, t->cap, t->n + 1);
			t->queue[t->n++] = r;
		} else {
			if (next < 0 || r->due < next)
				next = r->due;
			t->later[k++] = r;
		}
	}
	t->n_later = k;
	return next < 0 ? -1 : (long)((next - now) * 1000) + 1;
}

/* Starts what is ready while slots are free. */
static int start_ready(struct pd_transfer *t)
{
	while (t->running < t->o->parallel && t->head < t->n)
		if (start(t, t->queue[t->head++]) < 0)
			return t->err->code;
	if (t->head == t->n)
		t->head = t->n = 0;
	return 0;
}

/* Lets curl move, then finishes every transfer it has ended; 1 when there was one. */
static int read_answers(struct pd_transfer *t)
{
	int still, done = 0;
	CURLMsg *m;
	curl_multi_perform(t->multi, &still);
	while (!t->err->code && (m = curl_multi_info_read(t->multi, &still))) {
		char *r = NULL;
		if (m->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, &r);
		finish(t, (struct req *)(void *)r, m->data.result);
		if (t->o->progress)
			t->o->progress(t->o->ctx, &t->prog);
		done = 1;
	}
	return done;
}

int pd_transfer_run(struct pd_transfer *t, struct pd_err *err)
{
	t->err = err;
	while (!err->code && (t->head < t->n || t->running || t->n_later)) {
		long wait = promote(t);
		if (start_ready(t) < 0)
			break;
		if (read_answers(t))
			continue; /* start what the answers queued before waiting */
		if (wait < 0 || wait > 1000)
			wait = 1000;
		curl_multi_poll(t->multi, NULL, 0, (int)wait, NULL);
	}
	return err->code;
}

struct pd_transfer_progress pd_transfer_stats(const struct pd_transfer *t)
{
	return t->prog;
}

void pd_transfer_free(struct pd_transfer *t)
{
	if (!t)
		return;
	for (size_t s = 0; s < PD_TRANSFER_MAX_PARALLEL; s++) {
		if (t->slots[s] && t->slots[s]->easy)
			curl_multi_remove_handle(t->multi, t->slots[s]->easy);
		req_free(t->slots[s]);
	}
	for (size_t i = t->head; i < t->n; i++)
		req_free(t->queue[i]);
	for (size_t i = 0; i < t->n_later; i++)
		req_free(t->later[i]);
	curl_multi_cleanup(t->multi);
	curl_global_cleanup();
	free(t->queue);
	free(t->later);
	free(t);
}
