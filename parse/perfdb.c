/* Readers of perfdb and seriesly series bodies (see perfdb.h).
 *
 * pd_perfdb_json_parse is a one-pass scanner for exactly one JSON shape, [[ts, v], ...]:
 * no tree and no allocation but pd_series_add's growth. It accepts what RFC 8259 accepts
 * for that shape; tests/check_perfdb.c holds it against cJSON and an RFC number grammar.
 * On error every reader leaves out with the samples it had before the call. */
#include "perfdb.h"
#include "../core/metric.h"
#include "../core/xalloc.h"
#include "json.h"

#include <cJSON.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A cursor over one input; every reader here moves one. */
struct scan {
	const char *s; /* src->data */
	size_t len, pos;
	const struct pd_src *src;
	struct pd_err *err;
	const char *latency; /* a per-request latency's collector: its values are >= 0 */
};

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* The byte at the cursor, or -1 at the end of the input. */
static int peek(const struct scan *sc)
{
	return sc->pos < sc->len ? (unsigned char)sc->s[sc->pos] : -1;
}

static size_t skip_digits(struct scan *sc)
{
	size_t start = sc->pos;
	while (is_digit(peek(sc)))
		sc->pos++;
	return sc->pos - start;
}

/* RFC 8259 whitespace only: space, tab, LF, CR. */
static void skip_ws(struct scan *sc)
{
	int c;
	while ((c = peek(sc)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		sc->pos++;
}

static void skip_blanks(struct scan *sc)
{
	int c;
	while ((c = peek(sc)) == ' ' || c == '\t')
		sc->pos++;
}

static const struct pd_limits *limits(const struct pd_src *src)
{
	return src->lim ? src->lim : &pd_limits_default;
}

/* PD_EPARSE at off: "<expected>, found <what is there>". The found byte is untrusted, so
 * it is shown only when printable. */
/* PD_ELIMIT at byte off of src once out holds max samples (--max-samples), else 0: the
 * one check of the three readers. */
static int sample_limit(const struct pd_series *out, size_t max, const struct pd_src *src,
			size_t off, struct pd_err *err)
{
	if (out->n < max)
		return 0;
	return pd_src_error(err, PD_ELIMIT, src, off,
			    "more than %zu samples in one series (see --max-samples)", max);
}

static int fail(struct scan *sc, size_t off, const char *expected)
{
	char found[32] = "the end of the input";
	if (off < sc->len) {
		unsigned char c = (unsigned char)sc->s[off];
		if (c == '\n')
			snprintf(found, sizeof(found), "the end of the line");
		else if (c >= 0x20 && c < 0x7f)
			snprintf(found, sizeof(found), "'%c'", c);
		else
			snprintf(found, sizeof(found), "byte 0x%02x", c);
	}
	return pd_src_error(sc->err, PD_EPARSE, sc->src, off, "%s, found %s", expected, found);
}

/* ---- numbers ---------------------------------------------------------------------- */

/* Moves over one RFC 8259 number: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static int scan_number(struct scan *sc, const char *expected)
{
	size_t start = sc->pos;
	int c;
	if (peek(sc) == '-')
		sc->pos++;
	if (!is_digit(c = peek(sc)))
		return fail(sc, sc->pos,
			    sc->pos == start ? expected : "expected a digit after '-'");
	if (c == '0') {
		sc->pos++;
		if (is_digit(peek(sc)))
			return fail(
				sc, sc->pos,
				"expected '.', 'e' or the end of the number after a leading 0");
	} else {
		skip_digits(sc);
	}
	if (peek(sc) == '.') {
		sc->pos++;
		if (!skip_digits(sc))
			return fail(sc, sc->pos, "expected a digit after '.'");
	}
	if ((c = peek(sc)) == 'e' || c == 'E') {
		sc->pos++;
		if ((c = peek(sc)) == '+' || c == '-')
			sc->pos++;
		if (!skip_digits(sc))
			return fail(sc, sc->pos, "expected a digit in the exponent");
	}
	return 0;
}

/* The exponent of a number token (after 'e'), saturated far beyond any double's range. */
static long long token_exp(const char *s, size_t n)
{
	long long e = 0;
	size_t i = 0;
	int neg = 0;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	for (; i < n; i++)
		if (e < 1000000000000000LL)
			e = e * 10 + (s[i] - '0');
	return neg ? -e : e;
}

/* A decimal mantissa [digits][.digits] as its significant digits: positions of the first
 * and last non-zero digits, their count, and the power of ten of the last one. */
struct mantissa {
	size_t first, last; /* indexes into the token; first > last when the value is 0 */
	size_t ndig;        /* digits from first to last */
	long long e10;      /* value = digits(first..last) * 10^e10 */
};

static void read_mantissa(struct mantissa *m, const char *s, size_t n, long long exp)
{
	size_t dot = n, nfrac = 0, tz = 0;
	m->first = n;
	m->last = 0;
	m->ndig = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '.') {
			dot = i;
			continue;
		}
		nfrac += dot < i;
		if (s[i] != '0') {
			if (m->first == n)
				m->first = i;
			m->last = i;
			tz = 0;
		} else {
			tz++;
		}
		m->ndig += m->first < n;
	}
	if (m->first == n) { /* the value is 0 */
		m->ndig = 0;
		m->e10 = 0;
		return;
	}
	m->ndig -= tz;
	m->e10 = exp - (long long)nfrac + (long long)tz;
}

