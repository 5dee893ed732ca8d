/* Times db-name decoding at scale: N nodes and N server-scope dbs, one
 * per node, decoded against one prepared index. Prints "nodes=N dbs=N decoded=K wall_s=S";
 * K < N because stripped addresses collide ("10.0.1.11" and "10.0.11.1" both read
 * "100111") and such names are refused as ambiguous, never guessed.
 * usage: pd_bench_dbname [N]   (default 20000) */
#include "core/model.h"
#include "parse/dbname.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 20000, ok = 0;
	struct pd_run *run = pd_run_new("");
	struct pd_strv dbs = {0};
	struct timespec a, b;
	char host[64];
	pd_strv_add(&run->snapshots, "iris_710-1345_access_a7b6");
	for (size_t i = 0; i < n; i++) {
		snprintf(host, sizeof(host), "10.%zu.%zu.%zu", i / 65536, i / 256 % 256,
			 i % 256);
		pd_run_add_node(run, host, strlen(host));
		pd_strv_addf(&dbs, "atopiris_710-1345_access_a7b610%zu%zu%zu", i / 65536,
			     i / 256 % 256, i % 256);
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	struct pd_dbindex *ix = pd_dbname_run_index(run);
	for (size_t i = 0; i < dbs.n; i++) {
		struct pd_dbname d = {0};
		struct pd_err err = PD_ERR_INIT;
		ok += pd_dbname_decode_ix(&d, dbs.v[i], ix, &err) == 0;
		pd_dbname_clear(&d);
	}
	pd_dbindex_free(ix);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("nodes=%zu dbs=%zu decoded=%zu wall_s=%.3f\n", n, dbs.n, ok,
	       (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	pd_strv_free(&dbs);
	pd_run_free(run);
	return 0;
}
