/* Prometheus' query_range answers and cbmonitor2's snapshot metadata (parse/prom.h).
 * Values come as strings ("45.5", "NaN", "+Inf") with float Unix seconds; a series is
 * its name and labels, the same in every answer Prometheus gives for it. */
#define _DEFAULT_SOURCE /* timegm */
#include "prom.h"
#include "../core/buf.h"
#include "../core/metric.h"
#include "../core/xalloc.h"
#include "json.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* One Prometheus series; s.db holds its identity (name and every label), s.metric its
 * name, s.server its instance without a port. */
struct raw {
	struct pd_series s;
	char *proc, *mode, *job, *cluster;
	int histogram; /* a "le" label: a histogram bucket */
};

/* Keys and their positions, hashed: a series is found in constant time, not by a pass
 * over every series (an answer of 100 000 results would take minutes). */
struct keytab {
	char **key;
	size_t *slot; /* positions + 1 (0: empty), n_slot a power of 2, under half full */
	size_t n, cap, n_slot;
};

struct pd_prom {
	struct raw **r;
	size_t n, cap;
	struct keytab keys;
	size_t n_skipped; /* NaN and infinite samples */
};

static size_t *keytab_slot(const struct keytab *t, const char *key)
{
	size_t h = 1469598103934665603u; /* FNV-1a */
	for (const char *c = key; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211u;
	for (h &= t->n_slot - 1; t->slot[h] && strcmp(t->key[t->slot[h] - 1], key);)
		h = (h + 1) & (t->n_slot - 1);
	return &t->slot[h];
}

/* key's position in t; *added when it is new (then the last). */
static size_t keytab_get(struct keytab *t, const char *key, int *added)
{
	size_t *slot;
	if (2 * (t->n + 1) > t->n_slot) {
		free(t->slot);
		t->n_slot = t->n_slot ? 2 * t->n_slot : 64;
		t->slot = pd_xcalloc(t->n_slot, sizeof(*t->slot));
		for (size_t i = 0; i < t->n; i++)
			*keytab_slot(t, t->key[i]) = i + 1;
	}
	if ((*added = !*(slot = keytab_slot(t, key))) == 0)
		return *slot - 1;
	PD_GROW(t->key, t->cap, t->n + 1);
	t->key[t->n] = pd_xstrdup(key);
	*slot = ++t->n;
	return t->n - 1;
}

static void keytab_free(struct keytab *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->key[i]);
	free(t->key), free(t->slot);
}

struct pd_prom *pd_prom_new(void)
{
	return pd_xcalloc(1, sizeof(struct pd_prom));
}

void pd_prom_free(struct pd_prom *p)
{
	for (size_t i = 0; p && i < p->n; i++) {
		struct raw *r = p->r[i];
		free(r->s.db), free(r->s.metric), free(r->s.collector), free(r->s.server);
		free(r->s.bucket), free(r->s.index), free(r->s.t_ms), free(r->s.v);
		free(r->s.req_t_ms), free(r->s.req_v);
		free(r->proc), free(r->mode), free(r->job), free(r->cluster);
		free(r);
	}
	if (p)
		free(p->r), keytab_free(&p->keys);
	free(p);
}

/* The place in an answer: the result (1-based, 0: the answer itself) and the sample. */
struct place {
	size_t result, sample;
};

static int bad(struct pd_err *err, const struct pd_src *src, struct place at, const char *what)
{
	struct pd_buf where = PD_BUF_INIT;
	int rc;
	if (at.result)
		pd_buf_addf(&where, " (result %zu", at.result);
	if (at.result && at.sample)
		pd_buf_addf(&where, ", sample %zu", at.sample);
	pd_buf_adds(&where, at.result ? ")" : "");
	rc = pd_err_at(err, PD_EPARSE, src->path, 0, 0,
		       "expected %s in a Prometheus query_range answer%s", what, where.ptr);
	pd_buf_release(&where);
	return rc;
}

/* "host:port" and "[v6]:port" without the port (cbmonitor2 shows both forms). */
static char *instance_host(const char *s)
{
	const char *colon = strrchr(s, ':');
	if (s[0] == '[' && strchr(s, ']'))
		return pd_xstrndup(s + 1, (size_t)(strchr(s, ']') - s - 1));
	if (colon && strchr(s, ':') == colon && colon[1])
		return pd_xstrndup(s, (size_t)(colon - s));
	return pd_xstrdup(s);
}

