# The demo report in headless Chromium: the DOM has the findings and every chart, a
# screenshot is taken (build/browser-demo.png, for a person to look at), and the page
# fetches nothing from the network (the net log holds no request but Chromium's own
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
has "$TMP/dom.html" '<h2>Findings</h2>'
has "$TMP/dom.html" 'class="verdict v-regression"'
for kind in post-event-mismatch lingering-connections kpi-scope recovery; do
  has "$TMP/dom.html" "<span class=\"kind\">$kind</span>"
done
has "$TMP/dom.html" 'atop/memcached_cpu'
# every chart the page shows exists, and every chart drawn is shown
grep -o 'src="charts/[^"]*"' "$TMP/dom.html" | sed 's/src="//; s/"$//' | sort -u >"$TMP/shown"
(cd "$TMP/demo" && ls charts/*.svg | sort) >"$TMP/drawn"
if [ -s "$TMP/shown" ] && cmp -s "$TMP/shown" "$TMP/drawn"; then ok; else fail "charts shown differ from charts drawn"; fi

browse "$page" --window-size=1280,2400 --screenshot="$TMP/shot.png" >/dev/null
size=$(stat -c %s "$TMP/shot.png" 2>/dev/null || echo 0)
if [ "$size" -gt 50000 ]; then ok; else fail "screenshot is $size bytes"; fi
cp "$TMP/shot.png" "$BUILD/browser-demo.png" 2>/dev/null

browse "about:blank" --log-net-log="$TMP/blank.json" --dump-dom >/dev/null
browse "$page" --log-net-log="$TMP/page.json" --dump-dom >/dev/null
requests "$TMP/blank.json" | sed 's|^\(https\?://[^/]*\).*|\1|' | sort -u >"$TMP/blank.hosts"
requests "$TMP/page.json" | grep -E '^(https?|wss?|ftp):' >"$TMP/page.urls" || true
extra=$(sed 's|^\(https\?://[^/]*\).*|\1|' "$TMP/page.urls" | sort -u | grep -vxF -f "$TMP/blank.hosts" |
  grep -vE '^https?://[^/]*\.(google\.com|googleapis\.com|gstatic\.com)$' || true)
if [ -z "$extra" ]; then ok; else fail "the page fetched from the network: $extra"; fi

# the single file holds its charts as data: URIs
expect_code 0 "$PERFDELTA" demo --single-file -o "$TMP/one.html"
browse "file://$TMP/one.html" --dump-dom >"$TMP/one-dom.html"
n=$(grep -o 'src="data:image/svg+xml,' "$TMP/one-dom.html" | wc -l)
if [ "$n" -ge 10 ]; then ok; else fail "single file has $n inline charts"; fi
finish
