#include "check_suites.h"

#include "core/err.h"
#include "core/model.h"
#include "core/src.h"
#include "parse/perfdb.h"

#include <cJSON.h>

#include <math.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIXTURE(name) PD_SOURCE_DIR "/fixtures/perfdb/" name

static const struct pd_limits lim_default = PD_LIMITS_DEFAULT;

static void series_release(struct pd_series *s)
{
	free(s->t_ms);
	free(s->v);
	free(s->req_t_ms);
	free(s->req_v);
	memset(s, 0, sizeof(*s));
}

/* body must be NUL-terminated at body[n], as every pd_src. */
static int json_n(struct pd_series *s, const char *body, size_t n, struct pd_err *err)
{
	struct pd_src src = {body, n, "m.json", &lim_default};
	return pd_perfdb_json_parse(s, &src, err);
}

static int json(struct pd_series *s, const char *body, struct pd_err *err)
{
	return json_n(s, body, strlen(body), err);
}

static void assert_bits_eq(double got, double want)
{
	ck_assert_msg(!memcmp(&got, &want, sizeof(got)), "got %.17g, want %.17g", got, want);
}

/* ---- good perfdb JSON bodies ------------------------------------------------------- */

START_TEST(test_perfdb_json_reads_compact_body)
{
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(json(&s,
			      "[[1700000000123, 12.5], [1700000005120,13],"
			      "[1700000010001, 1.2e3]]",
			      &err),
			 0);
	ck_assert_uint_eq(s.n, 3);
	ck_assert(s.t_ms[0] == 1700000000123);
	ck_assert(s.t_ms[1] == 1700000005120);
	ck_assert(s.t_ms[2] == 1700000010001);
	ck_assert_double_eq(s.v[0], 12.5);
	ck_assert_double_eq(s.v[1], 13.0);
	ck_assert_double_eq(s.v[2], 1200.0); /* 1.2e3 = 1.2 * 1000 */
	ck_assert_uint_eq(s.n_dup, 0);
	ck_assert_uint_eq(s.n_unsorted, 0);
	series_release(&s);
}
END_TEST

START_TEST(test_perfdb_json_reads_any_rfc_whitespace)
{
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(
		json(&s,
		     " \r\n[\n\t[ 1700000000123 ,\t12.5 ] ,\r\n  [1700000005120,13]\n]\n\t ",
		     &err),
		0);
	ck_assert_uint_eq(s.n, 2);
	ck_assert(s.t_ms[1] == 1700000005120);
	ck_assert_double_eq(s.v[0], 12.5);
	series_release(&s);
}
END_TEST

START_TEST(test_perfdb_json_reads_exponents_and_negative_values)
{
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(
		json(&s, "[[1,-0.5],[2,2.5E-3],[3,-1e+2],[4,-0],[5,0.0],[6,1e-400]]", &err), 0);
	ck_assert_uint_eq(s.n, 6);
	assert_bits_eq(s.v[0], -0.5);
	assert_bits_eq(s.v[1],
		       0.0025); /* the compiler rounds the literal: an independent strtod */
	assert_bits_eq(s.v[2], -100.0);
	assert_bits_eq(s.v[3], -0.0); /* the sign of zero survives */
	assert_bits_eq(s.v[4], 0.0);
	assert_bits_eq(s.v[5], 0.0); /* underflows to 0 as strtod does: not an error */
	series_release(&s);
}
END_TEST

START_TEST(test_perfdb_json_reads_empty_array)
{
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(json(&s, "[]", &err), 0);
	ck_assert_int_eq(json(&s, " [ \n ] \n", &err), 0);
	ck_assert_uint_eq(s.n, 0);
	ck_assert_int_eq(err.code, 0);
	series_release(&s);
}
END_TEST

START_TEST(test_perfdb_json_sorts_and_keeps_last_duplicate)
{
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(json(&s, "[[30,3],[10,1],[20,2],[10,1.5],[30,3.5]]", &err), 0);
	/* arrival 30,10,20,10,30: a drop at 30->10 and at 20->10, so 2 unsorted; 10 and 30
	 * come twice, so 2 dropped, the later values (1.5, 3.5) kept */
	ck_assert_uint_eq(s.n, 3);
	ck_assert(s.t_ms[0] == 10 && s.t_ms[1] == 20 && s.t_ms[2] == 30);
	ck_assert_double_eq(s.v[0], 1.5);
	ck_assert_double_eq(s.v[1], 2.0);
	ck_assert_double_eq(s.v[2], 3.5);
	ck_assert_uint_eq(s.n_dup, 2);
	ck_assert_uint_eq(s.n_unsorted, 2);
	series_release(&s);
}
END_TEST

START_TEST(test_perfdb_json_timestamps_are_exact_integers)
{
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(
		json(&s,
		     "[[1.7e12,1],[1700000000123.0,2],[17000000001240e-1,3],[-5,4],[0.0,5],"
		     "[9007199254740993,6],[9.223372036854775807e18,7],"
		     "[-9223372036854775808,8],[-0,9]]",
		     &err),
		0);
	/* 1.7e12 = 1700000000000; 17000000001240e-1 = 1700000000124; 2^53 + 1 =
	 * 9007199254740993 (a double would make it ...992); 9.223372036854775807e18 =
	 * INT64_MAX; -0 and 0.0 are both 0, the later (-0 -> 9) wins */
	ck_assert_uint_eq(s.n, 8);
	ck_assert(s.t_ms[0] == INT64_MIN);
	ck_assert(s.t_ms[1] == -5);
	ck_assert(s.t_ms[2] == 0);
	ck_assert_double_eq(s.v[2], 9.0);
	ck_assert(s.t_ms[3] == 1700000000000);
	ck_assert(s.t_ms[4] == 1700000000123);
	ck_assert(s.t_ms[5] == 1700000000124);
	ck_assert(s.t_ms[6] == 9007199254740993);
	ck_assert(s.t_ms[7] == INT64_MAX);
	ck_assert_uint_eq(s.n_dup, 1);
	series_release(&s);
}
END_TEST

START_TEST(test_perfdb_json_reads_numbers_longer_than_the_stack_buffer)
{
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	char body[1024], zeros[256], sevens[256];
	/* 0.<120 zeros>1e125 is 1e4 exactly; 7.777... (121 digits) needs strtod on a copy
	 * longer than the 64-byte stack buffer */
	strcpy(zeros, "0.");
	memset(zeros + 2, '0', 120);
	strcpy(zeros + 122, "1e125");
	memset(sevens, '7', 122);
	sevens[1] = '.';
	sevens[122] = '\0';
	snprintf(body, sizeof(body), "[[1700000000123.%s,%s],[1,%s]]",
		 "00000000000000000000000000000000000000000000000000000000000000000000000000",
		 zeros, sevens);
	ck_assert_int_eq(json(&s, body, &err), 0);
	ck_assert(s.t_ms[1] == 1700000000123);
	assert_bits_eq(s.v[1], 1e4);
	assert_bits_eq(s.v[0], strtod(sevens, NULL));
	ck_assert_double_eq_tol(s.v[0], 70.0 / 9.0, 1e-14); /* 7.777... = 70/9 */
	series_release(&s);
}
END_TEST

/* ---- rejected perfdb JSON bodies ---------------------------------------------------- */

