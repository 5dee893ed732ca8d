/* A Jenkins build's api/json. cJSON checks the syntax and builds the tree; a small walker
 * over the raw bytes (which cJSON has accepted) finds where a value was written, for error
 * positions and for numeric parameters kept as written. cJSON types never leave this file. */
#include "jenkins.h"
#include "../core/xalloc.h"
#include "json.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Integers up to 2^53 survive cJSON's double exactly. */
#define MAX_EXACT 9007199254740992.0

struct reader {
	struct pd_jenkins *out;
	const struct pd_src *src;
	struct pd_err *err;
	const cJSON *root;
	size_t root_off; /* where the root object starts (after a BOM and blanks) */
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static size_t skip_blanks(const struct pd_src *src, size_t i)
{
	while (i < src->len && is_blank(src->data[i]))
		i++;
	return i;
}

/* i is at an opening quote; returns the offset after the closing one. */
static size_t skip_string(const struct pd_src *src, size_t i)
{
	for (i++; i < src->len; i++) {
		if (src->data[i] == '\\')
			i++;
		else if (src->data[i] == '"')
			return i + 1;
	}
	return src->len;
}

/* Nesting is checked before cJSON sees the bytes: its own limit (CJSON_NESTING_LIMIT)
 * is far above ours, and this scan needs no recursion. *open is what is left unclosed at
 * the end (brackets, or 1 for a string), to tell a truncated file from a malformed one. */
static int check_depth(const struct pd_src *src, unsigned *open, struct pd_err *err)
{
	unsigned depth = 0;
	*open = 0;
	for (size_t i = 0; i < src->len; i++) {
		char c = src->data[i];
		if (c == '"') {
			for (i++; i < src->len && src->data[i] != '"'; i++)
				i += src->data[i] == '\\';
			if (i >= src->len) {
				*open = 1;
				return 0;
			}
		} else if (c == '{' || c == '[') {
			if (++depth > src->lim->max_depth)
				return pd_src_error(err, PD_ELIMIT, src, i,
						    "JSON nested deeper than %u levels",
						    src->lim->max_depth);
		} else if ((c == '}' || c == ']') && depth) {
			depth--;
		}
	}
	*open = depth;
	return 0;
}

/* Skips the value at i in JSON cJSON has accepted; returns the offset after it. */
static size_t skip_value(const struct pd_src *src, size_t i)
{
	size_t depth = 0;
	while (i < src->len) {
		char c = src->data[i];
		if (c == '"') {
			i = skip_string(src, i);
			if (!depth)
				return i;
			continue;
		}
		if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			if (!depth)
				return i;
			if (!--depth)
				return i + 1;
		} else if (!depth && (c == ',' || is_blank(c))) {
			return i;
		}
		i++;
	}
	return i;
}

/* Offset of child k (an object's member value, an array's element) of the container
 * whose opening bracket is at i. */
static size_t raw_child(const struct pd_src *src, size_t i, int k)
{
	int object = i < src->len && src->data[i] == '{';
	i++;
	for (int n = 0; i < src->len; n++) {
		i = skip_blanks(src, i);
		if (n > 0 && i < src->len && src->data[i] == ',')
			i = skip_blanks(src, i + 1);
		if (object) {
			i = skip_blanks(src, skip_string(src, i));
			i = skip_blanks(src, i + 1); /* the ':' */
		}
		if (n == k)
			return i < src->len ? i : src->len;
		i = skip_value(src, i);
	}
	return src->len;
}

static int child_index(const cJSON *parent, const cJSON *item)
{
	int k = 0;
	for (const cJSON *c = parent->child; c && c != item; c = c->next)
		k++;
	return k;
}

/* Offset of chain[n - 1], reached from the root chain[0] through its descendants;
 * cJSON keeps members and elements in source order, so indexes match the bytes. */
static size_t offset_of(const struct reader *r, const cJSON *const *chain, int n)
{
	size_t i = r->root_off;
	for (int d = 0; d + 1 < n; d++)
		i = raw_child(r->src, i, child_index(chain[d], chain[d + 1]));
	return i;
}

static int type_error(const struct reader *r, const cJSON *const *chain, int n,
		      const char *what, const char *key)
{
	return pd_src_error(r->err, PD_EPARSE, r->src, offset_of(r, chain, n),
			    "expected %s for '%s'", what, key);
}

static void replace(char **dst, const char *s)
{
	free(*dst);
	*dst = s ? pd_xstrdup(s) : NULL;
}

