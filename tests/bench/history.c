/* The history store at scale (scripts/bench): fills a SQLite store with RUNS generated
 * runs of FEATURES features each (history/gen.h) unless it holds them already, then
 * times adding one more run. Prints "runs=N features=F fill_s=X add_s=Y".
 * usage: pd_bench_history DB_PATH RUNS FEATURES */
#include "core/clock.h"
#include "history/db.h"
#include "history/gen.h"
#include "history/store.h"

#include <stdio.h>
#include <stdlib.h>

#define TEST "bench_hard_failover"

static int fail(const struct pd_err *err)
{
	fprintf(stderr, "pd_bench_history: %s\n", err->msg);
	return 1;
}

int main(int argc, char **argv)
{
	struct pd_err err = PD_ERR_INIT;
	struct pd_store *st;
	struct pd_store_run *runs;
	size_t n = 0, want, features;
	int added;
	if (argc != 4)
		return fprintf(stderr, "usage: pd_bench_history DB_PATH RUNS FEATURES\n"), 2;
	want = strtoul(argv[2], NULL, 10), features = strtoul(argv[3], NULL, 10);
	char url[4096];
	snprintf(url, sizeof(url), "sqlite:%s", argv[1]);
	struct pd_gen_opts g = {.test = TEST, .n_features = features, .seed = 5, .plant = 1};
	if (pd_store_open(&st, url, PD_STORE_WRITE, &err) < 0 ||
	    pd_store_runs(st, TEST, &runs, &n, &err) < 0)
		return fail(&err);
	pd_store_runs_free(runs, n);
	double t = pd_clock_now();
	/* filling only: no fsync per run (the timed add below has the defaults back) */
	pd_db_exec(st->db, "PRAGMA synchronous = OFF", NULL, 0, NULL, NULL, &err);
	pd_db_exec(st->db, "PRAGMA journal_mode = MEMORY", NULL, 0, NULL, NULL, &err);
	for (size_t i = n; i < want; i++) {
		struct pd_signature *s = pd_gen_run(&g, i);
		if (pd_store_add(st, s, NULL, &added, &err) < 0)
			return fail(&err);
		pd_signature_free(s);
	}
	double fill = pd_clock_now() - t;
	pd_db_exec(st->db, "PRAGMA journal_mode = DELETE", NULL, 0, NULL, NULL, &err);
	pd_db_exec(st->db, "PRAGMA synchronous = FULL", NULL, 0, NULL, NULL, &err);
	struct pd_signature *s = pd_gen_run(&g, want + 1000000);
	t = pd_clock_now();
	if (pd_store_add(st, s, NULL, &added, &err) < 0)
		return fail(&err);
	double add = pd_clock_now() - t;
	/* and out again, so that the store stays at RUNS for the next repetition */
	const char *p[] = {s->key};
	pd_db_exec(st->db,
		   "DELETE FROM run_features WHERE run_id = (SELECT id FROM runs WHERE run_key "
		   "= $1)",
		   p, 1, NULL, NULL, &err);
	pd_db_exec(st->db, "DELETE FROM runs WHERE run_key = $1", p, 1, NULL, NULL, &err);
	pd_signature_free(s);
	pd_store_close(st);
	printf("runs=%zu features=%zu fill_s=%.3f add_s=%.4f\n", want, features, fill, add);
	return added ? 0 : 1;
}
