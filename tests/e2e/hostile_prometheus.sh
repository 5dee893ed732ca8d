# Hostile Prometheus bundles and answers (issues 21, 25): an answer of many results is
# read in bounded time (CPU time, not wall-clock, so that a loaded machine cannot fail
# it), and a bad answer is one line, exit 3.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/pull/lib.sh"
command -v python3 >/dev/null || { echo "python3 missing: scripts/deps test"; exit 77; }
GEN=$SRC/fixtures/prometheus/gen.py
UUID=6f1c2a4e-9b7d-4c3a-8e21-5d0f7a9b1c34
python3 "$GEN" bundle failover "$TMP/fo" >/dev/null || fail "gen.py"

# 1. 60 000 results, each its own series (a bucket each): a series and its output found
# by a hash, not by a pass over all of them (quadratic: 40 000 took 68 s of CPU).
cp -r "$TMP/fo" "$TMP/many"
python3 - "$TMP/many/prometheus/perf_kv_ops.json" "$UUID" <<'PY'
import json, sys
res = [{"metric": {"__name__": "perf_kv_ops", "job": sys.argv[2], "collector": "ns_server",
                   "bucket": "b%d" % i}, "values": [[1762107600, "1"], [1762107605, "2"]]}
       for i in range(60000)]
json.dump({"status": "success", "data": {"resultType": "matrix", "result": res}}, open(sys.argv[1], "w"))
PY
(ulimit -t 60 && exec "$PERFDELTA" inspect "$TMP/many") >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc = 0 ]; then ok; else fail "60 000 results: exit $rc (137/152: over 60 s of CPU) $(tail -1 "$TMP/err")"; fi
has "$TMP/out" '^  ns_server/kv_ops +bucket bucket=b59999 +n=2 '
# the same answers hold more series than --max-series allows: refused at the first past it
# (the 1001st result of the answer, at its "metric"), as a perfdb run's files are; the
# answers' size alone bounded them (200 000 series read with --max-series 1000)
expect_code 3 "$PERFDELTA" inspect "$TMP/many" --max-series 1000
has "$TMP/err" "^perfdelta: $TMP/many/prometheus/[a-z_0-9]+\.json:1:[0-9]+: more than 1000 series in the run \(see --max-series\)$"

# 4. A label holding \u0000 (cJSON would cut the name there: "n1ql_requests\u0000x" read as
# n1ql_requests) is refused at its place, as the other JSON readers refuse it.
cp -r "$TMP/fo" "$TMP/nul"
python3 - "$TMP/nul/prometheus/n1ql_requests.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["data"]["result"][0]["metric"]["instance"] = "172.23.100.55\u0000:8091"
json.dump(d, open(sys.argv[1], "w"))
PY
expect_code 3 "$PERFDELTA" inspect "$TMP/nul"
lines "$TMP/err" 1
has "$TMP/err" 'prometheus/n1ql_requests\.json:1:[0-9]+: refusing a string with a NUL character'

# 3. A large answer (40 series x 8 640 samples, 12 h at 5 s, ~8 MB) is scanned, not held
# as a tree: peak RSS stays under 5x the answer (the input, the samples kept twice and
# the program); a cJSON tree of the whole answer took ~13x (scripts/bench measures it).
python3 "$GEN" big "$TMP/big" 40 8640 || fail "gen.py big"
bytes=$(stat -c %s "$TMP/big/prometheus/bench_gauge.json")
"$BUILD/pd_bench_measure" "$PERFDELTA" inspect "$TMP/big" >"$TMP/measure" 2>"$TMP/err"
has "$TMP/measure" " status=0$"
rss=$(sed -n 's/.*maxrss_kb=\([0-9]*\).*/\1/p' "$TMP/measure")
echo "hostile_prometheus: peak RSS ${rss:-?} kB for a $((bytes / 1024)) kB answer"
if grep -qE "__[at]san_init" "$PERFDELTA"; then
  ok # a sanitizer's shadow memory (and ASan's quarantine) is not the reader's
elif [ -n "$rss" ] && [ "$rss" -lt $((5 * bytes / 1024)) ]; then ok; else fail "peak RSS ${rss:-?} kB, want under 5x the answer's $((bytes / 1024)) kB"; fi

# 2. cbmonitor2's snapshot spanning 1970 to 9999: a query_range per 10 000 steps would be
# millions of requests; the window is refused (exit 3, nothing left) before any is made.
python3 "$GEN" jenkins failover "$TMP/jk" || fail "gen.py jenkins"
cat >"$TMP/snap.json" <<JSON
{"success": true, "data": {"metadata": {"snapshotId": "$UUID",
 "ts_start": "1970-01-01T00:00:01Z", "ts_end": "9999-12-31T00:00:00Z"}}}
JSON
printf '{"status":"success","data":["n1ql_requests"]}' >"$TMP/names.json"
serve jk "$TMP/jk" --serve "/api/v1/snapshots/$UUID" "$TMP/snap.json" \
  --serve /api/v1/label/__name__/values "$TMP/names.json"
expect_code 3 timeout 60 "$PERFDELTA" pull --jenkins "$URL/job/iris-n1ql/13001/" \
  --prometheus "$URL" --cbmonitor2 "$URL" -o "$TMP/bomb"
has "$TMP/err" "^perfdelta: .*snapshot $UUID.* expected at most 31 days"
lines "$TMP/err" 1
left_nothing "$TMP/bomb"
quit

# 5. Every count from the server is bounded before it is used: a names list longer than
# --max-series is refused at once, before any query_range (200 000 names made 5 386
# requests a minute and went on), as the perfdb path refuses a long metric list.
python3 -c 'import json; print(json.dumps({"status": "success", "data": ["m%d" % i for i in range(2000)]}))' >"$TMP/many.json"
serve names "$TMP/jk" --serve /api/v1/label/__name__/values "$TMP/many.json"
expect_code 3 timeout 60 "$PERFDELTA" pull --jenkins "$URL/job/iris-n1ql/13001/" \
  --prometheus "$URL" --max-series 1000 --retries 0 -o "$TMP/names"
has "$TMP/err" "^perfdelta: .*/api/v1/label/__name__/values.*: 2000 series names, more than 1000 series \(--max-series\)$"
lines "$TMP/err" 1
count "$TMP/names.log" "query_range" 0
left_nothing "$TMP/names"
quit
finish
