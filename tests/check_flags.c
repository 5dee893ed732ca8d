/* cli/flags.c: the one number syntax of every flag, the table parser and the man page's
 * entries, against values written by hand. */
#include "check_suites.h"
#include "cli/exit.h"
#include "cli/flags.h"

#include <check.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

START_TEST(test_flags_number_is_plain_decimal)
{
	double v = -1;
	ck_assert_int_eq(pd_flags_number(&v, "1000", 0), 0);
	ck_assert_double_eq(v, 1000);
	ck_assert_int_eq(pd_flags_number(&v, "3.25", 1), 0);
	ck_assert_double_eq(v, 3.25);
	/* what strtod would take, refused */
	static const char *const bad[] = {"1e3", "0x10", "inf", "nan", "-1",  "+1",   " 1",
					  "1 ",  "",     ".5",  "5.",  "1,5", "1.2.3"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		ck_assert_msg(pd_flags_number(&v, bad[i], 1) < 0, "'%s' taken", bad[i]);
	/* a fraction where a whole number is asked */
	ck_assert_int_lt(pd_flags_number(&v, "3.7", 0), 0);
}
END_TEST

struct opts {
	long n;
	int on;
	const char *ops[4];
	size_t n_ops;
};

static int operand(void *o, const char *a, struct pd_err *err)
{
	struct opts *x = o;
	(void)err; /* any */
	x->ops[x->n_ops++] = a;
	return 0;
}

static const struct pd_flag test_flags[] = {
	{.name = "--count",
	 .arg = "N",
	 .parse = pd_flags_set_long,
	 .field = offsetof(struct opts, n),
	 .cmds = 1,
	 .lo = 2,
	 .hi = 16,
	 .help = "n"},
	{.name = "--on",
	 .alias = "-x",
	 .parse = pd_flags_set_switch,
	 .field = offsetof(struct opts, on),
	 .cmds = 2,
	 .help = "on"},
};
static const struct pd_flags table = {test_flags, 2, "see test --help"};

/* Parses argv (argv[0] the program) into *o: pd_flags_parse's result. */
static int parse(struct opts *o, int argc, char **argv)
{
	const struct pd_flag *seen[8];
	size_t n_seen;
	return pd_flags_parse(&table, o, argc, argv, operand, seen, &n_seen);
}

START_TEST(test_flags_parse_takes_flags_values_and_operands)
{
	struct opts o = {0};
	char *argv[] = {"p", "a", "--count", "16", "-x", "--", "--on", NULL};
	ck_assert_int_eq(parse(&o, 7, argv), -1);
	ck_assert_int_eq(o.n, 16);
	ck_assert_int_eq(o.on, 1);
	ck_assert_uint_eq(o.n_ops, 2);
	ck_assert_str_eq(o.ops[0], "a");
	ck_assert_str_eq(o.ops[1], "--on"); /* after "--" an operand */
}
END_TEST

START_TEST(test_flags_parse_refuses_bad_values_with_the_usage_code)
{
	static const char *const bad[] = {"1e1", "0x10", "3.7", "1", "17", "-2", ""};
	int saved = dup(2), null = open("/dev/null", O_WRONLY); /* the usage lines */
	dup2(null, 2);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct opts o = {0};
		char *argv[] = {"p", "--count", (char *)bad[i], NULL};
		ck_assert_msg(parse(&o, 3, argv) == PD_EXIT_USAGE, "'%s' taken", bad[i]);
		ck_assert_int_eq(o.n, 0);
	}
	struct opts o = {0};
	char *missing[] = {"p", "--count", NULL}, *unknown[] = {"p", "--cont", "3", NULL};
	ck_assert_int_eq(parse(&o, 2, missing), PD_EXIT_USAGE);
	ck_assert_int_eq(parse(&o, 3, unknown), PD_EXIT_USAGE);
	/* a flag of another command */
	const struct pd_flag *seen[] = {&test_flags[1]};
	ck_assert_int_eq(pd_flags_check(&table, seen, 1, 1, "one"), PD_EXIT_USAGE);
	ck_assert_int_eq(pd_flags_check(&table, seen, 1, 2, "two"), -1);
	dup2(saved, 2);
	close(saved), close(null);
}
END_TEST

START_TEST(test_flags_man_entry_is_roff)
{
	static const struct pd_flag f[] = {
		{.name = "--time-zone", .alias = "-z", .arg = "±HH:MM", .man = "The zone."},
		{.name = "--api", .arg = "json|xml", .man = "Which."},
		{.name = "--netrc", .man = "Read it."},
	};
	struct pd_buf b = PD_BUF_INIT;
	for (size_t i = 0; i < 3; i++)
		pd_flags_man(&b, &f[i]);
	ck_assert_str_eq(b.ptr,
			 ".TP\n\\fB\\-z\\fR, \\fB\\-\\-time\\-zone\\fR \\fI\\(+-HH:MM\\fR\n"
			 "The zone.\n"
			 ".TP\n\\fB\\-\\-api\\fR \\fBjson\\fR|\\fBxml\\fR\nWhich.\n"
			 ".TP\n\\fB\\-\\-netrc\\fR\nRead it.\n");
	pd_buf_release(&b);
}
END_TEST

/* A synopsis line in roff, written by hand: the program, command and the flags right after
 * them bold, operands and option words italic, each flag bold, brackets and "..." roman. */
START_TEST(test_flags_synopsis_is_roff)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_flags_synopsis_man(&b, "perfdelta demo [-o DIR] [options]");
	pd_flags_synopsis_man(&b, "perfdelta pull --jenkins URL [--snapshot NAME]... RUN...");
	ck_assert_str_eq(b.ptr, "\\fBperfdelta demo\\fR [\\fB\\-o\\fR \\fIDIR\\fR] "
				"[\\fIoptions\\fR]\n"
				"\\fBperfdelta pull \\-\\-jenkins\\fR \\fIURL\\fR "
				"[\\fB\\-\\-snapshot\\fR \\fINAME\\fR]... \\fIRUN\\fR...\n");
	pd_buf_release(&b);
}
END_TEST

/* --help's usage lines: the first after "usage: ", the others under it; a line past 80
 * columns goes on under its operands (after "perfdelta history report "), never inside
 * a bracket or between a flag and its value. */
START_TEST(test_flags_synopsis_usage_wraps_whole_groups)
{
	static const char *const lines[] = {
		"perfdelta demo [-o DIR]",
		"perfdelta history report --test CONFIG [--db URL] -o DIR [--window N] "
		"[--alpha A] [--min-size K]",
		NULL};
	struct pd_buf b = PD_BUF_INIT;
	pd_flags_synopsis_usage(&b, lines, 1);
	ck_assert_str_eq(b.ptr,
			 "usage: perfdelta demo [-o DIR]\n"
			 "       perfdelta history report --test CONFIG [--db URL] -o DIR "
			 "[--window N]\n"
			 "                                [--alpha A] [--min-size K]\n");
	pd_buf_release(&b);
}
END_TEST

Suite *pd_suite_flags(void)
{
	Suite *s = suite_create("flags");
	TCase *tc = tcase_create("flags");
	tcase_add_test(tc, test_flags_number_is_plain_decimal);
	tcase_add_test(tc, test_flags_parse_takes_flags_values_and_operands);
	tcase_add_test(tc, test_flags_parse_refuses_bad_values_with_the_usage_code);
	tcase_add_test(tc, test_flags_man_entry_is_roff);
	tcase_add_test(tc, test_flags_synopsis_is_roff);
	tcase_add_test(tc, test_flags_synopsis_usage_wraps_whole_groups);
	suite_add_tcase(s, tc);
	return s;
}
