# perfdelta pull on perfrunner's Prometheus path against a real Prometheus (Debian's
# prometheus package: scripts/deps test) started here on 127.0.0.1 over a TSDB backfilled
# with promtool from a run written as that path writes it (fixtures/prometheus/gen.py), a
# loopback Jenkins and a loopback cbmonitor2 snapshot API (tests/pull/fake_server.c).
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/pull/lib.sh"
for t in prometheus promtool python3 curl; do
  command -v "$t" >/dev/null || { echo "$t missing: scripts/deps test installs it"; exit 77; }
done
GEN=$SRC/fixtures/prometheus/gen.py
UUID=6f1c2a4e-9b7d-4c3a-8e21-5d0f7a9b1c34
PROMDIR=$(mktemp -d "$TMP/prom-XXXXXX")
trap 'for p in $pids; do kill "$p" 2>/dev/null; done; for p in $pids; do wait "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT

# The TSDB: the failover run's raw samples backfilled (retention long enough for them).
for kind in failover baseline; do
  python3 "$GEN" openmetrics $kind "$PROMDIR/$kind.om" || fail "gen.py openmetrics"
  promtool tsdb create-blocks-from openmetrics "$PROMDIR/$kind.om" "$PROMDIR/data" >/dev/null || fail "promtool"
done
printf 'global:\n  scrape_interval: 1h\n' >"$PROMDIR/prometheus.yml"

# start_prometheus: on a free port (the kernel's pick, tried again if taken meanwhile)
start_prometheus() {
  for _ in 1 2 3; do
    PPORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    prometheus --config.file="$PROMDIR/prometheus.yml" --storage.tsdb.path="$PROMDIR/data" \
      --storage.tsdb.retention.time=100y --web.listen-address="127.0.0.1:$PPORT" \
      >"$PROMDIR/log" 2>&1 &
    PPID_=$!
    pids="$pids $PPID_"
    deadline=$((SECONDS + 60))
    while [ $SECONDS -lt $deadline ] && kill -0 "$PPID_" 2>/dev/null; do
      curl -fs "http://127.0.0.1:$PPORT/-/ready" >/dev/null 2>&1 && { PROM=http://127.0.0.1:$PPORT; return 0; }
      sleep 0.2
    done
    kill "$PPID_" 2>/dev/null; wait "$PPID_" 2>/dev/null
  done
  return 1
}
start_prometheus || { fail "prometheus did not become ready: $(tail -3 "$PROMDIR/log")"; finish; exit 1; }

# Jenkins (build.json, consoleText with the path's lines) and a perfrunner checkout.
python3 "$GEN" jenkins failover "$TMP/jk" && python3 "$GEN" jenkins baseline "$TMP/jb" || fail "gen.py jenkins"
pr=$TMP/perfrunner
mkdir -p "$pr/clusters" "$pr/tests/n1ql"
cp "$TMP/jk/perfrunner/"*.spec "$pr/clusters/"
cp "$TMP/jk/perfrunner/"*.test "$TMP/jb/perfrunner/"*.test "$pr/tests/n1ql/"
# cbmonitor2's GET /api/v1/snapshots/{id} as docs/cbmonitor-api.md answers it: the phase
# from 14:40:05 to 15:00:05 UTC (1793630405 .. 1793631605)
cat >"$TMP/snapshot.json" <<JSON
{"success": true, "data": {"metadata": {"snapshotId": "$UUID", "services": ["kv", "n1ql", "index"],
 "version": "8.0.0-1234", "ts_start": "2026-11-02T14:40:05Z", "ts_end": "2026-11-02T15:00:05Z",
 "phases": [{"label": "shutdown_n1ql", "ts_start": "2026-11-02T14:40:05Z", "ts_end": "2026-11-02T15:00:05Z"}]}}}
JSON
serve jk "$TMP/jk" --serve "/api/v1/snapshots/$UUID" "$TMP/snapshot.json"
JURL=$URL/job/iris-n1ql/13001/

# 1. With cbmonitor2: the same run as the bundle gen.py writes (query_range's answers
# are what the generator computes for them), read alike by inspect.
expect_code 0 "$PERFDELTA" pull --jenkins "$JURL" --prometheus "$PROM/" --cbmonitor2 "$URL" \
  --perfrunner-dir "$pr" -o "$TMP/run"
# the snapshot, the names, a query_range per name (12): 14 requests beside Jenkins' 2
has "$TMP/out" "^pulled $TMP/run: 16 requests"
if [ "$(ls "$TMP/run/prometheus" | wc -l)" = 12 ]; then ok; else fail "prometheus/: $(ls "$TMP/run/prometheus")"; fi
if cmp -s "$TMP/snapshot.json" "$TMP/run/cbmonitor2/snapshot.json"; then ok; else fail "cbmonitor2/snapshot.json differs"; fi
python3 "$GEN" bundle failover "$TMP/want" || fail "gen.py bundle"
"$PERFDELTA" inspect "$TMP/want" | sed "s#$TMP/want#RUN#g" | grep -v '^  *cbmonitor2 phase\|^notes (' >"$TMP/inspect.want"
"$PERFDELTA" inspect "$TMP/run" | sed "s#$TMP/run#RUN#g" | grep -v '^  *cbmonitor2 phase\|^notes (' >"$TMP/inspect.got"
if [ -s "$TMP/inspect.want" ] && cmp -s "$TMP/inspect.want" "$TMP/inspect.got"; then ok; else fail "inspect differs: $(diff "$TMP/inspect.want" "$TMP/inspect.got" | head -5)"; fi
has "$TMP/inspect.got" "^snapshot +$UUID$"

# 2. Without cbmonitor2: the window is the build's (14:40:00 + 1230 s): the same series.
expect_code 0 "$PERFDELTA" pull --jenkins "$JURL" --prometheus "$PROM" --perfrunner-dir "$pr" \
  -o "$TMP/run2" --quiet
"$PERFDELTA" inspect "$TMP/run2" | grep -c '^  [a-z_]*/' >"$TMP/n2"
"$PERFDELTA" inspect "$TMP/run" | grep -c '^  [a-z_]*/' >"$TMP/n1"
if cmp -s "$TMP/n1" "$TMP/n2"; then ok; else fail "series without cbmonitor2: $(cat "$TMP/n2") against $(cat "$TMP/n1")"; fi

# 3. A snapshot with no series: not found, nothing left.
expect_code 3 "$PERFDELTA" pull --jenkins "$JURL" --prometheus "$PROM" --snapshot no-such-id -o "$TMP/none"
has "$TMP/err" 'no series has job="no-such-id" in the window'
left_nothing "$TMP/none"

# 4. compare from the ticket's two build links: each pulled into the cache first, then
# reused; the same comparison as from the bundles gen.py writes.
KURL=$URL
serve jb "$TMP/jb"
BURL=$URL
export PERFDELTA_CACHE=$TMP/cache
expect_code 1 "$PERFDELTA" compare "$BURL/job/iris-n1ql/13001/" "$KURL/job/iris-n1ql/13001/" \
  --prometheus "$PROM" --perfrunner-dir "$pr" -o "$TMP/cmp-url" --quiet
if [ "$(ls "$TMP/cache/builds" | wc -l)" = 2 ]; then ok; else fail "cache: $(ls "$TMP/cache/builds")"; fi
python3 "$GEN" bundle baseline "$TMP/want-base" || fail "gen.py bundle"
"$PERFDELTA" compare "$TMP/want-base" "$TMP/want" -o "$TMP/cmp-gen" --quiet
for k in verdict findings; do
  a=$(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))[sys.argv[2]], sort_keys=True))' "$TMP/cmp-url/summary.json" $k)
  b=$(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))[sys.argv[2]], sort_keys=True))' "$TMP/cmp-gen/summary.json" $k)
  if [ -n "$a" ] && [ "$a" = "$b" ]; then ok; else fail "compare from URLs: $k differs"; fi
