/* Prints what perfdelta reads from each perfrunner config named on stdin (one path a
 * line), in the format tests/conformance/configparser_ref.py prints Python's reading:
 * "<path>\t<key>\t<value>" lines, or "<path>\tREJECT\t<message>". */
#include "core/src.h"
#include "core/buf.h"
#include "core/file.h"
#include "parse/ini.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put(const char *path, const char *key, const char *value)
{
	printf("%s\t%s\t", path, key);
	for (const char *p = value ? value : ""; *p; p++)
		fputs(*p == '\n' ? "\\n" : *p == '\t' ? "\\t" : (char[]){*p, 0}, stdout);
	putchar('\n');
}

static void services_of(char *out, size_t n, unsigned bits)
{
	out[0] = '\0';
	/* sorted by name, as the reference sorts them */
	static const char *const names[] = {"backup", "cbas", "eventing", "fts",
					    "index",  "kv",   "n1ql"};
	for (size_t i = 0; i < 7; i++)
		if (bits & pd_service_parse(names[i], strlen(names[i])))
			snprintf(out + strlen(out), n - strlen(out), "%s%s", out[0] ? "," : "",
				 names[i]);
}

static void dump_spec(const char *path, struct pd_run *run)
{
	char svc[64], key[32];
	put(path, "cluster", run->cluster);
	for (size_t i = 0; i < run->n_nodes; i++) {
		services_of(svc, sizeof(svc), run->nodes[i].services);
		snprintf(key, sizeof(key), "node%zu", i);
		printf("%s\t%s\t%s %s %s\n", path, key, run->nodes[i].host, svc,
		       run->nodes[i].first ? pd_service_name(run->nodes[i].first) : "-");
	}
	for (size_t i = 0; i < run->clients.n; i++)
		put(path, "client", run->clients.v[i]);
}

static void dump_test(const char *path, const struct pd_testcfg *c)
{
	char n[32];
	put(path, "test", c->test);
	put(path, "title", c->title);
	put(path, "shutdown_type", c->shutdown_type);
	snprintf(n, sizeof(n), "%d", c->initial_nodes);
	put(path, "initial_nodes", n);
	snprintf(n, sizeof(n), "%ld", c->access_time_s);
	put(path, "access_time", n);
	snprintf(n, sizeof(n), "%d", c->stats_interval_s);
	put(path, "interval", n);
	snprintf(n, sizeof(n), "%d", c->post_to_sf);
	put(path, "post_to_sf", n);
}

static void one(const char *path)
{
	struct pd_buf data = PD_BUF_INIT;
	struct pd_err err = PD_ERR_INIT;
	struct pd_run *run = pd_run_new("");
	int is_spec = pd_str_ends_with(path, ".spec"), rc;
	if ((rc = pd_file_read(&data, path, pd_limits_default.max_file_bytes, &err)) == 0) {
		struct pd_src src = {data.ptr, data.len, path, &pd_limits_default};
		struct pd_ini *ini = is_spec ? &run->spec : &run->test;
		if ((rc = pd_ini_parse(ini, &src, &err)) == 0)
			rc = is_spec ? pd_spec_load(run, ini, &err)
				     : pd_testcfg_load(&run->cfg, ini, &err);
	}
	if (rc < 0)
		put(path, "REJECT", err.msg);
	else if (is_spec)
		dump_spec(path, run);
	else
		dump_test(path, &run->cfg);
	pd_run_free(run);
	pd_buf_release(&data);
}

int main(void)
{
	char line[4096];
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0])
			one(line);
	}
	return 0;
}
