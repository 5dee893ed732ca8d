/* The perfrunner console: a Jenkins consoleText scanned line by line. Only lines that
 * start with "YYYY-MM-DDTHH:MM:SS [LEVEL] " are perfrunner's; of those only the messages
 * below mean something, and everything else (shell noise, binary garbage, invalid UTF-8)
 * is skipped. A JSON payload opens with '{' at the end of a message line and closes at
 * the next line that starts with '}' (json.dumps(indent=4) puts only the outermost closing
 * brace in column 0). */
#include "console.h"
#include "../core/buf.h"
#include "../core/strmap.h"
#include "../core/xalloc.h"
#include "json.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A payload may hold this many bytes, or one line's limit if that is larger. */
#define PAYLOAD_CAP ((size_t)1 << 20)

struct scan {
	const struct pd_src *src;
	struct pd_err *err;
	struct pd_run *run;
	size_t pos;    /* start of the next line */
	long line;     /* number of the current line, 1-based */
	const char *p; /* the current line, without its '\n' or "\r\n" */
	size_t len;
	char eol; /* '\n', or '\r' in a file whose lines end in '\r' alone (classic Mac OS) */
	struct pd_strmap snapshots; /* run->snapshots' names, to add each once */
};

/* A perfrunner line: its time and its message. */
struct pline {
	int64_t local_s;
	long line;
	const char *msg;
	size_t len;
};

/* Reads the next line into s->p/len: 1, or 0 at the end, or PD_ELIMIT for a long line. */
static int next_line(struct scan *s)
{
	const char *start = s->src->data + s->pos, *nl;
	size_t rest, n;
	if (s->pos >= s->src->len)
		return 0;
	rest = s->src->len - s->pos;
	nl = memchr(start, s->eol, rest);
	n = nl ? (size_t)(nl - start) : rest;
	s->pos += n + (nl != NULL);
	s->line++;
	if (n > s->src->lim->max_line)
		return pd_err_at(
			s->err, PD_ELIMIT, s->src->path, s->line, 0,
			"line %ld is longer than the limit of %zu bytes (see --max-line)",
			s->line, s->src->lim->max_line);
	if (n && start[n - 1] == '\r')
		n--;
	s->p = start;
	s->len = n;
	return 1;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;
	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int days_in_month(int y, int m)
{
	static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return days[m - 1] + (m == 2 && leap);
}

/* The number written in p[0..n) with digits only, or -1. */
static int digits(const char *p, int n)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	return v;
}

/* "YYYY-MM-DDTHH:MM:SS [LEVEL] ", LEVEL in capitals: 1 with a real date and time, -1
 * with an impossible one (month 13, 25:00 ...: perfrunner's logging never writes one, and
 * the line's event must not be passed over silently), 0 for any other line. */
static int parse_prefix(struct pline *pl, const char *p, size_t n)
{
	int y, mo, d, h, mi, sec;
	size_t i = 21;
	if (n < 25 || p[4] != '-' || p[7] != '-' || p[10] != 'T' || p[13] != ':' ||
	    p[16] != ':' || p[19] != ' ' || p[20] != '[')
		return 0;
	y = digits(p, 4);
	mo = digits(p + 5, 2);
	d = digits(p + 8, 2);
	h = digits(p + 11, 2);
	mi = digits(p + 14, 2);
	sec = digits(p + 17, 2);
	while (i < n && i < 21 + 16 && p[i] >= 'A' && p[i] <= 'Z')
		i++;
	if (y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || sec < 0 || i == 21 || i + 1 >= n ||
	    p[i] != ']' || p[i + 1] != ' ')
		return 0;
	if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 ||
	    sec > 59)
		return -1;
	pl->local_s = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
	pl->msg = p + i + 2;
	pl->len = n - i - 2;
	return 1;
}