struct bad {
	const char *body;
	size_t len; /* 0: strlen */
	long line, col;
	const char *msg; /* a part of the message */
};

/* Columns by hand: col = byte offset + 1 on line 1. */
static const struct bad bad_json[] = {
	{"[[01,1]]", 0, 1, 4, "after a leading 0"},
	{"[[1,-01]]", 0, 1, 7, "after a leading 0"},
	{"[[1,00]]", 0, 1, 6, "after a leading 0"},
	{"[[-01,1]]", 0, 1, 5, "after a leading 0"},
	{"[[1,01.5]]", 0, 1, 6, "after a leading 0"},
	{"[[1,1.5.5]]", 0, 1, 8, "expected ']' after the value, found '.'"},
	{"[[12e,1]]", 0, 1, 6, "expected a digit in the exponent"},
	{"[[12345678a,1]]", 0, 1, 11, "expected ',' after the timestamp, found 'a'"},
	{"[[1,1234567:]]", 0, 1, 12, "expected ']' after the value, found ':'"},
	{"[[1,12345678/9]]", 0, 1, 13, "expected ']' after the value, found '/'"},
	{"[[1,+1]]", 0, 1, 5, "expected a number (the value), found '+'"},
	{"[[1,.5]]", 0, 1, 5, "expected a number (the value)"},
	{"[[1,-.5]]", 0, 1, 6, "expected a digit after '-'"},
	{"[[1,1.]]", 0, 1, 7, "expected a digit after '.'"},
	{"[[1,1.e5]]", 0, 1, 7, "expected a digit after '.'"},
	{"[[1,1e]]", 0, 1, 7, "expected a digit in the exponent"},
	{"[[1,1e+]]", 0, 1, 8, "expected a digit in the exponent"},
	{"[[1,0x10]]", 0, 1, 6, "expected ']' after the value, found 'x'"},
	{"[[1,1e5.5]]", 0, 1, 8, "expected ']' after the value"},
	{"[[1,NaN]]", 0, 1, 5, "found 'N'"},
	{"[[1,nan]]", 0, 1, 5, "expected a number (the value)"},
	{"[[1,Infinity]]", 0, 1, 5, "expected a number (the value)"},
	{"[[1,-Infinity]]", 0, 1, 6, "expected a digit after '-'"},
	{"[[-,1]]", 0, 1, 4, "expected a digit after '-'"},
	{"[[1,--1]]", 0, 1, 6, "expected a digit after '-'"},
	{"[[1,2],]", 0, 1, 8, "expected '[' to open a sample after ','"},
	{"[[1,2,]]", 0, 1, 6, "a sample has 2 elements"},
	{"[[1,2][3,4]]", 0, 1, 7, "expected ',' or ']' after a sample"},
	{"[[1 2]]", 0, 1, 5, "expected ',' after the timestamp"},
	{"[[1,2]]//c", 0, 1, 8, "expected the end of the input after the closing ']'"},
	{"/*c*/[[1,2]]", 0, 1, 1, "expected '[' to open the sample array"},
	{"[[1,2]", 0, 1, 7, "expected ',' or ']' after a sample, found the end of the input"},
	{"[[1,2", 0, 1, 6, "expected ']' after the value, found the end of the input"},
	{"[", 0, 1, 2, "expected '[' to open a sample or ']'"},
	{"", 0, 1, 1, "expected '[' to open the sample array, found the end of the input"},
	{"[[1,", 0, 1, 5, "expected a number (the value)"},
	{"[[1,2]] x", 0, 1, 9, "expected the end of the input"},
	{"[[1,2]]]", 0, 1, 8, "expected the end of the input"},
	{"[][]", 0, 1, 3, "expected the end of the input"},
	{"[[1,\"2\"]]", 0, 1, 5, "expected a number (the value), found '\"'"},
	{"[[1,null]]", 0, 1, 5, "expected a number (the value)"},
	{"[[1,true]]", 0, 1, 5, "expected a number (the value)"},
	{"[[1,false]]", 0, 1, 5, "expected a number (the value)"},
	{"[[1,{}]]", 0, 1, 5, "expected a number (the value)"},
	{"[[1,[2]]]", 0, 1, 5, "expected a number (the value)"},
	{"[[\"1\",2]]", 0, 1, 3, "expected a number (the timestamp)"},
	{"{\"a\":1}", 0, 1, 1, "expected '[' to open the sample array"},
	{"[1,2]", 0, 1, 2, "expected '[' to open a sample or ']'"},
	{"[[1]]", 0, 1, 4, "a sample has 2 elements"},
	{"[[1,2,3]]", 0, 1, 6, "a sample has 2 elements"},
	{"[[]]", 0, 1, 3, "expected a number (the timestamp)"},
	{"[\v]", 0, 1, 2, "found byte 0x0b"},
	{"[\f[1,2]]", 0, 1, 2, "found byte 0x0c"},
	{"[[1,2]]\0", 8, 1, 8, "found byte 0x00"},
	{"\xef\xbb\xbf[]", 0, 1, 1, "found byte 0xef"},
	{"[[1.5,1]]", 0, 1, 3, "expected an integer timestamp (epoch ms), found a fraction"},
	{"[[1700000000123.5,1]]", 0, 1, 3, "found a fraction"},
	{"[[1e-400,1]]", 0, 1, 3, "found a fraction"},
	{"[[9223372036854775808,1]]", 0, 1, 3, "timestamp out of range"},
	{"[[-9223372036854775809,1]]", 0, 1, 3, "timestamp out of range"},
	{"[[1e19,1]]", 0, 1, 3, "timestamp out of range"},
	{"[[1,1e999]]", 0, 1, 5, "number out of range: expected a finite double"},
	{"[[1,-1e999]]", 0, 1, 5, "number out of range"},
	/* line 3 is "  [3, x]": x is its 7th byte */
	{"[\n  [1, 2],\n  [3, x]\n]", 0, 3, 7, "expected a number (the value), found 'x'"},
	{"[\r\n[1,2],\r\n[3,4]\r\n]\r\n,", 0, 5, 1, "expected the end of the input"},
};

START_TEST(test_perfdb_json_rejects_what_rfc_8259_rejects)
{
	const struct bad *b = &bad_json[_i];
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	size_t n = b->len ? b->len : strlen(b->body);
	int rc = json_n(&s, b->body, n, &err);
	ck_assert_msg(rc == PD_EPARSE, "case %d: rc %d", _i, rc);
	ck_assert_msg(err.line == b->line && err.col == b->col,
		      "case %d: at %ld:%ld, want %ld:%ld (%s)", _i, err.line, err.col, b->line,
		      b->col, err.msg);
	ck_assert_msg(strstr(err.msg, b->msg) != NULL, "case %d: message \"%s\" lacks \"%s\"",
		      _i, err.msg, b->msg);
	ck_assert_str_eq(err.path, "m.json");
	ck_assert_uint_eq(s.n, 0);
	series_release(&s);
}
END_TEST

START_TEST(test_perfdb_json_error_keeps_samples_read_before)
{
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	pd_series_add(&s, 5, 50.0);
	ck_assert_int_eq(json(&s, "[[1,2],[3,4],[5,x]]", &err), PD_EPARSE);
	ck_assert_uint_eq(s.n, 1); /* [1,2] and [3,4] are taken back */
	ck_assert(s.t_ms[0] == 5);
	series_release(&s);
}
END_TEST

