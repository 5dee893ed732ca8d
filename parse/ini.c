/* perfrunner's .spec and .test files, read the way Python's configparser (which perfrunner
 * uses with its defaults) reads them:
 * - "[name]" opens a section; the name is what lies between '[' and the last ']', as
 *   written; text after that ']' is ignored, as configparser's SECTCRE match ignores it;
 * - "key = value" or "key: value", split at the first '=' or ':'; key and value trimmed;
 *   keys are kept as written (configparser lowercases them; perfrunner writes them in
 *   lower case anyway);
 * - a line indented deeper than its key's line continues the value; blank lines inside a
 *   value are kept, blank lines at its end dropped, and an empty first value ("iris =")
 *   adds no leading '\n' (configparser gives "\nhost1\nhost2"; perfrunner splits the value
 *   on white space, so both read alike);
 * - lines whose first non-blank character is '#' or ';' are comments, also inside a value;
 *   there are no inline comments ("a = b # c" is the value "b # c");
 * - a repeated key is kept twice; pd_ini_get returns the last, as strict=False would;
 * - a UTF-8 byte order mark at the start is skipped; "\r\n" ends a line like "\n".
 * Not supported: the DEFAULT section's inheritance and %(name)s interpolation (perfrunner
 * files use neither). */
#include "ini.h"
#include "../core/buf.h"
#include "../core/xalloc.h"

#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	const struct pd_src *src;
	struct pd_err *err;
	struct pd_ini ini;    /* being built */
	char *section;        /* the current section, NULL before the first header */
	long cur;             /* the entry whose value continues on indented lines, or -1 */
	size_t key_indent;    /* indent of that entry's line */
	struct pd_buf value;  /* its value so far */
	size_t blank_pending; /* blank lines seen since its last text line */
	long line;            /* current line, 1-based */
};

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static void finish_entry(struct parser *p)
{
	if (p->cur < 0)
		return;
	p->ini.e[p->cur].value = pd_buf_detach(&p->value);
	p->cur = -1;
	p->blank_pending = 0;
}

static int add_entry(struct parser *p, const char *key, size_t key_len, const char *val,
		     size_t val_len, size_t indent)
{
	PD_GROW(p->ini.e, p->ini.cap, p->ini.n + 1);
	struct pd_ini_entry *e = &p->ini.e[p->ini.n];
	e->section = pd_xstrdup(p->section);
	e->key = pd_xstrndup(key, key_len);
	e->value = NULL;
	e->line = p->line;
	p->cur = (long)p->ini.n++;
	p->key_indent = indent;
	pd_buf_add(&p->value, val, val_len);
	return 0;
}

static void continue_value(struct parser *p, const char *text, size_t len)
{
	if (p->value.len)
		for (size_t i = 0; i <= p->blank_pending; i++)
			pd_buf_addch(&p->value, '\n');
	pd_buf_add(&p->value, text, len);
	p->blank_pending = 0;
}

/* s (length n, trimmed, off its offset in the source) starts with '['. */
static int section_line(struct parser *p, const char *s, size_t n, size_t off)
{
	size_t close = n;
	while (close > 1 && s[close - 1] != ']')
		close--;
	if (close <= 1)
		return pd_src_error(p->err, PD_EPARSE, p->src, off + n,
				    "expected ']' to close the section header");
	if (close == 2)
		return pd_src_error(p->err, PD_EPARSE, p->src, off + 1,
				    "expected a section name between '[' and ']'");
	free(p->section);
	p->section = pd_xstrndup(s + 1, close - 2);
	return 0;
}

static int key_line(struct parser *p, const char *s, size_t n, size_t off, size_t indent)
{
	size_t d = 0, k, v;
	if (!p->section)
		return pd_src_error(p->err, PD_EPARSE, p->src, off,
				    "expected a [section] header before '%.*s'",
				    (int)(n > 40 ? 40 : n), s);
	while (d < n && s[d] != '=' && s[d] != ':')
		d++;
	if (d == n)
		return pd_src_error(p->err, PD_EPARSE, p->src, off + n,
				    "expected '=' or ':' after key '%.*s'",
				    (int)(n > 40 ? 40 : n), s);
	for (k = d; k > 0 && is_space(s[k - 1]); k--)
		;
	if (k == 0)
		return pd_src_error(p->err, PD_EPARSE, p->src, off,
				    "expected a key before '%c'", s[d]);
	for (v = d + 1; v < n && is_space(s[v]); v++)
		;
	return add_entry(p, s, k, s + v, n - v, indent);
}

/* One line [off, end) without its '\n'. */
static int parse_line(struct parser *p, size_t off, size_t end)
{
	const char *s = p->src->data + off;
	size_t n = end - off, indent = 0;
	const char *nul = memchr(s, '\0', n);
	if (nul)
		return pd_src_error(p->err, PD_EPARSE, p->src, off + (size_t)(nul - s),
				    "unexpected NUL byte");
	while (n > 0 && is_space(s[n - 1]))
		n--;
	while (indent < n && is_space(s[indent]))
		indent++;
	if (indent == n) {
		p->blank_pending += p->cur >= 0;
		return 0;
	}
	if (s[indent] == '#' || s[indent] == ';')
		return 0;
	if (p->cur >= 0 && indent > p->key_indent) {
		continue_value(p, s + indent, n - indent);
		return 0;
	}
	finish_entry(p);
	if (s[indent] == '[')
		return section_line(p, s + indent, n - indent, off + indent);
	return key_line(p, s + indent, n - indent, off + indent, indent);
}

