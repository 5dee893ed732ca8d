#include "pull.h"
#include "console.h"
#include "dbname.h"
#include "ini.h"
#include "jenkins.h"
#include "../core/buf.h"
#include "../core/file.h"
#include "../core/model.h"
#include "../core/xalloc.h"
#include "../core/outdir.h"

#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define MAX_PARALLEL       64
#define MAX_BACKOFF_MS     30000L
#define MAX_RETRY_AFTER_MS 60000L
#define NAME_MAX_BYTES     255

enum req_kind { REQ_BUILD, REQ_CONSOLE, REQ_DBS, REQ_METRICS, REQ_SERIES };

/* One GET and its answer; it lives from enqueue to its last try. */
struct req {
	enum req_kind kind;
	char *url;
	char *shown;      /* url without credentials, for messages */
	char *name;       /* REQ_METRICS: the db; REQ_SERIES: the file in the bundle */
	unsigned attempt; /* tries made */
	double due;       /* monotonic time before which a retry waits */
	int too_big;      /* the body passed lim->max_file_bytes */
	size_t slot;      /* index in puller.slots while running */
	struct pd_buf body;
	CURL *easy;
	char errbuf[CURL_ERROR_SIZE];
	struct puller *p;
};

/* Invariant: running counts the non-NULL slots; queue[head..n) are ready to start. */
struct puller {
	const struct pd_pull_opts *o;
	const struct pd_limits *lim;
	struct pd_err *err;
	CURLM *multi;
	struct req *slots[MAX_PARALLEL];
	size_t running, parallel;
	long timeout_s, backoff_ms; /* the options with their defaults applied */
	struct req **queue;
	size_t head, n, cap;
	struct req **later; /* waiting for a retry */
	size_t n_later, cap_later;
	size_t n_series;
	struct pd_outdir out;
	struct pd_run *run; /* scratch: the build, the console, the spec's nodes */
	char *perfdb;       /* base URL, no trailing '/' */
	char *build_shown, *console_shown;
	struct pd_buf build, console;
	struct pd_pull_progress prog;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void note(struct puller *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct puller *p, const char *fmt, ...)
{
	char msg[1024]; /* a longer note is cut: it is only a line for the user */
	va_list ap;
	if (!p->o->note)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	p->o->note(p->o->ctx, msg);
}

/* url without "user:password@" in its authority. */
static char *redact(const char *url)
{
	struct pd_buf b = PD_BUF_INIT;
	const char *auth = strstr(url, "://"), *end, *at = NULL;
	if (!auth) {
		pd_buf_adds(&b, url);
		return pd_buf_detach(&b);
	}
	auth += 3;
	end = auth + strcspn(auth, "/?#");
	for (const char *c = auth; c < end; c++)
		if (*c == '@')
			at = c;
	pd_buf_add(&b, url, (size_t)(auth - url));
	pd_buf_adds(&b, at ? at + 1 : auth);
	return pd_buf_detach(&b);
}

/* s with its trailing slashes cut. */
static char *trim_slashes(const char *s)
{
	size_t n = strlen(s);
	while (n && s[n - 1] == '/')
		n--;
	return pd_xstrndup(s, n);
}

/* A name as an error message may show it: printable, at most 64 bytes. */
static void show_name(struct pd_buf *b, const char *name)
{
	size_t i;
	for (i = 0; i < 64 && name[i]; i++) {
		unsigned char c = (unsigned char)name[i];
		if (c < 0x20 || c == 0x7f || c == '\\' || c == '\'')
			pd_buf_addf(b, "\\x%02x", c);
		else
			pd_buf_addch(b, (char)c);
	}
	if (name[i])
		pd_buf_adds(b, "...");
}

/* Why name cannot be one path component of the bundle, or NULL when it can. */
static const char *bad_name(const char *name, size_t max)
{
	size_t n = strlen(name);
	if (!n)
		return "it is empty";
	if (n > max)
		return "it is too long";
	if (name[0] == '.')
		return "it starts with '.'";
	if (strchr(name, '/'))
		return "it holds '/'";
	if (strstr(name, ".."))
		return "it holds '..'";
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
			return "it holds a control character";
	return NULL;
}

static int check_name(const char *what, const char *name, size_t max, const char *from,
		      struct pd_err *err)
{
	const char *why = bad_name(name, max);
	struct pd_buf b = PD_BUF_INIT;
	int rc;
	if (!why)
		return 0;
	show_name(&b, name);
	rc = pd_err_at(err, PD_EPARSE, from, 0, 0, "refusing %s name '%s': %s (max %zu bytes)",
		       what, b.ptr, why, max);
	pd_buf_release(&b);
	return rc;
}

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

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts sv and drops repeated names. */
static void sort_unique(struct pd_strv *sv)
{
	size_t k = 0;
	if (sv->n < 2)
		return;
	qsort(sv->v, sv->n, sizeof(*sv->v), cmp_str);
	for (size_t i = 1; i < sv->n; i++) {
		if (!strcmp(sv->v[i], sv->v[k]))
			free(sv->v[i]);
		else
			sv->v[++k] = sv->v[i];
	}
	sv->n = k + 1;
}

/* perfdb's list bodies: ["name", ...]. */
static int parse_names(struct pd_strv *out, const struct req *r, struct pd_err *err)
{
	cJSON *j, *it;
	int rc = 0;
	if (has_nul_escape(r->body.ptr, r->body.len))
		return pd_err_at(err, PD_EPARSE, r->shown, 0, 0,
				 "refusing a name with a NUL character");
	j = cJSON_ParseWithLength(r->body.ptr, r->body.len);
	if (!j || !cJSON_IsArray(j)) {
		rc = pd_err_at(err, PD_EPARSE, r->shown, 0, 0,
			       "expected a JSON array of names");
		goto done;
	}
	cJSON_ArrayForEach(it, j)
	{
		if (!cJSON_IsString(it)) {
			rc = pd_err_at(err, PD_EPARSE, r->shown, 0, 0,
				       "expected a JSON array of names, found a non-string");
			goto done;
		}
		pd_strv_add(out, it->valuestring);
	}
	sort_unique(out);
done:
	cJSON_Delete(j);
	return rc;
}

static char *escape(const char *s)
{
	char *e = curl_easy_escape(NULL, s, 0);
	char *copy;
	if (!e)
		abort(); /* out of memory, as pd_xmalloc does */
	copy = pd_xstrdup(e);
	curl_free(e);
	return copy;
}

static void enqueue(struct puller *p, enum req_kind kind, char *url, const char *name)
{
	struct req *r = pd_xcalloc(1, sizeof(*r));
	r->kind = kind;
	r->url = url;
	r->shown = redact(url);
	r->name = name ? pd_xstrdup(name) : NULL;
	r->body = (struct pd_buf)PD_BUF_INIT;
	r->p = p;
	PD_GROW(p->queue, p->cap, p->n + 1);
	p->queue[p->n++] = r;
	p->prog.total++;
}

static void req_free(struct req *r)
{
	if (!r)
		return;
	if (r->easy)
		curl_easy_cleanup(r->easy);
	pd_buf_release(&r->body);
	free(r->url);
	free(r->shown);
	free(r->name);
	free(r);
}

static size_t on_data(char *data, size_t size, size_t n, void *ctx)
{
	struct req *r = ctx;
	size_t len = size * n;
	if (len > r->p->lim->max_file_bytes - r->body.len) {
		r->too_big = 1;
		return 0; /* curl stops with CURLE_WRITE_ERROR */
	}
	pd_buf_add(&r->body, data, len);
	return len;
}

static int is_jenkins(const struct req *r)
{
	return r->kind == REQ_BUILD || r->kind == REQ_CONSOLE;
}

static void set_options(struct puller *p, struct req *r)
{
	const struct pd_pull_opts *o = p->o;
	CURL *e = r->easy;
	curl_easy_setopt(e, CURLOPT_URL, r->url);
	curl_easy_setopt(e, CURLOPT_PRIVATE, r);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, r);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, r->errbuf);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT, p->timeout_s);
	curl_easy_setopt(e, CURLOPT_TIMEOUT, p->timeout_s);
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(e, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)p->lim->max_file_bytes);
	curl_easy_setopt(e, CURLOPT_USERAGENT, "perfdelta/" PD_VERSION);
	if (o->netrc)
		curl_easy_setopt(e, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
	if (is_jenkins(r) && o->jenkins_user) {
		/* Jenkins requests only: perfdb never sees the token */
		curl_easy_setopt(e, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
		curl_easy_setopt(e, CURLOPT_USERNAME, o->jenkins_user);
		curl_easy_setopt(e, CURLOPT_PASSWORD, o->jenkins_token ? o->jenkins_token : "");
	}
}

static int start(struct puller *p, struct req *r)
{
	size_t s = 0;
	while (p->slots[s])
		s++;
	r->easy = curl_easy_init();
	if (!r->easy) {
		int rc = pd_err_at(p->err, PD_EIO, r->shown, 0, 0, "cannot start a transfer");
		req_free(r);
		return rc;
	}
	r->errbuf[0] = '\0';
	r->too_big = 0;
	pd_buf_truncate(&r->body, 0);
	set_options(p, r);
	r->slot = s;
	p->slots[s] = r;
	p->running++;
	if (curl_multi_add_handle(p->multi, r->easy) != CURLM_OK)
		return pd_err_at(p->err, PD_EIO, r->shown, 0, 0, "cannot start a transfer");
	return 0;
}

/* The curl errors worth another try: the server or the network may be better later. */
static int transient(CURLcode rc)
{
	return rc == CURLE_COULDNT_CONNECT || rc == CURLE_OPERATION_TIMEDOUT ||
	       rc == CURLE_GOT_NOTHING || rc == CURLE_RECV_ERROR || rc == CURLE_SEND_ERROR ||
	       rc == CURLE_PARTIAL_FILE;
}

static void retry_later(struct puller *p, struct req *r, const char *why, long retry_after_s)
{
	long ms = p->backoff_ms;
	for (unsigned i = 1; i < r->attempt && ms < MAX_BACKOFF_MS; i++)
		ms *= 2;
	if (ms > MAX_BACKOFF_MS)
		ms = MAX_BACKOFF_MS;
	if (retry_after_s > 0 && retry_after_s * 1000 > ms)
		ms = retry_after_s * 1000 < MAX_RETRY_AFTER_MS ? retry_after_s * 1000
							       : MAX_RETRY_AFTER_MS;
	r->due = now_s() + (double)ms / 1000;
	note(p, "%s: %s, try %u of %u in %.1f s", r->shown, why, r->attempt + 1,
	     p->o->retries + 1, (double)ms / 1000);
	PD_GROW(p->later, p->cap_later, p->n_later + 1);
	p->later[p->n_later++] = r;
	p->prog.retries++;
}

static int handle(struct puller *p, struct req *r);

/* A transfer ended: hands the body on, schedules a retry, or fails naming the URL. */
static int finish(struct puller *p, struct req *r, CURLcode rc)
{
	long status = 0;
	curl_off_t retry_after = 0;
	char why[CURL_ERROR_SIZE + 32];
	int ret;
	curl_easy_getinfo(r->easy, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_getinfo(r->easy, CURLINFO_RETRY_AFTER, &retry_after);
	curl_multi_remove_handle(p->multi, r->easy);
	curl_easy_cleanup(r->easy);
	r->easy = NULL;
	p->slots[r->slot] = NULL;
	p->running--;
	r->attempt++;
	if (rc == CURLE_OK && status >= 200 && status < 300) {
		p->prog.done++;
		p->prog.bytes += r->body.len;
		ret = handle(p, r);
		req_free(r);
		return ret;
	}
	if (r->too_big || rc == CURLE_FILESIZE_EXCEEDED) {
		ret = pd_err_at(p->err, PD_ELIMIT, r->shown, 0, 0,
				"response over the limit of %zu bytes (--max-file-size)",
				p->lim->max_file_bytes);
		req_free(r);
		return ret;
	}
	if (rc == CURLE_OK)
		snprintf(why, sizeof(why), "HTTP %ld", status);
	else
		snprintf(why, sizeof(why), "%s",
			 r->errbuf[0] ? r->errbuf : curl_easy_strerror(rc));
	if ((rc == CURLE_OK ? status >= 500 || status == 429 || status == 408
			    : transient(rc)) &&
	    r->attempt <= p->o->retries) {
		retry_later(p, r, why, (long)retry_after);
		return 0;
	}
	if (r->attempt > 1)
		ret = pd_err_at(p->err, PD_EIO, r->shown, 0, 0, "%s after %u tries", why,
				r->attempt);
	else
		ret = pd_err_at(p->err, PD_EIO, r->shown, 0, 0, "%s", why);
	req_free(r);
	return ret;
}

/* Moves the retries whose wait is over to the queue; returns ms to the next one, or -1. */
static long promote(struct puller *p)
{
	double now = now_s(), next = -1;
	size_t k = 0;
	for (size_t i = 0; i < p->n_later; i++) {
		struct req *r = p->later[i];
		if (r->due <= now) {
			PD_GROW(p->queue, p->cap, p->n + 1);
			p->queue[p->n++] = r;
		} else {
			if (next < 0 || r->due < next)
				next = r->due;
			p->later[k++] = r;
		}
	}
	p->n_later = k;
	return next < 0 ? -1 : (long)((next - now) * 1000) + 1;
}

static void report_progress(struct puller *p, int finished)
{
	if (!p->o->progress)
		return;
	p->prog.finished = finished;
	p->o->progress(p->o->ctx, &p->prog);
}

/* Runs the queue until every request is answered (handlers may add more) or one fails. */
static int run(struct puller *p)
{
	while (!p->err->code && (p->head < p->n || p->running || p->n_later)) {
		long wait = promote(p);
		int still, done = 0;
		CURLMsg *m;
		while (p->running < p->parallel && p->head < p->n)
			if (start(p, p->queue[p->head++]) < 0)
				return p->err->code;
		if (p->head == p->n)
			p->head = p->n = 0;
		curl_multi_perform(p->multi, &still);
		while (!p->err->code && (m = curl_multi_info_read(p->multi, &still))) {
			char *r = NULL;
			if (m->msg != CURLMSG_DONE)
				continue;
			curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, &r);
			finish(p, (struct req *)(void *)r, m->data.result);
			report_progress(p, 0);
			done = 1;
		}
		if (done)
			continue; /* start what the answers queued before waiting */
		if (wait < 0 || wait > 1000)
			wait = 1000;
		curl_multi_poll(p->multi, NULL, 0, (int)wait, NULL);
	}
	return p->err->code;
}

/* Frees every request still held (after a failure). */
static void drop_all(struct puller *p)
{
	for (size_t s = 0; s < MAX_PARALLEL; s++) {
		if (!p->slots[s])
			continue;
		curl_multi_remove_handle(p->multi, p->slots[s]->easy);
		req_free(p->slots[s]);
		p->slots[s] = NULL;
	}
	for (size_t i = p->head; i < p->n; i++)
		req_free(p->queue[i]);
	for (size_t i = 0; i < p->n_later; i++)
		req_free(p->later[i]);
	p->running = p->head = p->n = p->n_later = 0;
}

static char *join_url(const char *base, const char *a, const char *b)
{
	struct pd_buf u = PD_BUF_INIT;
	char *e;
	pd_buf_addf(&u, "%s/", base);
	if (a) {
		pd_buf_adds(&u, e = escape(a));
		free(e);
	}
	if (b) {
		pd_buf_addf(&u, "/%s", e = escape(b));
		free(e);
	}
	return pd_buf_detach(&u);
}

/* A name cbagent would strip characters from: only pd_dbname_decode can match it. */
static int has_stripped_chars(const char *name)
{
	return name[strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "0123456789_-")] != '\0';
}

