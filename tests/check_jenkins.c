/* The Jenkins build readers: api/json (cJSON) and api/xml (libxml2). Expected values are
 * read off the fixture files by hand (line numbers and columns counted in an editor and
 * cross-checked with python's str.index where noted). */
#include "check_suites.h"
#include "core/buf.h"
#include "parse/jenkins.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define JDIR PD_SOURCE_DIR "/fixtures/jenkins/"
#define FDIR PD_FORMATS_DIR "/jenkins/"

typedef int (*parse_fn)(struct pd_jenkins *, const struct pd_src *, struct pd_err *);

/* One parse of a string; the run owns what was read, even on error. */
struct result {
	struct pd_run *run;
	struct pd_jenkins *j;
	struct pd_err err;
	int rc;
	double seconds;
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct result parse_mem(parse_fn fn, const char *data, size_t len, const char *path,
			       const struct pd_limits *lim)
{
	struct result r = {pd_run_new("run"), NULL, PD_ERR_INIT, 0, 0};
	struct pd_src src = {data, len, path, lim ? lim : &pd_limits_default};
	double t0 = now();
	r.j = &r.run->jenkins;
	r.rc = fn(r.j, &src, &r.err);
	r.seconds = now() - t0;
	return r;
}

static struct result parse_str(parse_fn fn, const char *s)
{
	return parse_mem(fn, s, strlen(s), "build.json", NULL);
}

static struct result parse_file(parse_fn fn, const char *path)
{
	size_t len;
	char *data = pd_test_slurp(path, &len);
	struct result r = parse_mem(fn, data, len, path, NULL);
	free(data);
	return r;
}

static void done(struct result *r)
{
	pd_run_free(r->run);
}

#define ck_assert_param(j, name, value) ck_assert_str_eq(pd_jenkins_param(j, name), value)

/* jenkins-rest build-info.json: "number" : 10, "result" : "SUCCESS", "timestamp" :
 * 1461091892486, "duration" : 60750, no "_class", url .../job/fish/10/, parameters
 * bear = true (a JSON boolean) and fish = "salmon"; actions hold a {} entry. */
START_TEST(test_json_reads_build_info)
{
	struct result r =
		parse_file(pd_jenkins_json_parse, FDIR "jenkins-rest__build-info.json");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_int_eq(r.j->present, 1);
	ck_assert_str_eq(r.j->path, FDIR "jenkins-rest__build-info.json");
	ck_assert_ptr_null(r.j->klass);
	ck_assert_int_eq(r.j->number, 10);
	ck_assert_str_eq(r.j->id, "10");
	ck_assert_str_eq(r.j->result, "SUCCESS");
	ck_assert_int_eq(r.j->building, 0);
	ck_assert_int_eq(r.j->timestamp_ms, 1461091892486LL);
	ck_assert_int_eq(r.j->duration_ms, 60750);
	ck_assert_str_eq(r.j->url, "http://localhost:32769/job/fish/10/");
	ck_assert_str_eq(r.j->display_name, "#10");
	ck_assert_str_eq(r.j->full_display_name, "fish #10");
	ck_assert_str_eq(r.j->job, "fish");
	ck_assert_uint_eq(r.j->n_params, 2);
	ck_assert_str_eq(r.j->params[0].name, "bear");
	ck_assert_str_eq(r.j->params[0].value, "true");
	ck_assert_param(r.j, "fish", "salmon");
	ck_assert_ptr_null(pd_jenkins_param(r.j, "cluster"));
	done(&r);
}
END_TEST

/* -git-commit.json has "id" and "timestamp" inside changeSets[].items[] too: only the
 * build's own (top-level "id" : "10") count. */
START_TEST(test_json_ignores_nested_fields_of_changesets)
{
	struct result r = parse_file(pd_jenkins_json_parse,
				     FDIR "jenkins-rest__build-info-git-commit.json");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.j->id, "10");
	ck_assert_int_eq(r.j->number, 10);
	ck_assert_int_eq(r.j->timestamp_ms, 1461091892486LL);
	ck_assert_str_eq(r.j->result, "SUCCESS");
	ck_assert_uint_eq(r.j->n_params, 2);
	ck_assert_param(r.j, "bear", "true");
	ck_assert_param(r.j, "fish", "salmon");
	done(&r);
}
END_TEST

