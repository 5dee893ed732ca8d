/* A fake perfdb and Jenkins for tests/e2e/pull.sh: serves a run bundle (docs/reference.md "A
 * run bundle") in their URL spaces on 127.0.0.1, one thread, poll(), HTTP/1.1 with keep-alive.
 *
 *   GET /                      the directories of ROOT/perfdb, as a JSON list
 *   GET /DB                    the files in DB ending ".json", without it, as a JSON list
 *   GET /DB/METRIC             ROOT/perfdb/DB/METRIC.json
 *   GET /job/.../api/json      ROOT/jenkins/build.json (api/xml: build.xml)
 *   GET /job/.../consoleText   ROOT/jenkins/consoleText
 *   GET /quit                  answers, then exits
 *
 * usage: pd_fake_server --root DIR --port-file FILE [--log FILE] [--lifetime S]
 *          [--fail-once PATH]... [--slow-once PATH]... [--slow-ms MS] [--always-fail]
 *          [--serve PATH FILE]... [--endless PATH]... [--endless-bytes N]
 * The port is chosen by the kernel and written to FILE (renamed into place when
 * complete). --fail-once: the first request of PATH answers 503. --slow-once: the first
 * answer to PATH waits MS ms (default 5000) while others are served. --always-fail: every
 * request but /quit answers 503. --serve: PATH answers FILE's bytes (for names a
 * directory cannot hold). --endless: PATH answers 200 with a body
 * of spaces made as it is sent, without a length, until the client hangs up or N bytes
 * (default 2 GiB) have gone (a hostile perfdb). The log has a line per request: "GET PATH
 * STATUS auth|noauth". The server exits after --lifetime seconds (default 60) whatever happens.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNS   256
#define MAX_REQUEST 16384
#define MAX_RULES   64
#define CHUNK       65536

struct conn {
	int fd;
	char in[MAX_REQUEST];
	size_t in_len;
	char *out; /* the response being sent, NULL when none */
	size_t out_len, out_off;
	long long hold_until; /* ms: the response waits until then (--slow-once) */
	long long endless;    /* --endless: body bytes still to make once out is sent */
	int close_after;
};

struct rule {
	const char *path;
	const char *file; /* --serve */
	int used;         /* --fail-once, --slow-once */
};

struct server {
	const char *root;
	FILE *log;
	struct rule fail_once[MAX_RULES], slow_once[MAX_RULES], serve[MAX_RULES],
		endless[MAX_RULES];
	int n_fail, n_slow, n_serve, n_endless;
	long long slow_ms, endless_bytes;
	int always_fail, quit;
	struct conn conns[MAX_CONNS];
};

/* A growable byte string; out of memory ends the test server. */
struct str {
	char *p;
	size_t len, cap;
};

static void add(struct str *s, const void *data, size_t n)
{
	if (s->len + n + 1 > s->cap) {
		s->cap = (s->len + n + 1) * 2;
		if (!(s->p = realloc(s->p, s->cap)))
			abort();
	}
	memcpy(s->p + s->len, data, n);
	s->len += n;
	s->p[s->len] = '\0';
}

static void addf(struct str *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void addf(struct str *s, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		add(s, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int read_file(struct str *out, const char *path)
{
	char buf[65536];
	size_t n;
	FILE *f = fopen(path, "rb");
	struct stat st;
	if (!f)
		return -1;
	if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode)) {
		fclose(f);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		add(out, buf, n);
	fclose(f);
	if (!out->p)
		add(out, "", 0);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_json_string(struct str *s, const char *v, size_t n)
{
	add(s, "\"", 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)v[i];
		if (c == '"' || c == '\\')
			addf(s, "\\%c", c);
		else if (c < 0x20)
			addf(s, "\\u%04x", c);
		else
			add(s, &v[i], 1);
	}
	add(s, "\"", 1);
}

/* The names in dir (no dot entries), sorted: directories when want_dirs, else the files
 * ending in ".json" without it. -1 when dir cannot be opened. */
static int list_json(struct str *out, const char *dir, int want_dirs)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL, path[4096];
	size_t n = 0, cap = 0;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		struct stat st;
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st) < 0 ||
		    (want_dirs ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)))
			continue;
		if (!want_dirs && (len < 6 || strcmp(e->d_name + len - 5, ".json")))
			continue;
		if (n == cap) {
			char **more =
				realloc(names, (cap = cap ? cap * 2 : 64) * sizeof(*names));
			if (!more)
				abort();
			names = more;
		}
		if (!(names[n++] = strdup(e->d_name)))
			abort();
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_str);
	add(out, "[", 1);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(names[i]);
		if (i)
			add(out, ",", 1);
		add_json_string(out, names[i], want_dirs ? len : len - 5);
		free(names[i]);
	}
	add(out, "]", 1);
	free(names);
	return 0;
}

