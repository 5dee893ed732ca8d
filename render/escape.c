#include "escape.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

size_t pd_esc_utf8(const char *s, unsigned *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned c = u[0];
	size_t n;
	unsigned min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, min = 0x10000;
	else
		return 0;
	unsigned v = c & (0x3f >> (n - 1));
	for (size_t i = 1; i < n; i++) { /* stops at the first non-continuation, the NUL too */
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (u[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return n;
}

int pd_esc_bidi(unsigned cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

static size_t utf8_len(const unsigned char *s)
{
	unsigned cp;
	return pd_esc_utf8((const char *)s, &cp);
}

static unsigned cp_of(const unsigned char *s)
{
	unsigned cp = 0;
	pd_esc_utf8((const char *)s, &cp);
	return cp;
}

/* How many bytes from p on a JSON string holds as they are: printable ASCII but '"', '\\'
 * and '<' (the loop below would copy each alone; one copy for the run). */
static size_t json_plain(const unsigned char *p)
{
	size_t n = 0;
	while (p[n] >= 0x20 && p[n] < 0x7f && p[n] != '"' && p[n] != '\\' && p[n] != '<')
		n++;
	return n;
}

void pd_esc_json(struct pd_buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	pd_buf_addch(b, '"');
	while (*p) {
		size_t n = json_plain(p);
		if (n) {
			pd_buf_add(b, p, n);
			p += n;
			continue;
		}
		n = utf8_len(p);
		if (!n) {
			pd_buf_adds(b, "\\ufffd");
			p++;
		} else if (*p == '"' || *p == '\\') {
			pd_buf_addch(b, '\\');
			pd_buf_addch(b, (char)*p++);
		} else if (*p == '\n') {
			pd_buf_adds(b, "\\n"), p++;
		} else if (*p == '\t') {
			pd_buf_adds(b, "\\t"), p++;
		} else if (*p < 0x20 || *p == 0x7f) {
			pd_buf_addf(b, "\\u%04x", *p++);
		} else if (*p == '<') {
			pd_buf_adds(b, "\\u003c"), p++; /* safe inside an HTML <script> too */
		} else if (pd_esc_bidi(cp_of(p))) {
			pd_buf_addf(b, "\\u%04x", cp_of(p)), p += n;
		} else {
			pd_buf_add(b, p, n);
			p += n;
		}
	}
	pd_buf_addch(b, '"');
}

/* --- JSON numbers ------------------------------------------------------------------ *
 * A double is written as the shortest of %.15g, %.16g and %.17g that reads back as it.
 * printf and strtod do that exactly but slowly (a multi-precision printf costs 0.7 us),
 * and a summary holds tens of thousands of numbers. For v = m * 2^q between about 1e-10
 * and 1e35 the same digits come from 128-bit integers: v * 10^s is the fraction
 * m * 5^s * 2^(q + s) (or over 5^-s), rounded half to even as printf rounds, and a
 * candidate reads back as v when it lies between v's neighbours' midpoints (on a
 * midpoint, when m is even, as strtod rounds). Anything else takes printf's way. */

#ifdef __SIZEOF_INT128__ /* gcc and clang on 64-bit targets; elsewhere, printf's way */
__extension__ typedef unsigned __int128 u128;

static uint64_t pow5(int k)
{
	uint64_t r = 1;
	while (k-- > 0)
		r *= 5;
	return r;
}

static uint64_t pow10u(int k)
{
	uint64_t r = 1;
	while (k-- > 0)
		r *= 10;
	return r;
}

/* m * 2^q * 10^s as num / den; 0 when it would not fit 128 bits (m < 2^56). */
static int scaled(u128 *num, u128 *den, uint64_t m, int q, int s)
{
	int a = q + s;                              /* 10^s = 5^s * 2^s */
	if (s > 27 || s < -27 || a > 60 || a < -60) /* 5^27 < 2^63 */
		return 0;
	*num = (u128)m * pow5(s > 0 ? s : 0);
	*den = pow5(s < 0 ? -s : 0);
	if (a >= 0 && (*num >> (127 - a)) != 0)
		return 0;
	if (a >= 0)
		*num <<= a;
	else
		*den <<= -a;
	return 1;
}

/* The sign of x - m * 2^q * 10^s, or 2 when it cannot be told in 128 bits. */
static int compare_scaled(uint64_t x, uint64_t m, int q, int s)
{
	u128 num, den;
	if (!scaled(&num, &den, m, q, s))
		return 2;
	u128 whole = num / den;
	if (x != whole)
		return x < whole ? -1 : 1;
	return num % den ? -1 : 0;
}

/* v (> 0) = m * 2^q with m < 2^53. */
static void split(double v, uint64_t *m, int *q)
{
	double f = frexp(v, q);
	*m = (uint64_t)ldexp(f, 53);
	*q -= 53;
}

/* The p significant digits of v (> 0) rounded half to even, as an integer x with
 * 10^(p-1) <= x < 10^p, and the exponent e of its first digit (after a carry, as printf
 * counts it); 0 out of range. */
static int digits(uint64_t *x, int *e, uint64_t m, int q, double v, int p)
{
	*e = (int)floor(log10(v)); /* a guess: log10 rounds */
	for (int tries = 0; tries < 3; tries++) {
		u128 num, den;
		if (!scaled(&num, &den, m, q, p - 1 - *e))
			return 0;
		u128 d = num / den, r = num % den;
		if (d >= pow10u(p)) {
			++*e;
		} else if (d < pow10u(p - 1)) {
			--*e;
		} else {
			d += 2 * r > den || (2 * r == den && (d & 1));
			if (d == pow10u(p)) /* 9.99... rounded up */
				d /= 10, ++*e;
			*x = (uint64_t)d;
			return 1;
		}
	}
	return 0;
}

/* 1 when x * 10^(e - p + 1) reads back as m * 2^q (a normal double), 0 when not, 2 when
 * 128 bits cannot tell. */
static int reads_back(uint64_t x, int e, int p, uint64_t m, int q)
{
	int s = p - 1 - e, even = !(m & 1);
	/* the midpoints to the neighbours; below a power of two the lower one is closer */
	int lo = m == (1ull << 52) ? compare_scaled(x, 4 * m - 1, q - 2, s)
				   : compare_scaled(x, 2 * m - 1, q - 1, s);
	int hi = compare_scaled(x, 2 * m + 1, q - 1, s);
	if (lo == 2 || hi == 2)
		return 2;
	return (lo > 0 || (lo == 0 && even)) && (hi < 0 || (hi == 0 && even));
}

/* p digits of x with exponent e as printf's %.<p>g writes them into s: exponent form
 * below 1e-4 and from 10^p on, trailing zeros (and a bare point) dropped. */
static void format_g(char *s, int neg, uint64_t x, int p, int e)
{
	char d[20];
	for (int i = p - 1; i >= 0; i--, x /= 10)
		d[i] = (char)('0' + x % 10);
	int n = p;
	while (n > 1 && d[n - 1] == '0')
		n--;
	if (neg)
		*s++ = '-';
	if (e < -4 || e >= p) {
		*s++ = d[0];
		if (n > 1)
			*s++ = '.', memcpy(s, d + 1, (size_t)n - 1), s += n - 1;
		snprintf(s, 16, "e%c%02d", e < 0 ? '-' : '+', abs(e)); /* s has 40 bytes */
		return;
	}
	if (e < 0) {
		*s++ = '0', *s++ = '.';
		for (int i = -1; i > e; i--)
			*s++ = '0';
		memcpy(s, d, (size_t)n), s += n;
	} else {
		for (int i = 0; i <= e; i++)
			*s++ = i < n ? d[i] : '0';
		if (n > e + 1)
			*s++ = '.', memcpy(s, d + e + 1, (size_t)(n - e - 1)), s += n - e - 1;
	}
	*s = '\0';
}

/* The shortest digits by integers; 0 when v is out of their range. */
static int shortest_exact(char *s, double v)
{
	uint64_t m, x;
	int q, e;
	if (fabs(v) < DBL_MIN) /* subnormal: below the 53-bit significands used here */
		return 0;
	split(fabs(v), &m, &q);
	for (int p = 15; p <= 17; p++) {
		if (!digits(&x, &e, m, q, fabs(v), p))
			return 0;
		int ok = p == 17 ? 1 : reads_back(x, e, p, m, q);
		if (ok == 2)
			return 0;
		if (ok) {
			format_g(s, v < 0, x, p, e);
			return 1;
		}
	}
	return 0;
}
#else
static int shortest_exact(char *s, double v)
{
	(void)s, (void)v;
	return 0;
}
#endif

void pd_esc_json_num(struct pd_buf *b, double v)
{
	char s[40];
	if (!isfinite(v)) {
		pd_buf_adds(b, "null");
		return;
	}
	if (v == 0) {
		pd_buf_adds(b, signbit(v) ? "-0" : "0");
		return;
	}
	if (fabs(v) < 1e15 && v == trunc(v)) { /* what %.15g writes */
		pd_buf_add_int(b, (int64_t)v);
		return;
	}
	if (!shortest_exact(s, v))
		for (int p = 15; p <= 17; p++) {
			snprintf(s, sizeof(s), "%.*g", p, v);
			if (strtod(s, NULL) == v)
				break;
		}
	pd_buf_adds(b, s);
}

/* The entity of a markup-special character (HTML and XML agree but on the apostrophe
 * and on whitespace, which XML attributes would fold), or NULL. */
static const char *markup_entity(unsigned cp, int xml)
{
	switch (cp) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;"; /* also keeps "]]>" out of XML text */
	case '"':
		return "&quot;";
	case '\'':
		return xml ? "&apos;" : "&#39;";
	case '\t':
		return xml ? "&#9;" : NULL;
	case '\n':
		return xml ? "&#10;" : NULL;
	case '\r':
		return xml ? "&#13;" : NULL;
	default:
		return NULL;
	}
}

/* Characters a document must not hold: C0 controls (HTML keeps tab and newline; XML
 * writes them as references above), for HTML the C1 controls, for XML 1.0 U+FFFE and
 * U+FFFF, and bidirectional formatting characters (pd_esc_bidi). */
static int markup_forbidden(unsigned cp, int xml)
{
	if (pd_esc_bidi(cp))
		return 1;
	if (xml)
		return cp < 0x20 || cp == 0xfffe || cp == 0xffff;
	return (cp < 0x20 && cp != '\n' && cp != '\t') || (cp >= 0x7f && cp < 0xa0);
}

/* How many bytes from s on markup holds as they are in HTML and XML alike: printable
 * ASCII but the five that have entities (the loop below would copy each alone). */
static size_t markup_plain(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;
	while (p[n] >= 0x20 && p[n] < 0x7f && p[n] != '&' && p[n] != '<' && p[n] != '>' &&
	       p[n] != '"' && p[n] != '\'')
		n++;
	return n;
}

/* Invalid UTF-8 becomes U+FFFD too: it would let a browser guess the encoding. */
static void markup(struct pd_buf *b, const char *s, int xml)
{
	while (*s) {
		unsigned cp;
		size_t n = markup_plain(s);
		if (n) {
			pd_buf_add(b, s, n);
			s += n;
			continue;
		}
		n = pd_esc_utf8(s, &cp);
		const char *entity = n ? markup_entity(cp, xml) : NULL;
		if (!n || (!entity && markup_forbidden(cp, xml)))
			pd_buf_adds(b, "&#xfffd;");
		else if (entity)
			pd_buf_adds(b, entity);
		else
			pd_buf_add(b, s, n);
		s += n ? n : 1;
	}
}

void pd_esc_html(struct pd_buf *b, const char *s)
{
	markup(b, s, 0);
}

void pd_esc_text(struct pd_buf *b, const char *s)
{
	while (*s) {
		unsigned cp;
		size_t n = pd_esc_utf8(s, &cp);
		/* C0 and C1 controls (U+009B is CSI to xterm), bidirectional formatting
		 * characters and bytes that are not UTF-8 */
		if (!n || cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp == '\\' ||
		    pd_esc_bidi(cp)) {
			for (size_t i = 0; i < (n ? n : 1); i++)
				pd_buf_addf(b, "\\x%02x", (unsigned char)s[i]);
			s += n ? n : 1;
		} else {
			pd_buf_add(b, s, n);
			s += n;
		}
	}
}

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD in UTF-8 */

void pd_esc_xml(struct pd_buf *b, const char *s)
{
	markup(b, s, 1);
}

/* A letter or digit of a word: ASCII alphanumerics and any non-ASCII byte. */
static int wordy(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (unsigned char)c >= 0x80;
}

static int blank(int c)
{
	return c == 0 || c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* How the ASCII character at s + i is written in this place (the escapers' rules): 0 as
 * is, 1 after a backslash, 2 as an entity, 3 before a word joiner (what no backslash or
 * entity hides from the renderer). */
typedef int (*special_fn)(const char *s, size_t i);

#define WORD_JOINER "\xe2\x81\xa0" /* U+2060: no width, no break, not a word character */

/* Appends s for a lightweight markup: the characters special says are markup after a
 * backslash (or as an entity, or after a word joiner), line breaks and tabs as a space,
 * control characters and invalid UTF-8 as U+FFFD. */
static void markup_text(struct pd_buf *b, const char *s, special_fn special)
{
	for (size_t i = 0; s[i];) {
		unsigned cp;
		size_t n = pd_esc_utf8(s + i, &cp);
		if (!n) {
			pd_buf_adds(b, REPLACEMENT);
			i++;
			continue;
		}
		if (cp == '\n' || cp == '\r' || cp == '\t')
			pd_buf_addch(b, ' ');
		else if (cp < 0x20 || cp == 0x7f || pd_esc_bidi(cp))
			pd_buf_adds(b, REPLACEMENT);
		else if (cp < 0x80 && special(s, i) == 2 && cp == '&')
			pd_buf_adds(b, "&amp;");
		else if (cp < 0x80 && special(s, i) == 2)
			pd_buf_addf(b, "&#%u;", cp);
		else if (cp < 0x80 && special(s, i) == 3)
			pd_buf_addch(b, (char)cp), pd_buf_adds(b, WORD_JOINER);
		else if (cp < 0x80 && special(s, i))
			pd_buf_addch(b, '\\'), pd_buf_addch(b, (char)cp);
		else
			pd_buf_add(b, s + i, n);
		i += n;
	}
}

/* An emphasis-like marker (Markdown's _, Jira's * _ - + ^ ~ ?) can open where no letter
 * or digit precedes it and no blank follows, and close where no blank precedes it and no
 * letter or digit follows: between two letters ("iris-multi-client", "query_requests")
 * it is text. */
static int flanking(const char *s, size_t i)
{
	int prev = i ? s[i - 1] : 0, next = s[i + 1];
	return (!wordy(prev) && !blank(next)) || (!blank(prev) && !wordy(next));
}

/* A line's first characters (the caller writes values inside a line; a value given first
 * still cannot start a heading, a list or a quote): "# ", "- ", "+ ", ">", "1. ", "1) ". */
static int line_start(const char *s, size_t i)
{
	size_t d = strspn(s, "0123456789"), h = strspn(s, "#");
	if (i == 0 && (s[0] == '>' || (h && blank(s[h]))))
		return 1;
	if (i == 0 && (s[0] == '-' || s[0] == '+' || s[0] == '*') && blank(s[1]))
		return 1;
	return d && i == d && (s[i] == '.' || s[i] == ')') && blank(s[i + 1]);
}

/* A character of an email address's local part, as GFM's extended email autolink reads
 * it backwards from the '@': a letter, a digit, or . + - _ */
static int email_local(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c && strchr(".+-_", c));
}

/* "www" (any case) just before s + i. */
static int after_www(const char *s, size_t i)
{
	if (i < 3)
		return 0;
	for (size_t k = i - 3; k < i; k++)
		if (s[k] != 'w' && s[k] != 'W')
			return 0;
	return 1;
}

/* GFM's autolink extension links text that is no markup in CommonMark: "scheme://"
 * (http, https, ftp), "www." and user@host (mailto: and xmpp: too, through their '@');
 * GitHub makes "@name" a mention, which notifies that user or team. A backslash before
 * the ':' of "://" and the '.' of "www." stops the first two and shows the same text;
 * the '@' is found after the escapes are read, so a word joiner after it keeps both an
 * address (its domain then starts with no letter or digit) and a mention (no name
 * follows) from being made. One before it made a mention of "me@evil": after a
 * character that is no word's, "@evil" is one. */
static int md_autolink(const char *s, size_t i)
{
	switch (s[i]) {
	case ':':
		return s[i + 1] == '/' && s[i + 2] == '/';
	case '.':
		return after_www(s, i);
	case '@':
		return email_local(s[i + 1]) && !strchr(".+-_", s[i + 1]) ? 3 : 0;
	default:
		return 0;
	}
}

static int md_special(const char *s, size_t i)
{
	char c = s[i], next = s[i + 1];
	int link = md_autolink(s, i);
	if (link)
		return link;
	if (line_start(s, i))
		return 1;
	switch (c) {
	case '`':
	case '*':
	case '|':
	case '~':
	case '$': /* GitHub's math */
		return 1;
	case '\\':
		return next && strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", next);
	case '_':
		return flanking(s, i);
	case ']': /* a link or a reference: "](", "][", "]:" */
		return next == '(' || next == '[' || next == ':';
	case '<': /* a tag, a comment or an autolink */
		return wordy(next) || next == '/' || next == '!' || next == '?';
	case '&': /* an entity */
		return wordy(next) || next == '#';
	default:
		return 0;
	}
}

void pd_esc_md(struct pd_buf *b, const char *s)
{
	markup_text(b, s, md_special);
}

/* Jira's emoticons: "(x)", "(on)", "(*r)", ":)", ";)" ... */
static int emoticon(const char *s, size_t i)
{
	static const char *const icons[] = {"y)",  "n)",  "i)",  "/)",  "x)",    "!)",
					    "+)",  "-)",  "?)",  "on)", "off)",  "*)",
					    "*r)", "*g)", "*b)", "*y)", "flag)", "flagoff)",
					    "^)",  "<3)", "</3)"};
	if (s[i] == '(')
		for (size_t k = 0; k < sizeof(icons) / sizeof(*icons); k++)
			if (!strncmp(s + i + 1, icons[k], strlen(icons[k])))
				return 1;
	return s[i] == ')' && i && (s[i - 1] == ':' || s[i - 1] == ';');
}

/* Jira's wiki renderer links, in plain text, a URL of these schemes (its UrlUtil,
 * matched at the scheme's first character); Jira Cloud's renderers link "www." and
 * user@host too. Written with that first character, the '.' of "www." or the '@' as an
 * entity, the text reads the same and no longer starts a link. */
static int jira_autolink(const char *s, size_t i)
{
	static const char *const schemes[] = {"http://", "https://", "ftp://",
					      "ftps://", "mailto:",  "nntp://",
					      "news://", "irc://",   "file:"};
	for (size_t k = 0; k < sizeof(schemes) / sizeof(*schemes); k++)
		if (!strncasecmp(s + i, schemes[k], strlen(schemes[k])))
			return 1;
	return (s[i] == '.' && after_www(s, i)) || (s[i] == '@' && i && email_local(s[i - 1]));
}

static int jira_special(const char *s, size_t i)
{
	if (jira_autolink(s, i))
		return 2;
	/* Jira keeps a backslash before a non-special character, but "\\\\" is a forced line
	 * break: an entity is the only literal backslash; it decodes entities too, so "&" is
	 * "&amp;" ("&amp;" from input reads as itself) */
	if (s[i] == '\\' || s[i] == '&')
		return 2;
	if (line_start(s, i))
		return 1;
	switch (s[i]) {
	case '{': /* macros */
	case '}':
	case '[': /* links, mentions */
	case ']':
	case '|': /* tables, a link's URL */
	case '!': /* images */
		return 1;
	case '*':
	case '_':
	case '-':
	case '+':
	case '^':
	case '~':
		return flanking(s, i);
	case '?': /* ??citation?? */
		return (s[i + 1] == '?' || (i && s[i - 1] == '?')) && flanking(s, i);
	case '(':
	case ')':
	case ':':
	case ';':
		return emoticon(s, i);
	default:
		return 0;
	}
}

void pd_esc_gnuplot_path(struct pd_buf *b, const char *path)
{
	pd_buf_addch(b, '"');
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/._-", *p))
			pd_buf_addch(b, (char)*p);
		else
			pd_buf_addf(b, "\\%03o", *p);
	pd_buf_addch(b, '"');
}

void pd_esc_jira(struct pd_buf *b, const char *s)
{
	markup_text(b, s, jira_special);
}

void pd_esc_sh(struct pd_buf *b, const char *s)
{
	pd_buf_addch(b, '\'');
	for (; *s; s++)
		if (*s == '\'')
			pd_buf_adds(b, "'\\''");
		else
			pd_buf_addch(b, *s);
	pd_buf_addch(b, '\'');
}
