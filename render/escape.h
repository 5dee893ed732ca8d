/* Escaping, one function per target language: every string from an input goes through
 * one of these before it lands in an output. Each appends to b. */
#ifndef PD_ESCAPE_H
#define PD_ESCAPE_H

#include "../core/buf.h"

/* A JSON string literal with its quotes; bytes that are not valid UTF-8 become U+FFFD. */
void pd_esc_json(struct pd_buf *b, const char *s);
/* A JSON number: the shortest of %.15g, %.16g, %.17g that reads back as v, byte for byte
 * what printf and strtod would choose (by integer arithmetic in the usual range); null
 * when v is not finite (JSON has no NaN or infinity). */
void pd_esc_json_num(struct pd_buf *b, double v);
/* HTML text or attribute value (quotes escaped too). */
void pd_esc_html(struct pd_buf *b, const char *s);
/* Text for a terminal: control bytes shown as \xNN, so input cannot move the cursor. */
void pd_esc_text(struct pd_buf *b, const char *s);
/* XML 1.0 text or attribute value (also SVG text): & < > " ' as entities, tab, newline
 * and carriage return as character references (so attribute values keep them); other
 * control characters, U+FFFE, U+FFFF and bytes that are not valid UTF-8 become U+FFFD,
 * so the document stays well-formed whatever the input. */
void pd_esc_xml(struct pd_buf *b, const char *s);
/* Markdown (CommonMark, GFM) inline text, escaping only what would be markup where it
 * stands, so that the raw text reads as plain text ("172.23.100.40", "n1ql_thr_Q3"):
 * ` * | ~ $ always; _ where it could open or close emphasis; "](", "][", "]:"; < before a
 * tag or autolink; & before an entity; \ before punctuation; a first character that would
 * start a block (# - + > =, "1." "1)"); what GFM would autolink: the ':' of "://" and the
 * '.' of "www." after a backslash, a word joiner (U+2060) after an '@' before a letter or
 * digit (an address, or a GitHub mention: "@name" notifies that user).
 * Line breaks and tabs become spaces; other control characters and invalid UTF-8 become
 * U+FFFD. */
void pd_esc_md(struct pd_buf *b, const char *s);
/* Jira wiki inline text, likewise: { } [ ] | ! always; * _ - + ^ ~ ? where they could open
 * or close an effect (not between two letters: "iris-multi-client" stays); the parentheses
 * and colons of emoticons ("(x)", ":)"); a backslash as &#92; (Jira reads "\\" as a line
 * break) and & as &amp; (it decodes entities); a first character that would start a block;
 * what Jira would link: the first character of a URL's scheme ("&#104;ttps://", the
 * renderer's own way), the '.' of "www." and the '@' of user@host as entities.
 * Line breaks and tabs become spaces; control characters and invalid UTF-8 U+FFFD. */
void pd_esc_jira(struct pd_buf *b, const char *s);
/* A file name as a gnuplot double-quoted string, byte for byte whatever it holds: every
 * byte but [A-Za-z0-9/._-] as a three-digit octal escape ("\351", "\134" for '\'), so
 * that no encoding, no "\U+" sequence, quote or newline of a legal path changes the
 * file gnuplot opens. */
void pd_esc_gnuplot_path(struct pd_buf *b, const char *path);
/* A POSIX shell word: single-quoted, each ' written '\'' (nothing inside single quotes
 * is special to the shell, newlines included), so a path from input pasted into a
 * terminal stays one argument. */
void pd_esc_sh(struct pd_buf *b, const char *s);
/* Length (1 to 4) of the valid UTF-8 sequence at s, with its code point in *cp; 0 when the
 * bytes at s are not one (overlong, surrogate, above U+10FFFF, cut short by the NUL). */
size_t pd_esc_utf8(const char *s, unsigned *cp);

/* 1 for a bidirectional formatting character (U+061C, U+200E/F, U+202A-E, U+2066-9): it
 * reorders the text around it on screen ("Trojan Source"), so no output shows it as it
 * is: markup and the terminal write it as they write a control character, JSON as \uXXXX. */
int pd_esc_bidi(unsigned cp);

#endif
