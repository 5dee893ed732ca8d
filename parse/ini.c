/* perfrunner's .spec and .test files, read the way Python's configparser reads them as
 * perfrunner's settings.py sets it up (ConfigParser(): strict, BasicInterpolation;
 * optionxform = str; perfrunner/settings.py Config.parse, lines 52-64 @ bc5e9067):
 * - lines end at "\n", "\r\n" or a lone "\r" (Python's universal newlines);
 * - "[name]" opens a section: the stripped line matches "\[(.+)\]", the name runs to the
 *   last ']' and text after it is ignored; a line starting with '[' that does not match is
 *   an option line, as in configparser;
 * - "key = value" or "key: value", split at the first '=' or ':'; key and value trimmed;
 *   keys are kept as written (optionxform = str);
 * - a line indented deeper than its key's line continues the value; blank lines inside a
 *   value are kept, blank lines at its end dropped, and an empty first value ("iris =")
 *   adds no leading '\n' (configparser gives "\nhost1\nhost2"; perfrunner splits the value
 *   on white space, so both read alike);
 * - lines whose first non-blank character is '#' or ';' are comments, also inside a value;
 *   there are no inline comments ("a = b # c" is the value "b # c");
 * - strict: a section or an option given twice is an error (DuplicateSectionError,
 *   DuplicateOptionError), as perfrunner stops on it;
 * - values are interpolated as BasicInterpolation does on get(): "%%" is '%',
 *   "%(name)s" the value of name in the same section or [DEFAULT]; a value whose
 *   interpolation fails, or would exceed --max-line bytes, keeps its raw text and the
 *   reason in bad_interp, an error only where perfdelta reads it (configparser fails
 *   only on get());
 * - [DEFAULT]'s options are every section's defaults (pd_ini_get falls back to them);
 * - a UTF-8 byte order mark at the start is skipped. */
#include "ini.h"
#include "../core/buf.h"
#include "../core/xalloc.h"

#include <assert.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	const struct pd_src *src;
	struct pd_err *err;
	struct pd_ini ini;     /* being built */
	char *section;         /* the current section, NULL before the first header */
	long cur;              /* the entry whose value continues on indented lines, or -1 */
	size_t key_indent;     /* indent of that entry's line */
	struct pd_buf value;   /* its value so far */
	struct pd_strmap seen; /* section names so far, for strict's duplicate check */
	size_t blank_pending;  /* blank lines seen since its last text line */
	long line;             /* current line, 1-based */
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

static void add_line(struct pd_ini_entry *e, long line)
{
	PD_GROW(e->lines, e->cap_lines, e->n_lines + 1);
	e->lines[e->n_lines++] = line;
}

static int add_entry(struct parser *p, const char *key, size_t key_len, const char *val,
		     size_t val_len, size_t indent)
{
	struct pd_buf k = PD_BUF_INIT; /* the index's key: "section\0key" */
	pd_buf_add(&k, p->section, strlen(p->section) + 1);
	pd_buf_add(&k, key, key_len);
	size_t had = pd_strmap_put(&p->ini.index, k.ptr, k.len, p->ini.n);
	pd_buf_release(&k);
	if (had != PD_STRMAP_NONE)
		return pd_err_at(p->err, PD_EPARSE, p->src->path, p->line, 0,
				 "option '%.*s' in section [%s] already given on line "
				 "%ld (configparser, strict as perfrunner uses it, "
				 "refuses a duplicate)",
				 (int)(key_len > 60 ? 60 : key_len), key, p->section,
				 p->ini.e[had].line);
	PD_GROW(p->ini.e, p->ini.cap, p->ini.n + 1);
	struct pd_ini_entry *e = &p->ini.e[p->ini.n];
	e->section = pd_xstrdup(p->section);
	e->key = pd_xstrndup(key, key_len);
	e->value = NULL;
	e->bad_interp = NULL;
	e->line = p->line;
	e->lines = NULL, e->n_lines = e->cap_lines = 0;
	add_line(e, p->line);
	p->cur = (long)p->ini.n++;
	p->key_indent = indent;
	pd_buf_add(&p->value, val, val_len);
	return 0;
}