static char *label(const cJSON *metric, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(metric, key);
	return cJSON_IsString(v) && v->valuestring[0] ? pd_xstrdup(v->valuestring) : NULL;
}

/* The series of metric's labels in p, new if none has them yet. */
static struct raw *series_of(struct pd_prom *p, const cJSON *metric, const char *name)
{
	struct pd_buf key = PD_BUF_INIT;
	struct raw *r;
	int added;
	size_t at;
	for (const cJSON *l = metric->child; l; l = l->next)
		pd_buf_addf(&key, "%s=%s\x1f", l->string, l->valuestring);
	if (at = keytab_get(&p->keys, key.ptr, &added), !added) {
		pd_buf_release(&key);
		return p->r[at];
	}
	r = pd_xcalloc(1, sizeof(*r));
	r->s.db = pd_buf_detach(&key);
	r->s.metric = pd_xstrdup(name);
	r->s.collector = label(metric, "collector");
	r->s.bucket = label(metric, "bucket");
	r->s.index = label(metric, "index");
	r->s.server = label(metric, "instance");
	if (r->s.server) {
		char *host = instance_host(r->s.server);
		free(r->s.server);
		r->s.server = host;
	}
	r->proc = label(metric, "proc"), r->mode = label(metric, "mode");
	r->job = label(metric, "job"), r->cluster = label(metric, "cluster");
	r->histogram = cJSON_GetObjectItemCaseSensitive(metric, "le") != NULL;
	PD_GROW(p->r, p->cap, p->n + 1);
	p->r[p->n++] = r;
	return r;
}

static int syntax(const struct pd_json_scan *sc, const struct pd_src *src, struct pd_err *err)
{
	return pd_src_error(err, PD_EPARSE, src, sc->at, "expected a JSON answer");
}

/* The value at the scanner's place is not what was expected: the syntax error where it
 * stops being JSON, else (JSON of another shape) what was expected at place at. */
static int wrong(const struct pd_json_scan *sc, const struct pd_src *src, struct place at,
		 const char *what, struct pd_err *err)
{
	struct pd_json_scan probe = *sc;
	return pd_json_skip(&probe) < 0 ? syntax(&probe, src, err) : bad(err, src, at, what);
}

/* Whether v is a value as Prometheus writes one (Go's FormatFloat: digits, sign, point,
 * exponent; or NaN, +Inf, -Inf): strtod alone would also take " 5" and "0x10". */
static int prom_value_form(const char *v, size_t vn)
{
	static const char *const special[] = {"NaN", "+Inf", "-Inf", "Inf"};
	for (size_t i = 0; i < sizeof(special) / sizeof(*special); i++)
		if (vn == strlen(special[i]) && !memcmp(v, special[i], vn))
			return 1;
	return vn && strspn(v, "0123456789+-.eE") >= vn;
}

/* One [unix_s, "value"] pair, read straight from the answer's bytes: strtod stops at the
 * ',' after the time and at the value's closing quote (the answer is NUL-terminated),
 * and must end exactly there. */
static int sample(struct pd_prom *p, struct raw *r, struct pd_json_scan *sc)
{
	const char *t, *v;
	size_t tn, vn;
	char *end;
	double ts, x;
	if (!pd_json_eat(sc, '[') || pd_json_number(sc, &t, &tn) < 0 || !pd_json_eat(sc, ',') ||
	    pd_json_string(sc, &v, &vn) < 0 || !pd_json_eat(sc, ']'))
		return -1;
	ts = strtod(t, &end);
	if (end != t + tn || !isfinite(ts) || ts < 0 || ts > 1e11)
		return -1;
	if (!prom_value_form(v, vn))
		return -1;
	x = strtod(v, &end);
	if (end != v + vn)
		return -1;
	if (!isfinite(x)) {
		p->n_skipped++;
		return 0;
	}
	pd_series_add(&r->s, llround(ts * 1000), x);
	return 0;
}