/* db holds one of the snapshot names, or decodes as one of theirs. Decoding runs only
 * where it can tell something: with the spec's nodes (for the note on undecoded dbs) or
 * for snapshot names that lose characters in db names. */
static int of_snapshot(struct puller *p, const char *db, int *decoded)
{
	struct pd_dbname d;
	struct pd_err ignored = PD_ERR_INIT;
	const struct pd_run *run = p->run;
	int found = 0, stripped = 0;
	for (size_t i = 0; i < run->snapshots.n && !found; i++) {
		found = strstr(db, run->snapshots.v[i]) != NULL;
		stripped |= has_stripped_chars(run->snapshots.v[i]);
	}
	*decoded = 0;
	if ((found && run->n_nodes) || (!found && stripped)) {
		*decoded = pd_dbname_decode(&d, db, &run->snapshots, run->nodes, run->n_nodes,
					    &ignored) == 0;
		if (*decoded)
			pd_dbname_clear(&d);
	}
	return found || *decoded;
}

static int on_dbs(struct puller *p, struct req *r)
{
	struct pd_strv dbs = {0}, undecoded = {0};
	struct pd_buf dir = PD_BUF_INIT;
	size_t kept = 0;
	int rc, decoded;
	if ((rc = parse_names(&dbs, r, p->err)) < 0)
		goto done;
	for (size_t i = 0; i < dbs.n; i++) {
		if (!of_snapshot(p, dbs.v[i], &decoded))
			continue;
		if ((rc = check_name("database", dbs.v[i], NAME_MAX_BYTES, r->shown, p->err)) <
		    0)
			goto done;
		if (!decoded)
			pd_strv_add(&undecoded, dbs.v[i]);
		pd_buf_truncate(&dir, 0);
		pd_buf_addf(&dir, "perfdb/%s", dbs.v[i]);
		if ((rc = pd_outdir_mkdir(&p->out, dir.ptr, p->err)) < 0)
			goto done;
		enqueue(p, REQ_METRICS, join_url(p->perfdb, dbs.v[i], NULL), dbs.v[i]);
		kept++;
	}
	if (!kept) {
		rc = pd_err_at(p->err, PD_ENOTFOUND, r->shown, 0, 0,
			       "no database of snapshot '%s'%s among the %zu listed",
			       p->run->snapshots.v[0],
			       p->run->snapshots.n > 1 ? " or the others" : "", dbs.n);
		goto done;
	}
	if (undecoded.n && p->run->n_nodes)
		note(p,
		     "%zu of %zu databases kept for their snapshot name do not decode with the "
		     "spec's nodes (first: %s)",
		     undecoded.n, kept, undecoded.v[0]);
done:
	pd_buf_release(&dir);
	pd_strv_free(&dbs);
	pd_strv_free(&undecoded);
	return rc;
}

