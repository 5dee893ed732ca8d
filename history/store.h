/* The history store: run signatures in SQLite or PostgreSQL, one schema for
 * both, versioned (table pd_schema), migrated on open. Adding a run twice is a no-op: the
 * run's key is unique and the insert says ON CONFLICT DO NOTHING in a transaction that
 * writers take one at a time (db.h), so two processes adding one run store it once.
 *
 * Tables (schema 1; docs/history.md):
 *   pd_schema(version)                 one row: the schema the store is at
 *   runs(id, run_key UNIQUE, test_config, build_order, build_line, version, job, number,
 *        time_ms, spec, cluster, event_kind, event_node, bundle, added_ms)
 *   feature_names(id, name UNIQUE)     every feature ever stored, named once
 *   run_features(run_id, data)         a run's features, "id value se\n" per feature
 *                                      (se "-" when none), %.17g: one row per run, so
 *                                      adding 2000 features is one insert */
#ifndef PD_HISTORY_STORE_H
#define PD_HISTORY_STORE_H

#include "../analyze/signature.h"
#include "../core/err.h"

#include <stddef.h>
#include <stdint.h>

/* The schema this perfdelta writes; a store at a newer one is refused. */
#define PD_STORE_SCHEMA 1

struct pd_db;

struct pd_store {
	struct pd_db *db;
	int schema; /* the version found on open, before migrating */
};

/* One stored run, without its features. Owns its strings. */
struct pd_store_run {
	long long id;
	char *key, *test_config, *version, *build_line, *job, *bundle;
	long number;
	int64_t time_ms;
};

/* Who opens a store: only a writer makes one, in a database that holds no table. */
enum pd_store_mode { PD_STORE_READ, PD_STORE_WRITE };

/* The default store: sqlite:$XDG_DATA_HOME/perfdelta/history.sqlite, else
 * sqlite:$HOME/.local/share/perfdelta/history.sqlite (the directory made for a writer
 * only). Caller frees. */
char *pd_store_default_url(enum pd_store_mode mode, struct pd_err *err);

/* Opens the store at url and brings its schema to PD_STORE_SCHEMA (caller closes with
 * pd_store_close). PD_ENOTFOUND when a reader finds no store there (nothing is made),
 * PD_EINVAL for a database holding tables but no pd_schema (another program's: nothing
 * is written), PD_EIO for a store of a newer schema (nothing is changed). */
int pd_store_open(struct pd_store **out, const char *url, enum pd_store_mode mode,
		  struct pd_err *err);
void pd_store_close(struct pd_store *s); /* NULL is a no-op */

/* Whether sig and bundle can be stored: both stores hold UTF-8 text (PostgreSQL refused
 * other bytes where SQLite took them), so a field that is not is refused here, in both,
 * with one message naming it (PD_EPARSE); so is a signature with no feature, naming
 * the run and bundle. */
int pd_store_check(const struct pd_signature *sig, const char *bundle, struct pd_err *err);

/* Adds sig, read from bundle (its path as given, or NULL), once pd_store_check passes;
 * *added is 1 when it was new, 0 when the store held the run already. */
int pd_store_add(struct pd_store *s, const struct pd_signature *sig, const char *bundle,
		 int *added, struct pd_err *err);

/* The runs of test_config in build order (then start time, then key) into *out[0..*n)
 * (free with pd_store_runs_free). */
int pd_store_runs(struct pd_store *s, const char *test_config, struct pd_store_run **out,
		  size_t *n, struct pd_err *err);
void pd_store_runs_free(struct pd_store_run *r, size_t n);

/* The test configs the store holds runs of, sorted bytewise, into *out[0..*n) (caller
 * frees each and the array). What a report for a test the store lacks can offer. */
int pd_store_tests(struct pd_store *s, char ***out, size_t *n, struct pd_err *err);

/* The features of runs[0..n): names[0..*n_names) (sorted) and values[run * n_names +
 * feature] (NaN where the run lacks it); caller frees names, each name and values.
 * PD_EPARSE when a stored row is malformed. */
int pd_store_features(struct pd_store *s, const struct pd_store_run *runs, size_t n,
		      char ***names, size_t *n_names, double **values, struct pd_err *err);

/* "7.1.0-1345" -> "0000000007.0000000001.0000000000-0000001345": digits zero-padded so
 * that text order is build order. Caller frees. */
char *pd_store_build_order(const char *version);
/* The build line: the version's first two numbers, "7.1"; "" when none. Caller frees. */
char *pd_store_build_line(const char *version);

#endif
