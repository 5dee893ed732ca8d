# inspect on the seed fixture: nodes and roles, every series decoded, the time base,
# the event from the console with the clock found from the series, and the KPIs.
. "$(dirname "$0")/lib.sh"

expect_code 0 "$PERFDELTA" inspect "$SEED/baseline"
cp "$TMP/out" "$TMP/base"
has "$TMP/base" '^nodes \(6\)$'
for r in 'kv#1 +172\.23\.100\.210 +kv$' 'kv#4 +172\.23\.100\.213 +kv$' 'n1ql#1 +172\.23\.100\.55 +n1ql$' 'index#1 +172\.23\.100\.45 +index$'; do
  has "$TMP/base" "^  $r"
done
hasnt "$TMP/base" '172\.23\.100\.40'
hasnt "$TMP/base" 'undecoded'
has "$TMP/base" '^  event +none$'
has "$TMP/base" '^snapshot +iris_710-1345_access_a7b6$'
has "$TMP/base" 'n1ql_thr_Q3_20M_gsi_plasma_ok_1s_1c_1i_avg_query_requests_iris_extra_n1ql = 3916\.0$'
# every db directory of the bundle is a decoded series group: count metric files
nfiles=$(find "$SEED/baseline/perfdb" -name '*.json' -o -name '*.data' | wc -l)
has "$TMP/base" "^series \($nfiles, "

expect_code 0 "$PERFDELTA" inspect "$SEED/failover"
cp "$TMP/out" "$TMP/fo"
has "$TMP/fo" '^nodes \(7\)$'
has "$TMP/fo" '^  n1ql#2 +172\.23\.100\.40 +n1ql$'
hasnt "$TMP/fo" 'undecoded'
nfiles=$(find "$SEED/failover/perfdb" -name '*.json' -o -name '*.data' | wc -l)
has "$TMP/fo" "^series \($nfiles, "
has "$TMP/fo" 'console clock UTC-08:00 \(from series'
# the failover at 300 s, within one 5 s interval, from the console
has "$TMP/fo" 'event +hard-failover of 172\.23\.100\.40 at (29[5-9]|30[0-5])\.[0-9] s \(from console\)'
has "$TMP/fo" 'sources agree'
has "$TMP/fo" 'n1ql_thr_Q3_20M_gsi_plasma_ok_hard_failover_1s_1c_1i_avg_query_requests_iris_extra_n1ql = 3525\.0$'
# ssh collectors keep sampling the removed node; REST ones stop at the failover
has "$TMP/fo" '^  atop/cbq-engine_rss +server server=172\.23\.100\.40 +n=2[34][0-9] '
has "$TMP/fo" '^  ns_server_system/cpu_utilization +server server=172\.23\.100\.40 +n=(5[0-9]|6[0-1]) '

# the same run with its console in +05:30 gives the same event time
expect_code 0 "$PERFDELTA" inspect "$SEED/failover-ist"
has "$TMP/out" 'console clock UTC\+05:30 \(from series'
t_pst=$(grep -Eo 'at [0-9.]+ s \(from console\)' "$TMP/fo")
if grep -qF -- "$t_pst" "$TMP/out"; then ok; else fail "failover-ist: event differs from '$t_pst'"; fi

# a flag overrides the clock: with the wrong zone the console event moves by 1 h
expect_code 0 "$PERFDELTA" inspect "$SEED/failover" --console-utc-offset -09:00 --json
has "$TMP/out" '"utc_offset_s":-32400'
has "$TMP/out" '"offset_source":"flag"'
# a series whose every sample is the same is said (counters such as errors are; a CPU
# that is, is a dead collector): the baseline has some, the flattened copy one more
cp -r "$SEED/baseline" "$TMP/flat"
f=$(find "$TMP/flat/perfdb" -path '*17223100211/memcached_cpu.json')
sed -E 's/\[([0-9]+), *[-0-9.e+]+\]/[\1, 0]/g' "$f" >"$TMP/flat.json" && mv "$TMP/flat.json" "$f"
constant() { "$PERFDELTA" inspect "$1" | sed -nE 's/^series \(.*; ([0-9]+) constant: every sample the same\)$/\1/p'; }
n0=$(constant "$SEED/baseline") n1=$(constant "$TMP/flat")
if [ -n "$n0" ] && [ "$n1" = $((n0 + 1)) ]; then ok; else fail "constant series: '$n0' then '$n1'"; fi
expect_code 0 "$PERFDELTA" inspect "$TMP/flat"
has "$TMP/out" '^  atop/memcached_cpu +server server=172\.23\.100\.211 .* constant=0$'
hasnt "$TMP/out" '^  atop/memcached_cpu +server server=172\.23\.100\.210 .* constant='
expect_code 0 "$PERFDELTA" inspect "$TMP/flat" --json
if [ "$(grep -o '"constant":true' "$TMP/out" | wc -l)" = "$n1" ]; then ok; else fail "constant in --json"; fi
finish