START_TEST(test_perfdb_json_limit_on_samples)
{
	struct pd_limits lim = PD_LIMITS_DEFAULT;
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	const char *three = "[[1,1],[2,2],[3,3]]", *four = "[[1,1],[2,2],[3,3],[4,4]]";
	struct pd_src src = {three, strlen(three), "m.json", &lim};
	lim.max_samples = 3;
	ck_assert_int_eq(pd_perfdb_json_parse(&s, &src, &err), 0);
	ck_assert_uint_eq(s.n, 3);
	series_release(&s);
	src.data = four;
	src.len = strlen(four);
	ck_assert_int_eq(pd_perfdb_json_parse(&s, &src, &err), PD_ELIMIT);
	ck_assert_uint_eq(s.n, 0);
	ck_assert_int_eq(err.col, 20); /* the 4th sample's '[' is byte 19 */
	ck_assert_ptr_nonnull(strstr(err.msg, "more than 3 samples"));
	ck_assert_ptr_nonnull(strstr(err.msg, "--max-samples"));
	series_release(&s);
}
END_TEST

/* ---- values as strtod reads them ---------------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rng(void) /* xorshift64: deterministic */
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void add_digits(char *p, size_t *k, int n, int lead_nonzero)
{
	for (int i = 0; i < n; i++)
		p[(*k)++] = (char)('0' + (lead_nonzero && i == 0 ? 1 + rng() % 9 : rng() % 10));
}

/* A random RFC number with 1-25 integer and 0-25 fraction digits and a small or large
 * exponent: the fast path's cases (<= 19 digits, |e| <= 22) and what lies beyond. */
static void random_number(char *out)
{
	size_t k = 0;
	int nint = 1 + (int)(rng() % 25);
	if (rng() % 2)
		out[k++] = '-';
	if (rng() % 4 == 0)
		out[k++] = '0';
	else
		add_digits(out, &k, nint, 1);
	if (rng() % 2) {
		out[k++] = '.';
		add_digits(out, &k, 1 + (int)(rng() % 25), 0);
	}
	if (rng() % 2)
		k += (size_t)sprintf(out + k, "e%d", (int)(rng() % 61) - 30);
	else if (rng() % 8 == 0)
		k += (size_t)sprintf(out + k, "E%+d", (int)(rng() % 700) - 350);
	out[k] = '\0';
}

START_TEST(test_perfdb_json_values_are_bit_identical_to_strtod)
{
	char tok[128], body[160];
	for (int i = 0; i < 20000; i++) {
		struct pd_series s = {0};
		struct pd_err err = PD_ERR_INIT;
		double want;
		random_number(tok);
		want = strtod(tok, NULL);
		snprintf(body, sizeof(body), "[[1,%s]]", tok);
		if (!isfinite(want)) {
			ck_assert_int_eq(json(&s, body, &err), PD_EPARSE);
			continue;
		}
		ck_assert_msg(json(&s, body, &err) == 0, "%s: %s", tok, err.msg);
		ck_assert_msg(!memcmp(&s.v[0], &want, sizeof(want)),
			      "%s: got %.17g, strtod %.17g", tok, s.v[0], want);
		series_release(&s);
	}
}
END_TEST

START_TEST(test_perfdb_json_integer_timestamps_round_trip)
{
	char body[64];
	for (int i = 0; i < 5000; i++) {
		struct pd_series s = {0};
		struct pd_err err = PD_ERR_INIT;
		int64_t t = (int64_t)(rng() >> (rng() % 64));
		if (i % 2 && t != INT64_MIN)
			t = -t;
		snprintf(body, sizeof(body), "[[%lld,0]]", (long long)t);
		ck_assert_msg(json(&s, body, &err) == 0, "%s: %s", body, err.msg);
		ck_assert_msg(s.t_ms[0] == t, "%s: got %lld", body, (long long)s.t_ms[0]);
		series_release(&s);
	}
}
END_TEST

/* The one-pass reader of the common tokens (up to 18 timestamp digits, 19 value digits,
 * values up to 2^53) against the exact ones at and past each of its limits: timestamps
 * against strtoll, values bit for bit against strtod. */
START_TEST(test_perfdb_json_fast_tokens_agree_at_their_limits)
{
	static const char *ts[] = {"0",
				   "-0",
				   "7",
				   "-7",
				   "999999999999999999",
				   "-999999999999999999",
				   "1000000000000000000",
				   "-1000000000000000000",
				   "9223372036854775807",
				   "-9223372036854775808",
				   "1796186830494"};
	static const char *val[] = {"0",
				    "-0",
				    "0.0",
				    "-0.0",
				    "0.000000000000000001",
				    "1.5",
				    "-1.5",
				    "9007199254740992",
				    "9007199254740993",
				    "-9007199254740993",
				    "9007199254740994",
				    "900719925474099.3",
				    "9999999999999999999",
				    "99999999999999999999",
				    "1234567890.123456789",
				    "1234567890.1234567891",
				    "0.1",
				    "0.3",
				    "123456789012345678.9",
				    "20742026239",
				    "3.0000000000000000001"};
	char body[96];
	for (size_t i = 0; i < sizeof(ts) / sizeof(*ts); i++) {
		struct pd_series s = {0};
		struct pd_err err = PD_ERR_INIT;
		snprintf(body, sizeof(body), "[[%s,1]]", ts[i]);
		ck_assert_msg(json(&s, body, &err) == 0, "%s: %s", body, err.msg);
		ck_assert_msg(s.t_ms[0] == strtoll(ts[i], NULL, 10), "%s: got %lld", body,
			      (long long)s.t_ms[0]);
		series_release(&s);
	}
	for (size_t i = 0; i < sizeof(val) / sizeof(*val); i++) {
		struct pd_series s = {0};
		struct pd_err err = PD_ERR_INIT;
		snprintf(body, sizeof(body), "[[1,%s]]", val[i]);
		ck_assert_msg(json(&s, body, &err) == 0, "%s: %s", body, err.msg);
		assert_bits_eq(s.v[0], strtod(val[i], NULL));
		series_release(&s);
	}
}
END_TEST

/* The digit reader takes eight bytes at a time where eight can be read and the last few
 * bytes of the input one by one: every token below is read both ways, alone in the body
 * (a value then has 2 bytes after it, a timestamp 4) and followed by 12 bytes of
 * whitespace, at 1-20 digits around the 8- and 16-digit steps, with sign, fraction and
 * exponent. The expected values are the tokens written as C literals (20 digits and 17
 * beyond 2^53 leave the fast path: the exact one must agree). */