/* A result's "values" from the scanner's place into r. */
static int values(struct pd_prom *p, struct raw *r, struct pd_json_scan *sc, struct place at,
		  const struct pd_src *src, struct pd_err *err)
{
	if (!pd_json_eat(sc, '['))
		return wrong(sc, src, at, "\"values\": [samples]", err);
	if (pd_json_eat(sc, ']'))
		return 0;
	do {
		struct pd_json_scan pair = *sc;
		at.sample++;
		if (sample(p, r, sc) < 0)
			return wrong(&pair, src, at, "[unix seconds, \"value\"] samples", err);
		if (r->s.n > src->lim->max_samples)
			return pd_err_at(err, PD_ELIMIT, src->path, 0, 0,
					 "series %s has more than %zu samples (see "
					 "--max-samples)",
					 r->s.metric, src->lim->max_samples);
	} while (pd_json_eat(sc, ','));
	return pd_json_eat(sc, ']') ? 0 : syntax(sc, src, err);
}

/* The series of a result's "metric" object (the text [from, to)): its labels are the
 * only part of an answer parsed into a tree. */
static int metric_of(struct raw **out, struct pd_prom *p, const struct pd_src *src, size_t from,
		     size_t to, struct place at, struct pd_err *err)
{
	cJSON *metric = cJSON_ParseWithLength(src->data + from, to - from);
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(metric, "__name__"), *it;
	int rc = 0;
	for (it = cJSON_IsObject(metric) ? metric->child : NULL; it && rc == 0; it = it->next)
		if (!cJSON_IsString(it))
			rc = bad(err, src, at, "string label values");
	if (rc == 0 && !cJSON_IsObject(metric))
		rc = bad(err, src, at, "\"metric\" and \"values\" in each result");
	else if (rc == 0 && (!cJSON_IsString(name) || !name->valuestring[0]))
		rc = bad(err, src, at, "a \"__name__\" label");
	if (rc == 0)
		*out = series_of(p, metric, name->valuestring);
	/* every series of every answer counts, as a perfdb run's files do: the answers' size
	 * alone let 200 000 series of a few bytes each through */
	if (rc == 0 && p->n > src->lim->max_series)
		rc = pd_src_error(err, PD_ELIMIT, src, from,
				  "more than %zu series in the run (see --max-series)",
				  src->lim->max_series);
	cJSON_Delete(metric);
	return rc;
}

/* A result being read: its series once "metric" is read, where its "values" are when
 * they came first (+ 1; 0: not seen), whether they are read. */
struct result {
	struct raw *r;
	size_t values_at;
	int read;
};

/* One member of a result: "values" read at once when "metric" came first (Prometheus'
 * order), else checked and skipped, to be read after. */
static int member(struct result *res, struct pd_prom *p, struct pd_json_scan *sc,
		  struct place at, const struct pd_src *src, struct pd_err *err)
{
	const char *k;
	size_t kn, from;
	if (pd_json_string(sc, &k, &kn) < 0 || !pd_json_eat(sc, ':'))
		return syntax(sc, src, err);
	pd_json_peek(sc);
	from = sc->at;
	if (pd_json_is(k, kn, "values") && res->r) {
		res->read = 1;
		return values(p, res->r, sc, at, src, err);
	}
	if (pd_json_skip(sc) < 0)
		return syntax(sc, src, err);
	if (pd_json_is(k, kn, "values"))
		res->values_at = from + 1;
	else if (pd_json_is(k, kn, "metric"))
		return metric_of(&res->r, p, src, from, sc->at, at, err);
	return 0;
}

/* One result {"metric": {labels}, "values": [samples]}, its members in any order. */
static int one_result(struct pd_prom *p, struct pd_json_scan *sc, struct place at,
		      const struct pd_src *src, struct pd_err *err)
{
	struct result res = {0};
	int rc = 0;
	if (!pd_json_eat(sc, '{'))
		return wrong(sc, src, at, "\"metric\" and \"values\" in each result", err);
	if (pd_json_peek(sc) != '}')
		do
			rc = member(&res, p, sc, at, src, err);
		while (rc == 0 && pd_json_eat(sc, ','));
	if (rc < 0)
		return rc;
	if (!pd_json_eat(sc, '}'))
		return syntax(sc, src, err);
	if (!res.r || (!res.read && !res.values_at))
		return bad(err, src, at, "\"metric\" and \"values\" in each result");
	if (res.read)
		return 0;
	struct pd_json_scan vs = {.s = sc->s, .n = sc->n, .at = res.values_at - 1};
	return values(p, res.r, &vs, at, src, err);
}

/* "status": "error" (Prometheus' API, cbmonitor2's docs/cbmonitor-api.md "Error
 * Responses"): the error the server gave, named. */
