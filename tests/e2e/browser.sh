# The demo report in headless Chromium: the DOM has the findings and a chart of every
# series naming its node, screenshots are taken (build/browser-*.png, for a person to look
# at), no local path appears, and the page fetches nothing from the network (the net log holds no request but Chromium's own
# service pings, which load with about:blank too).
. "$(dirname "$0")/lib.sh"
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then fail "chromium is not installed (scripts/deps test installs it)"; finish; exit 1; fi
browse() { # browse URL ARGS...: a fresh profile each time
  local url=$1; shift
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$(mktemp -d "$TMP/profile-XXXXXX")" "$@" "$url" 2>/dev/null
}
requests() { grep -o '"url":"[^"]*"' "$1" | sed 's/^"url":"//; s/"$//; s/?.*//' | sort -u; }

expect_code 0 "$PERFDELTA" demo -o "$TMP/demo"
# a report goes into tickets: no output names where the bundles lay (the build directory
# holds the seed, the sources the fixtures), only the bundles' names
for f in index.html summary.json summary.md summary.jira junit.xml; do
  hasnt "$TMP/demo/$f" "$(printf '%s' "$BUILD" | sed 's/[][\.*^$]/\\&/g')|$(printf '%s' "$SRC" | sed 's/[][\.*^$]/\\&/g')"
done
page="file://$TMP/demo/index.html"
browse "$page" --dump-dom >"$TMP/dom.html"
has "$TMP/dom.html" '<h2 id="findings">Findings</h2>'
has "$TMP/dom.html" 'class="verdict v-regression"'
for kind in post-event-mismatch lingering-connections kpi-scope recovery; do
  has "$TMP/dom.html" "<span class=\"kind\">$kind</span>"