START_TEST(test_perfdb_json_digits_read_eight_at_a_time_and_one_by_one)
{
	static const struct {
		const char *tok;
		double want;
	} val[] = {
		{"7", 7.0},
		{"-7", -7.0},
		{"1234567", 1234567.0},
		{"12345678", 12345678.0},
		{"-12345678", -12345678.0},
		{"123456789", 123456789.0},
		{"20742026239", 20742026239.0},
		{"123456781234567", 123456781234567.0},
		{"1234567812345678", 1234567812345678.0},
		{"9007199254740992", 9007199254740992.0},
		{"12345678123456789", 12345678123456789.0},
		{"1234567812345678901", 1234567812345678901.0},
		{"12345678123456789012", 12345678123456789012.0},
		{"1234567.8", 1234567.8},
		{"12345678.9", 12345678.9},
		{"-12345678.87654321", -12345678.87654321},
		{"0.12345678", 0.12345678},
		{"0.123456789", 0.123456789},
		{"8.7654321", 8.7654321},
		{"12345678e2", 1234567800.0},
		{"1.2345678E-3", 0.0012345678},
		{"-87654321.5e+1", -876543215.0},
	};
	static const struct {
		const char *tok;
		int64_t want;
	} ts[] = {
		{"1", 1},
		{"-1", -1},
		{"1234567", 1234567},
		{"12345678", 12345678},
		{"123456789", 123456789},
		{"1793643600038", 1793643600038},
		{"-1793643600038", -1793643600038},
		{"1234567812345678", 1234567812345678},
		{"123456781234567812", 123456781234567812},
		{"1234567812345678123", 1234567812345678123},
	};
	static const char *pad[] = {"", "            "};
	char body[96];
	for (size_t p = 0; p < 2; p++) {
		for (size_t i = 0; i < sizeof(val) / sizeof(*val); i++) {
			struct pd_series s = {0};
			struct pd_err err = PD_ERR_INIT;
			snprintf(body, sizeof(body), "[[1,%s]]%s", val[i].tok, pad[p]);
			ck_assert_msg(json(&s, body, &err) == 0, "%s: %s", body, err.msg);
			assert_bits_eq(s.v[0], val[i].want);
			series_release(&s);
		}
		for (size_t i = 0; i < sizeof(ts) / sizeof(*ts); i++) {
			struct pd_series s = {0};
			struct pd_err err = PD_ERR_INIT;
			snprintf(body, sizeof(body), "[[%s,1]]%s", ts[i].tok, pad[p]);
			ck_assert_msg(json(&s, body, &err) == 0, "%s: %s", body, err.msg);
			ck_assert_msg(s.t_ms[0] == ts[i].want, "%s: got %lld", body,
				      (long long)s.t_ms[0]);
			series_release(&s);
		}
	}
}
END_TEST

/* A non-digit right after 1-9 digits, inside an eight-byte step or at its edge, is
 * refused at its column as before (a letter, and a byte above 0x7f whose + 0x46 carries). */
START_TEST(test_perfdb_json_digits_stop_at_a_non_digit_in_a_step)
{
	static const struct {
		const char *body;
		long col;
	} bad[] = {
		{"[[1,1234567x]]            ", 12},
		{"[[1,12345678x]]           ", 13},
		{"[[1,123456789x]]          ", 14},
		{"[[12\xc0\x34,1]]            ", 5},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct pd_series s = {0};
		struct pd_err err = PD_ERR_INIT;
		ck_assert_int_eq(json(&s, bad[i].body, &err), PD_EPARSE);
		ck_assert_msg(err.col == bad[i].col, "%s: col %ld: %s", bad[i].body, err.col,
			      err.msg);
		series_release(&s);
	}
}
END_TEST

/* ---- the equivalence test: the scanner against cJSON + RFC 8259 ------------------- */

/* Where cJSON 1.7 is laxer than RFC 8259, the oracle below corrects it explicitly:
 * - numbers: cJSON hands any run of [0-9+-.eE] that starts with '-' or a digit to strtod,
 *   so it accepts 01, -01, 1., 1.e5 and -.5; every number token is checked against the
 *   RFC grammar (section 6) as a POSIX regex, independent of the scanner;
 * - whitespace: cJSON skips every byte <= 0x20 (NUL and \v included), RFC 8259 only
 *   space, tab, LF and CR; every such byte outside tokens is checked;
 * - range: cJSON turns 1e999 into inf; perfdelta states that values must be finite and
 *   timestamps integers in int64 (RFC 8259 section 9 lets a parser limit range).
 * cJSON is stricter nowhere on this corpus: the mutations never build a number longer than
 * 63 bytes (older cJSON copies at most 63 into its buffer); long numbers are tested above.
 * For a timestamp, cJSON's double cannot tell whether a decimal with more than 15
 * significant digits, or an exponent beyond 300, is an integer in range: such inputs are
 * skipped (and counted), the exact cases are tested above. */

static regex_t rfc_number;

struct tok {
	size_t off, len;
};

enum { MAX_TOKS = 256 };

static int is_rfc_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The number tokens of a text that cJSON read as [[n, n], ...]; 0 when a token is not an
 * RFC number or a byte cJSON skipped is not RFC whitespace. */
static int rfc_tokens(const char *in, size_t n, struct tok *toks, size_t *ntok)
{
	char buf[128];
	*ntok = 0;
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)in[i];
		size_t j = i;
		if (c == '[' || c == ']' || c == ',' || is_rfc_ws(c)) {
			i++;
			continue;
		}
		if (c <= 0x20)
			return 0;
		while (j < n && !strchr("[],", in[j]) && (unsigned char)in[j] > 0x20)
			j++;
		ck_assert_uint_lt(j - i, sizeof(buf));
		ck_assert_uint_lt(*ntok, MAX_TOKS);
		memcpy(buf, in + i, j - i);
		buf[j - i] = '\0';
		if (regexec(&rfc_number, buf, 0, NULL, 0) != 0)
			return 0;
		toks[(*ntok)++] = (struct tok){i, j - i};
		i = j;
	}
	return 1;
}

/* Whether cJSON's double of this timestamp token is exact enough to judge it. */
static int ts_token_trusted(const char *s, size_t n)
{
	size_t sig = 0, zeros = 0, i = 0;
	int started = 0;
	for (; i < n && s[i] != 'e' && s[i] != 'E'; i++) {
		if (s[i] < '0' || s[i] > '9')
			continue;
		if (s[i] == '0') {
			zeros += started;
			continue;
		}
		sig += started ? zeros + 1 : 1;
		zeros = 0;
		started = 1;
	}
	if (i < n) {
		long e = strtol(s + i + 1, NULL, 10);
		if (e < -300 || e > 300)
			return 0;
	}
	return sig <= 15;
}

static int pair_shape(const cJSON *p)
{
	const cJSON *t = p->child;
	return cJSON_IsArray(p) && cJSON_IsNumber(t) && cJSON_IsNumber(t->next) &&
	       !t->next->next;
}

/* 1 accept, 0 reject, -1 cannot tell (see above); want gets the samples. in[n] is NUL. */
static int oracle(const char *in, size_t n, struct pd_series *want)
{
	cJSON *root = cJSON_ParseWithLengthOpts(in, n + 1, NULL, 1);
	const cJSON *p;
	struct tok toks[MAX_TOKS];
	size_t ntok, k = 0;
	int rejected = 0, untrusted = 0;
	if (!root)
		return 0;
	if (!cJSON_IsArray(root) || !rfc_tokens(in, n, toks, &ntok))
		rejected = 1;
	for (p = root->child; p && !rejected; p = p->next, k += 2) {
		double t, v;
		if (!pair_shape(p)) {
			rejected = 1;
			break;
		}
		ck_assert_uint_lt(k + 1, ntok); /* 2 tokens a pair, in document order */
		t = p->child->valuedouble;
		v = p->child->next->valuedouble;
		if (!ts_token_trusted(in + toks[k].off, toks[k].len))
			untrusted = 1;
		else if (t != floor(t) || t < -ldexp(1, 63) || t >= ldexp(1, 63))
			rejected = 1;
		if (!isfinite(v))
			rejected = 1;
		if (!rejected && !untrusted)
			pd_series_add(want, (int64_t)t, v);
	}
	cJSON_Delete(root);
	return rejected ? 0 : untrusted ? -1 : 1;
}

