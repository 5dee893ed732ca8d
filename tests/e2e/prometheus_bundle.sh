# Bundles of perfrunner's Prometheus path (docs/reference.md, "Prometheus bundles"), written
# by fixtures/prometheus/gen.py as that path writes them: inspect names the snapshot UUID,
# the same analysis runs, summary.json says the path, a question without its series is not
# answered, a perfdb run compares with a Prometheus run, and a bad answer is exit 3.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "python3 missing: scripts/deps test"; exit 77; }
GEN=$SRC/fixtures/prometheus/gen.py
UUID=6f1c2a4e-9b7d-4c3a-8e21-5d0f7a9b1c34
python3 "$GEN" bundle failover "$TMP/fo" && python3 "$GEN" bundle baseline "$TMP/base" || fail "gen.py"

expect_code 0 "$PERFDELTA" inspect "$TMP/fo"
cp "$TMP/out" "$TMP/inspect"
has "$TMP/inspect" "^snapshot +$UUID$"
has "$TMP/inspect" "monitoring: perfrunner's Prometheus path \(snapshot $UUID\)"
has "$TMP/inspect" 'event +hard-failover of 172\.23\.100\.40 at 302\.0 s \(from console\)'
has "$TMP/inspect" '^  atop/cbq-engine_rss +server server=172\.23\.100\.40 +n=241 '
# its scraped series stop at the failover (302 s): the 61 grid points 0, 5, ... 300 s
has "$TMP/inspect" '^  ns_server_system/cpu_utilization +server server=172\.23\.100\.40 +n=61 .* \+300\.0 s'

# The cluster's served rate, worked out here from the answers' counters: each query node's
# rate between samples, summed at each time, averaged over the run.
want=$(python3 - "$TMP/fo/prometheus/n1ql_requests.json" <<'PY'
import json, sys
from collections import defaultdict
tot = defaultdict(float)
for r in json.load(open(sys.argv[1]))["data"]["result"]:
    v = [(t, float(x)) for t, x in r["values"]]
    for (t0, a), (t1, b) in zip(v, v[1:]):
        tot[t1] += (b - a if b >= a else b) / (t1 - t0)
print("%.3f" % (sum(tot.values()) / len(tot)))
PY
)
expect_code 1 "$PERFDELTA" compare "$TMP/base" "$TMP/fo" -o "$TMP/cmp"
cp "$TMP/out" "$TMP/cmp.txt"
got=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["target"]; print(r["snapshot"], r["monitoring"], "%.3f" % r["series_throughput"])' "$TMP/cmp/summary.json")
if [ "$got" = "$UUID prometheus $want" ]; then ok; else fail "summary.json target: $got, want $UUID prometheus $want"; fi
has "$TMP/cmp.txt" '^  2 +does the removed node .*not answered: the removed node has no net/ESTABLISHED series: perfrunner.s Prometheus path carries no net collector'
has "$TMP/cmp.txt" "^  4 +what changed on the query nodes.*cbq-engine on the query node used 9\\.[0-9] % more memory \\(RSS\\) after the failover"
has "$TMP/cmp.txt" '\[event-errors\] 40 queries failed'

# A perfdb run against a Prometheus run: which path each used, what only one has.
"$PERFDELTA" compare "$SEED/baseline" "$TMP/fo" -o "$TMP/mixed" >"$TMP/mixed.txt" 2>&1
hasf "$TMP/mixed/index.html" "monitoring: the baseline&#39;s went to perfdb, the target&#39;s to Prometheus"
hasf "$TMP/mixed/index.html" "net/ESTABLISHED: only in the baseline"
hasf "$TMP/mixed/index.html" "prometheus/n1ql_requests: only in the target"
# (gen.py's test config is not the seed's: the runs are not comparable, which the answer says first)
has "$TMP/mixed.txt" '^  2 +does the removed node .*not answered: the runs are not comparable \(finding 1\); the removed node has no net/ESTABLISHED series'

# Windowed KPIs (fixtures/console/prometheus/windows.txt): paired per id and window;
# the target's GET pre 99.9th is 1.43 against 1.21: (1.43 - 1.21) / 1.21 = +18.18 %.
cp -r "$TMP/fo" "$TMP/w1" && cp -r "$TMP/fo" "$TMP/w2"
# (their snapshot id made the series' job, or every series would be another job's)
W="s/3a4b5c6d-7e8f-4a1b-9c2d-e3f4a5b6c7d8/$UUID/"
sed "$W" "$SRC/fixtures/console/prometheus/windows.txt" >"$TMP/w1/jenkins/consoleText"
sed "$W; s/\"value\": 1.21\$/\"value\": 1.43/" "$SRC/fixtures/console/prometheus/windows.txt" >"$TMP/w2/jenkins/consoleText"
"$PERFDELTA" compare "$TMP/w1" "$TMP/w2" -o "$TMP/wcmp" --quiet >/dev/null 2>&1
got=$(python3 -c '
import json, sys
k = json.load(open(sys.argv[1]))["kpi_windows"]
print(len(k), k[0]["metric"], k[0]["window"], "%.2f" % k[0]["change_pct"], k[1]["window"], "%.2f" % k[1]["change_pct"])' "$TMP/wcmp/summary.json")
if [ "$got" = "4 rebalance_kv_4nodes_get_999th_pre pre 18.18 post 0.00" ]; then ok; else fail "kpi_windows: $got"; fi
if python3 -c 'import jsonschema' 2>/dev/null; then
  if python3 -c 'import json, sys, jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' \
    "$TMP/wcmp/summary.json" "$SRC/docs/summary.schema.json" 2>"$TMP/schema.err"; then ok; else fail "schema: $(tail -1 "$TMP/schema.err")"; fi
fi
hasf "$TMP/wcmp/index.html" "KPIs per latency window"

# Untrusted answers: an error answer and broken JSON are exit 3 naming the file.
cp -r "$TMP/fo" "$TMP/bad"
printf '{"status":"error","errorType":"timeout","error":"query timed out"}' >"$TMP/bad/prometheus/n1ql_errors.json"
expect_code 3 "$PERFDELTA" inspect "$TMP/bad"
has "$TMP/err" 'prometheus/n1ql_errors\.json: the Prometheus server answered an error: timeout: query timed out'
printf '{"status":"success",\n "data": {"resultType": "matrix", "result": [}' >"$TMP/bad/prometheus/n1ql_errors.json"
expect_code 3 "$PERFDELTA" inspect "$TMP/bad"
has "$TMP/err" 'prometheus/n1ql_errors\.json:2:[0-9]+: expected a JSON answer'
finish