enum { TS_OK, TS_FRACTION, TS_RANGE };

/* The exact value of a number token as an int64 (no double in between, so 2^53 + 1 stays
 * itself): TS_FRACTION when it is not an integer, TS_RANGE when it does not fit. */
static int token_int64(const char *s, size_t n, int64_t *out)
{
	struct mantissa m;
	size_t i = 0, me;
	int neg = s[0] == '-';
	uint64_t v = 0, max = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (me = neg; me < n && s[me] != 'e' && s[me] != 'E'; me++)
		;
	read_mantissa(&m, s + neg, me - neg, me < n ? token_exp(s + me + 1, n - me - 1) : 0);
	*out = 0;
	if (m.first > m.last)
		return TS_OK;
	if (m.e10 < 0)
		return TS_FRACTION; /* the last non-zero digit is after the point */
	if ((long long)m.ndig + m.e10 > 19)
		return TS_RANGE;
	for (i = m.first; i <= m.last; i++)
		if (s[neg + i] != '.')
			v = v * 10 + (uint64_t)(s[neg + i] - '0');
	for (long long k = 0; k < m.e10; k++)
		v *= 10; /* at most 19 digits in all: below 2^64 */
	if (v > max)
		return TS_RANGE;
	*out = neg ? (v == max ? INT64_MIN : -(int64_t)v) : (int64_t)v;
	return TS_OK;
}

#if FLT_EVAL_METHOD == 0
/* The powers of ten a double holds exactly. */
static const double p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
			     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
			     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
#endif

/* Clinger's fast path: a mantissa below 2^53 times or over an exact power of ten is one
 * correctly rounded IEEE operation, so the result is the one strtod gives. Only valid
 * when doubles are evaluated in double precision (not on x87). Returns 0 when it cannot
 * tell. s is [+-]digits[.digits][e[+-]digits] with at least one digit. */
static int fast_double(const char *s, size_t n, double *out)
{
#if FLT_EVAL_METHOD == 0
	uint64_t m = 0;
	long long e10 = 0;
	size_t i = 0, nd = 0;
	int neg = 0, frac = 0;
	if (s[0] == '-' || s[0] == '+')
		neg = s[i++] == '-';
	for (; i < n && s[i] != 'e' && s[i] != 'E'; i++) {
		if (s[i] == '.') {
			frac = 1;
			continue;
		}
		if (m || s[i] != '0')
			if (++nd > 19)
				return 0;
		m = m * 10 + (uint64_t)(s[i] - '0');
		e10 -= frac;
	}
	if (i < n)
		e10 += token_exp(s + i + 1, n - i - 1);
	if (m == 0)
		*out = 0.0; /* whatever the exponent, as strtod */
	else if (m > (uint64_t)1 << 53 || e10 < -22 || e10 > 22)
		return 0;
	else
		*out = e10 < 0 ? (double)m / p10[-e10] : (double)m * p10[e10];
	if (neg)
		*out = -*out;
	return 1;
#else
	(void)s, (void)n, (void)out;
	return 0;
#endif
}

/* strtod on a NUL-terminated copy of the token (the input need not end after it). Tokens
 * of any length are read: the copy is bounded by the input, itself bounded by
 * lim->max_file_bytes. Returns 0 when strtod does not read the whole token (a locale whose
 * decimal point is not '.'). */