/* If pl's message starts with prefix, the rest (blanks trimmed) goes to *arg. */
static int message_is(const struct pline *pl, const char *prefix, const char **arg, size_t *len)
{
	size_t k = strlen(prefix);
	const char *a;
	size_t n;
	if (pl->len < k || memcmp(pl->msg, prefix, k))
		return 0;
	a = pl->msg + k;
	n = pl->len - k;
	while (n && (*a == ' ' || *a == '\t'))
		a++, n--;
	while (n && (a[n - 1] == ' ' || a[n - 1] == '\t'))
		n--;
	*arg = a;
	*len = n;
	return 1;
}

/* Host and snapshot names: printable ASCII without blanks, never empty. */
static int is_name(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)p[i] <= ' ' || (unsigned char)p[i] >= 0x7f)
			return 0;
	return n > 0;
}

static const char *find(const char *p, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	for (size_t i = 0; i + k <= n; i++)
		if (!memcmp(p + i, needle, k))
			return p + i;
	return NULL;
}

static struct pd_event *add_event(struct scan *s, const struct pline *pl,
				  enum pd_event_kind kind)
{
	struct pd_event *e = pd_run_add_event(s->run, kind);
	e->local_s = pl->local_s;
	e->line = pl->line;
	return e;
}

/* "HTML report: http://.../reports/html/?snapshot=NAME"; a report without a snapshot
 * parameter says nothing we use. */
static int on_report(struct scan *s, const struct pline *pl, const char *arg, size_t n)
{
	const char *q = find(arg, n, "snapshot="), *name, *end = arg + n;
	struct pd_event *e;
	size_t len = 0;
	if (!q || q == arg || (q[-1] != '?' && q[-1] != '&'))
		return 0;
	name = q + 9;
	while (name + len < end && name[len] != '&' && name[len] != '#')
		len++;
	if (!is_name(name, len))
		return pd_err_at(s->err, PD_EPARSE, s->src->path, pl->line, 0,
				 "expected a snapshot name after 'snapshot='");
	e = add_event(s, pl, PD_EV_SNAPSHOT);
	e->node = pd_xstrndup(name, len);
	if (pd_strmap_put(&s->snapshots, name, len, s->run->snapshots.n) == PD_STRMAP_NONE)
		pd_strv_add(&s->run->snapshots, e->node);
	return 0;
}

static int on_failover(struct scan *s, const struct pline *pl, enum pd_event_kind kind,
		       const char *arg, size_t n)
{
	if (!is_name(arg, n))
		return pd_err_at(s->err, PD_EPARSE, s->src->path, pl->line, 0,
				 "expected a host after 'failing over node:'");
	add_event(s, pl, kind)->node = pd_xstrndup(arg, n);
	return 0;
}

/* Length of a number as Python's str(float) or str(int) writes it at p ("42.5", "100",
 * "1.2e-05"), or 0. */
static size_t number_len(const char *p, size_t n)
{
	size_t i = 0, int_digits = 0, e;
	while (i < n && p[i] >= '0' && p[i] <= '9')
		i++, int_digits++;
	if (i < n && p[i] == '.')
		for (i++; i < n && p[i] >= '0' && p[i] <= '9'; i++)
			;
	if (!int_digits)
		return 0;
	if (i < n && (p[i] == 'e' || p[i] == 'E')) {
		e = i + 1 + (i + 1 < n && (p[i + 1] == '-' || p[i + 1] == '+'));
		if (e < n && p[e] >= '0' && p[e] <= '9') {
			while (e < n && p[e] >= '0' && p[e] <= '9')
				e++;
			i = e;
		}
	}
	return i;
}

/* "Rebalance progress: 42.5 %" (monitor.py:110, f"Rebalance progress: {progress} %": a
 * raw float, "1.2e-05" too); anything else after the colon is noise. */
static int on_progress(struct scan *s, const struct pline *pl, const char *arg, size_t n)
{
	size_t i = number_len(arg, n);
	char num[64];
	if (!i || i >= sizeof(num) || n == i || arg[n - 1] != '%')
		return 0;
	for (size_t k = i; k + 1 < n; k++)
		if (arg[k] != ' ')
			return 0;
	memcpy(num, arg, i);
	num[i] = '\0';
	add_event(s, pl, PD_EV_REBALANCE_PROGRESS)->value = strtod(num, NULL);
	return 0;
}