static int answer_error(const cJSON *json, const struct pd_src *src, struct pd_err *err)
{
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(json, "errorType");
	const cJSON *msg = cJSON_GetObjectItemCaseSensitive(json, "error");
	return pd_err_at(err, PD_EPARSE, src->path, 0, 0,
			 "the Prometheus server answered an error: %.40s: %.150s",
			 cJSON_IsString(type) ? type->valuestring : "?",
			 cJSON_IsString(msg) ? msg->valuestring : "(no message)");
}

static int parse_json(cJSON **out, const struct pd_src *src, struct pd_err *err)
{
	const char *end = NULL;
	*out = cJSON_ParseWithLengthOpts(src->data, src->len, &end, 0);
	if (*out)
		return 0;
	return pd_src_error(err, PD_EPARSE, src, end ? (size_t)(end - src->data) : 0,
			    "expected a JSON answer");
}

/* What an answer's envelope says; each string as written, NULL when absent. */
struct envelope {
	const char *status, *type, *error_type, *error;
	size_t status_n, type_n, error_type_n, error_n;
	int has_result;
};

/* A string as pd_json_string gives it (between its quotes), decoded; NULL when absent. */
static cJSON *decoded(const char *s, size_t n)
{
	return s ? cJSON_ParseWithLength(s - 1, n + 2) : NULL;
}

/* answer_error's message from an envelope read by the scanner. */
static int envelope_error(const struct envelope *e, const struct pd_src *src,
			  struct pd_err *err)
{
	cJSON *type = decoded(e->error_type, e->error_type_n);
	cJSON *msg = decoded(e->error, e->error_n);
	int rc = pd_err_at(err, PD_EPARSE, src->path, 0, 0,
			   "the Prometheus server answered an error: %.40s: %.150s",
			   cJSON_IsString(type) ? type->valuestring : "?",
			   cJSON_IsString(msg) ? msg->valuestring : "(no message)");
	cJSON_Delete(type), cJSON_Delete(msg);
	return rc;
}

/* A member whose value should be a string: its bytes into *s, *n (else left NULL). */
static int string_member(const char **s, size_t *n, struct pd_json_scan *sc,
			 const struct pd_src *src, struct pd_err *err)
{
	if (pd_json_peek(sc) == '"')
		return pd_json_string(sc, s, n) < 0 ? syntax(sc, src, err) : 0;
	return pd_json_skip(sc) < 0 ? syntax(sc, src, err) : 0;
}

/* data.result: every result, read as it comes. */
static int results(struct pd_prom *p, struct envelope *e, struct pd_json_scan *sc,
		   const struct pd_src *src, struct pd_err *err)
{
	struct place at = {0, 0};
	int rc = 0;
	if ((e->type && !pd_json_is(e->type, e->type_n, "matrix")) || pd_json_peek(sc) != '[')
		return wrong(sc, src, at, "a \"matrix\" result", err);
	sc->at++;
	e->has_result = 1;
	if (pd_json_eat(sc, ']'))
		return 0;
	do {
		at.result++, at.sample = 0;
		rc = one_result(p, sc, at, src, err);
	} while (rc == 0 && pd_json_eat(sc, ','));
	return rc < 0 ? rc : pd_json_eat(sc, ']') ? 0 : syntax(sc, src, err);
}

/* Handles one member of an object, the scanner after its key and ':'. */
typedef int (*member_fn)(struct pd_prom *p, struct envelope *e, const char *k, size_t kn,
			 struct pd_json_scan *sc, const struct pd_src *src, struct pd_err *err);

static int members(struct pd_prom *p, struct envelope *e, member_fn one,
		   struct pd_json_scan *sc, const struct pd_src *src, struct pd_err *err)
{
	const char *k;
	size_t kn;
	int rc = 0;
	if (!pd_json_eat(sc, '{'))
		return syntax(sc, src, err);
	if (pd_json_peek(sc) != '}')
		do {
			if (pd_json_string(sc, &k, &kn) < 0 || !pd_json_eat(sc, ':'))
				return syntax(sc, src, err);
			rc = one(p, e, k, kn, sc, src, err);
		} while (rc == 0 && pd_json_eat(sc, ','));
	return rc < 0 ? rc : pd_json_eat(sc, '}') ? 0 : syntax(sc, src, err);
}