/* A text line of the value: after the blank lines before it (each a '\n'; their lines
 * are the text's, as no host stands on them), or in place of an empty first value. */
static void continue_value(struct parser *p, const char *text, size_t len)
{
	struct pd_ini_entry *e = &p->ini.e[p->cur];
	if (p->value.len)
		for (size_t i = 0; i <= p->blank_pending; i++) {
			pd_buf_addch(&p->value, '\n');
			add_line(e, p->line);
		}
	else
		e->lines[0] = p->line;
	pd_buf_add(&p->value, text, len);
	p->blank_pending = 0;
}

static int key_line(struct parser *p, const char *s, size_t n, size_t off, size_t indent);

/* s (length n, trimmed, off its offset in the source) starts with '['. A line that
 * configparser's SECTCRE "\[(?P<header>.+)\]" does not match is an option line. */
static int section_line(struct parser *p, const char *s, size_t n, size_t off, size_t indent)
{
	size_t close = n;
	while (close > 1 && s[close - 1] != ']')
		close--;
	if (close <= 2)
		return key_line(p, s, n, off, indent);
	free(p->section);
	p->section = pd_xstrndup(s + 1, close - 2);
	if (pd_strmap_put(&p->seen, p->section, close - 2, 0) != PD_STRMAP_NONE)
		return pd_src_error(p->err, PD_EPARSE, p->src, off,
				    "section [%s] given twice (configparser, strict as "
				    "perfrunner uses it, refuses a duplicate)",
				    p->section);
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
		return section_line(p, s + indent, n - indent, off + indent, indent);
	return key_line(p, s + indent, n - indent, off + indent, indent);
}

/* Interpolation, as BasicInterpolation._interpolate_some does it on get(): "%%" is '%',
 * "%(name)s" the raw value of name in the section read (or in [DEFAULT]), itself
 * interpolated when it holds a '%'; more than 10 levels of that is an error. configparser
 * does it only on get(); done here on every value, it must not let a small file build a
 * huge one ("x1 = %(x0)s%(x0)s...", nine levels: 10^9 copies of x0). So each value is
 * measured first (its size plus the references followed, memoized per entry for the
 * section read), and built only when it fits the caps; one that does not keeps its raw
 * text and the reason, an error where perfdelta reads it (check_interp). */

#define MAX_DEPTH 10 /* configparser's MAX_INTERPOLATION_DEPTH */

struct measure {             /* an entry's value as read in the section being read */
	unsigned stamp;      /* that section's number; another = not measured */
	unsigned char need;  /* levels of '%' values in its deepest chain, at most bound */
	unsigned char bound; /* the cap need was measured under (need == bound: "or more") */
	unsigned char busy;  /* on the current path: a cycle is infinitely deep */
	size_t cost;         /* bytes out plus references followed, saturating */
	char *why;           /* why it fails (a bad '%', a missing option), or NULL */
};

struct interp {
	const struct pd_ini *ini;
	const char *section;  /* the section read */
	unsigned stamp;       /* its number */
	struct measure *m;    /* one per entry */
	size_t cap;           /* a value's cost at most (--max-line) */
	size_t spent, budget; /* steps taken for the whole file, and the most allowed */
};

enum tok { TOK_END, TOK_TEXT, TOK_PCT, TOK_REF, TOK_BAD };

/* The next token of v at *pos: text up to a '%', "%%", "%(name)s" (the name at *at, *len
 * bytes) or a '%' that is neither (TOK_BAD, *at the '%'). */