static int hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Percent-decodes the path part of target into out (size n); -1 if malformed or NUL. */
static int decode_path(char *out, size_t n, const char *target)
{
	size_t k = 0;
	for (const char *c = target; *c && *c != '?' && *c != '#'; c++) {
		int ch = (unsigned char)*c;
		if (*c == '%') {
			int hi = hex(c[1]), lo = hi < 0 ? -1 : hex(c[2]);
			if (lo < 0 || (ch = hi * 16 + lo) == 0)
				return -1;
			c += 2;
		}
		if (k + 1 >= n)
			return -1;
		out[k++] = (char)ch;
	}
	out[k] = '\0';
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

/* A name the server may look up under ROOT: one plain component. */
static int plain(const char *s, size_t n)
{
	return n && s[0] != '.' && !memchr(s, '/', n);
}

/* The body of path, in the URL spaces of perfdb and Jenkins; 404 when none. */
static int route(struct server *sv, struct str *body, const char **type, const char *path)
{
	char file[8192];
	const char *slash;
	*type = "application/json";
	if (!strncmp(path, "/job/", 5)) {
		const char *name = ends_with(path, "/api/json")      ? "build.json"
				   : ends_with(path, "/api/xml")     ? "build.xml"
				   : ends_with(path, "/consoleText") ? "consoleText"
								     : NULL;
		if (!name)
			return 404;
		if (strcmp(name, "build.json"))
			*type = strcmp(name, "build.xml") ? "text/plain; charset=utf-8"
							  : "application/xml";
		snprintf(file, sizeof(file), "%s/jenkins/%s", sv->root, name);
		return read_file(body, file) < 0 ? 404 : 200;
	}
	if (!strcmp(path, "/")) {
		snprintf(file, sizeof(file), "%s/perfdb", sv->root);
		return list_json(body, file, 1) < 0 ? 404 : 200;
	}
	path++;
	slash = strchr(path, '/');
	if (!slash || !slash[1]) { /* "/db" or "/db/" */
		size_t n = slash ? (size_t)(slash - path) : strlen(path);
		if (!plain(path, n))
			return 404;
		snprintf(file, sizeof(file), "%s/perfdb/%.*s", sv->root, (int)n, path);
		return list_json(body, file, 0) < 0 ? 404 : 200;
	}
	if (!plain(path, (size_t)(slash - path)) || !plain(slash + 1, strlen(slash + 1)))
		return 404;
	snprintf(file, sizeof(file), "%s/perfdb/%s.json", sv->root, path);
	return read_file(body, file) < 0 ? 404 : 200;
}

/* 1 the first time path matches one of rules. */
static int first_time(struct rule *rules, int n, const char *path)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(rules[i].path, path) && !rules[i].used)
			return rules[i].used = 1;
	return 0;
}

static const char *reason(int status)
{
	switch (status) {
	case 200:
		return "OK";
	case 400:
		return "Bad Request";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	default:
		return "Service Unavailable";
	}
}

/* The value of header name in the request head, or NULL. */
static const char *header(const char *head, const char *name)
{
	size_t n = strlen(name);
	for (const char *l = strstr(head, "\r\n"); l && l[2]; l = strstr(l + 2, "\r\n"))
		if (!strncasecmp(l + 2, name, n) && l[2 + n] == ':')
			return l + 3 + n;
	return NULL;
}

