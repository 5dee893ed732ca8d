# compare given a cbmonitor comparison URL (/reports/html/?snapshot=A&snapshot=B): each
# snapshot pulled from perfdb into the cache (docs/reference.md, "Comparing from URLs"),
# then compared as the bundles would be; a URL without snapshots is a usage error.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/pull/lib.sh"
mkdir -p "$TMP/root/perfdb"
cp -r "$B/perfdb/." "$F/perfdb/." "$TMP/root/perfdb/"
serve cb "$TMP/root"
export PERFDELTA_CACHE=$TMP/cache
CURL="$URL/reports/html/?snapshot=iris_710-1345_access_a7b6&snapshot=iris_710-1345_failover_8a92"
"$PERFDELTA" compare "$CURL" --perfdb "$URL" -o "$TMP/out-url" --quiet >"$TMP/url.txt" 2>&1
code=$?
if [ -d "$TMP/cache/snapshots/iris_710-1345_access_a7b6/perfdb" ] &&
  [ -d "$TMP/cache/snapshots/iris_710-1345_failover_8a92/perfdb" ]; then ok; else fail "cache: $(ls -R "$TMP/cache" | head -5)"; fi
# the same as comparing the pulled bundles by path
"$PERFDELTA" compare "$TMP/cache/snapshots/iris_710-1345_access_a7b6" \
  "$TMP/cache/snapshots/iris_710-1345_failover_8a92" -o "$TMP/out-dir" --quiet >/dev/null 2>&1
if [ $? = $code ] && [ -s "$TMP/out-url/summary.json" ]; then ok; else fail "exit $code from the URL"; fi
a=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["verdict"], len(d["findings"]))' "$TMP/out-url/summary.json")
b=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["verdict"], len(d["findings"]))' "$TMP/out-dir/summary.json")
if [ "$a" = "$b" ]; then ok; else fail "from the URL: $a; from the bundles: $b"; fi
expect_code 2 "$PERFDELTA" compare "$URL/reports/html/?x=1" -o "$TMP/none"
has "$TMP/err" 'a cbmonitor URL without snapshot='
quit
finish