static enum tok next_tok(const char *v, size_t *pos, const char **at, size_t *len)
{
	const char *p = v + *pos, *pct = strchr(p, '%'), *close;
	*at = p;
	if (!*p)
		return TOK_END;
	if (pct != p) {
		*len = pct ? (size_t)(pct - p) : strlen(p);
		*pos += *len;
		return TOK_TEXT;
	}
	if (p[1] == '%') {
		*len = 1;
		*pos += 2;
		return TOK_PCT;
	}
	close = p[1] == '(' ? strchr(p + 2, ')') : NULL;
	if (!close || close == p + 2 || close[1] != 's')
		return TOK_BAD;
	*at = p + 2;
	*len = (size_t)(close - p - 2);
	*pos += (size_t)(close + 2 - p);
	return TOK_REF;
}

static size_t sat_add(size_t a, size_t b)
{
	return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

static char *tok_error(enum tok t, const char *at, size_t len)
{
	struct pd_buf why = PD_BUF_INIT;
	if (t == TOK_BAD)
		pd_buf_addf(&why, "'%%' must be followed by '%%' or '(name)s', found '%.20s'",
			    at);
	else
		pd_buf_addf(&why, "no option '%.*s' for '%%(...)s'", (int)(len > 40 ? 40 : len),
			    at);
	return pd_buf_detach(&why);
}

static unsigned measure(struct interp *it, size_t j, unsigned bound);

/* One reference of entry j's value to entry r: its cost; *deep the deepest '%' chain. */
static size_t measure_ref(struct interp *it, size_t j, size_t r, unsigned bound, unsigned *deep)
{
	const char *v = it->ini->e[r].value;
	if (!strchr(v, '%'))
		return strlen(v) + 1;
	unsigned d = measure(it, r, bound - 1);
	if (d > *deep)
		*deep = d;
	if (it->m[r].why && !it->m[j].why)
		it->m[j].why = pd_xstrdup(it->m[r].why);
	return sat_add(it->m[r].cost, 1);
}

/* Entry j's value (which holds a '%') read in it->section, under bound >= 1: fills
 * it->m[j] and returns min(its depth, bound). Recursion is at most bound deep. */
static unsigned measure(struct interp *it, size_t j, unsigned bound)
{
	struct measure *m = &it->m[j];
	const char *v = it->ini->e[j].value, *at;
	size_t pos = 0, len;
	unsigned deep = 0;
	enum tok t;
	if (m->stamp == it->stamp && (m->busy || m->need < m->bound || bound <= m->bound))
		return m->busy ? bound : m->need < bound ? m->need : bound;
	free(m->why);
	*m = (struct measure){.stamp = it->stamp, .busy = 1, .bound = (unsigned char)bound};
	while (deep + 1 < bound && !m->why && (t = next_tok(v, &pos, &at, &len)) != TOK_END) {
		const struct pd_ini_entry *r = NULL;
		if (++it->spent > it->budget)
			m->why = pd_xstrdup("interpolating the file's values takes too many "
					    "steps (16 x --max-line)");
		else if (t == TOK_TEXT || t == TOK_PCT)
			m->cost = sat_add(m->cost, len);
		else if (t == TOK_BAD || !(r = pd_ini_lookup(it->ini, it->section, at, len)))
			m->why = tok_error(t, at, len);
		else
			m->cost = sat_add(m->cost, measure_ref(it, j, (size_t)(r - it->ini->e),
							       bound, &deep));
	}
	m->busy = 0;
	m->need = (unsigned char)(deep + 1 < bound ? deep + 1 : bound);
	return m->need;
}

/* Appends v, measured as fitting, read in it->section. */
static void build(struct pd_buf *out, const struct interp *it, const char *v)
{
	const char *at;
	size_t pos = 0, len;
	enum tok t;
	while ((t = next_tok(v, &pos, &at, &len)) != TOK_END) {
		const struct pd_ini_entry *r =
			t == TOK_REF ? pd_ini_lookup(it->ini, it->section, at, len) : NULL;
		assert(t != TOK_BAD && (t != TOK_REF || r));
		if (t == TOK_TEXT || t == TOK_PCT)
			pd_buf_add(out, at, len);
		else if (strchr(r->value, '%'))
			build(out, it, r->value);
		else
			pd_buf_adds(out, r->value);
	}
}

/* Entry i's value interpolated, or NULL and *why. */
static char *interpolate_one(struct interp *it, size_t i, char **why)
{
	unsigned need = measure(it, i, MAX_DEPTH + 1);
	const struct measure *m = &it->m[i];
	struct pd_buf out = PD_BUF_INIT, b = PD_BUF_INIT;
	if (m->why)
		pd_buf_adds(&b, m->why);
	else if (need > MAX_DEPTH)
		pd_buf_adds(&b, "interpolation nested more than 10 deep");
	else if (m->cost > it->cap || it->spent > it->budget ||
		 m->cost > it->budget - it->spent)
		pd_buf_addf(
			&b,
			"interpolation expands past %zu bytes (configparser would build it; "
			"perfdelta stops at --max-line, 16 times that for the whole file)",
			m->cost > it->cap ? it->cap : it->budget);
	else {
		it->spent += m->cost;
		build(&out, it, it->ini->e[i].value);
		return pd_buf_detach(&out);
	}
	*why = pd_buf_detach(&b);
	return NULL;
}

/* The '\n's among the first n bytes of s (up to its NUL). */
static size_t newlines(const char *s, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n && s[i]; i++)
		k += s[i] == '\n';
	return k;
}