/* Bytes as C escapes, for failure messages. */
static const char *show(char *out, size_t cap, const char *in, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n && k + 5 < cap; i++) {
		unsigned char c = (unsigned char)in[i];
		k += (size_t)(c >= 0x20 && c < 0x7f && c != '\\'
				      ? snprintf(out + k, cap - k, "%c", c)
				      : snprintf(out + k, cap - k, "\\x%02x", c));
	}
	out[k] = '\0';
	return out;
}

struct tally {
	size_t checked, accepted, rejected, skipped;
};

static void compare_series(const struct pd_series *got, const struct pd_series *want,
			   const char *shown)
{
	ck_assert_msg(got->n == want->n, "%s: %zu samples, cJSON %zu", shown, got->n, want->n);
	ck_assert_uint_eq(got->n_dup, want->n_dup);
	ck_assert_uint_eq(got->n_unsorted, want->n_unsorted);
	for (size_t i = 0; i < got->n; i++) {
		ck_assert_msg(got->t_ms[i] == want->t_ms[i], "%s: sample %zu time", shown, i);
		ck_assert_msg(!memcmp(&got->v[i], &want->v[i], sizeof(double)),
			      "%s: sample %zu: %.17g, cJSON %.17g", shown, i, got->v[i],
			      want->v[i]);
	}
}

/* in[n] must be NUL. */
static void check_equiv(const char *in, size_t n, struct tally *ty)
{
	struct pd_series got = {0}, want = {0};
	struct pd_err err = PD_ERR_INIT;
	char shown[1024];
	int rc = json_n(&got, in, n, &err), verdict = oracle(in, n, &want);
	show(shown, sizeof(shown), in, n);
	if (verdict < 0) {
		ty->skipped++;
	} else {
		ck_assert_msg((rc == 0) == verdict, "\"%s\": scanner %s (%s), cJSON+RFC %s",
			      shown, rc == 0 ? "accepts" : "rejects", err.msg,
			      verdict ? "accepts" : "rejects");
		if (rc == 0) {
			pd_series_normalize(&want);
			compare_series(&got, &want, shown);
		} else {
			ck_assert_int_eq(rc, PD_EPARSE);
			ck_assert(err.line >= 1 && err.col >= 1);
		}
		ty->checked++;
		*(rc == 0 ? &ty->accepted : &ty->rejected) += 1;
	}
	series_release(&got);
	series_release(&want);
}

static const char *const equiv_bases[] = {
	"[[1700000000123, 12.5], [1700000005120,13],[1700000010001, 1.2e3]]",
	"[\n  [1700000000123, -0.5],\n\t[1700000005120, 2.5E-3]\r\n]\n",
	"[[1,0],[2,-1e+2],[3,0.000123],[10,-7]]",
	"[[20,1.5e-7],[10,3]]",
	"[]",
};

/* Bytes inserted and substituted: JSON's structure, number parts, and near misses. */
static const char mutation_bytes[] = ",]}[ \"-+.eE0"
				     "19x\t\n\v\r/n";

static void mutate_base(const char *b, struct tally *ty)
{
	size_t n = strlen(b);
	char buf[256];
	for (size_t i = 0; i <= n; i++) {
		memcpy(buf, b, i); /* truncated after i bytes */
		buf[i] = '\0';
		check_equiv(buf, i, ty);
		if (i < n) { /* byte i deleted */
			memcpy(buf + i, b + i + 1, n - i);
			check_equiv(buf, n - 1, ty);
		}
		for (const char *c = mutation_bytes; *c; c++) {
			memcpy(buf, b, i); /* c inserted before byte i */
			buf[i] = *c;
			memcpy(buf + i + 1, b + i, n - i + 1);
			check_equiv(buf, n + 1, ty);
			if (i < n && b[i] != *c) { /* byte i replaced by c */
				memcpy(buf, b, n + 1);
				buf[i] = *c;
				check_equiv(buf, n, ty);
			}
		}
	}
}

/* Two to four random edits of a base. */
static void mutate_randomly(struct tally *ty)
{
	const char *b = equiv_bases[rng() % (sizeof(equiv_bases) / sizeof(*equiv_bases))];
	char buf[256];
	size_t n = strlen(b), edits = 2 + rng() % 3;
	memcpy(buf, b, n + 1);
	for (size_t e = 0; e < edits && n > 0 && n < sizeof(buf) - 2; e++) {
		size_t i = rng() % n;
		char c = mutation_bytes[rng() % (sizeof(mutation_bytes) - 1)];
		switch (rng() % 3) {
		case 0:
			memmove(buf + i, buf + i + 1, n - i);
			n--;
			break;
		case 1:
			memmove(buf + i + 1, buf + i, n - i + 1);
			buf[i] = c;
			n++;
			break;
		default:
			buf[i] = c;
		}
	}
	check_equiv(buf, n, ty);
}

/* A string literal and its length, embedded NULs included. */
#define H(s)                                                                                   \
	{                                                                                      \
		s, sizeof(s) - 1                                                               \
	}

/* Hand-written hostile inputs. */
static const struct {
	const char *s;
	size_t len;
} hostile[] = {
	H("[[01,1]]"),
	H("[[1,1.]]"),
	H("[[1,-.5]]"),
	H("[[1,1.e5]]"),
	H("[[1,-01]]"),
	H("[\v]"),
	H("[\x01[1,2]]"),
	H("[[1,2]]\0 "),
	H("[[1,2]]\0x"),
	H("[[1,1e999]]"),
	H("[[1e999,1]]"),
	H("[[1,2]]\x7f"),
	H("[[-0,-0.0]]"),
	H("[[0e0,0E-0]]"),
	H("[[1E+0,1e-0]]"),
	H("[[1,2]]\n\n\n"),
	H("\t\r\n []"),
	H("[[1,2] , [ 3 , 4 ] ]"),
	H("[[1,2,],]"),
	H("[[,1,2]]"),
	H("[,[1,2]]"),
	H("[[1,2]],"),
	H("[[[1,2]]]"),
	H("[[1,2]]]"),
	H("[[1,2]]["),
	H("[[1,2]"),
	H("[[1,2"),
	H("[[1,"),
	H("[[1"),
	H("[["),
	H("["),
	H(""),
	H("]"),
	H("[[1,2]]\xef\xbb\xbf"),
	H("\xef\xbb\xbf[]"),
	H("[[1,2]]\xc2\xa0"),
	H("[[1,'2']]"),
	H("[[1,\"2\"]]"),
	H("[[1,null]]"),
	H("[[1,true]]"),
	H("[[1,{}]]"),
	H("[[1,[]]]"),
	H("[[1.5e3,2]]"),
	H("[[15e-1,2]]"),
	H("[[150e-2,2]]"),
	H("[[1500e-3,2]]"),
	H("[[0.0001e4,2]]"),
	H("[[-1.0e0,2]]"),
	H("[[1,1e308]]"),
	H("[[1,1e309]]"),
	H("[[1,-1e309]]"),
	H("[[1,4.9e-324]]"),
	H("[[1,2.2250738585072011e-308]]"),
	H("[[1,9007199254740993]]"),
	H("[[1,0.1]]"),
	H("[[1,1e23]]"),
	H("[[1,8.98846567431158e307]]"),
	H("[[9223372036854775807,1]]"),
	H("[[1,2]]//"),
	H("[[1,2]]/**/"),
	H("[[1,2]]#"),
	H("[[0x1,2]]"),
	H("[[1,0b1]]"),
	H("[[1,1_000]]"),
	H("[[1,Infinity]]"),
	H("[[1,-NaN]]"),
	H("[[1,inf]]"),
	H("[[1,.1]]"),
	H("[[1,1..1]]"),
	H("[[1,1ee1]]"),
	H("[[1,1e+-1]]"),
	H("[[1,+0]]"),
	H("[[1,- 1]]"),
};