/* Reads the payload that opens with arg (the rest of the message line) into out. */
static int read_payload(struct scan *s, const struct pline *pl, const char *what,
			const char *arg, size_t n, struct pd_buf *out)
{
	size_t cap = s->src->lim->max_line > PAYLOAD_CAP ? s->src->lim->max_line : PAYLOAD_CAP;
	int rc;
	if (!n || arg[0] != '{')
		return pd_err_at(s->err, PD_EPARSE, s->src->path, pl->line, 0,
				 "expected '{' after '%s'", what);
	pd_buf_add(out, arg, n);
	pd_buf_addch(out, '\n');
	if (n > 1) /* the whole object on one line */
		return 0;
	while ((rc = next_line(s)) > 0) {
		if (out->len + s->len + 1 > cap)
			return pd_err_at(s->err, PD_ELIMIT, s->src->path, pl->line, 0,
					 "JSON payload of '%s' longer than %zu bytes", what,
					 cap);
		pd_buf_add(out, s->p, s->len);
		pd_buf_addch(out, '\n');
		if (s->len && s->p[0] == '}')
			return 0;
	}
	if (rc < 0)
		return rc;
	return pd_err_at(s->err, PD_EPARSE, s->src->path, pl->line, 0,
			 "unterminated JSON payload of '%s': expected a line starting with '}' "
			 "before the end of the file",
			 what);
}

/* json.dumps writes float('nan') and infinities as bare NaN, Infinity, -Infinity, which
 * JSON (and cJSON) has not: outside strings they become null (lines stay where they are). */
static void no_bare_constants(struct pd_buf *b)
{
	static const char *const words[] = {"-Infinity", "Infinity", "NaN"};
	struct pd_buf out = PD_BUF_INIT;
	int in_str = 0;
	for (size_t i = 0; i < b->len; i++) {
		char c = b->ptr[i];
		size_t k = 0;
		if (in_str && c == '\\' && i + 1 < b->len) {
			pd_buf_add(&out, b->ptr + i++, 2);
			continue;
		}
		in_str ^= c == '"';
		for (size_t w = 0; !in_str && !k && w < 3; w++)
			if (!strncmp(b->ptr + i, words[w], strlen(words[w])))
				k = strlen(words[w]);
		if (k) {
			pd_buf_adds(&out, "null");
			i += k - 1;
		} else {
			pd_buf_addch(&out, c);
		}
	}
	pd_buf_release(b);
	*b = out;
}

/* Reads and parses the payload; *json is the object (caller frees with cJSON_Delete). */
static int payload_json(cJSON **json, struct scan *s, const struct pline *pl, const char *what,
			const char *arg, size_t n)
{
	struct pd_buf b = PD_BUF_INIT;
	const char *end = NULL;
	long k = 0;
	int rc, ok;
	*json = NULL;
	if ((rc = read_payload(s, pl, what, arg, n, &b)) < 0)
		goto done;
	no_bare_constants(&b);
	if (pd_json_find_nul(b.ptr, b.len) < b.len) {
		rc = pd_err_at(s->err, PD_EPARSE, s->src->path, pl->line, 0,
			       "%s: " PD_JSON_NUL_MSG, what);
		goto done;
	}
	*json = cJSON_ParseWithLengthOpts(b.ptr, b.len, &end, 0);
	ok = *json && cJSON_IsObject(*json) && end;
	for (const char *p = end; ok && p < b.ptr + b.len; p++)
		ok = *p == ' ' || *p == '\n' || *p == '\t' || *p == '\r';
	if (!ok) {
		for (const char *p = b.ptr; end && p < end && p < b.ptr + b.len; p++)
			k += *p == '\n';
		rc = pd_err_at(
			s->err, PD_EPARSE, s->src->path, pl->line, 0,
			"expected a JSON object after '%s' (malformed at payload line %ld)",
			what, k + 1);
	}
done:
	pd_buf_release(&b);
	return rc;
}