/* -no-params.json: "_class" : "org.jenkinsci.plugins.workflow.job.WorkflowRun", nine
 * actions of which six are {} and none has parameters. */
START_TEST(test_json_reads_class_and_no_parameters)
{
	struct result r = parse_file(pd_jenkins_json_parse,
				     FDIR "jenkins-rest__build-info-no-params.json");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.j->klass, "org.jenkinsci.plugins.workflow.job.WorkflowRun");
	ck_assert_uint_eq(r.j->n_params, 0);
	ck_assert_int_eq(r.j->number, 10);
	ck_assert_str_eq(r.j->result, "SUCCESS");
	ck_assert_int_eq(r.j->timestamp_ms, 1461091892486LL);
	done(&r);
}
END_TEST

/* job-info.json is /job/fish/api/json: it has builds[].number and nextBuildNumber but no
 * top-level "number"; a build needs one, so it is rejected where the object starts. */
START_TEST(test_json_rejects_job_info_as_not_a_build)
{
	struct result r = parse_file(pd_jenkins_json_parse, FDIR "jenkins-rest__job-info.json");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_int_eq(r.err.code, PD_EPARSE);
	ck_assert_ptr_nonnull(strstr(r.err.msg, "not a build: no 'number'"));
	ck_assert_ptr_nonnull(strstr(r.err.msg, "job's api/json"));
	ck_assert_int_eq(r.err.line, 1);
	ck_assert_int_eq(r.err.col, 1);
	ck_assert_int_eq(r.j->present, 0);
	done(&r);
}
END_TEST

/* build-compact.json: no _class, actions [null, {}, parameters, causes], result null
 * while building, a folder url /job/perf/job/iris-multi-query/12082/, and parameter
 * values false, 3, 2.50 and -1E+3 that must stay as written (cJSON would print 2.5). */
START_TEST(test_json_reads_compact_build_with_null_actions_and_folder)
{
	struct result r = parse_file(pd_jenkins_json_parse, JDIR "build-compact.json");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_ptr_null(r.j->klass);
	ck_assert_ptr_null(r.j->result);
	ck_assert_int_eq(r.j->building, 1);
	ck_assert_int_eq(r.j->number, 12082);
	ck_assert_str_eq(r.j->id, "12082");
	/* 2026-11-02T17:57:50Z: (20759 days * 86400 + 64670 s) * 1000, date -u agrees */
	ck_assert_int_eq(r.j->timestamp_ms, 1793642270000LL);
	ck_assert_int_eq(r.j->duration_ms, 0);
	ck_assert_str_eq(r.j->job, "perf/iris-multi-query");
	ck_assert_uint_eq(r.j->n_params, 5);
	ck_assert_param(r.j, "cluster", "iris_extra_n1ql.spec");
	ck_assert_param(r.j, "dry_run", "false");
	ck_assert_param(r.j, "iterations", "3");
	ck_assert_param(r.j, "ratio", "2.50");
	ck_assert_param(r.j, "big", "-1E+3");
	done(&r);
}
END_TEST

START_TEST(test_json_job_falls_back_to_full_display_name)
{
	struct result r = parse_str(pd_jenkins_json_parse,
				    "{\"number\":3,\"fullDisplayName\":\"a #b #3\"}");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.j->job, "a #b"); /* before the last " #" */
	done(&r);

	r = parse_str(pd_jenkins_json_parse, "{\"number\":3}");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_ptr_null(r.j->job);
	done(&r);
}
END_TEST

/* {"number": "12"}: the value "12" starts at offset 11 (python: s.index('"12"') == 11),
 * so column 12. */
START_TEST(test_json_rejects_string_number_naming_the_field)
{
	struct result r = parse_str(pd_jenkins_json_parse, "{\"number\": \"12\"}");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_str_eq(r.err.msg, "expected a whole number of 0 or more for 'number'");
	ck_assert_int_eq(r.err.line, 1);
	ck_assert_int_eq(r.err.col, 12);
	ck_assert_int_eq(r.j->present, 0);
	done(&r);
}
END_TEST

