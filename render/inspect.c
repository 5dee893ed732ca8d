#include "inspect.h"
/* placeholder: being written */
void pd_inspect_text(struct pd_buf *out, const struct pd_run *run)
{
	(void)out, (void)run;
}
void pd_inspect_json(struct pd_buf *out, const struct pd_run *run)
{
	(void)out, (void)run;
}