/* knownNodes/ejectedNodes: "ns_1@A,ns_1@B" (or a list of such strings) gives A, B. */
static void add_nodes(struct pd_strv *sv, const cJSON *v)
{
	const cJSON *item;
	if (cJSON_IsArray(v)) {
		for (item = v->child; item; item = item->next)
			add_nodes(sv, item);
		return;
	}
	if (!cJSON_IsString(v))
		return;
	for (const char *p = v->valuestring; *p;) {
		const char *e = strchr(p, ','), *at;
		size_t n = e ? (size_t)(e - p) : strlen(p);
		while (n && *p == ' ')
			p++, n--;
		while (n && p[n - 1] == ' ')
			n--;
		at = memchr(p, '@', n);
		if (at) {
			n -= (size_t)(at + 1 - p);
			p = at + 1;
		}
		if (n)
			pd_strv_addn(sv, p, n);
		p = e ? e + 1 : p + n;
		if (!e)
			break;
	}
}

static int on_rebalance(struct scan *s, const struct pline *pl, const char *arg, size_t n)
{
	cJSON *json;
	struct pd_event *e;
	int rc;
	if ((rc = payload_json(&json, s, pl, "Starting rebalance with payload:", arg, n)) < 0)
		goto done;
	e = add_event(s, pl, PD_EV_REBALANCE_START);
	add_nodes(&e->known, cJSON_GetObjectItemCaseSensitive(json, "knownNodes"));
	add_nodes(&e->ejected, cJSON_GetObjectItemCaseSensitive(json, "ejectedNodes"));
done:
	cJSON_Delete(json);
	return rc;
}

/* perfrunner's Prometheus path and its newer lines (github couchbase/perfrunner @ bc5e9067).
 * "Registered Prometheus snapshot: https://<cbmonitor2>/a/cbmonitor/snapshots/<id>"
 * (metrics/promagent.py:76-78, :85): the id, a UUID from the config-manager, is the run's
 * snapshot as the KPI post's "snapshots" holds it (tests/__init__.py:119). */
static int on_prom_snapshot(struct scan *s, const struct pline *pl, const char *arg, size_t n)
{
	const char *q = find(arg, n, "/snapshots/"), *id, *end = arg + n;
	struct pd_event *e;
	size_t len = 0;
	if (!q)
		return pd_err_at(s->err, PD_EPARSE, s->src->path, pl->line, 0,
				 "expected '/snapshots/<id>' in the snapshot URL");
	id = q + 11;
	while (id + len < end && id[len] != '?' && id[len] != '#' && id[len] != '/')
		len++;
	if (!is_name(id, len))
		return pd_err_at(s->err, PD_EPARSE, s->src->path, pl->line, 0,
				 "expected a snapshot id after '/snapshots/'");
	e = add_event(s, pl, PD_EV_SNAPSHOT);
	e->node = pd_xstrndup(id, len);
	if (pd_strv_find(&s->run->snapshots, e->node) < 0)
		pd_strv_add(&s->run->snapshots, e->node);
	s->run->prometheus = 1;
	if (!s->run->prom_snapshot_url && is_name(arg, n))
		s->run->prom_snapshot_url = pd_xstrndup(arg, n);
	return 0;
}

/* The count N of "N custom collector(s)..." at arg, or -1 (promagent.py:400-421). */
static long collector_count(const char *arg, size_t n, size_t *used)
{
	size_t i = 0;
	long v = 0;
	while (i < n && i < 9 && arg[i] >= '0' && arg[i] <= '9')
		v = v * 10 + (arg[i++] - '0');
	*used = i;
	return i && i + 20 <= n && !memcmp(arg + i, " custom collector(s)", 20) ? v : -1;
}

/* "Added N custom collector(s) pushing to Prometheus: ['PS', 'NSServer']" (promagent.py:
 * 400-404: a Python list of class names); the names say which collectors were carried. */
