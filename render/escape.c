#include "escape.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static size_t utf8_len(const unsigned char *s)
{
	unsigned cp;
	return pd_esc_utf8((const char *)s, &cp);
}

void pd_esc_json(struct pd_buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	pd_buf_addch(b, '"');
	while (*p) {
		size_t n = utf8_len(p);
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
		} else {
			pd_buf_add(b, p, n);
			p += n;
		}
	}
	pd_buf_addch(b, '"');
}

/* printf's 17 significant digits of v (correctly rounded) into d, sign into *neg;
 * returns the decimal exponent of d[0]. */
static int digits17(char d[17], double v, int *neg)
{
	char s[40];
	snprintf(s, sizeof(s), "%.16e", v);
	const char *p = s + (*neg = s[0] == '-');
	d[0] = p[0];
	memcpy(d + 1, p + 2, 16); /* after "d." */
	return atoi(p + 19);      /* after "d.dddddddddddddddde" */
}

/* The 17 digits d rounded to p (< 17), into out, with *e adjusted for a carry out of the
 * first digit. 0 when the dropped digits are exactly a half: 17 digits cannot tell which
 * way the exact value rounds, and printf must say. */
static int round_digits(char *out, const char *d, int p, int *e)
{
	int half = d[p] == '5';
	for (int i = p + 1; i < 17 && half; i++)
		half = d[i] == '0';
	if (half)
		return 0;
	memcpy(out, d, (size_t)p);
	if (d[p] < '5')
		return 1;
	int i = p - 1;
	while (i >= 0 && out[i] == '9')
		out[i--] = '0';
	if (i >= 0) {
		out[i]++;
	} else { /* 9.99 -> 10.0 */
		out[0] = '1';
		++*e;
	}
	return 1;
}

/* p digits d with exponent e as printf's %.<p>g writes them into s: exponent form below
 * 1e-4 and from 10^p on, trailing zeros (and a bare point) dropped. */
static void format_g(char *s, int neg, const char *d, int p, int e)
{
	int n = p;
	while (n > 1 && d[n - 1] == '0')
		n--;
	if (neg)
		*s++ = '-';
	if (e < -4 || e >= p) {
		*s++ = d[0];
		if (n > 1)
			*s++ = '.', memcpy(s, d + 1, (size_t)n - 1), s += n - 1;
		sprintf(s, "e%c%02d", e < 0 ? '-' : '+', abs(e));
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

void pd_esc_json_num(struct pd_buf *b, double v)
{
	char d17[17], d[17], s[40];
	int neg;
	if (!isfinite(v)) {
		pd_buf_adds(b, "null");
		return;
	}
	if (v == 0) {
		pd_buf_adds(b, signbit(v) ? "-0" : "0");
		return;
	}
	if (fabs(v) < 1e15 && v == trunc(v)) { /* what %.15g writes, without its cost */
		pd_buf_addf(b, "%lld", (long long)v);
		return;
	}
	/* the shortest of %.15g, %.16g and %.17g that reads back as v, from one printf */
	int e17 = digits17(d17, v, &neg);
	for (int p = 15; p <= 16; p++) {
		int e = e17;
		if (round_digits(d, d17, p, &e))
			format_g(s, neg, d, p, e);
		else
			snprintf(s, sizeof(s), "%.*g", p, v);
		if (strtod(s, NULL) == v) {
			pd_buf_adds(b, s);
			return;
		}
	}
	format_g(s, neg, d17, 17, e17);
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
 * U+FFFF. */
static int markup_forbidden(unsigned cp, int xml)
{
	if (xml)
		return cp < 0x20 || cp == 0xfffe || cp == 0xffff;
	return (cp < 0x20 && cp != '\n' && cp != '\t') || (cp >= 0x7f && cp < 0xa0);
}

/* Invalid UTF-8 becomes U+FFFD too: it would let a browser guess the encoding. */
static void markup(struct pd_buf *b, const char *s, int xml)
{
	while (*s) {
		unsigned cp;
		size_t n = pd_esc_utf8(s, &cp);
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
		/* C0 and C1 controls (U+009B is CSI to xterm) and bytes that are not UTF-8 */
		if (!n || cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp == '\\') {
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

/* Appends the character at *p for a lightweight markup: special ones after a backslash,
 * line breaks and tabs as a space, control characters and invalid UTF-8 as U+FFFD.
 * Returns the number of bytes consumed. */
static size_t markup_char(struct pd_buf *b, const char *p, const char *special)
{
	unsigned cp;
	size_t n = pd_esc_utf8(p, &cp);
	if (!n) {
		pd_buf_adds(b, REPLACEMENT);
		return 1;
	}
	if (cp == '\n' || cp == '\r' || cp == '\t')
		pd_buf_addch(b, ' ');
	else if (cp < 0x20 || cp == 0x7f)
		pd_buf_adds(b, REPLACEMENT);
	else if (cp < 0x80 && strchr(special, (int)cp)) /* strchr would truncate cp; not 0 */
		pd_buf_addch(b, '\\'), pd_buf_addch(b, (char)cp);
	else
		pd_buf_add(b, p, n);
	return n;
}

void pd_esc_md(struct pd_buf *b, const char *s)
{
	/* CommonMark lets a backslash escape any ASCII punctuation; these are the ones that
	 * can start markup inline, in a GFM table cell or at the start of a line */
	while (*s)
		s += markup_char(b, s, "\\`*_{}[]()#+-.!|<>&~");
}

void pd_esc_jira(struct pd_buf *b, const char *s)
{
	while (*s) {
		if (*s == '\\') {
			/* Jira keeps a backslash before a non-special character, but "\\" is a
			 * forced line break: an entity is the only literal backslash */
			pd_buf_adds(b, "&#92;"), s++;
			continue;
		}
		/* the characters Jira's BackslashEscapeRendererComponent unescapes */
		s += markup_char(b, s, "-#*_+?^~|%{}[]()!@");
	}
}