/* Line 4 is `  "result": 42`: two blanks, "result" in columns 3-10, ':' 11, blank 12,
 * 42 at column 13. */
START_TEST(test_json_wrong_type_points_at_the_value)
{
	struct result r =
		parse_str(pd_jenkins_json_parse, "{\n  \"actions\": [],\n"
						 "  \"number\": 12,\n  \"result\": 42\n}");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_str_eq(r.err.msg, "expected a string for 'result'");
	ck_assert_int_eq(r.err.line, 4);
	ck_assert_int_eq(r.err.col, 13);
	done(&r);
}
END_TEST

START_TEST(test_json_rejects_other_wrong_types)
{
	static const char *const cases[][2] = {
		{"{\"number\": 1.5}", "expected a whole number of 0 or more for 'number'"},
		/* negative: a build "#-5, started 1969" (was read) */
		{"{\"number\": -5}", "expected a whole number of 0 or more for 'number'"},
		{"{\"number\": 1, \"timestamp\": -1}",
		 "expected a whole number of 0 or more for 'timestamp'"},
		{"{\"number\": 1, \"timestamp\": \"1461091892486\"}",
		 "expected a whole number of 0 or more for 'timestamp'"},
		{"{\"number\": 1, \"duration\": 1e300}",
		 "expected a whole number of 0 or more for 'duration'"},
		{"{\"number\": 1, \"building\": \"false\"}",
		 "expected true or false for 'building'"},
		{"{\"number\": 1, \"_class\": 7}", "expected a string for '_class'"},
		{"{\"number\": 1, \"url\": []}", "expected a string for 'url'"},
		{"{\"number\": 1, \"actions\": {}}", "expected an array for 'actions'"},
		{"{\"number\": 1, \"actions\": [{\"parameters\": [7]}]}",
		 "expected an object for 'parameters'"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct result r = parse_str(pd_jenkins_json_parse, cases[i][0]);
		ck_assert_int_eq(r.rc, PD_EPARSE);
		ck_assert_str_eq(r.err.msg, cases[i][1]);
		done(&r);
	}
}
END_TEST

/* {"number":1,"actions":[{},{"parameters":[{"name":5,"value":"x"}]}]}: the 5 is at offset
 * 49 (counted, and python: s.index('5,') == 49), column 50. */
START_TEST(test_json_parameter_name_type_error_points_into_actions)
{
	struct result r =
		parse_str(pd_jenkins_json_parse,
			  "{\"number\":1,\"actions\":[{},{\"parameters\":[{\"name\":5,"
			  "\"value\":\"x\"}]}]}");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_str_eq(r.err.msg, "expected a string for 'name'");
	ck_assert_int_eq(r.err.col, 50);
	done(&r);
}
END_TEST

START_TEST(test_json_parameter_values_of_every_kind)
{
	struct result r =
		parse_str(pd_jenkins_json_parse,
			  "{\"number\":1,\"actions\":[{\"parameters\":["
			  "{\"name\":\"s\",\"value\":\"text\"},{\"name\":\"t\",\"value\":true},"
			  "{\"name\":\"n\",\"value\":null},{\"name\":\"m\"},"
			  "{\"name\":\"o\",\"value\":{\"a\": [1, 2]}},"
			  "{\"name\":\"e\",\"value\":  0.000}]}]}");
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(r.j->n_params, 6);
	ck_assert_param(r.j, "s", "text");
	ck_assert_param(r.j, "t", "true");
	ck_assert_param(r.j, "n", "");
	ck_assert_param(r.j, "m", "");
	ck_assert_param(r.j, "o", "{\"a\":[1,2]}");
	ck_assert_param(r.j, "e", "0.000");
	done(&r);
}
END_TEST

/* A missing comma: line 4 begins the next member where ',' was expected. */
START_TEST(test_json_syntax_error_has_line)
{
	struct result r = parse_str(pd_jenkins_json_parse,
				    "{\n\"number\": 1,\n\"id\": \"1\"\n\"result\": null}");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_int_eq(r.err.line, 4);
	ck_assert_ptr_nonnull(strstr(r.err.msg, "expected valid JSON"));
	ck_assert_str_eq(r.err.path, "build.json");
	done(&r);

	/* raw input bytes never reach the message unprintable */
	r = parse_str(pd_jenkins_json_parse, "{\"number\": \x01\xff\n}");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_ptr_null(strchr(r.err.msg, '\xff'));
	ck_assert_ptr_null(strchr(r.err.msg, '\x01'));
	done(&r);
}
END_TEST

/* build-info.json cut after its first 700 bytes: still inside "actions". */
START_TEST(test_json_truncated_file_is_unexpected_end)
{
	size_t len;
	char *data = pd_test_slurp(FDIR "jenkins-rest__build-info.json", &len);
	long lines = 1;
	ck_assert_uint_gt(len, 700);
	for (size_t i = 0; i < 700; i++)
		lines += data[i] == '\n';
	struct result r = parse_mem(pd_jenkins_json_parse, data, 700, "cut.json", NULL);
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_ptr_nonnull(strstr(r.err.msg, "unexpected end of input"));
	ck_assert_int_eq(r.err.line, lines);
	done(&r);
	free(data);

	r = parse_str(pd_jenkins_json_parse, "{\"number\": 1, \"id\": \"12");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_ptr_nonnull(strstr(r.err.msg, "unexpected end of input"));
	done(&r);
}
END_TEST

START_TEST(test_json_rejects_non_objects_and_trailing_data)
{
	struct result r = parse_str(pd_jenkins_json_parse, "");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_str_eq(r.err.msg, "empty file: expected a JSON object");
	done(&r);
	r = parse_str(pd_jenkins_json_parse, "[{\"number\": 1}]");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_str_eq(r.err.msg, "expected a JSON object (a build's api/json)");
	done(&r);
	r = parse_str(pd_jenkins_json_parse, "{\"number\": 1} {}");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_str_eq(r.err.msg, "expected end of input after the JSON object");
	ck_assert_int_eq(r.err.col, 15); /* the second '{' is at offset 14 */
	done(&r);
}
END_TEST

static char *nested(size_t depth)
{
	const char *head = "{\"number\": 1, \"actions\": ";
	size_t h = strlen(head), n = h + 2 * depth + 2;
	char *s = malloc(n);
	memcpy(s, head, h);
	memset(s + h, '[', depth);
	memset(s + h + depth, ']', depth);
	s[n - 2] = '}';
	s[n - 1] = '\0';
	return s;
}

/* The root object is level 1, so 64 brackets make 65 levels: over the default 64. */
START_TEST(test_json_nesting_over_max_depth_is_limit)
{
	char *s = nested(63);
	struct result r = parse_str(pd_jenkins_json_parse, s);
	ck_assert_int_eq(r.rc, 0);
	done(&r);
	free(s);

	s = nested(64);
	r = parse_str(pd_jenkins_json_parse, s);
	ck_assert_int_eq(r.rc, PD_ELIMIT);
	ck_assert_ptr_nonnull(strstr(r.err.msg, "nested deeper than 64"));
	ck_assert_int_eq(r.err.col, 89); /* head is 25 bytes: 64th '[' at offset 88 */
	done(&r);
	free(s);
}
END_TEST

/* With our limit lifted, cJSON's own (1000) still stops 5000 levels without a crash. */
START_TEST(test_json_deep_nesting_never_crashes)
{
	struct pd_limits lim = pd_limits_default;
	char *s = nested(5000);
	lim.max_depth = 100000;
	struct result r = parse_mem(pd_jenkins_json_parse, s, strlen(s), "deep.json", &lim);
	ck_assert_int_eq(r.rc, PD_EPARSE);
	done(&r);
	free(s);
}
END_TEST

/* The browser capture minus its banner line: root <freeStyleBuild
 * _class="hudson.model.FreeStyleBuild">, <number>46047</number>, <result>FAILURE</result>,
 * <timestamp>1571320100749</timestamp> (changeSet items hold other <timestamp>s),
 * <duration>141763</duration>, a url with newlines around it, five parameters. */
START_TEST(test_xml_reads_gerrit_capture)
{
	struct result r = parse_file(pd_jenkins_xml_parse, JDIR "gerrit-ci_build_api.xml");
	ck_assert_msg(r.rc == 0, "%s", r.err.msg);
	ck_assert_int_eq(r.j->present, 1);
	ck_assert_str_eq(r.j->path, JDIR "gerrit-ci_build_api.xml");
	ck_assert_str_eq(r.j->klass, "hudson.model.FreeStyleBuild");
	ck_assert_int_eq(r.j->number, 46047);
	ck_assert_str_eq(r.j->id, "46047");
	ck_assert_str_eq(r.j->result, "FAILURE");
	ck_assert_int_eq(r.j->building, 0);
	ck_assert_int_eq(r.j->timestamp_ms, 1571320100749LL);
	ck_assert_int_eq(r.j->duration_ms, 141763);
	ck_assert_str_eq(r.j->url,
			 "https://gerrit-ci.gerritforge.com/job/Gerrit-codestyle/46047/");
	ck_assert_str_eq(r.j->display_name, "#46047");
	ck_assert_str_eq(r.j->full_display_name, "Gerrit-codestyle #46047");
	ck_assert_str_eq(r.j->job, "Gerrit-codestyle");
	ck_assert_uint_eq(r.j->n_params, 5);
	ck_assert_str_eq(r.j->params[0].name, "REFSPEC");
	ck_assert_str_eq(r.j->params[0].value, "refs/changes/46/241546/4");
	ck_assert_param(r.j, "BRANCH", "607c3f853f4cb489811fa77bfcad7a638fff898e");
	ck_assert_param(r.j, "MODE", "reviewdb");
	ck_assert_param(r.j, "CHANGE_URL",
			"https://gerrit-review.googlesource.com/#/c/241546/4");
	ck_assert_str_eq(r.j->params[4].name, "TARGET_BRANCH");
	ck_assert_str_eq(r.j->params[4].value, "stable-2.14");
	done(&r);
}
END_TEST

/* The capture as stored, banner and all: line 1 is prose, not XML. */
START_TEST(test_xml_rejects_browser_banner)
{
	struct result r = parse_file(pd_jenkins_xml_parse,
				     FDIR "gerrit-ci_build_api_xml__browser_capture.xml.txt");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_int_eq(r.err.line, 1);
	ck_assert_int_eq(r.err.col, 1);
	ck_assert_ptr_nonnull(strstr(r.err.msg, "malformed XML: start tag expected"));
	ck_assert_int_eq(r.j->present, 0);
	done(&r);
}
END_TEST

/* build-compact.xml, written by hand: one line, single quotes, <action/> entries, and a
 * value "a &amp; b &lt;c&gt; &#233;" that decodes to "a & b <c> " + U+00E9 (C3 A9). */
START_TEST(test_xml_reads_one_line_single_quoted_build)
{
	struct result r = parse_file(pd_jenkins_xml_parse, JDIR "build-compact.xml");
	ck_assert_msg(r.rc == 0, "%s", r.err.msg);
	ck_assert_str_eq(r.j->klass, "org.jenkinsci.plugins.workflow.job.WorkflowRun");
	ck_assert_int_eq(r.j->number, 12082);
	ck_assert_str_eq(r.j->result, "UNSTABLE");
	ck_assert_int_eq(r.j->building, 0);
	ck_assert_int_eq(r.j->timestamp_ms, 1793642270000LL);
	ck_assert_int_eq(r.j->duration_ms, 3185000);
	ck_assert_str_eq(r.j->job, "iris-multi-query");
	ck_assert_str_eq(r.j->full_display_name, "iris-multi-query #12082");
	ck_assert_uint_eq(r.j->n_params, 5);
	ck_assert_param(r.j, "cluster", "iris_extra_n1ql.spec");
	ck_assert_param(
		r.j, "test_config",
		"n1ql/collections/n1ql_thr_Q3_20M_gsi_plasma_ok_hard_failover_1s_1c_1i.test");
	ck_assert_param(r.j, "version", "7.1.0-1345");
	ck_assert_param(r.j, "dry_run", "false");
	ck_assert_param(r.j, "note", "a & b <c> \xc3\xa9");
	done(&r);
}
END_TEST

/* Each hostile file must fail at its DOCTYPE, quickly, with a message that says so. */
static void check_hostile(const char *file, long line)
{
	struct result r = parse_file(pd_jenkins_xml_parse, file);
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_msg(r.seconds < 1.0, "%s took %.3f s", file, r.seconds);
	ck_assert_ptr_nonnull(strstr(r.err.msg, "unexpected DOCTYPE"));
	ck_assert_ptr_nonnull(strstr(r.err.msg, "entity"));
	ck_assert_int_eq(r.err.line, line);
	ck_assert_int_eq(r.j->present, 0);
	ck_assert_uint_eq(r.j->n_params, 0);
	done(&r);
}

START_TEST(test_xml_rejects_billion_laughs_fast)
{
	check_hostile(JDIR "billion-laughs.xml", 2); /* line 2: "<!DOCTYPE lolz [" */
}
END_TEST

START_TEST(test_xml_rejects_external_entity_fast)
{
	check_hostile(JDIR "xxe.xml", 1);
}
END_TEST

START_TEST(test_xml_rejects_external_dtd_fast)
{
	check_hostile(JDIR "external-dtd.xml", 1);
}
END_TEST

/* Without a DOCTYPE only the five predefined entities exist: &e; is an error. */
START_TEST(test_xml_rejects_undeclared_entity)
{
	struct result r = parse_file(pd_jenkins_xml_parse, JDIR "undeclared-entity.xml");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_ptr_nonnull(strstr(r.err.msg, "entity"));
	ck_assert_ptr_nonnull(strstr(r.err.msg, "'e'"));
	ck_assert_int_eq(r.err.line, 1);
	done(&r);
}
END_TEST

/* libxml2's message quotes the input's names: one of 300 bytes is kept with the rest of
 * the message after it (a 200-byte copy cut it off, and the name it expected with it). */
START_TEST(test_xml_error_keeps_a_long_name_and_the_rest)
{
	struct pd_buf xml = PD_BUF_INIT, name = PD_BUF_INIT, want = PD_BUF_INIT;
	while (name.len < 300)
		pd_buf_adds(&name, "abcdefghij");
	pd_buf_addf(&xml, "<freeStyleBuild><%s>1</x></freeStyleBuild>", name.ptr);
	struct result r = parse_str(pd_jenkins_xml_parse, xml.ptr);
	ck_assert_int_eq(r.rc, PD_EPARSE);
	/* libxml2: "Opening and ending tag mismatch: NAME line 1 and x" */
	pd_buf_addf(&want, "malformed XML: opening and ending tag mismatch: %s line 1 and x",
		    name.ptr);
	ck_assert_str_eq(r.err.msg, want.ptr);
	done(&r);
	pd_buf_release(&xml), pd_buf_release(&name), pd_buf_release(&want);
}
END_TEST

START_TEST(test_xml_syntax_error_has_line_and_column)
{
	struct result r = parse_str(pd_jenkins_xml_parse,
				    "<freeStyleBuild>\n<number>1</number>\n<id>2</idx>\n"
				    "</freeStyleBuild>");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_int_eq(r.err.line, 3);
	ck_assert_int_gt(r.err.col, 0);
	ck_assert_ptr_nonnull(strstr(r.err.msg, "malformed XML: "));
	ck_assert_ptr_nonnull(strstr(r.err.msg, "id"));
	done(&r);

	r = parse_str(pd_jenkins_xml_parse, "");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_str_eq(r.err.msg, "empty file: expected an XML element");
	done(&r);

	r = parse_str(pd_jenkins_xml_parse, "<freeStyleBuild><number>1</number>");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_ptr_nonnull(strstr(r.err.msg, "malformed XML: "));
	done(&r);
}
END_TEST

START_TEST(test_xml_rejects_wrong_types_naming_the_element)
{
	struct result r =
		parse_str(pd_jenkins_xml_parse,
			  "<freeStyleBuild>\n<number>twelve</number></freeStyleBuild>");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_str_eq(r.err.msg,
			 "expected a whole number of 0 or more in <number>, got 'twelve'");
	ck_assert_int_eq(r.err.line, 2);
	done(&r);

	r = parse_str(pd_jenkins_xml_parse,
		      "<b><number>1</number><timestamp>12x</timestamp></b>");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_str_eq(r.err.msg,
			 "expected a whole number of 0 or more in <timestamp>, got '12x'");
	done(&r);

	/* negative (was read: a build "#-5") */
	r = parse_str(pd_jenkins_xml_parse, "<b><number>-5</number></b>");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_str_eq(r.err.msg,
			 "expected a whole number of 0 or more in <number>, got '-5'");
	done(&r);

	r = parse_str(pd_jenkins_xml_parse,
		      "<b><number>1</number><building>yes</building></b>");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_str_eq(r.err.msg, "expected true or false in <building>, got 'yes'");
	done(&r);
}
END_TEST

/* A job's api/xml (<freeStyleProject>) has builds but no <number> of its own. */
START_TEST(test_xml_rejects_a_job_as_not_a_build)
{
	struct result r = parse_str(pd_jenkins_xml_parse,
				    "<freeStyleProject _class='hudson.model.FreeStyleProject'>"
				    "<build><number>7</number></build><name>fish</name>"
				    "</freeStyleProject>");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_str_eq(r.err.msg, "not a build: no <number> in <freeStyleProject>");
	done(&r);
}
END_TEST

/* Root at level 1, <action> at 2, then 63 <a> make 65 levels: over the default 64. */
START_TEST(test_xml_nesting_over_max_depth_is_limit)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_adds(&b, "<workflowRun><number>1</number><action>");
	for (int i = 0; i < 63; i++)
		pd_buf_adds(&b, "<a>");
	for (int i = 0; i < 63; i++)
		pd_buf_adds(&b, "</a>");
	pd_buf_adds(&b, "</action></workflowRun>");
	struct result r = parse_mem(pd_jenkins_xml_parse, b.ptr, b.len, "deep.xml", NULL);
	ck_assert_int_eq(r.rc, PD_ELIMIT);
	ck_assert_str_eq(r.err.msg, "XML elements nested deeper than 64");
	done(&r);

	/* one <a> less: 64 levels are fine */
	pd_buf_truncate(&b, 0);
	pd_buf_adds(&b, "<workflowRun><number>1</number><action>");
	for (int i = 0; i < 62; i++)
		pd_buf_adds(&b, "<a>");
	for (int i = 0; i < 62; i++)
		pd_buf_adds(&b, "</a>");
	pd_buf_adds(&b, "</action></workflowRun>");
	r = parse_mem(pd_jenkins_xml_parse, b.ptr, b.len, "deep.xml", NULL);
	ck_assert_int_eq(r.rc, 0);
	done(&r);
	pd_buf_release(&b);
}
END_TEST