static void on_collectors_added(struct scan *s, const char *arg, size_t n)
{
	const char *end = arg + n, *p = memchr(arg, '[', n);
	while (p && p < end) {
		const char *q = memchr(p, '\'', (size_t)(end - p)), *close;
		if (!q || !(close = memchr(q + 1, '\'', (size_t)(end - q - 1))))
			break;
		char *name = pd_xstrndup(q + 1, (size_t)(close - q - 1));
		if (is_name(name, strlen(name)) &&
		    pd_strv_find(&s->run->prom_collectors, name) < 0)
			pd_strv_add(&s->run->prom_collectors, name);
		free(name);
		p = close + 1;
	}
}

/* Reads a Python float repr at *p ("-1", "1793630700000", "inf", "1.7e+12"). */
static int py_number(const char **p, const char *end, double *v)
{
	char num[64];
	size_t k = 0;
	while (*p + k < end && k + 1 < sizeof(num) && (*p)[k] != ',' && (*p)[k] != ')')
		num[k] = (*p)[k], k++;
	num[k] = '\0';
	if (!strcmp(num, "inf")) {
		*v = INFINITY;
	} else {
		char *after;
		*v = strtod(num, &after);
		if (!k || *after || isnan(*v) || isinf(*v))
			return 0;
	}
	*p += k;
	return 1;
}

static int64_t window_ms(double v)
{
	if (v < 0)
		return INT64_MIN;
	return v >= 9.2e18 ? INT64_MAX : (int64_t)v;
}

/* One "TimeseriesWindow(start_ts=-1, end_ts=inf, label='pre')" at *p (a frozen
 * dataclass's repr, helpers/metrics.py:141-145); 0 when malformed. */
static int one_window(struct scan *s, const struct pline *pl, const char **p, const char *end)
{
	static const char *const keys[] = {
		"TimeseriesWindow(start_ts=", ", end_ts=", ", label='"};
	double v[2];
	const char *close;
	for (int k = 0; k < 3; k++) {
		size_t kl = strlen(keys[k]);
		if ((size_t)(end - *p) < kl || memcmp(*p, keys[k], kl))
			return 0;
		*p += kl;
		if (k < 2 && !py_number(p, end, &v[k]))
			return 0;
	}
	close = memchr(*p, '\'', (size_t)(end - *p));
	if (!close || close + 1 >= end || close[1] != ')' || !is_name(*p, (size_t)(close - *p)))
		return 0;
	PD_GROW(s->run->windows, s->run->cap_windows, s->run->n_windows + 1);
	s->run->windows[s->run->n_windows++] =
		(struct pd_kpi_window){.label = pd_xstrndup(*p, (size_t)(close - *p)),
				       .start_ms = window_ms(v[0]),
				       .end_ms = window_ms(v[1]),
				       .line = pl->line};
	*p = close + 2;
	return 1;
}

/* "Latency windows: [TimeseriesWindow(...), ...]" (tests/rebalance.py:209). */
static int on_windows(struct scan *s, const struct pline *pl, const char *arg, size_t n)
{
	const char *p = arg, *end = arg + n;
	if (!n || *p++ != '[')
		goto bad;
	while (p < end && *p != ']') {
		if (!one_window(s, pl, &p, end))
			goto bad;
		if (p + 2 <= end && p[0] == ',' && p[1] == ' ')
			p += 2;
	}
	if (p + 1 == end)
		return 0;
bad:
	return pd_err_at(
		s->err, PD_EPARSE, s->src->path, pl->line, 0,
		"expected '[TimeseriesWindow(start_ts=.., end_ts=.., label='..'), ...]' "
		"after 'Latency windows:'");
}

static struct pd_kpi_window *window_of(struct pd_run *run, const char *label, size_t len)
{
	for (size_t i = run->n_windows; i-- > 0;)
		if (strlen(run->windows[i].label) == len &&
		    !memcmp(run->windows[i].label, label, len))
			return &run->windows[i];
	return NULL;
}

/* "Fetched data for timeseries window: label=pre, samples=1234, min_ts=..., ..."
 * (helpers/metrics.py:1108-1111): the count of the KPI posted next for that window. */
