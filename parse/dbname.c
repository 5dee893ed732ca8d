/* perfdb database names. cbagent builds them as collector + snapshot + bucket + index +
 * server and then deletes every character of STRIPPED (cbagent/stores.py build_dbname), so
 * nothing separates the parts: decoding tries every collector that prefixes the name, every
 * snapshot that follows it, and every node address that ends it, and keeps the readings that
 * the collector's scopes allow. One reading is an answer; none or two are errors. */
#include "dbname.h"
#include "../core/buf.h"
#include "../core/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define STRIPPED "[]/\\;.,><&*:%=+@!#^()|?'\" "

/* The scopes a collector writes, as bits of enum pd_scope. */
#define SC_C  (1u << PD_SCOPE_CLUSTER)
#define SC_B  (1u << PD_SCOPE_BUCKET)
#define SC_S  (1u << PD_SCOPE_SERVER)
#define SC_BS (1u << PD_SCOPE_BUCKET_SERVER)
#define SC_I  (1u << PD_SCOPE_INDEX)

/* COLLECTOR names of couchbase/perfrunner cbagent/collectors/ and the store.append() calls
 * that use them, longest first. Index-scoped collectors (secondary_debugstats_index,
 * secondary_storage_stats) pass index="bucket.index" with no bucket (cbagent/collectors/
 * secondary_storage_stats.py:81-83, secondary_debugstats.py:132-135): "{bucket}{index}".
 * ns_server also writes cluster-wide overview stats (NSServerOverview), active_tasks
 * rebalance_progress per cluster and bucket_compaction_progress per bucket, kvstore_stats per
 * bucket and optionally per bucket and server. */
#define COLLECTORS(X)                                                                          \
	X("metrics_rest_api_collection_throughput", SC_B)                                      \
	X("metrics_rest_api_app_telemetry", SC_S)                                              \
	X("metrics_rest_api_fusion_disk", SC_S)                                                \
	X("secondary_debugstats_bucket", SC_B)                                                 \
	X("metrics_rest_api_processes", SC_S)                                                  \
	X("secondary_debugstats_index", SC_I)                                                  \
	X("eventing_per_handler_stats", SC_B)                                                  \
	X("secondary_storage_stats_mm", SC_C)                                                  \
	X("metrics_rest_api_metering", SC_B)                                                   \
	X("syncgateway_cluster_stats", SC_C)                                                   \
	X("eventing_consumer_stats", SC_BS)                                                    \
	X("eventing_per_node_stats", SC_S)                                                     \
	X("metrics_rest_api_contbk", SC_BS)                                                    \
	X("secondary_storage_stats", SC_I)                                                     \
	X("metrics_rest_api_dedup", SC_BS)                                                     \
	X("syncgateway_node_stats", SC_S)                                                      \
	X("metrics_rest_api_deks", SC_BS)                                                      \
	X("secondaryscan_latency", SC_C)                                                       \
	X("spring_subdoc_latency", SC_B)                                                       \
	X("secondary_debugstats", SC_C)                                                        \
	X("spring_query_latency", SC_B)                                                        \
	X("ai_workflow_stats", SC_B)                                                           \
	X("ns_server_system", SC_S)                                                            \
	X("sgimport_latency", SC_C)                                                            \
	X("regulator_stats", SC_BS)                                                            \
	X("secondary_stats", SC_B)                                                             \
	X("cbstats_memory", SC_B)                                                              \
	X("eventing_stats", SC_B)                                                              \
	X("spring_latency", SC_B)                                                              \
	X("kvstore_stats", SC_B | SC_BS)                                                       \
	X("active_tasks", SC_C | SC_B)                                                         \
	X("sync_gateway", SC_S)                                                                \
	X("cbstats_all", SC_B)                                                                 \
	X("fts_latency", SC_C)                                                                 \
	X("durability", SC_B)                                                                  \
	X("n1ql_stats", SC_C)                                                                  \
	X("xdcr_stats", SC_B)                                                                  \
	X("analytics", SC_S)                                                                   \
	X("fts_stats", SC_S)                                                                   \
	X("jts_stats", SC_B)                                                                   \
	X("ns_server", SC_C | SC_B)                                                            \
	X("cbas_lag", SC_B)                                                                    \
	X("xdcr_lag", SC_B)                                                                    \
	X("latency", SC_B)                                                                     \
	X("meminfo", SC_S)                                                                     \
	X("observe", SC_B)                                                                     \
	X("iostat", SC_S)                                                                      \
	X("pcstat", SC_S)                                                                      \
	X("sysdig", SC_S)                                                                      \
	X("vmstat", SC_S)                                                                      \
	X("atop", SC_S)                                                                        \
	X("disk", SC_S)                                                                        \
	X("net", SC_S)