int pd_ini_parse(struct pd_ini *out, const struct pd_src *src, struct pd_err *err)
{
	struct parser p = {.src = src, .err = err, .cur = -1, .value = PD_BUF_INIT, .line = 1};
	size_t off = 0;
	int rc = 0;
	assert(out->n == 0 && out->e == NULL);
	if (src->len >= 3 && !memcmp(src->data, "\xef\xbb\xbf", 3))
		off = 3;
	while (off < src->len && rc == 0) {
		const char *nl = memchr(src->data + off, '\n', src->len - off);
		size_t end = nl ? (size_t)(nl - src->data) : src->len;
		if (end - off > src->lim->max_line)
			rc = pd_src_error(err, PD_ELIMIT, src, off,
					  "line longer than %zu bytes (raise --max-line)",
					  src->lim->max_line);
		else
			rc = parse_line(&p, off, end);
		off = end + 1;
		p.line++;
	}
	finish_entry(&p);
	pd_buf_release(&p.value);
	free(p.section);
	if (rc < 0) {
		pd_ini_free(&p.ini);
		return rc;
	}
	p.ini.path = src->path ? pd_xstrdup(src->path) : NULL;
	*out = p.ini;
	return 0;
}

/* The last entry for section.key (the one pd_ini_get returns), or NULL. */
static const struct pd_ini_entry *find_entry(const struct pd_ini *ini, const char *section,
					     const char *key)
{
	for (size_t i = ini->n; i-- > 0;)
		if (!strcmp(ini->e[i].section, section) && !strcmp(ini->e[i].key, key))
			return &ini->e[i];
	return NULL;
}

static size_t span_of(const char *s, const char *set, int in)
{
	size_t n = 0;
	while (s[n] && (strchr(set, s[n]) != NULL) == in)
		n++;
	return n;
}

#define WHITE " \t\r\n\v\f"

/* Sets the service bits of a comma-separated list [s, s + n); "empty" stands for none. */
static int parse_services(struct pd_node *node, const char *s, size_t n,
			  const struct pd_ini *spec, const struct pd_ini_entry *e,
			  const char *token, size_t token_len, struct pd_err *err)
{
	size_t i = 0;
	while (i <= n) {
		size_t len = 0;
		while (i + len < n && s[i + len] != ',')
			len++;
		unsigned bit = pd_service_parse(s + i, len);
		if (!len)
			return pd_err_at(err, PD_EPARSE, spec->path, e->line, 0,
					 "expected a service name in '%.*s' ([clusters] %s)",
					 (int)token_len, token, e->key);
		if (!bit && !(len == 5 && !memcmp(s + i, "empty", 5)))
			return pd_err_at(err, PD_EPARSE, spec->path, e->line, 0,
					 "unknown service '%.*s' in '%.*s' ([clusters] %s)",
					 (int)len, s + i, (int)token_len, token, e->key);
		if (!node->first)
			node->first = bit;
		node->services |= bit;
		i += len + 1;
	}
	return 0;
}

/* One host of a [clusters] value, in any of the forms perfrunner's ClusterSpec has read:
 * "host:services[:group]" (services comma-separated, "empty" for none), and the older
 * "host", "host:8091" and "host[:port],service,..." where a host without services is kv
 * ("for backward compatibility, set to kv if not specified"). */
static int add_host(struct pd_run *run, const char *t, size_t len, const struct pd_ini *spec,
		    const struct pd_ini_entry *e, struct pd_err *err)
{
	size_t h = 0, f, port = 0;
	while (h < len && t[h] != ':' && t[h] != ',')
		h++;
	if (h == 0)
		return pd_err_at(err, PD_EPARSE, spec->path, e->line, 0,
				 "expected a host before '%c' in '%.*s' ([clusters] %s)", t[0],
				 (int)len, t, e->key);
	struct pd_node *node = pd_run_add_node(run, t, h);
	if (h == len) {
		node->first = node->services = PD_SVC_KV;
		return 0;
	}
	if (t[h] == ',')
		return parse_services(node, t + h + 1, len - h - 1, spec, e, t, len, err);
	for (f = h + 1; f < len && t[f] != ':'; f++)
		;
	while (h + 1 + port < len && t[h + 1 + port] >= '0' && t[h + 1 + port] <= '9')
		port++;
	if (port && (h + 1 + port == len || t[h + 1 + port] == ',')) {
		if (h + 1 + port == len) {
			node->first = node->services = PD_SVC_KV;
			return 0;
		}
		return parse_services(node, t + h + 2 + port, len - h - 2 - port, spec, e, t,
				      len, err);
	}
	return parse_services(node, t + h + 1, f - h - 1, spec, e, t, len, err);
}

