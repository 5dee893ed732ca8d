/* A Jenkins build's api/xml, read with libxml2 from memory. A build never has a DOCTYPE,
 * so any DOCTYPE stops the parse before its internal subset is read: no entity is ever
 * declared, expanded or loaded, and no DTD or network is touched. Syntax errors reach the
 * pd_err through the context's structured error handler, never stderr. libxml2 types
 * never leave this file. */
#include "jenkins.h"
#include "../core/xalloc.h"

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* NOENT would substitute entities, DTDLOAD/DTDATTR would read DTDs, HUGE would lift
 * libxml2's own size and depth limits: none of them, ever. */
#define XML_OPTIONS                                                                            \
	(XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES)
_Static_assert((XML_OPTIONS & (XML_PARSE_NOENT | XML_PARSE_DTDLOAD | XML_PARSE_DTDATTR |
			       XML_PARSE_DTDVALID | XML_PARSE_HUGE | XML_PARSE_RECOVER)) == 0,
	       "the Jenkins XML reader must not expand entities or load DTDs");

#if LIBXML_VERSION >= 21200
#define PD_XML_ERROR const xmlError
#else
#define PD_XML_ERROR xmlError
#endif

/* What the SAX hooks need; reached through ctxt->_private. */
struct state {
	const struct pd_src *src;
	struct pd_err *err;
	unsigned depth;
};

static struct state *state_of(void *ctx)
{
	return ((xmlParserCtxtPtr)ctx)->_private;
}

static void on_error(void *ctx, PD_XML_ERROR *e)
{
	struct state *st = state_of(ctx);
	struct pd_buf msg = PD_BUF_INIT; /* whole: it may quote a name from the input */
	if (!e || e->level < XML_ERR_ERROR)
		return;
	pd_buf_adds(&msg, e->message ? e->message : "unknown error");
	while (msg.len && (msg.ptr[msg.len - 1] == '\n' || msg.ptr[msg.len - 1] == ' '))
		pd_buf_truncate(&msg, msg.len - 1);
	if (msg.ptr[0] >= 'A' && msg.ptr[0] <= 'Z')
		msg.ptr[0] = (char)(msg.ptr[0] - 'A' + 'a');
	pd_err_at(st->err, PD_EPARSE, st->src->path, e->line, e->int2, "malformed XML: %s",
		  msg.ptr);
	pd_buf_release(&msg);
}

static void on_doctype(void *ctx, const xmlChar *name, const xmlChar *ext_id,
		       const xmlChar *sys_id)
{
	struct state *st = state_of(ctx);
	(void)ext_id;
	(void)sys_id;
	pd_err_at(st->err, PD_EPARSE, st->src->path, xmlSAX2GetLineNumber(ctx), 0,
		  "unexpected DOCTYPE '%.40s': a Jenkins build has none, and this reader "
		  "declares no entity and reads no DTD",
		  name ? (const char *)name : "");
	xmlStopParser(ctx);
}

static void on_start(void *ctx, const xmlChar *localname, const xmlChar *prefix,
		     const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
		     int nb_attributes, int nb_defaulted, const xmlChar **attributes)
{
	struct state *st = state_of(ctx);
	if (++st->depth > st->src->lim->max_depth) {
		pd_err_at(st->err, PD_ELIMIT, st->src->path, xmlSAX2GetLineNumber(ctx),
			  xmlSAX2GetColumnNumber(ctx), "XML elements nested deeper than %u",
			  st->src->lim->max_depth);
		xmlStopParser(ctx);
		return;
	}
	xmlSAX2StartElementNs(ctx, localname, prefix, uri, nb_namespaces, namespaces,
			      nb_attributes, nb_defaulted, attributes);
}

static void on_end(void *ctx, const xmlChar *localname, const xmlChar *prefix,
		   const xmlChar *uri)
{
	state_of(ctx)->depth--;
	xmlSAX2EndElementNs(ctx, localname, prefix, uri);
}

void pd_jenkins_xml_init(void)
{
	xmlInitParser();
}

static int parse_doc(xmlDocPtr *doc, const struct pd_src *src, struct pd_err *err)
{
	struct state st = {src, err, 0};
	xmlParserCtxtPtr ctxt;
	int rc = 0;
	*doc = NULL;
	if (src->len > INT_MAX)
		return pd_err_at(err, PD_ELIMIT, src->path, 0, 0, "XML larger than %d bytes",
				 INT_MAX);
	if (!src->len)
		return pd_err_at(err, PD_EPARSE, src->path, 1, 1,
				 "empty file: expected an XML element");
	xmlInitParser();
	ctxt = xmlCreateMemoryParserCtxt(src->data, (int)src->len);
	if (!ctxt)
		return pd_err_at(err, PD_EPARSE, src->path, 0, 0,
				 "cannot start the XML parser");
	xmlCtxtUseOptions(ctxt, XML_OPTIONS);
	ctxt->_private = &st;
	ctxt->sax->serror = on_error;
	ctxt->sax->internalSubset = on_doctype;
	ctxt->sax->externalSubset = NULL;
	ctxt->sax->startElementNs = on_start;
	ctxt->sax->endElementNs = on_end;
	xmlParseDocument(ctxt);
	*doc = ctxt->myDoc;
	ctxt->myDoc = NULL;
	if (err->code)
		rc = err->code;
	else if (!ctxt->wellFormed || !*doc)
		rc = pd_err_at(err, PD_EPARSE, src->path, 0, 0, "malformed XML");
	else if ((*doc)->intSubset || (*doc)->extSubset)
		rc = pd_err_at(err, PD_EPARSE, src->path, 0, 0, "unexpected DOCTYPE");
	xmlFreeParserCtxt(ctxt);
	return rc;
}