#define NAME_OF(name, scopes)   name,
#define SCOPES_OF(name, scopes) scopes,

const char *const pd_collectors[] = {COLLECTORS(NAME_OF) NULL};
static const unsigned collector_scopes[] = {COLLECTORS(SCOPES_OF)};

/* A host that can end a db name: a node of the run's cluster, a client, another cluster's. */
struct host {
	char *key;        /* stripped as cbagent strips it */
	const char *name; /* as the spec gives it */
	long node;        /* index in the run's nodes, or -1 */
	enum pd_dbhost kind;
	size_t next; /* the next host in the same hash bucket, or SIZE_MAX */
};

/* Prepared once per run, so that decoding is linear in the number of dbs: the hosts are
 * hashed by their stripped address, and a db name's ending is looked up suffix by suffix
 * (20 000 nodes x 20 000 dbs went from 30 s to well under a second). */
struct pd_dbindex {
	const struct pd_strv *snapshots;
	char **snap_key; /* snapshot names, stripped */
	struct host *hosts;
	size_t n_hosts, cap_hosts;
	size_t *bucket; /* hash buckets of hosts, SIZE_MAX when empty */
	size_t n_bucket;
	struct pd_strv buckets; /* the test's bucket names, stripped */
};

/* A reading of a db name; bucket and index are spans of the db name, host -1 when none. */
struct reading {
	size_t coll, snap;
	long host;
	size_t bucket_off, bucket_len, index_len;
	enum pd_scope scope;
};

/* How far the best failed attempt got, for the message. */
enum { REACH_NONE, REACH_COLLECTOR, REACH_SNAPSHOT };

struct decoder {
	const char *db;
	size_t db_len;
	const struct pd_dbindex *ix;
	struct reading found[2];
	size_t n_found;
	int reach;
	struct pd_err why; /* the first failure at the deepest reach */
};

static int is_stripped(char c)
{
	return c && strchr(STRIPPED, c);
}

static char *strip_dup(const char *s)
{
	size_t n = strlen(s), k = 0;
	char *out = pd_xmalloc(n + 1);
	for (size_t i = 0; i < n; i++)
		if (!is_stripped(s[i]))
			out[k++] = s[i];
	out[k] = '\0';
	return out;
}

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static size_t hash_of(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ull; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return (size_t)h;
}

static void add_host(struct pd_dbindex *ix, const char *name, long node, enum pd_dbhost kind)
{
	PD_GROW(ix->hosts, ix->cap_hosts, ix->n_hosts + 1);
	ix->hosts[ix->n_hosts++] = (struct host){strip_dup(name), name, node, kind, SIZE_MAX};
}

static void hash_hosts(struct pd_dbindex *ix)
{
	ix->n_bucket = 2 * ix->n_hosts + 1;
	ix->bucket = pd_xmalloc(ix->n_bucket * sizeof(*ix->bucket));
	for (size_t i = 0; i < ix->n_bucket; i++)
		ix->bucket[i] = SIZE_MAX;
	for (size_t i = ix->n_hosts; i-- > 0;) {
		size_t b = hash_of(ix->hosts[i].key, strlen(ix->hosts[i].key)) % ix->n_bucket;
		ix->hosts[i].next = ix->bucket[b];
		ix->bucket[b] = i;
	}
}

