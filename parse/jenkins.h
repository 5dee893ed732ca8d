/* Jenkins build readers: api/json (cJSON) and api/xml (libxml2, no DTD, no entities,
 * no network). Both fill the same struct pd_jenkins; errors are PD_EPARSE at a place. */
#ifndef PD_JENKINS_H
#define PD_JENKINS_H

#include "../core/model.h"
#include "../core/src.h"

/* Fills out (a zeroed struct, usually &run->jenkins), sets present and path. A build
 * needs a number; anything else absent stays 0/NULL. Nesting over lim->max_depth is
 * PD_ELIMIT. On error out may hold what was read before it: its owner frees it as usual
 * (pd_run_free). */
int pd_jenkins_json_parse(struct pd_jenkins *out, const struct pd_src *src, struct pd_err *err);
int pd_jenkins_xml_parse(struct pd_jenkins *out, const struct pd_src *src, struct pd_err *err);

/* Sets j->job from j->url ("/job/A/job/B/12/" gives "A/B", kept as written), else from
 * fullDisplayName before its last " #"; NULL when neither says. Used by both readers. */
void pd_jenkins_set_job(struct pd_jenkins *j);

/* Initializes libxml2 once; call it before readers run on several threads (libxml2's
 * own initialization is not safe to race). */
void pd_jenkins_xml_init(void);

#endif