static int slow_double(const char *s, size_t n, double *out)
{
	char small[64], *buf = n < sizeof(small) ? small : pd_xmalloc(n + 1), *end;
	int whole;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*out = strtod(buf, &end);
	whole = end == buf + n;
	if (buf != small)
		free(buf);
	return whole;
}

/* A decimal token as strtod reads it; out of range (inf) is an error. */
static int token_double(struct scan *sc, size_t start, double *out)
{
	const char *s = sc->s + start;
	size_t n = sc->pos - start;
	if (!fast_double(s, n, out) && !slow_double(s, n, out))
		return fail(sc, start,
			    "expected a number strtod reads (LC_NUMERIC must be \"C\")");
	if (!isfinite(*out))
		return pd_src_error(sc->err, PD_EPARSE, sc->src, start,
				    "number out of range: expected a finite double");
	return 0;
}

/* The collector of out when its values are per-request latencies (pd_metric_per_request),
 * else NULL. */
static const char *latency_of(const struct pd_series *out)
{
	return pd_metric_per_request(out->collector) ? out->collector : NULL;
}

/* A latency below 0 is not a time: refused at off like any other impossible value ('-0'
 * is 0). */
static int latency_check(const char *latency, double v, const struct pd_src *src, size_t off,
			 struct pd_err *err)
{
	if (!latency || !(v < 0))
		return 0;
	return pd_src_error(err, PD_EPARSE, src, off,
			    "negative latency %g: a %s sample is one request's latency, "
			    "expected a value of 0 or more",
			    v, latency);
}

/* ---- perfdb's GET /{db}/{metric} body ------------------------------------------- */

/* How many of the first lim (1-8) bytes at p are digits before the first that is not,
 * their value in *v; p has 8 readable bytes. Eight at once (SWAR: three multiplications)
 * instead of a chain of up to eight: a timestamp's 13 digits are two steps, a value's
 * 2-11 one. -1 where the byte order is not little-endian (fast_digits reads bytewise). */
static int leading_digits(const char *p, size_t lim, uint64_t *v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t x, bad;
	memcpy(&x, p, sizeof(x));
	/* a byte below '0' borrows in x - '0', one above '9' carries in x + 0x46; the first
	 * such byte is flagged exactly (the digits before it neither borrow nor carry), the
	 * bytes after it may be garbage and are shifted out below */
	bad = ((x + 0x4646464646464646u) | (x - 0x3030303030303030u)) & 0x8080808080808080u;
	size_t k = bad ? (size_t)__builtin_ctzll(bad) / 8 : 8;
	k = k < lim ? k : lim;
	*v = 0;
	if (!k)
		return 0;
	/* the first digit is the lowest byte: shifting the k digits to the top puts zeros
	 * before them, which leave the value as it is */
	x = (x - 0x3030303030303030u) << (8 * (8 - k));
	x = x * 10 + (x >> 8); /* pairs of digits */
	x = ((x & 0x000000ff000000ffu) * (100 + (1000000ull << 32)) +
	     ((x >> 16) & 0x000000ff000000ffu) * (1 + (10000ull << 32))) >>
	    32;
	*v = x;
	return (int)k;
#else
	(void)p, (void)lim, (void)v;
	return -1;
#endif
}

/* Where the digits from i on end, reading at most max of them into *m: eight bytes a step
 * while eight can be read, the last few bytes of the input one by one. Inline: it runs
 * for every token, and its call was a sixth of its instructions. */
static inline size_t fast_digits(const struct scan *sc, size_t i, size_t max, uint64_t *m)
{
	static const uint64_t scale[] = {1,      10,      100,      1000,     10000,
					 100000, 1000000, 10000000, 100000000};
	size_t end = i + max < sc->len ? i + max : sc->len;
	uint64_t part, v = *m;
	for (int k = 8; k == 8 && i < end && i + 8 <= sc->len; i += (size_t)k) {
		k = leading_digits(sc->s + i, end - i < 8 ? end - i : 8, &part);
		if (k < 0)
			break;
		v = v * scale[k] + part;
	}
	for (; i < end && is_digit((unsigned char)sc->s[i]); i++)
		v = v * 10 + (uint64_t)(sc->s[i] - '0');
	*m = v;
	return i;
}

/* Whether the token ends at i: no digit, point or exponent follows (those go the exact
 * way, which also tells the errors). */
