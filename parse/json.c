#include "json.h"

#include <string.h>

size_t pd_json_find_nul(const char *s, size_t n)
{
	for (const char *p = memchr(s, '\\', n); p; p = memchr(p, '\\', n - (size_t)(p - s))) {
		size_t i = (size_t)(p - s);
		if (i + 5 < n && s[i + 1] == 'u' && !memcmp(s + i + 2, "0000", 4))
			return i;
		p += 2; /* past the escaped character, so that "\\u0000" is text */
		if ((size_t)(p - s) >= n)
			break;
	}
	return n;
}

int pd_json_peek(struct pd_json_scan *sc)
{
	while (sc->at < sc->n && (sc->s[sc->at] == ' ' || sc->s[sc->at] == '\t' ||
				  sc->s[sc->at] == '\n' || sc->s[sc->at] == '\r'))
		sc->at++;
	return sc->at < sc->n ? (unsigned char)sc->s[sc->at] : -1;
}

int pd_json_eat(struct pd_json_scan *sc, char c)
{
	if (pd_json_peek(sc) != (unsigned char)c)
		return 0;
	sc->at++;
	return 1;
}

/* An error at byte i. */
static int stop(struct pd_json_scan *sc, size_t i)
{
	sc->at = i;
	return -1;
}

static int hex4(const char *s)
{
	for (int i = 0; i < 4; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]) || !s[i])
			return 0;
	return 1;
}

int pd_json_string(struct pd_json_scan *sc, const char **out, size_t *len)
{
	size_t i;
	if (!pd_json_eat(sc, '"'))
		return -1;
	for (i = sc->at; i < sc->n && sc->s[i] != '"'; i++) {
		unsigned char c = (unsigned char)sc->s[i];
		if (c < 0x20)
			return stop(sc, i);
		if (c != '\\')
			continue;
		if (i + 1 >= sc->n || !strchr("\"\\/bfnrtu", sc->s[i + 1]) || !sc->s[i + 1] ||
		    (sc->s[i + 1] == 'u' && (i + 5 >= sc->n || !hex4(sc->s + i + 2))))
			return stop(sc, i);
		i += sc->s[i + 1] == 'u' ? 5 : 1;
	}
	if (i >= sc->n)
		return stop(sc, i);
	*out = sc->s + sc->at, *len = i - sc->at;
	sc->at = i + 1;
	return 0;
}

static size_t digits(const struct pd_json_scan *sc, size_t i)
{
	while (i < sc->n && sc->s[i] >= '0' && sc->s[i] <= '9')
		i++;
	return i;
}

int pd_json_number(struct pd_json_scan *sc, const char **out, size_t *len)
{
	size_t i, start;
	pd_json_peek(sc);
	i = start = sc->at;
	if (i < sc->n && sc->s[i] == '-')
		i++;
	if (i < sc->n && sc->s[i] == '0')
		i++;
	else if (i < sc->n && sc->s[i] >= '1' && sc->s[i] <= '9')
		i = digits(sc, i);
	else
		return stop(sc, i);
	if (i < sc->n && sc->s[i] == '.') {
		size_t f = i + 1;
		if ((i = digits(sc, f)) == f)
			return stop(sc, i);
	}
	if (i < sc->n && (sc->s[i] == 'e' || sc->s[i] == 'E')) {
		size_t e = ++i < sc->n && (sc->s[i] == '+' || sc->s[i] == '-') ? i + 1 : i;
		if ((i = digits(sc, e)) == e)
			return stop(sc, i);
	}
	*out = sc->s + start, *len = i - start;
	sc->at = i;
	return 0;
}

/* The rest of an array or object after its opening byte, its values skipped. */
static int skip_members(struct pd_json_scan *sc, char close, int object)
{
	const char *k;
	size_t kn;
	if (++sc->depth > PD_JSON_MAX_DEPTH)
		return -1;
	if (!pd_json_eat(sc, close)) {
		do {
			if (object &&
			    (pd_json_string(sc, &k, &kn) < 0 || !pd_json_eat(sc, ':')))
				return -1;
			if (pd_json_skip(sc) < 0)
				return -1;
		} while (pd_json_eat(sc, ','));
		if (!pd_json_eat(sc, close))
			return -1;
	}
	sc->depth--;
	return 0;
}

static int literal(struct pd_json_scan *sc, const char *word)
{
	size_t n = strlen(word);
	if (sc->n - sc->at < n || memcmp(sc->s + sc->at, word, n))
		return -1;
	sc->at += n;
	return 0;
}

int pd_json_skip(struct pd_json_scan *sc)
{
	const char *v;
	size_t n;
	switch (pd_json_peek(sc)) {
	case '{':
		sc->at++;
		return skip_members(sc, '}', 1);
	case '[':
		sc->at++;
		return skip_members(sc, ']', 0);
	case '"':
		return pd_json_string(sc, &v, &n);
	case 't':
		return literal(sc, "true");
	case 'f':
		return literal(sc, "false");
	case 'n':
		return literal(sc, "null");
	default:
		return pd_json_number(sc, &v, &n);
	}
}

int pd_json_is(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && !memcmp(s, word, len);
}