static void on_fetched(struct scan *s, const char *arg, size_t n)
{
	const char *c = find(arg, n, ", samples=");
	struct pd_kpi_window *w;
	long v = 0;
	if (n < 6 || memcmp(arg, "label=", 6) || !c ||
	    !(w = window_of(s->run, arg + 6, (size_t)(c - arg - 6))))
		return;
	for (c += 10; c < arg + n && *c >= '0' && *c <= '9' && v < 1000000000L; c++)
		v = v * 10 + (*c - '0');
	w->samples = v;
}

/* A KPI id's window: the id ends in "_<label>", or "_<label>_cluster<N>" with more than
 * one cluster (helpers/metrics.py:1034-1054). */
static void kpi_window(struct pd_run *run, struct pd_kpi *k)
{
	const char *id = k->metric, *end = id + strlen(id), *cl = strstr(id, "_cluster");
	if (cl && cl[8] >= '1' && cl[8] <= '9' &&
	    strspn(cl + 8, "0123456789") == strlen(cl + 8))
		end = cl;
	for (size_t i = 0; i < run->n_windows; i++) {
		size_t len = strlen(run->windows[i].label);
		if ((size_t)(end - id) > len + 1 && end[-(long)len - 1] == '_' &&
		    !memcmp(end - len, run->windows[i].label, len)) {
			struct pd_kpi_window *w = window_of(run, end - len, len);
			k->window = pd_xstrdup(w->label);
			k->window_samples = w->samples;
			return;
		}
	}
}

/* "Rebalance hung" (helpers/monitor.py:104, :2114; ", aborting monitoring" :2201) and
 * "Rebalance failed with message ..." (:138)
 * go through logger.interrupt, which logs at ERROR and exits (logger.py:48-50): the run
 * ended there. */
static void on_stopped(struct scan *s, const struct pline *pl)
{
	struct pd_event *e = add_event(s, pl, PD_EV_RUN_STOPPED);
	e->node = pd_xstrndup(pl->msg, pl->len);
	pd_strv_addf(&s->run->notes,
		     "console line %ld: perfrunner stopped the run early (%.*s): the run ends "
		     "there",
		     pl->line, (int)(pl->len > 200 ? 200 : pl->len), pl->msg);
}

/* The Prometheus path's lines and perfrunner's newer ones: 1 when pl was one of them. */
static int on_newer(struct scan *s, const struct pline *pl)
{
	const char *a;
	size_t n, used;
	long count;
	int rc, start;
	if (message_is(pl, "Using Prometheus to collect metrics", &a, &n) && !n)
		return s->run->prometheus = 1;
	if (message_is(pl, "Registered Prometheus snapshot:", &a, &n))
		return (rc = on_prom_snapshot(s, pl, a, n)) < 0 ? rc : 1;
	if (message_is(pl, "Added ", &a, &n) && (count = collector_count(a, n, &used)) >= 0) {
		on_collectors_added(s, a + used, n - used);
		return 1;
	}
	start = message_is(pl, "Starting ", &a, &n);
	if ((start || message_is(pl, "Stopping ", &a, &n)) &&
	    (count = collector_count(a, n, &used)) >= 0 && used + 20 == n) {
		add_event(s, pl, start ? PD_EV_COLLECTORS_START : PD_EV_COLLECTORS_STOP)
			->value = (double)count;
		return 1;
	}
	if (message_is(pl, "Latency windows:", &a, &n))
		return (rc = on_windows(s, pl, a, n)) < 0 ? rc : 1;
	if (message_is(pl, "Fetched data for timeseries window:", &a, &n)) {
		on_fetched(s, a, n);
		return 1;
	}
	if (message_is(pl, "Rebalance hung", &a, &n) ||
	    message_is(pl, "Rebalance failed with message", &a, &n)) {
		on_stopped(s, pl);
		return 1;
	}
	return 0;
}

static int kpi_error(struct scan *s, const struct pline *pl, const char *what)
{
	return pd_err_at(s->err, PD_EPARSE, s->src->path, pl->line, 0,
			 "expected %s in the benchmark post", what);
}

