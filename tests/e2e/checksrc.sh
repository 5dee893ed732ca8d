# scripts/checksrc: the source tree passes, and a tree with one fault of each rule fails,
# naming the file, the line and the rule (a checker that cannot fail checks nothing).
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
CHECK="$SRC/scripts/checksrc"

expect_code 0 "$CHECK" "$SRC"

# A small tree with every rule broken once, and its allowed twins beside.
T=$TMP/tree
mkdir -p "$T/core" "$T/parse" "$T/tree" "$T/analyze" "$T/render" "$T/history" "$T/scripts"
cat >"$T/analyze/stats.c" <<'EOF'
#include "../parse/perfdb.h"
double pd_stats_mean(const double *v, int n)
{
	return n ? v[0] : 0;
}
static double helper(void)
{
	return 0;
}
EOF
: >"$T/analyze/x.h"
cat >"$T/render/html.c" <<'EOF'
#include "../tree/tree.h"
#include "../analyze/compare.h"
/* pd_stats_mean(v, n) in a comment is no call */
void pd_html_page(const double *v, int n)
{
	char title[64];
	unsigned char bytes[16];
	const char *names[4];
	const char lit[] = "constant";
	(void)pd_stats_mean(v, n);
}
void write_page(void)
{
}
EOF
cat >"$T/core/buf.c" <<'EOF'
int pd_buf_count = 0;
int pd_other_count = 0;
static char scratch[8], *p;
EOF
expect_code 1 "$CHECK" "$T"
out=$TMP/out
has "$out" '^analyze/stats\.c:1: include: \.\./parse/perfdb\.h: .*analyze/ may include'
has "$out" '^render/html\.c:2: include: \.\./analyze/compare\.h: .*render/ may include'
hasnt "$out" 'tree/tree\.h'
has "$out" '^render/html\.c:10: call: pd_stats_mean'
hasnt "$out" 'html\.c:3: call'
has "$out" '^render/html\.c:12: export: write_page'
has "$out" '^core/buf\.c:2: export: pd_other_count'
hasnt "$out" 'pd_buf_count|pd_html_page|pd_stats_mean:.*export|helper'
has "$out" '^render/html\.c:6: char: title'
has "$out" '^core/buf\.c:3: char: scratch'
hasnt "$out" 'char: (bytes|names|lit|p)\b'

# Every spelling the compiler accepts: from the including folder, from the source root
# (the include path), in angle brackets, the header there or not; and the numbers that
# render/ and cli/ may not name (a constant of numbers), beside those they may.
cat >"$T/render/text.c" <<'EOF'
#include "../analyze/x.h"
#include "analyze/x.h"
#include <analyze/x.h>
#include "analyze/missing.h"
#include "text.h"
#include "core/buf.h"
#include <stdio.h>
/* #include "analyze/x.h" in a comment is no include */
#define TOP_N 5
#define SPAN ((size_t)8 << 20) /* a bound */
#define CHILD_FDS (5 + 2 * TOP_N)
#define NAME "10"
static const double MARGIN = 0.05;
const int pd_text_rows = -40;
static const char *const words[] = {"1"};
EOF
cat >"$T/history/store.c" <<'EOF'
#include "../analyze/x.h"
#include "../cli/usage.h"
char pd_store_path[64];
int unprefixed(void)
{
	return 0;
}
int pd_store_open(void)
{
	return 0;
}
EOF
expect_code 1 "$CHECK" "$T"
has "$out" '^render/text\.c:1: include: \.\./analyze/x\.h: "\.\./analyze/x\.h" is analyze/x\.h'
has "$out" '^render/text\.c:2: include: analyze/x\.h: "analyze/x\.h" is analyze/x\.h'
has "$out" '^render/text\.c:3: include: analyze/x\.h: <analyze/x\.h> is analyze/x\.h'
has "$out" '^render/text\.c:4: include: analyze/missing\.h'
hasnt "$out" 'text\.c:(5|6|7|8): include'
has "$out" '^render/text\.c:9: policy: TOP_N'
has "$out" '^render/text\.c:10: policy: SPAN'
has "$out" '^render/text\.c:13: policy: MARGIN'
has "$out" '^render/text\.c:14: policy: pd_text_rows'
hasnt "$out" 'policy: (CHILD_FDS|NAME|words)'
hasnt "$out" 'history/store\.c:1: include'
has "$out" '^history/store\.c:2: include: \.\./cli/usage\.h: .*history/ may include'
has "$out" '^history/store\.c:3: char: pd_store_path'
has "$out" '^history/store\.c:4: export: unprefixed'
hasnt "$out" 'export: pd_store_open'
rm "$T/render/text.c" "$T/history/store.c"