static int is(const xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The text of n, blanks trimmed: a re-indented capture puts newlines around text, and
 * none of the fields read here means anything by leading or trailing blanks. */
static char *text_of(const xmlNode *n)
{
	xmlChar *t = xmlNodeGetContent(n);
	const char *s = t ? (const char *)t : "";
	size_t len;
	char *out;
	while (is_space(*s))
		s++;
	len = strlen(s);
	while (len && is_space(s[len - 1]))
		len--;
	out = pd_xstrndup(s, len);
	xmlFree(t);
	return out;
}

static void set_text(char **dst, const xmlNode *n)
{
	free(*dst);
	*dst = text_of(n);
}

static int field_error(const struct pd_src *src, const xmlNode *n, const char *what,
		       const char *got, struct pd_err *err)
{
	return pd_err_at(err, PD_EPARSE, src->path, xmlGetLineNo(n), 0,
			 "expected %s in <%s>, got '%.40s'", what, (const char *)n->name, got);
}

static int get_int(int64_t *dst, const xmlNode *n, const struct pd_src *src, struct pd_err *err)
{
	char *t = text_of(n), *end;
	int rc = 0;
	long long v;
	if (!(t[0] >= '0' && t[0] <= '9')) { /* a build's number, time and duration */
		rc = field_error(src, n, "a whole number of 0 or more", t, err);
		goto done;
	}
	v = strtoll(t, &end, 10);
	if (*end || v == LLONG_MAX)
		rc = field_error(src, n, "a whole number of 0 or more", t, err);
	else
		*dst = v;
done:
	free(t);
	return rc;
}

static int get_bool(int *dst, const xmlNode *n, const struct pd_src *src, struct pd_err *err)
{
	char *t = text_of(n);
	int rc = 0;
	if (!strcmp(t, "true") || !strcmp(t, "false"))
		*dst = t[0] == 't';
	else
		rc = field_error(src, n, "true or false", t, err);
	free(t);
	return rc;
}

/* <parameter><name>N</name><value>V</value></parameter>; a missing value is "". */
static void read_parameter(struct pd_jenkins *j, const xmlNode *p)
{
	char *name = NULL, *value = NULL;
	for (const xmlNode *c = p->children; c; c = c->next) {
		if (is(c, "name"))
			set_text(&name, c);
		else if (is(c, "value"))
			set_text(&value, c);
	}
	if (!name) {
		free(value);
		return;
	}
	PD_GROW(j->params, j->cap_params, j->n_params + 1);
	j->params[j->n_params].name = name;
	j->params[j->n_params].value = value ? value : pd_xstrdup("");
	j->n_params++;
}

static void read_action(struct pd_jenkins *j, const xmlNode *a)
{
	for (const xmlNode *c = a->children; c; c = c->next)
		if (is(c, "parameter"))
			read_parameter(j, c);
}

static int read_child(struct pd_jenkins *j, int *found, const xmlNode *c,
		      const struct pd_src *src, struct pd_err *err)
{
	int64_t v;
	int rc;
	if (is(c, "number")) {
		if ((rc = get_int(&v, c, src, err)) < 0)
			return rc;
		j->number = (long)v;
		*found = 1;
	} else if (is(c, "timestamp")) {
		return get_int(&j->timestamp_ms, c, src, err);
	} else if (is(c, "duration")) {
		return get_int(&j->duration_ms, c, src, err);
	} else if (is(c, "building")) {
		return get_bool(&j->building, c, src, err);
	} else if (is(c, "id")) {
		set_text(&j->id, c);
	} else if (is(c, "result")) {
		set_text(&j->result, c);
	} else if (is(c, "url")) {
		set_text(&j->url, c);
	} else if (is(c, "displayName")) {
		set_text(&j->display_name, c);
	} else if (is(c, "fullDisplayName")) {
		set_text(&j->full_display_name, c);
	} else if (is(c, "action")) {
		read_action(j, c);
	}
	return 0;
}

static int read_build(struct pd_jenkins *j, const xmlNode *root, const struct pd_src *src,
		      struct pd_err *err)
{
	xmlChar *klass = xmlGetNoNsProp(root, (const xmlChar *)"_class");
	int found = 0, rc = 0;
	free(j->klass);
	j->klass = klass ? pd_xstrdup((const char *)klass) : NULL;
	xmlFree(klass);
	for (const xmlNode *c = root->children; c; c = c->next)
		if ((rc = read_child(j, &found, c, src, err)) < 0)
			return rc;
	if (!found)
		return pd_err_at(err, PD_EPARSE, src->path, xmlGetLineNo(root), 0,
				 "not a build: no <number> in <%.40s>",
				 (const char *)root->name);
	pd_jenkins_set_job(j);
	return 0;
}

int pd_jenkins_xml_parse(struct pd_jenkins *out, const struct pd_src *src, struct pd_err *err)
{
	xmlDocPtr doc = NULL;
	xmlNodePtr root;
	int rc;
	if ((rc = parse_doc(&doc, src, err)) < 0)
		goto done;
	if (!(root = xmlDocGetRootElement(doc))) {
		rc = pd_err_at(err, PD_EPARSE, src->path, 0, 0, "expected a root element");
		goto done;
	}
	if ((rc = read_build(out, root, src, err)) < 0)
		goto done;
	free(out->path);
	out->path = src->path ? pd_xstrdup(src->path) : NULL;
	out->present = 1;
done:
	xmlFreeDoc(doc);
	return rc;
}
