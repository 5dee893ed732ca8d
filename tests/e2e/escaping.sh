# Strings from inputs land escaped: a metric whose name holds quotes, system("...") and
# backquotes reaches gnuplot as a string and runs nothing; it reaches the HTML, JSON,
# JUnit, Markdown and Jira outputs as text.
. "$(dirname "$0")/lib.sh"
evil='q'"'"'x"; system("touch pwned1") `touch pwned2` <b>&amp;'
for run in baseline failover; do
  cp -r "$SEED/$run" "$TMP/$run"
  for db in "$TMP/$run"/perfdb/atop*; do
    [ -f "$db/memcached_cpu.json" ] && cp "$db/memcached_cpu.json" "$db/$evil.json"
  done
done
# a display name of what GitHub's renderer autolinks in plain text: URLs (http, https,
# ftp), www. and email addresses, mailto: and xmpp: ones too; and what Jira's wiki renderer
# links or reads as markup: its schemes, a [text|URL] link, a {color} macro
links='https://evil.example/login HTTP://e.x ftp://e.x/f www.evil.example me@evil.example mailto:a@e.x xmpp:u@e.x/r'
jira='[text|http://x] {color:red}x{color} file:/etc/passwd irc://e.x'
sed -i "s#<fullDisplayName>[^<]*</fullDisplayName>#<fullDisplayName>iris $links $jira \#12520</fullDisplayName>#" \
  "$TMP/failover/jenkins/build.xml"
cd "$TMP"
expect_code 1 "$PERFDELTA" compare baseline failover -o report --quiet
for f in pwned1 pwned2; do
  if [ -e "$TMP/$f" ] || [ -e "$TMP/report/$f" ]; then fail "gnuplot ran a command from a metric name ($f)"; else ok; fi
done
n=$(grep -l "system(" report/charts/*.svg | wc -l)
if [ "$n" -ge 1 ]; then ok; else fail "the hostile name is in no chart title"; fi
has report/index.html 'q&#39;x&quot;; system\(&quot;touch pwned1&quot;\) `touch pwned2` &lt;b&gt;&amp;amp;'
hasnt report/index.html '<b>&amp;'
has report/summary.json '"metric":"atop/q'"'"'x\\"; system\(\\"touch pwned1\\"\) `touch pwned2` \\u003cb>&amp;"'
if xmllint --noout report/junit.xml 2>/dev/null; then ok; else fail "junit.xml is not well-formed (or xmllint missing: scripts/deps test installs libxml2-utils)"; fi
has report/junit.xml '(&#10;|>)atop/q&apos;x&quot;; system\(&quot;touch pwned1&quot;\) `touch pwned2` &lt;b&gt;&amp;amp; role:kv pre: '
hasf report/summary.md 'atop/q'"'"'x"; system("touch pwned1") \`touch pwned2\` \<b>\&amp;'
hasf report/summary.jira 'atop/q'"'"'x"; system("touch pwned1") `touch pwned2` <b>&amp;amp;' # Jira decodes entities
# Jira: each scheme's first character, the '.' of www. and the '@' as entities (written by
# hand), brackets, bar and braces after a backslash; and no line holds what Jira's
# renderer links (its URL pattern, any case; www.; user@host)
hasf report/summary.jira "*Target*: iris &#104;ttps://evil.example/login &#72;TTP://e.x &#102;tp://e.x/f www&#46;evil.example me&#64;evil.example &#109;ailto:a&#64;e.x xmpp:u&#64;e.x/r \\[text\\|&#104;ttp://x\\] \\{color:red\\}x\\{color\\} &#102;ile:/etc/passwd &#105;rc://e.x #12520,"
if grep -Pi '(?<![a-z0-9])(https?://|ftps?://|mailto:|nntp://|news://|irc://|file:)|www\.|[a-z0-9._+-]@' report/summary.jira; then
  fail "summary.jira holds what Jira links"
else ok; fi
# GitHub's Markdown shows the hostile name as its text, with no tag
if command -v cmark-gfm >/dev/null; then
  cmark-gfm -e table -e autolink report/summary.md >"$TMP/md.html"
  hasf "$TMP/md.html" 'atop/q'"'"'x&quot;; system(&quot;touch pwned1&quot;) `touch pwned2` &lt;b&gt;&amp;amp;'
  # the display name reads as its text (a word joiner, U+2060, after each '@'), and
  # summary.md links nothing
  hasf "$TMP/md.html" "iris $(printf '%s' "$links" | sed 's/@/@\xe2\x81\xa0/g') $jira #12520"
  hasnt "$TMP/md.html" '<a |href='
else fail "cmark-gfm is not installed (scripts/deps test)"; fi
finish