# An exception silences exactly its entry, and a stale one is only noted.
cat >"$T/scripts/checksrc.allow" <<'EOF'
# a reason
char render/html.c title
prefix core/buf.c other
export render/html.c gone_long_ago
EOF
expect_code 1 "$CHECK" "$T"
hasnt "$out" 'char: title|pd_other_count'
has "$out" 'char: scratch'
has "$TMP/err" "'export render/html.c gone_long_ago' matches nothing"

# The real tree, copied, with one fault planted at a time: each fails the check, naming
# its file and line, and the copy passes again once the fault is gone.
R=$TMP/real
mkdir -p "$R/scripts"
for d in core parse tree analyze render fetch history cli; do cp -R "$SRC/$d" "$R/"; done
cp "$SRC/scripts/checksrc.allow" "$R/scripts/"
expect_code 0 "$CHECK" "$R"
# plant FILE RULE TEXT: appends TEXT to FILE; checksrc fails on TEXT's first line
plant() {
  local f=$1 rule=$2 text=$3 n
  cp "$R/$f" "$TMP/orig"
  n=$(($(wc -l <"$R/$f") + 1))
  printf '%s\n' "$text" >>"$R/$f"
  expect_code 1 "$CHECK" "$R"
  has "$out" "^$f:$n: $rule: "
  cp "$TMP/orig" "$R/$f"
}
plant render/html.c include '#include "../analyze/policy.h"'
plant render/html.c include '#include "analyze/policy.h"'
plant render/html.c include '#include <analyze/compare.h>'
plant render/html.c include '#include "../parse/bundle.h"'
plant fetch/plan.c include '#include "analyze/compare.h"'
plant history/store.c include '#include "cli/usage.h"'
plant history/store.c include '#include <fetch/plan.h>'
plant history/store.c char 'static char scratch[64];'
plant history/store.c export "$(printf 'int unprefixed_export(void)\n{\n\treturn 0;\n}')"
plant render/html.c policy '#define TOP_FINDINGS 5'
plant render/report.c policy 'static const double MARGIN_PCT = 2.5;'
plant cli/drive.c policy '#define WINDOW_RUNS 100'
plant cli/history_base.c policy 'static const unsigned MIN_RUNS = 8u;'
# analyze/'s stages: a stage includes its own and earlier stages, and of analyze/'s own
# folder only the leaves opts.h and policy.h, which include no other of analyze/
plant analyze/stats/infer.c stage '#include "analyze/judge/deltas.h"'
plant analyze/runs/kpi.c stage '#include "../align/views.h"'
plant analyze/tell/words.c stage '#include "analyze/compare.h"'
plant analyze/align/views.c stage '#include "../signature.h"'
plant analyze/policy.h stage '#include "stats/stats.h"'
# a second header with the comparison tree's include guard (as parse/tree.h had): the later
# of the two, in path order, is named at its #ifndef
printf '/* a header */\n#ifndef PD_TREE_H\n#define PD_TREE_H\n#endif\n' >"$R/tree/zz.h"
expect_code 1 "$CHECK" "$R"
has "$out" "^tree/zz.h:2: guard: PD_TREE_H: tree/tree.h has this include guard too"
rm "$R/tree/zz.h"
expect_code 0 "$CHECK" "$R"
finish