struct pd_dbindex *pd_dbindex_new(const struct pd_strv *snapshots, const struct pd_node *nodes,
				  size_t n_nodes, const struct pd_strv *clients,
				  const struct pd_strv *others, const struct pd_strv *buckets)
{
	struct pd_dbindex *ix = pd_xcalloc(1, sizeof(*ix));
	ix->snapshots = snapshots;
	ix->snap_key = pd_xcalloc(snapshots->n + 1, sizeof(*ix->snap_key));
	for (size_t j = 0; j < snapshots->n; j++)
		ix->snap_key[j] = strip_dup(snapshots->v[j]);
	for (size_t k = 0; k < n_nodes; k++)
		add_host(ix, nodes[k].host, (long)k, PD_DBHOST_NODE);
	for (size_t k = 0; clients && k < clients->n; k++)
		add_host(ix, clients->v[k], -1, PD_DBHOST_CLIENT);
	for (size_t k = 0; others && k < others->n; k++)
		add_host(ix, others->v[k], -1, PD_DBHOST_OTHER);
	for (size_t k = 0; buckets && k < buckets->n; k++) {
		char *b = strip_dup(buckets->v[k]);
		pd_strv_add(&ix->buckets, b);
		free(b);
	}
	hash_hosts(ix);
	return ix;
}

void pd_dbindex_free(struct pd_dbindex *ix)
{
	if (!ix)
		return;
	for (size_t j = 0; j < ix->snapshots->n; j++)
		free(ix->snap_key[j]);
	free(ix->snap_key);
	for (size_t k = 0; k < ix->n_hosts; k++)
		free(ix->hosts[k].key);
	free(ix->hosts);
	free(ix->bucket);
	pd_strv_free(&ix->buckets);
	free(ix);
}

static const char *host_of(const struct decoder *d, const struct reading *r)
{
	return r->host < 0 ? NULL : d->ix->hosts[r->host].name;
}

static int same_reading(const struct decoder *d, const struct reading *a,
			const struct reading *b)
{
	const char *ha = host_of(d, a), *hb = host_of(d, b);
	return a->coll == b->coll && a->bucket_off == b->bucket_off &&
	       a->bucket_len == b->bucket_len && a->index_len == b->index_len &&
	       !strcmp(d->ix->snapshots->v[a->snap], d->ix->snapshots->v[b->snap]) &&
	       ((!ha && !hb) || (ha && hb && !strcmp(ha, hb)));
}

static void add_reading(struct decoder *d, const struct reading *r)
{
	/* a snapshot or host listed twice gives the same reading twice: that is one reading */
	for (size_t i = 0; i < d->n_found && i < 2; i++)
		if (same_reading(d, &d->found[i], r))
			return;
	if (d->n_found < 2)
		d->found[d->n_found] = *r;
	d->n_found++;
}

/* A host ending the db name: the scope it gives (a client is server-only). */
static void host_reading(struct decoder *d, struct reading r, size_t k, size_t len)
{
	const struct host *h = &d->ix->hosts[k];
	unsigned allowed = collector_scopes[r.coll];
	r.host = (long)k;
	r.bucket_len = len - strlen(h->key);
	r.scope = r.bucket_len ? PD_SCOPE_BUCKET_SERVER : PD_SCOPE_SERVER;
	if (allowed & (1u << r.scope)) {
		if (h->kind == PD_DBHOST_CLIENT)
			r.scope = r.bucket_len ? r.scope : PD_SCOPE_CLIENT;
		if (r.scope != PD_SCOPE_BUCKET_SERVER || h->kind != PD_DBHOST_CLIENT) {
			add_reading(d, &r);
			return;
		}
	}
	pd_err_set(
		&d->why, PD_ENOTFOUND,
		"db name '%s' reads as %s scope (%s %s), which collector '%s' does not write",
		d->db, pd_scope_name(r.scope), h->kind == PD_DBHOST_CLIENT ? "client" : "node",
		h->name, pd_collectors[r.coll]);
}

