/* perfrunner configs: a tolerant INI reader (configparser's dialect) and the .spec and
 * .test fields perfdelta uses. */
#ifndef PD_INI_H
#define PD_INI_H

#include "../core/model.h"
#include "../core/src.h"

/* Parses INI text into out (entries in file order; continuation lines joined with '\n';
 * '#' and ';' comment lines skipped). PD_EPARSE at path:line:col otherwise. */
int pd_ini_parse(struct pd_ini *out, const struct pd_src *src, struct pd_err *err);

/* Fills run->cluster and run->nodes (with roles) from a parsed .spec. */
int pd_spec_load(struct pd_run *run, const struct pd_ini *spec, struct pd_err *err);

/* Fills cfg from a parsed .test. A present but malformed number is PD_EPARSE. */
int pd_testcfg_load(struct pd_testcfg *cfg, const struct pd_ini *test, struct pd_err *err);

#endif
