#include "check_suites.h"

#include "render/escape.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>

typedef void (*escaper)(struct pd_buf *, const char *);

/* Every expected string below is written by hand from the escaper's documented rules. */
static void check(escaper f, const char *in, const char *want)
{
	struct pd_buf b = PD_BUF_INIT;
	pd_buf_adds(&b, "pre:"); /* escapers append: what was there stays */
	f(&b, in);
	ck_assert_str_eq(b.ptr + 4, want);
	ck_assert(strncmp(b.ptr, "pre:", 4) == 0);
	pd_buf_release(&b);
}

#define FFFD   "\xef\xbf\xbd"
#define SCRIPT "<script>alert(1)</script>"

START_TEST(test_esc_utf8_rejects_overlong_surrogate_and_cut_sequences)
{
	unsigned cp = 0;
	ck_assert_uint_eq(pd_esc_utf8("A", &cp), 1);
	ck_assert_uint_eq(cp, 0x41);
	ck_assert_uint_eq(pd_esc_utf8("\xe2\x82\xac", &cp), 3); /* EURO SIGN */
	ck_assert_uint_eq(cp, 0x20ac);
	ck_assert_uint_eq(pd_esc_utf8("\xf0\x9f\x98\x80", &cp), 4); /* U+1F600 */
	ck_assert_uint_eq(cp, 0x1f600);
	ck_assert_uint_eq(pd_esc_utf8("\xc0\xaf", &cp), 0);         /* overlong '/' */
	ck_assert_uint_eq(pd_esc_utf8("\xe0\x80\xaf", &cp), 0);     /* overlong, 3 bytes */
	ck_assert_uint_eq(pd_esc_utf8("\xed\xa0\x80", &cp), 0);     /* U+D800 */
	ck_assert_uint_eq(pd_esc_utf8("\xf4\x90\x80\x80", &cp), 0); /* U+110000 */
	ck_assert_uint_eq(pd_esc_utf8("\xe2\x82", &cp), 0);         /* cut short by NUL */
	ck_assert_uint_eq(pd_esc_utf8("\x80", &cp), 0);             /* lone continuation */
	ck_assert_uint_eq(pd_esc_utf8("\xff", &cp), 0);
}
END_TEST

START_TEST(test_esc_json_hostile_strings)
{
	check(pd_esc_json, SCRIPT, "\"\\u003cscript>alert(1)\\u003c/script>\"");
	check(pd_esc_json, "a\"b\\c", "\"a\\\"b\\\\c\"");
	check(pd_esc_json, "\n\t\x01\x7f", "\"\\n\\t\\u0001\\u007f\"");
	check(pd_esc_json, "x\xffy\xc3", "\"x\\ufffdy\\ufffd\"");
	check(pd_esc_json, "]]> {code} |", "\"]]> {code} |\"");
}
END_TEST

/* Runs of printable ASCII are copied at once: what follows a long run, and what a run
 * stops at, is escaped as alone (a quote, a bidi control, invalid UTF-8, a control byte,
 * a markup special; at the start, in the middle and at the end). Expected by hand. */
#define RUN "The quick brown fox jumps over the lazy dog 0123456789 ~!@#$%^*()_+"
START_TEST(test_esc_ascii_runs_then_escapes)
{
	check(pd_esc_json, RUN "\"x\\y\xe2\x80\xae" RUN "\xff" RUN "\x01<" RUN,
	      "\"" RUN "\\\"x\\\\y\\u202e" RUN "\\ufffd" RUN "\\u0001\\u003c" RUN "\"");
	check(pd_esc_json, "<" RUN "\n", "\"\\u003c" RUN "\\n\"");
	check(pd_esc_json, "caf\xc3\xa9" RUN, "\"caf\xc3\xa9" RUN "\"");
	check(pd_esc_html, RUN "&'\xe2\x80\xae" RUN "\xff" RUN "\x01>" RUN,
	      RUN "&amp;&#39;&#xfffd;" RUN "&#xfffd;" RUN "&#xfffd;&gt;" RUN);
	check(pd_esc_html, "\"" RUN "\n" RUN "\x7f", "&quot;" RUN "\n" RUN "&#xfffd;");
	check(pd_esc_xml, RUN "'\t" RUN "\x7f\xef\xbf\xbe" RUN,
	      RUN "&apos;&#9;" RUN "\x7f&#xfffd;" RUN);
}
END_TEST
#undef RUN

START_TEST(test_esc_html_hostile_strings)
{
	check(pd_esc_html, SCRIPT, "&lt;script&gt;alert(1)&lt;/script&gt;");
	check(pd_esc_html, "\"'&", "&quot;&#39;&amp;");
	check(pd_esc_html, "a\nb\x01", "a\nb&#xfffd;");
	check(pd_esc_html, "]]>", "]]&gt;");
}
END_TEST