/* A string field; null or absent leaves *dst as it is. */
static int get_string(const struct reader *r, const char *key, char **dst)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(r->root, key);
	const cJSON *chain[] = {r->root, it};
	if (!it || cJSON_IsNull(it))
		return 0;
	if (!cJSON_IsString(it))
		return type_error(r, chain, 2, "a string", key);
	replace(dst, it->valuestring);
	return 0;
}

/* A build's number, time or duration: a whole number of 0 or more (a negative one would
 * be shown as "#-5, started 1969"). */
static int get_int(const struct reader *r, const char *key, int64_t *dst, int *found)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(r->root, key);
	const cJSON *chain[] = {r->root, it};
	double d;
	if (found)
		*found = it && !cJSON_IsNull(it);
	if (!it || cJSON_IsNull(it))
		return 0;
	d = it->valuedouble;
	if (!cJSON_IsNumber(it) || !(d >= 0 && d <= MAX_EXACT) || (double)(int64_t)d != d)
		return type_error(r, chain, 2, "a whole number of 0 or more", key);
	*dst = (int64_t)d;
	return 0;
}

static int get_bool(const struct reader *r, const char *key, int *dst)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(r->root, key);
	const cJSON *chain[] = {r->root, it};
	if (!it || cJSON_IsNull(it))
		return 0;
	if (!cJSON_IsBool(it))
		return type_error(r, chain, 2, "true or false", key);
	*dst = cJSON_IsTrue(it);
	return 0;
}

/* A parameter value as text: strings as they are, booleans "true"/"false", numbers as
 * the JSON wrote them, null as "", objects and arrays as compact JSON. */
static char *value_text(const struct reader *r, const cJSON *const *chain, int n)
{
	const cJSON *v = chain[n - 1];
	if (cJSON_IsString(v))
		return pd_xstrdup(v->valuestring);
	if (cJSON_IsBool(v))
		return pd_xstrdup(cJSON_IsTrue(v) ? "true" : "false");
	if (cJSON_IsNumber(v)) {
		size_t i = offset_of(r, chain, n), k = i;
		while (k < r->src->len && strchr("+-0123456789.eE", r->src->data[k]) &&
		       r->src->data[k])
			k++;
		return pd_xstrndup(r->src->data + i, k - i);
	}
	if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
		char *s = cJSON_PrintUnformatted(v);
		char *t = pd_xstrdup(s ? s : "");
		cJSON_free(s);
		return t;
	}
	return pd_xstrdup("");
}

/* chain: root, actions, action, parameters. */
static int read_parameters(const struct reader *r, const cJSON **chain)
{
	const cJSON *p;
	for (p = chain[3]->child; p; p = p->next) {
		struct pd_jenkins *j = r->out;
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(p, "name");
		const cJSON *value = cJSON_GetObjectItemCaseSensitive(p, "value");
		chain[4] = p;
		if (!cJSON_IsObject(p))
			return type_error(r, chain, 5, "an object", "parameters");
		chain[5] = name;
		if (!cJSON_IsString(name))
			return type_error(r, chain, name ? 6 : 5, "a string", "name");
		PD_GROW(j->params, j->cap_params, j->n_params + 1);
		j->params[j->n_params].name = pd_xstrdup(name->valuestring);
		chain[5] = value;
		j->params[j->n_params].value = value ? value_text(r, chain, 6) : pd_xstrdup("");
		j->n_params++;
	}
	return 0;
}

/* actions[] is heterogeneous: {} and null entries are common; parameters come from
 * every action whose "parameters" is an array (the ParametersAction). */
static int read_actions(const struct reader *r)
{
	const cJSON *chain[6] = {r->root, NULL};
	const cJSON *a;
	int rc;
	chain[1] = cJSON_GetObjectItemCaseSensitive(r->root, "actions");
	if (!chain[1] || cJSON_IsNull(chain[1]))
		return 0;
	if (!cJSON_IsArray(chain[1]))
		return type_error(r, chain, 2, "an array", "actions");
	for (a = chain[1]->child; a; a = a->next) {
		chain[2] = a;
		chain[3] = cJSON_GetObjectItemCaseSensitive(a, "parameters");
		if (!cJSON_IsObject(a) || !cJSON_IsArray(chain[3]))
			continue;
		if ((rc = read_parameters(r, chain)) < 0)
			return rc;
	}
	return 0;
}