done
n_before=$(wc -l <"$TMP/jb.log")
expect_code 1 "$PERFDELTA" compare "$BURL/job/iris-n1ql/13001/" "$KURL/job/iris-n1ql/13001/" \
  --prometheus "$PROM" -o "$TMP/cmp-url2"
has "$TMP/err" "^perfdelta: reusing $TMP/cache/builds/127\.0\.0\.1_[0-9]+_job_iris-n1ql_13001~[0-9a-f]{16}$"
if [ "$(wc -l <"$TMP/jb.log")" = "$n_before" ]; then ok; else fail "the cached build was pulled again"; fi
curl -fsS "$BURL/quit" >/dev/null

# A perfdb-path build (the seed's baseline: its console has "HTML report:" lines) against
# this Prometheus-path build, both options given: each console picks its path.
serve sb "$B"
expect_code 1 "$PERFDELTA" compare "$URL/job/iris-multi-client/12520/" "$KURL/job/iris-n1ql/13001/" \
  --perfdb "$URL" --prometheus "$PROM" -o "$TMP/cmp-mixed" --quiet
hasf "$TMP/cmp-mixed/index.html" "monitoring: the baseline&#39;s went to perfdb, the target&#39;s to Prometheus"
if [ -d "$(echo "$TMP/cache/builds/127.0.0.1_${PORT}_job_iris-multi-client_12520~"*)/perfdb" ]; then ok; else fail "the perfdb build: $(ls "$TMP/cache/builds")"; fi
quit
URL=$KURL

# 5. A server answering Prometheus' error JSON, or a page, for the names: an error naming
# the query, nothing left; a 503 is tried again.
printf '{"status":"error","errorType":"bad_data","error":"1:2: parse error"}' >"$TMP/err.json"
printf '<html><body>Bad gateway</body></html>' >"$TMP/page.html"
quit
serve bad "$TMP/jk" --serve /e/api/v1/label/__name__/values "$TMP/err.json" \
  --serve /p/api/v1/label/__name__/values "$TMP/page.html"
expect_code 3 "$PERFDELTA" pull --jenkins "$URL/job/iris-n1ql/13001/" --prometheus "$URL/e" -o "$TMP/e"
has "$TMP/err" "^perfdelta: $URL/e/api/v1/label/__name__/values\?match\[\]=.*: the Prometheus server answered an error: bad_data: 1:2: parse error$"
left_nothing "$TMP/e"
expect_code 3 "$PERFDELTA" pull --jenkins "$URL/job/iris-n1ql/13001/" --prometheus "$URL/p" -o "$TMP/p"
has "$TMP/err" "^perfdelta: $URL/p/api/v1/label/__name__/values.*expected a JSON answer"
left_nothing "$TMP/p"
quit
finish