static void drop_nodes_from(struct pd_run *run, size_t n)
{
	while (run->n_nodes > n)
		free(run->nodes[--run->n_nodes].host);
}

int pd_spec_load(struct pd_run *run, const struct pd_ini *spec, struct pd_err *err)
{
	const struct pd_ini_entry *first = NULL, *e;
	size_t had = run->n_nodes;
	const char *v;
	int rc = 0;
	/* A spec may list several clusters (XDCR); perfdelta reads the first, the one
	 * perfrunner lists first everywhere, and ignores the others without a note. */
	for (size_t i = 0; i < spec->n && !first; i++)
		if (!strcmp(spec->e[i].section, "clusters"))
			first = &spec->e[i];
	if (!first)
		return pd_err_at(err, PD_EPARSE, spec->path, 0, 0,
				 "expected a [clusters] section with a cluster");
	e = find_entry(spec, "clusters", first->key);
	v = e->value + span_of(e->value, WHITE, 1);
	if (!*v)
		return pd_err_at(err, PD_EPARSE, spec->path, e->line, 0,
				 "expected hosts for cluster '%s' in [clusters]", e->key);
	while (*v && rc == 0) {
		size_t len = span_of(v, WHITE, 0);
		rc = add_host(run, v, len, spec, e, err);
		v += len;
		v += span_of(v, WHITE, 1);
	}
	if (rc < 0) {
		drop_nodes_from(run, had);
		return rc;
	}
	free(run->cluster);
	run->cluster = pd_xstrdup(e->key);
	pd_run_assign_roles(run);
	return 0;
}

/* A non-negative decimal integer as Python's int() reads perfrunner's values (an optional
 * '+', digits), up to max; anything else is PD_EPARSE naming the file, line and key. */
static int parse_uint(long *out, const char *s, long max, const struct pd_ini *ini,
		      const struct pd_ini_entry *e, struct pd_err *err)
{
	long v = 0;
	size_t i = s[0] == '+';
	if (!s[i])
		goto bad;
	for (; s[i]; i++) {
		if (s[i] < '0' || s[i] > '9')
			goto bad;
		if (v > (max - (s[i] - '0')) / 10)
			return pd_err_at(err, PD_EPARSE, ini->path, e->line, 0,
					 "expected at most %ld for [%s] %s, got '%.40s'", max,
					 e->section, e->key, e->value);
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
bad:
	return pd_err_at(err, PD_EPARSE, ini->path, e->line, 0,
			 "expected a non-negative integer for [%s] %s, got '%.40s'", e->section,
			 e->key, e->value);
}

static int get_uint(long *out, const struct pd_ini *ini, const char *section, const char *key,
		    long max, struct pd_err *err)
{
	const struct pd_ini_entry *e = find_entry(ini, section, key);
	*out = 0;
	return e ? parse_uint(out, e->value, max, ini, e, err) : 0;
}

/* [cluster] initial_nodes holds one count per cluster of the spec ("4 4" for XDCR), each
 * an integer; the first is the spec's first cluster, the one perfdelta reads. */
static int get_initial_nodes(long *out, const struct pd_ini *ini, struct pd_err *err)
{
	const struct pd_ini_entry *e = find_entry(ini, "cluster", "initial_nodes");
	const char *v;
	int rc = 0;
	*out = 0;
	if (!e)
		return 0;
	v = e->value + span_of(e->value, WHITE, 1);
	if (!*v)
		return parse_uint(out, v, INT_MAX, ini, e, err);
	for (int first = 1; *v && rc == 0; first = 0) {
		size_t len = span_of(v, WHITE, 0);
		char *word = pd_xstrndup(v, len);
		long n;
		if ((rc = parse_uint(&n, word, INT_MAX, ini, e, err)) == 0 && first)
			*out = n;
		free(word);
		v += len;
		v += span_of(v, WHITE, 1);
	}
	return rc;
}

static char *dup_or_null(const struct pd_ini *ini, const char *section, const char *key)
{
	const char *v = pd_ini_get(ini, section, key);
	return v ? pd_xstrdup(v) : NULL;
}

int pd_testcfg_load(struct pd_testcfg *cfg, const struct pd_ini *test, struct pd_err *err)
{
	long nodes, time_s, interval;
	int rc;
	if ((rc = get_initial_nodes(&nodes, test, err)) < 0 ||
	    (rc = get_uint(&time_s, test, "access", "time", LONG_MAX, err)) < 0 ||
	    (rc = get_uint(&interval, test, "stats", "interval", INT_MAX, err)) < 0)
		return rc;
	free(cfg->test);
	free(cfg->title);
	free(cfg->shutdown_type);
	cfg->test = dup_or_null(test, "test_case", "test");
	cfg->title = dup_or_null(test, "showfast", "title");
	cfg->shutdown_type = dup_or_null(test, "access", "n1ql_shutdown_type");
	cfg->initial_nodes = (int)nodes;
	cfg->access_time_s = time_s;
	cfg->stats_interval_s = (int)interval;
	return 0;
}
