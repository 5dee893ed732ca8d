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
	nl = memchr(start, '\n', rest);
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

/* "YYYY-MM-DDTHH:MM:SS [LEVEL] " with a real date and time, LEVEL in capitals. */
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
	if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h < 0 ||
	    h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59)
		return 0;
	while (i < n && i < 21 + 16 && p[i] >= 'A' && p[i] <= 'Z')
		i++;
	if (i == 21 || i + 1 >= n || p[i] != ']' || p[i + 1] != ' ')
		return 0;
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
		if (!parse_prefix(&pl, s->p, s->len))
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
	struct scan s = {src, err, run, 0, 0, NULL, 0, PD_STRMAP_INIT};
	int rc;
	for (size_t i = 0; i < run->snapshots.n; i++)
		pd_strmap_put(&s.snapshots, run->snapshots.v[i], strlen(run->snapshots.v[i]),
			      i);
	rc = scan_lines(&s);
	pd_strmap_free(&s.snapshots);
	return rc;
}
