/* render/escape.c's escapers: the input (up to its first NUL) through each one, and each
 * output checked for what its target needs, so that a string from a bundle cannot
 * become markup, a control sequence, another shell word or another file name:
 *   json   parses (cJSON) as one string: the input, invalid UTF-8 as U+FFFD;
 *   number the first 8 bytes as a double, and the input read by strtod: null when not
 *          finite, else byte for byte the shortest of %.15g, %.16g, %.17g reading back;
 *   html   no raw < > " ', & only in the escaper's entities, no forbidden character;
 *          its entities decoded, the input with forbidden characters as U+FFFD;
 *   xml    the same, and <a b="OUT">OUT</a> is well-formed (libxml2) with the attribute
 *          and the text both the input with forbidden characters as U+FFFD;
 *   text   printable UTF-8 only, every backslash an \xNN that decodes back to the input;
 *   md     UTF-8 without controls, line breaks or bidi; ` * | ~ $ never bare;
 *   jira   the same; { } [ ] | ! never bare, no backslash but an escape;
 *   gnuplot a double-quoted string of [A-Za-z0-9/._-] and \ooo that decodes to the input;
 *   sh     one single-quoted word that decodes to the input;
 *   utf8   pd_esc_utf8 agrees with the definition (no overlong, surrogate, > U+10FFFF). */
#include "fuzz.h"
#include "core/buf.h"
#include "render/escape.h"

#include <cjson/cJSON.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond, what)                                                                      \
	do {                                                                                   \
		if (!(cond)) {                                                                 \
			fprintf(stderr, "fuzz_escape: %s: %s\n", what, #cond);                 \
			abort();                                                               \
		}                                                                              \
	} while (0)

#define FFFD "\xef\xbf\xbd"

/* The UTF-8 sequence at s by the definition (RFC 3629): its length, 0 when invalid. */
static size_t ref_utf8(const unsigned char *s, unsigned *cp)
{
	size_t n;
	unsigned c;
	if (s[0] < 0x80) {
		*cp = s[0];
		return s[0] ? 1 : 0;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* Whether s is valid UTF-8 whose every code point passes ok. */
static int utf8_all(const char *s, int (*ok)(unsigned cp))
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned cp;
		size_t n = ref_utf8(p, &cp);
		if (!n || (ok && !ok(cp)))
			return 0;
		p += n;
	}
	return 1;
}

/* The input as a markup escaper keeps it: each invalid byte and each forbidden code point
 * as U+FFFD. */
static void replaced(struct pd_buf *out, const char *s, int (*forbidden)(unsigned cp))
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned cp;
		size_t n = ref_utf8(p, &cp);
		if (!n || (forbidden && forbidden(cp)))
			pd_buf_adds(out, FFFD);
		else
			pd_buf_add(out, p, n);
		p += n ? n : 1;
	}
}

static int html_ok(unsigned cp)
{
	return !pd_esc_bidi(cp) && (cp >= 0x20 || cp == '\n' || cp == '\t') &&
	       !(cp >= 0x7f && cp < 0xa0);
}

static int html_forbidden(unsigned cp)
{
	return !html_ok(cp);
}

static int xml_forbidden(unsigned cp)
{
	return pd_esc_bidi(cp) || (cp < 0x20 && cp != '\n' && cp != '\t' && cp != '\r') ||
	       cp == 0xfffe || cp == 0xffff;
}

static int text_ok(unsigned cp)
{
	return cp >= 0x20 && !(cp >= 0x7f && cp < 0xa0) && !pd_esc_bidi(cp);
}

static int inline_ok(unsigned cp)
{
	return cp >= 0x20 && cp != 0x7f && !pd_esc_bidi(cp);
}

static void check_json(const char *in)
{
	struct pd_buf b = PD_BUF_INIT, want = PD_BUF_INIT;
	pd_esc_json(&b, in);
	CHECK(!strchr(b.ptr, '<'), "json has a raw <");
	cJSON *j = cJSON_ParseWithOpts(b.ptr, NULL, 1);
	CHECK(j && cJSON_IsString(j), "json does not parse as a string");
	replaced(&want, in, NULL);
	CHECK(strcmp(j->valuestring, want.ptr) == 0, "json does not read back as the input");
	cJSON_Delete(j);
	pd_buf_release(&b), pd_buf_release(&want);
}