static int fast_end(const struct scan *sc, size_t i)
{
	int c = i < sc->len ? (unsigned char)sc->s[i] : -1;
	return !is_digit(c) && c != '.' && c != 'e' && c != 'E';
}

/* The common timestamp, -?(0|[1-9][0-9]{0,17}), in one pass; 0 (cursor unmoved) for any
 * other token, which scan_timestamp then reads exactly (the same value by construction:
 * 18 digits fit an int64). */
static int fast_timestamp(struct scan *sc, int64_t *t)
{
	size_t i = sc->pos + (peek(sc) == '-'), end;
	uint64_t m = 0;
	end = fast_digits(sc, i, 18, &m);
	if (end == i || (end - i > 1 && sc->s[i] == '0') || !fast_end(sc, end))
		return 0;
	*t = sc->s[sc->pos] == '-' ? -(int64_t)m : (int64_t)m;
	sc->pos = end;
	return 1;
}

/* The common value, -?digits[.digits] with at most 19 digits in all (so at most 19 after
 * the point) and below 2^53 as an integer, in one pass; 0 (cursor unmoved) for any other
 * token. The result is fast_double's for the token: one correctly rounded operation. */
static int fast_value(struct scan *sc, double *v)
{
#if FLT_EVAL_METHOD == 0
	size_t i = sc->pos + (peek(sc) == '-'), end, frac = 0;
	uint64_t m = 0;
	end = fast_digits(sc, i, 19, &m);
	if (end == i || (end - i > 1 && sc->s[i] == '0'))
		return 0;
	if (end < sc->len && sc->s[end] == '.') {
		size_t f = end + 1;
		end = fast_digits(sc, f, 19 - (end - i), &m);
		frac = end - f;
		if (!frac)
			return 0;
	}
	if (!fast_end(sc, end) || m > (uint64_t)1 << 53)
		return 0;
	*v = frac ? (double)m / p10[frac] : (double)m;
	*v = sc->s[sc->pos] == '-' ? -*v : *v;
	sc->pos = end;
	return 1;
#else
	(void)sc, (void)v;
	return 0;
#endif
}

static int scan_timestamp(struct scan *sc, int64_t *t)
{
	size_t start = sc->pos;
	if (fast_timestamp(sc, t))
		return 0;
	int rc = scan_number(sc, "expected a number (the timestamp)");
	if (rc < 0)
		return rc;
	switch (token_int64(sc->s + start, sc->pos - start, t)) {
	case TS_FRACTION:
		return pd_src_error(
			sc->err, PD_EPARSE, sc->src, start,
			"expected an integer timestamp (epoch ms), found a fraction");
	case TS_RANGE:
		return pd_src_error(sc->err, PD_EPARSE, sc->src, start,
				    "timestamp out of range: expected an integer within int64");
	}
	return 0;
}

static int scan_value(struct scan *sc, double *v)
{
	size_t start = sc->pos;
	int rc = 0;
	if (!fast_value(sc, v) &&
	    ((rc = scan_number(sc, "expected a number (the value)")) < 0 ||
	     (rc = token_double(sc, start, v)) < 0))
		return rc;
	return latency_check(sc->latency, *v, sc->src, start, sc->err);
}

/* One [ts, value] with the cursor on its '['. */
static int scan_pair(struct scan *sc, struct pd_series *out)
{
	int64_t t;
	double v;
	int rc;
	sc->pos++;
	skip_ws(sc);
	if ((rc = scan_timestamp(sc, &t)) < 0)
		return rc;
	skip_ws(sc);
	if (peek(sc) != ',')
		return fail(sc, sc->pos,
			    peek(sc) == ']'
				    ? "expected ',' and a value: a sample has 2 elements"
				    : "expected ',' after the timestamp");
	sc->pos++;
	skip_ws(sc);
	if ((rc = scan_value(sc, &v)) < 0)
		return rc;
	skip_ws(sc);
	if (peek(sc) != ']')
		return fail(sc, sc->pos,
			    peek(sc) == ',' ? "expected ']': a sample has 2 elements"
					    : "expected ']' after the value");
	sc->pos++;
	pd_series_add(out, t, v);
	return 0;
}

/* Once the first sample is read (from byte first on): room for as many more as the rest
 * of the input holds if they are about as long (a quarter more, at most max in all), so
 * that the series is allocated once instead of copied as it grows. */
