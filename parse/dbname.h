/* Decoding perfdb database names {collector}{snapshot}{bucket}{index}{server}. */
#ifndef PD_DBNAME_H
#define PD_DBNAME_H

#include "../core/err.h"
#include "../core/model.h"

struct pd_dbname {
	char *collector; /* "ns_server_system" */
	char *snapshot;  /* "iris_710-1345_access_a7b6" */
	char *bucket;    /* "bucket-1", or NULL */
	char *server;    /* the node's host with dots ("172.23.100.40"), or NULL */
	enum pd_scope scope;
};

/* The collectors perfdelta knows, longest first (so that ns_server_system wins over
 * ns_server). NULL-terminated. */
extern const char *const pd_collectors[];

/* Decodes db given the run's snapshot names and nodes. Snapshot names and hosts are compared
 * with the characters cbagent deletes deleted too. After collector and snapshot, a rest that
 * ends with a node's address is that server (the rest before it the bucket); otherwise the
 * rest is the bucket, or nothing (cluster scope). A reading counts only if the collector
 * writes that scope (n1ql_stats: cluster only; atop: server only). PD_ENOTFOUND (with a
 * message saying why) when no reading fits or when two do: a name is never guessed.
 * out is filled only on success; free it with pd_dbname_clear. */
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

#endif