done
has "$TMP/dom.html" 'atop/memcached_cpu'
# every chart the page shows exists, and every chart drawn is shown
grep -o 'src="charts/[^"]*"' "$TMP/dom.html" | sed 's/src="//; s/"$//' | sort -u >"$TMP/shown"
(cd "$TMP/demo" && ls charts/*.svg | sort) >"$TMP/drawn"
if [ -s "$TMP/shown" ] && cmp -s "$TMP/shown" "$TMP/drawn"; then ok; else fail "charts shown differ from charts drawn"; fi

# every series the comparison covers has a chart that names it in the DOM: a per-node
# series once per target node ("atop/memcached_cpu on 172.23.100.210 (kv#1)"), a
# cluster-scope one once; the series list comes from inspect, not from the report
"$PERFDELTA" inspect --json "$SEED/failover" >"$TMP/target.json"
cat >"$TMP/series.py" <<'EOF'
import html, json, re, sys
run = json.load(open(sys.argv[1]))
dom = open(sys.argv[2]).read()
# a metric's charts are the panels of one image: its alt text names each, "; " apart
alts = [p for a in re.findall(r'<img [^>]*alt="([^"]*)"', dom) for p in html.unescape(a).split("; ")]
# a series zero in both runs is named in the fold line instead of charted
zero = re.search(r'<p class="sub" id="zero">Zero in both runs \(not charted\): (.*?)\.</p>', dom)
alts += html.unescape(re.sub(r'<[^>]*>', '', zero.group(1))).split(", ") if zero else []
missing, seen = [], 0
for s in run["series"]:
    if s["collector"] == "active_tasks" or s["scope"] == "client":
        continue
    name = s["collector"] + "/" + s["metric"]
    seen += 1
    if s["server"]:
        want = lambda a: a.startswith(name + " on " + s["server"] + " (")
    else:
        want = lambda a: a.startswith(name + "  (cluster") or a == name + " (cluster)"
    if not any(want(a) for a in alts):
        missing.append(name + " " + str(s["server"]))
print(seen, "series;", len(missing), "without a chart:", " ".join(missing[:5]))
sys.exit(1 if missing or seen < 100 else 0)
EOF
if python3 "$TMP/series.py" "$TMP/target.json" "$TMP/dom.html" >"$TMP/series.out"; then ok
else fail "$(cat "$TMP/series.out")"; fi
# the removed node's charts stand apart and say so (a panel of its metric's image)
has "$TMP/dom.html" 'alt="[^"]*atop/cbq-engine_rss on 172\.23\.100\.40 \(n1ql#2, the removed node'
# and no absolute local path in the DOM either
hasnt "$TMP/dom.html" "$(printf '%s' "$BUILD" | sed 's/[][\.*^$]/\\&/g')|$(printf '%s' "$SRC" | sed 's/[][\.*^$]/\\&/g')|$(printf '%s' "$TMP" | sed 's/[][\.*^$]/\\&/g')"

# screenshots at 1400 px, for a person to look at (in the build directory): the top of the
# report, the first finding's card, the config diff with the full configs opened, the
# first collector's per-node charts opened, and the event's story per node (a page cut to that part of the report: no
# script can open a <details> in a static page)
cat >"$TMP/cut.py" <<'EOF'
import re, sys
page, part, out = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
head = page[:page.index("<main>") + 6]
if part == "finding":
    i = page.index('<div class="card" id="finding-1">'); j = page.index('<div class="card" id="finding-2">')
elif part == "config":
    i = page.index('<h2 id="config-diff">'); j = page.index('<h2 id="findings">')
elif part == "story":
    i = page.index('<h2 id="event-story">'); j = page.index('<h2 id="changes">')
else:
    i = page.index('<h2 id="metrics">'); j = len(page)
body = page[i:j].replace("<details", "<details open", 1 if part == "nodes" else 2)
open(out, "w").write(head + body + "</main></body></html>")
EOF
shot() { # shot NAME URL HEIGHT
  browse "$2" --window-size=1400,"$3" --hide-scrollbars --screenshot="$TMP/$1.png" >/dev/null
  local size; size=$(stat -c %s "$TMP/$1.png" 2>/dev/null || echo 0)
  if [ "$size" -gt 30000 ]; then ok; else fail "screenshot $1 is $size bytes"; fi
  cp "$TMP/$1.png" "$BUILD/browser-$1.png" 2>/dev/null
}
shot top "$page" 1400
for part in finding config nodes story; do
  python3 "$TMP/cut.py" "$TMP/demo/index.html" "$part" "$TMP/demo/$part.html"
  shot "$part" "file://$TMP/demo/$part.html" 1100
done
# the metrics at 1920 px: two metrics of panels share a row
browse "file://$TMP/demo/nodes.html" --window-size=1920,1100 --hide-scrollbars \
  --screenshot="$TMP/nodes-1920.png" >/dev/null
cp "$TMP/nodes-1920.png" "$BUILD/browser-nodes-1920.png" 2>/dev/null

browse "about:blank" --log-net-log="$TMP/blank.json" --dump-dom >/dev/null
browse "$page" --log-net-log="$TMP/page.json" --dump-dom >/dev/null
requests "$TMP/blank.json" | sed 's|^\(https\?://[^/]*\).*|\1|' | sort -u >"$TMP/blank.hosts"
requests "$TMP/page.json" | grep -E '^(https?|wss?|ftp):' >"$TMP/page.urls" || true
extra=$(sed 's|^\(https\?://[^/]*\).*|\1|' "$TMP/page.urls" | sort -u | grep -vxF -f "$TMP/blank.hosts" |
  grep -vE '^https?://[^/]*\.(google\.com|googleapis\.com|gstatic\.com)$' || true)
if [ -z "$extra" ]; then ok; else fail "the page fetched from the network: $extra"; fi

# Jenkins' HTML Publisher serves the report with its default Content-Security-Policy:
# the directory report must need nothing that policy blocks (inline style, script, data:
# URIs). Chromium logs each violation on the console; any is a failure.
: >"$TMP/served.log"
python3 "$SRC/tests/e2e/csp_server.py" "$TMP/demo" "$TMP/port" "$TMP/served.log" &
server=$!
trap 'kill "$server" 2>/dev/null; rm -rf "$TMP"' EXIT
deadline=$((SECONDS + 30))
while [ ! -s "$TMP/port" ] && [ $SECONDS -lt $deadline ] && kill -0 "$server" 2>/dev/null; do
  sleep 0.1
done
if [ -s "$TMP/port" ]; then ok; else fail "the CSP server did not start"; fi
served="http://127.0.0.1:$(cat "$TMP/port" 2>/dev/null)/index.html"
csp_browse() { # csp_browse LOG ARGS...: the served report, Chromium's console into LOG
  local log=$1; shift
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --enable-logging=stderr --v=0 \
    --user-data-dir="$(mktemp -d "$TMP/profile-XXXXXX")" "$@" "$served" 2>"$log"
}
csp_browse "$TMP/csp.log" --dump-dom >"$TMP/csp-dom.html"
has "$TMP/csp-dom.html" '<h2 id="findings">Findings</h2>'
if grep -q 'Content Security Policy' "$TMP/csp.log"; then
  fail "CSP violations: $(grep -o '"[^"]*Content Security Policy[^"]*"' "$TMP/csp.log" | sort | uniq -c | head -3)"
else ok; fi
# the page fetched its stylesheet and its charts from the server
has "$TMP/served.log" '^200 /style\.css$'
has "$TMP/served.log" '^200 /charts/.*\.svg$'
# (Chromium asks for /favicon.ico, which a report has not)
if grep -v ' /favicon\.ico$' "$TMP/served.log" | grep -q '^[45]'; then
  fail "requests failed: $(grep '^[45]' "$TMP/served.log" | head -3)"
else ok; fi
# screenshots under the CSP at the widths readers use, for a person to look at
for w in 1000 1400 1920; do
  csp_browse "$TMP/csp-$w.log" --window-size=$w,1200 --hide-scrollbars \
    --screenshot="$TMP/csp-$w.png" >/dev/null
  size=$(stat -c %s "$TMP/csp-$w.png" 2>/dev/null || echo 0)
  if [ "$size" -gt 30000 ]; then ok; else fail "screenshot at $w px is $size bytes"; fi
  hasnt "$TMP/csp-$w.log" 'Content Security Policy'
  cp "$TMP/csp-$w.png" "$BUILD/browser-csp-$w.png" 2>/dev/null
done
kill "$server"

# no sideways scroll at the widths readers use, and the width used: a copy of the page
# with a script that measures it (the report itself has none) writes the rightmost edge
# of any element, the viewport's width and main's into the title
python3 - "$TMP/demo/index.html" "$TMP/demo/measure.html" <<'PY'
import sys
page = open(sys.argv[1]).read()
# (every section opened; F: how much of the content's width the rows of metric charts
# fill, in %, their mean: one metric a row left 57 % of it empty at 1920 px)
js = ("<script>document.querySelectorAll('details').forEach(function (d) { d.open = true; });"
      " var r = 0; document.querySelectorAll('main *').forEach(function (e) {"
      " r = Math.max(r, e.getBoundingClientRect().right); });"
      " var m = document.querySelector('main'), cs = getComputedStyle(m);"
      " var l = m.getBoundingClientRect().left + parseFloat(cs.paddingLeft);"
      " var w = m.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);"
      " var rows = {}; document.querySelectorAll('details.collector img').forEach(function (e) {"
      " var b = e.getBoundingClientRect(), k = Math.round(b.top);"
      " rows[k] = Math.max(rows[k] || 0, b.right); });"
      " var f = 0, n = 0; for (var k in rows) { f += (rows[k] - l) / w; n++; }"
      " document.title = 'R=' + Math.ceil(r) + ' V=' + document.documentElement.clientWidth"
      " + ' M=' + Math.round(m.getBoundingClientRect().width)"
      " + ' S=' + document.documentElement.scrollWidth + ' F=' + Math.round(100 * f / n);</script>")
open(sys.argv[2], "w").write(page.replace("</body>", js + "</body>"))
PY
for w in 1000 1400 1920; do
  m=$(browse "file://$TMP/demo/measure.html" --window-size=$w,900 --dump-dom | grep -o '<title>R=[^<]*' | sed 's/<title>//')
  read -r r v mw sw fill <<<"$(echo "$m" | sed 's/[RVMSF]=//g')"
  if [ -n "$m" ] && [ "$r" -le "$v" ] && [ "$sw" -le "$v" ]; then ok
  else fail "at $w px the page scrolls sideways: $m"; fi
  # the content takes the width there is (the margins are 2.5 % each side)
  if [ -n "$m" ] && [ $((mw * 100)) -ge $((v * 90)) ]; then ok
  else fail "at $w px the content is $mw px of $v"; fi
  # and the metrics' charts fill the rows (43 % at 1920 px with one metric a row)
  if [ -n "$m" ] && [ "$fill" -ge 85 ]; then ok
  else fail "at $w px the rows of charts fill $fill % of the width"; fi
done
rm -f "$TMP/demo/measure.html"
# the contents list reaches every finding and every metric group
n=$(grep -o '<a href="#finding-[0-9]*">' "$TMP/dom.html" | sort -u | wc -l)
k=$(grep -o '<div class="card" id="finding-[0-9]*">' "$TMP/dom.html" | wc -l)
if [ "$n" = "$k" ] && [ "$k" -gt 5 ]; then ok; else fail "contents: $n of $k findings"; fi
for g in $(grep -o '<details class="collector" id="collector-[^"]*"' "$TMP/dom.html" | sed 's/.*id="//; s/"$//'); do
  hasf "$TMP/dom.html" "<a href=\"#$g\">"
done
# each finding about a metric links to that metric's charts, and they are there
for a in $(grep -o 'class="charts-link"><a href="#metric-[^"]*"' "$TMP/dom.html" | sed 's/.*href="#//; s/"$//' | sort -u); do
  hasf "$TMP/dom.html" "<div class=\"metric\" id=\"$a\">"
done
has "$TMP/dom.html" 'class="charts-link"><a href="#metric-atop/memcached_cpu">'

# the single file holds its charts as data: URIs
expect_code 0 "$PERFDELTA" demo --single-file -o "$TMP/one.html"
browse "file://$TMP/one.html" --dump-dom >"$TMP/one-dom.html"
# (one SVG per metric: the seed's ~50 metrics and its findings' charts)
n=$(grep -o 'src="data:image/svg+xml,[^"]*"' "$TMP/one-dom.html" | sort -u | wc -l)
drawn=$(ls "$TMP/demo/charts" | grep -c '\.svg$')
if [ "$n" -eq "$drawn" ] && [ "$n" -ge 60 ]; then ok; else fail "single file has $n inline charts, the directory $drawn"; fi
# a bug attachment: every series drawn, and still under 3 MiB
size=$(stat -c %s "$TMP/one.html")
if [ "$size" -lt $((3 << 20)) ]; then ok; else fail "the single file is $size bytes (3 MiB at most)"; fi
finish
