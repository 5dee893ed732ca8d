/* The HTML report: self-contained (no network, no script), readable in Jenkins' HTML
 * Publisher and as a single file attached to a ticket. */
#ifndef PD_HTML_H
#define PD_HTML_H

#include "charts.h"
#include "render.h"
#include "../core/buf.h"

/* The stylesheet a report directory holds beside index.html (Jenkins' default CSP allows
 * style-src 'self' only: no inline style). */
#define PD_HTML_CSS_FILE "style.css"
const char *pd_html_css(void);

/* Appends index.html for c to out. svg[i] is the SVG text of plan->charts[i] to inline
 * (single-file mode, as data: URIs, the stylesheet inlined too), or NULL to link
 * charts/<file> and PD_HTML_CSS_FILE: then the page has no inline style, no script and no
 * data: URI, and reads under Jenkins' default Content-Security-Policy. */
void pd_html_report(struct pd_buf *out, const struct pd_comparison *c,
		    const struct pd_chart_plan *plan, const char *const *svg,
		    const struct pd_labels *labels);

#endif