/* Every value as configparser's get() returns it, where it fits; failures keep the raw
 * text. */
static void interpolate_all(struct pd_ini *ini, size_t cap)
{
	struct interp it = {.ini = ini, .m = pd_xcalloc(ini->n + 1, sizeof(*it.m)), .cap = cap};
	char **done = pd_xcalloc(ini->n + 1, sizeof(*done));
	it.budget = cap > SIZE_MAX / 16 ? SIZE_MAX : 16 * cap;
	for (size_t i = 0; i < ini->n; i++) {
		if (!strchr(ini->e[i].value, '%'))
			continue;
		if (!it.section || strcmp(it.section, ini->e[i].section)) {
			it.section = ini->e[i].section;
			it.stamp++;
		}
		done[i] = interpolate_one(&it, i, &ini->e[i].bad_interp);
	}
	for (size_t i = 0; i < ini->n; i++) {
		free(it.m[i].why);
		if (done[i]) {
			/* its lines are still the source's when no reference brought a '\n'
			 * ("%%", one-line values): raw '\n's are kept, so the counts tell */
			if (newlines(done[i], SIZE_MAX) != newlines(ini->e[i].value, SIZE_MAX))
				ini->e[i].n_lines = 0;
			free(ini->e[i].value);
			ini->e[i].value = done[i];
		}
	}
	free(it.m);
	free(done);
}

/* Where the line at off ends: the next '\n' or '\r', or the end of the source. */
static size_t line_end(const struct pd_src *src, size_t off)
{
	size_t end = off;
	while (end < src->len && src->data[end] != '\n' && src->data[end] != '\r')
		end++;
	return end;
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
		size_t end = line_end(src, off);
		if (end - off > src->lim->max_line)
			rc = pd_src_error(err, PD_ELIMIT, src, off,
					  "line longer than %zu bytes (raise --max-line)",
					  src->lim->max_line);
		else
			rc = parse_line(&p, off, end);
		off = end + 1 +
		      (end + 1 < src->len && src->data[end] == '\r' &&
		       src->data[end + 1] == '\n');
		p.line++;
	}
	finish_entry(&p);
	if (rc == 0)
		interpolate_all(&p.ini, src->lim->max_line);
	pd_buf_release(&p.value);
	pd_strmap_free(&p.seen);
	free(p.section);
	if (rc < 0) {
		pd_ini_free(&p.ini);
		return rc;
	}
	p.ini.path = src->path ? pd_xstrdup(src->path) : NULL;
	*out = p.ini;
	return 0;
}

