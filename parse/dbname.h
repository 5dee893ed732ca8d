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

/* Decodes db given the run's snapshot names and nodes. PD_ENOTFOUND (with a message
 * saying why) when no decoding fits or when two do: a name is never guessed.
 * out is filled only on success; free it with pd_dbname_clear. */
int pd_dbname_decode(struct pd_dbname *out, const char *db, const struct pd_strv *snapshots,
		     const struct pd_node *nodes, size_t n_nodes, struct pd_err *err);

/* Snapshot names that the db names carry, for bundles without a console: after a known
 * collector, "<cluster>_<build>_<phase>_<4 hex>". Appends new names to out, sorted. */
void pd_dbname_find_snapshots(struct pd_strv *out, const struct pd_strv *dbs,
			      const char *cluster);

void pd_dbname_clear(struct pd_dbname *d);

#endif