START_TEST(test_esc_text_hostile_strings)
{
	check(pd_esc_text, "\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m");
	check(pd_esc_text, "a\\b\r\n\x7f", "a\\x5cb\\x0d\\x0a\\x7f");
	check(pd_esc_text, SCRIPT, SCRIPT); /* a terminal shows markup as it is */
}
END_TEST

/* A right-to-left override (U+202E, bytes e2 80 ae) and an isolate (U+2066, e2 81 a6)
 * reorder the text around them on screen ("Trojan Source", CVE-2021-42574): no output
 * writes them as they are. Expected values by hand from the UTF-8 bytes. */
START_TEST(test_esc_bidi_controls_are_never_written_as_they_are)
{
	const char *in = "db\xe2\x80\xae"
			 "1-gnp\xe2\x81\xa6x";
	check(pd_esc_json, in, "\"db\\u202e1-gnp\\u2066x\"");
	check(pd_esc_html, in, "db&#xfffd;1-gnp&#xfffd;x");
	check(pd_esc_xml, in, "db&#xfffd;1-gnp&#xfffd;x");
	check(pd_esc_text, in, "db\\xe2\\x80\\xae1-gnp\\xe2\\x81\\xa6x");
	check(pd_esc_md, in,
	      "db\xef\xbf\xbd"
	      "1-gnp\xef\xbf\xbdx");
	check(pd_esc_jira, in,
	      "db\xef\xbf\xbd"
	      "1-gnp\xef\xbf\xbdx");
	/* a neighbour that is not one (U+2029, e2 80 a9; U+2070, e2 81 b0) is kept */
	check(pd_esc_text, "\xe2\x80\xa9\xe2\x81\xb0", "\xe2\x80\xa9\xe2\x81\xb0");
}
END_TEST

START_TEST(test_esc_xml_hostile_strings)
{
	check(pd_esc_xml, SCRIPT, "&lt;script&gt;alert(1)&lt;/script&gt;");
	check(pd_esc_xml, "a\"b'c&d", "a&quot;b&apos;c&amp;d");
	check(pd_esc_xml, "x]]>y", "x]]&gt;y");
	check(pd_esc_xml, "l1\nl2\tt\rr", "l1&#10;l2&#9;t&#13;r");
	/* C0 controls are not XML 1.0 characters; DEL is */
	check(pd_esc_xml, "\x01\x1f\x7f", "&#xfffd;&#xfffd;\x7f");
	/* 0xff, a cut sequence, U+FFFE, and an overlong '/' (two bad bytes) */
	check(pd_esc_xml,
	      "a\xff"
	      "b\xc3",
	      "a&#xfffd;b&#xfffd;");
	check(pd_esc_xml, "\xef\xbf\xbe\xef\xbf\xbf", "&#xfffd;&#xfffd;");
	check(pd_esc_xml, "\xc0\xaf", "&#xfffd;&#xfffd;");
	check(pd_esc_xml, "caf\xc3\xa9 {code}", "caf\xc3\xa9 {code}");
}
END_TEST

/* libxml2 as the independent judge: the escaped value in an attribute and in text
 * parses, and reads back as the input with the invalid characters replaced. */