void pd_jenkins_set_job(struct pd_jenkins *j)
{
	size_t len = 0, cap = 0;
	char *b = NULL;
	const char *p = j->url, *q;
	while (p && (q = strstr(p, "/job/"))) {
		const char *s = q + 5, *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if (n) {
			PD_GROW(b, cap, len + n + 2);
			if (len)
				b[len++] = '/';
			memcpy(b + len, s, n);
			len += n;
			b[len] = '\0';
		}
		p = s + n;
	}
	free(j->job);
	j->job = b;
	if (b || !j->full_display_name)
		return;
	q = NULL;
	for (p = j->full_display_name; (p = strstr(p, " #")); p++)
		q = p;
	if (q)
		j->job = pd_xstrndup(j->full_display_name, (size_t)(q - j->full_display_name));
}

static int read_fields(const struct reader *r)
{
	struct pd_jenkins *j = r->out;
	int64_t number = 0;
	int found = 0, rc;
	if ((rc = get_string(r, "_class", &j->klass)) < 0 ||
	    (rc = get_int(r, "number", &number, &found)) < 0 ||
	    (rc = get_string(r, "id", &j->id)) < 0 ||
	    (rc = get_string(r, "result", &j->result)) < 0 ||
	    (rc = get_bool(r, "building", &j->building)) < 0 ||
	    (rc = get_int(r, "timestamp", &j->timestamp_ms, NULL)) < 0 ||
	    (rc = get_int(r, "duration", &j->duration_ms, NULL)) < 0 ||
	    (rc = get_string(r, "url", &j->url)) < 0 ||
	    (rc = get_string(r, "displayName", &j->display_name)) < 0 ||
	    (rc = get_string(r, "fullDisplayName", &j->full_display_name)) < 0)
		return rc;
	if (!found)
		return pd_src_error(r->err, PD_EPARSE, r->src, r->root_off,
				    "not a build: no 'number'%s",
				    cJSON_GetObjectItemCaseSensitive(r->root, "builds")
					    ? " (this is a job's api/json, not a build's)"
					    : "");
	j->number = (long)number;
	if ((rc = read_actions(r)) < 0)
		return rc;
	pd_jenkins_set_job(j);
	return 0;
}

static size_t root_offset(const struct pd_src *src)
{
	size_t i = 0;
	if (src->len >= 3 && !memcmp(src->data, "\xEF\xBB\xBF", 3))
		i = 3; /* cJSON skips a UTF-8 BOM too */
	return skip_blanks(src, i);
}

/* Up to 12 bytes of input at off for a message, anything unprintable as '?'. */
static const char *excerpt(char out[16], const struct pd_src *src, size_t off)
{
	size_t n = 0;
	for (; n < 12 && off + n < src->len; n++) {
		unsigned char c = (unsigned char)src->data[off + n];
		out[n] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	out[n] = '\0';
	return out;
}

static int parse_root(cJSON **root, const struct pd_src *src, unsigned open, struct pd_err *err)
{
	const char *end = NULL;
	char near[16];
	size_t off = pd_json_find_nul(src->data, src->len);
	*root = NULL;
	if (off < src->len)
		return pd_src_error(err, PD_EPARSE, src, off, PD_JSON_NUL_MSG);
	*root = cJSON_ParseWithLengthOpts(src->data, src->len, &end, 0);
	if (!*root) {
		if (skip_blanks(src, 0) >= src->len)
			return pd_src_error(err, PD_EPARSE, src, src->len,
					    "empty file: expected a JSON object");
		if (open)
			return pd_src_error(err, PD_EPARSE, src, src->len,
					    "unexpected end of input: expected '}' or ']' to "
					    "close what is open (truncated JSON?)");
		off = end && end >= src->data ? (size_t)(end - src->data) : 0;
		return pd_src_error(err, PD_EPARSE, src, off, "expected valid JSON near '%s'",
				    excerpt(near, src, off));
	}
	off = skip_blanks(src, (size_t)(end - src->data));
	if (off < src->len)
		return pd_src_error(err, PD_EPARSE, src, off,
				    "expected end of input after the JSON object");
	if (!cJSON_IsObject(*root))
		return pd_src_error(err, PD_EPARSE, src, root_offset(src),
				    "expected a JSON object (a build's api/json)");
	return 0;
}

int pd_jenkins_json_parse(struct pd_jenkins *out, const struct pd_src *src, struct pd_err *err)
{
	struct reader r = {out, src, err, NULL, 0};
	cJSON *root = NULL;
	unsigned open;
	int rc;
	if ((rc = check_depth(src, &open, err)) < 0)
		goto done;
	if ((rc = parse_root(&root, src, open, err)) < 0)
		goto done;
	r.root = root;
	r.root_off = root_offset(src);
	if ((rc = read_fields(&r)) < 0)
		goto done;
	replace(&out->path, src->path);
	out->present = 1;
done:
	cJSON_Delete(root);
	return rc;
}