static void reserve_like_first(const struct scan *sc, struct pd_series *out, size_t first,
			       size_t max)
{
	size_t bytes = sc->pos - first + 1, more = (sc->len - sc->pos) / bytes;
	more += more / 4 + 16;
	pd_model_series_reserve(out, more < max - out->n ? out->n + more : max);
}

/* The outer array, with the cursor after its '[' and any whitespace. */
static int scan_samples(struct scan *sc, struct pd_series *out)
{
	size_t max = limits(sc->src)->max_samples, first;
	int after_comma = 0;
	if (peek(sc) == ']') {
		sc->pos++;
		return 0;
	}
	for (;; after_comma = 1) {
		if (peek(sc) != '[')
			return fail(sc, sc->pos,
				    after_comma ? "expected '[' to open a sample after ','"
						: "expected '[' to open a sample or ']'");
		int rc = sample_limit(out, max, sc->src, first = sc->pos, sc->err), c;
		if (rc < 0 || (rc = scan_pair(sc, out)) < 0)
			return rc;
		if (!after_comma)
			reserve_like_first(sc, out, first, max);
		skip_ws(sc);
		if ((c = peek(sc)) == ']') {
			sc->pos++;
			return 0;
		}
		if (c != ',')
			return fail(sc, sc->pos, "expected ',' or ']' after a sample");
		sc->pos++;
		skip_ws(sc);
	}
}

int pd_perfdb_json_parse(struct pd_series *out, const struct pd_src *src, struct pd_err *err)
{
	struct scan sc = {src->data, src->len, 0, src, err, latency_of(out)};
	size_t n0 = out->n;
	int rc;
	skip_ws(&sc);
	if (peek(&sc) != '[') {
		rc = fail(&sc, sc.pos, "expected '[' to open the sample array");
		goto done;
	}
	sc.pos++;
	skip_ws(&sc);
	if ((rc = scan_samples(&sc, out)) < 0)
		goto done;
	skip_ws(&sc);
	if (sc.pos < sc.len) {
		rc = fail(&sc, sc.pos, "expected the end of the input after the closing ']'");
		goto done;
	}
	pd_series_normalize(out);
done:
	if (rc < 0)
		out->n = n0;
	return rc;
}

/* ---- perfdb's data files ----------------------------------------------------------
 *
 * What perfdb itself writes (pavel-paulau/perfdb, perfdb.go @ 073319b6, addSample and
 * parseSamples): one line per sample, Go's fmt "%22d %025.9f\n", the timestamp
 * right-aligned in 22 columns, one space, the value zero-padded; the reader takes
 * record[:22] trimmed and record[23:]. The timestamp is absolute and in nanoseconds
 * (controller.go stores time.Now().UnixNano(), or ?ts= made ns by time.go's
 * parseTimestamp). That source has neither deltas nor .data.1/.data.n files.
 * docs/reference.md "A run bundle" describes another layout: "<delta ms> <value>", delta from
 * the previous line, first delta 0, the first timestamp in .data.1. Both are read: a first
 * timestamp of 0 means the delta layout (a perfdb timestamp is never 0); otherwise each
 * timestamp is absolute and its size tells its unit, by parseTimestamp's rule. Fields are split
 * on blanks, which reads perfdb's fixed columns as well. */

/* A decimal integer [-]digits in int64; the cursor moves over it. */
static int scan_int64(struct scan *sc, int64_t *out, const char *expected)
{
	size_t start = sc->pos;
	int64_t v;
	if (peek(sc) == '-')
		sc->pos++;
	if (!skip_digits(sc))
		return fail(sc, sc->pos, expected);
	if (token_int64(sc->s + start, sc->pos - start, &v) != TS_OK)
		return pd_src_error(sc->err, PD_EPARSE, sc->src, start,
				    "timestamp out of range: expected an integer within int64");
	*out = v;
	return 0;
}

/* A value as Go's strconv.ParseFloat takes perfdb's "%025.9f": [+-]digits[.digits] with
 * leading zeros, or the forms .5, 1. and an exponent; nan and inf are refused. */
static int scan_data_value(struct scan *sc, double *v)
{
	size_t start = sc->pos, digits;
	int c;
	if ((c = peek(sc)) == '+' || c == '-')
		sc->pos++;
	digits = skip_digits(sc);
	if (peek(sc) == '.') {
		sc->pos++;
		digits += skip_digits(sc);
	}
	if (!digits)
		return fail(sc, start, "expected a finite decimal value after the timestamp");
	if ((c = peek(sc)) == 'e' || c == 'E') {
		sc->pos++;
		if ((c = peek(sc)) == '+' || c == '-')
			sc->pos++;
		if (!skip_digits(sc))
			return fail(sc, sc->pos, "expected a digit in the exponent");
	}
	int rc = token_double(sc, start, v);
	return rc < 0 ? rc : latency_check(sc->latency, *v, sc->src, start, sc->err);
}