START_TEST(test_esc_xml_round_trips_through_libxml2)
{
	const char *in = "a<b>&\"'\t\n\r]]>\x01\xff" SCRIPT;
	const char *want = "a<b>&\"'\t\n\r]]>" FFFD FFFD SCRIPT;
	struct pd_buf doc = PD_BUF_INIT;
	pd_buf_adds(&doc, "<r a=\"");
	pd_esc_xml(&doc, in);
	pd_buf_adds(&doc, "\">");
	pd_esc_xml(&doc, in);
	pd_buf_adds(&doc, "</r>");
	xmlDocPtr x = xmlReadMemory(doc.ptr, (int)doc.len, "t.xml", "UTF-8",
				    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	ck_assert_ptr_nonnull(x);
	xmlNodePtr root = xmlDocGetRootElement(x);
	xmlChar *attr = xmlGetProp(root, (const xmlChar *)"a");
	xmlChar *text = xmlNodeGetContent(root);
	ck_assert_str_eq((const char *)attr, want);
	ck_assert_str_eq((const char *)text, want);
	xmlFree(attr);
	xmlFree(text);
	xmlFreeDoc(x);
	pd_buf_release(&doc);
}
END_TEST

START_TEST(test_esc_md_hostile_strings)
{
	/* a tag's "<" is escaped (then ">" is text); "(1)" is no link */
	check(pd_esc_md, SCRIPT, "\\<script>alert(1)\\</script>");
	/* a value cannot start a heading or a table row on a line of its own */
	check(pd_esc_md, "x\n# h1\n| a | b |", "x # h1 \\| a \\| b \\|");
	check(pd_esc_md, "# h1", "\\# h1");
	check(pd_esc_md, "12. item", "12\\. item");
	check(pd_esc_md, "*x* _y_ [l](u) {c} ``k`` !i. +-~&amp;",
	      "\\*x\\* \\_y\\_ [l\\](u) {c} \\`\\`k\\`\\` !i. +-\\~\\&amp;");
	check(pd_esc_md, "back\\slash \\* ]]> \"q\"", "back\\slash \\\\\\* ]]> \"q\"");
	check(pd_esc_md, "a\r\nb\tc\x01\xff", "a  b c" FFFD FFFD);
	/* U+012A and U+015C end in the bytes of '*' and '\': they are letters */
	check(pd_esc_md, "\xc4\xaa\xc5\x9c caf\xc3\xa9", "\xc4\xaa\xc5\x9c caf\xc3\xa9");
	/* what is not markup where it stands reads as it is in the raw text */
	check(pd_esc_md, "172.23.100.40 n1ql_thr_Q3_20M iris-multi-client #12520 (x) p < 1e-15",
	      "172.23.100.40 n1ql_thr_Q3_20M iris-multi-client #12520 (x) p < 1e-15");
	check(pd_esc_md, "[access] n1ql_shutdown_type = +9.4% a & b",
	      "[access] "
	      "n1ql_shutdown_type = +9.4% a & b");
	check(pd_esc_md, "$x$ [r]: u [a][b] &lt; <http://x>",
	      "\\$x\\$ [r\\]: u [a\\][b] \\&lt; \\<http\\://x>");
}
END_TEST

#define WJ "\xe2\x81\xa0" /* U+2060, the word joiner */

/* GFM's autolink extension (cmark-gfm --extension autolink, GitHub) links "http://",
 * "https://", "ftp://" (any case), "www." and user@host (with mailto: or xmpp: before it
 * too) where they stand in plain text: data must read as text, not as a link. Expected
 * values by hand; tests/e2e/escaping.sh has cmark-gfm judge them. */
START_TEST(test_esc_md_autolinks_are_broken)
{
	check(pd_esc_md, "https://evil.example/login", "https\\://evil.example/login");
	check(pd_esc_md, "x HTTP://e.x ftp://e.x", "x HTTP\\://e.x ftp\\://e.x");
	check(pd_esc_md, "www.evil.example (WwW.e.x)", "www\\.evil.example (WwW\\.e.x)");
	check(pd_esc_md, "me@evil.example", "me@" WJ "evil.example");
	check(pd_esc_md, "mailto:a.b+c@e.x xmpp:u_1@e.x/r",
	      "mailto:a.b+c@" WJ "e.x xmpp:u_1@" WJ "e.x/r");
	/* GitHub mentions: "@name" and "@org/team" notify; so did "me@evil" once a word
	 * joiner stood before its '@' (a mention starts after a character no word has) */
	check(pd_esc_md, "@octocat (@org/team) me@evil",
	      "@" WJ "octocat (@" WJ "org/team) me@" WJ "evil");
	/* an '@' before no letter or digit, a ':' not before "//", an address or host of
	 * digits, and "www" without its dot stay as they are */
	check(pd_esc_md, "@ @- :x a:/b 10.0.0.1:8091 awww wwwx.y",
	      "@ @- :x a:/b 10.0.0.1:8091 awww wwwx.y");
	/* a backslash of the input before "://" is escaped, and the ':' still is */
	check(pd_esc_md, "http\\://e.x", "http\\\\\\://e.x");
}
END_TEST

/* Jira's wiki renderer links a URL of its schemes (http https ftp ftps mailto nntp news
 * irc file) wherever it stands in plain text, inside an escaped [text|URL] too; Jira
 * Cloud links www. and user@host. An entity for the first character shows the same text
 * and links nothing. Expected values by hand. */
START_TEST(test_esc_jira_autolinks_are_broken)
{
	check(pd_esc_jira, "https://evil.example/login", "&#104;ttps://evil.example/login");
	check(pd_esc_jira, "www.evil.example (WwW.e.x)", "www&#46;evil.example (WwW&#46;e.x)");
	check(pd_esc_jira, "[text|http://x]", "\\[text\\|&#104;ttp://x\\]");
	check(pd_esc_jira, "{color:red}x{color}", "\\{color:red\\}x\\{color\\}");
	check(pd_esc_jira,
	      "HTTP://a ftp://b ftps://c mailto:d nntp://e news://f irc://g file:/h",
	      "&#72;TTP://a &#102;tp://b &#102;tps://c &#109;ailto:d &#110;ntp://e "
	      "&#110;ews://f "
	      "&#105;rc://g &#102;ile:/h");
	check(pd_esc_jira, "me@evil.example", "me&#64;evil.example");
	/* what no renderer links stays as it is */
	check(pd_esc_jira, "@me awww wwwx.y 10.0.0.1:8091 http:x fil:e",
	      "@me awww wwwx.y 10.0.0.1:8091 http:x fil:e");
}
END_TEST

START_TEST(test_esc_jira_hostile_strings)
{
	check(pd_esc_jira, "{code}x{code}", "\\{code\\}x\\{code\\}");
	check(pd_esc_jira, "|a|b|", "\\|a\\|b\\|");
	check(pd_esc_jira, "*b* _i_ -d- +u+ ^s^ ~s~ ?? !i! #1 [l] (x) % @u",
	      "\\*b\\* \\_i\\_ \\-d\\- \\+u\\+ \\^s\\^ \\~s\\~ \\?\\? \\!i\\! #1 \\[l\\] "
	      "\\(x) % @u");
	/* "\\" is a forced line break in Jira: a backslash is an entity */
	check(pd_esc_jira, "a\\b \\\\", "a&#92;b &#92;&#92;");
	check(pd_esc_jira, "l1\nl2\r\tx", "l1 l2  x");
	/* Jira decodes entities (hence &#92;): "&" is written &amp; so that "&amp;" in a
	 * name reads as itself and "R&D" as R&D */
	check(pd_esc_jira, "a &amp; b, R&D", "a &amp;amp; b, R&amp;D");
	/* Jira escapes HTML itself; only the parentheses are markup (emoticons) */
	check(pd_esc_jira, SCRIPT, "<script>alert(1)</script>");
	check(pd_esc_jira, "\x1b\xff\xc4\xaa", FFFD FFFD "\xc4\xaa");
	/* between letters a marker is text; a first "#" or "-" would start a list */
	check(pd_esc_jira, "iris-multi-client n1ql_thr_Q3 172.23.100.40 (kv +0.1%, n1ql)",
	      "iris-multi-client n1ql_thr_Q3 172.23.100.40 (kv \\+0.1%, n1ql)");
	check(pd_esc_jira, "# x", "\\# x");
	check(pd_esc_jira, "- x :) (on) ok", "\\- x :\\) \\(on) ok");
	check(pd_esc_jira, "[post-event-mismatch]", "\\[post-event-mismatch\\]");
}
END_TEST

START_TEST(test_esc_gnuplot_path_keeps_every_byte)
{
	/* octal by hand: 0xe9 = 0351, '\\' = 0134, '\'' = 047, '"' = 042, '\n' = 012,
	 * ' ' = 040 */
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"/tmp/rep/charts/n001.svg", "\"/tmp/rep/charts/n001.svg\""},
		{"/tmp/r\xe9p/x.svg", "\"/tmp/r\\351p/x.svg\""},
		{"a\\Ub", "\"a\\134Ub\""},
		{"q'\"z\n y", "\"q\\047\\042z\\012\\040y\""},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct pd_buf b = PD_BUF_INIT;
		pd_esc_gnuplot_path(&b, cases[i].in);
		ck_assert_str_eq(b.ptr, cases[i].out);
		pd_buf_release(&b);
	}
}
END_TEST

Suite *pd_suite_escape(void)
{
	Suite *s = suite_create("escape");
	TCase *tc = tcase_create("escape");
	tcase_add_test(tc, test_esc_utf8_rejects_overlong_surrogate_and_cut_sequences);
	tcase_add_test(tc, test_esc_json_hostile_strings);
	tcase_add_test(tc, test_esc_ascii_runs_then_escapes);
	tcase_add_test(tc, test_esc_html_hostile_strings);
	tcase_add_test(tc, test_esc_text_hostile_strings);
	tcase_add_test(tc, test_esc_bidi_controls_are_never_written_as_they_are);
	tcase_add_test(tc, test_esc_xml_hostile_strings);
	tcase_add_test(tc, test_esc_xml_round_trips_through_libxml2);
	tcase_add_test(tc, test_esc_md_hostile_strings);
	tcase_add_test(tc, test_esc_md_autolinks_are_broken);
	tcase_add_test(tc, test_esc_jira_hostile_strings);
	tcase_add_test(tc, test_esc_jira_autolinks_are_broken);
	tcase_add_test(tc, test_esc_gnuplot_path_keeps_every_byte);
	suite_add_tcase(s, tc);
	return s;
}