/* libxml2 prints to stderr by default; every message must land in the pd_err instead. */
START_TEST(test_xml_errors_never_reach_stderr)
{
	char path[] = "/tmp/pd_check_jenkins_XXXXXX";
	int fd = mkstemp(path), saved = dup(2);
	off_t size;
	ck_assert_int_ge(fd, 0);
	dup2(fd, 2);
	struct result r = parse_file(pd_jenkins_xml_parse, JDIR "undeclared-entity.xml");
	done(&r);
	r = parse_file(pd_jenkins_xml_parse, JDIR "xxe.xml");
	done(&r);
	r = parse_str(pd_jenkins_xml_parse, "<a><b></a>\xff\xfe");
	done(&r);
	r = parse_str(pd_jenkins_xml_parse, "<?xml version='1.0' encoding='bogus-9'?><a/>");
	done(&r);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	size = lseek(fd, 0, SEEK_END);
	close(fd);
	unlink(path);
	ck_assert_int_eq(size, 0);
}
END_TEST

START_TEST(test_jenkins_refuses_nul_in_a_string)
{
	/* a \u0000 (JSON) or a NUL character (XML: &#0; or the byte) would cut a label short */
	struct result r = parse_str(pd_jenkins_json_parse,
				    "{\"number\": 7,\n \"fullDisplayName\": \"a\\u0000b\"}");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	ck_assert_int_eq(r.err.line, 2);
	ck_assert_int_eq(r.err.col, 23);
	ck_assert_msg(strstr(r.err.msg, "NUL character") != NULL, "%s", r.err.msg);
	done(&r);
	r = parse_str(pd_jenkins_json_parse,
		      "{\"number\": 7, \"fullDisplayName\": \"a\\\\u0000b\"}");
	ck_assert_msg(r.rc == 0, "an escaped backslash then u0000 is text: %s", r.err.msg);
	done(&r);
	r = parse_str(
		pd_jenkins_xml_parse,
		"<freeStyleBuild><number>7</number><fullDisplayName>a&#0;b</fullDisplayName>"
		"</freeStyleBuild>");
	ck_assert_int_eq(r.rc, PD_EPARSE);
	done(&r);
	static const char raw[] = "<freeStyleBuild><number>7</number><fullDisplayName>a\0b"
				  "</fullDisplayName></freeStyleBuild>";
	r = parse_mem(pd_jenkins_xml_parse, raw, sizeof(raw) - 1, "build.xml", NULL);
	ck_assert_int_eq(r.rc, PD_EPARSE);
	done(&r);
}
END_TEST