static int data_member(struct pd_prom *p, struct envelope *e, const char *k, size_t kn,
		       struct pd_json_scan *sc, const struct pd_src *src, struct pd_err *err)
{
	if (pd_json_is(k, kn, "resultType"))
		return string_member(&e->type, &e->type_n, sc, src, err);
	if (pd_json_is(k, kn, "result"))
		return results(p, e, sc, src, err);
	return pd_json_skip(sc) < 0 ? syntax(sc, src, err) : 0;
}

static int top_member(struct pd_prom *p, struct envelope *e, const char *k, size_t kn,
		      struct pd_json_scan *sc, const struct pd_src *src, struct pd_err *err)
{
	if (pd_json_is(k, kn, "status"))
		return string_member(&e->status, &e->status_n, sc, src, err);
	if (pd_json_is(k, kn, "errorType"))
		return string_member(&e->error_type, &e->error_type_n, sc, src, err);
	if (pd_json_is(k, kn, "error"))
		return string_member(&e->error, &e->error_n, sc, src, err);
	if (pd_json_is(k, kn, "data") && pd_json_peek(sc) == '{')
		return members(p, e, data_member, sc, src, err);
	return pd_json_skip(sc) < 0 ? syntax(sc, src, err) : 0;
}

/* The answer is scanned once and never held as a tree (struct pd_json_scan): memory is
 * what the series keep plus one result's labels. */
/* A "\u0000" anywhere: cJSON would cut the string there (a label read short), so it is
 * refused as the other JSON readers refuse it. */
static int refuse_nul(const struct pd_src *src, struct pd_err *err)
{
	size_t at = pd_json_find_nul(src->data, src->len);
	return at < src->len ? pd_src_error(err, PD_EPARSE, src, at, PD_JSON_NUL_MSG) : 0;
}

int pd_prom_matrix_parse(struct pd_prom *p, const struct pd_src *src, struct pd_err *err)
{
	struct pd_json_scan sc = {.s = src->data, .n = src->len};
	struct envelope e = {0};
	struct place at = {0, 0};
	int rc = refuse_nul(src, err);
	if (rc < 0)
		return rc;
	rc = members(p, &e, top_member, &sc, src, err);
	int error = e.status && pd_json_is(e.status, e.status_n, "error");
	if (rc == 0 && pd_json_peek(&sc) >= 0)
		rc = syntax(&sc, src, err);
	if (rc < 0 && !error)
		return rc;
	if (error) { /* the server's error, rather than what its answer lacks */
		*err = (struct pd_err)PD_ERR_INIT;
		return envelope_error(&e, src, err);
	}
	if (!e.status || !pd_json_is(e.status, e.status_n, "success"))
		return bad(err, src, at, "\"status\": \"success\"");
	if (!e.has_result || !e.type || !pd_json_is(e.type, e.type_n, "matrix"))
		return bad(err, src, at, "a \"matrix\" result");
	return 0;
}

/* The run's series being built: each a (collector, metric, bucket, server, index) key;
 * sum: contributions at one time add up (nodes into the cluster, modes into a process),
 * else the last one stays. */
struct outs {
	struct pd_series **s;
	unsigned char *sum;
	size_t n, cap, cap_sum;
	struct keytab keys;
};

/* A label of an output's key: \x1e for none. */
static void key_part(struct pd_buf *k, const char *s)
{
	pd_buf_addf(k, "%s\x1f", s ? s : "\x1e");
}

static struct pd_series *out_of(struct outs *o, const struct pd_run *run, const char *collector,
				const char *metric, const struct pd_series *key, int sum)
{
	struct pd_series *s;
	struct pd_buf k = PD_BUF_INIT;
	int added;
	size_t at;
	key_part(&k, collector), key_part(&k, metric), key_part(&k, key->bucket);
	key_part(&k, key->server), key_part(&k, key->index);
	at = keytab_get(&o->keys, k.ptr, &added);
	pd_buf_release(&k);
	if (!added)
		return o->s[at];
	s = pd_xcalloc(1, sizeof(*s));
	s->db = pd_xstrdup(key->db ? key->db : "");
	s->collector = pd_xstrdup(collector), s->metric = pd_xstrdup(metric);
	s->bucket = key->bucket ? pd_xstrdup(key->bucket) : NULL;
	s->server = key->server ? pd_xstrdup(key->server) : NULL;
	s->index = key->index ? pd_xstrdup(key->index) : NULL;
	s->scope = s->index                 ? PD_SCOPE_INDEX
		   : s->server && s->bucket ? PD_SCOPE_BUCKET_SERVER
		   : s->server              ? PD_SCOPE_SERVER
		   : s->bucket              ? PD_SCOPE_BUCKET
					    : PD_SCOPE_CLUSTER;
	if (s->scope == PD_SCOPE_SERVER && pd_strv_find(&run->clients, s->server) >= 0)
		s->scope = PD_SCOPE_CLIENT;
	s->unit = pd_metric_unit(collector, metric);
	PD_GROW(o->s, o->cap, o->n + 1);
	PD_GROW(o->sum, o->cap_sum, o->n + 1);
	o->sum[o->n] = (unsigned char)sum;
	o->s[o->n++] = s;
	return s;
}