/* The entry for section.key (else DEFAULT.key: the one pd_ini_get returns), or NULL. */
static const struct pd_ini_entry *find_entry(const struct pd_ini *ini, const char *section,
					     const char *key)
{
	return pd_ini_lookup(ini, section, key, strlen(key));
}

long pd_ini_line_at(const struct pd_ini_entry *e, size_t off)
{
	size_t piece = newlines(e->value, off);
	return piece < e->n_lines ? e->lines[piece] : e->line;
}

/* A value perfdelta reads must interpolate, as perfrunner's get() would fail otherwise. */
static int check_interp(const struct pd_ini *ini, const struct pd_ini_entry *e,
			struct pd_err *err)
{
	if (!e || !e->bad_interp)
		return 0;
	return pd_err_at(err, PD_EPARSE, ini->path, e->line, 0, "[%s] %s: %s", e->section,
			 e->key, e->bad_interp);
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
			return pd_err_at(err, PD_EPARSE, spec->path,
					 pd_ini_line_at(e, (size_t)(token - e->value)), 0,
					 "expected a service name in '%.*s' ([clusters] %s)",
					 (int)token_len, token, e->key);
		if (!bit && !(len == 5 && !memcmp(s + i, "empty", 5)))
			return pd_err_at(err, PD_EPARSE, spec->path,
					 pd_ini_line_at(e, (size_t)(token - e->value)), 0,
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
		return pd_err_at(err, PD_EPARSE, spec->path,
				 pd_ini_line_at(e, (size_t)(t - e->value)), 0,
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

static int cmp_host(const void *a, const void *b)
{
	return strcmp((*(const struct pd_node *const *)a)->host,
		      (*(const struct pd_node *const *)b)->host);
}

/* A host the cluster lists twice (run->nodes[from..] are its servers): one node cannot be
 * two servers of a cluster (perfrunner would add it twice), and its series would count
 * twice in its role. Sorted, so that a spec of many hosts stays n log n. */
static int repeated_host(const struct pd_run *run, size_t from, const struct pd_ini *spec,
			 const struct pd_ini_entry *e, struct pd_err *err)
{
	size_t n = run->n_nodes - from;
	const struct pd_node **v = pd_xmalloc((n + 1) * sizeof(*v));
	const char *twice = NULL;
	for (size_t i = 0; i < n; i++)
		v[i] = &run->nodes[from + i];
	qsort(v, n, sizeof(*v), cmp_host);
	for (size_t i = 1; i < n && !twice; i++)
		if (!strcmp(v[i]->host, v[i - 1]->host))
			twice = v[i]->host;
	free(v);
	if (!twice)
		return 0;
	return pd_err_at(err, PD_EPARSE, spec->path, e->line, 0,
			 "host %s listed twice in cluster '%s' ([clusters]): expected each "
			 "server once",
			 twice, e->key);
}

static void drop_nodes_from(struct pd_run *run, size_t n)
{
	while (run->n_nodes > n)
		free(run->nodes[--run->n_nodes].host);
}

/* The host of each server token of a [clusters] value, as perfrunner's
 * s.split(':')[0] (settings.py ClusterSpec.clusters). */
static void add_hosts(struct pd_strv *out, const char *v)
{
	for (v += span_of(v, WHITE, 1); *v; v += span_of(v, WHITE, 1)) {
		size_t len = span_of(v, WHITE, 0), h = 0;
		while (h < len && v[h] != ':')
			h++;
		if (h)
			pd_strv_addn(out, v, h);
		v += len;
	}
}

/* Every n1ql server of every cluster, as servers_by_role("n1ql") lists them ("role in
 * roles": a substring test; settings.py ClusterSpec.servers_by_role). */
static void add_n1ql_hosts(struct pd_strv *out, const char *v)
{
	for (v += span_of(v, WHITE, 1); *v; v += span_of(v, WHITE, 1)) {
		size_t len = span_of(v, WHITE, 0), h = 0;
		while (h < len && v[h] != ':')
			h++;
		char *tok = pd_xstrndup(v, len);
		char *roles = h < len ? tok + h + 1 : NULL,
		     *end = roles ? strchr(roles, ':') : NULL;
		if (end)
			*end = '\0';
		if (roles && strstr(roles, "n1ql"))
			pd_strv_addn(out, v, h);
		free(tok);
		v += len;
	}
}

/* The first cluster's servers, up to initial_nodes (0: all). */
static int add_first_cluster(struct pd_run *run, const struct pd_ini *spec,
			     const struct pd_ini_entry *e, struct pd_err *err)
{
	const char *v = e->value + span_of(e->value, WHITE, 1);
	long total = 0, keep = run->cfg.initial_nodes;
	int rc = 0;
	if (!*v)
		return pd_err_at(err, PD_EPARSE, spec->path, e->line, 0,
				 "expected hosts for cluster '%s' in [clusters]", e->key);
	for (; *v && rc == 0; v += span_of(v, WHITE, 1), total++) {
		size_t len = span_of(v, WHITE, 0);
		if (!keep || total < keep)
			rc = add_host(run, v, len, spec, e, err);
		v += len;
	}
	if (rc == 0 && keep && keep < total)
		pd_strv_addf(&run->notes,
			     "the run's cluster is the first %ld of the %ld servers of cluster "
			     "'%s' ([cluster] initial_nodes = %ld, perfrunner's servers[:%ld])",
			     keep, total, e->key, keep, keep);
	else if (rc == 0 && keep > total)
		pd_strv_addf(&run->notes,
			     "[cluster] initial_nodes = %ld but cluster '%s' lists %ld servers",
			     keep, e->key, total);
	return rc;
}

/* One note for cloud placeholders ("ec2.ec2_cluster_1.ec2_node_group_1.1"): a host name
 * cannot hold '_', so the spec is a template that deployment fills in. */
static void note_placeholders(struct pd_run *run)
{
	for (size_t i = 0; i < run->n_nodes; i++)
		if (strchr(run->nodes[i].host, '_')) {
			pd_strv_addf(
				&run->notes,
				"the spec's hosts are cloud placeholders (%s, ...) replaced "
				"at deploy time: they match no perfdb database; use the "
				"spec as deployed",
				run->nodes[i].host);
			return;
		}
}

static void load_others(struct pd_run *run, const struct pd_ini *spec,
			const struct pd_ini_entry *first)
{
	for (size_t i = 0; i < spec->n; i++) {
		const struct pd_ini_entry *e = &spec->e[i];
		if (strcmp(e->section, "clusters"))
			continue;
		add_n1ql_hosts(&run->spec_n1ql, e->value);
		if (e == first)
			continue;
		pd_strv_add(&run->others, e->key);
		add_hosts(&run->other_hosts, e->value);
	}
	if (run->others.n)
		pd_strv_addf(
			&run->notes,
			"the spec lists %zu more cluster%s (%s%s): the run's cluster is the "
			"first, '%s'; the others' databases are kept apart",
			run->others.n, run->others.n > 1 ? "s" : "", run->others.v[0],
			run->others.n > 1 ? ", ..." : "", first->key);
}

static char *stem_of(const char *path)
{
	const char *base = strrchr(path, '/'), *dot;
	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	return pd_xstrndup(base, dot && dot != base ? (size_t)(dot - base) : strlen(base));
}

int pd_spec_load(struct pd_run *run, const struct pd_ini *spec, struct pd_err *err)
{
	const struct pd_ini_entry *first = NULL,
				  *clients = find_entry(spec, "clients", "hosts");
	size_t had = run->n_nodes;
	int rc = 0;
	for (size_t i = 0; i < spec->n && !first; i++)
		if (!strcmp(spec->e[i].section, "clusters"))
			first = &spec->e[i];
	free(run->spec_name);
	run->spec_name = spec->path ? stem_of(spec->path) : NULL;
	if ((rc = check_interp(spec, first, err)) < 0 ||
	    (rc = check_interp(spec, clients, err)) < 0)
		return rc;
	if (clients) /* perfrunner's workers: config.get("clients", "hosts").split() */
		add_hosts(&run->clients, clients->value);
	if (!first) {
		pd_strv_addf(&run->notes,
			     "the spec has no [clusters] section (perfrunner reads "
			     "it as no cluster): it names no nodes");
		return 0;
	}
	if ((rc = add_first_cluster(run, spec, first, err)) < 0 ||
	    (rc = repeated_host(run, had, spec, first, err)) < 0) {
		drop_nodes_from(run, had);
		return rc;
	}
	load_others(run, spec, first);
	free(run->cluster);
	run->cluster = pd_xstrdup(first->key);
	pd_run_assign_roles(run);
	note_placeholders(run);
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

/* section.key as an integer, or def when absent (perfrunner's default). */
static int get_uint(long *out, const struct pd_ini *ini, const char *section, const char *key,
		    long max, long def, struct pd_err *err)
{
	const struct pd_ini_entry *e = find_entry(ini, section, key);
	int rc;
	*out = def;
	if (!e || (rc = check_interp(ini, e, err)) < 0)
		return e ? rc : 0;
	return parse_uint(out, e->value, max, ini, e, err);
}

/* [cluster] initial_nodes holds one count per cluster of the spec ("4 4" for XDCR), each
 * an integer; the first is the spec's first cluster, the one perfdelta reads. */
static int get_initial_nodes(long *out, const struct pd_ini *ini, struct pd_err *err)
{
	const struct pd_ini_entry *e = find_entry(ini, "cluster", "initial_nodes");
	const char *v;
	int rc;
	*out = 1; /* options.get('initial_nodes', '1') */
	if (!e || (rc = check_interp(ini, e, err)) < 0)
		return e ? rc : 0;
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

static int dup_or_null(char **out, const struct pd_ini *ini, const char *section,
		       const char *key, struct pd_err *err)
{
	const struct pd_ini_entry *e = find_entry(ini, section, key);
	free(*out);
	*out = e ? pd_xstrdup(e->value) : NULL;
	return check_interp(ini, e, err);
}

int pd_testcfg_load(struct pd_testcfg *cfg, const struct pd_ini *test, struct pd_err *err)
{
	long nodes, time_s, interval, post, buckets;
	int rc;
	/* perfrunner's defaults (settings.py): [stats] interval 5, post_to_sf 0; [cluster]
	 * initial_nodes 1, num_buckets 1; [access] time has a default too, but a run
	 * without it has no event time to take from it, so absent stays 0 here */
	if ((rc = get_initial_nodes(&nodes, test, err)) < 0 ||
	    (rc = get_uint(&time_s, test, "access", "time", LONG_MAX, 0, err)) < 0 ||
	    (rc = get_uint(&interval, test, "stats", "interval", INT_MAX, 5, err)) < 0 ||
	    (rc = get_uint(&post, test, "stats", "post_to_sf", INT_MAX, 0, err)) < 0 ||
	    (rc = get_uint(&buckets, test, "cluster", "num_buckets", INT_MAX, 1, err)) < 0 ||
	    (rc = dup_or_null(&cfg->test, test, "test_case", "test", err)) < 0 ||
	    (rc = dup_or_null(&cfg->title, test, "showfast", "title", err)) < 0 ||
	    (rc = dup_or_null(&cfg->shutdown_type, test, "access", "n1ql_shutdown_type", err)) <
		    0)
		return rc;
	cfg->initial_nodes = (int)nodes;
	cfg->access_time_s = time_s;
	cfg->stats_interval_s = (int)interval;
	cfg->post_to_sf = (int)post;
	cfg->num_buckets = (int)buckets;
	return 0;
}
