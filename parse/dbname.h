/* Decoding perfdb database names {collector}{snapshot}{bucket}{index}{server}. */
#ifndef PD_DBNAME_H
#define PD_DBNAME_H

#include "../core/err.h"
#include "../core/model.h"

/* What kind of host ends a db name. */
enum pd_dbhost {
	PD_DBHOST_NODE,   /* a node of the run's cluster */
	PD_DBHOST_CLIENT, /* a [clients] host (atop, iostat sample them too) */
	PD_DBHOST_OTHER   /* a server of another cluster of the spec */
};

struct pd_dbname {
	char *collector; /* "ns_server_system" */
	char *snapshot;  /* "iris_710-1345_access_a7b6" */
	char *bucket;    /* "bucket-1", or NULL */
	char *index;  /* index scope: "by_capped_small" (cbagent's "bucket.index"), or NULL */
	char *server; /* the host with dots ("172.23.100.40"), or NULL */
	enum pd_dbhost host_kind; /* what server is */
	enum pd_scope scope;      /* PD_SCOPE_CLIENT for a client host */
};

/* The hosts, snapshots and buckets db names are decoded against, prepared once per run
 * (hosts hashed by stripped address) so that decoding n dbs costs O(n). It borrows
 * snapshots (which must outlive it) and copies the rest. Free with pd_dbindex_free. */
struct pd_dbindex;
struct pd_dbindex *pd_dbindex_new(const struct pd_strv *snapshots, const struct pd_node *nodes,
				  size_t n_nodes, const struct pd_strv *clients,
				  const struct pd_strv *others, const struct pd_strv *buckets);
void pd_dbindex_free(struct pd_dbindex *ix);

/* Decodes db as pd_dbname_decode does, against a prepared index: a db ending with a
 * client host is PD_SCOPE_CLIENT (server-scope collectors only), one ending with another
 * cluster's server is server scope with host_kind PD_DBHOST_OTHER; index-scope collectors
 * read "{bucket}{index}" with the longest of the index's buckets. */
int pd_dbname_decode_ix(struct pd_dbname *out, const char *db, const struct pd_dbindex *ix,
			struct pd_err *err);

/* The collectors perfdelta knows, longest first (so that ns_server_system wins over
 * ns_server). NULL-terminated. */
extern const char *const pd_collectors[];

/* Decodes db given the run's snapshot names and nodes. Snapshot names and hosts are compared
 * with the characters cbagent deletes deleted too. After collector and snapshot, a rest that
 * ends with a node's address is that server (the rest before it the bucket); otherwise the
 * rest is the bucket, or nothing (cluster scope). A reading counts only if the collector
 * writes that scope (n1ql_stats: cluster only; atop: server only). PD_ENOTFOUND (with a
 * message saying why) when no reading fits or when two do: a name is never guessed.
 * out is filled only on success; free it with pd_dbname_clear. The buckets are perfrunner's
 * default, "bucket-1"; a run decodes with pd_dbname_decode_ix. */
int pd_dbname_decode(struct pd_dbname *out, const char *db, const struct pd_strv *snapshots,
		     const struct pd_node *nodes, size_t n_nodes, struct pd_err *err);

/* Snapshot names that the db names carry, for bundles without a console: after a known
 * collector, "<cluster>_<build>_<phase>_<4 hex>" with build [0-9][0-9-]*, phase words of
 * [A-Za-z0-9] joined by '_', and 4 lowercase hex digits (cluster: as given, stripped like db
 * names; NULL: the shortest run before "_<build>_"). Where the name stops:
 *  1. a db name that ends right after the 4 hex digits (the cluster-scope ns_server
 *     overview and active_tasks dbs, which every run writes) gives a certain name;
 *  2. a db name that starts, after its collector, with a name already known (in out or
 *     from step 1) adds nothing;
 *  3. otherwise the snapshot ends at the first '_' + 4 hex digits after the first phase
 *     word that is not followed by '_' ("access_a7b61722310040": "access_a7b6", the rest
 *     is "1722310040"). Step 1 keeps a phase word such as "n1ql_access" (whose "acce" is
 *     hex) from being cut short when the run has its cluster-scope dbs.
 * Appends each new name once to out, the new ones sorted. */
void pd_dbname_find_snapshots(struct pd_strv *out, const struct pd_strv *dbs,
			      const char *cluster);

void pd_dbname_clear(struct pd_dbname *d);

/* The run's snapshot names: the console's, unless none of them occurs in any db name
 * (then a note, and the names come from the db names as without a console); without a
 * console, from the db names of the run's cluster and of the spec's other clusters. */
void pd_dbname_run_snapshots(struct pd_run *run, const struct pd_strv *dbs);

/* The index a run's dbs decode against: its nodes, clients, other clusters' servers and
 * the test's buckets (bucket-1..bucket-N, [cluster] num_buckets, perfrunner's names). */
struct pd_dbindex *pd_dbname_run_index(const struct pd_run *run);

/* 1 when a decoded db belongs to another cluster of the spec (its snapshot is
 * "<other cluster>_..." or its server one of theirs): kept apart from the run's series. */
int pd_dbname_other_cluster(const struct pd_run *run, const struct pd_dbname *d);

#endif