/* The rest of a line after its value: blanks, an optional CR, then LF or the end. */
static int scan_eol(struct scan *sc)
{
	skip_blanks(sc);
	if (peek(sc) == '\r')
		sc->pos++;
	if (peek(sc) == '\n') {
		sc->pos++;
		return 0;
	}
	return peek(sc) < 0 ? 0
			    : fail(sc, sc->pos, "expected the end of the line after the value");
}

/* One line: its timestamp field (absolute or delta) and its value. */
static int scan_data_line(struct scan *sc, int64_t *ts, double *v)
{
	size_t before;
	int rc;
	skip_blanks(sc);
	if ((rc = scan_int64(sc, ts, "expected a timestamp at the start of the line")) < 0)
		return rc;
	before = sc->pos;
	skip_blanks(sc);
	if (sc->pos == before)
		return fail(sc, sc->pos, "expected a space after the timestamp");
	if ((rc = scan_data_value(sc, v)) < 0)
		return rc;
	return scan_eol(sc);
}

/* The time of a line: absolute, or the previous time plus the delta. */
static int line_time(struct scan *sc, size_t at, int delta, int64_t ts, int64_t *t)
{
	if (!delta) {
		if (!pd_epoch_to_ms(ts, t))
			return pd_src_error(
				sc->err, PD_EPARSE, sc->src, at,
				"expected 0 (the first delta) or an epoch timestamp "
				"in ns, us, ms or s");
		return 0;
	}
	if ((ts > 0 && *t > INT64_MAX - ts) || (ts < 0 && *t < INT64_MIN - ts))
		return pd_src_error(sc->err, PD_EPARSE, sc->src, at,
				    "timestamp out of range: the deltas overflow int64");
	*t += ts;
	return 0;
}

/* A .data of deltas without the first time they start from (no .data.1 beside it). */
static int first_missing(const struct pd_src *src, size_t at, struct pd_err *err)
{
	const char *base = src->path ? strrchr(src->path, '/') : NULL;
	return pd_src_error(err, PD_EPARSE, src, at,
			    "a first timestamp of 0 starts perfdb's delta layout: expected its "
			    "first time (epoch ms) in %s.1 beside it",
			    base        ? base + 1
			    : src->path ? src->path
					: "the .data");
}

int pd_perfdb_data_parse(struct pd_series *out, const struct pd_src *src, int64_t first_ts_ms,
			 struct pd_err *err)
{
	struct scan sc = {src->data, src->len, 0, src, err, latency_of(out)};
	size_t n0 = out->n, max = limits(src)->max_samples, at;
	int64_t ts, t = first_ts_ms;
	int delta = -1, rc = 0; /* -1 until the first line tells the layout */
	double v;
	while (sc.pos < sc.len) {
		at = sc.pos;
		if ((rc = scan_data_line(&sc, &ts, &v)) < 0)
			goto done;
		if (delta < 0 && (delta = ts == 0) && !first_ts_ms) {
			rc = first_missing(src, at, err);
			goto done;
		}
		if ((rc = line_time(&sc, at, delta, ts, &t)) < 0)
			goto done;
		if ((rc = sample_limit(out, max, src, at, err)) < 0)
			goto done;
		pd_series_add(out, t, v);
	}
	pd_series_normalize(out);
done:
	if (rc < 0)
		out->n = n0;
	return rc;
}

int pd_perfdb_first_ts_parse(int64_t *out, const struct pd_src *src, struct pd_err *err)
{
	struct scan sc = {src->data, src->len, 0, src, err, NULL};
	int rc;
	skip_ws(&sc);
	if ((rc = scan_int64(&sc, out,
			     "expected the first timestamp (epoch ms) as an integer")) < 0)
		return rc;
	skip_ws(&sc);
	if (sc.pos < sc.len)
		return fail(&sc, sc.pos,
			    "expected the end of the file after the first timestamp");
	return 0;
}

/* ---- seriesly's legacy body: {"<ts_ms>": [value], ...} ------------------------------ */