/* Appends in's samples to out, or, for a counter, its rate per second between samples
 * (times scale): a counter that went down restarted from 0 and counted its value since,
 * as Prometheus' rate() reads a reset. */
static void add_samples(struct pd_series *out, const struct pd_series *in, int counter,
			double scale)
{
	for (size_t i = counter ? 1 : 0; i < in->n; i++) {
		double d;
		if (!counter) {
			pd_series_add(out, in->t_ms[i], in->v[i]);
			continue;
		}
		d = in->v[i] - in->v[i - 1];
		if (d < 0)
			d = in->v[i];
		pd_series_add(out, in->t_ms[i],
			      d * scale * 1000.0 / (double)(in->t_ms[i] - in->t_ms[i - 1]));
	}
}

struct pair {
	int64_t t;
	double v;
};

static int cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	return (x->t > y->t) - (x->t < y->t);
}

/* Sorts s by time and adds up the values that share a time. */
static void sum_same_times(struct pd_series *s)
{
	struct pair *p = pd_xmalloc((s->n + 1) * sizeof(*p));
	size_t n = 0;
	for (size_t i = 0; i < s->n; i++)
		p[i] = (struct pair){s->t_ms[i], s->v[i]};
	qsort(p, s->n, sizeof(*p), cmp_pair);
	for (size_t i = 0; i < s->n; i++) {
		if (n && s->t_ms[n - 1] == p[i].t) {
			s->v[n - 1] += p[i].v;
			continue;
		}
		s->t_ms[n] = p[i].t, s->v[n++] = p[i].v;
	}
	s->n = n;
	free(p);
}

/* Counters among the scraped names that the table does not map: Prometheus' suffixes,
 * and the n1ql_* counters cbmonitor2 plots as rates (dashboards/query.ts:5-12, :41-74:
 * all but the gauges listed there and the request timers). */
static int is_counter(const char *name)
{
	static const char *const gauges[] = {
		"n1ql_active_requests", "n1ql_temp_usage",  "n1ql_load",    "n1ql_load_factor",
		"n1ql_queued_requests", "n1ql_node_memory", "n1ql_node_rss"};
	if (pd_str_ends_with(name, "_total") || pd_str_ends_with(name, "_count") ||
	    pd_str_ends_with(name, "_sum"))
		return 1;
	if (strncmp(name, "n1ql_", 5) || !strncmp(name, "n1ql_request_timer", 18))
		return 0;
	for (size_t i = 0; i < sizeof(gauges) / sizeof(*gauges); i++)
		if (!strcmp(name, gauges[i]))
			return 0;
	return 1;
}

/* One target of the table for r (core/metric.c, pd_metric_of_prom). */
static void add_target(struct outs *o, const struct pd_run *run, const struct raw *r,
		       const struct pd_prom_target *t)
{
	struct pd_series key = {.db = r->s.db, .server = r->s.server};
	struct pd_buf metric = PD_BUF_INIT;
	int rate = t->how == PD_PROM_NODE_RATE || t->how == PD_PROM_TOTAL_RATE ||
		   t->how == PD_PROM_PROC_CPU;
	int total = t->how == PD_PROM_TOTAL || t->how == PD_PROM_TOTAL_RATE;
	if (t->how == PD_PROM_PROC || t->how == PD_PROM_PROC_CPU) {
		if (!r->proc)
			return;
		pd_buf_addf(&metric, "%s%s", r->proc, t->metric);
	} else {
		pd_buf_adds(&metric, t->metric);
	}
	if (total)
		key.server = NULL;
	add_samples(out_of(o, run, t->collector, metric.ptr, &key,
			   total || t->how == PD_PROM_PROC_CPU),
		    &r->s, rate, t->how == PD_PROM_PROC_CPU ? 100.0 : 1.0);
	pd_buf_release(&metric);
}

