#include "escape.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s, or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned c = s[0];
	size_t n;
	unsigned min;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, min = 0x10000;
	else
		return 0;
	unsigned cp = c & (0x3f >> (n - 1));
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
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

void pd_esc_html(struct pd_buf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '&': pd_buf_adds(b, "&amp;"); break;
		case '<': pd_buf_adds(b, "&lt;"); break;
		case '>': pd_buf_adds(b, "&gt;"); break;
		case '"': pd_buf_adds(b, "&quot;"); break;
		case '\'': pd_buf_adds(b, "&#39;"); break;
		default:
			if (*p < 0x20 && *p != '\n' && *p != '\t')
				pd_buf_adds(b, "&#xfffd;");
			else
				pd_buf_addch(b, (char)*p);
		}
	}
}

void pd_esc_text(struct pd_buf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f || *p == '\\')
			pd_buf_addf(b, "\\x%02x", *p);
		else
			pd_buf_addch(b, (char)*p);
	}
}