Suite *pd_suite_jenkins(void)
{
	Suite *s = suite_create("jenkins");
	TCase *json = tcase_create("json");
	TCase *xml = tcase_create("xml");
	tcase_add_test(json, test_json_reads_build_info);
	tcase_add_test(json, test_json_ignores_nested_fields_of_changesets);
	tcase_add_test(json, test_json_reads_class_and_no_parameters);
	tcase_add_test(json, test_json_rejects_job_info_as_not_a_build);
	tcase_add_test(json, test_json_reads_compact_build_with_null_actions_and_folder);
	tcase_add_test(json, test_json_job_falls_back_to_full_display_name);
	tcase_add_test(json, test_json_rejects_string_number_naming_the_field);
	tcase_add_test(json, test_json_wrong_type_points_at_the_value);
	tcase_add_test(json, test_json_rejects_other_wrong_types);
	tcase_add_test(json, test_json_parameter_name_type_error_points_into_actions);
	tcase_add_test(json, test_json_parameter_values_of_every_kind);
	tcase_add_test(json, test_json_syntax_error_has_line);
	tcase_add_test(json, test_json_truncated_file_is_unexpected_end);
	tcase_add_test(json, test_json_rejects_non_objects_and_trailing_data);
	tcase_add_test(json, test_json_nesting_over_max_depth_is_limit);
	tcase_add_test(json, test_json_deep_nesting_never_crashes);
	tcase_add_test(xml, test_xml_reads_gerrit_capture);
	tcase_add_test(xml, test_xml_rejects_browser_banner);
	tcase_add_test(xml, test_xml_reads_one_line_single_quoted_build);
	tcase_add_test(xml, test_xml_rejects_billion_laughs_fast);
	tcase_add_test(xml, test_xml_rejects_external_entity_fast);
	tcase_add_test(xml, test_xml_rejects_external_dtd_fast);
	tcase_add_test(xml, test_xml_rejects_undeclared_entity);
	tcase_add_test(xml, test_xml_syntax_error_has_line_and_column);
	tcase_add_test(xml, test_xml_error_keeps_a_long_name_and_the_rest);
	tcase_add_test(xml, test_xml_rejects_wrong_types_naming_the_element);
	tcase_add_test(xml, test_xml_rejects_a_job_as_not_a_build);
	tcase_add_test(xml, test_xml_nesting_over_max_depth_is_limit);
	tcase_add_test(xml, test_xml_errors_never_reach_stderr);
	tcase_add_test(xml, test_jenkins_refuses_nul_in_a_string);
	suite_add_tcase(s, json);
	suite_add_tcase(s, xml);
	return s;
}