static int on_metrics(struct puller *p, struct req *r)
{
	struct pd_strv metrics = {0};
	struct pd_buf file = PD_BUF_INIT;
	int rc;
	if ((rc = parse_names(&metrics, r, p->err)) < 0)
		goto done;
	for (size_t i = 0; i < metrics.n; i++) {
		/* the file is "<metric>.json": 5 bytes of the component's 255 */
		if ((rc = check_name("metric", metrics.v[i], NAME_MAX_BYTES - 5, r->shown,
				     p->err)) < 0)
			goto done;
		if (++p->n_series > p->lim->max_series) {
			rc = pd_err_at(p->err, PD_ELIMIT, r->shown, 0, 0,
				       "more than %zu series (--max-series)",
				       p->lim->max_series);
			goto done;
		}
		pd_buf_truncate(&file, 0);
		pd_buf_addf(&file, "perfdb/%s/%s.json", r->name, metrics.v[i]);
		enqueue(p, REQ_SERIES, join_url(p->perfdb, r->name, metrics.v[i]), file.ptr);
	}
done:
	pd_buf_release(&file);
	pd_strv_free(&metrics);
	return rc;
}

static void take_body(struct pd_buf *dst, char **shown, struct req *r)
{
	struct pd_buf t = *dst;
	*dst = r->body;
	r->body = t;
	free(*shown);
	*shown = pd_xstrdup(r->shown);
}

