# A per-request latency below 0 (cbagent's spring_latency / spring_query_latency) is not a
# latency: the readers refuse it as they refuse other impossible values (a non-finite
# number, a time outside 2000..2100): exit 3, one line naming the file, the place and what
# was expected, and no report written. In each of perfdb's layouts: the API's JSON, the
# .data lines, seriesly's {"ts": [v]}. '-0' is 0, a latency.
. "$(dirname "$0")/lib.sh"
FX=$SRC/fixtures/perfdb/latency
DB=spring_latencyiris_710-1345_failover_8a92bucket-1
for run in baseline failover; do
  cp -r "$SEED/$run" "$TMP/$run"
  cp -r "$FX/$run/." "$TMP/$run/perfdb/"
done
F=$TMP/failover/perfdb/$DB/latency_get.json
cp "$F" "$TMP/good.json"
T=1793643700000
# compare_refused WHAT PLACE: compare exits 3, one stderr line naming PLACE and the
# expectation, no report
compare_refused() {
  rm -rf "$TMP/rep"
  expect_code 3 "$PERFDELTA" compare "$TMP/baseline" "$TMP/failover" -o "$TMP/rep" --quiet
  lines "$TMP/err" 1
  has "$TMP/err" "^perfdelta: .*$1.*latency.*expected a value of 0 or more"
  if [ -e "$TMP/rep" ]; then fail "$2: a report was written"; else ok; fi
}
# JSON: the second sample's value, line 1 column of the '-'
printf '[[%s,1.5],\n[%s, -2.25],[%s,3]]' $T $((T + 1000)) $((T + 2000)) >"$F"
compare_refused "$DB/latency_get.json:2:[0-9]+" json
# -0 reads as 0: accepted
printf '[[%s,1.5],[%s,-0],[%s,-0.0e5],[%s,3]]' $T $((T + 1000)) $((T + 1500)) $((T + 2000)) >"$F"
expect_code 1 "$PERFDELTA" compare "$TMP/baseline" "$TMP/failover" -o "$TMP/rep0" --quiet
# a long negative token the fast path does not take (strtod's way)
printf '[[%s,1.5],[%s,-1.00000000000000000000000001e-3]]' $T $((T + 1000)) >"$F"
compare_refused "$DB/latency_get.json:1:[0-9]+" json-slow
rm -f "$F"
# perfdb's .data layout: a line "<ns timestamp> <value>"
printf '%22d %025.9f\n%22d %025.9f\n' $((T * 1000000)) 1.5 $(((T + 1000) * 1000000)) -0.5 \
  >"$TMP/failover/perfdb/$DB/latency_get.data"
compare_refused "$DB/latency_get.data:2:[0-9]+" data
rm -f "$TMP/failover/perfdb/$DB/latency_get.data"
# seriesly's {"ts": [v]}
printf '{"%s": [1.5], "%s": [-7]}' $T $((T + 1000)) >"$F"
compare_refused "$DB/latency_get.json:1:[0-9]+" seriesly
# spring_query_latency too
cp "$TMP/good.json" "$F"
Q=$(ls -d "$TMP"/failover/perfdb/spring_query_latency*)
printf '[[%s,-1]]' $T >"$Q/latency_query.json"
compare_refused "latency_query.json:1:[0-9]+" query
# inspect refuses it the same way
expect_code 3 "$PERFDELTA" inspect "$TMP/failover"
has "$TMP/err" "latency_query.json:1:[0-9]+: .*expected a value of 0 or more"
finish