/* Builds the answer to the request head (NUL-terminated) in c. */
static void answer(struct server *sv, struct conn *c, const char *head)
{
	char method[16], target[4096], version[16], path[4096];
	struct str body = {0}, resp = {0};
	const char *type = "text/plain", *conn_hdr = header(head, "Connection"), *enc = NULL;
	int status = 200, slow = 0, endless = 0;
	if (sscanf(head, "%15s %4095s %15s", method, target, version) != 3 ||
	    decode_path(path, sizeof(path), target) < 0 || path[0] != '/') {
		status = 400;
		snprintf(path, sizeof(path), "?");
	} else if (strcmp(method, "GET")) {
		status = 405;
	} else if (!strcmp(path, "/quit")) {
		sv->quit = 1;
	} else if (sv->always_fail || first_time(sv->fail_once, sv->n_fail, path)) {
		status = 503;
	} else {
		int served = 0;
		for (int i = 0; i < sv->n_serve && !served; i++)
			if (!strcmp(sv->serve[i].path, path)) {
				/* FILE.html is a web page; FILE.gz a JSON body sent gzipped */
				served = 1;
				status = read_file(&body, sv->serve[i].file) < 0 ? 404 : 200;
				if (ends_with(sv->serve[i].file, ".html"))
					type = "text/html; charset=utf-8";
				if (ends_with(sv->serve[i].file, ".gz"))
					type = "application/json", enc = "gzip";
			}
		if (!served)
			status = route(sv, &body, &type, path);
		slow = first_time(sv->slow_once, sv->n_slow, path);
		for (int i = 0; i < sv->n_endless && !endless; i++)
			endless = !strcmp(sv->endless[i].path, path);
	}
	if (status != 200) {
		body.len = 0;
		addf(&body, "%d %s\n", status, reason(status));
		type = "text/plain";
	}
	c->close_after = sv->quit || status == 400 || !strcmp(version, "HTTP/1.0") ||
			 (conn_hdr && strstr(conn_hdr, "close")) || endless;
	addf(&resp, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\n", status, reason(status), type);
	if (enc && status == 200)
		addf(&resp, "Content-Encoding: %s\r\n", enc);
	if (endless)
		body.len = 0; /* no length: the body ends when the connection does */
	else
		addf(&resp, "Content-Length: %zu\r\n", body.len);
	c->endless = endless ? sv->endless_bytes : 0;
	addf(&resp, "Connection: %s\r\n\r\n", c->close_after ? "close" : "keep-alive");
	add(&resp, body.p ? body.p : "", body.len);
	free(body.p);
	c->out = resp.p;
	c->out_len = resp.len;
	c->out_off = 0;
	c->hold_until = slow ? now_ms() + sv->slow_ms : 0;
	if (sv->log) {
		fprintf(sv->log, "GET %s %d %s%s%s\n", path, status,
			header(head, "Authorization") ? "auth" : "noauth", slow ? " slow" : "",
			endless ? " endless" : "");
		fflush(sv->log);
	}
}

static void drop(struct conn *c)
{
	close(c->fd);
	free(c->out);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

/* Reads what the client sent; answers once a whole request head is in. */
static void on_readable(struct server *sv, struct conn *c)
{
	char *end;
	ssize_t n = recv(c->fd, c->in + c->in_len, sizeof(c->in) - 1 - c->in_len, 0);
	if (n <= 0) {
		if (n == 0 || (errno != EAGAIN && errno != EINTR))
			drop(c);
		return;
	}
	c->in_len += (size_t)n;
	c->in[c->in_len] = '\0';
	if (!(end = strstr(c->in, "\r\n\r\n"))) {
		if (c->in_len == sizeof(c->in) - 1)
			drop(c); /* a head over 16 KiB: not one of ours */
		return;
	}
	end[2] = '\0';
	answer(sv, c, c->in);
	/* a GET has no body: the rest is the next request */
	c->in_len -= (size_t)(end + 4 - c->in);
	memmove(c->in, end + 4, c->in_len);
	c->in[c->in_len] = '\0';
}

static void on_writable(struct server *sv, struct conn *c)
{
	ssize_t n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);
	if (n < 0) {
		if (errno != EAGAIN && errno != EINTR)
			drop(c);
		return;
	}
	c->out_off += (size_t)n;
	if (c->out_off < c->out_len)
		return;
	free(c->out);
	c->out = NULL;
	if (c->endless > 0) { /* the next piece of an --endless body */
		c->out_len = c->endless < CHUNK ? (size_t)c->endless : CHUNK;
		if (!(c->out = malloc(c->out_len)))
			abort();
		memset(c->out, ' ', c->out_len);
		c->out_off = 0;
		c->endless -= (long long)c->out_len;
		return;
	}
	if (c->close_after || sv->quit)
		drop(c);
	else if (strstr(c->in, "\r\n\r\n"))
		answer(sv, c, c->in); /* a pipelined request that was waiting */
}

static void on_accept(struct server *sv, int lfd)
{
	int fd;
	while ((fd = accept(lfd, NULL, NULL)) >= 0) {
		int i = 0;
		while (i < MAX_CONNS && sv->conns[i].fd >= 0)
			i++;
		if (i == MAX_CONNS) {
			close(fd);
			continue;
		}
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
		sv->conns[i].fd = fd;
	}
}

static int listen_local(const char *port_file)
{
	struct sockaddr_in a = {0};
	socklen_t len = sizeof(a);
	char tmp[4096];
	FILE *f;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(fd, 128) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &len) < 0) {
		perror("pd_fake_server: listen");
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	snprintf(tmp, sizeof(tmp), "%s.tmp", port_file);
	if (!(f = fopen(tmp, "w")) || fprintf(f, "%d\n", ntohs(a.sin_port)) < 0 || fclose(f) ||
	    rename(tmp, port_file) < 0) {
		perror("pd_fake_server: port file");
		return -1;
	}
	return fd;
}