START_TEST(test_perfdb_json_accepts_exactly_what_cjson_and_rfc_accept)
{
	struct tally ty = {0};
	ck_assert_int_eq(regcomp(&rfc_number,
				 "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?$",
				 REG_EXTENDED | REG_NOSUB),
			 0);
	for (size_t i = 0; i < sizeof(equiv_bases) / sizeof(*equiv_bases); i++)
		mutate_base(equiv_bases[i], &ty);
	for (int i = 0; i < 3000; i++)
		mutate_randomly(&ty);
	for (size_t i = 0; i < sizeof(hostile) / sizeof(*hostile); i++) {
		char buf[64];
		ck_assert_uint_lt(hostile[i].len, sizeof(buf));
		memcpy(buf, hostile[i].s, hostile[i].len);
		buf[hostile[i].len] = '\0';
		check_equiv(buf, hostile[i].len, &ty);
	}
	regfree(&rfc_number);
	/* a corpus that is all accepted or all rejected would prove nothing */
	ck_assert_uint_ge(ty.checked, 5000);
	ck_assert_uint_ge(ty.accepted, 300);
	ck_assert_uint_ge(ty.rejected, 300);
	ck_assert_uint_le(ty.skipped * 50, ty.checked); /* at most 2% left to the exact tests */
}
END_TEST

/* The oracle's corrections are live: cJSON accepts each of these, RFC 8259 (or the stated
 * range) does not, and so neither the scanner nor the oracle does. */
START_TEST(test_perfdb_json_cjson_laxness_is_corrected)
{
	static const struct {
		const char *s;
		size_t len;
	} lax[] = {H("[[01,1]]"),    H("[[1,1.]]"),   H("[[1,-.5]]"),
		   H("[[1,1.e5]]"),  H("[[1,-01]]"),  H("[\v]"),
		   H("[\x01[1,2]]"), H("[[1,2]]\0 "), H("[[1,1e999]]")};
	ck_assert_int_eq(regcomp(&rfc_number,
				 "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?$",
				 REG_EXTENDED | REG_NOSUB),
			 0);
	for (size_t i = 0; i < sizeof(lax) / sizeof(*lax); i++) {
		struct pd_series s = {0}, want = {0};
		struct pd_err err = PD_ERR_INIT;
		cJSON *root = cJSON_ParseWithLengthOpts(lax[i].s, lax[i].len + 1, NULL, 1);
		ck_assert_msg(root != NULL, "case %zu: cJSON rejects it now", i);
		cJSON_Delete(root);
		ck_assert_int_eq(json_n(&s, lax[i].s, lax[i].len, &err), PD_EPARSE);
		ck_assert_int_eq(oracle(lax[i].s, lax[i].len, &want), 0);
		series_release(&s);
		series_release(&want);
	}
	regfree(&rfc_number);
}
END_TEST

/* ---- perfdb's data files ------------------------------------------------------------ */

static int data_file(struct pd_series *s, const char *path, int64_t first, struct pd_err *err)
{
	size_t n;
	char *text = pd_test_slurp(path, &n);
	struct pd_src src = {text, n, path, &lim_default};
	int rc = pd_perfdb_data_parse(s, &src, first, err);
	free(text);
	return rc;
}

static int data_text(struct pd_series *s, const char *text, int64_t first, struct pd_err *err)
{
	struct pd_src src = {text, strlen(text), "m.data", &lim_default};
	return pd_perfdb_data_parse(s, &src, first, err);
}

static int first_ts(int64_t *out, const char *text, struct pd_err *err)
{
	struct pd_src src = {text, strlen(text), "m.data.1", &lim_default};
	return pd_perfdb_first_ts_parse(out, &src, err);
}

START_TEST(test_perfdb_data_reads_delta_layout)
{
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	int64_t first = 0;
	size_t n;
	char *text = pd_test_slurp(FIXTURE("delta.data.1"), &n);
	struct pd_src src = {text, n, "delta.data.1", &lim_default};
	ck_assert_int_eq(pd_perfdb_first_ts_parse(&first, &src, &err), 0);
	free(text);
	ck_assert(first == 1700000000123);
	ck_assert_int_eq(data_file(&s, FIXTURE("delta.data"), first, &err), 0);
	/* deltas 0, 5000, 4997 from the previous line: ...0123, ...5123, ...10120 */
	ck_assert_uint_eq(s.n, 3);
	ck_assert(s.t_ms[0] == 1700000000123);
	ck_assert(s.t_ms[1] == 1700000005123);
	ck_assert(s.t_ms[2] == 1700000010120);
	ck_assert_double_eq(s.v[0], 12.5);
	ck_assert_double_eq(s.v[1], 13.0);
	ck_assert_double_eq(s.v[2], 1200.0);
	series_release(&s);
}
END_TEST

START_TEST(test_perfdb_data_reads_perfdb_writer_layout)
{
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	/* "%22d %025.9f" lines in ns; .data.1 does not exist for them, first is unused */
	ck_assert_int_eq(data_file(&s, FIXTURE("perfdb.data"), 42, &err), 0);
	ck_assert_uint_eq(s.n, 3);
	ck_assert(s.t_ms[0] == 1700000000123);
	ck_assert(s.t_ms[1] == 1700000005120); /* ...5120999999 ns is still ms 5120 */
	ck_assert(s.t_ms[2] == 1700000010001);
	ck_assert_double_eq(s.v[0], 12.5);
	ck_assert_double_eq(s.v[1], 13.0);
	ck_assert_double_eq(s.v[2], -0.25);
	series_release(&s);
}
END_TEST

START_TEST(test_perfdb_data_absolute_units_by_size)
{
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	/* perfdb's time.go rule: > 1e18 ns, > 1e15 us, > 1e12 ms, > 1e9 s */
	ck_assert_int_eq(
		data_text(&s,
			  "1700000000000000000 1\n1700000001000000 2\n1700000002000 3\n"
			  "1700000003 4\n",
			  0, &err),
		0);
	ck_assert_uint_eq(s.n, 4);
	ck_assert(s.t_ms[0] == 1700000000000 && s.t_ms[1] == 1700000001000);
	ck_assert(s.t_ms[2] == 1700000002000 && s.t_ms[3] == 1700000003000);
	series_release(&s);
}
END_TEST