/* A series perfrunner pushed ("perf_*") or one the table does not know. */
static void add_other(struct outs *o, const struct pd_run *run, const struct raw *r)
{
	struct pd_series key = {.db = r->s.db,
				.server = r->s.server,
				.bucket = r->s.bucket,
				.index = r->s.index};
	struct pd_buf metric = PD_BUF_INIT;
	pd_metric_unpush(&metric, r->s.metric, r->s.collector);
	if (metric.len) { /* pushed: what perfdb would have held, under its collector */
		add_samples(out_of(o, run, r->s.collector ? r->s.collector : "perf", metric.ptr,
				   &key, 0),
			    &r->s, 0, 1.0);
	} else { /* other labels (method, result, ...) add up */
		key.bucket = key.index = NULL;
		add_samples(out_of(o, run, "prometheus", r->s.metric, &key, 1), &r->s,
			    is_counter(r->s.metric), 1.0);
	}
	pd_buf_release(&metric);
}

/* Why r stays out of the run: 0 when it goes in. */
static int left_out(const struct pd_run *run, const struct raw *r, struct pd_buf *cluster)
{
	if (r->histogram)
		return 1;
	if (run->snapshots.n && r->job && strcmp(r->job, run->snapshots.v[0]))
		return 2;
	if (r->s.server && pd_strv_find(&run->other_hosts, r->s.server) >= 0)
		return 3;
	if (r->cluster && cluster->len && strcmp(r->cluster, cluster->ptr))
		return 3;
	return 0;
}

static void note_left_out(struct pd_run *run, const size_t *n, size_t skipped)
{
	static const char *const why[] = {"", "histogram buckets (le), not compared",
					  "of another job than the run's snapshot",
					  "of the spec's other clusters, kept apart"};
	for (int k = 1; k < 4; k++)
		if (n[k])
			pd_strv_addf(&run->notes, "prometheus/: %zu series %s", n[k], why[k]);
	if (skipped)
		pd_strv_addf(&run->notes, "prometheus/: %zu NaN or infinite samples skipped",
			     skipped);
}

void pd_prom_to_run(struct pd_run *run, const struct pd_prom *p)
{
	struct outs o = {0};
	struct pd_buf cluster = PD_BUF_INIT; /* the first cluster's label (settings.py:764) */
	size_t n_out[4] = {0};
	if (run->spec_name && run->cluster)
		pd_buf_addf(&cluster, "%s_%s", run->spec_name, run->cluster);
	for (size_t i = 0; i < p->n; i++) {
		struct raw *r = p->r[i];
		struct pd_prom_target t[2];
		size_t nt;
		int why = left_out(run, r, &cluster);
		pd_series_normalize(&r->s);
		n_out[why]++;
		if (why)
			continue;
		nt = strncmp(r->s.metric, "perf_", 5) ? pd_metric_of_prom(t, r->s.metric) : 0;
		for (size_t k = 0; k < nt; k++)
			add_target(&o, run, r, &t[k]);
		if (!nt)
			add_other(&o, run, r);
	}
	for (size_t i = 0; i < o.n; i++) {
		if (o.sum[i])
			sum_same_times(o.s[i]);
		pd_series_normalize(o.s[i]);
		pd_run_add_series(run, o.s[i]);
	}
	note_left_out(run, n_out, p->n_skipped);
	free(o.s), free(o.sum);
	keytab_free(&o.keys);
	pd_buf_release(&cluster);
}