static int fill_kpi(struct scan *s, const struct pline *pl, const cJSON *json, int dry_run)
{
	const cJSON *metric = cJSON_GetObjectItemCaseSensitive(json, "metric");
	const cJSON *value = cJSON_GetObjectItemCaseSensitive(json, "value");
	const cJSON *build = cJSON_GetObjectItemCaseSensitive(json, "build");
	const cJSON *snaps = cJSON_GetObjectItemCaseSensitive(json, "snapshots");
	const cJSON *it;
	struct pd_kpi *k;
	/* a dry run logs the metric's description next (reporter.py:165-166,
	 * _log_benchmark(metric)): "id", "title", ..., no "metric"; nothing to read */
	if (!metric && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(json, "id")))
		return 0;
	if (!cJSON_IsString(metric) || !metric->valuestring[0])
		return kpi_error(s, pl, "a string 'metric'");
	if (!value || (!cJSON_IsNumber(value) && !cJSON_IsNull(value)))
		return kpi_error(s, pl, "a number 'value'");
	if (build && !cJSON_IsNull(build) && !cJSON_IsString(build))
		return kpi_error(s, pl, "a string 'build'");
	if (snaps && !cJSON_IsNull(snaps) && !cJSON_IsArray(snaps))
		return kpi_error(s, pl, "an array 'snapshots'");
	for (it = snaps ? snaps->child : NULL; it; it = it->next)
		if (!cJSON_IsString(it))
			return kpi_error(s, pl, "strings in 'snapshots'");
	if (!cJSON_IsNumber(value)) { /* json.dumps wrote NaN (or null): no value to use */
		pd_strv_addf(&s->run->notes,
			     "console line %ld: the benchmark post of %s has no value (NaN): a "
			     "KPI with no value",
			     pl->line, metric->valuestring);
		return 0;
	}
	if (!isfinite(value->valuedouble)) { /* 1e400: past a double, no value to use */
		pd_strv_addf(&s->run->notes,
			     "console line %ld: the benchmark post of %s has a value out of a "
			     "double's range (%s1.8e308 or more): a KPI with no value",
			     pl->line, metric->valuestring, value->valuedouble > 0 ? "" : "-");
		return 0;
	}
	k = pd_run_add_kpi(s->run);
	k->metric = pd_xstrdup(metric->valuestring);
	k->value = value->valuedouble;
	k->build = cJSON_IsString(build) ? pd_xstrdup(build->valuestring) : NULL;
	k->dry_run = dry_run;
	k->local_s = pl->local_s;
	k->line = pl->line;
	for (it = snaps ? snaps->child : NULL; it; it = it->next)
		pd_strv_add(&k->snapshots, it->valuestring);
	kpi_window(s->run, k);
	return 0;
}

static int on_benchmark(struct scan *s, const struct pline *pl, const char *what, int dry_run,
			const char *arg, size_t n)
{
	cJSON *json;
	int rc;
	if ((rc = payload_json(&json, s, pl, what, arg, n)) >= 0)
		rc = fill_kpi(s, pl, json, dry_run);
	cJSON_Delete(json);
	return rc;
}

/* "Adding a metric:" and "Adding a cluster:" (reporter.py:40, :65): read past their
 * payload, which must be JSON like the benchmark's; nothing in them is used. */
static int on_post(struct scan *s, const struct pline *pl, const char *what, const char *arg,
		   size_t n)
{
	cJSON *json;
	int rc = payload_json(&json, s, pl, what, arg, n);
	cJSON_Delete(json);
	return rc;
}