START_TEST(test_perfdb_data_accepts_crlf_blanks_and_no_final_newline)
{
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(data_text(&s, "  0\t 1.5 \r\n5  +2\r\n-10 .5", 100, &err), 0);
	/* 100 + 0, + 5, - 10: times 100, 105, 95; sorted 95 (0.5), 100 (1.5), 105 (2) */
	ck_assert_uint_eq(s.n, 3);
	ck_assert(s.t_ms[0] == 95 && s.t_ms[1] == 100 && s.t_ms[2] == 105);
	ck_assert_double_eq(s.v[0], 0.5);
	ck_assert_double_eq(s.v[2], 2.0);
	ck_assert_uint_eq(s.n_unsorted, 1);
	ck_assert_int_eq(data_text(&s, "", 0, &err),
			 0); /* an empty file: no samples, no error */
	series_release(&s);
}
END_TEST

START_TEST(test_perfdb_data_rejects_bad_value_at_line_and_column)
{
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(data_file(&s, FIXTURE("bad_value.data"), 1, &err), PD_EPARSE);
	ck_assert_int_eq(err.line, 2); /* "5000 abc": 'a' is byte 6 */
	ck_assert_int_eq(err.col, 6);
	ck_assert_ptr_nonnull(strstr(err.msg, "expected a finite decimal value"));
	ck_assert_ptr_nonnull(strstr(err.path, "bad_value.data"));
	ck_assert_uint_eq(s.n, 0);
	series_release(&s);
}
END_TEST

static const struct bad bad_data[] = {
	{"0 12.5\n\n5 1\n", 0, 2, 1,
	 "expected a timestamp at the start of the line, found the end"},
	{"0 12.5 x\n", 0, 1, 8, "expected the end of the line after the value"},
	{"0\n", 0, 1, 2, "expected a space after the timestamp"},
	{"0 nan\n", 0, 1, 3, "expected a finite decimal value"},
	{"0 -inf\n", 0, 1, 3, "expected a finite decimal value"},
	{"0 1e999\n", 0, 1, 3, "number out of range"},
	{"0 1e\n", 0, 1, 5, "expected a digit in the exponent"},
	{"0 0x1p3\n", 0, 1, 4, "expected the end of the line"},
	{"x 1\n", 0, 1, 1, "expected a timestamp"},
	{"5 1\n", 0, 1, 1, "expected 0 (the first delta) or an epoch timestamp"},
	{"1700000000123 1\n0 2\n", 0, 2, 1, "expected 0 (the first delta) or an epoch"},
	{"0 1\n99999999999999999999 2\n", 0, 2, 1, "timestamp out of range"},
	{"0 1\n5 2\0", 8, 2, 4,
	 "expected the end of the line after the value, found byte 0x00"},
};

START_TEST(test_perfdb_data_rejects_malformed_lines)
{
	const struct bad *b = &bad_data[_i];
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	struct pd_src src = {b->body, b->len ? b->len : strlen(b->body), "m.data",
			     &lim_default};
	ck_assert_int_eq(pd_perfdb_data_parse(&s, &src, 1000, &err), PD_EPARSE);
	ck_assert_msg(err.line == b->line && err.col == b->col, "case %d: at %ld:%ld (%s)", _i,
		      err.line, err.col, err.msg);
	ck_assert_msg(strstr(err.msg, b->msg) != NULL, "case %d: \"%s\"", _i, err.msg);
	ck_assert_uint_eq(s.n, 0);
	series_release(&s);
}
END_TEST

START_TEST(test_perfdb_data_rejects_delta_overflow)
{
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	/* INT64_MAX - 1 + 0 fits; + 5 does not */
	ck_assert_int_eq(data_text(&s, "0 1\n5 2\n", INT64_MAX - 1, &err), PD_EPARSE);
	ck_assert_int_eq(err.line, 2);
	ck_assert_ptr_nonnull(strstr(err.msg, "overflow"));
	series_release(&s);
}
END_TEST

START_TEST(test_perfdb_data_limit_on_samples)
{
	struct pd_limits lim = PD_LIMITS_DEFAULT;
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	const char *text = "0 1\n5 2\n5 3\n5 4\n";
	struct pd_src src = {text, strlen(text), "m.data", &lim};
	lim.max_samples = 3;
	ck_assert_int_eq(pd_perfdb_data_parse(&s, &src, 1762107600000LL, &err), PD_ELIMIT);
	ck_assert_int_eq(err.line, 4);
	ck_assert_ptr_nonnull(strstr(err.msg, "--max-samples"));
	series_release(&s);
}
END_TEST

START_TEST(test_perfdb_first_ts_reads_one_integer)
{
	struct pd_err err = PD_ERR_INIT;
	int64_t t = 0;
	ck_assert_int_eq(first_ts(&t, " 1700000000123\r\n", &err), 0);
	ck_assert(t == 1700000000123);
	ck_assert_int_eq(first_ts(&t, "-5", &err), 0);
	ck_assert(t == -5);
}
END_TEST

