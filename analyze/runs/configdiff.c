#include "configdiff.h"
#include "core/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* One comparable value of one side: a key, or one server line of a [clusters] key. */
struct item {
	const char *section, *key, *host, *value; /* borrowed from the run or side.owned */
	const char *whole; /* a server line: the whole [clusters] value it is part of */
	size_t rank;       /* file order */
	size_t srank;      /* rank of the first item of its section on this side */
	long partner;      /* the same (section, key, host) on the other side, or -1 */
	int dup;           /* a repeat of an earlier (section, key, host): ignored */
};

struct side {
	struct item *v;
	size_t n, cap;
	struct pd_strv owned; /* copies of hosts and server lines */
	size_t *order;        /* indices of v sorted by (section, key, host, rank) */
};

static void side_add(struct side *s, const char *section, const char *key, const char *host,
		     const char *value)
{
	PD_GROW(s->v, s->cap, s->n + 1);
	s->v[s->n] = (struct item){.section = section,
				   .key = key,
				   .host = host,
				   .value = value,
				   .rank = s->n,
				   .partner = -1};
	s->n++;
}

static void side_free(struct side *s)
{
	free(s->v);
	free(s->order);
	pd_strv_free(&s->owned);
}

/* The server lines of one [clusters] value, one item per non-empty line, trimmed. */
static void add_servers(struct side *s, const struct pd_ini_entry *e)
{
	const char *p = e->value;
	while (*p) {
		size_t len = strcspn(p, "\n");
		const char *a = p, *z = p + len;
		p = *z ? z + 1 : z;
		while (a < z && (*a == ' ' || *a == '\t'))
			a++;
		while (z > a && (z[-1] == ' ' || z[-1] == '\t' || z[-1] == '\r'))
			z--;
		if (a == z)
			continue;
		size_t host = strcspn(a, ":");
		pd_strv_addn(&s->owned, a, host < (size_t)(z - a) ? host : (size_t)(z - a));
		pd_strv_addn(&s->owned, a, (size_t)(z - a));
		side_add(s, e->section, e->key, s->owned.v[s->owned.n - 2],
			 s->owned.v[s->owned.n - 1]);
		s->v[s->n - 1].whole = e->value;
	}
}

static void side_ini(struct side *s, const struct pd_ini *ini, int servers)
{
	for (size_t i = 0; i < ini->n; i++) {
		const struct pd_ini_entry *e = &ini->e[i];
		if (servers && !strcmp(e->section, "clusters"))
			add_servers(s, e);
		else
			side_add(s, e->section, e->key, NULL, e->value);
	}
}

static void side_params(struct side *s, const struct pd_jenkins *j)
{
	for (size_t i = 0; i < j->n_params; i++)
		if (strcmp(j->params[i].name, "version"))
			side_add(s, NULL, j->params[i].name, NULL, j->params[i].value);
}