static int on_perfrunner(struct scan *s, const struct pline *pl)
{
	const char *a;
	size_t n;
	int rc = on_newer(s, pl);
	if (rc)
		return rc < 0 ? rc : 0;
	if (message_is(pl, "HTML report:", &a, &n))
		return on_report(s, pl, a, n);
	if (message_is(pl, "Failing over node:", &a, &n))
		return on_failover(s, pl, PD_EV_FAILOVER_HARD, a, n);
	if (message_is(pl, "Gracefully failing over node:", &a, &n))
		return on_failover(s, pl, PD_EV_FAILOVER_GRACEFUL, a, n);
	if (message_is(pl, "Starting rebalance with payload:", &a, &n))
		return on_rebalance(s, pl, a, n);
	if (message_is(pl, "Rebalance progress:", &a, &n) ||
	    message_is(pl, "Rebalance started. Rebalance progress:", &a, &n))
		return on_progress(s, pl, a, n);
	if ((message_is(pl, "Rebalance task stopped running", &a, &n) ||
	     message_is(pl, "Cluster is balanced", &a, &n) ||
	     message_is(pl, "Rebalance completed and cluster is balanced", &a, &n) ||
	     message_is(pl, "Rebalance completed", &a, &n)) &&
	    !n)
		add_event(s, pl, PD_EV_REBALANCE_END);
	else if (message_is(pl, "Adding a benchmark:", &a, &n))
		return on_benchmark(s, pl, "Adding a benchmark:", 0, a, n);
	else if (message_is(pl, "Dry run:", &a, &n))
		return on_benchmark(s, pl, "Dry run:", 1, a, n);
	else if (message_is(pl, "Adding a metric:", &a, &n))
		return on_post(s, pl, "Adding a metric:", a, n);
	else if (message_is(pl, "Adding a cluster:", &a, &n))
		return on_post(s, pl, "Adding a cluster:", a, n);
	return 0;
}

/* "Finished: RESULT" as Jenkins writes it; NULL for any other line. */
static const char *finished_word(const char *p, size_t n)
{
	static const char *const words[] = {"SUCCESS", "FAILURE", "UNSTABLE", "ABORTED",
					    "NOT_BUILT"};
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (n < 10 || memcmp(p, "Finished: ", 10))
		return NULL;
	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++)
		if (strlen(words[i]) == n - 10 && !memcmp(p + 10, words[i], n - 10))
			return words[i];
	return NULL;
}

static int is_blank_line(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t')
			return 0;
	return 1;
}

/* Every line of s->src into s->run. */
static int scan_lines(struct scan *s)
{
	struct pd_run *run = s->run;
	const char *result = NULL; /* the result word of the last non-blank line */
	struct pline pl;
	int rc;
	free(run->console_path);
	run->console_path = s->src->path ? pd_xstrdup(s->src->path) : NULL;
	while ((rc = next_line(s)) > 0) {
		if (is_blank_line(s->p, s->len))
			continue;
		result = finished_word(s->p, s->len);
		pl.line = s->line;
		if ((rc = parse_prefix(&pl, s->p, s->len)) < 0)
			return pd_err_at(
				s->err, PD_EPARSE, s->src->path, s->line, 1,
				"invalid date or time '%.19s': expected perfrunner's "
				"log prefix YYYY-MM-DDTHH:MM:SS with a real date and time",
				s->p);
		if (!rc)
			continue;
		if (!run->console_first_s)
			run->console_first_s =
				pl.local_s; /* for the clock offset from the build */
		if ((rc = on_perfrunner(s, &pl)) < 0)
			return rc;
	}
	if (rc < 0)
		return rc;
	if (result) {
		free(run->console_result);
		run->console_result = pd_xstrdup(result);
	}
	return 0;
}

int pd_console_parse(struct pd_run *run, const struct pd_src *src, struct pd_err *err)
{
	struct scan s = {src, err, run, 0, 0, NULL, 0, '\n', PD_STRMAP_INIT};
	/* no '\n' at all but a '\r': its lines end in '\r' (read as one line, no event would
	 * be found and nothing would say why) */
	if (!memchr(src->data, '\n', src->len) && memchr(src->data, '\r', src->len))
		s.eol = '\r';
	int rc;
	for (size_t i = 0; i < run->snapshots.n; i++)
		pd_strmap_put(&s.snapshots, run->snapshots.v[i], strlen(run->snapshots.v[i]),
			      i);
	rc = scan_lines(&s);
	pd_strmap_free(&s.snapshots);
	return rc;
}
