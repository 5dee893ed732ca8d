/* A run's signature as JSON (docs/history.md "The signature", docs/signature.schema.json). */
#ifndef PD_SIGNATURE_JSON_H
#define PD_SIGNATURE_JSON_H

#include "../tree/signature.h"
#include "../core/buf.h"

/* Appends s as one JSON object and a newline. */
void pd_signature_json(struct pd_buf *b, const struct pd_signature *s);

#endif
