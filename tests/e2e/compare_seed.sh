# compare on the seed fixture: exit codes, every output, determinism, atomic replacement,
# single-file output, and input strings escaped in the HTML.
. "$(dirname "$0")/lib.sh"
B=$SEED/baseline F=$SEED/failover

expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/out1"
has "$TMP/out" '^verdict: regression'
for f in index.html summary.json junit.xml summary.md summary.jira; do
  if [ -s "$TMP/out1/$f" ]; then ok; else fail "missing $f"; fi
done
n=$(ls "$TMP/out1/charts" | grep -c '\.svg$')
if [ "$n" -ge 10 ]; then ok; else fail "only $n charts"; fi
head -c 120 "$TMP/out1/summary.json" >"$TMP/head"
has "$TMP/head" '^\{"tool":"perfdelta","version":"[0-9.]+","verdict":"regression"'
has "$TMP/out1/summary.json" '"kind":"lingering-connections","metric":"net/ESTABLISHED","scope":"node:172\.23\.100\.40"'
has "$TMP/out1/summary.json" '"kind":"kpi-scope"'
has "$TMP/out1/summary.json" '"event":\{"kind":"hard-failover","node":"172\.23\.100\.40","t_s":(29[5-9]|30[0-5])'
has "$TMP/out1/junit.xml" '<failure type="regression"'
has "$TMP/out1/summary.md" '^## perfdelta: '
has "$TMP/out1/summary.jira" '^h2\. perfdelta: '
# no network: nothing in the page points outside it
hasnt "$TMP/out1/index.html" '(src|href)="(https?:)?//[^"]*\.(js|css|woff2?)'
hasnt "$TMP/out1/index.html" '<script'

# the kpi-scope and recovery findings are about one view, the cluster's query rate: its
# charts are drawn and shown once, under the first of them, and the second's card links
# there (one chart per fact)
has "$TMP/out1/summary.json" '"kind":"kpi-scope","metric":"n1ql_stats/query_requests","scope":"cluster"'
has "$TMP/out1/summary.json" '"kind":"recovery","metric":"n1ql_stats/query_requests","scope":"cluster"'
nth() { grep -o '"kind":"[a-z-]*","metric":"[^"]*","scope":"[^"]*"' "$TMP/out1/summary.json" |
  grep -n "\"kind\":\"$1\",\"metric\":\"n1ql_stats/query_requests\"" | head -1 | cut -d: -f1; }
k=$(nth kpi-scope) r=$(nth recovery)
kk=$(printf %02d "$k") rr=$(printf %02d "$r")
if [ -n "$k" ] && [ -n "$r" ] && [ "$k" -lt "$r" ]; then ok; else fail "kpi-scope is finding '$k', recovery '$r'"; fi
if [ -e "$TMP/out1/charts/f$rr.svg" ] || [ -e "$TMP/out1/charts/f$rr-delta.svg" ]; then
  fail "finding $r's charts drawn again"
else ok; fi
card=$(sed -n "s/.*id=\"finding-$r\"//p" "$TMP/out1/index.html" | sed 's/<div class="card".*//')
if ! printf '%s' "$card" | grep -q '<img' && printf '%s' "$card" | grep -q "href=\"#finding-$k\""; then ok
else fail "card $r shows '$card'"; fi
n=$(grep -o "src=\"charts/f$kk.svg\"" "$TMP/out1/index.html" | wc -l)
if [ "$n" = 1 ]; then ok; else fail "chart f$kk.svg shown $n times"; fi

# the same inputs give the same bytes
expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/out2" --quiet
lines "$TMP/out" 0
for f in index.html summary.json junit.xml summary.md summary.jira charts/f01.svg; do
  if cmp -s "$TMP/out1/$f" "$TMP/out2/$f"; then ok; else fail "$f differs between two runs"; fi
done

# --fail-on never, and the A/A control
expect_code 0 "$PERFDELTA" compare "$B" "$F" -o "$TMP/out2" --fail-on never --quiet
expect_code 0 "$PERFDELTA" compare "$B" "$SEED/baseline-aa" -o "$TMP/aa"
has "$TMP/out" '^verdict: same'

# a failed run leaves the old report as it was, and no temporary directory behind
sum_before=$(cat "$TMP/out1/summary.json" | cksum)
expect_code 3 "$PERFDELTA" compare "$B" "$TMP/missing" -o "$TMP/out1"
if [ "$(cksum <"$TMP/out1/summary.json")" = "$sum_before" ]; then ok; else fail "old report changed"; fi
if ls -d "$TMP"/out1.tmp-* >/dev/null 2>&1; then fail "temporary directory left"; else ok; fi
# an output path that is a file is refused before anything is written
: >"$TMP/afile"
expect_code 3 "$PERFDELTA" compare "$B" "$F" -o "$TMP/afile"
has "$TMP/err" 'not a directory'

# one self-contained file
expect_code 1 "$PERFDELTA" compare "$B" "$F" --single-file -o "$TMP/report.html"
has "$TMP/out" "report: $TMP/report.html"
has "$TMP/report.html" 'src="data:image/svg\+xml,'
hasnt "$TMP/report.html" 'src="charts/'
size=$(stat -c %s "$TMP/report.html")
if [ "$size" -lt 3145728 ]; then ok; else fail "single file is $size bytes, over 3 MiB"; fi

# a hostile Jenkins display name is text in the page, not markup
cp -r "$F" "$TMP/evil"
sed -i 's|<fullDisplayName>[^<]*</fullDisplayName>|<fullDisplayName>\&lt;script\&gt;alert(1)\&lt;/script\&gt;</fullDisplayName>|' "$TMP/evil/jenkins/build.xml"
expect_code 1 "$PERFDELTA" compare "$B" "$TMP/evil" -o "$TMP/evil-out" --quiet
has "$TMP/evil-out/index.html" '&lt;script&gt;alert\(1\)&lt;/script&gt;'
hasnt "$TMP/evil-out/index.html" '<script>alert'
has "$TMP/evil-out/summary.json" '"label":"\\u003cscript>alert\(1\)\\u003c/script>"'

# demo: exits 0 once the report is written, says where it is
expect_code 0 "$PERFDELTA" demo -o "$TMP/demo"
has "$TMP/out" "report: $TMP/demo/index.html"
finish