static int serve(struct server *sv, int lfd, long long deadline)
{
	struct pollfd pfd[MAX_CONNS + 1];
	int idx[MAX_CONNS + 1];
	while (now_ms() < deadline) {
		long long now = now_ms(), wake = deadline;
		int n = 1;
		for (int i = 0; sv->quit && i < MAX_CONNS; i++)
			if (sv->conns[i].fd >= 0 && !sv->conns[i].out)
				drop(&sv->conns[i]); /* idle keep-alive connections */
		pfd[0] = (struct pollfd){lfd, POLLIN, 0};
		for (int i = 0; i < MAX_CONNS; i++) {
			struct conn *c = &sv->conns[i];
			short ev = POLLIN;
			if (c->fd < 0)
				continue;
			if (c->out && c->hold_until > now) {
				ev = 0; /* --slow-once: not yet */
				if (c->hold_until < wake)
					wake = c->hold_until;
			} else if (c->out) {
				ev = POLLOUT;
			}
			idx[n] = i;
			pfd[n++] = (struct pollfd){c->fd, ev, 0};
		}
		if (sv->quit && n == 1)
			return 0; /* /quit answered and every connection closed */
		if (poll(pfd, (nfds_t)n, (int)(wake - now)) < 0 && errno != EINTR)
			return 1;
		if (pfd[0].revents & POLLIN)
			on_accept(sv, lfd);
		for (int k = 1; k < n; k++) {
			struct conn *c = &sv->conns[idx[k]];
			if (pfd[k].revents & POLLOUT)
				on_writable(sv, c);
			else if (pfd[k].revents & (POLLIN | POLLHUP | POLLERR))
				on_readable(sv, c);
		}
	}
	return 0;
}

static int add_rule(struct rule *rules, int *n, const char *path, const char *file)
{
	if (*n == MAX_RULES)
		return -1;
	rules[*n].path = path;
	rules[*n].file = file;
	rules[(*n)++].used = 0;
	return 0;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: pd_fake_server --root DIR --port-file FILE [--log FILE] "
		"[--lifetime S] [--fail-once PATH]... [--slow-once PATH]... [--slow-ms MS] "
		"[--always-fail] [--serve PATH FILE]... [--endless PATH]... "
		"[--endless-bytes N]\n");
	return 2;
}

int main(int argc, char **argv)
{
	static struct server sv;
	const char *port_file = NULL, *log = NULL;
	long long lifetime_s = 60;
	int lfd, rc;
	sv.slow_ms = 5000;
	sv.endless_bytes = 2LL << 30;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int bad = 0;
		if (!strcmp(a, "--always-fail")) {
			sv.always_fail = 1;
			continue;
		}
		if (!v)
			return usage();
		i++;
		if (!strcmp(a, "--root"))
			sv.root = v;
		else if (!strcmp(a, "--port-file"))
			port_file = v;
		else if (!strcmp(a, "--log"))
			log = v;
		else if (!strcmp(a, "--lifetime"))
			lifetime_s = atoll(v);
		else if (!strcmp(a, "--slow-ms"))
			sv.slow_ms = atoll(v);
		else if (!strcmp(a, "--fail-once"))
			bad = add_rule(sv.fail_once, &sv.n_fail, v, NULL);
		else if (!strcmp(a, "--slow-once"))
			bad = add_rule(sv.slow_once, &sv.n_slow, v, NULL);
		else if (!strcmp(a, "--endless"))
			bad = add_rule(sv.endless, &sv.n_endless, v, NULL);
		else if (!strcmp(a, "--endless-bytes"))
			sv.endless_bytes = atoll(v);
		else if (!strcmp(a, "--serve") && i + 1 < argc)
			bad = add_rule(sv.serve, &sv.n_serve, v, argv[++i]);
		else
			bad = 1;
		if (bad)
			return usage();
	}
	if (!sv.root || !port_file || lifetime_s <= 0)
		return usage();
	if (log && !(sv.log = fopen(log, "w"))) {
		perror(log);
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	for (int i = 0; i < MAX_CONNS; i++)
		sv.conns[i].fd = -1;
	if ((lfd = listen_local(port_file)) < 0)
		return 1;
	rc = serve(&sv, lfd, now_ms() + lifetime_s * 1000);
	for (int i = 0; i < MAX_CONNS; i++)
		if (sv.conns[i].fd >= 0)
			drop(&sv.conns[i]);
	close(lfd);
	if (sv.log)
		fclose(sv.log);
	return rc;
}
