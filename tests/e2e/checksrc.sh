# scripts/checksrc: the source tree passes, and a tree with one fault of each rule fails,
# naming the file, the line and the rule (a checker that cannot fail checks nothing).
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
CHECK="$SRC/scripts/checksrc"

expect_code 0 "$CHECK" "$SRC"

# A small tree with every rule broken once, and its allowed twins beside.
T=$TMP/tree
mkdir -p "$T/core" "$T/parse" "$T/tree" "$T/analyze" "$T/render" "$T/scripts"
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
has "$out" '^analyze/stats\.c:1: include: \.\./parse/perfdb\.h: analyze/ may include'
has "$out" '^render/html\.c:2: include: \.\./analyze/compare\.h: render/ may include'
hasnt "$out" 'tree/tree\.h'
has "$out" '^render/html\.c:10: call: pd_stats_mean'
hasnt "$out" 'html\.c:3: call'
has "$out" '^render/html\.c:12: export: write_page'
has "$out" '^core/buf\.c:2: export: pd_other_count'
hasnt "$out" 'pd_buf_count|pd_html_page|pd_stats_mean:.*export|helper'
has "$out" '^render/html\.c:6: char: title'
has "$out" '^core/buf\.c:3: char: scratch'
hasnt "$out" 'char: (bytes|names|lit|p)\b'

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
finish
