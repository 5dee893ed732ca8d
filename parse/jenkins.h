/* Jenkins build readers: api/json (cJSON) and api/xml (libxml2, no DTD, no entities,
 * no network). Both fill the same struct pd_jenkins; errors are PD_EPARSE at a place. */
#ifndef PD_JENKINS_H
#define PD_JENKINS_H

#include "../core/model.h"
#include "../core/src.h"

int pd_jenkins_json_parse(struct pd_jenkins *out, const struct pd_src *src, struct pd_err *err);
int pd_jenkins_xml_parse(struct pd_jenkins *out, const struct pd_src *src, struct pd_err *err);

#endif