/* Depth of [ and { outside strings over 2 cannot be this shape: refused before cJSON,
 * which recurses once per level (up to its CJSON_NESTING_LIMIT of 1000). */
static int check_depth(struct scan *sc)
{
	int in_str = 0, depth = 0;
	for (; sc->pos < sc->len; sc->pos++) {
		char c = sc->s[sc->pos];
		if (in_str) {
			if (c == '\\')
				sc->pos++;
			else if (c == '"')
				in_str = 0;
		} else if (c == '"') {
			in_str = 1;
		} else if ((c == '[' || c == '{') && ++depth > 2) {
			return fail(sc, sc->pos,
				    "expected a number: seriesly's {\"<ts ms>\": [value]} "
				    "nests 2 levels deep");
		} else if (c == ']' || c == '}') {
			depth--;
		}
	}
	return 0;
}

/* Where "key" is in the source, for an error about a member (cJSON keeps no offsets):
 * the first occurrence, or the end when the key is long or escaped. */
static size_t key_offset(const struct pd_src *src, const char *key)
{
	size_t k = strlen(key);
	if (k > 64)
		return src->len;
	for (size_t i = 0; i + k + 2 <= src->len; i++)
		if (src->data[i] == '"' && !memcmp(src->data + i + 1, key, k) &&
		    src->data[i + k + 1] == '"')
			return i;
	return src->len;
}

/* A key of decimal digits that fits an int64. */
static int key_ts(const char *key, int64_t *t)
{
	size_t n = strlen(key);
	for (size_t i = 0; i < n; i++)
		if (!is_digit(key[i]))
			return 0;
	return n > 0 && token_int64(key, n, t) == TS_OK;
}

static int seriesly_member(struct pd_series *out, const struct pd_src *src, const cJSON *m,
			   struct pd_err *err)
{
	const cJSON *v = m->child;
	int64_t t;
	size_t max = limits(src)->max_samples;
	if (!key_ts(m->string, &t))
		return pd_src_error(err, PD_EPARSE, src, key_offset(src, m->string),
				    "expected a decimal integer key within int64 (epoch ms)");
	if (!cJSON_IsArray(m) || !cJSON_IsNumber(v) || v->next)
		return pd_src_error(
			err, PD_EPARSE, src, key_offset(src, m->string),
			"expected an array holding one number as the member's value");
	if (!isfinite(v->valuedouble))
		return pd_src_error(err, PD_EPARSE, src, key_offset(src, m->string),
				    "number out of range: expected a finite double");
	if (latency_of(out) && v->valuedouble < 0)
		return latency_check(latency_of(out), v->valuedouble, src,
				     key_offset(src, m->string), err);
	/* the offset costs a scan of the source: found only for the message */
	if (out->n >= max)
		return sample_limit(out, max, src, key_offset(src, m->string), err);
	pd_series_add(out, t, v->valuedouble);
	return 0;
}

int pd_seriesly_parse(struct pd_series *out, const struct pd_src *src, struct pd_err *err)
{
	struct scan sc = {src->data, src->len, 0, src, err, NULL};
	const char *end = NULL;
	const cJSON *m;
	cJSON *root = NULL;
	size_t n0 = out->n;
	int rc;
	if ((rc = check_depth(&sc)) < 0)
		goto done;
	if ((sc.pos = pd_json_find_nul(src->data, src->len)) < src->len) {
		rc = pd_src_error(err, PD_EPARSE, src, sc.pos, PD_JSON_NUL_MSG);
		goto done;
	}
	/* data[len] is NUL: cJSON's require_null_terminated wants it inside the length */
	root = cJSON_ParseWithLengthOpts(src->data, src->len + 1, &end, 1);
	if (!root) {
		rc = pd_src_error(
			err, PD_EPARSE, src, end ? (size_t)(end - src->data) : 0,
			"invalid JSON: expected seriesly's {\"<ts ms>\": [value], ...}");
		goto done;
	}
	if (!cJSON_IsObject(root)) {
		sc.pos = 0;
		skip_ws(&sc);
		rc = fail(&sc, sc.pos,
			  "expected '{' to open seriesly's {\"<ts ms>\": [value], ...}");
		goto done;
	}
	cJSON_ArrayForEach(m, root) if ((rc = seriesly_member(out, src, m, err)) < 0) goto done;
	pd_series_normalize(out);
done:
	if (rc < 0)
		out->n = n0;
	cJSON_Delete(root);
	return rc;
}