/* Every host whose stripped address ends the remainder [off, db_len): 1 if any. */
static int hosts_ending(struct decoder *d, const struct reading *r, size_t off)
{
	const struct pd_dbindex *ix = d->ix;
	size_t len = d->db_len - off;
	int matched = 0;
	for (size_t l = 1; ix->n_hosts && l <= len; l++) {
		const char *tail = d->db + d->db_len - l;
		for (size_t k = ix->bucket[hash_of(tail, l) % ix->n_bucket]; k != SIZE_MAX;
		     k = ix->hosts[k].next)
			if (!strcmp(ix->hosts[k].key, tail)) {
				matched = 1;
				host_reading(d, *r, k, len);
			}
	}
	return matched;
}

/* Index scope: "{bucket}{index}" with the '.' between them stripped; the bucket is the
 * longest of the test's bucket names that leaves an index name after it. */
static void index_reading(struct decoder *d, struct reading r, size_t off)
{
	const char *rest = d->db + off;
	size_t best = 0;
	for (size_t k = 0; k < d->ix->buckets.n; k++) {
		size_t bl = strlen(d->ix->buckets.v[k]);
		if (bl > best && bl < strlen(rest) && starts_with(rest, d->ix->buckets.v[k]))
			best = bl;
	}
	if (!best) {
		pd_err_set(&d->why, PD_ENOTFOUND,
			   "expected a bucket of the test (bucket-1..) and an index name after "
			   "the snapshot in db name '%s' (collector '%s', index scope)",
			   d->db, pd_collectors[r.coll]);
		return;
	}
	r.bucket_len = best;
	r.index_len = strlen(rest) - best;
	r.scope = PD_SCOPE_INDEX;
	add_reading(d, &r);
}

/* The part of the db name after the snapshot: [bucket][index][server]. A remainder that
 * ends with a known host's address is read as that host (every such host is tried); only
 * when none does is it a bucket, a bucket and index, or nothing. */
static void read_remainder(struct decoder *d, size_t coll, size_t snap, size_t off)
{
	unsigned allowed = collector_scopes[coll];
	size_t len = d->db_len - off;
	struct reading r = {coll, snap, -1, off, 0, 0, PD_SCOPE_CLUSTER};
	if (hosts_ending(d, &r, off))
		return;
	if (allowed & SC_I) {
		index_reading(d, r, off);
		return;
	}
	r.bucket_len = len;
	r.scope = len ? PD_SCOPE_BUCKET : PD_SCOPE_CLUSTER;
	if (allowed & (1u << r.scope))
		add_reading(d, &r);
	else if (!(allowed & (SC_C | SC_B)))
		pd_err_set(&d->why, PD_ENOTFOUND,
			   "no node or client of the spec ends db name '%s' (collector '%s' "
			   "writes per server; after the snapshot: '%s')",
			   d->db, pd_collectors[coll], d->db + off);
	else if (len)
		pd_err_set(&d->why, PD_ENOTFOUND,
			   "collector '%s' is cluster-scope but db name '%s' goes on after the "
			   "snapshot with '%s'",
			   pd_collectors[coll], d->db, d->db + off);
	else
		pd_err_set(
			&d->why, PD_ENOTFOUND,
			"expected a bucket after the snapshot in db name '%s' (collector '%s')",
			d->db, pd_collectors[coll]);
}

static void reach(struct decoder *d, int level)
{
	if (level > d->reach) {
		d->reach = level;
		d->why = (struct pd_err)PD_ERR_INIT;
	}
}

static void try_collector(struct decoder *d, size_t coll)
{
	size_t off = strlen(pd_collectors[coll]);
	reach(d, REACH_COLLECTOR);
	for (size_t j = 0; j < d->ix->snapshots->n; j++) {
		const char *key = d->ix->snap_key[j];
		if (!*key || !starts_with(d->db + off, key))
			continue;
		reach(d, REACH_SNAPSHOT);
		read_remainder(d, coll, j, off + strlen(key));
	}
	if (d->reach == REACH_COLLECTOR)
		pd_err_set(&d->why, PD_ENOTFOUND,
			   "unknown snapshot in db name '%s' (after collector '%s')", d->db,
			   pd_collectors[coll]);
}