static int handle(struct puller *p, struct req *r)
{
	switch (r->kind) {
	case REQ_BUILD:
		take_body(&p->build, &p->build_shown, r);
		return 0;
	case REQ_CONSOLE:
		take_body(&p->console, &p->console_shown, r);
		return 0;
	case REQ_DBS:
		return on_dbs(p, r);
	case REQ_METRICS:
		return on_metrics(p, r);
	case REQ_SERIES:
		return pd_outdir_write(&p->out, r->name, r->body.ptr, r->body.len, p->err);
	}
	return 0;
}

/* "http://HOST:8080" from the console's first "HTML report: SCHEME://HOST[:PORT]/...";
 * NULL when there is none or its host is not a plain name or address. */
static char *perfdb_from_console(const struct pd_buf *console)
{
	static const char key[] = "HTML report: ";
	const char *s = strstr(console->ptr, key), *host;
	struct pd_buf b = PD_BUF_INIT;
	size_t scheme, n;
	if (!s)
		return NULL;
	s += strlen(key);
	scheme = strspn(s, "abcdefghijklmnopqrstuvwxyz");
	if (!scheme || strncmp(s + scheme, "://", 3))
		return NULL;
	host = s + scheme + 3;
	if (host[0] == '[') /* [v6] */
		n = strspn(host + 1, "0123456789abcdefABCDEF:.") + 1;
	else
		n = strspn(host,
			   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-");
	if (!n || (host[0] == '[' && host[n++] != ']') || !strchr(":/?# \t\r\n", host[n]))
		return NULL; /* user@host and anything odd: --perfdb says where */
	pd_buf_adds(&b, "http://");
	pd_buf_add(&b, host, n);
	pd_buf_adds(&b, ":8080");
	return pd_buf_detach(&b);
}

/* The build URL without a trailing console page or slash. */
static char *build_base(const char *url)
{
	static const char *const pages[] = {"/console", "/consoleText", "/consoleFull"};
	char *base = trim_slashes(url);
	size_t n = strlen(base);
	for (size_t i = 0; i < sizeof(pages) / sizeof(*pages); i++) {
		size_t k = strlen(pages[i]);
		if (n > k && !strcmp(base + n - k, pages[i])) {
			base[n - k] = '\0';
			break;
		}
	}
	return base;
}

static int fetch_jenkins(struct puller *p)
{
	const struct pd_pull_opts *o = p->o;
	char *base = build_base(o->jenkins);
	struct pd_buf u = PD_BUF_INIT;
	struct pd_src src;
	const char *build_name = o->jenkins_xml ? "jenkins/build.xml" : "jenkins/build.json";
	int rc;
	pd_buf_addf(&u, "%s/api/%s", base, o->jenkins_xml ? "xml" : "json");
	enqueue(p, REQ_BUILD, pd_buf_detach(&u), NULL);
	pd_buf_addf(&u, "%s/consoleText", base);
	enqueue(p, REQ_CONSOLE, pd_buf_detach(&u), NULL);
	free(base);
	if ((rc = run(p)) < 0)
		return rc;
	src = (struct pd_src){p->build.ptr, p->build.len, p->build_shown, p->lim};
	if ((rc = o->jenkins_xml ? pd_jenkins_xml_parse(&p->run->jenkins, &src, p->err)
				 : pd_jenkins_json_parse(&p->run->jenkins, &src, p->err)) < 0)
		return rc;
	if (!o->n_snapshots) {
		src = (struct pd_src){p->console.ptr, p->console.len, p->console_shown, p->lim};
		if ((rc = pd_console_parse(p->run, &src, p->err)) < 0)
			return rc;
	}
	if ((rc = pd_outdir_mkdir(&p->out, "jenkins", p->err)) < 0 ||
	    (rc = pd_outdir_write(&p->out, build_name, p->build.ptr, p->build.len, p->err)) <
		    0 ||
	    (rc = pd_outdir_write(&p->out, "jenkins/consoleText", p->console.ptr,
				  p->console.len, p->err)) < 0)
		return rc;
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

/* A build parameter naming a file under the checkout: relative, each part a plain name. */
static int check_relpath(const char *param, const char *value, struct pd_err *err)
{
	char *copy = pd_xstrdup(value), *save = NULL;
	struct pd_buf shown = PD_BUF_INIT;
	int rc = 0;
	if (!*value || value[0] == '/' || value[strlen(value) - 1] == '/' ||
	    strstr(value, "//")) {
		show_name(&shown, value);
		rc = pd_err_set(err, PD_EPARSE,
				"refusing the build's %s '%s': not a relative path", param,
				shown.ptr);
	}
	for (char *part = strtok_r(copy, "/", &save); part && !rc;
	     part = strtok_r(NULL, "/", &save))
		rc = check_name(param, part, NAME_MAX_BYTES, "the build's parameters", err);
	pd_buf_release(&shown);
	free(copy);
	return rc;
}

/* Copies <dir>/<sub>/<value>[<suffix>] to perfrunner/<its base name>; *data keeps it. */
static int copy_config(struct puller *p, struct pd_buf *data, const char *param,
		       const char *sub, const char *suffix)
{
	const char *value = pd_jenkins_param(&p->run->jenkins, param), *base;
	struct pd_buf path = PD_BUF_INIT;
	int rc;
	if (!value) {
		note(p, "the build has no '%s' parameter: no perfrunner/*%s", param, suffix);
		return 0;
	}
	if ((rc = check_relpath(param, value, p->err)) < 0)
		return rc;
	pd_buf_addf(&path, "%s/%s/%s", p->o->perfrunner_dir, sub, value);
	if (!pd_file_exists(path.ptr) && !ends_with(value, suffix))
		pd_buf_adds(&path,
			    suffix); /* perfrunner's -c and -t take the name either way */
	if ((rc = pd_file_read(data, path.ptr, p->lim->max_file_bytes, p->err)) < 0)
		goto done;
	base = strrchr(path.ptr, '/') + 1;
	pd_buf_truncate(&path, 0);
	pd_buf_addf(&path, "perfrunner/%s", base);
	rc = pd_outdir_write(&p->out, path.ptr, data->ptr, data->len, p->err);
done:
	pd_buf_release(&path);
	return rc;
}

/* The spec and the test config from the checkout; the spec's nodes help decode dbs. */
static int copy_perfrunner(struct puller *p)
{
	struct pd_buf spec = PD_BUF_INIT, test = PD_BUF_INIT;
	struct pd_src src;
	int rc;
	if (!p->run->jenkins.present) {
		note(p, "--perfrunner-dir needs --jenkins: the build names the configs");
		return 0;
	}
	if ((rc = pd_outdir_mkdir(&p->out, "perfrunner", p->err)) < 0 ||
	    (rc = copy_config(p, &spec, "cluster", "clusters", ".spec")) < 0 ||
	    (rc = copy_config(p, &test, "test_config", "tests", ".test")) < 0)
		goto done;
	if (spec.len) {
		src = (struct pd_src){spec.ptr, spec.len, "the spec", p->lim};
		if ((rc = pd_ini_parse(&p->run->spec, &src, p->err)) < 0 ||
		    (rc = pd_spec_load(p->run, &p->run->spec, p->err)) < 0)
			goto done;
	}
done:
	pd_buf_release(&spec);
	pd_buf_release(&test);
	return rc;
}

static int check_opts(const struct pd_pull_opts *o, struct pd_err *err)
{
	struct stat st;
	if (!o->out || !*o->out)
		return pd_err_set(err, PD_EINVAL, "pull needs an output directory: -o RUN_DIR");
	if (lstat(o->out, &st) == 0)
		return pd_err_at(err, PD_EINVAL, o->out, 0, 0,
				 "exists: pull writes a new bundle and replaces nothing");
	if (!o->jenkins && !o->n_snapshots)
		return pd_err_set(err, PD_EINVAL,
				  "pull needs --jenkins URL or --snapshot NAME");
	if (!o->jenkins && !o->perfdb)
		return pd_err_set(err, PD_EINVAL, "pull needs --perfdb URL without --jenkins");
	if (o->parallel > MAX_PARALLEL)
		return pd_err_set(err, PD_EINVAL, "at most %d parallel transfers",
				  MAX_PARALLEL);
	if (o->timeout_s < 0 || o->backoff_ms < 0)
		return pd_err_set(err, PD_EINVAL, "a negative timeout or backoff");
	return 0;
}

/* Everything after the options: the phases in order, into the temporary directory. */
static int pull(struct puller *p)
{
	const struct pd_pull_opts *o = p->o;
	int rc;
	for (size_t i = 0; i < o->n_snapshots; i++)
		pd_strv_add(&p->run->snapshots, o->snapshots[i]);
	if (o->jenkins && (rc = fetch_jenkins(p)) < 0)
		return rc;
	if (o->perfrunner_dir && (rc = copy_perfrunner(p)) < 0)
		return rc;
	if (!p->run->snapshots.n)
		return pd_err_at(
			p->err, PD_ENOTFOUND, p->console_shown, 0, 0,
			"no 'HTML report:' line names a snapshot: give --snapshot NAME");
	p->perfdb = o->perfdb ? trim_slashes(o->perfdb) : perfdb_from_console(&p->console);
	if (!p->perfdb)
		return pd_err_set(p->err, PD_EINVAL,
				  "the console names no cbmonitor host: give --perfdb URL");
	if ((rc = pd_outdir_mkdir(&p->out, "perfdb", p->err)) < 0)
		return rc;
	enqueue(p, REQ_DBS, join_url(p->perfdb, NULL, NULL), NULL);
	return run(p);
}

int pd_pull(const struct pd_pull_opts *o, struct pd_err *err)
{
	struct puller p = {0};
	int rc;
	if ((rc = check_opts(o, err)) < 0)
		return rc;
	p.o = o;
	p.lim = o->lim ? o->lim : &pd_limits_default;
	p.err = err;
	p.parallel = o->parallel ? o->parallel : 8;
	p.timeout_s = o->timeout_s ? o->timeout_s : 120;
	p.backoff_ms = o->backoff_ms ? o->backoff_ms : 500;
	p.build = p.console = (struct pd_buf)PD_BUF_INIT;
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return pd_err_set(err, PD_EIO, "cannot initialize libcurl");
	if (!(p.multi = curl_multi_init())) {
		rc = pd_err_set(err, PD_EIO, "cannot initialize libcurl");
		goto done;
	}
	p.run = pd_run_new(o->out);
	if ((rc = pd_outdir_begin(&p.out, o->out, 0, err)) < 0)
		goto done;
	rc = pull(&p);
	report_progress(&p, 1);
	if (rc < 0)
		pd_outdir_abort(&p.out);
	else
		rc = pd_outdir_commit(&p.out, err);
done:
	drop_all(&p);
	if (p.multi)
		curl_multi_cleanup(p.multi);
	curl_global_cleanup();
	pd_run_free(p.run);
	pd_buf_release(&p.build);
	pd_buf_release(&p.console);
	free(p.build_shown);
	free(p.console_shown);
	free(p.perfdb);
	free(p.queue);
	free(p.later);
	return rc;
}
