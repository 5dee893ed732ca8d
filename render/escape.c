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

void pd_esc_json_num(struct pd_buf *b, double v)
{
	char tmp[32];
	if (!isfinite(v)) {
		pd_buf_adds(b, "null");
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*g", prec, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	pd_buf_adds(b, tmp);
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