static int cmp0(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

/* (section, key, host) of two items. */
static int cmp_name(const struct item *x, const struct item *y)
{
	int k;
	if ((k = cmp0(x->section, y->section)) || (k = cmp0(x->key, y->key)))
		return k;
	return cmp0(x->host, y->host);
}

static const struct item *sort_base; /* qsort has no context argument in C11 */

static int cmp_order(const void *a, const void *b)
{
	const struct item *x = &sort_base[*(const size_t *)a],
			  *y = &sort_base[*(const size_t *)b];
	int k = cmp_name(x, y);
	if (k)
		return k;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* Sorts the side's order, marks repeats, and gives each item its section's first rank. */
static void side_index(struct side *s)
{
	s->order = pd_xmalloc((s->n + 1) * sizeof(*s->order));
	for (size_t i = 0; i < s->n; i++)
		s->order[i] = i;
	sort_base = s->v;
	qsort(s->order, s->n, sizeof(*s->order), cmp_order);
	for (size_t i = 1; i < s->n; i++)
		s->v[s->order[i]].dup = !cmp_name(&s->v[s->order[i]], &s->v[s->order[i - 1]]);
	for (size_t g = 0, end; g < s->n; g = end) { /* one group per section */
		const char *section = s->v[s->order[g]].section;
		size_t first = s->v[s->order[g]].rank;
		for (end = g; end < s->n && !cmp0(s->v[s->order[end]].section, section); end++)
			if (s->v[s->order[end]].rank < first)
				first = s->v[s->order[end]].rank;
		for (size_t k = g; k < end; k++)
			s->v[s->order[k]].srank = first;
	}
}

/* A difference found, before it is put in reading order. */
struct cand {
	size_t srank, krank;
	long ia, ib; /* items of each side, -1 when absent */
	int whole;   /* a server list in another order: the whole values */
};

struct cands {
	struct cand *v;
	size_t n, cap;
};

static void cand_add(struct cands *c, size_t srank, size_t krank, long ia, long ib)
{
	PD_GROW(c->v, c->cap, c->n + 1);
	c->v[c->n++] = (struct cand){.srank = srank, .krank = krank, .ia = ia, .ib = ib};
}

/* The rank of b's section on a's side (a->order[i] is the first of a's items after it),
 * or a->n + its rank on b's side when a has no such section. */
static size_t section_rank(const struct side *a, size_t i, const struct item *bi)
{
	if (i > 0 && !cmp0(a->v[a->order[i - 1]].section, bi->section))
		return a->v[a->order[i - 1]].srank;
	if (i < a->n && !cmp0(a->v[a->order[i]].section, bi->section))
		return a->v[a->order[i]].srank;
	return a->n + bi->srank;
}

/* Walks both sorted sides at once: pairs partners, records what differs. */
static void merge(struct cands *c, struct side *a, struct side *b)
{
	size_t i = 0, j = 0;
	while (i < a->n || j < b->n) {
		struct item *x = i < a->n ? &a->v[a->order[i]] : NULL;
		struct item *y = j < b->n ? &b->v[b->order[j]] : NULL;
		if ((x && x->dup) || (y && y->dup)) {
			i += x && x->dup, j += y && y->dup;
			continue;
		}
		int k = !x ? 1 : !y ? -1 : cmp_name(x, y);
		if (k == 0) {
			x->partner = (long)b->order[j], y->partner = (long)a->order[i];
			if (strcmp(x->value, y->value))
				cand_add(c, x->srank, x->rank, y->partner, x->partner);
			i++, j++;
		} else if (k < 0) {
			cand_add(c, x->srank, x->rank, (long)a->order[i++], -1);
		} else {
			cand_add(c, section_rank(a, i, y), a->n + y->rank, -1,
				 (long)b->order[j++]);
		}
	}
}

/* Server lines that both sides list, in another order on the target's side: one entry
 * more with both whole lists (the run's cluster is the first initial_nodes of them). */
static void order_check(struct cands *c, const struct side *a)
{
	for (size_t i = 0, end; i < a->n; i = end) {
		const struct item *x = &a->v[i];
		long last = -1, partner = -1;
		for (end = i + 1;
		     x->host && end < a->n && a->v[end].host &&
		     !cmp0(a->v[end].section, x->section) && !cmp0(a->v[end].key, x->key);
		     end++)
			;
		int moved = 0;
		for (size_t k = i; x->host && k < end; k++) {
			if (a->v[k].dup || a->v[k].partner < 0)
				continue;
			moved |= a->v[k].partner < last;
			last = partner = a->v[k].partner;
		}
		if (moved) {
			cand_add(c, x->srank, x->rank, (long)i, partner);
			c->v[c->n - 1].whole = 1;
		}
	}
}

static int cmp_cand(const void *p, const void *q)
{
	const struct cand *x = p, *y = q;
	if (x->srank != y->srank)
		return x->srank < y->srank ? -1 : 1;
	if (x->krank != y->krank)
		return x->krank < y->krank ? -1 : 1;
	return x->whole - y->whole;
}

static char *dup0(const char *s)
{
	return s ? pd_xstrdup(s) : NULL;
}

static void emit(struct pd_configdiff *d, enum pd_configdiff_source src, const struct cand *c,
		 const struct side *a, const struct side *b)
{
	const struct item *x = c->ia >= 0 ? &a->v[c->ia] : NULL;
	const struct item *y = c->ib >= 0 ? &b->v[c->ib] : NULL;
	const struct item *any = x ? x : y;
	PD_GROW(d->e, d->cap, d->n + 1);
	d->e[d->n++] = (struct pd_configdiff_entry){
		.source = src,
		.change = !x   ? PD_CONFIGDIFF_ADDED
			  : !y ? PD_CONFIGDIFF_REMOVED
			       : PD_CONFIGDIFF_CHANGED,
		.section = dup0(any->section),
		.key = pd_xstrdup(any->key),
		.item = c->whole ? NULL : dup0(any->host),
		.base = x ? pd_xstrdup(c->whole ? x->whole : x->value) : NULL,
		.target = y ? pd_xstrdup(c->whole ? y->whole : y->value) : NULL,
	};
}

/* Compares two filled sides and appends their differences to d in reading order. */
static void compare_sides(struct pd_configdiff *d, enum pd_configdiff_source src,
			  struct side *a, struct side *b)
{
	struct cands c = {NULL, 0, 0};
	side_index(a);
	side_index(b);
	merge(&c, a, b);
	order_check(&c, a);
	if (c.n > 1)
		qsort(c.v, c.n, sizeof(*c.v), cmp_cand);
	for (size_t i = 0; i < c.n; i++)
		emit(d, src, &c.v[i], a, b);
	free(c.v);
	side_free(a);
	side_free(b);
}

/* Whether both sides have the source; sets the missing bits otherwise. */
static int both_have(struct pd_configdiff *d, enum pd_configdiff_source src, int in_base,
		     int in_target)
{
	d->missing_base |= in_base ? 0 : 1u << src;
	d->missing_target |= in_target ? 0 : 1u << src;
	return in_base && in_target;
}

static void ini_source(struct pd_configdiff *d, enum pd_configdiff_source src,
		       const struct pd_ini *a, const struct pd_ini *b)
{
	struct side x = {0}, y = {0};
	if (!both_have(d, src, a->path != NULL, b->path != NULL))
		return;
	side_ini(&x, a, src == PD_CONFIGDIFF_SPEC);
	side_ini(&y, b, src == PD_CONFIGDIFF_SPEC);
	compare_sides(d, src, &x, &y);
}

static void jenkins_source(struct pd_configdiff *d, const struct pd_run *a,
			   const struct pd_run *b)
{
	struct side x = {0}, y = {0};
	if (!both_have(d, PD_CONFIGDIFF_JENKINS, a->jenkins.present, b->jenkins.present))
		return;
	side_params(&x, &a->jenkins);
	side_params(&y, &b->jenkins);
	compare_sides(d, PD_CONFIGDIFF_JENKINS, &x, &y);
}

/* The build as summary.json gives it: the "version" parameter, else the first KPI's. */
static const char *build_of(const struct pd_run *run)
{
	const char *v =
		run->jenkins.present ? pd_jenkins_param(&run->jenkins, "version") : NULL;
	return v ? v : run->n_kpis ? run->kpis[0].build : NULL;
}

static void build_source(struct pd_configdiff *d, const struct pd_run *a,
			 const struct pd_run *b)
{
	const char *x = build_of(a), *y = build_of(b);
	if (!both_have(d, PD_CONFIGDIFF_BUILD, x != NULL, y != NULL) || !strcmp(x, y))
		return;
	PD_GROW(d->e, d->cap, d->n + 1);
	d->e[d->n++] = (struct pd_configdiff_entry){.source = PD_CONFIGDIFF_BUILD,
						    .change = PD_CONFIGDIFF_CHANGED,
						    .key = pd_xstrdup("build"),
						    .base = pd_xstrdup(x),
						    .target = pd_xstrdup(y)};
}

void pd_configdiff_build(struct pd_configdiff **out, const struct pd_run *base,
			 const struct pd_run *target)
{
	struct pd_configdiff *d = pd_xcalloc(1, sizeof(*d));
	ini_source(d, PD_CONFIGDIFF_TEST, &base->test, &target->test);
	ini_source(d, PD_CONFIGDIFF_SPEC, &base->spec, &target->spec);
	build_source(d, base, target);
	jenkins_source(d, base, target);
	*out = d;
}

void pd_configdiff_free(struct pd_configdiff *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++) {
		free(d->e[i].section);
		free(d->e[i].key);
		free(d->e[i].item);
		free(d->e[i].base);
		free(d->e[i].target);
	}
	free(d->e);
	free(d);
}
