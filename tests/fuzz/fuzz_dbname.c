/* perfdb db names: each line of the input is one db name, decoded against the nodes of
 * perfrunner's iris_extra_n1ql spec and a fixed snapshot list (pd_dbname_decode); then
 * all lines are searched for snapshot names, without and with a known cluster and name
 * (pd_dbname_find_snapshots). */
#include "fuzz.h"
#include "core/model.h"
#include "parse/dbname.h"

#include <stdlib.h>

static const char *const hosts[] = {"172.23.100.210", "172.23.100.211", "172.23.100.212",
				    "172.23.100.213", "172.23.100.55",  "172.23.100.45",
				    "172.23.100.40"};
static const unsigned services[] = {PD_SVC_KV,   PD_SVC_KV,    PD_SVC_KV,  PD_SVC_KV,
				    PD_SVC_N1QL, PD_SVC_INDEX, PD_SVC_N1QL};

/* Two names of the seed fixture, one that extends the first (two readings), and names
 * that stripping changes or empties. */
static const char *const snapshots[] = {"iris_710-1345_access_a7b6",
					"iris_710-1345_failover_8a92",
					"iris_710-1345_access_a7b61", "n1ql.q:1", "."};

static struct pd_run *fixed_run(void)
{
	struct pd_run *run = pd_run_new("fuzz");
	for (size_t i = 0; i < sizeof(hosts) / sizeof(*hosts); i++) {
		struct pd_node *n = pd_run_add_node(run, hosts[i], strlen(hosts[i]));
		n->services = n->first = services[i];
	}
	pd_run_assign_roles(run);
	for (size_t i = 0; i < sizeof(snapshots) / sizeof(*snapshots); i++)
		pd_strv_add(&run->snapshots, snapshots[i]);
	return run;
}

static void decode_one(const struct pd_run *run, const char *db)
{
	struct pd_dbname d = {0};
	struct pd_err err = PD_ERR_INIT;
	if (pd_dbname_decode(&d, db, &run->snapshots, run->nodes, run->n_nodes, &err) == 0)
		pd_dbname_clear(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static struct pd_run *run;
	struct pd_src src;
	struct pd_strv dbs = {0}, found = {0}, known = {0};
	char *copy = fuzz_src(&src, data, len, "perfdb");
	const char *p = copy, *end = copy + len;
	if (!run)
		run = fixed_run(); /* read only: shared by every input */
	while (p <= end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		pd_strv_addn(&dbs, p, n);
		p += n + 1;
	}
	for (size_t i = 0; i < dbs.n; i++)
		decode_one(run, dbs.v[i]);
	pd_dbname_find_snapshots(&found, &dbs, NULL);
	pd_strv_add(&known, snapshots[0]);
	pd_dbname_find_snapshots(&known, &dbs, "iris");
	pd_strv_free(&dbs);
	pd_strv_free(&found);
	pd_strv_free(&known);
	free(copy);
	return 0;
}