/* One reading, naming only the parts in which it differs from the other one. */
static void describe(struct pd_buf *b, const struct decoder *d, const struct reading *r,
		     const struct reading *other)
{
	const char *sep = "";
	if (r->coll != other->coll) {
		pd_buf_addf(b, "collector %s", pd_collectors[r->coll]);
		sep = " + ";
	}
	if (strcmp(d->ix->snapshots->v[r->snap], d->ix->snapshots->v[other->snap])) {
		pd_buf_addf(b, "%ssnapshot %s", sep, d->ix->snapshots->v[r->snap]);
		sep = " + ";
	}
	pd_buf_addf(b, "%sbucket '%.*s'", sep, (int)r->bucket_len, d->db + r->bucket_off);
	if (r->host >= 0)
		pd_buf_addf(b, " + server %s", d->ix->hosts[r->host].name);
}

static int ambiguous(const struct decoder *d, struct pd_err *err)
{
	struct pd_buf a = PD_BUF_INIT, b = PD_BUF_INIT;
	describe(&a, d, &d->found[0], &d->found[1]);
	describe(&b, d, &d->found[1], &d->found[0]);
	pd_err_set(err, PD_ENOTFOUND, "db name '%s' decodes two ways: %s; %s", d->db, a.ptr,
		   b.ptr);
	pd_buf_release(&a);
	pd_buf_release(&b);
	return PD_ENOTFOUND;
}

static void fill(struct pd_dbname *out, const struct decoder *d)
{
	const struct reading *r = &d->found[0];
	const struct host *h = r->host >= 0 ? &d->ix->hosts[r->host] : NULL;
	out->collector = pd_xstrdup(pd_collectors[r->coll]);
	out->snapshot = pd_xstrdup(d->ix->snapshots->v[r->snap]);
	out->bucket = r->bucket_len ? pd_xstrndup(d->db + r->bucket_off, r->bucket_len) : NULL;
	out->index = r->index_len
			     ? pd_xstrndup(d->db + r->bucket_off + r->bucket_len, r->index_len)
			     : NULL;
	out->server = h ? pd_xstrdup(h->name) : NULL;
	out->host_kind = h ? h->kind : PD_DBHOST_NODE;
	out->scope = r->scope;
}

int pd_dbname_decode_ix(struct pd_dbname *out, const char *db, const struct pd_dbindex *ix,
			struct pd_err *err)
{
	struct decoder d = {.db = db, .db_len = strlen(db), .ix = ix, .why = PD_ERR_INIT};
	for (size_t i = 0; pd_collectors[i]; i++)
		if (starts_with(db, pd_collectors[i]))
			try_collector(&d, i);
	if (d.n_found > 1)
		return ambiguous(&d, err);
	if (d.n_found == 0 && d.reach == REACH_NONE)
		return pd_err_set(err, PD_ENOTFOUND, "unknown collector in db name '%s'", db);
	if (d.n_found == 0)
		return pd_err_set(err, PD_ENOTFOUND, "%s", d.why.msg);
	fill(out, &d);
	return 0;
}

int pd_dbname_decode(struct pd_dbname *out, const char *db, const struct pd_strv *snapshots,
		     const struct pd_node *nodes, size_t n_nodes, struct pd_err *err)
{
	struct pd_strv buckets = {0};
	pd_strv_add(&buckets, "bucket-1");
	struct pd_dbindex *ix = pd_dbindex_new(snapshots, nodes, n_nodes, NULL, NULL, &buckets);
	int rc = pd_dbname_decode_ix(out, db, ix, err);
	pd_dbindex_free(ix);
	pd_strv_free(&buckets);
	return rc;
}