int pd_prom_names_parse(struct pd_strv *out, const struct pd_src *src, struct pd_err *err)
{
	cJSON *json;
	const cJSON *status, *data;
	int rc;
	if ((rc = parse_json(&json, src, err)) < 0)
		return rc;
	status = cJSON_GetObjectItemCaseSensitive(json, "status");
	data = cJSON_GetObjectItemCaseSensitive(json, "data");
	if (cJSON_IsString(status) && !strcmp(status->valuestring, "error"))
		rc = answer_error(json, src, err);
	else if (!cJSON_IsString(status) || strcmp(status->valuestring, "success") ||
		 !cJSON_IsArray(data))
		rc = pd_err_at(err, PD_EPARSE, src->path, 0, 0,
			       "expected {\"status\": \"success\", \"data\": [names]}");
	for (const cJSON *it = rc == 0 ? data->child : NULL; it && rc == 0; it = it->next)
		if (!cJSON_IsString(it))
			rc = pd_err_at(err, PD_EPARSE, src->path, 0, 0,
				       "expected string names");
		else
			pd_strv_add(out, it->valuestring);
	cJSON_Delete(json);
	return rc;
}

int64_t pd_prom_rfc3339_ms(const char *s)
{
	struct tm tm = {0};
	char *end;
	double frac = 0;
	if (strlen(s) < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
	    s[16] != ':')
		return -1;
	tm.tm_year = atoi(s) - 1900, tm.tm_mon = atoi(s + 5) - 1, tm.tm_mday = atoi(s + 8);
	tm.tm_hour = atoi(s + 11), tm.tm_min = atoi(s + 14), tm.tm_sec = atoi(s + 17);
	end = (char *)s + 19;
	if (*end == '.')
		frac = strtod(end, &end);
	if (strcmp(end, "Z") && strcmp(end, "+00:00"))
		return -1;
	if (tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 ||
	    tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
		return -1;
	return (int64_t)timegm(&tm) * 1000 + llround(frac * 1000);
}

static int64_t time_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? pd_prom_rfc3339_ms(v->valuestring) : 0;
}

static int snapshot_meta(struct pd_prom_snapshot *out, const cJSON *meta,
			 const struct pd_src *src, struct pd_err *err)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(meta, "snapshotId"), *ph;
	if (!cJSON_IsString(id) || !id->valuestring[0])
		return pd_err_at(err, PD_EPARSE, src->path, 0, 0,
				 "expected data.metadata.snapshotId in cbmonitor2's snapshot");
	out->id = pd_xstrdup(id->valuestring);
	out->start_ms = time_of(meta, "ts_start");
	out->end_ms = time_of(meta, "ts_end");
	ph = cJSON_GetObjectItemCaseSensitive(meta, "phases");
	for (const cJSON *it = cJSON_IsArray(ph) ? ph->child : NULL; it; it = it->next) {
		const cJSON *l = cJSON_GetObjectItemCaseSensitive(it, "label");
		if (cJSON_IsString(l))
			pd_strv_addf(&out->phases, "%s %lld %lld", l->valuestring,
				     (long long)time_of(it, "ts_start"),
				     (long long)time_of(it, "ts_end"));
	}
	if (out->start_ms < 0 || out->end_ms < 0)
		return pd_err_at(err, PD_EPARSE, src->path, 0, 0,
				 "expected RFC 3339 UTC times in ts_start and ts_end");
	return 0;
}

int pd_prom_snapshot_parse(struct pd_prom_snapshot *out, const struct pd_src *src,
			   struct pd_err *err)
{
	cJSON *json;
	const cJSON *ok, *meta, *msg;
	int rc;
	memset(out, 0, sizeof(*out));
	if ((rc = refuse_nul(src, err)) < 0 || (rc = parse_json(&json, src, err)) < 0)
		return rc;
	ok = cJSON_GetObjectItemCaseSensitive(json, "success");
	msg = cJSON_GetObjectItemCaseSensitive(json, "error");
	meta = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(json, "data"),
						"metadata");
	if (cJSON_IsFalse(ok))
		rc = pd_err_at(err, PD_EPARSE, src->path, 0, 0,
			       "cbmonitor2 answered an error: %.150s",
			       cJSON_IsString(msg) ? msg->valuestring : "(no message)");
	else if (!cJSON_IsTrue(ok) || !cJSON_IsObject(meta))
		rc = pd_err_at(err, PD_EPARSE, src->path, 0, 0,
			       "expected {\"success\": true, \"data\": {\"metadata\": ...}}");
	else if ((rc = snapshot_meta(out, meta, src, err)) < 0)
		pd_prom_snapshot_free(out);
	cJSON_Delete(json);
	return rc;
}

void pd_prom_snapshot_free(struct pd_prom_snapshot *s)
{
	free(s->id);
	pd_strv_free(&s->phases);
	memset(s, 0, sizeof(*s));
}