static void check_number(double v)
{
	struct pd_buf b = PD_BUF_INIT;
	char want[40];
	pd_esc_json_num(&b, v);
	if (!isfinite(v)) {
		CHECK(strcmp(b.ptr, "null") == 0, "a number that is not finite is not null");
	} else {
		for (int p = 15; p <= 17; p++) {
			snprintf(want, sizeof(want), "%.*g", p, v);
			if (strtod(want, NULL) == v)
				break;
		}
		CHECK(strcmp(b.ptr, want) == 0, "a number is not printf's shortest");
		double back = strtod(b.ptr, NULL);
		CHECK(memcmp(&back, &v, sizeof(v)) == 0, "a number does not read back");
	}
	pd_buf_release(&b);
}

/* Markup with its entities decoded, after checking that & starts only one of the
 * escaper's (HTML has no &apos; and writes whitespace as it is). */
static void markup_decode(struct pd_buf *out, const char *s, int xml)
{
	static const struct {
		const char *entity, *text;
		int xml_only;
	} ent[] = {
		{"&amp;", "&", 0},     {"&lt;", "<", 0},   {"&gt;", ">", 0},
		{"&quot;", "\"", 0},   {"&#39;", "'", 0},  {"&apos;", "'", 1},
		{"&#9;", "\t", 1},     {"&#10;", "\n", 1}, {"&#13;", "\r", 1},
		{"&#xfffd;", FFFD, 0},
	};
	while (*s) {
		if (*s != '&') {
			pd_buf_addch(out, *s++);
			continue;
		}
		size_t i = 0, n = sizeof(ent) / sizeof(ent[0]);
		while (i < n && strncmp(s, ent[i].entity, strlen(ent[i].entity)) != 0)
			i++;
		CHECK(i < n, "markup has an & that starts no entity of the escaper's");
		CHECK(xml || !ent[i].xml_only, "html has an entity only xml writes");
		pd_buf_adds(out, ent[i].text);
		s += strlen(ent[i].entity);
	}
}

static void check_markup(const char *in, int xml)
{
	struct pd_buf b = PD_BUF_INIT, dec = PD_BUF_INIT, want = PD_BUF_INIT;
	const char *what = xml ? "xml" : "html";
	if (xml)
		pd_esc_xml(&b, in);
	else
		pd_esc_html(&b, in);
	CHECK(!strpbrk(b.ptr, "<>\"'"), what);
	CHECK(utf8_all(b.ptr, xml ? NULL : html_ok), what);
	CHECK(!xml || !strpbrk(b.ptr, "\t\n\r"), "xml has a raw tab or line break");
	markup_decode(&dec, b.ptr, xml);
	replaced(&want, in, xml ? xml_forbidden : html_forbidden);
	CHECK(strcmp(dec.ptr, want.ptr) == 0, "markup does not decode to the input");
	if (xml) {
		struct pd_buf doc = PD_BUF_INIT;
		pd_buf_addf(&doc, "<a b=\"%s\">%s</a>", b.ptr, b.ptr);
		xmlDocPtr d = xmlReadMemory(doc.ptr, (int)doc.len, "fuzz.xml", "UTF-8",
					    XML_PARSE_NONET | XML_PARSE_NOERROR |
						    XML_PARSE_NOWARNING);
		CHECK(d, "xml is not well-formed in an attribute and a text");
		xmlNodePtr root = xmlDocGetRootElement(d);
		xmlChar *attr = xmlGetProp(root, (const xmlChar *)"b");
		xmlChar *text = xmlNodeGetContent(root);
		CHECK(attr && strcmp((const char *)attr, want.ptr) == 0,
		      "an xml attribute does not read back");
		CHECK(text && strcmp((const char *)text, want.ptr) == 0,
		      "an xml text does not read back");
		xmlFree(attr), xmlFree(text), xmlFreeDoc(d);
		pd_buf_release(&doc);
	}
	pd_buf_release(&b), pd_buf_release(&dec), pd_buf_release(&want);
}

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static void check_text(const char *in)
{
	struct pd_buf b = PD_BUF_INIT, dec = PD_BUF_INIT;
	pd_esc_text(&b, in);
	CHECK(utf8_all(b.ptr, text_ok), "text has a control, a bidi or invalid UTF-8");
	for (const char *s = b.ptr; *s;) {
		if (*s != '\\') {
			pd_buf_addch(&dec, *s++);
			continue;
		}
		CHECK(s[1] == 'x' && hexval(s[2]) >= 0 && hexval(s[3]) >= 0,
		      "text has a backslash that is no \\xNN");
		pd_buf_addch(&dec, (char)(hexval(s[2]) * 16 + hexval(s[3])));
		s += 4;
	}
	CHECK(strcmp(dec.ptr, in) == 0, "text does not decode to the input");
	pd_buf_release(&b), pd_buf_release(&dec);
}

