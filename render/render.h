/* What every renderer of a comparison shares: the tree it reads and the runs' labels. */
#ifndef PD_RENDER_H
#define PD_RENDER_H

#include "../tree/tree.h"
#include "../core/buf.h"

/* Labels of the two runs as the user or the inputs name them. */
struct pd_labels {
	const char *base, *target;
};

/* The name of run's bundle without where it lay: the last component of its path
 * ("baseline" for "/home/u/runs/baseline", "x.tar.gz"; a trailing '/' is kept). Borrowed
 * from run->dir. Reports go into tickets: no local path is ever printed in them. */
const char *pd_render_bundle_name(const struct pd_run *run);
/* The last component of path, the same way (a config file's name without its folder). */
const char *pd_render_file_name(const char *path);

/* A run's label: the flag, else Jenkins' full display name, else the bundle's name. */
const char *pd_render_label(const struct pd_run *run, const char *flag);

/* How view v aggregates its members, for a table cell or a chart title: "sum of 6
 * nodes", "mean of 4 nodes", "one node"; a cluster view counts buckets ("sum of 2
 * buckets", "one series"). */
void pd_render_agg(struct pd_buf *b, const struct pd_view *v);

/* The change a delta states (its pd_stated): "+26.9%", "+681 events", "+0.0123"; "-"
 * without an estimate. */
void pd_render_stated(struct pd_buf *b, const struct pd_stated *s);
/* Its interval the same way: "+26.0% to +27.7%", "+590 to +772". */
void pd_render_stated_ci(struct pd_buf *b, const struct pd_stated *s);

#endif