START_TEST(test_perfdb_first_ts_rejects_anything_else)
{
	static const struct bad bad[] = {
		{"", 0, 1, 1, "expected the first timestamp (epoch ms) as an integer"},
		{"\n", 0, 2, 1, "expected the first timestamp"},
		{"17x\n", 0, 1, 3, "expected the end of the file after the first timestamp"},
		{"1 2\n", 0, 1, 3, "expected the end of the file"},
		{"1.5\n", 0, 1, 2, "expected the end of the file"},
		{"99999999999999999999\n", 0, 1, 1, "timestamp out of range"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct pd_err err = PD_ERR_INIT;
		int64_t t;
		ck_assert_int_eq(first_ts(&t, bad[i].body, &err), PD_EPARSE);
		ck_assert_msg(err.line == bad[i].line && err.col == bad[i].col,
			      "case %zu: %ld:%ld", i, err.line, err.col);
		ck_assert_msg(strstr(err.msg, bad[i].msg) != NULL, "case %zu: \"%s\"", i,
			      err.msg);
	}
}
END_TEST

/* ---- seriesly ------------------------------------------------------------------------ */

static int seriesly(struct pd_series *s, const char *text, struct pd_err *err)
{
	struct pd_src src = {text, strlen(text), "s.json", &lim_default};
	return pd_seriesly_parse(s, &src, err);
}

START_TEST(test_seriesly_refuses_nul_in_a_key)
{
	/* "1700000000000\u0000x" would read as the key 1700000000000 */
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(seriesly(&s, "{\"1\": [1],\n \"1700000000000\\u0000x\": [2]}", &err),
			 PD_EPARSE);
	ck_assert_int_eq(err.line, 2);
	ck_assert_int_eq(err.col, 16);
	ck_assert_msg(strstr(err.msg, "NUL character") != NULL, "%s", err.msg);
	series_release(&s);
}
END_TEST

START_TEST(test_seriesly_reads_body_sorted_last_wins)
{
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	size_t n;
	char *text = pd_test_slurp(FIXTURE("seriesly.json"), &n);
	struct pd_src src = {text, n, "seriesly.json", &lim_default};
	ck_assert_int_eq(pd_seriesly_parse(&s, &src, &err), 0);
	free(text);
	/* arrival ...5120, ...0123, ...10001, ...5120: drops at 2nd and 4th -> 2 unsorted;
	 * ...5120 twice -> 1 dropped, 14 (the later) kept */
	ck_assert_uint_eq(s.n, 3);
	ck_assert(s.t_ms[0] == 1700000000123);
	ck_assert(s.t_ms[1] == 1700000005120);
	ck_assert(s.t_ms[2] == 1700000010001);
	ck_assert_double_eq(s.v[0], 12.5);
	ck_assert_double_eq(s.v[1], 14.0);
	ck_assert_double_eq(s.v[2], 1200.0);
	ck_assert_uint_eq(s.n_dup, 1);
	ck_assert_uint_eq(s.n_unsorted, 2);
	ck_assert_int_eq(seriesly(&s, " {} ", &err), 0);
	series_release(&s);
}
END_TEST

static const struct bad bad_seriesly[] = {
	{"{\"abc\": [1]}", 0, 1, 2, "expected a decimal integer key within int64"},
	{"{\"-5\": [1]}", 0, 1, 2, "expected a decimal integer key"},
	{"{\"\": [1]}", 0, 1, 2, "expected a decimal integer key"},
	{"{\"99999999999999999999\": [1]}", 0, 1, 2,
	 "expected a decimal integer key within int64"},
	{"{\"1\": 1}", 0, 1, 2, "expected an array holding one number"},
	{"{\"1\": [1, 2]}", 0, 1, 2, "expected an array holding one number"},
	{"{\"1\": [\"x\"]}", 0, 1, 2, "expected an array holding one number"},
	{"{\"1\": [null]}", 0, 1, 2, "expected an array holding one number"},
	{"{\"1\": []}", 0, 1, 2, "expected an array holding one number"},
	{"{\"1\": [1e999]}", 0, 1, 2, "number out of range"},
	{" [1]", 0, 1, 2, "expected '{' to open seriesly's"},
	{"{\"1\": [1]", 0, 1, 10, "invalid JSON"},
	{"{\"1\": [1]} x", 0, 1, 12, "invalid JSON"},
	{"{\"1\": [[1]]}", 0, 1, 8, "nests 2 levels deep"},
	{"{\"[[[\": [1], \"2\": {\"a\": {}}}", 0, 1, 25, "nests 2 levels deep"},
	{"{\n \"1\": [1],\n \"x\": [2]\n}", 0, 3, 2, "expected a decimal integer key"},
};

START_TEST(test_seriesly_rejects_malformed_bodies)
{
	const struct bad *b = &bad_seriesly[_i];
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	ck_assert_int_eq(seriesly(&s, b->body, &err), PD_EPARSE);
	ck_assert_msg(err.line == b->line && err.col == b->col, "case %d: at %ld:%ld (%s)", _i,
		      err.line, err.col, err.msg);
	ck_assert_msg(strstr(err.msg, b->msg) != NULL, "case %d: \"%s\"", _i, err.msg);
	ck_assert_uint_eq(s.n, 0);
	series_release(&s);
}
END_TEST

START_TEST(test_seriesly_limit_on_samples)
{
	struct pd_limits lim = PD_LIMITS_DEFAULT;
	struct pd_series s = {0};
	struct pd_err err = PD_ERR_INIT;
	const char *text = "{\"1\": [1], \"2\": [2]}";
	struct pd_src src = {text, strlen(text), "s.json", &lim};
	lim.max_samples = 1;
	ck_assert_int_eq(pd_seriesly_parse(&s, &src, &err), PD_ELIMIT);
	ck_assert_int_eq(err.col, 12); /* "2" opens at byte 11 */
	ck_assert_ptr_nonnull(strstr(err.msg, "--max-samples"));
	ck_assert_uint_eq(s.n, 0);
	series_release(&s);
}
END_TEST

Suite *pd_suite_perfdb(void)
{
	Suite *s = suite_create("perfdb");
	TCase *tc = tcase_create("json");
	tcase_add_test(tc, test_perfdb_json_reads_compact_body);
	tcase_add_test(tc, test_perfdb_json_reads_any_rfc_whitespace);
	tcase_add_test(tc, test_perfdb_json_reads_exponents_and_negative_values);
	tcase_add_test(tc, test_perfdb_json_reads_empty_array);
	tcase_add_test(tc, test_perfdb_json_sorts_and_keeps_last_duplicate);
	tcase_add_test(tc, test_perfdb_json_timestamps_are_exact_integers);
	tcase_add_test(tc, test_perfdb_json_reads_numbers_longer_than_the_stack_buffer);
	tcase_add_loop_test(tc, test_perfdb_json_rejects_what_rfc_8259_rejects, 0,
			    (int)(sizeof(bad_json) / sizeof(*bad_json)));
	tcase_add_test(tc, test_perfdb_json_error_keeps_samples_read_before);
	tcase_add_test(tc, test_perfdb_json_limit_on_samples);
	tcase_add_test(tc, test_perfdb_json_values_are_bit_identical_to_strtod);
	tcase_add_test(tc, test_perfdb_json_integer_timestamps_round_trip);
	tcase_add_test(tc, test_perfdb_json_fast_tokens_agree_at_their_limits);
	tcase_add_test(tc, test_perfdb_json_digits_read_eight_at_a_time_and_one_by_one);
	tcase_add_test(tc, test_perfdb_json_digits_stop_at_a_non_digit_in_a_step);
	tcase_add_test(tc, test_perfdb_json_accepts_exactly_what_cjson_and_rfc_accept);
	tcase_add_test(tc, test_perfdb_json_cjson_laxness_is_corrected);
	suite_add_tcase(s, tc);

	tc = tcase_create("data");
	tcase_add_test(tc, test_perfdb_data_reads_delta_layout);
	tcase_add_test(tc, test_perfdb_data_reads_perfdb_writer_layout);
	tcase_add_test(tc, test_perfdb_data_absolute_units_by_size);
	tcase_add_test(tc, test_perfdb_data_accepts_crlf_blanks_and_no_final_newline);
	tcase_add_test(tc, test_perfdb_data_rejects_bad_value_at_line_and_column);
	tcase_add_loop_test(tc, test_perfdb_data_rejects_malformed_lines, 0,
			    (int)(sizeof(bad_data) / sizeof(*bad_data)));
	tcase_add_test(tc, test_perfdb_data_rejects_delta_overflow);
	tcase_add_test(tc, test_perfdb_data_limit_on_samples);
	tcase_add_test(tc, test_perfdb_first_ts_reads_one_integer);
	tcase_add_test(tc, test_perfdb_first_ts_rejects_anything_else);
	suite_add_tcase(s, tc);

	tc = tcase_create("seriesly");
	tcase_add_test(tc, test_seriesly_reads_body_sorted_last_wins);
	tcase_add_loop_test(tc, test_seriesly_rejects_malformed_bodies, 0,
			    (int)(sizeof(bad_seriesly) / sizeof(*bad_seriesly)));
	tcase_add_test(tc, test_seriesly_limit_on_samples);
	tcase_add_test(tc, test_seriesly_refuses_nul_in_a_key);
	suite_add_tcase(s, tc);
	return s;
}