/* Lightweight markup: the characters of always are never bare (each after a backslash
 * that is not itself escaped); in Jira every backslash escapes punctuation (one as text is
 * &#92;), in Markdown one before anything else is text. */
static void check_inline(const char *in, int jira)
{
	struct pd_buf b = PD_BUF_INIT;
	const char *always = jira ? "{}[]|!" : "`*|~$";
	const char *what = jira ? "jira" : "md";
	if (jira)
		pd_esc_jira(&b, in);
	else
		pd_esc_md(&b, in);
	CHECK(utf8_all(b.ptr, inline_ok), what);
	for (const char *s = b.ptr; *s; s++) {
		int punct = s[1] && strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", s[1]);
		/* Markdown reads a backslash before anything else as itself */
		if (*s == '\\' && (punct || !jira)) {
			s += punct;
			continue;
		}
		CHECK(!strchr(always, *s), what);
	}
	pd_buf_release(&b);
}

static void check_gnuplot(const char *in)
{
	struct pd_buf b = PD_BUF_INIT, dec = PD_BUF_INIT;
	pd_esc_gnuplot_path(&b, in);
	CHECK(b.len >= 2 && b.ptr[0] == '"' && b.ptr[b.len - 1] == '"', "gnuplot quotes");
	for (size_t i = 1; i + 1 < b.len;) {
		char c = b.ptr[i];
		if (c != '\\') {
			CHECK((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				      (c >= '0' && c <= '9') || strchr("/._-", c),
			      "gnuplot has a byte that is no [A-Za-z0-9/._-]");
			pd_buf_addch(&dec, c), i++;
			continue;
		}
		CHECK(i + 4 < b.len && b.ptr[i + 1] >= '0' && b.ptr[i + 1] <= '3' &&
			      b.ptr[i + 2] >= '0' && b.ptr[i + 2] <= '7' &&
			      b.ptr[i + 3] >= '0' && b.ptr[i + 3] <= '7',
		      "gnuplot has a backslash that is no \\ooo");
		pd_buf_addch(&dec, (char)((b.ptr[i + 1] - '0') * 64 + (b.ptr[i + 2] - '0') * 8 +
					  (b.ptr[i + 3] - '0')));
		i += 4;
	}
	CHECK(strcmp(dec.ptr, in) == 0, "gnuplot does not decode to the input");
	pd_buf_release(&b), pd_buf_release(&dec);
}

/* The shell's reading of one word made of '...' and \' only. */
static void check_sh(const char *in)
{
	struct pd_buf b = PD_BUF_INIT, dec = PD_BUF_INIT;
	pd_esc_sh(&b, in);
	for (const char *s = b.ptr; *s;) {
		if (*s == '\\') {
			CHECK(s[1] == '\'', "sh has a backslash outside quotes before no '");
			pd_buf_addch(&dec, '\''), s += 2;
			continue;
		}
		CHECK(*s == '\'', "sh has a byte outside quotes");
		const char *end = strchr(s + 1, '\'');
		CHECK(end, "sh has an unclosed quote");
		pd_buf_add(&dec, s + 1, (size_t)(end - s - 1));
		s = end + 1;
	}
	CHECK(strcmp(dec.ptr, in) == 0, "sh does not decode to the input");
	pd_buf_release(&b), pd_buf_release(&dec);
}

static void check_utf8(const char *in)
{
	for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
		unsigned cp = 0, want = 0;
		size_t n = pd_esc_utf8((const char *)p, &cp), w = ref_utf8(p, &want);
		CHECK(n == w && (!n || cp == want), "pd_esc_utf8 disagrees with RFC 3629");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct pd_src src;
	char *in = fuzz_src(&src, data, len, "fuzz");
	double v;
	if (len >= sizeof(v)) {
		memcpy(&v, data, sizeof(v));
		check_number(v);
	}
	check_number(strtod(in, NULL));
	check_json(in);
	check_markup(in, 0);
	check_markup(in, 1);
	check_text(in);
	check_inline(in, 0);
	check_inline(in, 1);
	check_gnuplot(in);
	check_sh(in);
	check_utf8(in);
	free(in);
	return 0;
}
