# summary.md and summary.jira as a ticket shows them. summary.md rendered by cmark-gfm
# (GitHub's Markdown; scripts/deps test installs it) reads as its raw text does: the
# addresses, metric names and labels of the runs appear the same in the raw file and in the
# rendered text, no emphasis or link comes from the data, and the one link is the report's
# (--report-url, else Jenkins' BUILD_URL). Jira gets no link syntax from a finding's kind.
# Both list every finding or say how many more the report has.
. "$(dirname "$0")/lib.sh"
B=$SEED/baseline F=$SEED/failover
if ! command -v cmark-gfm >/dev/null; then fail "cmark-gfm is not installed (scripts/deps test)"; finish; exit 1; fi
expect_code 1 env BUILD_URL='https://ci.example/job/iris/7/' "$PERFDELTA" compare "$B" "$F" -o "$TMP/r" --quiet
md=$TMP/r/summary.md jira=$TMP/r/summary.jira
# raw: nothing escaped that is not markup where it stands
hasnt "$md" '\\[.-]'
hasf "$md" '172.23.100.40'
hasf "$md" 'iris-multi-client #12520 against iris-multi-client #12081'
cmark-gfm -e table -e autolink -e strikethrough "$md" >"$TMP/md.html"
# the rendered text: tags dropped, entities decoded
python3 -c 'import html, re, sys; print(html.unescape(re.sub(r"<[^>]*>", "", open(sys.argv[1]).read())))' \
  "$TMP/md.html" >"$TMP/md.txt"
for s in 'iris-multi-client #12520 against iris-multi-client #12081' '172.23.100.40' \
  'n1ql_thr_Q3_20M_gsi_plasma_ok_hard_failover_1s_1c_1i_avg_query_requests_iris_extra_n1ql' \
  'atop/memcached_cpu' 'ns_server_system/cpu_utilization' 'p < 1e-15'; do
  hasf "$md" "$s"
  hasf "$TMP/md.txt" "$s"
done
# emphasis only where perfdelta writes it (labels), no strike-through, one link: the report
hasnt "$TMP/md.html" '<em>|<del>'
n=$(grep -o '<a href="[^"]*"' "$TMP/md.html" | sort -u | tr '\n' ' ')
if [ "$n" = '<a href="https://ci.example/job/iris/7/" ' ]; then ok; else fail "links in summary.md: $n"; fi
has "$jira" '^Report: \[the full report\|https://ci\.example/job/iris/7/\]$'
hasnt "$jira" '\[post-event-mismatch\]|\[kpi-change\]'
has "$jira" '^1\. \{\{post-event-mismatch\}\} '
# every finding listed, or the count of the rest; numbered by hand 1, 2, 3 ... as the HTML
# and summary.json number them, so that a raw paste's "(finding 13)" can be followed
total=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$TMP/r/summary.json")
for f in "$md" "$jira"; do
  nums=$(grep -oE '^[0-9]+\. ' "$f" | tr -d '. ' | tr '\n' ' ')
  if [ "$nums" = "1 2 3 4 5 6 7 8 9 10 " ]; then ok; else fail "$(basename "$f") numbers its findings $nums"; fi
  listed=$(grep -cE '^[0-9]+\. ' "$f")
  more=$(sed -n 's/^\([0-9][0-9]*\) more in the report.*/\1/p' "$f")
  if [ "$((listed + ${more:-0}))" = "$total" ] && [ "$total" -gt 10 ]; then ok
  else fail "$(basename "$f"): $listed listed + ${more:-0} more, $total findings"; fi
done
# --report-url wins over BUILD_URL; without either, no link
expect_code 1 env BUILD_URL='https://ci.example/job/iris/7/' "$PERFDELTA" compare "$B" "$F" -o "$TMP/u" --quiet \
  --report-url 'https://ci.example/job/iris/7/perfdelta/'
hasf "$TMP/u/summary.md" 'Report: [the full report](https://ci.example/job/iris/7/perfdelta/)'
expect_code 1 env -u BUILD_URL "$PERFDELTA" compare "$B" "$F" -o "$TMP/n" --quiet
hasnt "$TMP/n/summary.md" '^Report:'
finish