void pd_dbname_clear(struct pd_dbname *d)
{
	free(d->collector);
	free(d->snapshot);
	free(d->bucket);
	free(d->server);
	free(d->index);
	memset(d, 0, sizeof(*d));
}

/* Finding snapshot names: see dbname.h for the rule. */

static int is_word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static int is_hex4(const char *s)
{
	for (int i = 0; i < 4; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

/* Length of "_<build>_" at s (build: a digit, then digits and '-'), or 0. */
static size_t match_build(const char *s)
{
	size_t n = 1;
	if (s[0] != '_' || !(s[1] >= '0' && s[1] <= '9'))
		return 0;
	while ((s[n] >= '0' && s[n] <= '9') || s[n] == '-')
		n++;
	return s[n] == '_' ? n + 1 : 0;
}

/* Length of "<cluster>_<build>_" at s, or 0. Without a known cluster, the cluster is the
 * shortest run of word characters, '-' and '_' (starting with a word character) that a
 * "_<build>_" follows. */
static size_t match_head(const char *s, const char *cluster)
{
	size_t n, b;
	if (cluster) {
		n = strlen(cluster);
		if (!n || strncmp(s, cluster, n) || !(b = match_build(s + n)))
			return 0;
		return n + b;
	}
	if (!is_word_char(s[0]))
		return 0;
	for (n = 1; is_word_char(s[n]) || s[n] == '-' || s[n] == '_'; n++)
		if ((b = match_build(s + n)))
			return n + b;
	return 0;
}

/* Length of "<phase>_<4 hex>" at s, or 0. exact: the name must end there. Otherwise the
 * first '_' + 4 hex that ends a phase of at least one word and is not followed by '_'. */
static size_t match_tail(const char *s, int exact)
{
	size_t i = 0;
	while (is_word_char(s[i]))
		i++;
	if (!i)
		return 0;
	while (s[i] == '_') {
		if (is_hex4(s + i + 1) && (exact ? s[i + 5] == '\0' : s[i + 5] != '_'))
			return i + 5;
		size_t w = i + 1;
		while (is_word_char(s[w]))
			w++;
		if (w == i + 1)
			return 0;
		i = w;
	}
	return 0;
}

/* The snapshot part of db (after its collector), or 0 when there is none; the exact
 * pass accepts only names that end the db name. */
static size_t find_in(const char *db, const char *cluster, int exact, const char **start)
{
	for (size_t i = 0; pd_collectors[i]; i++) {
		const char *rest = db + strlen(pd_collectors[i]);
		size_t head, tail;
		if (!starts_with(db, pd_collectors[i]) || !(head = match_head(rest, cluster)))
			continue;
		if ((tail = match_tail(rest + head, exact))) {
			*start = rest;
			return head + tail;
		}
	}
	return 0;
}

static int known_prefix(const struct pd_strv *known, const char *db)
{
	for (size_t i = 0; pd_collectors[i]; i++) {
		if (!starts_with(db, pd_collectors[i]))
			continue;
		for (size_t k = 0; k < known->n; k++)
			if (starts_with(db + strlen(pd_collectors[i]), known->v[k]))
				return 1;
	}
	return 0;
}

static void add_once(struct pd_strv *sv, const char *s, size_t len)
{
	for (size_t i = 0; i < sv->n; i++)
		if (strlen(sv->v[i]) == len && !strncmp(sv->v[i], s, len))
			return;
	pd_strv_addn(sv, s, len);
}

void pd_dbname_find_snapshots(struct pd_strv *out, const struct pd_strv *dbs,
			      const char *cluster)
{
	struct pd_strv found = {0}, known = {0};
	char *key = cluster ? strip_dup(cluster) : NULL;
	const char *start;
	size_t len;
	for (size_t i = 0; i < out->n; i++) {
		char *k = strip_dup(out->v[i]);
		pd_strv_add(&known, k);
		free(k);
	}
	/* names that end a db name (cluster-scope collectors such as the ns_server overview
	 * and active_tasks, which every run has) are certain */
	for (size_t i = 0; i < dbs->n; i++)
		if ((len = find_in(dbs->v[i], key, 1, &start)))
			add_once(&found, start, len);
	for (size_t i = 0; i < found.n; i++)
		add_once(&known, found.v[i], strlen(found.v[i]));
	for (size_t i = 0; i < dbs->n; i++)
		if (!known_prefix(&known, dbs->v[i]) &&
		    (len = find_in(dbs->v[i], key, 0, &start)))
			add_once(&found, start, len);
	pd_strv_sort(&found);
	for (size_t i = 0; i < found.n; i++)
		if (pd_strv_find(out, found.v[i]) < 0)
			pd_strv_add(out, found.v[i]);
	pd_strv_free(&found);
	pd_strv_free(&known);
	free(key);
}

/* Whether any db name carries the snapshot (stripped) right after a collector. */
static int snapshot_used(const char *snapshot, const struct pd_strv *dbs)
{
	char *key = strip_dup(snapshot);
	int used = 0;
	for (size_t i = 0; i < dbs->n && !used; i++)
		for (size_t c = 0; pd_collectors[c] && !used; c++)
			used = starts_with(dbs->v[i], pd_collectors[c]) &&
			       starts_with(dbs->v[i] + strlen(pd_collectors[c]), key);
	free(key);
	return used;
}

void pd_dbname_run_snapshots(struct pd_run *run, const struct pd_strv *dbs)
{
	size_t used = 0;
	for (size_t i = 0; i < run->snapshots.n; i++)
		used += snapshot_used(run->snapshots.v[i], dbs);
	if (run->snapshots.n && !used) {
		pd_strv_addf(&run->notes,
			     "the console's snapshot name%s (%s%s) match%s no perfdb database: "
			     "names taken from the perfdb db names",
			     run->snapshots.n > 1 ? "s" : "", run->snapshots.v[0],
			     run->snapshots.n > 1 ? ", ..." : "",
			     run->snapshots.n > 1 ? "" : "es");
		pd_strv_free(&run->snapshots);
	} else if (!run->snapshots.n) {
		pd_strv_addf(&run->notes,
			     "snapshot names taken from the perfdb db names (no console)");
	}
	if (!run->snapshots.n)
		pd_dbname_find_snapshots(&run->snapshots, dbs, run->cluster);
	/* the other clusters' own snapshots, so that their dbs decode and are kept apart */
	for (size_t i = 0; i < run->others.n; i++)
		pd_dbname_find_snapshots(&run->snapshots, dbs, run->others.v[i]);
}

struct pd_dbindex *pd_dbname_run_index(const struct pd_run *run)
{
	struct pd_strv buckets = {0};
	for (int i = 1; i <= (run->cfg.num_buckets > 0 ? run->cfg.num_buckets : 1); i++)
		pd_strv_addf(&buckets, "bucket-%d", i);
	struct pd_dbindex *ix = pd_dbindex_new(&run->snapshots, run->nodes, run->n_nodes,
					       &run->clients, &run->other_hosts, &buckets);
	pd_strv_free(&buckets);
	return ix;
}

static int is_cluster_snapshot(const char *snapshot, const char *cluster)
{
	size_t n = strlen(cluster);
	return !strncmp(snapshot, cluster, n) && snapshot[n] == '_';
}

int pd_dbname_other_cluster(const struct pd_run *run, const struct pd_dbname *d)
{
	/* the longest cluster name that heads the snapshot owns it ("iris2_" is not iris's) */
	size_t own = run->cluster && is_cluster_snapshot(d->snapshot, run->cluster)
			     ? strlen(run->cluster)
			     : 0;
	if (d->server && d->host_kind == PD_DBHOST_OTHER)
		return 1;
	for (size_t i = 0; i < run->others.n; i++)
		if (is_cluster_snapshot(d->snapshot, run->others.v[i]) &&
		    strlen(run->others.v[i]) > own)
			return 1;
	return 0;
}
